"""`tt.atomic_rmw` and `tt.atomic_cas`: one real atomic instruction per element (programs run in
parallel threads), in element order within a program; masked-off elements are skipped and read
as 0. fp16/bf16 operations, which x86 has no atomic for, are compare-and-swap loops on the 16
bits.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation

from . import mathlib
from . import types as T
from .lowering import FunctionLowering, is_tensor, lowers
from .shapes import scalar_constant

ORDERINGS = {"RELAXED": "monotonic", "ACQUIRE": "acquire", "RELEASE": "release",
             "ACQUIRE_RELEASE": "acq_rel"}
RMW_KINDS = {"AND": "and", "OR": "or", "XOR": "xor", "ADD": "add", "FADD": "fadd", "MAX": "max",
        "MIN": "min", "UMAX": "umax", "UMIN": "umin", "XCHG": "xchg"}


def llvm_ordering(op: Operation) -> str:
    """The LLVM ordering of an atomic op's ``sem`` (acq_rel by default)."""
    return ORDERINGS.get(op.sem.name, "acq_rel")


def _elements(fl: FunctionLowering, op: Operation, operands: list, compute) -> None:
    """Runs ``compute(values) -> old`` for every element (under its mask, when the op has one)
    and gives the op's result the old values."""
    result = op.results[0]
    elem = T.element_type(result.type)
    ty = T.reg_type(elem)
    mask_value = op.mask if hasattr(op, "mask") else None

    def element(read) -> ir.Value:
        values = [read(v) for v in operands]
        if mask_value is None:
            return compute(values)
        return fl.select_or_default(read(mask_value), lambda: compute(values),
                                    lambda: scalar_constant(ty, 0))

    if not is_tensor(result):
        fl.set(result, element(fl.get))
        return
    tiles = {v: fl.as_tile(v) for v in [*operands, *([mask_value] if mask_value else [])]}
    out = fl.new_buffer(result.type.shape, ty)
    fl.loop_nest(result.type.shape, lambda idx: fl.store_element(
        out, idx, element(lambda v: tiles[v].emit(fl, idx))))
    fl.set(result, out)


@lowers("tt.atomic_rmw")
def _atomic_rmw(fl: FunctionLowering, op: Operation) -> None:
    elem = T.element_type(op.val.type)
    kind = RMW_KINDS[op.atomic_rmw_op.name]
    ordering = llvm_ordering(op)
    b = fl.builder

    def compute(values: list) -> ir.Value:
        pointer, value = values
        if T.is_half(elem):
            return _half_rmw(fl, kind, pointer, value, elem, ordering)
        if value.type == T.I1:
            old = b.atomic_rmw(kind, pointer, b.zext(value, T.I8), ordering)
            return b.trunc(old, T.I1)
        return b.atomic_rmw(kind, pointer, value, ordering)

    _elements(fl, op, [op.ptr, op.val], compute)


def _half_rmw(fl: FunctionLowering, kind: str, pointer: ir.Value, value: ir.Value, elem,
              ordering: str) -> ir.Value:
    """``kind`` on a 16-bit float in memory by compare-and-swap; returns the old value."""
    b = fl.builder
    to_f32 = mathlib.f16_to_f32 if elem.kind == "f16" else mathlib.bf16_to_f32
    if kind == "xchg":
        return to_f32(b, b.atomic_rmw("xchg", pointer, T.to_memory(fl, value, elem), ordering))
    if kind != "fadd":
        raise NotImplementedError(f"atomic {kind} on {elem.kind}")
    start = b.block
    retry = b.append_basic_block("cas.retry")
    done = b.append_basic_block("cas.done")
    initial = b.load(pointer, typ=T.I16)
    b.branch(retry)
    b.position_at_end(retry)
    expected = b.phi(T.I16)
    expected.add_incoming(initial, start)
    updated = T.to_memory(fl, T.round_narrow(fl, b.fadd(to_f32(b, expected), value), elem), elem)
    pair = b.cmpxchg(pointer, expected, updated, ordering, "monotonic")
    seen = b.extract_value(pair, 0)
    expected.add_incoming(seen, b.block)
    b.cbranch(b.extract_value(pair, 1), done, retry)
    b.position_at_end(done)
    return to_f32(b, expected)


@lowers("tt.atomic_cas")
def _atomic_cas(fl: FunctionLowering, op: Operation) -> None:
    elem = T.element_type(op.val.type)
    ordering = llvm_ordering(op)
    b = fl.builder
    failure = "monotonic" if ordering in ("release", "monotonic") else "acquire"

    def compute(values: list) -> ir.Value:
        pointer, compare, value = values
        if isinstance(value.type, (ir.FloatType, ir.DoubleType)) or T.is_half(elem):
            bits = T.mem_type(elem) if T.is_half(elem) else ir.IntType(
                32 if value.type == T.F32 else 64)
            as_bits = (lambda v: T.to_memory(fl, v, elem)) if T.is_half(elem) else \
                (lambda v: b.bitcast(v, bits))
            pair = b.cmpxchg(pointer, as_bits(compare), as_bits(value), ordering, failure)
            old = b.extract_value(pair, 0)
            return T.from_memory(fl, old, elem) if T.is_half(elem) else b.bitcast(old, value.type)
        pair = b.cmpxchg(pointer, compare, value, ordering, failure)
        return b.extract_value(pair, 0)

    _elements(fl, op, [op.ptr, op.cmp, op.val], compute)
