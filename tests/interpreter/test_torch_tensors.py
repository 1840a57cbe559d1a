"""Kernels launched on CPU torch tensors, as on numpy arrays: every element type torch and the
language share, results written in place into the tensors' own memory, non-contiguous tensors
with their strides passed explicitly, views with storage offsets, atomics, and numpy arrays
and torch tensors mixed in one launch. torch is an optional dependency: skipped without it."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl

torch = pytest.importorskip("torch")

from ..frontend import classic_kernels as k  # noqa: E402


@pytest.fixture
def gen():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return torch.Generator().manual_seed(seed)


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


def _random(gen, n, dtype):
    if dtype == torch.bool:
        return torch.rand(n, generator=gen) < 0.5
    if dtype.is_floating_point:
        return (torch.randn(n, generator=gen) * 4).to(dtype)
    return torch.randint(-1000, 1000, (n,), generator=gen, dtype=dtype)


# -- element types -------------------------------------------------------------------------------


@tc.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 3 + y, mask=mask)


@tc.jit
def logic_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.static_assert(x.dtype == tl.int1)
    tl.store(out_ptr + offs, (x ^ y) | ~x, mask=mask)


DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.bool]


@pytest.mark.parametrize("dtype", DTYPES, ids=[str(d).split(".")[1] for d in DTYPES])
def test_element_types(launch, gen, dtype):
    n, block = 100, 32  # 4 programs, the last one masked
    x, y = _random(gen, n, dtype), _random(gen, n, dtype)
    out = torch.zeros(n + 8, dtype=dtype)  # lanes past n stay untouched
    if dtype == torch.bool:
        launch(logic_kernel, (tc.cdiv(n, block),), x, y, out, n, BLOCK=block)
        expected = (x ^ y) | ~x
    else:
        launch(axpy_kernel, (tc.cdiv(n, block),), x, y, out, n, BLOCK=block)
        expected = x * 3 + y  # torch rounds each fp16/bf16 operation too; ints wrap
    assert out.dtype == dtype
    assert torch.equal(out[:n], expected)
    assert not out[n:].any()


def test_kernel_specializes_on_torch_tensors():
    x = torch.zeros(64, dtype=torch.bfloat16)
    text = axpy_kernel.ttir(x, x, x, 64, BLOCK=64)
    assert "!tt.ptr<bf16> {tt.divisibility = 16 : i32}" in text
    text = logic_kernel.ttir(*[torch.zeros(8, dtype=torch.bool)] * 3, 8, BLOCK=8)
    assert "!tt.ptr<i1>" in text


@tc.jit
def convert_kernel(x_ptr, bf16_ptr, f16_ptr, e4_ptr, e5_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(bf16_ptr + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(f16_ptr + offs, x.to(tl.float16), mask=mask)
    tl.store(e4_ptr + offs, x.to(tl.float8e4nv), mask=mask)
    tl.store(e5_ptr + offs, x.to(tl.float8e5), mask=mask)


def test_rounding_matches_torch(gen):
    """The interpreter's bf16/fp16/fp8 rounding (round to nearest even) against torch's."""
    n = 200
    x = torch.randn(n, generator=gen) * torch.exp2(torch.randint(-8, 8, (n,), generator=gen))
    x = x.clamp(-400, 400)  # inside fp8e4nv's range: torch does not saturate
    outs = [torch.zeros(n, dtype=d) for d in (torch.bfloat16, torch.float16,
                                                torch.float8_e4m3fn, torch.float8_e5m2)]
    convert_kernel[(1,)](x, *outs, n, BLOCK=256)
    for out in outs:
        expected = x.to(out.dtype)
        assert torch.equal(out.view(torch.uint8) if out.element_size() == 1 else out,
                           expected.view(torch.uint8) if out.element_size() == 1 else expected)


# -- memory: in place, strides, offsets ----------------------------------------------------------


@tc.jit
def scale_in_place(x_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


def test_results_are_written_in_place(launch, gen):
    x = torch.randn(70, generator=gen, requires_grad=False)
    original = x.clone()
    alias = x.view(7, 10)  # another view of the same storage sees the result
    storage = x.untyped_storage().data_ptr()
    launch(scale_in_place, (3,), x, 70, 2.5, BLOCK=32)
    assert x.untyped_storage().data_ptr() == storage
    assert torch.equal(x, original * 2.5)
    assert torch.equal(alias, (original * 2.5).view(7, 10))


def test_tensor_that_requires_grad(gen):
    w = torch.randn(40, generator=gen, requires_grad=True)
    out = torch.zeros(40)
    axpy_kernel[(2,)](w, w, out, 40, BLOCK=32)
    assert torch.equal(out, (w * 4).detach())


@tc.jit
def copy_2d_kernel(x_ptr, out_ptr, M, N, sxm, sxn, som, son, BM: tl.constexpr,
                   BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * sxm + rn[None, :] * sxn, mask=mask)
    tl.store(out_ptr + rm[:, None] * som + rn[None, :] * son, x + 1, mask=mask)


@pytest.mark.parametrize("layout", ["transposed", "sliced", "expanded"])
def test_non_contiguous_tensors_with_explicit_strides(launch, gen, layout):
    base = torch.randn(24, 30, generator=gen)
    if layout == "transposed":
        x = base.t()  # 30 x 24, strides (1, 30)
    elif layout == "sliced":
        x = base[1::2, 3::3]  # 12 x 9, strides (60, 3)
    else:
        x = base[5].expand(7, 30)  # stride 0 along rows
    m, n = x.shape
    target = torch.full((n + 2, 2 * m), float("nan"))
    out = target[2:, ::2].t()  # m x n, strides (2, 2m), storage offset 4m
    assert not x.is_contiguous() and not out.is_contiguous()
    launch(copy_2d_kernel, (tc.cdiv(m, 8),), x, out, m, n, *x.stride(), *out.stride(),
           BM=8, BN=32)
    assert torch.equal(out, x + 1)
    written = torch.zeros_like(target, dtype=torch.bool)
    written[2:, ::2] = True
    assert target[~written].isnan().all()  # nothing else was written


def test_views_with_storage_offsets(launch, gen):
    storage = torch.arange(300, dtype=torch.int32)
    x = storage[17:117]  # storage offset 17: an address not divisible by 16
    out = storage.view(3, 100)[2, 10:60]  # storage offset 210
    assert x.storage_offset() == 17 and out.storage_offset() == 210
    expected = x[:50] * 3 + x[50:100]
    launch(axpy_kernel, (2,), x[:50], x[50:], out, 50, BLOCK=32)
    assert torch.equal(out, expected)
    assert torch.equal(storage[:210], torch.arange(210, dtype=torch.int32))
    assert torch.equal(storage[260:], torch.arange(260, 300, dtype=torch.int32))
    # specialization looks at the view's address, as Triton does: 17 * 4 bytes in
    signature = axpy_kernel.ttir(x, storage, out, 50, BLOCK=32).splitlines()[1]
    assert "%arg0: !tt.ptr<i32>, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, " \
        "%arg2: !tt.ptr<i32>, %arg3: i32" in signature


@tc.jit
def neighbours_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Reads before the start of the view it was given: inside the tensor's storage."""
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    left = tl.load(x_ptr + offs - 1, mask=mask)
    tl.store(out_ptr + offs, left, mask=mask)


def test_pointer_arithmetic_reaches_the_whole_storage(gen):
    storage = torch.randn(40, generator=gen)
    out = torch.zeros(30)
    neighbours_kernel[(1,)](storage[5:35], out, 30, BLOCK=32)
    assert torch.equal(out, storage[4:34])


def test_out_of_bounds_of_the_storage_is_reported():
    storage = torch.zeros(10)
    with pytest.raises(tc.InterpreterError, match="out-of-bounds load"):
        neighbours_kernel[(1,)](storage, torch.zeros(10), 10, BLOCK=16)


# -- atomics -------------------------------------------------------------------------------------


@tc.jit
def histogram_atomics_kernel(x_ptr, counts_ptr, sums_ptr, stats_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    bucket = x & 7
    tl.atomic_add(counts_ptr + bucket, 1, mask=mask)
    tl.atomic_add(sums_ptr + bucket, x.to(tl.float32), mask=mask)
    tl.atomic_max(stats_ptr + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_min(stats_ptr + 1 + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_xor(stats_ptr + 2 + tl.zeros_like(offs), x, mask=mask)
    tl.atomic_cas(stats_ptr + 3, pid, pid + 1)
    old = tl.atomic_xchg(stats_ptr + 4, pid + 100)
    tl.store(stats_ptr + 5 + pid, old)


def test_atomics_on_torch_tensors(launch, gen):
    n, block = 203, 64
    x = torch.randint(0, 1 << 16, (n,), generator=gen, dtype=torch.int32)
    counts = torch.zeros(8, dtype=torch.int32)
    sums_storage = torch.zeros(16)
    sums = sums_storage[8:]  # a view with a storage offset
    stats = torch.zeros(9, dtype=torch.int32)
    stats[1] = 1 << 30
    launch(histogram_atomics_kernel, (4,), x, counts, sums, stats, n, BLOCK=block)
    bucket = x & 7
    assert torch.equal(counts, torch.bincount(bucket, minlength=8).to(torch.int32))
    expected_sums = torch.zeros(8, dtype=torch.float64).index_add_(0, bucket.long(),
                                                                    x.double())
    assert torch.allclose(sums.double(), expected_sums, rtol=1e-6)
    assert not sums_storage[:8].any()
    xs = [int(v) for v in x]
    xor = 0
    for v in xs:
        xor ^= v
    assert stats[:5].tolist() == [max(xs), min(xs), xor, 4, 103]
    assert stats[5:].tolist() == [0, 100, 101, 102]  # xchg saw the previous program


# -- mixing numpy and torch ----------------------------------------------------------------------


def test_numpy_and_torch_arguments_mix(launch, gen):
    n = 90
    x = np.random.default_rng(int(torch.randint(0, 2**31, (1,), generator=gen))) \
        .random(n).astype(np.float32)
    y = torch.randn(n, generator=gen)
    out = torch.zeros(n)
    launch(k.add_kernel, (tc.cdiv(n, 32),), x, y, out, n, BLOCK_SIZE=32)
    assert torch.equal(out, torch.from_numpy(x) + y)
    out_np = np.zeros(n, np.float32)
    launch(k.add_kernel, (tc.cdiv(n, 32),), y, x, out_np, n, BLOCK_SIZE=32)
    np.testing.assert_array_equal(out_np, y.numpy() + x)


def test_numpy_array_and_tensor_sharing_memory(launch):
    array = np.arange(64, dtype=np.float32)
    shared = torch.from_numpy(array)  # the same memory
    launch(scale_in_place, (1,), shared[16:], 48, 2.0, BLOCK=64)
    np.testing.assert_array_equal(array, np.concatenate([np.arange(16), np.arange(16, 64) * 2]))
    # the tensor and the array (and a view of it) in one launch: the writes land once
    launch(axpy_kernel, (1,), array[:8], shared[:8], array[56:], 8, BLOCK=8)
    np.testing.assert_array_equal(array[56:], np.arange(8) * 4)


def test_reinterpreted_torch_tensor():
    bits = torch.tensor([1.0, 2.0, -3.0], dtype=torch.bfloat16).view(torch.int16)
    scale_in_place[(1,)](tc.reinterpret(bits, tl.bfloat16), 3, 2.0, BLOCK=4)
    assert torch.equal(bits.view(torch.bfloat16).float(), torch.tensor([2.0, 4.0, -6.0]))
