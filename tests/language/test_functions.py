"""Every function of `tilecraft.language`, compiled to verified tt IR and run in the interpreter
against numpy, on fresh random inputs with masked edges (sizes that are not a multiple of the
block)."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

BLOCK = 64
N = 50  # not a multiple of BLOCK: the last lanes are masked


# -- element-wise --------------------------------------------------------------------------------


@tc.jit
def unary_kernel(x_ptr, y_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, FN(x), mask=mask)


def _erf(x):
    import math

    return np.vectorize(math.erf)(x)


UNARY = [
    (tl.exp, np.exp, (-3, 3)), (tl.exp2, np.exp2, (-3, 3)), (tl.log, np.log, (0.1, 5)),
    (tl.log2, np.log2, (0.1, 5)), (tl.sqrt, np.sqrt, (0, 5)), (tl.sqrt_rn, np.sqrt, (0, 5)),
    (tl.rsqrt, lambda x: 1 / np.sqrt(x), (0.1, 5)), (tl.sin, np.sin, (-3, 3)),
    (tl.cos, np.cos, (-3, 3)), (tl.erf, _erf, (-2, 2)), (tl.floor, np.floor, (-5, 5)),
    (tl.ceil, np.ceil, (-5, 5)), (tl.abs, np.abs, (-5, 5)),
    (tl.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-5, 5)),
    (tl.math.tanh, np.tanh, (-3, 3)), (tl.math.log1p, np.log1p, (0, 3)),
    (tl.math.expm1, np.expm1, (-1, 1)), (tl.math.tan, np.tan, (-1, 1)),
    (tl.math.atan, np.arctan, (-3, 3)), (tl.math.trunc, np.trunc, (-5, 5)),
    (tl.math.rint, np.rint, (-5, 5)), (tl.math.cbrt, np.cbrt, (-5, 5)),
    (tl.math.log10, np.log10, (0.1, 5)), (tl.math.asin, np.arcsin, (-1, 1)),
]


@pytest.mark.parametrize("fn,ref,domain", UNARY, ids=[f[0].__name__ for f in UNARY])
def test_unary_math(run, rng, fn, ref, domain):
    x = rng.uniform(*domain, size=N).astype(np.float32)
    y = np.full(N, np.nan, np.float32)
    run(unary_kernel, (1,), x, y, N, FN=fn, BLOCK=BLOCK)
    np.testing.assert_allclose(y, ref(x.astype(np.float64)), rtol=2e-6, atol=2e-6)


@tc.jit
def binary_kernel(x_ptr, y_ptr, z_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(z_ptr + offs, OP(x, y), mask=mask)


def _op(name):
    import operator

    return getattr(operator, name)


INT_OPS = ["add", "sub", "mul", "floordiv", "mod", "and_", "or_", "xor", "lt", "le", "gt",
           "ge", "eq", "ne"]


@pytest.mark.parametrize("name", INT_OPS)
@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint32, np.int64])
def test_integer_operators(run, rng, name, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    if name in ("floordiv", "mod"):
        y[y == 0] = 3
    z = np.zeros(N, bool if name in ("lt", "le", "gt", "ge", "eq", "ne") else dtype)
    run(binary_kernel, (1,), x, y, z, N, OP=_op(name), BLOCK=BLOCK)
    with np.errstate(all="ignore"):
        if name in ("floordiv", "mod"):  # C's truncating division and its remainder
            q = [abs(int(a)) // abs(int(b)) * (1 if (a < 0) == (b < 0) else -1)
                 for a, b in zip(x, y)]
            r = [int(a) - int(b) * qi for a, b, qi in zip(x, y, q)]
            expected = np.array(q if name == "floordiv" else r).astype(dtype)
        else:
            expected = _op(name)(x, y)
    np.testing.assert_array_equal(z, expected)


FLOAT_OPS = ["add", "sub", "mul", "truediv", "mod", "lt", "ge", "eq", "ne", "pow"]


@pytest.mark.parametrize("name", FLOAT_OPS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_float_operators(run, rng, name, dtype):
    x = rng.uniform(0.5, 4, size=N).astype(dtype)
    y = rng.uniform(0.5, 2, size=N).astype(dtype)
    out_dtype = bool if name in ("lt", "ge", "eq", "ne") else (
        np.float32 if name in ("truediv", "mod") and dtype == np.float16 else dtype)
    z = np.zeros(N, out_dtype)
    run(binary_kernel, (1,), x, y, z, N, OP=_op(name), BLOCK=BLOCK)
    wide = (x.astype(np.float64), y.astype(np.float64))
    expected = np.fmod(*wide) if name == "mod" else _op(name)(*wide)
    tolerance = 1e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(z.astype(np.float64), expected, rtol=tolerance)


@tc.jit
def shift_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, (x << 3) ^ (x >> 2) ^ ~x, mask=mask)
    tl.store(out_ptr + BLOCK + offs, -x, mask=mask)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int16])
def test_shifts_invert_negate(run, rng, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    out = np.zeros(2 * BLOCK, dtype)
    run(shift_kernel, (1,), x, out, N, BLOCK=BLOCK)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out[:N], (x << 3) ^ (x >> 2) ^ ~x)
        np.testing.assert_array_equal(out[BLOCK:BLOCK + N], (-x).astype(dtype))


@tc.jit
def minmax_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + BLOCK + offs, tl.minimum(x, y), mask=mask)
    tl.store(out_ptr + 2 * BLOCK + offs, tl.clamp(x, -0.5, 0.5), mask=mask)
    tl.store(out_ptr + 3 * BLOCK + offs, tl.where(x > y, x, y * 2), mask=mask)
    tl.store(out_ptr + 4 * BLOCK + offs, tl.fma(x, y, x), mask=mask)
    tl.store(out_ptr + 5 * BLOCK + offs, tl.fdiv(x, y), mask=mask)
    tl.store(out_ptr + 6 * BLOCK + offs, tl.div_rn(x, y), mask=mask)
    tl.store(out_ptr + 7 * BLOCK + offs, max(x, y), mask=mask)


def test_maximum_minimum_clamp_where_fma(run, rng):
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32) + 3
    out = np.zeros(8 * BLOCK, np.float32)
    run(minmax_kernel, (1,), x, y, out, N, BLOCK=BLOCK)
    rows = out.reshape(8, BLOCK)[:, :N]
    np.testing.assert_allclose(rows[0], np.maximum(x, y))
    np.testing.assert_allclose(rows[1], np.minimum(x, y))
    np.testing.assert_allclose(rows[2], np.clip(x, -0.5, 0.5))
    np.testing.assert_allclose(rows[3], np.where(x > y, x, y * 2))
    np.testing.assert_allclose(rows[4], x * y + x, rtol=1e-6)
    np.testing.assert_allclose(rows[5], x / y, rtol=1e-6)
    np.testing.assert_allclose(rows[6], x / y, rtol=1e-6)
    np.testing.assert_allclose(rows[7], np.maximum(x, y))


@tc.jit
def umulhi_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.umulhi(tl.load(x_ptr + offs, mask=mask),
                                       tl.load(y_ptr + offs, mask=mask)), mask=mask)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_umulhi(run, rng, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(0, info.max, size=N, dtype=dtype, endpoint=True)
    y = rng.integers(0, info.max, size=N, dtype=dtype, endpoint=True)
    out = np.zeros(N, dtype)
    run(umulhi_kernel, (1,), x, y, out, N, BLOCK=BLOCK)
    bits = info.bits
    expected = [(int(a) * int(b)) >> bits for a, b in zip(x, y)]
    assert [int(v) for v in out] == expected


# -- creation and shapes -------------------------------------------------------------------------


@tc.jit
def creation_kernel(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.full([BLOCK], 7, tl.int32))
    tl.store(out_ptr + BLOCK + offs, tl.zeros([BLOCK], tl.int32) + offs)
    tl.store(out_ptr + 2 * BLOCK + offs, tl.zeros_like(offs) + tl.arange(3, 3 + BLOCK))
    tl.store(out_ptr + 3 * BLOCK + offs, tl.cdiv(offs, 3) + tl.num_programs(0))


def test_creation(run):
    out = np.zeros(4 * BLOCK, np.int32)
    run(creation_kernel, (1,), out, BLOCK=BLOCK)
    rows = out.reshape(4, BLOCK)
    r = np.arange(BLOCK)
    np.testing.assert_array_equal(rows[0], 7)
    np.testing.assert_array_equal(rows[1], r)
    np.testing.assert_array_equal(rows[2], r + 3)
    np.testing.assert_array_equal(rows[3], (r + 2) // 3 + 1)


@tc.jit
def shape_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    t = tl.trans(x)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], t)
    p = tl.permute(x, (1, 0))
    tl.store(out_ptr + M * N + rn[:, None] * M + rm[None, :], p)
    flat = tl.reshape(x, [M * N])
    tl.store(out_ptr + 2 * M * N + tl.arange(0, M * N), flat)
    b = tl.broadcast_to(tl.expand_dims(rn, 0), (M, N)) + x
    tl.store(out_ptr + 3 * M * N + rm[:, None] * N + rn[None, :], b)
    v = x.reshape(N, M).T
    tl.store(out_ptr + 4 * M * N + rm[:, None] * N + rn[None, :], v)
    r = tl.ravel(x)
    tl.store(out_ptr + 5 * M * N + tl.arange(0, M * N), r + 1)


def test_shapes(run, rng):
    m, n = 4, 8
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros(6 * m * n, np.float32)
    run(shape_kernel, (1,), x, out, M=m, N=n)
    parts = out.reshape(6, -1)
    np.testing.assert_array_equal(parts[0], x.T.reshape(-1))
    np.testing.assert_array_equal(parts[1], x.T.reshape(-1))
    np.testing.assert_array_equal(parts[2], x.reshape(-1))
    np.testing.assert_array_equal(parts[3], (x + np.arange(n, dtype=np.float32)).reshape(-1))
    np.testing.assert_array_equal(parts[4], x.reshape(n, m).T.reshape(-1))
    np.testing.assert_array_equal(parts[5], x.reshape(-1) + 1)


@tc.jit
def join_split_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    j = tl.join(x, y)
    tl.store(out_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    a, b = tl.split(j)
    tl.store(out_ptr + 2 * BLOCK + offs, a - b)
    tl.store(out_ptr + 3 * BLOCK + tl.arange(0, 2 * BLOCK), tl.interleave(x, y))
    c = tl.cat(x, y, can_reorder=True)
    tl.store(out_ptr + 5 * BLOCK + tl.arange(0, 2 * BLOCK), c)


def test_join_split_interleave_cat(run, rng):
    x = rng.standard_normal(BLOCK).astype(np.float32)
    y = rng.standard_normal(BLOCK).astype(np.float32)
    out = np.zeros(7 * BLOCK, np.float32)
    run(join_split_kernel, (1,), x, y, out, BLOCK=BLOCK)
    np.testing.assert_array_equal(out[:2 * BLOCK], np.stack([x, y], -1).reshape(-1))
    np.testing.assert_array_equal(out[2 * BLOCK:3 * BLOCK], x - y)
    np.testing.assert_array_equal(out[3 * BLOCK:5 * BLOCK], np.stack([x, y], -1).reshape(-1))
    # cat may reorder: compare as multisets
    np.testing.assert_array_equal(np.sort(out[5 * BLOCK:]), np.sort(np.concatenate([x, y])))


# -- casts ---------------------------------------------------------------------------------------


@tc.jit
def cast_kernel(x_ptr, y_ptr, n, DST: tl.constexpr, BITCAST: tl.constexpr,
                BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x.to(DST, bitcast=BITCAST), mask=mask)


CASTS = [
    (np.float32, np.int32, tl.int32), (np.float32, np.uint8, tl.uint8),
    (np.int32, np.float32, tl.float32), (np.int64, np.int8, tl.int8),
    (np.int8, np.uint32, tl.uint32), (np.uint8, np.int64, tl.int64),
    (np.float32, np.float16, tl.float16), (np.float16, np.float64, tl.float64),
    (np.float64, np.float32, tl.float32), (np.float32, np.bool_, tl.int1),
    (np.int32, np.bool_, tl.int1),
]


@pytest.mark.parametrize("src,dst,tl_dst", CASTS,
                         ids=[f"{s.__name__}-{d.__name__}" for s, d, _ in CASTS])
def test_casts(run, rng, src, dst, tl_dst):
    if np.issubdtype(src, np.floating):
        low, high = (0, 200) if dst == np.uint8 else (-100, 100)
        x = rng.uniform(low, high, size=N).astype(src)
    else:
        info = np.iinfo(src)
        x = rng.integers(max(info.min, -1000), min(info.max, 1000), size=N).astype(src)
    y = np.zeros(N, dst)
    run(cast_kernel, (1,), x, y, N, DST=tl_dst, BITCAST=False, BLOCK=BLOCK)
    with np.errstate(all="ignore"):
        expected = (x != 0) if dst == np.bool_ else x.astype(dst)
    np.testing.assert_array_equal(y, expected)


def test_bitcast(run, rng):
    x = rng.standard_normal(N).astype(np.float32)
    y = np.zeros(N, np.int32)
    run(cast_kernel, (1,), x, y, N, DST=tl.int32, BITCAST=True, BLOCK=BLOCK)
    np.testing.assert_array_equal(y, x.view(np.int32))


def _bf16_reference(x: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even to bfloat16 bits, written independently of the interpreter."""
    out = []
    for value in x.astype(np.float32):
        bits = int(np.float32(value).view(np.uint32))
        upper, lower = bits >> 16, bits & 0xFFFF
        if lower > 0x8000 or (lower == 0x8000 and upper & 1):
            upper += 1
        out.append(upper & 0xFFFF)
    return np.array(out, np.uint16)


def test_bfloat16_rounding_and_arithmetic(run, rng):
    x = rng.standard_normal(N).astype(np.float32) * 100
    y = np.zeros(N, np.uint16)
    run(cast_kernel, (1,), x, tc.reinterpret(y, tl.bfloat16), N, DST=tl.bfloat16,
        BITCAST=False, BLOCK=BLOCK)
    np.testing.assert_array_equal(y, _bf16_reference(x))


@tc.jit
def bf16_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    s = x + y
    tl.static_assert(s.dtype == tl.bfloat16)
    tl.store(out_ptr + offs, s, mask=mask)
    q = x / y
    tl.static_assert(q.dtype == tl.float32)


def test_bfloat16_add_rounds(run, rng):
    def to_bits(a):
        return _bf16_reference(a)

    def from_bits(b):
        return (b.astype(np.uint32) << 16).view(np.float32)

    x = to_bits(rng.standard_normal(N).astype(np.float32))
    y = to_bits(rng.standard_normal(N).astype(np.float32) * 1e-2)
    out = np.zeros(N, np.uint16)
    run(bf16_add_kernel, (1,), tc.reinterpret(x, tl.bfloat16), tc.reinterpret(y, tl.bfloat16),
        tc.reinterpret(out, tl.bfloat16), N, BLOCK=BLOCK)
    np.testing.assert_array_equal(out, to_bits(from_bits(x) + from_bits(y)))


@tc.jit
def fp8_kernel(x_ptr, y_ptr, codes_ptr, n, FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    f8 = x.to(FP8)
    tl.store(y_ptr + offs, f8.to(tl.float32), mask=mask)
    tl.store(codes_ptr + offs, f8.to(tl.uint8, bitcast=True), mask=mask)


@pytest.mark.parametrize("fp8,mantissa,largest", [(tl.float8e4nv, 3, 448.0),
                                                  (tl.float8e5, 2, 57344.0)])
def test_fp8_round_trip(run, rng, fp8, mantissa, largest):
    x = (rng.standard_normal(N) * 10).astype(np.float32)
    x[:3] = [largest * 2, -1e-30, 0.0]
    y = np.zeros(N, np.float32)
    codes = np.zeros(N, np.uint8)
    run(fp8_kernel, (1,), x, y, codes, N, FP8=fp8, BLOCK=BLOCK)
    assert y[0] == largest  # saturates
    finite = np.abs(x) < largest
    # nearest value with `mantissa` bits: the relative error is at most half an ulp
    rel = np.abs(y[finite] - x[finite]) / np.maximum(np.abs(x[finite]), 2.0 ** -6)
    assert np.all(rel <= 2.0 ** -(mantissa + 1) + 1e-7)
    assert np.all((codes[x < 0] & 0x80) == 0x80)


# -- memory --------------------------------------------------------------------------------------


@tc.jit
def load_store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=-1.0, cache_modifier=".cg",
                eviction_policy="evict_first", volatile=True)
    tl.store(out_ptr + offs, x, cache_modifier=".wb", eviction_policy="evict_last")
    first = tl.load(x_ptr + pid * BLOCK)
    tl.store(out_ptr + 4 * BLOCK + pid, first)


def test_load_store_mask_other(run, rng):
    n = 3 * BLOCK - 5
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(5 * BLOCK, np.nan, np.float32)
    run(load_store_kernel, (3,), x, out, n, BLOCK=BLOCK)
    np.testing.assert_array_equal(out[:n], x)
    np.testing.assert_array_equal(out[n:3 * BLOCK], -1.0)
    np.testing.assert_array_equal(out[4 * BLOCK:4 * BLOCK + 3], x[::BLOCK])


@tc.jit
def block_ptr_kernel(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_m, 1), offsets=(pid * BM, 0),
                            block_shape=(BM, BN), order=(1, 0))
    dst = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(stride_m, 1),
                            offsets=(pid * BM, 0), block_shape=(BM, BN), order=(1, 0))
    for _ in range(0, tl.cdiv(N, BN)):
        x = tl.load(src, boundary_check=(0, 1), padding_option="zero")
        tl.store(dst, x * 2, boundary_check=(0, 1))
        src = tl.advance(src, (0, BN))
        dst = tl.advance(dst, (0, BN))


def test_block_pointers(run, rng):
    m, n = 37, 45
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    run(block_ptr_kernel, (tc.cdiv(m, 16),), x, out, m, n, n, BM=16, BN=16)
    np.testing.assert_array_equal(out, 2 * x)


# -- dot -----------------------------------------------------------------------------------------


@tc.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               PRECISION: tl.constexpr, OUT: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.full((M, N), 1.0, OUT)
    c = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=OUT)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@pytest.mark.parametrize("dtype,precision,out", [(np.float32, "ieee", tl.float32),
                                                  (np.float32, "tf32", tl.float32),
                                                  (np.float16, None, tl.float32),
                                                  (np.float16, None, tl.float16)])
def test_dot(run, rng, dtype, precision, out):
    m, n, k = 16, 32, 16
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c = np.zeros((m, n), np.float32 if out == tl.float32 else np.float16)
    run(dot_kernel, (1,), a, b, c, M=m, N=n, K=k, PRECISION=precision, OUT=out)
    ref = a.astype(np.float64) @ b.astype(np.float64) + 1
    if precision == "tf32":
        # tensor cores read f32 operands as tf32 (10 mantissa bits, truncated): each product
        # may be off by 2**-9 of its size; backends without tf32 compute in f32
        bound = (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))) * 2.0 ** -9
        assert np.all(np.abs(c - ref) <= bound + 1e-5), np.max(np.abs(c - ref) - bound)
        return
    np.testing.assert_allclose(c, ref, rtol=2e-3 if out == tl.float16 else 1e-5, atol=1e-2)


@tc.jit
def int8_dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(a_ptr + r[:, None] * M + r[None, :])
    b = tl.load(b_ptr + r[:, None] * M + r[None, :])
    tl.store(c_ptr + r[:, None] * M + r[None, :], tl.dot(a, b))


def test_int8_dot(run, rng):
    a = rng.integers(-128, 127, size=(16, 16)).astype(np.int8)
    b = rng.integers(-128, 127, size=(16, 16)).astype(np.int8)
    c = np.zeros((16, 16), np.int32)
    run(int8_dot_kernel, (1,), a, b, c, M=16)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


# -- reductions and scans ------------------------------------------------------------------------


@tc.jit
def reduce_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm, tl.sum(x, axis=1))
    tl.store(out_ptr + M + rn, tl.max(x, axis=0))
    tl.store(out_ptr + M + N + rn, tl.min(x, 0))
    tl.store(out_ptr + M + 2 * N + rm, tl.argmax(x, axis=1).to(tl.float32))
    tl.store(out_ptr + 2 * M + 2 * N + rn, tl.argmin(x, axis=0).to(tl.float32))
    tl.store(out_ptr + 2 * M + 3 * N, tl.sum(x))
    tl.store(out_ptr + 2 * M + 3 * N + 1, x.max())
    kept = tl.sum(x, axis=1, keep_dims=True)
    tl.static_assert(kept.shape == (M, 1))
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(out_ptr + 2 * M + 3 * N + 2 + rm, v - tl.max(x, 1) + i.to(tl.float32))


def test_reductions(run, rng):
    m, n = 8, 16
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros(3 * m + 3 * n + 2, np.float32)
    run(reduce_kernel, (1,), x, out, M=m, N=n)
    np.testing.assert_allclose(out[:m], x.sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[m:m + n], x.max(0))
    np.testing.assert_array_equal(out[m + n:m + 2 * n], x.min(0))
    np.testing.assert_array_equal(out[m + 2 * n:2 * m + 2 * n], x.argmax(1))
    np.testing.assert_array_equal(out[2 * m + 2 * n:2 * m + 3 * n], x.argmin(0))
    np.testing.assert_allclose(out[2 * m + 3 * n], x.sum(), rtol=1e-5, atol=1e-5)
    assert out[2 * m + 3 * n + 1] == x.max()
    np.testing.assert_array_equal(out[2 * m + 3 * n + 2:], x.argmax(1))


@tc.jit
def int_reduce_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, tl.xor_sum(x, axis=0))
    tl.store(out_ptr + 1, tl.sum(x, axis=0))
    tl.store(out_ptr + 2, tl.max(x, axis=0))


def test_integer_reductions(run, rng):
    x = rng.integers(-1000, 1000, size=64).astype(np.int32)
    out = np.zeros(3, np.int32)
    run(int_reduce_kernel, (1,), x, out, N=64)
    assert out[0] == np.bitwise_xor.reduce(x)
    assert out[1] == x.sum()
    assert out[2] == x.max()


@tc.jit
def _first_nonzero(a, b):
    return tl.where(a != 0, a, b)


@tc.jit
def custom_reduce_kernel(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, tl.reduce(x, 0, _first_nonzero))
    idx = tl.arange(0, N)
    value, index = tl.reduce((x, idx), 0, _pick_larger)
    tl.store(out_ptr + 1, value)
    tl.store(out_ptr + 2, index.to(tl.float32))


@tc.jit
def _pick_larger(v1, i1, v2, i2):
    larger = v1 >= v2
    return tl.where(larger, v1, v2), tl.where(larger, i1, i2)


def test_reduce_with_custom_combine(run, rng):
    x = rng.standard_normal(32).astype(np.float32)
    x[:5] = 0
    out = np.zeros(3, np.float32)
    run(custom_reduce_kernel, (1,), x, out, N=32)
    assert out[0] == x[5]
    assert out[1] == x.max()
    assert out[2] == x.argmax()


@tc.jit
def scan_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=1))
    tl.store(out_ptr + M * N + offs, tl.cumprod(x, axis=0))
    tl.store(out_ptr + 2 * M * N + offs, tl.associative_scan(x, 1, _add, reverse=True))


@tc.jit
def _add(a, b):
    return a + b


def test_scans(run, rng):
    m, n = 4, 16
    x = rng.uniform(0.5, 1.5, size=(m, n)).astype(np.float32)
    out = np.zeros(3 * m * n, np.float32)
    run(scan_kernel, (1,), x, out, M=m, N=n)
    parts = out.reshape(3, m, n)
    np.testing.assert_allclose(parts[0], np.cumsum(x, 1), rtol=1e-5)
    np.testing.assert_allclose(parts[1], np.cumprod(x, 0), rtol=1e-5)
    np.testing.assert_allclose(parts[2], np.cumsum(x[:, ::-1], 1)[:, ::-1], rtol=1e-5)


@tc.jit
def sort_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x, descending=DESC))
    tl.store(out_ptr + M * N + offs, tl.flip(x))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_flip(run, rng, descending):
    x = rng.standard_normal((2, 16)).astype(np.float32)
    out = np.zeros(64, np.float32)
    run(sort_kernel, (1,), x, out, M=2, N=16, DESC=descending)
    expected = np.sort(x, axis=1)
    np.testing.assert_array_equal(out[:32].reshape(2, 16),
                                  expected[:, ::-1] if descending else expected)
    np.testing.assert_array_equal(out[32:].reshape(2, 16), x[:, ::-1])


@tc.jit
def histogram_kernel(x_ptr, out_ptr, N: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))


def test_histogram(run, rng):
    x = rng.integers(0, 8, size=64).astype(np.int32)
    out = np.zeros(8, np.int32)
    run(histogram_kernel, (1,), x, out, N=64, BINS=8)
    np.testing.assert_array_equal(out, np.bincount(x, minlength=8))


# -- atomics -------------------------------------------------------------------------------------


@tc.jit
def atomic_kernel(out_ptr, x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(out_ptr + 0, tl.sum(x))
    tl.atomic_max(out_ptr + 1, tl.max(tl.where(mask, x, -100000), axis=0))
    tl.atomic_min(out_ptr + 2, tl.min(tl.where(mask, x, 100000), axis=0))
    tl.atomic_and(out_ptr + 3 + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_or(out_ptr + 4 + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_xor(out_ptr + 5 + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_add(out_ptr + 6 + tl.zeros_like(offs), 1, mask=mask)
    old = tl.atomic_xchg(out_ptr + 7, pid)
    tl.store(out_ptr + 8 + pid, old)
    tl.atomic_cas(out_ptr + 16, pid, pid + 1)


def test_integer_atomics_in_program_order(run, rng, backend):
    n = 3 * BLOCK - 7
    x = rng.integers(0, 1 << 20, size=n).astype(np.int32)
    out = np.zeros(17, np.int32)
    out[3] = -1
    run(atomic_kernel, (3,), out, x, n, BLOCK=BLOCK)
    assert out[0] == x.sum()
    assert out[1] == x.max()
    assert out[2] == min(0, x.min())
    assert out[3] == np.bitwise_and.reduce(x)
    assert out[4] == np.bitwise_or.reduce(x)
    assert out[5] == np.bitwise_xor.reduce(x)
    assert out[6] == n
    if backend == "interpret":  # programs run one after the other, in order
        assert out[7] == 2
        np.testing.assert_array_equal(out[8:11], [0, 0, 1])  # xchg returns the previous pid
        assert out[16] == 3  # cas succeeds in program order: 0 -> 1 -> 2 -> 3
        return
    # programs run in parallel, in any order: the exchanges form one chain from the initial 0
    assert sorted([*out[8:11], out[7]]) == [0, 0, 1, 2]
    assert 1 <= out[16] <= 3


@tc.jit
def float_atomic_kernel(out_ptr, x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    old = tl.atomic_add(out_ptr + offs % 4, x)
    tl.atomic_max(out_ptr + 4 + tl.zeros_like(offs), x)
    tl.atomic_min(out_ptr + 5 + tl.zeros_like(offs), x)
    tl.store(out_ptr + 6 + offs, old)


def test_float_atomics(run, rng, backend):
    x = rng.standard_normal(BLOCK).astype(np.float32)
    out = np.zeros(6 + BLOCK, np.float32)
    out[4], out[5] = -np.inf, np.inf
    run(float_atomic_kernel, (1,), out, x, BLOCK=BLOCK)
    np.testing.assert_allclose(out[:4], x.reshape(-1, 4).sum(0), rtol=1e-5, atol=1e-5)
    assert out[4] == x.max() and out[5] == x.min()
    old = out[6:]
    if backend != "cuda":
        # one thread runs the elements in order: the old values of the lanes that hit the same
        # address see the lanes before them
        expected = np.concatenate([[0] * 4, np.cumsum(x.reshape(-1, 4), 0)[:-1].reshape(-1)])
        np.testing.assert_allclose(old, expected, rtol=1e-5, atol=1e-6)
        return
    # the GPU's threads hit an address in any order: per address, the old values chain from 0,
    # each being the one before plus that lane's value
    for address in range(4):
        lanes = set(range(address, BLOCK, 4))
        total = 0.0
        while lanes:
            lane = min(lanes, key=lambda k: abs(old[k] - total))
            assert abs(old[lane] - total) <= 1e-4 * (1 + abs(total)), (address, lane)
            lanes.remove(lane)
            total = float(old[lane]) + float(x[lane])


# -- random numbers ------------------------------------------------------------------------------


def _philox_reference(seed: int, offsets, rounds: int = 10):
    """Philox 4x32 with counters (offset, 0, 0, 0), written out independently."""
    mask = 0xFFFFFFFF
    results = []
    for offset in offsets:
        c = [int(offset) & mask, 0, 0, 0]
        k = [seed & mask, (seed >> 32) & mask]
        for _ in range(rounds):
            a, b = 0xD2511F53, 0xCD9E8D57
            c0, c2 = c[0], c[2]
            c = [((b * c2) >> 32) ^ c[1] ^ k[0], (b * c2) & mask,
                 ((a * c0) >> 32) ^ c[3] ^ k[1], (a * c0) & mask]
            k = [(k[0] + 0x9E3779B9) & mask, (k[1] + 0xBB67AE85) & mask]
        results.append(c)
    return np.array(results, dtype=np.uint64).astype(np.uint32)


@tc.jit
def random_kernel(out_int_ptr, out_float_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_int_ptr + offs, tl.randint(seed, offs), mask=mask)
    tl.store(out_float_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(out_float_ptr + n + offs, tl.randn(seed, offs), mask=mask)


def test_philox_rand_randn_randint(run, rng):
    seed = int(rng.integers(0, 2**31))
    n = 2 * BLOCK + 3
    ints = np.zeros(n, np.uint32)
    floats = np.zeros(2 * n, np.float32)
    run(random_kernel, (3,), ints, floats, seed, n, BLOCK=BLOCK)
    ref = _philox_reference(seed, range(n))
    np.testing.assert_array_equal(ints, ref[:, 0])
    as_int = ref[:, 0].view(np.int32).astype(np.int64)
    uniform = np.where(as_int < 0, -as_int - 1, as_int) * 4.6566127342e-10
    np.testing.assert_allclose(floats[:n], uniform, rtol=1e-6)
    assert np.all((floats[:n] >= 0) & (floats[:n] < 1))
    normal = floats[n:]
    assert abs(normal.mean()) < 0.5 and 0.5 < normal.std() < 1.5


# -- debugging and hints -------------------------------------------------------------------------


@tc.jit
def hints_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.multiple_of(tl.program_id(0) * BLOCK, 16) + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(offs, BLOCK)
    tl.assume(n > 0)
    tl.static_assert(BLOCK >= 16, "block too small")
    tl.debug_barrier()
    mask = offs < n
    tl.device_assert(offs >= 0, "negative offset")
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


def test_hints_and_assertions(run, rng):
    x = rng.standard_normal(N).astype(np.float32)
    out = np.zeros(N, np.float32)
    run(hints_kernel, (1,), x, out, N, BLOCK=BLOCK)
    np.testing.assert_array_equal(out, x + 1)
    text = hints_kernel.ttir("*fp32", "*fp32", "i32", BLOCK=BLOCK)
    assert "tt.divisibility = dense<16> : tensor<1xi32>" in text
    assert "tt.contiguity = dense<64> : tensor<1xi32>" in text
    assert 'tt.assert' in text and '"negative offset"' in text


@tc.jit
def loops_kernel(out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.int32)
    for i in tl.range(0, n, 2, num_stages=2, loop_unroll_factor=2):
        acc += i
    for j in tl.static_range(3):
        acc += j
    for k in range(n, 0, -3):
        acc += k
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


def test_range_static_range_negative_step(run):
    out = np.zeros(16, np.int32)
    run(loops_kernel, (1,), out, 11, BLOCK=16)
    assert np.all(out == sum(range(0, 11, 2)) + 3 + sum(range(11, 0, -3)))
    text = loops_kernel.ttir("*i32", "i32", BLOCK=16)
    assert "tt.num_stages = 2 : i32" in text and "tt.loop_unroll_factor = 2 : i32" in text


# -- the rest of the surface ---------------------------------------------------------------------

MORE_UNARY = [
    (tl.math.round, lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x), (-5, 5)),
    (tl.math.erfc, lambda x: 1 - _erf(x), (-2, 2)), (tl.math.sinh, np.sinh, (-2, 2)),
    (tl.math.cosh, np.cosh, (-2, 2)), (tl.math.acos, np.arccos, (-1, 1)),
    (tl.math.asinh, np.arcsinh, (-3, 3)), (tl.math.acosh, np.arccosh, (1, 4)),
    (tl.math.atanh, np.arctanh, (-0.9, 0.9)), (tl.math.nearbyint, np.rint, (-5, 5)),
    (tl.math.exp, np.exp, (-2, 2)), (tl.math.sqrt_rn, np.sqrt, (0, 2)),
]


@pytest.mark.parametrize("fn,ref,domain", MORE_UNARY, ids=[f[0].__name__ for f in MORE_UNARY])
def test_more_math(run, rng, fn, ref, domain):
    test_unary_math(run, rng, fn, ref, domain)


@tc.jit
def math_binary_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.math.pow(x, y), mask=mask)
    tl.store(out_ptr + BLOCK + offs, tl.math.atan2(x, y), mask=mask)
    tl.store(out_ptr + 2 * BLOCK + offs, tl.math.copysign(x, y - 1), mask=mask)
    inf = x / (y - y)
    flags = tl.math.isnan(x - x).to(tl.float32) + 2 * tl.math.isinf(inf).to(tl.float32) + \
        4 * tl.math.isfinite(x).to(tl.float32)
    tl.store(out_ptr + 3 * BLOCK + offs, flags, mask=mask)


def test_math_binary_and_classification(run, rng):
    x = rng.uniform(0.5, 2, N).astype(np.float32)
    y = rng.uniform(0.5, 2, N).astype(np.float32)
    out = np.zeros(4 * BLOCK, np.float32)
    run(math_binary_kernel, (1,), x, y, out, N, BLOCK=BLOCK)
    rows = out.reshape(4, BLOCK)[:, :N]
    np.testing.assert_allclose(rows[0], np.power(x, y), rtol=1e-6)
    np.testing.assert_allclose(rows[1], np.arctan2(x, y), rtol=1e-6)
    np.testing.assert_allclose(rows[2], np.copysign(x, y - 1))
    np.testing.assert_array_equal(rows[3], 6.0)


@tc.jit
def bits_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.math.clz(x), mask=mask)
    tl.store(out_ptr + BLOCK + offs, tl.math.popc(x), mask=mask)


def test_clz_popc(run, rng):
    x = rng.integers(1, 2**31 - 1, N).astype(np.int32) >> rng.integers(0, 30, N).astype(np.int32)
    out = np.zeros(2 * BLOCK, np.int32)
    run(bits_kernel, (1,), x, out, N, BLOCK=BLOCK)
    np.testing.assert_array_equal(out[:N], [32 - int(v).bit_length() for v in x])
    np.testing.assert_array_equal(out[BLOCK:BLOCK + N], [bin(int(v)).count("1") for v in x])


@tc.jit
def library_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], tl.softmax(x))
    a, b = tl.broadcast(rm[:, None], rn[None, :])
    i, j = tl.swizzle2d(a, b, M, N, 2)
    tl.store(out_ptr + M * N + rm[:, None] * N + rn[None, :], (i * N + j).to(tl.float32))
    v = tl.view(x, (N, M))
    tl.store(out_ptr + 2 * M * N + tl.arange(0, M * N), tl.sort(tl.ravel(v)))
    tl.store(out_ptr + 3 * M * N + rn, x.sum(0) + x.exp().max(axis=0))
    tl.store(out_ptr + 3 * M * N + N + rm, tl.cast(x.argmax(1), tl.float32))
    tl.store(out_ptr + 3 * M * N + N + M, tl.max_constancy(tl.sum(x), 1))


def test_library_functions(run, rng):
    m, n = 4, 8
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros(3 * m * n + n + m + 1, np.float32)
    run(library_kernel, (1,), x, out, M=m, N=n)
    e = np.exp(x - x.max(0))
    np.testing.assert_allclose(out[:m * n].reshape(m, n), e / e.sum(0), rtol=1e-6)
    perm = out[m * n:2 * m * n].astype(int)
    assert sorted(perm) == list(range(m * n))  # swizzle2d is a permutation
    assert perm[1] == n  # groups of 2 rows are walked column by column: (0, 1) -> (1, 0)
    np.testing.assert_array_equal(out[2 * m * n:3 * m * n], np.sort(x.reshape(-1)))
    np.testing.assert_allclose(out[3 * m * n:3 * m * n + n], x.sum(0) + np.exp(x).max(0),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[3 * m * n + n:3 * m * n + n + m], x.argmax(1))
    assert abs(out[-1] - x.sum()) < 1e-4


@tc.jit
def random4x_kernel(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(out_ptr + offs, a)
    tl.store(out_ptr + BLOCK + offs, d)
    u1, u2, u3, u4 = tl.rand4x(seed, offs)
    n1, n2, n3, n4 = tl.randn4x(seed, offs)
    ok = (u4 >= 0) & (u4 < 1) & (n4 == n4)
    tl.store(out_ptr + 2 * BLOCK + offs, ok.to(tl.uint32))


def test_random_4x(run):
    out = np.zeros(3 * BLOCK, np.uint32)
    run(random4x_kernel, (1,), out, 42, BLOCK=BLOCK)
    ref = _philox_reference(42, range(BLOCK))
    np.testing.assert_array_equal(out[:BLOCK], ref[:, 0])
    np.testing.assert_array_equal(out[BLOCK:2 * BLOCK], ref[:, 3])
    assert np.all(out[2 * BLOCK:] == 1)


@tc.jit
def _pair_sum(p):
    a, b = p
    return (a + b, a * b)


@tc.jit
def tuple_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    state = (tl.zeros([BLOCK], tl.float32), tl.zeros([BLOCK], tl.float32) + 1)
    for i in range(n):
        x = tl.load(x_ptr + i * BLOCK + offs)
        state = (state[0] + x, state[1] * 2)
    s, p = _pair_sum(state)
    if n > 2:
        s, p = p, s
    tl.store(out_ptr + offs, s)
    tl.store(out_ptr + BLOCK + offs, p)


def test_tuples_carried_passed_and_returned(run, rng):
    x = rng.random((3, 16), np.float32)
    out = np.zeros(32, np.float32)
    run(tuple_kernel, (1,), x, out, 3, BLOCK=16)
    total, product = x.sum(0), np.full(16, 8.0)
    np.testing.assert_allclose(out[:16], total * product, rtol=1e-6)
    np.testing.assert_allclose(out[16:], total + product, rtol=1e-6)
    text = tuple_kernel.ttir("*fp32", "*fp32", "i32", BLOCK=16)
    assert "scf.for" in text and "iter_args(" in text and "-> (tensor<16xf32>, tensor<16xf32>)" in text
