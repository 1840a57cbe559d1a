"""Counter-based random numbers (Philox 4x32-10), as Triton's ``tl.rand``/``tl.randn``:
the same (seed, offset) gives the same numbers in compiled kernels and in the interpreter."""

from __future__ import annotations

from . import core, semantic
from .core import _unwrap, builtin, tensor
from .elementwise import cos, log, sin, sqrt  # declared in defs/math.td
from .functions import maximum, umulhi, where

N_ROUNDS_DEFAULT = 10
PHILOX_KEY_A = 0x9E3779B9
PHILOX_KEY_B = 0xBB67AE85
PHILOX_ROUND_A = 0xD2511F53
PHILOX_ROUND_B = 0xCD9E8D57


def _u32(value: int) -> tensor:
    return semantic.scalar_constant(value, core.uint32)


@builtin
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=N_ROUNDS_DEFAULT):
    """Runs ``n_rounds`` Philox rounds on the uint32 counters c0..c3 with the key (k0, k1)."""
    n_rounds = _unwrap(n_rounds)
    round_a, round_b = _u32(PHILOX_ROUND_A), _u32(PHILOX_ROUND_B)
    for _ in range(n_rounds):
        prev_c0, prev_c2 = c0, c2
        c0 = umulhi(round_b, prev_c2) ^ c1 ^ k0
        c2 = umulhi(round_a, prev_c0) ^ c3 ^ k1
        c1 = round_b * prev_c2
        c3 = round_a * prev_c0
        k0 = k0 + _u32(PHILOX_KEY_A)
        k1 = k1 + _u32(PHILOX_KEY_B)
    return c0, c1, c2, c3


@builtin
def philox(seed, c0, c1, c2, c3, n_rounds=N_ROUNDS_DEFAULT):
    seed = semantic.to_tensor(_unwrap(seed))
    if not seed.dtype.is_int():
        raise TypeError(f"the seed must be an integer, got {seed.dtype}")
    seed = seed.to(core.uint64)
    c0, c1, c2, c3 = (semantic.to_tensor(_unwrap(c)) for c in (c0, c1, c2, c3))
    if c0.dtype.primitive_bitwidth != 32:
        raise TypeError(f"offsets must be 32-bit integers, got {c0.dtype}")
    c0, c1, c2, c3 = (c.to(core.uint32, bitcast=True) for c in (c0, c1, c2, c3))
    seed_hi = ((seed >> 32) & 0xFFFFFFFF).to(core.uint32)
    seed_lo = (seed & 0xFFFFFFFF).to(core.uint32)
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)


@builtin
def randint(seed, offset, n_rounds=N_ROUNDS_DEFAULT) -> tensor:
    """A block of random uint32 values, one per element of ``offset``."""
    ret, _, _, _ = randint4x(seed, offset, n_rounds)
    return ret


@builtin
def randint4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """Four blocks of random uint32 values."""
    offset = semantic.to_tensor(_unwrap(offset))
    zero = offset * 0
    return philox(seed, offset, zero, zero, zero, n_rounds)


@builtin
def uint_to_uniform_float(x) -> tensor:
    """Random 32-bit integers to floats uniform in [0, 1)."""
    x = semantic.to_tensor(_unwrap(x))
    if x.dtype in (core.uint32, core.int32):
        x = x.to(core.int32, bitcast=True)
        scale = 4.6566127342e-10
    elif x.dtype in (core.uint64, core.int64):
        x = x.to(core.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    else:
        raise TypeError(f"unexpected dtype {x.dtype} for uint_to_uniform_float")
    x = where(x < 0, -x - 1, x)
    return x * scale


@builtin
def rand(seed, offset, n_rounds=N_ROUNDS_DEFAULT) -> tensor:
    """Floats uniform in [0, 1), one per element of ``offset``."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@builtin
def rand4x(seed, offsets, n_rounds=N_ROUNDS_DEFAULT):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return (uint_to_uniform_float(i1), uint_to_uniform_float(i2), uint_to_uniform_float(i3),
            uint_to_uniform_float(i4))


@builtin
def pair_uniform_to_normal(u1, u2):
    """Box-Muller: two uniform blocks to two standard normal blocks."""
    u1 = maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = sqrt(-2.0 * log(u1))
    return r * cos(th), r * sin(th)


@builtin
def randn(seed, offset, n_rounds=N_ROUNDS_DEFAULT) -> tensor:
    """Standard normal floats, one per element of ``offset``."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1, u2 = uint_to_uniform_float(i1), uint_to_uniform_float(i2)
    n1, _ = pair_uniform_to_normal(u1, u2)
    return n1


@builtin
def randn4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
