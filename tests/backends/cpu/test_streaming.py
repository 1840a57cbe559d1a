"""Streaming stores (`tilecraft.backends.cpu.streaming`): with the last-level cache taken as
zero bytes, every launch of a kernel whose 1-D contiguous stores qualify writes them with
non-temporal vector stores straight from registers; results must be those of ordinary stores
for every length, every alignment of the destination (to the element, and off it) and every
prefix of a mask, and stores that do not qualify keep the ordinary code."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cpu import engine, streaming
from tilecraft.backends.cpu import types as T

pytestmark = pytest.mark.usefixtures("cpu_backend")


@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@tc.jit
def exp_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Costly values: streamed a chunk at a time through a buffer."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.exp(tl.load(x_ptr + offsets, mask=mask)), mask=mask)


@tc.jit
def scale_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) * 3)


@tc.jit
def strided_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + 2 * offsets, tl.load(x_ptr + offsets))


@tc.jit
def odd_mask_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets), mask=offsets % 2 == 0)


@tc.jit
def rows_kernel(x_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr):
    offsets = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) + 1)


@tc.jit
def counting_kernel(x_ptr, out_ptr, count_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) * 3)
    tl.atomic_add(count_ptr, 1)


KERNELS = (add_kernel, exp_kernel, scale_kernel, strided_kernel, odd_mask_kernel, rows_kernel,
           counting_kernel)


@pytest.fixture
def stream_all(monkeypatch):
    """Every launch streams (the last-level cache is taken as zero bytes); kernels compiled
    afresh."""
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    monkeypatch.setattr(engine, "host_cache_bytes", lambda: 0)
    for kernel in KERNELS:
        kernel.forget_compiled()
    yield
    for kernel in KERNELS:
        kernel.forget_compiled()


def _unaligned(n: int, dtype, byte_offset: int) -> np.ndarray:
    """A writable array of ``n`` elements starting ``byte_offset`` bytes into a fresh buffer
    aligned to 64 bytes."""
    raw = np.zeros(n * np.dtype(dtype).itemsize + 128, np.uint8)
    start = -raw.ctypes.data % 64 + byte_offset
    return np.ndarray((n,), dtype, buffer=raw, offset=start)


@pytest.mark.parametrize("n", [1, 7, 31, 32, 100, 1000, 1023, 1024, 4099])
@pytest.mark.parametrize("byte_offset", [0, 4, 12, 28, 32, 1, 2])
def test_results_for_every_length_and_alignment(stream_all, n, byte_offset):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = _unaligned(n + 8, np.float32, byte_offset)
    out[:] = np.nan
    compiled = add_kernel[(tc.cdiv(n, 256) + 1,)](x, y, out, n, BLOCK=256)  # one program more
    np.testing.assert_array_equal(out[:n], x + y)
    assert np.isnan(out[n:]).all()  # nothing written past the mask's prefix
    assert "!nontemporal" in compiled.asm["llir"]


@pytest.mark.parametrize("n", [5, 63, 64, 200, 1024, 3000])
@pytest.mark.parametrize("byte_offset", [0, 4, 20, 1])
def test_costly_values_stream_a_chunk_at_a_time(stream_all, n, byte_offset):
    x = np.random.default_rng(n).uniform(-20, 20, n).astype(np.float32)
    out = _unaligned(n + 8, np.float32, byte_offset)
    out[:] = np.nan
    compiled = exp_kernel[(tc.cdiv(n, 1024) + 1,)](x, out, n, BLOCK=1024)
    np.testing.assert_allclose(out[:n], np.exp(x.astype(np.float64)), rtol=2e-7)
    assert np.isnan(out[n:]).all()
    assert "!nontemporal" in compiled.asm["llir"]
    if T.is_x86():  # a buffer's vectors streamed one after another
        vectors = streaming.CHUNK_BYTES // T.vector_unit()[0]
        assert compiled.asm["asm"].count("vmovntps") >= vectors > 1


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int64])
def test_other_element_types(stream_all, dtype):
    x = np.arange(3 * 512, dtype=dtype) - 700
    out = _unaligned(x.size, dtype, 8)
    compiled = scale_kernel[(3,)](x, out, BLOCK=512)
    np.testing.assert_array_equal(out, x * 3)
    assert "!nontemporal" in compiled.asm["llir"]


def test_streamed_values_are_stored_from_vector_registers(stream_all):
    """The loads of a streamed add are joined into vectors (the addresses LLVM sees are a row
    start plus an index), and the kernel ends with a store fence."""
    x = np.arange(4096, dtype=np.float32)
    out = np.zeros_like(x)
    compiled = add_kernel[(4,)](x, x, out, 4096, BLOCK=1024)
    np.testing.assert_array_equal(out, 2 * x)
    if not T.is_x86():
        pytest.skip("the instructions checked are x86's")
    asm = compiled.asm["asm"]
    assert "vmovntps" in asm and "sfence" in asm
    assert "vinsertps" not in asm  # no vector built lane by lane


def test_stores_that_do_not_qualify_keep_ordinary_code(stream_all):
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros(2048, np.float32)
    strided = strided_kernel[(4,)](x, out, BLOCK=256)  # not contiguous
    np.testing.assert_array_equal(out[::2], x)
    odd = np.zeros_like(x)
    masked = odd_mask_kernel[(4,)](x, odd, BLOCK=256)  # a mask that holds for no prefix
    np.testing.assert_array_equal(odd, np.where(np.arange(1024) % 2 == 0, x, 0))
    rows = np.zeros(64 * 64, np.float32)
    two_d = rows_kernel[(1,)](np.arange(64 * 64, dtype=np.float32), rows, R=64, C=64)
    np.testing.assert_array_equal(rows, np.arange(64 * 64) + 1)
    count = np.zeros(1, np.int32)
    counted = np.zeros_like(x)
    atomic = counting_kernel[(4,)](x, counted, count, BLOCK=256)  # ordered with its atomic
    np.testing.assert_array_equal(counted, 3 * x)
    assert count[0] == 4
    for other in (strided, masked, two_d, atomic):
        assert "!nontemporal" not in other.asm["llir"]


def test_small_launches_keep_ordinary_stores(monkeypatch):
    """Where the grid stores less than the last-level cache holds, the launch takes the
    ordinary stores: the choice is made at run time, so the compiled code holds both and
    the results are the same either way."""
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    monkeypatch.setattr(engine, "host_cache_bytes", lambda: 8 * 1024 * 4)
    scale_kernel.forget_compiled()
    try:
        for programs in (2, 8, 9):  # 8 KiB, 32 KiB (the limit) and 36 KiB stored
            x = np.arange(programs * 1024, dtype=np.float32)
            out = _unaligned(x.size, np.float32, 4)
            compiled = scale_kernel[(programs,)](x, out, BLOCK=1024)
            np.testing.assert_array_equal(out, 3 * x)
        assert "!nontemporal" in compiled.asm["llir"]
    finally:
        scale_kernel.forget_compiled()
