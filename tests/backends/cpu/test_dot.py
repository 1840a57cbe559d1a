"""`tl.dot` compiled for the CPU against the interpreter and numpy, for every dot dtype, on
ragged shapes (sizes that are not multiples of the blocks, down to 1), through Triton's tutorial
matmul (pointer tensors carried around the K loop and advanced uniformly, ``% M`` / ``% N``
offsets, masks on K), a transposed B, and loops that advance a tensor by a step that is not
uniform. Inputs are fresh random values; outputs are poisoned with NaN (or a sentinel integer)
before each run; float results are compared to a float64 reference by relative error, integer
results exactly."""

from __future__ import annotations


import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl



@tc.jit
def tutorial_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                           stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                           ACC: tl.constexpr, PRECISION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=ACC)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@tc.jit
def stepped_dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    """A's pointers advance by a step that differs per row (rows past M, masked off, move
    twice as far), B's row offsets are an integer tensor advanced uniformly (``arith.addi``)."""
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_rows = rk[:, None] * N + rn[None, :] * 0
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + b_rows + rn[None, :], mask=((k + rk)[:, None] < K) &
                    (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += tl.where(rm[:, None] < M, BK, 2 * BK)
        b_rows += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _launch(backend: str, monkeypatch, kernel, grid, *args, **kwargs) -> None:
    monkeypatch.setenv("TILECRAFT_BACKEND", backend)
    kernel[grid](*args, **kwargs)


DTYPES = {
    # name: (numpy storage, tilecraft type or None, accumulator, input precision, tolerance)
    "fp32-ieee": (np.float32, None, tl.float32, "ieee", 1e-5),
    "fp32-tf32": (np.float32, None, tl.float32, "tf32", 1e-5),
    "fp16": (np.float16, None, tl.float32, "ieee", 1e-5),
    "bf16": (np.uint16, tl.bfloat16, tl.float32, "ieee", 1e-5),
    "fp64": (np.float64, None, tl.float64, "ieee", 1e-12),
    "int8": (np.int8, None, tl.int32, "ieee", 0),
}

SHAPES = [(1, 1, 1), (67, 45, 39), (130, 70, 33), (64, 64, 64), (33, 128, 100)]


def _inputs(rng, name: str, m: int, n: int, k: int):
    """(A and B as launched, A and B as float64 values)."""
    storage, _, _, _, _ = DTYPES[name]
    if name == "int8":
        a = rng.integers(-128, 128, (m, k), dtype=np.int8)
        b = rng.integers(-128, 128, (k, n), dtype=np.int8)
        return a, b, a.astype(np.float64), b.astype(np.float64)
    a32 = rng.standard_normal((m, k)).astype(np.float32)
    b32 = rng.standard_normal((k, n)).astype(np.float32)
    if name == "bf16":
        a16 = (a32.view(np.uint32) >> 16).astype(np.uint16)
        b16 = (b32.view(np.uint32) >> 16).astype(np.uint16)
        return (tc.reinterpret(a16, tl.bfloat16), tc.reinterpret(b16, tl.bfloat16),
                _bf16_values(a16), _bf16_values(b16))
    a, b = a32.astype(storage), b32.astype(storage)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def _bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _base(x):
    return x.base if isinstance(x, tc.reinterpret) else x


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("name", list(DTYPES))
def test_tutorial_matmul_matches_interpreter_and_numpy(monkeypatch, rng, name, shape):
    m, n, k = shape
    _, _, acc, precision, tolerance = DTYPES[name]
    a, b, a64, b64 = _inputs(rng, name, m, n, k)
    reference = a64 @ b64
    out_type = np.int32 if name == "int8" else (np.float64 if name == "fp64" else np.float32)
    results = {}
    for backend in ("cpu", "interpret"):
        c = np.full((m, n), -12345 if name == "int8" else np.nan, out_type)
        blocks = dict(BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, GROUP_M=2)
        grid = (tc.cdiv(m, 32) * tc.cdiv(n, 32),)
        _launch(backend, monkeypatch, tutorial_matmul_kernel, grid, a, b, c, m, n, k,
                _base(a).strides[0] // _base(a).itemsize, 1, _base(b).strides[0] //
                _base(b).itemsize, 1, n, 1, **blocks, ACC=acc, PRECISION=precision)
        results[backend] = c
    for backend, c in results.items():
        if name == "int8":
            np.testing.assert_array_equal(c, reference.astype(np.int64), err_msg=backend)
            continue
        error = np.max(np.abs(c - reference)) / max(np.max(np.abs(reference)), 1e-30)
        assert error <= tolerance, f"{backend}: relative error {error:.2e}"


@pytest.mark.parametrize("shape", [(67, 45, 39), (64, 64, 64)], ids=lambda s: "x".join(map(str, s)))
def test_transposed_b(monkeypatch, rng, shape):
    """B is read through a transposed view (stride_bn != 1): no vector loads along N."""
    m, n, k = shape
    a = rng.standard_normal((m, k)).astype(np.float32)
    bt = rng.standard_normal((n, k)).astype(np.float32)
    reference = a.astype(np.float64) @ bt.T.astype(np.float64)
    for backend in ("cpu", "interpret"):
        c = np.full((m, n), np.nan, np.float32)
        _launch(backend, monkeypatch, tutorial_matmul_kernel,
                (tc.cdiv(m, 32) * tc.cdiv(n, 32),), a, bt, c, m, n, k, k, 1, 1, k, n, 1,
                BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, GROUP_M=2, ACC=tl.float32,
                PRECISION="ieee")
        np.testing.assert_allclose(c, reference, rtol=1e-4, atol=1e-4, err_msg=backend)


@pytest.mark.parametrize("shape", [(19, 23, 37), (32, 32, 64)], ids=lambda s: "x".join(map(str, s)))
def test_loops_that_advance_tensors(monkeypatch, rng, shape):
    m, n, k = shape
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    reference = a.astype(np.float64) @ b
    for backend in ("cpu", "interpret"):
        c = np.full((m, n), np.nan, np.float32)
        _launch(backend, monkeypatch, stepped_dot_kernel, (1,), a, b, c, m, n, k,
                BM=32, BN=32, BK=16)
        np.testing.assert_allclose(c, reference, rtol=1e-5, atol=1e-5, err_msg=backend)


@tc.jit
def nested_advance_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, STEPS: tl.constexpr,
                          BLOCK: tl.constexpr):
    """Pointers advanced in an inner loop, restarted by an outer one, and read after the inner
    loop ends: out[r] = sum of the STEPS blocks of row r, then the block after them."""
    offs = tl.arange(0, BLOCK)
    for r in range(ROWS):
        ptrs = x_ptr + r * (STEPS + 1) * BLOCK + offs
        acc = tl.zeros((BLOCK,), tl.float32)
        for _ in range(STEPS):
            acc += tl.load(ptrs)
            ptrs += BLOCK
        tl.store(out_ptr + r * 2 * BLOCK + offs, acc)
        tl.store(out_ptr + r * 2 * BLOCK + BLOCK + offs, tl.load(ptrs))


def test_advanced_pointers_in_nested_loops_and_after_them(monkeypatch, rng):
    rows, steps, block = 3, 5, 32
    x = rng.standard_normal((rows, steps + 1, block)).astype(np.float32)
    expected = np.concatenate([x[:, :steps].sum(axis=1), x[:, steps]], axis=1)
    for backend in ("cpu", "interpret"):
        out = np.full((rows, 2 * block), np.nan, np.float32)
        _launch(backend, monkeypatch, nested_advance_kernel, (1,), x, out, ROWS=rows,
                STEPS=steps, BLOCK=block)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5, err_msg=backend)
