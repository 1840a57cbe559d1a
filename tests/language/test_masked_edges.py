"""The functions whose other tests run on whole blocks, again on sizes that are not a multiple
of the block, with masked loads and stores (the lanes past the edge hold ``other``, which each
function must ignore or place where numpy expects), on fresh random inputs; and the parts of
the surface that need their own checks: ``histogram(mask=)``, ``sort`` of integers both ways,
the Philox generators' statistics and determinism, ``clamp``/``fdiv``/``div_rn`` exactly,
``tl.range``'s options and the hints."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

# -- reductions ----------------------------------------------------------------------------------


@tc.jit
def _mul(a, b):
    return a * b


@tc.jit
def row_reduce_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    ptrs = x_ptr + row * stride + cols
    out = out_ptr + row * 8
    tl.store(out, tl.sum(tl.load(ptrs, mask=mask, other=0.0), axis=0))
    x_max = tl.load(ptrs, mask=mask, other=-float("inf"))
    x_min = tl.load(ptrs, mask=mask, other=float("inf"))
    tl.store(out + 1, tl.max(x_max, axis=0))
    tl.store(out + 2, tl.min(x_min, axis=0))
    tl.store(out + 3, tl.argmax(x_max, axis=0).to(tl.float32))
    tl.store(out + 4, tl.argmin(x_min, axis=0).to(tl.float32))
    tl.store(out + 5, tl.reduce(tl.load(ptrs, mask=mask, other=1.0), 0, _mul))
    value, index = tl.max(x_max, axis=0, return_indices=True)
    tl.store(out + 6, value + index)
    kept = tl.sum(tl.where(mask, x_max, 0.0) * 2, axis=0, keep_dims=True)
    tl.store(out + 7 + tl.arange(0, 1), kept)


def test_reductions_of_masked_rows(run, rng):
    rows, cols, block = 5, 37, 64
    x = rng.uniform(0.5, 1.5, size=(rows, cols)).astype(np.float32)
    out = np.full((rows, 8), np.nan, np.float32)
    run(row_reduce_kernel, (rows,), x, out, cols, cols, BLOCK=block)
    np.testing.assert_allclose(out[:, 0], x.sum(1), rtol=1e-5)
    np.testing.assert_array_equal(out[:, 1], x.max(1))
    np.testing.assert_array_equal(out[:, 2], x.min(1))
    np.testing.assert_array_equal(out[:, 3], x.argmax(1))
    np.testing.assert_array_equal(out[:, 4], x.argmin(1))
    np.testing.assert_allclose(out[:, 5], x.astype(np.float64).prod(1), rtol=1e-5)
    np.testing.assert_array_equal(out[:, 6], x.max(1) + x.argmax(1).astype(np.float32))
    np.testing.assert_allclose(out[:, 7], 2 * x.sum(1), rtol=1e-5)


@tc.jit
def int_reduce_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr, tl.xor_sum(x, axis=0))
    tl.store(out_ptr + 1, tl.sum(x))
    tl.store(out_ptr + 2, tl.max(tl.where(mask, x, -2**31), axis=0))
    tl.store(out_ptr + 3, tl.min(tl.where(mask, x, 2**31 - 1), axis=0))
    tl.store(out_ptr + 4, tl.argmin(tl.where(mask, x, 2**31 - 1), axis=0))


def test_integer_reductions_with_masked_edges(run, rng):
    n = 45
    x = rng.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    out = np.zeros(5, np.int32)
    run(int_reduce_kernel, (1,), x, out, n, BLOCK=64)
    assert out[0] == np.bitwise_xor.reduce(x)
    assert out[1] == np.int32(x.astype(np.int64).sum() & 0xFFFFFFFF)  # wraps, as on a GPU
    assert out[2] == x.max() and out[3] == x.min() and out[4] == x.argmin()


# -- scans ---------------------------------------------------------------------------------------


@tc.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@tc.jit
def scan_kernel(x_ptr, out_ptr, n_rows, n_cols, BM: tl.constexpr, BN: tl.constexpr):
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    mask = (rm[:, None] < n_rows) & (rn[None, :] < n_cols)
    offs = rm[:, None] * n_cols + rn[None, :]
    size = n_rows * n_cols
    x0 = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x1 = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + offs, tl.cumsum(x0, axis=1), mask=mask)
    tl.store(out_ptr + size + offs, tl.cumprod(x1, axis=0), mask=mask)
    tl.store(out_ptr + 2 * size + offs, tl.cumsum(x0, axis=1, reverse=True), mask=mask)
    tl.store(out_ptr + 3 * size + offs, tl.associative_scan(x0, 0, _max_combine), mask=mask)


def test_scans_with_masked_edges(run, rng):
    rows, cols = 6, 13
    x = rng.uniform(0.5, 1.5, size=(rows, cols)).astype(np.float32)
    out = np.full((4, rows, cols), np.nan, np.float32)
    run(scan_kernel, (1,), x, out, rows, cols, BM=8, BN=16)
    np.testing.assert_allclose(out[0], np.cumsum(x, 1), rtol=1e-5)
    np.testing.assert_allclose(out[1], np.cumprod(x, 0), rtol=1e-5)
    np.testing.assert_allclose(out[2], np.cumsum(x[:, ::-1], 1)[:, ::-1], rtol=1e-5)
    np.testing.assert_array_equal(out[3], np.maximum.accumulate(x, 0))


# -- sort and histogram --------------------------------------------------------------------------


@tc.jit
def sort_kernel(x_ptr, out_ptr, n_cols, PAD: tl.constexpr, DESC: tl.constexpr,
                BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=PAD)
    tl.store(out_ptr + row * n_cols + cols, tl.sort(x, descending=DESC), mask=mask)
    tl.store(out_ptr + (tl.num_programs(0) + row) * n_cols + cols,
             x.sort(dim=0, descending=DESC), mask=mask)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_sort_with_masked_edges(run, rng, dtype, descending):
    rows, cols = 3, 27
    if dtype == np.float32:
        x = rng.standard_normal((rows, cols)).astype(dtype)
        pad = -float("inf") if descending else float("inf")
    else:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=(rows, cols), endpoint=True).astype(dtype)
        pad = int(info.min if descending else info.max)
    out = np.zeros((2 * rows, cols), dtype)
    run(sort_kernel, (rows,), x, out, cols, PAD=pad, DESC=descending, BLOCK=32)
    expected = np.sort(x, axis=1)
    if descending:
        expected = expected[:, ::-1]
    np.testing.assert_array_equal(out[:rows], expected)
    np.testing.assert_array_equal(out[rows:], expected)


@tc.jit
def histogram_kernel(x_ptr, out_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS, mask=mask))
    tl.store(out_ptr + BINS + tl.arange(0, BINS), x.histogram(BINS, mask=x % 2 == 1))
    tl.store(out_ptr + 2 * BINS + tl.arange(0, BINS), tl.histogram(x, BINS))
    tl.store(out_ptr + 3 * BINS + tl.arange(0, BINS), tl.histogram(x, BINS, mask=True))


def test_histogram_with_mask(run, rng):
    n, bins = 50, 8
    x = rng.integers(0, bins, size=n).astype(np.int32)
    out = np.full((4, bins), -1, np.int32)
    run(histogram_kernel, (1,), x, out, n, BINS=bins, BLOCK=64)
    counts = np.bincount(x, minlength=bins)
    np.testing.assert_array_equal(out[0], counts)  # the 14 padding zeros are left out
    odd = np.where(np.arange(bins) % 2 == 1, counts, 0)
    np.testing.assert_array_equal(out[1], odd)
    padded = counts.copy()
    padded[0] += 64 - n
    np.testing.assert_array_equal(out[2], padded)  # without a mask they count
    np.testing.assert_array_equal(out[3], padded)
    text = histogram_kernel.ttir("*i32", "*i32", "i32", BINS=bins, BLOCK=64)
    assert text.count("tt.histogram") == 4


# -- combining and reshaping tensors -------------------------------------------------------------


@tc.jit
def combine_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    pair = tl.arange(0, 2)[None, :]
    j = tl.join(x, y)
    tl.store(out_ptr + offs[:, None] * 2 + pair, j, mask=mask[:, None])
    a, b = tl.split(j)
    tl.store(out_ptr + 2 * n + offs, a * 10 + b, mask=mask)
    both = tl.interleave(x, y)
    wide = tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + 3 * n + wide, both, mask=wide < 2 * n)
    c = tl.cat(x, y, can_reorder=True)
    tl.store(out_ptr + 5 * n + wide, c, mask=wide < 2 * n)
    m = tl.join(j, j * 2).permute(2, 0, 1)  # [2, BLOCK, 2]
    tl.store(out_ptr + 7 * n + tl.arange(0, 2)[:, None] * n + offs[None, :],
             tl.sum(m, axis=2), mask=mask[None, :])


def test_join_split_interleave_cat_with_masked_edges(run, rng):
    n = 21
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(9 * n + 16, np.nan, np.float32)
    run(combine_kernel, (1,), x, y, out, n, BLOCK=32)
    np.testing.assert_array_equal(out[:2 * n], np.stack([x, y], -1).reshape(-1))
    # the GPU contracts a * 10 + b into one fused multiply-add (enable_fp_fusion, as Triton)
    np.testing.assert_allclose(out[2 * n:3 * n], x * 10 + y, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(out[3 * n:5 * n], np.stack([x, y], -1).reshape(-1))
    # cat with can_reorder=True keeps the elements, not their order: here the first 2n of
    # [x, pad, y, pad] in the interpreter's order
    cat = out[5 * n:7 * n]
    assert np.isin(cat, np.concatenate([x, y, [0]])).all()
    np.testing.assert_allclose(out[7 * n:9 * n], np.concatenate([x + y, 2 * (x + y)]),
                               rtol=1e-6)
    assert np.isnan(out[9 * n:]).all()


@tc.jit
def tile_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
    t_mask = (rn[:, None] < N) & (rm[None, :] < M)
    size = M * N
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=t_mask)
    tl.store(out_ptr + size + rn[:, None] * M + rm[None, :], tl.permute(x, 1, 0), mask=t_mask)
    r = tl.reshape(x, [BM // 2, 2, BN])
    back = tl.view(r, [BM, BN])
    tl.store(out_ptr + 2 * size + rm[:, None] * N + rn[None, :], back, mask=mask)
    row0 = tl.broadcast_to(tl.expand_dims(tl.sum(x, 0), 0), (BM, BN))
    tl.store(out_ptr + 3 * size + rm[:, None] * N + rn[None, :], row0, mask=mask)
    a, b = tl.broadcast(x, tl.max(x, 1)[:, None])
    tl.store(out_ptr + 4 * size + rm[:, None] * N + rn[None, :], a - b, mask=mask)


def test_shapes_with_masked_edges(run, rng):
    m, n = 11, 6
    x = rng.uniform(0.1, 1, size=(m, n)).astype(np.float32)
    out = np.full((5, m * n), np.nan, np.float32)
    run(tile_kernel, (1,), x, out, m, n, BM=16, BN=8)
    np.testing.assert_array_equal(out[0], x.T.reshape(-1))
    np.testing.assert_array_equal(out[1], x.T.reshape(-1))
    np.testing.assert_array_equal(out[2], x.reshape(-1))
    np.testing.assert_allclose(out[3].reshape(m, n), np.broadcast_to(x.sum(0), (m, n)),
                               rtol=1e-6)
    np.testing.assert_array_equal(out[4].reshape(m, n), x - x.max(1, keepdims=True))


@tc.jit
def dot_edges_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def test_dot_with_masked_edges(run, rng):
    m, n, k = 19, 23, 37
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    run(dot_edges_kernel, (1,), a, b, c, m, n, k, BM=32, BN=32, BK=16)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


# -- element-wise functions, exactly -------------------------------------------------------------


@tc.jit
def exact_kernel(x_ptr, y_ptr, lo_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    lo = tl.load(lo_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.div_rn(x, y), mask=mask)
    tl.store(out_ptr + n + offs, tl.fdiv(x, y, ieee_rounding=True), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.clamp(x, lo, lo + 1), mask=mask)
    tl.store(out_ptr + 3 * n + offs,
             tl.clamp(x / (x - x), lo, lo + 1, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.maximum(x / (x - x), lo), mask=mask)
    tl.store(out_ptr + 5 * n + offs,
             tl.minimum(x / (x - x), lo, propagate_nan=tl.PropagateNan.ALL), mask=mask)


def test_div_rn_fdiv_clamp_exactly(run, rng):
    n = 150
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32) + 0.1
    lo = rng.uniform(-1, 0, n).astype(np.float32)
    x[0] = 0.0  # x / (x - x) is NaN here, +-inf elsewhere
    out = np.full((6, n), -7.0, np.float32)
    run(exact_kernel, (3,), x, y, lo, out, n, BLOCK=64)
    np.testing.assert_array_equal(out[0], x / y)  # correctly rounded
    np.testing.assert_array_equal(out[1], x / y)
    np.testing.assert_array_equal(out[2], np.minimum(np.maximum(x, lo), lo + 1))
    with np.errstate(all="ignore"):
        special = x / (x - x)
    np.testing.assert_array_equal(out[3], np.minimum(np.maximum(special, lo), lo + 1))
    assert np.isnan(out[3, 0])
    np.testing.assert_array_equal(out[4], np.fmax(special, lo))  # NaN not propagated
    np.testing.assert_array_equal(out[5], np.minimum(special, lo))


@tc.jit
def umulhi_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.umulhi(x, tl.load(y_ptr + offs, mask=mask)), mask=mask)
    tl.store(out_ptr + n + offs, tl.umulhi(x, 0x5EADBEEF), mask=mask)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32])
def test_umulhi_of_signed_and_unsigned(run, rng, dtype):
    """umulhi multiplies the bits as unsigned numbers (PTX's mul.hi.u32), whatever the type."""
    n = 70
    x = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
    y = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(2 * n, np.uint32)
    run(umulhi_kernel, (2,), x.view(dtype), y.view(dtype), out.view(dtype), n, BLOCK=64)
    assert [int(v) for v in out[:n]] == [(int(a) * int(b)) >> 32 for a, b in zip(x, y)]
    assert [int(v) for v in out[n:]] == [(int(a) * 0x5EADBEEF) >> 32 for a in x]


# -- random numbers ------------------------------------------------------------------------------


@tc.jit
def random_stats_kernel(out_ptr, seed, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.rand(seed, offs + SHIFT), mask=mask)
    tl.store(out_ptr + n + offs, tl.randn(seed, offs + SHIFT), mask=mask)
    bits = tl.randint(seed, offs + SHIFT)
    tl.store(out_ptr + 2 * n + offs, (bits >> 31).to(tl.float32), mask=mask)
    tl.store(out_ptr + 3 * n + offs, (bits & 1).to(tl.float32), mask=mask)


def _random(run, seed, n=3000, shift=0):
    out = np.full((4, n), np.nan, np.float32)
    run(random_stats_kernel, (tc.cdiv(n, 1024),), out, seed, n, SHIFT=shift, BLOCK=1024)
    return out


def test_rand_randn_randint_statistics_and_determinism(run, rng):
    seed = int(rng.integers(0, 2**31))
    n = 3000
    uniform, normal, high_bit, low_bit = _random(run, seed)
    assert not np.isnan(uniform).any() and not np.isnan(normal).any()
    assert ((uniform >= 0) & (uniform < 1)).all()
    # moments, 6 standard errors wide: a failure means a broken generator, not bad luck
    tol = 6 / np.sqrt(n)
    assert abs(uniform.mean() - 0.5) < tol * np.sqrt(1 / 12)
    assert abs(uniform.var() - 1 / 12) < tol * 0.075
    assert abs(normal.mean()) < tol and abs(normal.std() - 1) < tol
    assert abs((np.abs(normal) < 1).mean() - 0.6827) < tol * 0.47
    assert np.histogram(uniform, bins=10, range=(0, 1))[0].min() > n / 10 * 0.75
    assert abs(high_bit.mean() - 0.5) < tol * 0.5 and abs(low_bit.mean() - 0.5) < tol * 0.5
    assert abs(np.corrcoef(uniform[:-1], uniform[1:])[0, 1]) < tol
    # the same seed and offsets give the same numbers; another seed or offset others
    np.testing.assert_array_equal(_random(run, seed, n), np.stack([uniform, normal, high_bit,
                                                                   low_bit]))
    shifted = _random(run, seed, n - 5, shift=5)
    np.testing.assert_array_equal(shifted[0], uniform[5:])
    np.testing.assert_array_equal(shifted[1], normal[5:])
    other = _random(run, seed + 1, n)
    assert (other[0] != uniform).mean() > 0.99


# -- loops and hints -----------------------------------------------------------------------------


@tc.jit
def range_options_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.int32)
    for i in tl.range(n, num_stages=1):
        acc += i
    for i in tl.range(1, n, 3, disallow_acc_multi_buffer=True, flatten=True):
        acc += i * 100
    for i in tl.range(0, n, warp_specialize=True, disable_licm=True, loop_unroll_factor=4):
        acc += 10000
    for i in tl.static_range(2, 8, 3):
        acc += offs * i
    tl.store(out_ptr + offs, acc, mask=offs < n)


def test_range_options(run):
    n = 11
    out = np.full(16, -1, np.int32)
    run(range_options_kernel, (1,), out, n, BLOCK=16)
    expected = sum(range(n)) + 100 * sum(range(1, n, 3)) + 10000 * n + np.arange(n) * (2 + 5)
    np.testing.assert_array_equal(out[:n], expected)
    assert (out[n:] == -1).all()
    text = range_options_kernel.ttir("*i32", "i32", BLOCK=16)
    for attribute in ("tt.num_stages = 1 : i32", "tt.disallow_acc_multi_buffer",
                      "tt.flatten", "tt.warp_specialize", "tt.loop_unroll_factor = 4 : i32",
                      "tt.disable_licm"):
        assert attribute in text, attribute
    assert text.count("scf.for") == 3  # the static_range is unrolled


@tc.jit
def hints_kernel(x_ptr, out_ptr, n, stride, BM: tl.constexpr, BN: tl.constexpr):
    tl.assume(n > 0)
    tl.assume(stride % 16 == 0)
    rm = tl.max_contiguous(tl.multiple_of(tl.arange(0, BM), BM), BM)
    rn = tl.arange(0, BN)
    offs = tl.multiple_of(rm[:, None] * stride, (16, 1)) + tl.max_contiguous(rn[None, :],
                                                                            (1, BN))
    mask = (rm[:, None] < n) & (rn[None, :] < n)
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.max_constancy(x * 2, (1, 1)), mask=mask)


def test_hints_are_accepted_and_change_nothing(run, rng):
    n, stride = 5, 16
    x = rng.standard_normal((8, stride)).astype(np.float32)
    out = np.zeros_like(x)
    run(hints_kernel, (1,), x, out, n, stride, BM=8, BN=8)
    np.testing.assert_array_equal(out[:n, :n], 2 * x[:n, :n])
    assert not out[n:].any() and not out[:, n:].any()
    text = hints_kernel.ttir("*fp32", "*fp32", "i32", "i32", BM=8, BN=8)
    assert "tt.divisibility = dense<[16, 1]> : tensor<2xi32>" in text
    assert "tt.contiguity = dense<[1, 8]> : tensor<2xi32>" in text


# -- atomics with memory semantics ---------------------------------------------------------------


@tc.jit
def atomic_sem_kernel(x_ptr, sums_ptr, stats_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(sums_ptr + offs % 3, x, mask=mask, sem="relaxed", scope="gpu")
    tl.atomic_max(stats_ptr + tl.zeros_like(offs), x, mask=mask, sem="acq_rel", scope="cta")
    tl.atomic_min(stats_ptr + 1 + tl.zeros_like(offs), x, mask=mask, sem="acquire")
    tl.atomic_xchg(stats_ptr + 2, pid.to(tl.float32), sem="release", scope="sys")


def test_atomics_with_masks_and_memory_semantics(run, rng, backend):
    n = 150
    x = rng.standard_normal(n).astype(np.float32)
    sums = np.zeros(3, np.float32)
    stats = np.array([-np.inf, np.inf, -1], np.float32)
    run(atomic_sem_kernel, (3,), x, sums, stats, n, BLOCK=64)
    np.testing.assert_allclose(sums, [x[i::3].sum() for i in range(3)], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(stats[:2], [x.max(), x.min()])
    # the last exchange wins: program 2 in program order, any program when they run in parallel
    assert stats[2] == 2 if backend == "interpret" else stats[2] in (0, 1, 2)
    text = atomic_sem_kernel.ttir("*fp32", "*fp32", "*fp32", "i32", BLOCK=64)
    for expected in ("fadd, relaxed, gpu", "acq_rel, cta", "acquire, gpu", "exch, release, sys"):
        assert expected in text, expected
