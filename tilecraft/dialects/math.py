"""Hooks of the math dialect: constant folding, as MLIR's math folders do.

Exact functions (absf, ceil, floor, round, roundeven, trunc, copysign, sqrt, fma, the
classifications and the integer functions) fold for every float type. Transcendental functions
fold only for f32 and f64, computed with the host's libm in double precision and rounded to the
type (MLIR calls the host's float or double functions likewise); a domain or range error leaves
the op alone.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tilecraft.ir import FloatType
from tilecraft.ir.ods import implements

from . import generated_module
from .foldutils import element_type, fold_elementwise, int_width, to_signed, to_unsigned

if TYPE_CHECKING:  # fractions (and decimal, which it loads) only when an fma is folded
    from fractions import Fraction

gen = generated_module(__name__, "math")


def materialize_constant(attr, type_, location):
    """Folded math values are `arith.constant`s."""
    from .arith import materialize_constant as arith_materialize

    return arith_materialize(attr, type_, location)


def _attach(cls, fold) -> None:
    fold.__name__ = "fold"
    fold.__qualname__ = f"{cls.__name__}.fold"
    implements(cls)(fold)


def round_fraction(value: Fraction, type_: FloatType) -> float:
    """The exact rational ``value`` rounded to nearest-even in ``type_``'s format."""
    from fractions import Fraction

    fmt = type_.format
    if value == 0:
        return 0.0
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    exponent = max(exponent, 1 - fmt.bias)
    quantum = Fraction(2) ** (exponent - fmt.mbits)
    rounded = round(magnitude / quantum) * quantum
    try:
        result = float(rounded)
    except OverflowError:
        result = math.inf
    return fmt.round(result if value > 0 else -result)


# -- float functions of one value ----------------------------------------------------------------


def _round_half_away(a: float) -> float:
    if not math.isfinite(a):
        return a
    whole = math.trunc(a)
    if abs(a - whole) >= 0.5:
        whole += 1 if a > 0 else -1
    return math.copysign(float(whole), a)


def _integral(function):
    def apply(a: float) -> float:
        if not math.isfinite(a):
            return a
        return math.copysign(float(function(a)), a)
    return apply


def _sqrt(a: float) -> float | None:
    if math.isnan(a):
        return a
    if a < 0:
        return math.nan
    return math.sqrt(a)


def _cbrt(a: float) -> float | None:
    """Only exact cube roots fold (the host's pow is not exact for them)."""
    if a == 0.0 or not math.isfinite(a):
        return a
    root = round(abs(a) ** (1.0 / 3.0))
    return math.copysign(float(root), a) if root ** 3 == abs(a) else None


#: Functions exact enough to fold for every float type.
_EXACT_UNARY = {
    gen.AbsFOp: abs,
    gen.CeilOp: _integral(math.ceil),
    gen.FloorOp: _integral(math.floor),
    gen.TruncOp: _integral(math.trunc),
    gen.RoundOp: _round_half_away,
    gen.RoundEvenOp: _integral(round),
    gen.SqrtOp: _sqrt,
    gen.CbrtOp: _cbrt,
}

#: Host functions, folded for f32 and f64 only.
_HOST_UNARY = {
    gen.AcosOp: math.acos, gen.AcoshOp: math.acosh, gen.AsinOp: math.asin,
    gen.AsinhOp: math.asinh, gen.AtanOp: math.atan, gen.AtanhOp: math.atanh,
    gen.CosOp: math.cos, gen.CoshOp: math.cosh, gen.ErfOp: math.erf, gen.ErfcOp: math.erfc,
    gen.ExpOp: math.exp, gen.Exp2Op: lambda a: 2.0 ** a, gen.ExpM1Op: math.expm1,
    gen.LogOp: math.log, gen.Log10Op: math.log10, gen.Log1pOp: math.log1p,
    gen.Log2Op: math.log2, gen.RsqrtOp: lambda a: 1.0 / math.sqrt(a),
    gen.SinOp: math.sin, gen.SinhOp: math.sinh, gen.TanOp: math.tan, gen.TanhOp: math.tanh,
}

_HOST_BINARY = {gen.Atan2Op: math.atan2, gen.PowFOp: math.pow}


def _host_type(type_) -> bool:
    elem = element_type(type_)
    return isinstance(elem, FloatType) and elem.kind in ("f32", "f64")


def _guarded(function):
    """``function`` returning None (no fold) on a domain or range error."""
    def apply(*values):
        try:
            result = function(*values)
        except (ValueError, OverflowError, ZeroDivisionError):
            return None
        if isinstance(result, complex):
            return None
        return result
    return apply


def _unary_fold(function, host_only: bool):
    function = _guarded(function)

    def fold(self, operand_constants):
        if host_only and not _host_type(self.result_.type):
            return None
        folded = fold_elementwise(operand_constants, self.result_.type, function)
        return [folded] if folded is not None else None
    return fold


def _binary_fold(function, host_only: bool):
    function = _guarded(function)

    def fold(self, operand_constants):
        if host_only and not _host_type(self.result_.type):
            return None
        folded = fold_elementwise(operand_constants, self.result_.type, function)
        return [folded] if folded is not None else None
    return fold


for _cls, _fn in _EXACT_UNARY.items():
    _attach(_cls, _unary_fold(_fn, host_only=False))
for _cls, _fn in _HOST_UNARY.items():
    _attach(_cls, _unary_fold(_fn, host_only=True))
for _cls, _fn in _HOST_BINARY.items():
    _attach(_cls, _binary_fold(_fn, host_only=True))
_attach(gen.CopySignOp, _binary_fold(math.copysign, host_only=False))


def _fold_fpowi(self, operand_constants):
    if not _host_type(self.result_.type):
        return None
    width = int_width(self.rhs.type)
    folded = fold_elementwise(operand_constants, self.result_.type,
                              _guarded(lambda a, n: a ** to_signed(n, width)))
    return [folded] if folded is not None else None


_attach(gen.FPowIOp, _fold_fpowi)


def _fold_fma(self, operand_constants):
    from fractions import Fraction

    type_ = element_type(self.result_.type)

    def fma(a, b, c):
        if not all(math.isfinite(v) for v in (a, b, c)):
            return a * b + c  # inf and NaN propagate as in IEEE arithmetic
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            return a * b + c  # the sign of a zero sum follows IEEE's rules
        return round_fraction(exact, type_)

    folded = fold_elementwise(operand_constants, self.result_.type, fma)
    return [folded] if folded is not None else None


_attach(gen.FmaOp, _fold_fma)


# -- classification ------------------------------------------------------------------------------


def _is_normal(type_):
    smallest = math.ldexp(1.0, 1 - type_.format.bias)

    def check(a: float) -> int:
        return int(math.isfinite(a) and abs(a) >= smallest)
    return check


def _classification(check_for_type):
    def fold(self, operand_constants):
        elem = element_type(self.operand_.type)
        folded = fold_elementwise(operand_constants, self.result_.type, check_for_type(elem))
        return [folded] if folded is not None else None
    return fold


_attach(gen.IsFiniteOp, _classification(lambda t: lambda a: int(math.isfinite(a))))
_attach(gen.IsInfOp, _classification(lambda t: lambda a: int(math.isinf(a))))
_attach(gen.IsNaNOp, _classification(lambda t: lambda a: int(math.isnan(a))))
_attach(gen.IsNormalOp, _classification(_is_normal))


# -- integer functions ---------------------------------------------------------------------------


def _int_unary(function):
    def fold(self, operand_constants):
        width = int_width(self.result_.type)
        folded = fold_elementwise(operand_constants, self.result_.type,
                                  lambda a: function(to_unsigned(a, width), width))
        return [folded] if folded is not None else None
    return fold


def _ctlz(a: int, width: int) -> int:
    return width - a.bit_length()


def _cttz(a: int, width: int) -> int:
    return width if a == 0 else (a & -a).bit_length() - 1


_attach(gen.AbsIOp, _int_unary(lambda a, w: abs(to_signed(a, w))))
_attach(gen.CountLeadingZerosOp, _int_unary(_ctlz))
_attach(gen.CountTrailingZerosOp, _int_unary(_cttz))
_attach(gen.CtPopOp, _int_unary(lambda a, w: bin(a).count("1")))


def _ipowi(base: int, exponent: int, width: int) -> int | None:
    base, exponent = to_signed(base, width), to_signed(exponent, width)
    if exponent >= 0:
        return pow(base, exponent, 1 << width)
    if base == 1:
        return 1
    if base == -1:
        return 1 if exponent % 2 == 0 else -1
    if base == 0:
        return None  # division by zero
    return 0


def _fold_ipowi(self, operand_constants):
    width = int_width(self.result_.type)
    folded = fold_elementwise(operand_constants, self.result_.type,
                              lambda a, b: _ipowi(a, b, width))
    return [folded] if folded is not None else None


_attach(gen.IPowIOp, _fold_ipowi)
del _cls, _fn
