"""Prefetching the row the next program reads (`tilecraft.backends.cpu.next_program`): a
program that loads a row and computes an exponential over it prefetches, a few lines per strip
of that loop, the row the next program loads; kernels of other forms get no such prefetches,
and results never change."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

from .test_deferred_loads import softmax_kernel

pytestmark = pytest.mark.usefixtures("cpu_backend")


@tc.jit
def same_row_kernel(out_ptr, in_ptr, BLOCK: tl.constexpr):
    """Every program reads row 0: nothing new to prefetch."""
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + cols)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + tl.program_id(0) * BLOCK + cols, num / tl.sum(num, axis=0))


@tc.jit
def cheap_kernel(out_ptr, in_ptr, BLOCK: tl.constexpr):
    """A row scaled by its maximum: no costly loop to hide the prefetches in."""
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(in_ptr + cols)
    tl.store(out_ptr + cols, x / tl.max(x, axis=0))


@tc.jit
def persistent_kernel(out_ptr, in_ptr, n_rows, BLOCK: tl.constexpr):
    """Rows loaded in a loop: the next program's first row is not what this one reads next."""
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * BLOCK + cols)
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * BLOCK + cols, num / tl.sum(num, axis=0))


def _softmax(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("block, n_cols", [(4096, 4096), (4096, 4001), (256, 255), (64, 64),
                                           (32, 17)])
def test_a_row_softmax_prefetches_the_next_row(block, n_cols):
    rows = 5
    rng = np.random.default_rng(n_cols)
    x = np.full((rows, block), np.nan, np.float32)
    x[:, :n_cols] = rng.standard_normal((rows, n_cols)).astype(np.float32) * 3
    out = np.full_like(x, 7.0)
    compiled = softmax_kernel[(rows,)](out, x, block, n_cols, BLOCK=block)
    np.testing.assert_allclose(out[:, :n_cols], _softmax(x[:, :n_cols]), rtol=2e-6,
                               atol=1e-30)
    assert (out[:, n_cols:] == 7.0).all()
    assert "@llvm.prefetch" in compiled.asm["llir"]


def test_other_kernels_prefetch_nothing():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 256)).astype(np.float32)
    out = np.zeros_like(x)
    same = same_row_kernel[(4,)](out, x, BLOCK=256)
    np.testing.assert_allclose(out, np.broadcast_to(_softmax(x[0]), x.shape), rtol=2e-6)
    cheap = cheap_kernel[(4,)](out, x, BLOCK=256)
    np.testing.assert_allclose(out, x / x.max(axis=1, keepdims=True), rtol=1e-6)
    persistent = persistent_kernel[(2,)](out, x, 4, BLOCK=256)
    np.testing.assert_allclose(out, _softmax(x), rtol=2e-6)
    for compiled in (same, cheap, persistent):
        assert "@llvm.prefetch" not in compiled.asm["llir"]
