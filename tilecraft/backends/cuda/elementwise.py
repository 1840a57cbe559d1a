"""Element-wise ops on the GPU, run on each register of a thread: each op applies the rules its
`.td` lowering declares for CUDA (`cpu.elementwise.declared_emitter`, with the CPU backend's op
hooks and the overrides here). Math goes through `GPULowering.math` (libdevice or NVPTX's
instructions). Pointer casts keep the address space, and ``tt.extern_elementwise`` calls its
libdevice symbol."""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.generated.lowering import LOWERINGS, MATH_FUNCTIONS
from tilecraft.ir import Operation

from .. import llvm_lowering
from ..cpu import elementwise as cpu_elementwise
from ..cpu.elementwise import OP_HOOKS, Emitter, declared_emitter
from .lowering import Distributed, GPULowering, lowers, reg_type
from . import mathlib


def apply_per_register(fl: GPULowering, op: Operation, emit: Emitter) -> None:
    """``op``'s result from ``emit`` over its operands' registers (scalars are shared)."""
    operands = [fl.get(v) for v in op.operands]
    tensors = [x for x in operands if isinstance(x, Distributed)]
    if not tensors:
        fl.set(op.results[0], emit(fl, op, operands))
        return
    like = tensors[0]
    values = [emit(fl, op, [x.values[i] if isinstance(x, Distributed) else x
                            for x in operands])
              for i in range(len(like.values))]
    fl.set(op.results[0], fl.new_dist(op.results[0].type, values))


def _register(name: str, emit: Emitter) -> None:
    lowers(name)(lambda fl, op: apply_per_register(fl, op, emit))


def _int_to_ptr(fl: GPULowering, op: Operation, a: list) -> ir.Value:
    return fl.builder.inttoptr(a[0], reg_type(op.results[0].type))


def _ptr_to_int(fl: GPULowering, op: Operation, a: list) -> ir.Value:
    return fl.builder.ptrtoint(a[0], reg_type(op.results[0].type))


def _bitcast(fl: GPULowering, op: Operation, a: list) -> ir.Value:
    """Pointers keep their value (LLVM's pointers are untyped); other bitcasts as on the CPU,
    with pointers and integers converted in the pointer's address space."""
    target = reg_type(op.results[0].type)
    value = a[0]
    if isinstance(value.type, ir.PointerType) and isinstance(target, ir.PointerType):
        if value.type.addrspace == target.addrspace:
            return value
        return fl.builder.addrspacecast(value, target)
    if isinstance(target, ir.PointerType):
        return fl.builder.inttoptr(value, target)
    if isinstance(value.type, ir.PointerType):
        return fl.builder.ptrtoint(value, target)
    return cpu_elementwise._bitcast(fl, op, a)


def _div_full(fl: GPULowering, op: Operation, a: list) -> ir.Value:
    """An f32 division as PTX's ``div.full.f32`` (within 2 ulp), as Triton divides."""
    fn = fl.declare("llvm.nvvm.div.full", ir.FloatType(), [ir.FloatType(), ir.FloatType()])
    return fl.builder.call(fn, [a[0], a[1]])


def _extern_elementwise(fl: GPULowering, op: Operation, a: list) -> ir.Value:
    """A libdevice function by its symbol (``__nv_...``); other names of math functions are
    mapped to them."""
    symbol = op.symbol
    if not symbol.startswith("__nv_"):
        name = symbol[:-1] if symbol.endswith("f") and symbol[:-1] in MATH_FUNCTIONS \
            else symbol
        if name in MATH_FUNCTIONS:
            return cpu_elementwise._rounded(fl, op, fl.math(name, list(a)))
    result_ty = reg_type(op.results[0].type)
    fn = fl.declare(symbol, result_ty, [v.type for v in a])
    return fl.builder.call(fn, list(a))


# The op hooks of `.td` lowerings on the GPU: the CPU backend's, with pointer casts keeping
# address spaces, external functions called in libdevice, and f32 divisions as Triton's.
_OP_HOOKS: dict[str, Emitter] = {
    **OP_HOOKS, "bitcast": _bitcast, "int_to_ptr": _int_to_ptr, "ptr_to_int": _ptr_to_int,
    "extern_elementwise": _extern_elementwise, "div_full": _div_full,
}

llvm_lowering.check_hooks("cuda", _OP_HOOKS, mathlib.FUNCTION_HOOKS)
for _name in LOWERINGS:
    if llvm_lowering.has_lowering(_name, "cuda"):
        _register(_name, declared_emitter(_name, "cuda", _OP_HOOKS, mathlib.FUNCTION_HOOKS))
