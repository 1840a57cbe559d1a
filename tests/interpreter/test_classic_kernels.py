"""The classic kernels in the interpreter against numpy (float64 references, relative error),
on fresh random inputs whose sizes are not multiples of the blocks; outputs are poisoned with
NaN before each run."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tilecraft as tc

from ..frontend import classic_kernels as k


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


@pytest.fixture(params=["compiled-then-interpreted", "interpreted"])
def launch(request):
    """Both ways of interpreting: after compiling the launch's specialization to verified tt
    IR (the kernel must compile), or directly (Python the compiler would refuse still runs)."""

    def run(kernel, grid, *args, **kwargs):
        if request.param == "compiled-then-interpreted":
            kernel.warmup(*args, **kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            kernel[grid](*args, **kwargs)

    return run


def rel_error(actual, expected) -> float:
    actual = np.asarray(actual, np.float64)
    expected = np.asarray(expected, np.float64)
    return float(np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), 1e-30))


def test_vector_add(launch, rng):
    n = 1000
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    out = np.full(n, np.nan, np.float32)
    launch(k.add_kernel, lambda meta: (tc.cdiv(n, meta["BLOCK_SIZE"]),), x, y, out, n,
           BLOCK_SIZE=256)
    assert rel_error(out, x.astype(np.float64) + y) < 1e-7


def test_fused_softmax(launch, rng):
    rows, cols = 9, 100
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.full_like(x, np.nan)
    launch(k.softmax_kernel, (4,), out, x, x.strides[0] // 4, out.strides[0] // 4, rows, cols,
           BLOCK_SIZE=128, num_stages=2)
    wide = x.astype(np.float64)
    ref = np.exp(wide - wide.max(1, keepdims=True))
    ref /= ref.sum(1, keepdims=True)
    assert rel_error(out, ref) < 1e-6


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_layer_norm_forward(launch, rng, dtype):
    m, n = 6, 200
    x = rng.standard_normal((m, n)).astype(dtype)
    w = rng.random(n).astype(dtype)
    b = rng.random(n).astype(dtype)
    y = np.full_like(x, np.nan)
    mean = np.full(m, np.nan, np.float32)
    rstd = np.full(m, np.nan, np.float32)
    launch(k.layer_norm_fwd, (m,), x, y, w, b, mean, rstd, n, n, 1e-5, BLOCK_SIZE=64)
    wide = x.astype(np.float64)
    mu = wide.mean(1, keepdims=True)
    sigma = 1 / np.sqrt(wide.var(1, keepdims=True) + 1e-5)
    ref = (wide - mu) * sigma * w + b
    assert rel_error(mean, mu[:, 0]) < 1e-5
    assert rel_error(rstd, sigma[:, 0]) < 1e-5
    assert rel_error(y, ref) < (2e-3 if dtype == np.float16 else 1e-5)


def test_matmul(launch, rng):
    m, n, kk = 70, 45, 100
    a = rng.standard_normal((m, kk)).astype(np.float16)
    b = rng.standard_normal((kk, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)

    def grid(meta):
        return (tc.cdiv(m, meta["BLOCK_SIZE_M"]) * tc.cdiv(n, meta["BLOCK_SIZE_N"]),)

    launch(k.matmul_kernel, grid, a, b, c, m, n, kk, a.strides[0] // 2, 1, b.strides[0] // 2,
           1, c.strides[0] // 2, 1, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
           GROUP_SIZE_M=2)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert rel_error(c, ref) < 2e-3


def test_while_loop(launch, rng):
    n = 300
    x = rng.random(n, np.float32)
    out = np.full(2, np.nan, np.float32)
    launch(k.while_kernel, (1,), x, out, n, 20.0, BLOCK=16)
    total, start = np.float32(0), 0
    while start < n and total < 20.0:
        total = total + x[start:start + 16].sum(dtype=np.float32)
        start += 16
    assert abs(out[0] - total) < 1e-4 and out[1] == start


def test_nested_calls(launch, rng):
    n = 150
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    s, d = np.full(n, np.nan, np.float32), np.full(n, np.nan, np.float32)
    launch(k.nested_call_kernel, (3,), x, y, s, d, n, BLOCK=64)
    np.testing.assert_allclose(s, (x + y) * 2, rtol=1e-6)
    np.testing.assert_allclose(d, (x - y) * 2, rtol=1e-6)


def test_reduce_with_custom_combine(launch, rng):
    rows, cols = 5, 50
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.full(rows, np.nan, np.float32)
    launch(k.max_abs_kernel, (rows,), x, out, cols, BLOCK=64)
    np.testing.assert_array_equal(out, x[np.arange(rows), np.abs(x).argmax(1)])


def test_early_return(launch, rng):
    n = 100
    x = rng.random(n, np.float32)
    out = np.full(n, np.nan, np.float32)
    launch(k.early_exit_kernel, (5,), x, out, n, BLOCK=64)
    np.testing.assert_allclose(out[:64], 2 * x[:64])
    np.testing.assert_allclose(out[64:], x[64:] + 1)


def test_dropout(launch, rng):
    n = 1000
    x = rng.random(n, np.float32) + 1
    out = np.full(n, np.nan, np.float32)
    launch(k.dropout_kernel, (tc.cdiv(n, 256),), x, out, n, 0.5, 123, BLOCK_SIZE=256)
    kept = out != 0
    np.testing.assert_allclose(out[kept], x[kept] * 2, rtol=1e-6)
    assert 0.35 < kept.mean() < 0.65
    again = np.full(n, np.nan, np.float32)
    launch(k.dropout_kernel, (tc.cdiv(n, 256),), x, again, n, 0.5, 123, BLOCK_SIZE=256)
    np.testing.assert_array_equal(out, again)  # same seed, same mask
