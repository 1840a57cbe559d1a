"""An f32 division by a value the same for every element of the tile (softmax's sum) is a
multiply by a reciprocal computed once (`elementwise._divide_by_uniform`): within 2 ulp of the
correctly rounded quotient, as CUDA's ``div.full.f32`` is, over the whole f32 range of both
operands; zeros, infinities and NaN as the division gives them; ``tl.div_rn`` stays exact."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

pytestmark = pytest.mark.usefixtures("cpu_backend")

SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1e-45, 1e-40, 1.1754944e-38, 7e-39, 1e-30,
                    1e30, 2e38, 3.4e38, np.inf, -np.inf, np.nan], np.float32)
SMALLEST_NORMAL = np.finfo(np.float32).tiny


@tc.jit
def quotient_kernel(x_ptr, out_ptr, y, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) / y)


@tc.jit
def divide_kernel(x_ptr, out_ptr, y, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + offsets, x / y)
    tl.store(out_ptr + BLOCK + offsets, tl.div_rn(x, y))


def _full_range(rng: np.random.Generator, n: int) -> np.ndarray:
    magnitude = np.exp2(rng.uniform(-149.0, 128.0, n)) * rng.uniform(1.0, 2.0, n)
    return (magnitude * rng.choice([-1.0, 1.0], n)).astype(np.float32)


def test_division_by_a_uniform_divisor_multiplies_by_its_reciprocal(rng):
    block = 1024
    x = np.concatenate([SPECIAL, _full_range(rng, block - SPECIAL.size)])
    divisors = np.concatenate([SPECIAL, _full_range(rng, 40)])
    out = np.empty(2 * block, np.float32)
    for y in divisors:
        divide_kernel[(1,)](x, out, float(y), BLOCK=block)
        with np.errstate(all="ignore"):
            expected = x / y
        np.testing.assert_array_equal(out[block:], expected, err_msg=f"div_rn by {y!r}")
        got = out[:block].astype(np.float64)
        normal = np.isfinite(expected) & (np.abs(expected) >= SMALLEST_NORMAL)
        ulps = np.abs(got - expected)[normal] / np.spacing(np.abs(expected[normal]))
        assert ulps.max(initial=0) <= 2, f"/ {y!r}: {ulps.max()} ulp"
        # Denormal results are off by at most the smallest denormal; the others are the
        # division's exactly (zeros with their sign, infinities, NaN).
        tiny = np.isfinite(expected) & (np.abs(expected) < SMALLEST_NORMAL)
        assert np.all(np.abs(got - expected)[tiny] <= 2.0 ** -149), f"/ {y!r}"
        rest = ~normal & ~tiny
        np.testing.assert_array_equal(out[:block][rest], expected[rest], err_msg=f"/ {y!r}")
        np.testing.assert_array_equal(np.signbit(out[:block][rest & (expected == 0)]),
                                      np.signbit(expected[rest & (expected == 0)]))
    # The divisions left are the reciprocal's (one in each version of the program's code).
    llir = quotient_kernel[(1,)](x, out, 3.0, BLOCK=block).asm["llir"]
    divisions = re.findall(r"= fdiv [^,]*", llir)
    assert divisions and set(divisions) == {"= fdiv float 1.000000e+00"}, divisions
