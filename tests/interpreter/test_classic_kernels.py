"""The classic kernels in the interpreter against numpy (float64 references, relative error),
on fresh random inputs whose sizes are not multiples of the blocks; outputs are poisoned with
NaN before each run."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

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


@tc.jit
def _row_partial_sums(x_ptr, partial_ptr, lock_ptr, n_cols, GROUPS: tl.constexpr,
                      BLOCK: tl.constexpr):
    """Each row adds itself into one of GROUPS partial rows under a spin lock (the pattern of
    Triton's layer-norm backward): the first writer of a group stores, later ones add."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    group = row % GROUPS
    lock = lock_ptr + group
    written = lock + GROUPS
    partial = partial_ptr + group * n_cols + cols
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(written) == 0:
        tl.atomic_xchg(written, 1)
    else:
        x += tl.load(partial, mask=mask)
    tl.store(partial, x, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


def test_spin_lock_accumulation(launch, rng):
    rows, cols, groups = 13, 40, 4
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    partial = np.full((groups, cols), np.nan, np.float32)  # the first writer overwrites
    locks = np.zeros(2 * groups, np.int32)
    launch(_row_partial_sums, (rows,), x, partial, locks, cols, GROUPS=groups, BLOCK=64)
    expected = np.stack([x[g::groups].sum(0) for g in range(groups)])
    np.testing.assert_allclose(partial, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(locks, [0] * groups + [1] * groups)


@tc.jit
def _attention_band(acc, m_i, l_i, q, k_blocks, v_blocks, first, scale,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, PART: tl.constexpr,
                    rows: tl.constexpr, cols: tl.constexpr, SEQ: tl.constexpr):
    """One part of a causal attention row block, over block pointers: keys before the
    diagonal block (PART 1), the diagonal block (PART 2) or all keys (PART 3). `rows`, `cols`
    and `SEQ` are annotated constexpr but receive tensors, as in Triton's tutorial."""
    if PART == 1:
        start, stop = 0, first * BLOCK_M
    elif PART == 2:
        start, stop = first * BLOCK_M, (first + 1) * BLOCK_M
        start = tl.multiple_of(start, BLOCK_M)
    else:
        start, stop = 0, SEQ
    k_blocks = tl.advance(k_blocks, (0, start))
    v_blocks = tl.advance(v_blocks, (start, 0))
    for n in range(start, stop, BLOCK_N):
        scores = tl.dot(q, tl.load(k_blocks, boundary_check=(1,))) * scale
        keep = (n + cols[None, :]) < SEQ
        if PART == 2:
            keep = keep & (rows[:, None] >= n + cols[None, :])
        scores = tl.where(keep, scores, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(scores, 1))
        p = tl.math.exp2(scores - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_blocks, boundary_check=(0,), padding_option="zero")
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
        k_blocks = tl.advance(k_blocks, (0, BLOCK_N))
        v_blocks = tl.advance(v_blocks, (BLOCK_N, 0))
    return acc, m_i, l_i


@tc.jit
def block_ptr_attention(Q, K, V, Out, scale, stride_h, stride_m, SEQ,
                        D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        CAUSAL: tl.constexpr):
    first = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64) * stride_h
    q_blocks = tl.make_block_ptr(Q + head, shape=(SEQ, D), strides=(stride_m, 1),
                                 offsets=(first * BLOCK_M, 0), block_shape=(BLOCK_M, D),
                                 order=(1, 0))
    k_order: tl.constexpr = (1, 0) if K.dtype.element_ty == tl.float8e5 else (0, 1)
    k_blocks = tl.make_block_ptr(K + head, shape=(D, SEQ), strides=(1, stride_m),
                                 offsets=(0, 0), block_shape=(D, BLOCK_N), order=k_order)
    v_blocks = tl.make_block_ptr(V + head, shape=(SEQ, D), strides=(stride_m, 1),
                                 offsets=(0, 0), block_shape=(BLOCK_N, D), order=(1, 0))
    rows = first * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    m_i = tl.zeros([BLOCK_M], tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], tl.float32)
    scale *= 1.44269504
    q = tl.load(q_blocks, boundary_check=(0,))
    parts: tl.constexpr = 3 if CAUSAL else 1
    if parts & 1:
        acc, m_i, l_i = _attention_band(acc, m_i, l_i, q, k_blocks, v_blocks, first, scale,
                                        BLOCK_M, BLOCK_N, 4 - parts, rows, cols, SEQ)
    if parts & 2:
        acc, m_i, l_i = _attention_band(acc, m_i, l_i, q, k_blocks, v_blocks, first, scale,
                                        BLOCK_M, BLOCK_N, 2, rows, cols, SEQ)
    o_blocks = tl.make_block_ptr(Out + head, shape=(SEQ, D), strides=(stride_m, 1),
                                 offsets=(first * BLOCK_M, 0), block_shape=(BLOCK_M, D),
                                 order=(1, 0))
    tl.store(o_blocks, (acc / l_i[:, None]).to(Out.type.element_ty), boundary_check=(0,))


@pytest.mark.parametrize("causal", [False, True])
def test_attention_over_block_pointers(launch, rng, causal):
    heads, seq, d, bm = 2, 40, 16, 16
    q, k, v = (rng.standard_normal((heads, seq, d)).astype(np.float16) for _ in range(3))
    out = np.full_like(q, np.nan)
    launch(block_ptr_attention, (tc.cdiv(seq, bm), heads), q, k, v, out, 0.3, seq * d, d, seq,
           D=d, BLOCK_M=bm, BLOCK_N=bm, CAUSAL=causal)
    scores = q.astype(np.float64) @ np.swapaxes(k, 1, 2) * 0.3
    if causal:
        scores = np.where(np.tril(np.ones((seq, seq), bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    expected = weights / weights.sum(-1, keepdims=True) @ v
    assert rel_error(out, expected) < 5e-3
