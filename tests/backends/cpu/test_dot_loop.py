"""`scf.for` loops of ``acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)`` run in chunks of
iterations over packed tiles (`tilecraft.backends.cpu.dot_loop`): results are bit for bit those
of the same loop run one dot per iteration (a loop that the chunking does not take, since its
body also stores), across chunk boundaries and a ragged last chunk, masked and unmasked K tails,
ragged M and N, transposed and strided operands, every dot dtype, and loops the chunking must
leave alone (a narrow accumulator, an accumulator read inside the loop). Inputs are fresh random
values, outputs are poisoned before each run and compared to a float64 reference and to the
interpreter."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


@tc.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, trace_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                  stride_bn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, ACC: tl.constexpr, MASK_K: tl.constexpr,
                  TRACE: tl.constexpr):
    """Triton's tutorial loop over a 2-D grid; ``TRACE`` stores the loop counter each
    iteration, which keeps the loop one dot per iteration."""
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if MASK_K:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0)
        else:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=ACC)
        if TRACE:
            tl.store(trace_ptr + pid_m * tl.num_programs(1) + pid_n, k)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@tc.jit
def recomputed_pointers_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                               BN: tl.constexpr, BK: tl.constexpr):
    """Pointers computed from the loop counter each iteration (no tensor advanced), masks on
    every side, and a scalar carried along (the sum of the counters, stored at the end)."""
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    total = 0
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        total += k
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc + total,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@tc.jit
def acc_read_in_loop_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                            BK: tl.constexpr):
    """The accumulator is scaled each iteration before the dot: no chunking."""
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc * 0.5, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def _launch(backend: str, monkeypatch, kernel, grid, *args, **kwargs):
    monkeypatch.setenv("TILECRAFT_BACKEND", backend)
    return kernel[grid](*args, **kwargs)


def _inputs(rng, dtype: str, m: int, n: int, k: int):
    """(A and B as launched, A and B as float64 values)."""
    if dtype == "int8":
        a = rng.integers(-128, 128, (m, k), dtype=np.int8)
        b = rng.integers(-128, 128, (k, n), dtype=np.int8)
        return a, b, a.astype(np.float64), b.astype(np.float64)
    a32 = rng.standard_normal((m, k)).astype(np.float32)
    b32 = rng.standard_normal((k, n)).astype(np.float32)
    if dtype == "bf16":
        bits = [(x.view(np.uint32) >> 16).astype(np.uint16) for x in (a32, b32)]
        values = [(x.astype(np.uint32) << 16).view(np.float32).astype(np.float64) for x in bits]
        return (tc.reinterpret(bits[0], tl.bfloat16), tc.reinterpret(bits[1], tl.bfloat16),
                *values)
    storage = {"fp32": np.float32, "fp16": np.float16, "fp64": np.float64}[dtype]
    a, b = a32.astype(storage), b32.astype(storage)
    return a, b, a.astype(np.float64), b.astype(np.float64)


ACCUMULATORS = {"fp32": (tl.float32, np.float32, 1e-5), "fp16": (tl.float32, np.float32, 1e-5),
                "bf16": (tl.float32, np.float32, 1e-5), "fp64": (tl.float64, np.float64, 1e-12),
                "int8": (tl.int32, np.int32, 0)}


def _matmul(monkeypatch, backend: str, a, b, m: int, n: int, k: int, strides, blocks, acc,
            out_type, mask_k: bool = True, trace: bool = False):
    """C (poisoned first) from ``matmul_kernel``, and the compiled kernel."""
    c = np.full((m, n), -12345 if out_type == np.int32 else np.nan, out_type)
    grid = (tc.cdiv(m, blocks[0]), tc.cdiv(n, blocks[1]))
    trace_buffer = np.zeros(grid, np.int32)
    compiled = _launch(backend, monkeypatch, matmul_kernel, grid, a, b, c, trace_buffer, m, n,
                       k, *strides, BLOCK_M=blocks[0], BLOCK_N=blocks[1], BLOCK_K=blocks[2],
                       ACC=acc, MASK_K=mask_k, TRACE=trace)
    return c, compiled


def _strides(x) -> tuple[int, int]:
    base = x.base if isinstance(x, tc.reinterpret) else x
    return tuple(s // base.itemsize for s in base.strides)


# (M, N, K, BLOCK_M, BLOCK_N, BLOCK_K): K spans several chunks with a ragged last one, or one
# chunk, or less than one iteration; M and N ragged or not
SHAPES = [(67, 45, 611, 32, 32, 32), (64, 64, 512, 64, 64, 32), (33, 70, 300, 16, 32, 16),
          (19, 23, 5, 16, 16, 16), (128, 16, 1030, 64, 16, 64)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dtype", list(ACCUMULATORS))
def test_chunked_loop_matches_one_dot_per_iteration(monkeypatch, rng, dtype, shape):
    m, n, k, *blocks = shape
    acc, out_type, tolerance = ACCUMULATORS[dtype]
    a, b, a64, b64 = _inputs(rng, dtype, m, n, k)
    strides = (*_strides(a), *_strides(b))
    chunked, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, strides, blocks, acc,
                                out_type)
    assert "dots.flush" in compiled.asm["llir"]
    plain, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, strides, blocks, acc,
                              out_type, trace=True)
    assert "dots.flush" not in compiled.asm["llir"]
    np.testing.assert_array_equal(chunked, plain)
    reference = a64 @ b64
    if dtype == "int8":
        np.testing.assert_array_equal(chunked, reference.astype(np.int64))
        return
    error = np.max(np.abs(chunked - reference)) / np.max(np.abs(reference))
    assert error <= tolerance, f"relative error {error:.2e}"


@pytest.mark.parametrize("mask_k", [True, False])
def test_unmasked_loads_and_k_a_multiple_of_the_block(monkeypatch, rng, mask_k):
    m, n, k, blocks = 40, 72, 768, (32, 64, 32)
    a, b, a64, b64 = _inputs(rng, "fp32", m, n, k)
    strides = (*_strides(a), *_strides(b))
    chunked, _ = _matmul(monkeypatch, "cpu", a, b, m, n, k, strides, blocks, tl.float32,
                         np.float32, mask_k=mask_k)
    plain, _ = _matmul(monkeypatch, "cpu", a, b, m, n, k, strides, blocks, tl.float32,
                       np.float32, mask_k=mask_k, trace=True)
    np.testing.assert_array_equal(chunked, plain)
    np.testing.assert_allclose(chunked, a64 @ b64, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("layout", ["transposed-b", "transposed-a", "strided-both"])
def test_operands_read_across_their_rows(monkeypatch, rng, layout):
    """Views whose K (for A) or N (for B) elements are not contiguous: loads element by
    element into the packs, no prefetch along rows."""
    m, n, k = 37, 50, 333
    a_full = rng.standard_normal((m, 2 * k)).astype(np.float32)
    b_full = rng.standard_normal((n, 2 * k)).astype(np.float32)
    a = a_full[:, ::2] if layout == "strided-both" else a_full[:, :k]
    b = b_full[:, ::2].T if layout == "strided-both" else b_full[:, :k].T
    if layout == "transposed-a":
        a = np.asfortranarray(a)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    strides = (*_strides(a), *_strides(b))
    results = {}
    for backend in ("cpu", "interpret"):
        results[backend], _ = _matmul(monkeypatch, backend, a, b, m, n, k, strides,
                                      (32, 32, 16), tl.float32, np.float32)
    plain, _ = _matmul(monkeypatch, "cpu", a, b, m, n, k, strides, (32, 32, 16), tl.float32,
                       np.float32, trace=True)
    np.testing.assert_array_equal(results["cpu"], plain)
    for backend, c in results.items():
        np.testing.assert_allclose(c, a64 @ b64, rtol=1e-4, atol=1e-4, err_msg=backend)


@pytest.mark.parametrize("shape", [(19, 23, 371), (32, 32, 512)], ids=lambda s: "x".join(map(str, s)))
def test_pointers_recomputed_each_iteration(monkeypatch, rng, shape):
    """No advanced tensor of pointers (so nothing to prefetch), a scalar carried along."""
    m, n, k = shape
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bk = 16
    expected = a.astype(np.float64) @ b + sum(range(0, k, bk))
    for backend in ("cpu", "interpret"):
        c = np.full((m, n), np.nan, np.float32)
        compiled = _launch(backend, monkeypatch, recomputed_pointers_kernel, (1,), a, b, c, m,
                           n, k, BM=32, BN=32, BK=bk)
        if backend == "cpu":
            assert "dots.flush" in compiled.asm["llir"]
        np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4, err_msg=backend)


def test_accumulator_read_in_the_loop_is_not_chunked(monkeypatch, rng):
    bm, bn, bk, k = 16, 16, 16, 256
    a = rng.standard_normal((bm, k)).astype(np.float32)
    b = rng.standard_normal((k, bn)).astype(np.float32)
    expected = np.zeros((bm, bn))
    for k0 in range(0, k, bk):
        expected = expected * 0.5 + a[:, k0:k0 + bk].astype(np.float64) @ b[k0:k0 + bk]
    for backend in ("cpu", "interpret"):
        c = np.full((bm, bn), np.nan, np.float32)
        compiled = _launch(backend, monkeypatch, acc_read_in_loop_kernel, (1,), a, b, c, k,
                           BM=bm, BN=bn, BK=bk)
        if backend == "cpu":
            assert "dots.flush" not in compiled.asm["llir"]
        np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4, err_msg=backend)


def test_narrow_accumulator_is_not_chunked(monkeypatch, rng):
    """An fp16 accumulator is rounded after each dot: chunks would round less often."""
    m, n, k = 32, 32, 256
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    results = {}
    for backend in ("cpu", "interpret"):
        results[backend], compiled = _matmul(monkeypatch, backend, a, b, m, n, k,
                                             (*_strides(a), *_strides(b)), (32, 32, 16),
                                             tl.float16, np.float16)
        if backend == "cpu":
            assert "dots.flush" not in compiled.asm["llir"]
    reference = a.astype(np.float64) @ b.astype(np.float64)
    for backend, c in results.items():
        error = np.max(np.abs(c - reference)) / np.max(np.abs(reference))
        assert error <= 1e-2, f"{backend}: relative error {error:.2e}"
