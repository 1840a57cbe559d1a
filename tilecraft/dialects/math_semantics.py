"""The numpy semantics of element-wise arith, math and tt ops that one numpy function does not
give: the helpers the `.td` field interpreterImpl names (`defs/arith.td`: `interpreterImpl =
"divsi"`), written into generated/interpreter.py. Integers are numpy arrays of their storage
type; signless ops read them as signed or unsigned as MLIR does.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["signed", "unsigned", "divsi", "remsi", "divui", "remui", "shli", "shrsi", "shrui",
           "mulhiui", "ipowi", "erf", "erfc", "ctlz", "ctpop", "round_half_away"]

_UINT = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_SINT = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def signed(a: np.ndarray) -> np.ndarray:
    """The integers of ``a`` read as signed (unsigned ones reinterpreted)."""
    a = np.asarray(a)
    if a.dtype.kind == "u":
        return a.view(_SINT[a.dtype.itemsize * 8]) if a.ndim else \
            a.astype(_SINT[a.dtype.itemsize * 8])
    return a


def unsigned(a: np.ndarray) -> np.ndarray:
    """The integers of ``a`` read as unsigned (signed ones reinterpreted)."""
    a = np.asarray(a)
    if a.dtype.kind == "i":
        return a.view(_UINT[a.dtype.itemsize * 8]) if a.ndim else \
            a.astype(_UINT[a.dtype.itemsize * 8])
    return a


def divsi(a, b):
    """arith.divsi: signed division rounding toward zero; 0 where ``b`` is 0."""
    a, b = signed(a), signed(b)
    safe = np.where(b == 0, 1, b).astype(b.dtype)
    q = np.floor_divide(a, safe)
    r = a - q * safe
    q = np.where((r != 0) & ((a < 0) != (safe < 0)), q + 1, q)
    return np.where(b == 0, 0, q).astype(a.dtype)


def remsi(a, b):
    """arith.remsi: the remainder of `divsi`, with the sign of ``a``."""
    a, b = signed(a), signed(b)
    return (a - divsi(a, b) * b).astype(a.dtype)


def divui(a, b):
    """arith.divui: unsigned division; 0 where ``b`` is 0."""
    a, b = unsigned(a), unsigned(b)
    safe = np.where(b == 0, 1, b).astype(b.dtype)
    return np.where(b == 0, 0, np.floor_divide(a, safe)).astype(a.dtype)


def remui(a, b):
    """arith.remui: the remainder of `divui`; 0 where ``b`` is 0."""
    a, b = unsigned(a), unsigned(b)
    safe = np.where(b == 0, 1, b).astype(b.dtype)
    return np.where(b == 0, 0, np.remainder(a, safe)).astype(a.dtype)


def _shift_amount(b):
    """Shift amounts as int64."""
    return np.asarray(b).astype(np.int64)


def shli(a, b):
    """arith.shli: shift left; 0 for amounts outside [0, width)."""
    a = np.asarray(a)
    width = a.dtype.itemsize * 8
    amount = _shift_amount(b)
    ua = unsigned(a)
    result = np.left_shift(ua, np.clip(amount, 0, width - 1).astype(ua.dtype))
    result = np.where((amount >= width) | (amount < 0), 0, result).astype(ua.dtype)
    return result.view(a.dtype) if a.ndim else result.astype(a.dtype)


def shrsi(a, b):
    """arith.shrsi: arithmetic shift right (amounts clamped to width - 1)."""
    a = np.asarray(a)
    width = a.dtype.itemsize * 8
    amount = _shift_amount(b)
    sa = signed(a)
    result = np.right_shift(sa, np.clip(amount, 0, width - 1).astype(sa.dtype))
    return result.astype(sa.dtype).view(a.dtype) if a.ndim else result.astype(a.dtype)


def shrui(a, b):
    """arith.shrui: logical shift right; 0 for amounts outside [0, width)."""
    a = np.asarray(a)
    width = a.dtype.itemsize * 8
    amount = _shift_amount(b)
    ua = unsigned(a)
    result = np.right_shift(ua, np.clip(amount, 0, width - 1).astype(ua.dtype))
    result = np.where((amount >= width) | (amount < 0), 0, result).astype(ua.dtype)
    return result.view(a.dtype) if a.ndim else result.astype(a.dtype)


def mulhiui(a, b):
    """tt.mulhiui: the high half of the double-width unsigned product."""
    a = np.asarray(a)
    ua, ub = unsigned(a).astype(np.uint64), unsigned(b).astype(np.uint64)
    width = a.dtype.itemsize * 8
    if width <= 32:
        return ((ua * ub) >> np.uint64(width)).astype(a.dtype)
    mask = np.uint64(0xFFFFFFFF)
    shift = np.uint64(32)
    al, ah, bl, bh = ua & mask, ua >> shift, ub & mask, ub >> shift
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> shift) + (lh & mask) + (hl & mask)
    high = hh + (lh >> shift) + (hl >> shift) + (mid >> shift)
    return high.astype(a.dtype)


def ipowi(a, b):
    """math.ipowi: integer power by squaring; negative exponents give 1, -1 or 0."""
    a = np.asarray(a)
    b = np.asarray(b).astype(np.int64)
    result = np.ones(np.broadcast(a, b).shape, dtype=a.dtype)
    base = np.broadcast_to(a, result.shape).copy()
    exponent = np.broadcast_to(np.maximum(b, 0), result.shape).copy()
    while np.any(exponent > 0):
        odd = (exponent & 1).astype(bool)
        result = np.where(odd, result * base, result).astype(a.dtype)
        base = (base * base).astype(a.dtype)
        exponent >>= 1
    negative = np.broadcast_to(b < 0, result.shape)
    one = np.broadcast_to(a == 1, result.shape)
    minus_one = np.broadcast_to(a == -1, result.shape) if a.dtype.kind == "i" else False
    odd_b = np.broadcast_to((b & 1) == 1, result.shape)
    negative_result = np.where(one, 1, np.where(minus_one, np.where(odd_b, -1, 1), 0))
    return np.where(negative, negative_result, result).astype(a.dtype)


_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def erf(x):
    """The error function, element-wise, in float64."""
    return _erf(np.asarray(x, dtype=np.float64)).astype(np.float64)


def erfc(x):
    """The complementary error function, element-wise, in float64."""
    return _erfc(np.asarray(x, dtype=np.float64)).astype(np.float64)


def ctpop(a):
    """The number of set bits of each integer."""
    return np.bitwise_count(unsigned(np.asarray(a)))


def ctlz(a):
    """math.ctlz: the number of leading zero bits of each integer."""
    a = unsigned(np.asarray(a))
    width = a.dtype.itemsize * 8
    count = np.full(a.shape, width, dtype=np.int64)
    for bit in range(width):
        set_ = ((a >> a.dtype.type(bit)) & a.dtype.type(1)).astype(bool)
        count = np.where(set_, width - 1 - bit, count)
    return count


def round_half_away(x):
    """math.round: to the nearest integral value, halfway away from zero."""
    return np.copysign(np.floor(np.abs(x) + 0.5), x)
