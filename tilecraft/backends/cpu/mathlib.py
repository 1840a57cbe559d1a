"""Scalar math for the CPU backend's loop bodies, emitted with llvmlite.

Tile ops become loops whose bodies are scalar code, and LLVM's loop vectorizer widens them. A
call to libm in such a body keeps the loop scalar, so the functions that dominate softmax,
attention, GELU and softplus (`exp`, `exp2`, `expm1`, `log`, `log2`, `log1p`, `tanh`, `erf`)
are written here for f32 as straight-line arithmetic and bit operations (expm1 finishes in
f64): range reduction, minimax polynomials, and selects for the special values. Over all 2**32
inputs they are within one ulp (exp 0.90, exp2 0.88, expm1 0.77, log 0.92, log2 0.99, log1p
0.91, tanh 0.98; erf 0.98 over every input from 2**-20 to 4.5 in magnitude, where it is not x
times a constant or 1), with inf, NaN, overflow, underflow and denormals right. (Through libm,
on one Zen 3 core, tanh of 2**20 floats took 28.8 ms against 1.14 inline, log1p 32.9 against
1.98, expm1 34.8 against 2.69, and an erf GELU 19.1 against 2.85.) Every math function is
reached by name through `emit_math`, which applies the lowering that `.td` declares for its
op: those eight for f32 and rsqrt are the `FUNCTION_HOOKS` here, the others LLVM intrinsics or
calls to libm functions declared in the module (call `load_libm` once before JIT-compiling).

Half-precision values are never LLVM ``half``/``bfloat``: they travel as ``i16`` bit patterns and
are computed on as f32. The conversions (`f16_to_f32`, `f32_to_f16`, `f64_to_f16`, the bf16 ones
and `round_f32_to_f16`/`round_f32_to_bf16`) are integer and bit operations that round to nearest
even, with subnormals, overflow to inf and quiet NaNs, and vectorize as well.

Every emitter takes an `llvmlite.ir.IRBuilder` positioned in a loop body and scalar
``ir.Value``s, and returns an ``ir.Value``. The emitted code assumes IEEE semantics: no
fast-math flags on it, round to nearest and no flushing of denormals.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

import llvmlite.binding as llvm
import llvmlite.ir as ir

from .. import llvm_lowering
from ..llvm_lowering import FunctionHook

F32 = ir.FloatType()
F64 = ir.DoubleType()
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)

# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def _f32_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _require(value: ir.Value, *types: ir.Type) -> None:
    """Raise TypeError unless ``value`` has one of ``types`` (LLVM would reject the IR later)."""
    if value.type not in types:
        expected = " or ".join(str(ty) for ty in types)
        raise TypeError(f"expected an operand of type {expected}, got {value.type}")


def _call_intrinsic(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    """Call ``llvm.<name>`` overloaded on the type of its (same-typed) arguments."""
    ty = args[0].type
    fnty = ir.FunctionType(ty, [ty] * len(args))
    fn = builder.module.declare_intrinsic(f"llvm.{name}", [ty], fnty)
    return builder.call(fn, args)


def _fmuladd(builder: ir.IRBuilder, a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
    """``a * b + c``, fused where the target has FMA (polynomials do not need it fused)."""
    return _call_intrinsic(builder, "fmuladd", [a, b, c])


def _horner(builder: ir.IRBuilder, x: ir.Value, coeffs: Sequence[float]) -> ir.Value:
    """The polynomial ``coeffs[0] + coeffs[1] * x + ...`` in Horner form."""
    ty = x.type
    acc: ir.Value = ir.Constant(ty, coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = _fmuladd(builder, acc, x, ir.Constant(ty, c))
    return acc


def _clamp(builder: ir.IRBuilder, x: ir.Value, lo: float, hi: float) -> ir.Value:
    """x limited to [lo, hi]; NaN stays NaN (both comparisons are false for it)."""
    lo_c, hi_c = ir.Constant(x.type, lo), ir.Constant(x.type, hi)
    x = builder.select(builder.fcmp_ordered("<", x, lo_c), lo_c, x)
    return builder.select(builder.fcmp_ordered(">", x, hi_c), hi_c, x)


# --------------------------------------------------------------------------------------------
# exp, exp2, log, log2 for f32
# --------------------------------------------------------------------------------------------

# Adding 1.5 * 2**23 to a float of magnitude below 2**22 rounds it to an integer (to nearest
# even), which then sits in the low mantissa bits: both the rounded float and the integer come
# out without fptosi, which would give poison for NaN.
_ROUND_SHIFTER = 12582912.0
_LOG2E = 1.4426950408889634
# ln 2 = _LN2_HI + _LN2_LO; _LN2_HI has 15 significant bits, so n * _LN2_HI is exact for the
# exponents |n| < 2**8 met here (Cody and Waite's reduction).
_LN2_HI = 0.693145751953125
_LN2_LO = 1.4286068202862268e-06

# Minimax fits (relative error, Lawson's algorithm, coefficients rounded to f32 one at a time
# from the lowest and the others refitted):
# 2**r = 1 + r * P(r) on [-1/2, 1/2], error 3.0e-9.
_EXP2_P = (0.6931471824645996, 0.24022647738456726, 0.05550359562039375,
           0.00961849931627512, 0.0013390970416367054, 0.00015329309098888189)
# e**r = 1 + r + r**2 * P(r) on [-ln2/2, ln2/2], error 3.4e-9.
_EXP_P = (0.4999999403953552, 0.16666516661643982, 0.04166828468441963,
          0.00836925022304058, 0.0013820468448102474)
# log(1 + f) = f + f**2 * P(f) on [sqrt(1/2) - 1, sqrt(2) - 1], error 4.2e-9.
_LOG_P = (-0.49999988079071045, 0.33333325386047363, -0.2500160038471222,
          0.20002000033855438, -0.16608762741088867, 0.14181219041347504,
          -0.13244688510894775, 0.1290849894285202, -0.07622861862182617)
# log2(1 + f) = f * log2(e) + f**2 * P(f) on [sqrt(1/2) - 1, sqrt(2) - 1], error 4.6e-9.
_LOG2_P = (-0.7213473320007324, 0.4808982014656067, -0.3606986403465271,
           0.28857138752937317, -0.23956844210624695, 0.2044881135225296,
           -0.1913813203573227, 0.18707235157489777, -0.11026164889335632)
# log2(e) = _LOG2E_HI + _LOG2E_LO; _LOG2E_HI has 11 significant bits.
_LOG2E_HI = 1.4423828125
_LOG2E_LO = 3.1222839606925845e-04


def _round_shifted(builder: ir.IRBuilder, shifted: ir.Value) -> tuple[ir.Value, ir.Value]:
    """From ``t + _ROUND_SHIFTER``: t rounded to an integer, as an f32 and as an i32."""
    shifter = ir.Constant(F32, _ROUND_SHIFTER)
    as_float = builder.fsub(shifted, shifter)
    as_int = builder.sub(builder.bitcast(shifted, I32), ir.Constant(I32, _f32_bits(_ROUND_SHIFTER)))
    return as_float, as_int


def _pow2_f32(builder: ir.IRBuilder, k: ir.Value) -> ir.Value:
    """2**k as an f32 for an i32 k in the normal exponent range [-126, 127]."""
    biased = builder.add(k, ir.Constant(I32, 127))
    return builder.bitcast(builder.shl(biased, ir.Constant(I32, 23)), F32)


def _ldexp_f32(builder: ir.IRBuilder, p: ir.Value, n: ir.Value) -> ir.Value:
    """p * 2**n for p in [1/2, 2] and n in [-152, 130], rounded once (denormal results too):
    on AVX-512 hosts one ``llvm.ldexp`` (``vscalefps``, which LLVM elsewhere turns into calls of
    libm's ldexpf); otherwise two products, the first keeping p * 2**(n/2) normal and exact,
    the second rounding."""
    if _host_scales_by_powers_of_two():
        fnty = ir.FunctionType(F32, [F32, I32])
        fn = builder.module.declare_intrinsic("llvm.ldexp", [F32, I32], fnty)
        return builder.call(fn, [p, n])
    half = builder.ashr(n, ir.Constant(I32, 1))
    rest = builder.sub(n, half)
    return builder.fmul(builder.fmul(p, _pow2_f32(builder, half)), _pow2_f32(builder, rest))


@functools.cache
def _host_scales_by_powers_of_two() -> bool:
    """Whether the host has AVX-512's ``vscalefps`` (a vector ``ldexp`` in one instruction)."""
    from .engine import host_target

    return "+avx512f" in host_target().features.split(",")


def _exp2_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    # Below -151 the result rounds to +0 and above 129 it is inf; clamping keeps n in range.
    x = _clamp(builder, x, -151.0, 129.0)
    n_f, n_i = _round_shifted(builder, builder.fadd(x, ir.Constant(F32, _ROUND_SHIFTER)))
    r = builder.fsub(x, n_f)
    p = _fmuladd(builder, r, _horner(builder, r, _EXP2_P), ir.Constant(F32, 1.0))
    return _ldexp_f32(builder, p, n_i)


def _exp_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    # e**-104 rounds to +0 and e**89 overflows; clamping keeps n in range.
    x = _clamp(builder, x, -104.0, 89.0)
    shifted = _fmuladd(builder, x, ir.Constant(F32, _LOG2E), ir.Constant(F32, _ROUND_SHIFTER))
    n_f, n_i = _round_shifted(builder, shifted)
    r = _fmuladd(builder, n_f, ir.Constant(F32, -_LN2_HI), x)
    r = _fmuladd(builder, n_f, ir.Constant(F32, -_LN2_LO), r)
    one = ir.Constant(F32, 1.0)
    p = _fmuladd(builder, r, _fmuladd(builder, r, _horner(builder, r, _EXP_P), one), one)
    return _ldexp_f32(builder, p, n_i)


# tanh(x) = x + x * z * P(z), z = x**2, on [-1, 1]: relative error 5.2e-9 (fitted as the others).
_TANH_P = (-0.33333295583724976, 0.13332344591617584, -0.05387980118393898,
           0.021486656740307808, -0.007946103811264038, 0.0023013625759631395,
           -0.0003584513033274561)
_TANH_SMALL = 1.0


def _tanh_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """tanh: an odd polynomial where |x| < 1, else 1 - 2 / (e**(2|x|) + 1) (inf and NaN through
    exp); with x's sign (-0 too)."""
    z = builder.fmul(x, x)
    near_zero = _fmuladd(builder, builder.fmul(x, z), _horner(builder, z, _TANH_P), x)
    magnitude = _call_intrinsic(builder, "fabs", [x])
    grown = _exp_f32(builder, builder.fadd(magnitude, magnitude))
    one = ir.Constant(F32, 1.0)
    far = builder.fsub(one, builder.fdiv(ir.Constant(F32, 2.0), builder.fadd(grown, one)))
    chosen = builder.select(builder.fcmp_ordered("<", magnitude, ir.Constant(F32, _TANH_SMALL)),
                            near_zero, far)
    return _call_intrinsic(builder, "copysign", [chosen, x])  # (-0 too)


# erf(x) = x + x * P(x**2) on [-0.921875, 0.921875]: relative error 9.9e-9.
_ERF_P = (0.12837916612625122, -0.37612634897232056, 0.11283695697784424,
          -0.026859398931264877, 0.005201035179197788, -0.0008142729639075696,
          8.370191062567756e-05)
_ERF_SMALL = 0.921875
# erf(x) = C + u * Q(u), u = x - _ERF_MIDDLE, on [0.921875, 2]: relative error 1.3e-8 (the
# constant term C is _ERF_C_HIGH + _ERF_C_LOW).
_ERF_MIDDLE = 1.4609375
_ERF_C_HIGH = 0.9611788392066956
_ERF_C_LOW = 1.0275437389850595e-08
_ERF_Q = (0.13351303339004517, -0.19505418837070465, 0.1454707384109497, -0.04124382138252258,
          -0.01954742893576622, 0.02051793597638607, -0.003847218584269285,
          -0.002991605782881379, 0.0015034833922982216, 8.634177356725559e-05)
_ERF_MIDDLE_END = 2.0
# erfc(x) = e**(-x**2) * R(t), t = 1 / (1 + x / 2), on [0.921875, 4]: relative error 1.3e-8.
# Beyond 4, erf rounds to 1.
_ERFC_R = (-0.00012351440091151744, 0.2843840718269348, 0.2636362612247467,
           0.33109644055366516, -0.0598454475402832, 0.49058371782302856, -0.3964753746986389,
           0.0758698359131813, 0.01096331886947155)
_ERF_ONE = 4.0


def _erf_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """erf: an odd polynomial where |x| < 0.921875; a polynomial in |x| - 1.4609375 below 2;
    below 4, 1 - erfc(|x|), erfc as e**(-x**2) (with the rounding error of x**2 put back) times
    a polynomial in 1 / (1 + |x| / 2); then 1; with x's sign (-0 too; NaN through the last
    forms)."""
    one = ir.Constant(F32, 1.0)
    near_zero = _fmuladd(builder, x, _horner(builder, builder.fmul(x, x), _ERF_P), x)
    magnitude = _call_intrinsic(builder, "fabs", [x])
    t = builder.fdiv(one, _fmuladd(builder, magnitude, ir.Constant(F32, 0.5), one))
    square = builder.fmul(magnitude, magnitude)
    square_error = _call_intrinsic(builder, "fma", [magnitude, magnitude, builder.fneg(square)])
    decay = _exp_f32(builder, builder.fneg(square))
    decay = _call_intrinsic(builder, "fma", [builder.fneg(decay), square_error, decay])
    far = builder.fsub(one, builder.fmul(decay, _horner(builder, t, _ERFC_R)))
    far = builder.select(builder.fcmp_ordered(">=", magnitude, ir.Constant(F32, _ERF_ONE)),
                         one, far)
    u = builder.fsub(magnitude, ir.Constant(F32, _ERF_MIDDLE))  # (exact: Sterbenz)
    tail = _fmuladd(builder, _horner(builder, u, _ERF_Q), u, ir.Constant(F32, _ERF_C_LOW))
    middle = builder.fadd(ir.Constant(F32, _ERF_C_HIGH), tail)
    far = builder.select(builder.fcmp_ordered("<", magnitude,
                                              ir.Constant(F32, _ERF_MIDDLE_END)), middle, far)
    chosen = builder.select(builder.fcmp_ordered("<", magnitude, ir.Constant(F32, _ERF_SMALL)),
                            near_zero, far)
    return _call_intrinsic(builder, "copysign", [chosen, x])


# e**r - 1 = r + r**2 * P(r) on [-ln2/2, ln2/2]: relative error 2.3e-9.
_EXPM1_P = (0.5, 0.1666666567325592, 0.04166635870933533, 0.008333389647305012,
            0.0013940720818936825, 0.00019845884526148438)
# Above this, e**x - 1 rounds as e**x does; below -18 it rounds to -1.
_EXPM1_HIGH = 87.0
_EXPM1_LOW = -18.0


def _expm1_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """e**x - 1 as 2**n * p + (2**n - 1), n = round(x / ln 2), p = e**r - 1 of the remainder
    r (a polynomial), summed in f64; `_exp_f32` above 87; x itself for +-0."""
    clamped = _clamp(builder, x, _EXPM1_LOW, _EXPM1_HIGH)
    shifted = _fmuladd(builder, clamped, ir.Constant(F32, _LOG2E),
                       ir.Constant(F32, _ROUND_SHIFTER))
    n_f, n_i = _round_shifted(builder, shifted)
    r = _fmuladd(builder, n_f, ir.Constant(F32, -_LN2_HI), clamped)
    r = _fmuladd(builder, n_f, ir.Constant(F32, -_LN2_LO), r)
    # The rest in f64, rounded once to f32 at the end: p from r (exact) and the polynomial,
    # then 2**n * p + (2**n - 1), where 2**n - 1 is exact.
    poly = builder.fpext(_horner(builder, r, _EXPM1_P), F64)
    wide_r = builder.fpext(r, F64)
    p = _call_intrinsic(builder, "fma", [builder.fmul(wide_r, wide_r), poly, wide_r])
    biased = builder.add(builder.sext(n_i, I64), ir.Constant(I64, 1023))
    scale = builder.bitcast(builder.shl(biased, ir.Constant(I64, 52)), F64)
    wide = _call_intrinsic(builder, "fma", [scale, p,
                                            builder.fsub(scale, ir.Constant(F64, 1.0))])
    result = builder.fptrunc(wide, F32)
    result = builder.select(builder.fcmp_ordered(">", x, ir.Constant(F32, _EXPM1_HIGH)),
                            _exp_f32(builder, x), result)
    return builder.select(builder.fcmp_ordered("==", x, ir.Constant(F32, 0.0)), x, result)


def _split_log_f32(builder: ir.IRBuilder, x: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(e, f) with x = 2**e * (1 + f), f in [sqrt(1/2) - 1, sqrt(2) - 1), e an f32; for finite
    x > 0, denormals included (they are scaled by 2**23 first)."""
    tiny = builder.fcmp_ordered("<", x, ir.Constant(F32, 2.0**-126))
    x = builder.select(tiny, builder.fmul(x, ir.Constant(F32, 2.0**23)), x)
    sqrt_half = ir.Constant(I32, _f32_bits(0.7071067690849304))
    # Subtracting sqrt(1/2)'s bits moves the exponent step from 1 to sqrt(1/2).
    offset = builder.sub(builder.bitcast(x, I32), sqrt_half)
    e = builder.add(builder.ashr(offset, ir.Constant(I32, 23)),
                    builder.select(tiny, ir.Constant(I32, -23), ir.Constant(I32, 0)))
    mantissa = builder.add(builder.and_(offset, ir.Constant(I32, 0x7FFFFF)), sqrt_half)
    f = builder.fsub(builder.bitcast(mantissa, F32), ir.Constant(F32, 1.0))
    return builder.sitofp(e, F32), f


def _log_specials_f32(builder: ir.IRBuilder, x: ir.Value, finite: ir.Value) -> ir.Value:
    """The logarithm's result given its value ``finite`` for finite x > 0: NaN and +inf give
    themselves, +-0 gives -inf, x < 0 gives NaN."""
    result = builder.select(builder.fcmp_unordered(">=", x, ir.Constant(F32, float("inf"))),
                            x, finite)
    zero = ir.Constant(F32, 0.0)
    result = builder.select(builder.fcmp_ordered("==", x, zero),
                            ir.Constant(F32, float("-inf")), result)
    return builder.select(builder.fcmp_ordered("<", x, zero), ir.Constant(F32, float("nan")),
                          result)


def _log_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    e, f = _split_log_f32(builder, x)
    log1p_f = _fmuladd(builder, builder.fmul(f, f), _horner(builder, f, _LOG_P), f)
    y = _fmuladd(builder, e, ir.Constant(F32, _LN2_LO), log1p_f)
    y = _fmuladd(builder, e, ir.Constant(F32, _LN2_HI), y)
    return _log_specials_f32(builder, x, y)


def _log1p_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """log(1 + x) as `_log_f32` of u = 1 + x (rounded), plus (x - (u - 1)) / u, what the
    rounding took from u; the special values of log(u), and x itself for +-0."""
    one = ir.Constant(F32, 1.0)
    u = builder.fadd(x, one)
    lost = builder.fdiv(builder.fsub(x, builder.fsub(u, one)), u)
    e, f = _split_log_f32(builder, u)
    log1p_f = builder.fadd(f, _fmuladd(builder, builder.fmul(f, f),
                                       _horner(builder, f, _LOG_P), lost))
    y = _fmuladd(builder, e, ir.Constant(F32, _LN2_LO), log1p_f)
    y = _fmuladd(builder, e, ir.Constant(F32, _LN2_HI), y)
    result = _log_specials_f32(builder, u, y)
    return builder.select(builder.fcmp_ordered("==", x, ir.Constant(F32, 0.0)), x, result)


def _log2_f32(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    # e + f * log2(e) cancels for x near sqrt(2) and sqrt(1/2), so its leading part is summed
    # exactly: f_hi * _LOG2E_HI is exact (12 + 11 bits) and Fast2Sum gives e + it with its
    # rounding error (|e| >= |f_hi * _LOG2E_HI| unless e = 0); everything else is small.
    e, f = _split_log_f32(builder, x)
    f_hi_bits = builder.and_(builder.bitcast(f, I32), ir.Constant(I32, 0xFFFFF000))
    f_hi = builder.bitcast(f_hi_bits, F32)
    f_lo = builder.fsub(f, f_hi)
    lead = builder.fmul(f_hi, ir.Constant(F32, _LOG2E_HI))
    total = builder.fadd(e, lead)
    error = builder.fsub(lead, builder.fsub(total, e))
    tail = _fmuladd(builder, f, ir.Constant(F32, _LOG2E_LO), error)
    tail = _fmuladd(builder, f_lo, ir.Constant(F32, _LOG2E_HI), tail)
    tail = _fmuladd(builder, builder.fmul(f, f), _horner(builder, f, _LOG2_P), tail)
    return _log_specials_f32(builder, x, builder.fadd(total, tail))


def _rsqrt(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return builder.fdiv(ir.Constant(x.type, 1.0), _call_intrinsic(builder, "sqrt", [x]))


def _unary_hook(emit: Callable[[ir.IRBuilder, ir.Value], ir.Value]) -> FunctionHook:
    return lambda builder, args: emit(builder, args[0])


# --------------------------------------------------------------------------------------------
# Every math function, as `.td` declares it
# --------------------------------------------------------------------------------------------

FUNCTION_HOOKS: Mapping[str, FunctionHook] = MappingProxyType({
    "exp_f32": _unary_hook(_exp_f32), "exp2_f32": _unary_hook(_exp2_f32),
    "log_f32": _unary_hook(_log_f32), "log2_f32": _unary_hook(_log2_f32),
    "tanh_f32": _unary_hook(_tanh_f32), "erf_f32": _unary_hook(_erf_f32),
    "log1p_f32": _unary_hook(_log1p_f32), "expm1_f32": _unary_hook(_expm1_f32),
    "rsqrt": _unary_hook(_rsqrt),
})
"""The CPU's hand-written math functions that `.td` lowerings name (``FunctionHook<"name">``):
the inline f32 exp, exp2, expm1, log, log2, log1p, tanh and erf, and rsqrt as 1 / sqrt."""


def emit_math(builder: ir.IRBuilder, name: str, args: Sequence[ir.Value]) -> ir.Value:
    """The math function ``name`` (a key of `tilecraft.generated.lowering.MATH_FUNCTIONS`) of
    ``args``, all f32 or all f64, as the `.td` lowering of its op says for the CPU: an LLVM
    intrinsic, a call of libm's function (call `load_libm` once before JIT-compiling) or one of
    the `FUNCTION_HOOKS`.

    Raises ValueError for an unknown name or a wrong number of operands, TypeError for operands
    that are not all f32 or all f64; nothing is emitted then.
    """
    return llvm_lowering.emit_math(builder, "cpu", name, args, FUNCTION_HOOKS)


@functools.cache
def load_libm() -> None:
    """Make libm's symbols resolvable by the JIT; call once before finalizing code that uses
    `emit_math` (cached: later calls do nothing).

    Intrinsics such as ``llvm.sin`` and the functions without one (``erf``, ``cbrt``, ...)
    become calls to libm (``sinf``, ``erff``, ...). MCJIT usually finds them among the process's
    symbols, but LLVM's own symbol search only sees libraries loaded through it; loading libm
    explicitly makes resolution independent of how the Python executable was linked.
    """
    import ctypes.util  # (which imports subprocess: only where libm is needed)

    path = ctypes.util.find_library("m")
    if path is not None:
        llvm.load_library_permanently(path)


# --------------------------------------------------------------------------------------------
# Half precision (f16, bf16) as i16 bit patterns
# --------------------------------------------------------------------------------------------


class _Format(NamedTuple):
    """An IEEE binary interchange format: sign, ``exp_bits`` of exponent, ``mant_bits`` stored."""

    exp_bits: int
    mant_bits: int

    @property
    def width(self) -> int:
        return 1 + self.exp_bits + self.mant_bits

    @property
    def bias(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def min_exp(self) -> int:
        """The exponent of the smallest normal number."""
        return 1 - self.bias

    @property
    def inf_bits(self) -> int:
        return ((1 << self.exp_bits) - 1) << self.mant_bits

    def pow2_bits(self, k: int) -> int:
        """The bits of 2**k, a normal number of this format."""
        return (k + self.bias) << self.mant_bits


_FP16 = _Format(5, 10)
_BF16 = _Format(8, 7)
_FP32 = _Format(8, 23)
_FP64 = _Format(11, 52)


def _narrow(builder: ir.IRBuilder, x: ir.Value, source: ir.Type, dst: _Format) -> ir.Value:
    """The bits (an iN of ``dst``'s width) of ``x`` (of type ``source``, f32 or f64) rounded to
    the narrower ``dst``: to nearest even, directly from ``x`` (no double rounding), subnormals
    included, overflow to inf, NaN to a quiet NaN with the sign and the leading payload bits."""
    _require(x, source)
    src = _FP32 if source == F32 else _FP64
    ity = ir.IntType(src.width)

    def const(value: int) -> ir.Constant:
        return ir.Constant(ity, value % (1 << src.width))

    shift = src.mant_bits - dst.mant_bits
    bits = builder.bitcast(x, ity)
    sign = builder.and_(bits, const(1 << (src.width - 1)))
    mag = builder.xor(bits, sign)
    # Normal results: rebias the exponent and round the mantissa to nearest even by adding half
    # an ulp less one, plus the lowest kept bit; a carry moves into the exponent, up to inf.
    odd = builder.and_(builder.lshr(mag, const(shift)), const(1))
    adjust = ((dst.bias - src.bias) << src.mant_bits) + (1 << (shift - 1)) - 1
    rounded = builder.lshr(builder.add(builder.add(mag, const(adjust)), odd), const(shift))
    result = rounded
    overflow = src.pow2_bits(dst.bias + 1)
    if overflow < src.inf_bits:
        # Beyond the binade in which a carry reaches inf, the exponent would wrap.
        result = builder.select(builder.icmp_unsigned(">=", mag, const(overflow)),
                                const(dst.inf_bits), rounded)
    if dst.min_exp > src.min_exp:
        # Subnormal results: adding 2**(dst.min_exp + shift) makes the ulp of the sum the
        # subnormal ulp of dst, so the float adder rounds (to nearest even) and the low bits of
        # the sum count subnormal ulps (up to the smallest normal, whose bits that count is).
        magic = src.pow2_bits(dst.min_exp + shift)
        summed = builder.fadd(builder.bitcast(mag, x.type), builder.bitcast(const(magic), x.type))
        subnormal = builder.sub(builder.bitcast(summed, ity), const(magic))
        tiny = builder.icmp_unsigned("<", mag, const(src.pow2_bits(dst.min_exp)))
        result = builder.select(tiny, subnormal, result)
    payload = builder.and_(builder.lshr(mag, const(shift)), const((1 << dst.mant_bits) - 1))
    quiet_nan = builder.or_(payload, const(dst.inf_bits | 1 << (dst.mant_bits - 1)))
    result = builder.select(builder.icmp_unsigned(">", mag, const(src.inf_bits)), quiet_nan, result)
    result = builder.or_(result, builder.lshr(sign, const(src.width - dst.width)))
    return builder.trunc(result, ir.IntType(dst.width))


def f32_to_f16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """The i16 bits of f32 ``x`` rounded to f16 (nearest even; NaN becomes a quiet NaN)."""
    return _narrow(builder, x, F32, _FP16)


def f64_to_f16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """The i16 bits of f64 ``x`` rounded to f16, directly: going through f32 would round twice,
    and 1 + 2**-11 + 2**-40, say, would become 1 instead of 1 + 2**-10."""
    return _narrow(builder, x, F64, _FP16)


def f32_to_bf16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """The i16 bits of f32 ``x`` rounded to bf16 (nearest even; NaN becomes a quiet NaN)."""
    return _narrow(builder, x, F32, _BF16)


def f64_to_bf16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """The i16 bits of f64 ``x`` rounded to bf16, directly (no double rounding through f32)."""
    return _narrow(builder, x, F64, _BF16)


def f16_to_f32(builder: ir.IRBuilder, bits: ir.Value) -> ir.Value:
    """The f32 value of f16 ``bits`` (an i16), exact; a NaN keeps its payload."""
    _require(bits, I16)
    value = builder.zext(bits, I32)
    sign = builder.shl(builder.and_(value, ir.Constant(I32, 0x8000)), ir.Constant(I32, 16))
    mag = builder.and_(value, ir.Constant(I32, 0x7FFF))
    shifted = builder.shl(mag, ir.Constant(I32, _FP32.mant_bits - _FP16.mant_bits))
    rebias = (_FP32.bias - _FP16.bias) << _FP32.mant_bits
    result = builder.add(shifted, ir.Constant(I32, rebias))
    # Inf and NaN: all exponent bits set, the payload kept.
    result = builder.select(builder.icmp_unsigned(">=", mag, ir.Constant(I32, _FP16.inf_bits)),
                            builder.or_(shifted, ir.Constant(I32, _FP32.inf_bits)), result)
    # Zero and subnormals: mag * 2**-24, exact in f32.
    scaled = builder.fmul(builder.sitofp(mag, F32),
                          ir.Constant(F32, 2.0 ** (_FP16.min_exp - _FP16.mant_bits)))
    tiny = builder.icmp_unsigned("<", mag, ir.Constant(I32, 1 << _FP16.mant_bits))
    result = builder.select(tiny, builder.bitcast(scaled, I32), result)
    return builder.bitcast(builder.or_(result, sign), F32)


def bf16_to_f32(builder: ir.IRBuilder, bits: ir.Value) -> ir.Value:
    """The f32 value of bf16 ``bits`` (an i16), exact: bf16 is the top half of an f32."""
    _require(bits, I16)
    return builder.bitcast(builder.shl(builder.zext(bits, I32), ir.Constant(I32, 16)), F32)


def round_f32_to_f16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """f32 ``x`` rounded to the nearest f16 value, kept as an f32."""
    return f16_to_f32(builder, f32_to_f16(builder, x))


def round_f32_to_bf16(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """f32 ``x`` rounded to the nearest bf16 value, kept as an f32."""
    return bf16_to_f32(builder, f32_to_bf16(builder, x))
