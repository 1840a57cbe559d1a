"""Scalar math on NVIDIA GPUs: the functions NVPTX has instructions for as LLVM intrinsics, and
every other one as a call to libdevice (``__nv_expf``, ``__nv_sin``, ...), which the toolchain
links in before optimizing.

LLVM's intrinsics for transcendental functions (``llvm.exp.f32``, ``llvm.sin.f64``, ``llvm.pow``)
have no NVPTX lowering and abort the process when selected, so they are never emitted here.
f32 ``exp2`` is NVVM's ``ex2.approx.ftz`` (the instruction libdevice's ``exp2f`` uses, with
results below 2^-126 flushed to zero, as in Triton).
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir

F32 = ir.FloatType()
F64 = ir.DoubleType()

# math-dialect name -> LLVM intrinsic that NVPTX selects for f32 and f64
_NATIVE = {
    "absf": "fabs", "sqrt": "sqrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
    "round": "round", "roundeven": "roundeven", "copysign": "copysign", "fma": "fma",
    "maxnumf": "maxnum", "minnumf": "minnum",
}
# math-dialect name -> libdevice name (``__nv_<name>`` for f64, ``__nv_<name>f`` for f32)
_LIBDEVICE = {
    "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
    "log1p": "log1p", "expm1": "expm1", "sin": "sin", "cos": "cos", "tan": "tan",
    "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh",
    "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "erf": "erf",
    "erfc": "erfc", "cbrt": "cbrt", "powf": "pow", "atan2": "atan2", "remf": "fmod",
    "rsqrt": "rsqrt",
}
_ARITY = {"copysign": 2, "fma": 3, "maxnumf": 2, "minnumf": 2, "powf": 2, "atan2": 2,
          "remf": 2, "maximumf": 2, "minimumf": 2}

MATH_FUNCTIONS = frozenset(_NATIVE) | frozenset(_LIBDEVICE) | {"maximumf", "minimumf"}


def _declare(module: ir.Module, name: str, ty: ir.Type, arity: int) -> ir.Function:
    existing = module.globals.get(name)
    if existing is None:
        existing = ir.Function(module, ir.FunctionType(ty, [ty] * arity), name)
    return existing


def libdevice_call(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    """``__nv_<name>`` (``__nv_<name>f`` for f32 operands) of ``args``."""
    ty = args[0].type
    symbol = f"__nv_{name}f" if ty == F32 else f"__nv_{name}"
    return builder.call(_declare(builder.module, symbol, ty, len(args)), list(args))


def _intrinsic(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    ty = args[0].type
    suffix = "f32" if ty == F32 else "f64"
    return builder.call(_declare(builder.module, f"llvm.{name}.{suffix}", ty, len(args)),
                        list(args))


def _nan_propagating(builder: ir.IRBuilder, name: str, a: ir.Value, b: ir.Value) -> ir.Value:
    """IEEE maximum/minimum: NaN if either is NaN, and -0 < +0."""
    pick = builder.fcmp_ordered(">" if name == "maximumf" else "<", a, b)
    chosen = builder.select(pick, a, b)
    bits = ir.IntType(32 if a.type == F32 else 64)
    a_bits, b_bits = builder.bitcast(a, bits), builder.bitcast(b, bits)
    zeros = builder.fcmp_ordered("==", a, b)
    signs = builder.and_(a_bits, b_bits) if name == "maximumf" else builder.or_(a_bits, b_bits)
    chosen = builder.select(zeros, builder.bitcast(signs, a.type), chosen)
    unordered = builder.fcmp_unordered("uno", a, b)
    return builder.select(unordered, ir.Constant(a.type, float("nan")), chosen)


def emit_math(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    """The math function ``name`` (`MATH_FUNCTIONS`, the `math` dialect's names) of ``args``,
    all f32 or all f64."""
    arity = _ARITY.get(name, 1)
    if len(args) != arity:
        raise ValueError(f"math function {name!r} takes {arity} operands, got {len(args)}")
    ty = args[0].type
    if ty not in (F32, F64) or any(arg.type != ty for arg in args):
        raise TypeError(f"math function {name!r} takes all-f32 or all-f64 operands")
    if name in _NATIVE:
        return _intrinsic(builder, _NATIVE[name], args)
    if name in ("maximumf", "minimumf"):
        return _nan_propagating(builder, name, args[0], args[1])
    if name == "exp2" and ty == F32:
        # what libdevice's exp2f is (ex2.approx), flushing results below 2^-126 to zero as
        # Triton's does (one MUFU op instead of a denormal-scaling sequence)
        return builder.call(_declare(builder.module, "llvm.nvvm.ex2.approx.ftz.f", ty, 1),
                            list(args))
    if name in _LIBDEVICE:
        return libdevice_call(builder, _LIBDEVICE[name], args)
    raise ValueError(f"no GPU math function named {name!r}")
