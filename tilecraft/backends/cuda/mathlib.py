"""Scalar math on NVIDIA GPUs, as the `.td` lowering of each math op declares it for CUDA: the
functions NVPTX has instructions for as LLVM intrinsics, every other one as a call to libdevice
(``__nv_expf``, ``__nv_sin``, ...), which the toolchain links in before optimizing, and the
`FUNCTION_HOOKS` written here.

LLVM's intrinsics for transcendental functions (``llvm.exp.f32``, ``llvm.sin.f64``, ``llvm.pow``)
have no NVPTX lowering and abort the process when selected, so no CUDA rule names them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import llvmlite.ir as ir

from .. import llvm_lowering
from ..llvm_lowering import FunctionHook

F32 = ir.FloatType()


def _nan_propagating(name: str) -> FunctionHook:
    """IEEE maximum (``name`` "maximumf") or minimum: NaN if either is NaN, and -0 < +0."""

    def emit(builder: ir.IRBuilder, args: Sequence[ir.Value]) -> ir.Value:
        a, b = args
        pick = builder.fcmp_ordered(">" if name == "maximumf" else "<", a, b)
        chosen = builder.select(pick, a, b)
        bits = ir.IntType(32 if a.type == F32 else 64)
        a_bits, b_bits = builder.bitcast(a, bits), builder.bitcast(b, bits)
        zeros = builder.fcmp_ordered("==", a, b)
        signs = builder.and_(a_bits, b_bits) if name == "maximumf" else builder.or_(a_bits, b_bits)
        chosen = builder.select(zeros, builder.bitcast(signs, a.type), chosen)
        unordered = builder.fcmp_unordered("uno", a, b)
        return builder.select(unordered, ir.Constant(a.type, float("nan")), chosen)

    return emit


FUNCTION_HOOKS: Mapping[str, FunctionHook] = MappingProxyType({
    "maximumf": _nan_propagating("maximumf"), "minimumf": _nan_propagating("minimumf"),
})
"""The GPU's hand-written math functions that `.td` lowerings name (``FunctionHook<"name">``):
IEEE maximum and minimum as compares and selects."""


def emit_math(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    """The math function ``name`` (a key of `tilecraft.generated.lowering.MATH_FUNCTIONS`) of
    ``args``, all f32 or all f64, as the `.td` lowering of its op says for CUDA."""
    return llvm_lowering.emit_math(builder, "cuda", name, args, FUNCTION_HOOKS)
