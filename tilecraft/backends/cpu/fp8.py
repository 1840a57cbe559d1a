"""fp8 emulated in f32 registers: ``f8E4M3FN`` (Triton's fp8e4nv), ``f8E5M2`` (fp8e5) and the
variants Triton's tests run on every target, ``f8E4M3B11FNUZ`` (fp8e4b15: e4m3 with bias 15,
NaN where e4m3fn has it, as Triton reads it), ``f8E4M3FNUZ`` (fp8e4b8) and ``f8E5M2FNUZ``
(fp8e5b16), whose 0x80 is NaN and which have neither infinities nor -0.

In memory an fp8 value is its byte; in registers an f32 holding a value of the fp8 grid.
Rounding to the grid is round-to-nearest-even and saturates to the largest finite value (as
PTX's ``cvt.satfinite`` and the interpreter do); NaN stays NaN. All of it is branch-free integer
and float code, so loops over fp8 data still vectorize.
"""

from __future__ import annotations

from typing import NamedTuple

import llvmlite.ir as ir

F32 = ir.FloatType()
I8 = ir.IntType(8)
I32 = ir.IntType(32)


IEEE = "ieee"  # the all-ones exponent holds infinities and NaNs
FINITE = "fn"  # no infinities; S.1111.111 is NaN
FINITE_UNSIGNED_ZERO = "fnuz"  # no infinities, no -0; 0x80 is NaN


class Fp8Format(NamedTuple):
    """An fp8 layout: ``mantissa`` bits, exponent ``bias``, largest finite value ``largest``
    and how it spends its special codes (``flavor``)."""

    mantissa: int
    bias: int
    largest: float
    flavor: str

    @property
    def min_normal_exponent(self) -> int:
        return 1 - self.bias


FORMATS = {"f8E4M3FN": Fp8Format(3, 7, 448.0, FINITE), "f8E5M2": Fp8Format(2, 15, 57344.0, IEEE),
           "f8E4M3B11FNUZ": Fp8Format(3, 15, 1.75, FINITE),
           "f8E4M3FNUZ": Fp8Format(3, 8, 240.0, FINITE_UNSIGNED_ZERO),
           "f8E5M2FNUZ": Fp8Format(2, 16, 57344.0, FINITE_UNSIGNED_ZERO)}


def _f32(value: float) -> ir.Constant:
    return ir.Constant(F32, value)


def _i32(value: int) -> ir.Constant:
    return ir.Constant(I32, value)


def _fabs(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.bitcast(b.and_(b.bitcast(x, I32), _i32(0x7FFFFFFF)), F32)


def round_to_grid(b: ir.IRBuilder, x: ir.Value, fmt: Fp8Format) -> ir.Value:
    """``x`` (f32) rounded to the nearest value of ``fmt``, saturated, kept as f32."""
    bits = b.bitcast(x, I32)
    sign = b.and_(bits, _i32(-0x80000000))
    magnitude = b.and_(bits, _i32(0x7FFFFFFF))
    drop = 23 - fmt.mantissa
    # normal range: round the f32 mantissa to `mantissa` bits, ties to even
    odd = b.and_(b.lshr(magnitude, _i32(drop)), _i32(1))
    rounded = b.add(magnitude, b.add(_i32((1 << (drop - 1)) - 1), odd))
    normal = b.bitcast(b.and_(rounded, _i32(-(1 << drop))), F32)
    # subnormal range: a multiple of the smallest step, by an exact f32 round-to-even
    step = 2.0 ** (fmt.min_normal_exponent - fmt.mantissa)
    absolute = b.bitcast(magnitude, F32)
    roundeven = b.module.globals.get("llvm.roundeven.f32") or ir.Function(
        b.module, ir.FunctionType(F32, [F32]), "llvm.roundeven.f32")
    small = b.fmul(b.call(roundeven, [b.fmul(absolute, _f32(1.0 / step))]), _f32(step))
    is_small = b.fcmp_ordered("<", absolute, _f32(2.0 ** fmt.min_normal_exponent))
    result = b.select(is_small, small, normal)
    result = b.select(b.fcmp_ordered(">", result, _f32(fmt.largest)), _f32(fmt.largest), result)
    result = b.select(b.fcmp_unordered("uno", x, x), x, result)  # NaN stays NaN
    return b.bitcast(b.or_(b.bitcast(result, I32), sign), F32)


def from_bits(b: ir.IRBuilder, code: ir.Value, fmt: Fp8Format) -> ir.Value:
    """The f32 value of an fp8 byte."""
    wide = b.zext(code, I32)
    sign = b.shl(b.and_(wide, _i32(0x80)), _i32(24))
    exponent = b.and_(b.lshr(wide, _i32(fmt.mantissa)), _i32((1 << (7 - fmt.mantissa)) - 1))
    mantissa = b.and_(wide, _i32((1 << fmt.mantissa) - 1))
    normal_bits = b.or_(b.shl(b.add(exponent, _i32(127 - fmt.bias)), _i32(23)),
                        b.shl(mantissa, _i32(23 - fmt.mantissa)))
    subnormal = b.fmul(b.uitofp(mantissa, F32),
                       _f32(2.0 ** (fmt.min_normal_exponent - fmt.mantissa)))
    magnitude = b.select(b.icmp_unsigned("==", exponent, _i32(0)), subnormal,
                         b.bitcast(normal_bits, F32))
    all_ones = (1 << (7 - fmt.mantissa)) - 1
    if fmt.flavor == FINITE:  # only S.1111.111 is NaN, there is no infinity
        special = b.icmp_unsigned("==", b.and_(wide, _i32(0x7F)), _i32(0x7F))
        magnitude = b.select(special, _f32(float("nan")), magnitude)
    elif fmt.flavor == IEEE:  # IEEE-like infinities and NaNs
        top = b.icmp_unsigned("==", exponent, _i32(all_ones))
        special = b.select(b.icmp_unsigned("==", mantissa, _i32(0)), _f32(float("inf")),
                           _f32(float("nan")))
        magnitude = b.select(top, special, magnitude)
    value = b.bitcast(b.or_(b.bitcast(magnitude, I32), sign), F32)
    if fmt.flavor == FINITE_UNSIGNED_ZERO:  # 0x80, the code of -0 elsewhere, is NaN
        value = b.select(b.icmp_unsigned("==", wide, _i32(0x80)), _f32(float("nan")), value)
    return value


def to_bits(b: ir.IRBuilder, x: ir.Value, fmt: Fp8Format) -> ir.Value:
    """The fp8 byte of ``x``, an f32 already on ``fmt``'s grid (see `round_to_grid`)."""
    bits = b.bitcast(x, I32)
    sign = b.and_(b.lshr(bits, _i32(24)), _i32(0x80))
    absolute = _fabs(b, x)
    exponent = b.sub(b.and_(b.lshr(bits, _i32(23)), _i32(0xFF)), _i32(127 - fmt.bias))
    mantissa = b.and_(b.lshr(bits, _i32(23 - fmt.mantissa)), _i32((1 << fmt.mantissa) - 1))
    normal = b.or_(b.shl(exponent, _i32(fmt.mantissa)), mantissa)
    step = 2.0 ** (fmt.min_normal_exponent - fmt.mantissa)
    subnormal = b.fptoui(b.fmul(absolute, _f32(1.0 / step)), I32)
    is_small = b.fcmp_ordered("<", absolute, _f32(2.0 ** fmt.min_normal_exponent))
    code = b.select(is_small, subnormal, normal)
    if fmt.flavor == IEEE:  # an infinity (a loaded one: rounding saturates) stays one
        infinity = ((1 << (7 - fmt.mantissa)) - 1) << fmt.mantissa
        code = b.select(b.fcmp_ordered("==", absolute, _f32(float("inf"))), _i32(infinity), code)
    if fmt.flavor == FINITE_UNSIGNED_ZERO:  # no -0: a zero is code 0 whatever its sign
        sign = b.select(b.icmp_unsigned("==", code, _i32(0)), _i32(0), sign)
    code = b.or_(code, sign)
    nan_code = {FINITE: 0x7F, IEEE: 0x7E, FINITE_UNSIGNED_ZERO: 0x80}[fmt.flavor]
    code = b.select(b.fcmp_unordered("uno", x, x), _i32(nan_code), code)
    return b.trunc(code, I8)
