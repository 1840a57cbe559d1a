"""`tt.dot` prefetching the tiles its operands' loads read two iterations later
(`tilecraft.backends.cpu.dot_prefetch`): the compiled kernels against the interpreter and a
float64 reference, for every dot dtype, over K loops of many iterations (whose last ones
prefetch past the end of the matrices), masked and unmasked K tails, ragged M and N, operands
whose rows are not contiguous (not prefetched along them) and pointers recomputed each iteration
(nothing to prefetch). Inputs are fresh random values; outputs are poisoned before each run.
These are the FMA micro-kernels' prefetches: on a host with AMX the tests keep bf16 dots off
its tiles, which prefetch nothing (test_dot_amx.py checks that)."""

from __future__ import annotations

import ctypes
import mmap
import os

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cpu import dot_prefetch, engine, memory
from tilecraft.backends.cpu.lowering import lower_kernel
from tilecraft.ir.parser import parse_module


@pytest.fixture(autouse=True)
def fma_dots(monkeypatch):
    """bf16 dots on the FMA micro-kernels whatever the host (see the module docstring)."""
    monkeypatch.setattr(engine, "host_amx_bf16", lambda: False)


@tc.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  ACC: tl.constexpr, MASK_K: tl.constexpr):
    """Triton's tutorial loop over a 2-D grid: pointer tensors advanced around the K loop."""
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
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@tc.jit
def recomputed_pointers_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                               BN: tl.constexpr, BK: tl.constexpr):
    """Pointers computed from the loop counter each iteration: no tensor advanced."""
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


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


# dtype: (accumulator, result storage, tolerance)
ACCUMULATORS = {"fp32": (tl.float32, np.float32, 1e-5), "fp16": (tl.float32, np.float32, 1e-5),
                "bf16": (tl.float32, np.float32, 1e-5), "fp64": (tl.float64, np.float64, 1e-12),
                "int8": (tl.int32, np.int32, 0)}


def _strides(x) -> tuple[int, int]:
    base = x.base if isinstance(x, tc.reinterpret) else x
    return tuple(s // base.itemsize for s in base.strides)


def _matmul(monkeypatch, backend: str, a, b, m: int, n: int, k: int, blocks, acc, out_type,
            mask_k: bool = True):
    """C (poisoned first) from ``matmul_kernel``, and the compiled kernel."""
    c = np.full((m, n), -12345 if out_type == np.int32 else np.nan, out_type)
    grid = (tc.cdiv(m, blocks[0]), tc.cdiv(n, blocks[1]))
    compiled = _launch(backend, monkeypatch, matmul_kernel, grid, a, b, c, m, n, k,
                       *_strides(a), *_strides(b), BLOCK_M=blocks[0], BLOCK_N=blocks[1],
                       BLOCK_K=blocks[2], ACC=acc, MASK_K=mask_k)
    return c, compiled


def _check(c, reference, tolerance: float, what: str) -> None:
    if tolerance == 0:
        np.testing.assert_array_equal(c, reference.astype(np.int64), err_msg=what)
        return
    error = np.max(np.abs(c - reference)) / np.max(np.abs(reference))
    assert error <= tolerance, f"{what}: relative error {error:.2e}"


def _prefetched_operands(monkeypatch, compiled) -> list[bool]:
    """Lowers ``compiled``'s tile IR again and says, for each load in it (in order), whether
    the dot that reads it prefetches its next tiles."""
    answers = []

    def spy(fl, load):
        answer = dot_prefetch.prefetched_by_dot(fl, load)
        answers.append(answer)
        return answer

    monkeypatch.setattr(memory, "prefetched_by_dot", spy)
    module = str(lower_kernel(parse_module(compiled.asm["ttir"]))[0])
    assert "llvm.prefetch" in module or not any(answers)
    return answers


# (M, N, K, BLOCK_M, BLOCK_N, BLOCK_K): K of many iterations, ragged or not, or of one; small
# tiles deep in K (a block's share of prefetches emitted as a loop)
SHAPES = [(67, 45, 611, 32, 32, 32), (64, 64, 512, 64, 64, 32), (33, 70, 300, 16, 32, 16),
          (19, 23, 5, 16, 16, 16), (32, 48, 700, 16, 16, 128)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dtype", list(ACCUMULATORS))
def test_tutorial_loop_with_prefetching_dot(monkeypatch, rng, dtype, shape):
    m, n, k, *blocks = shape
    acc, out_type, tolerance = ACCUMULATORS[dtype]
    a, b, a64, b64 = _inputs(rng, dtype, m, n, k)
    reference = a64 @ b64
    for backend in ("cpu", "interpret"):
        c, compiled = _matmul(monkeypatch, backend, a, b, m, n, k, blocks, acc, out_type)
        if backend == "cpu":
            # B's columns (offsets % N) are known to run contiguously when N is a multiple of 16
            assert _prefetched_operands(monkeypatch, compiled) == [True, n % 16 == 0]
        _check(c, reference, tolerance, backend)


@pytest.mark.parametrize("mask_k", [True, False])
def test_unmasked_loads_and_k_a_multiple_of_the_block(monkeypatch, rng, mask_k):
    m, n, k = 40, 80, 768
    a, b, a64, b64 = _inputs(rng, "fp32", m, n, k)
    c, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, (32, 64, 32), tl.float32,
                          np.float32, mask_k=mask_k)
    assert _prefetched_operands(monkeypatch, compiled) == [True, True]
    _check(c, a64 @ b64, 1e-5, f"mask_k={mask_k}")


@pytest.mark.parametrize("layout", ["transposed-b", "transposed-a", "strided-both"])
def test_operands_whose_rows_are_not_contiguous(monkeypatch, rng, layout):
    """A's K or B's N elements not contiguous: that operand is loaded element by element and
    not prefetched along its rows."""
    m, n, k = 37, 48, 333
    a_full = rng.standard_normal((m, 2 * k)).astype(np.float32)
    b_full = rng.standard_normal((n, 2 * k)).astype(np.float32)
    a = a_full[:, ::2] if layout == "strided-both" else a_full[:, :k]
    b = b_full[:, ::2].T if layout == "strided-both" else b_full[:, :k].T
    if layout == "transposed-a":
        a = np.asfortranarray(a)
        b = np.ascontiguousarray(b)
    reference = a.astype(np.float64) @ b.astype(np.float64)
    expected = {"transposed-b": [True, False], "transposed-a": [False, True],
                "strided-both": [False, False]}[layout]
    for backend in ("cpu", "interpret"):
        c, compiled = _matmul(monkeypatch, backend, a, b, m, n, k, (32, 32, 16), tl.float32,
                              np.float32)
        if backend == "cpu":
            assert _prefetched_operands(monkeypatch, compiled) == expected
        _check(c, reference, 1e-5, backend)


def test_pointers_recomputed_each_iteration_prefetch_nothing(monkeypatch, rng):
    m, n, k = 19, 23, 371
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    reference = a.astype(np.float64) @ b
    for backend in ("cpu", "interpret"):
        c = np.full((m, n), np.nan, np.float32)
        compiled = _launch(backend, monkeypatch, recomputed_pointers_kernel, (1,), a, b, c, m,
                           n, k, BM=32, BN=32, BK=16)
        if backend == "cpu":
            assert _prefetched_operands(monkeypatch, compiled) == [False, False]
        _check(c, reference, 1e-5, backend)


def _read_in_place(monkeypatch, compiled) -> list[bool]:
    """Lowers ``compiled``'s tile IR again and says, for each load in it that could be read in
    place (in order), whether it is."""
    answers = []
    original = memory._read_in_place_by_dot

    def spy(*args):
        answer = original(*args)
        answers.append(answer)
        return answer

    monkeypatch.setattr(memory, "_read_in_place_by_dot", spy)
    lower_kernel(parse_module(compiled.asm["ttir"]))
    return answers


# (M, N, K, BLOCK_M, BLOCK_N, BLOCK_K): a masked K tail (its A tile copied before the dot reads
# it), several row and column blocks, programs past M (offsets % M)
IN_PLACE_SHAPES = [(70, 96, 200, 32, 64, 32), (128, 80, 96, 64, 16, 32), (9, 48, 77, 16, 32, 16)]


@pytest.mark.parametrize("shape", IN_PLACE_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_prefetched_a_is_read_where_it_lies(monkeypatch, rng, shape):
    """The dot that prefetches A's later tiles reads A's tile where it lies, a row block's rows
    copied at a time (B's tile, read by rows as vectors, is copied whole)."""
    m, n, k, *blocks = shape
    a, b, a64, b64 = _inputs(rng, "fp32", m, n, k)
    c, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, blocks, tl.float32, np.float32)
    _check(c, a64 @ b64, 1e-5, "cpu")
    assert _prefetched_operands(monkeypatch, compiled) == [True, True]
    assert _read_in_place(monkeypatch, compiled) == [True, False]


def _guarded(shape: tuple[int, int]) -> tuple[np.ndarray, mmap.mmap]:
    """A float32 array that ends where an inaccessible page begins."""
    page = mmap.PAGESIZE
    size = shape[0] * shape[1] * 4
    pages = -(-size // page)
    region = mmap.mmap(-1, (pages + 1) * page)
    base = ctypes.addressof(ctypes.c_char.from_buffer(region))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    assert libc.mprotect(base + pages * page, page, 0) == 0, os.strerror(ctypes.get_errno())
    array = np.frombuffer(region, np.float32, shape[0] * shape[1],
                          pages * page - size).reshape(shape)
    return array, region


def test_prefetching_past_the_end_of_the_matrices(monkeypatch, rng):
    """The last iterations prefetch tiles beyond A and B, into a page that may not be read."""
    m, n, k = 64, 64, 256
    a, a_region = _guarded((m, k))
    b, b_region = _guarded((k, n))
    a[:] = rng.standard_normal((m, k))
    b[:] = rng.standard_normal((k, n))
    c, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, (64, 64, 32), tl.float32,
                          np.float32)
    assert _prefetched_operands(monkeypatch, compiled) == [True, True]
    _check(c, a.astype(np.float64) @ b, 1e-5, "cpu")
    del a, b
    a_region.close()
    b_region.close()


def test_first_lines_of_every_row_before_the_first_block(monkeypatch, rng):
    """Before its first register block the dot prefetches the first line of each row of both
    later tiles (their pages walked together): A's 64 rows and B's 32, once each."""
    m, n, k = 64, 128, 512
    a, b, a64, b64 = _inputs(rng, "fp32", m, n, k)
    c, compiled = _matmul(monkeypatch, "cpu", a, b, m, n, k, (64, 64, 32), tl.float32,
                          np.float32)
    _check(c, a64 @ b64, 1e-5, "cpu")
    bursts = []
    original = dot_prefetch._Spread._first_lines

    def spy(self, stream):
        bursts.append((stream.rows, stream.lines))
        original(self, stream)

    monkeypatch.setattr(dot_prefetch._Spread, "_first_lines", spy)
    module = str(lower_kernel(parse_module(compiled.asm["ttir"]))[0])
    assert bursts == [(64, 2), (32, 4)]
    assert "llvm.prefetch" in module
