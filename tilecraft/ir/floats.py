"""Floating-point formats of the float types: rounding, bit patterns and MLIR's literal spelling.

A `FloatFormat` describes one binary format (exponent and mantissa widths, bias, and how it
encodes infinities and NaN). Values are held as Python floats rounded to the format, so f32's
``0.1`` is the double nearest to the f32 nearest to 0.1; `to_bits`/`from_bits` convert to the
format's bit pattern for hexadecimal literals.
"""

from __future__ import annotations

import math
import struct

IEEE = "ieee"  # all-ones exponent encodes inf (mantissa 0) and NaN
FINITE = "fn"  # no inf; the all-ones pattern (sign aside) is NaN, e.g. f8E4M3FN
FINITE_UNSIGNED_ZERO = "fnuz"  # no inf, no -0; the pattern 1000...0 is NaN, e.g. f8E5M2FNUZ


class FloatFormat:
    """A binary floating-point format: ``1 + ebits + mbits`` bits wide, exponent ``bias``."""

    __slots__ = ("name", "ebits", "mbits", "bias", "flavor", "width", "_max_bits", "_nan_bits")

    def __init__(self, name: str, ebits: int, mbits: int, bias: int, flavor: str = IEEE) -> None:
        self.name = name
        self.ebits = ebits
        self.mbits = mbits
        self.bias = bias
        self.flavor = flavor
        self.width = 1 + ebits + mbits
        exp_all = (1 << ebits) - 1
        if flavor == IEEE:
            self._max_bits = ((exp_all - 1) << mbits) | ((1 << mbits) - 1)
            self._nan_bits = (exp_all << mbits) | (1 << (mbits - 1))
        elif flavor == FINITE:
            self._max_bits = (exp_all << mbits) | ((1 << mbits) - 2)
            self._nan_bits = (exp_all << mbits) | ((1 << mbits) - 1)
        else:
            self._max_bits = (exp_all << mbits) | ((1 << mbits) - 1)
            self._nan_bits = 1 << (ebits + mbits)

    def to_bits(self, value: float) -> int:
        """The bit pattern of ``value`` rounded to nearest-even in this format."""
        sign_bit = 1 << (self.ebits + self.mbits)
        if math.isnan(value):
            return self._nan_bits
        sign = sign_bit if math.copysign(1.0, value) < 0 else 0
        magnitude = abs(value)
        if math.isinf(magnitude):
            if self.flavor != IEEE:
                return self._nan_bits
            return sign | (((1 << self.ebits) - 1) << self.mbits)
        if magnitude == 0.0:
            return 0 if self.flavor == FINITE_UNSIGNED_ZERO else sign
        exponent = math.frexp(magnitude)[1] - 1
        min_exponent = 1 - self.bias
        if exponent < min_exponent:
            quantum_exp = min_exponent - self.mbits
            bits = round(math.ldexp(magnitude, -quantum_exp))
        else:
            quantum_exp = exponent - self.mbits
            mantissa = round(math.ldexp(magnitude, -quantum_exp))
            bits = ((exponent + self.bias - 1) << self.mbits) + mantissa
        if bits > self._max_bits:
            if self.flavor != IEEE:
                return self._nan_bits
            bits = ((1 << self.ebits) - 1) << self.mbits
        if bits == 0 and self.flavor == FINITE_UNSIGNED_ZERO:
            return 0
        return sign | bits

    def from_bits(self, bits: int) -> float:
        """The value of the bit pattern ``bits`` (a Python float; NaN for NaN patterns)."""
        mbits, ebits = self.mbits, self.ebits
        sign = -1.0 if bits >> (ebits + mbits) & 1 else 1.0
        exponent = (bits >> mbits) & ((1 << ebits) - 1)
        mantissa = bits & ((1 << mbits) - 1)
        exp_all = (1 << ebits) - 1
        if self.flavor == IEEE and exponent == exp_all:
            return sign * math.inf if mantissa == 0 else math.nan
        if self.flavor == FINITE and exponent == exp_all and mantissa == (1 << mbits) - 1:
            return math.nan
        if self.flavor == FINITE_UNSIGNED_ZERO and bits == self._nan_bits:
            return math.nan
        if exponent == 0:
            return sign * math.ldexp(mantissa, 1 - self.bias - mbits)
        return sign * math.ldexp(mantissa | (1 << mbits), exponent - self.bias - mbits)

    def round(self, value: float) -> float:
        """``value`` rounded to the nearest value of this format."""
        return self.from_bits(self.to_bits(value))


class _NativeFormat(FloatFormat):
    """A format the `struct` module packs natively (f32, f64): same results, much faster."""

    __slots__ = ("_code", "_int_code")

    def __init__(self, name: str, ebits: int, mbits: int, bias: int, code: str,
                 int_code: str) -> None:
        super().__init__(name, ebits, mbits, bias)
        self._code = code
        self._int_code = int_code

    def to_bits(self, value: float) -> int:
        try:
            return struct.unpack(self._int_code, struct.pack(self._code, value))[0]
        except OverflowError:
            return super().to_bits(value)

    def from_bits(self, bits: int) -> float:
        return struct.unpack(self._code, struct.pack(self._int_code, bits))[0]

    def round(self, value: float) -> float:
        try:
            return struct.unpack(self._code, struct.pack(self._code, value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)


FORMATS: dict[str, FloatFormat] = {
    "f16": FloatFormat("f16", 5, 10, 15),
    "bf16": FloatFormat("bf16", 8, 7, 127),
    "f32": _NativeFormat("f32", 8, 23, 127, "<f", "<I"),
    "f64": _NativeFormat("f64", 11, 52, 1023, "<d", "<Q"),
    "tf32": FloatFormat("tf32", 8, 10, 127),
    "f8E4M3FN": FloatFormat("f8E4M3FN", 4, 3, 7, FINITE),
    "f8E5M2": FloatFormat("f8E5M2", 5, 2, 15),
    "f8E4M3FNUZ": FloatFormat("f8E4M3FNUZ", 4, 3, 8, FINITE_UNSIGNED_ZERO),
    "f8E5M2FNUZ": FloatFormat("f8E5M2FNUZ", 5, 2, 16, FINITE_UNSIGNED_ZERO),
    "f8E4M3B11FNUZ": FloatFormat("f8E4M3B11FNUZ", 4, 3, 11, FINITE_UNSIGNED_ZERO),
}


def format_float(value: float, fmt: FloatFormat) -> str:
    """MLIR's spelling of a float of format ``fmt``.

    ``%.6e`` (``1.000000e+00``) when it reads back to the same value, else the shortest
    ``%.Ne`` that does, and the hexadecimal bit pattern (``0x7FC00000``) for inf and NaN.
    """
    if math.isfinite(value):
        text = f"{value:.6e}"
        if _same(fmt, float(text), value):
            return text
        for digits in range(7, 18):
            text = f"{value:.{digits}e}"
            if _same(fmt, float(text), value):
                return text
    return f"0x{fmt.to_bits(value):X}"


def _same(fmt: FloatFormat, parsed: float, value: float) -> bool:
    return fmt.to_bits(fmt.round(parsed)) == fmt.to_bits(value)
