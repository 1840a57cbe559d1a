"""Loads and stores through tensors of pointers.

A load is one loop nest over its shape that evaluates the pointer (and mask) expression of each
element and copies the element into a stack buffer; masked-off elements take ``other`` (zero
when absent) and are never read. A store is one loop nest that evaluates the pointer, value and
mask expressions in place. The address arithmetic of ``base + offsets`` stays visible to LLVM,
which turns contiguous accesses into (masked) vector loads and stores.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation

from . import types as T
from .lowering import FunctionLowering, is_tensor, lowers
from .shapes import scalar_constant


def _load_element(fl: FunctionLowering, pointer: ir.Value, elem) -> ir.Value:
    return T.from_memory(fl, fl.builder.load(pointer, typ=T.mem_type(elem)), elem)


@lowers("tt.load")
def _load(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    elem = T.element_type(result.type)
    ty = T.reg_type(elem)
    has_mask, has_other = op.mask is not None, op.other is not None

    def element(idx, pointer_of, mask_of, other_of) -> ir.Value:
        def read() -> ir.Value:
            return _load_element(fl, pointer_of(idx), elem)

        if not has_mask:
            return read()
        fallback = (lambda: other_of(idx)) if has_other else (lambda: scalar_constant(ty, 0))
        return fl.select_or_default(mask_of(idx), read, fallback)

    if not is_tensor(result):
        value = element((), lambda idx: fl.get(op.ptr),
                        lambda idx: fl.get(op.mask),
                        lambda idx: fl.get(op.other))
        fl.set(result, value)
        return
    pointers = fl.tile(op.ptr)
    mask = fl.as_tile(op.mask) if has_mask else None
    other = fl.as_tile(op.other) if has_other else None
    out = fl.new_buffer(result.type.shape, ty)

    def body(idx) -> None:
        value = element(idx, lambda i: pointers.emit(fl, i),
                        lambda i: mask.emit(fl, i),
                        lambda i: other.emit(fl, i))
        fl.store_element(out, idx, value)

    fl.loop_nest(result.type.shape, body)
    fl.set(result, out)


@lowers("tt.store")
def _store(fl: FunctionLowering, op: Operation) -> None:
    elem = T.element_type(op.value.type)

    def write(pointer: ir.Value, value: ir.Value) -> None:
        fl.builder.store(T.to_memory(fl, value, elem), pointer)

    if not is_tensor(op.value):
        if op.mask is None:
            write(fl.get(op.ptr), fl.get(op.value))
            return
        with fl.if_then(fl.get(op.mask)):
            write(fl.get(op.ptr), fl.get(op.value))
        return
    pointers, values = fl.tile(op.ptr), fl.as_tile(op.value)
    mask = fl.as_tile(op.mask) if op.mask is not None else None

    def body(idx) -> None:
        if mask is None:
            write(pointers.emit(fl, idx), values.emit(fl, idx))
            return
        with fl.if_then(mask.emit(fl, idx)):
            write(pointers.emit(fl, idx), values.emit(fl, idx))

    fl.loop_nest(op.value.type.shape, body)
