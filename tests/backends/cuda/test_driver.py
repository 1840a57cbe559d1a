"""The CUDA launcher. Argument checks run everywhere; launches need a GPU (and torch for the
tensors) and skip without one. Kernels are hand-written LLVM IR compiled by the toolchain."""

from __future__ import annotations

import ctypes
import math
import struct
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda import driver, toolchain
from tilecraft.backends.cuda.driver import CudaError, CudaFunction, pointer_of

gpu = pytest.mark.skipif(not driver.is_available(), reason="no CUDA device")


def test_module_imports_and_reports_availability() -> None:
    assert isinstance(driver.is_available(), bool)


def test_pointer_of_host_arrays_raises() -> None:
    with pytest.raises(TypeError, match=r"argument 'x_ptr' is in host memory: a numpy\.ndarray"):
        pointer_of(np.ones(4, np.float32), "x_ptr")
    with pytest.raises(TypeError, match="argument 'y_ptr' is in host memory"):
        pointer_of(np.ones(4, np.float32).__dlpack__(), "y_ptr")
    with pytest.raises(TypeError, match="argument 'z' is a str, not a pointer"):
        pointer_of("z", "z")


def test_pointer_of_cpu_torch_tensor_raises() -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="argument 'x_ptr' is in host memory: a torch.Tensor"):
        pointer_of(torch.ones(4), "x_ptr")


def test_pointer_of_cuda_array_interface_and_ints() -> None:
    class DeviceArray:
        __cuda_array_interface__ = {"data": (0x7F0000001000, False), "shape": (4,),
                                    "typestr": "<f4", "version": 3}

    assert pointer_of(DeviceArray(), "x") == 0x7F0000001000
    assert pointer_of(0x1234, "x") == 0x1234


def test_current_stream_without_torch_cuda() -> None:
    if "torch" not in sys.modules:
        assert driver.current_stream() == 0


def test_bf16_rounding() -> None:
    assert driver._bf16_bits(1.0) == 0x3F80
    assert driver._bf16_bits(-2.5) == 0xC020
    assert driver._bf16_bits(1 + 2 ** -8) == 0x3F80  # a tie goes to the even neighbour
    assert driver._bf16_bits(1 + 3 * 2 ** -8) == 0x3F82
    assert driver._bf16_bits(math.nan) & 0x7FC0 == 0x7FC0


# -- the generated launchers, with a recorder in cuda-python's cuLaunchKernel's place (no GPU)


class _RecordingDriver:
    """Stands for cuda-python's ``cuLaunchKernel``: records each call (the parameter slots read
    at the call, as the driver reads them through the pointer array) and returns ``(result,)``."""

    def __init__(self, slots: int, result: int = 0) -> None:
        self.calls: list[dict[str, Any]] = []
        self.result = result
        self.slots = slots

    def __call__(self, function: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                 shared: int, stream: int, params: int, extra: int) -> tuple[Any]:
        words = [ctypes.string_at(ctypes.c_void_p.from_address(params + 8 * index).value, 8)
                 for index in range(self.slots)]
        self.calls.append({"function": function, "grid": (gx, gy, gz), "block": (bx, by, bz),
                           "shared": shared, "stream": stream, "params": params,
                           "extra": extra, "slots": words})
        return (driver._driver().CUresult(self.result),)

    def make(self, arg_kinds: list[str], arg_names: list[str] | None = None,
             function: int = 0xDEAD0000BEEF, num_warps: int = 4,
             shared: int = 0) -> Callable[..., None]:
        names = arg_names or [f"#{index}" for index in range(len(arg_kinds))]
        return driver.make_launcher("add_kernel", arg_kinds, names, function, 32 * num_warps,
                                    shared, self)


def _slot(kind: str, value: Any) -> bytes:
    return struct.pack("<" + driver._SLOT_FORMATS[kind], value)


def test_launcher_packs_the_slots_and_passes_handles_whole() -> None:
    recorder = _RecordingDriver(4)
    launch = recorder.make(["ptr", "ptr", "ptr", "i32"], ["x_ptr", "y_ptr", "out_ptr", "n"],
                           shared=49152)

    class DeviceArray:
        __cuda_array_interface__ = {"data": (0x7F0000002000, False), "shape": (4,),
                                    "typestr": "<f4", "version": 3}

    launch((7, 2, 3), 0x7F00DEAD1234, 0x7F0000001000, DeviceArray(), 0x7F0000003000, -5)
    [call] = recorder.calls
    assert call["function"] == 0xDEAD0000BEEF
    assert call["grid"] == (7, 2, 3) and call["block"] == (128, 1, 1)
    assert call["shared"] == 49152 and call["extra"] == 0
    assert call["stream"] == 0x7F00DEAD1234
    assert call["slots"] == [_slot("ptr", 0x7F0000001000), _slot("ptr", 0x7F0000002000),
                             _slot("ptr", 0x7F0000003000), _slot("i32", -5)]


def test_launcher_streams() -> None:
    """None is the current stream (0 without torch's CUDA); torch-like streams give their
    ``cuda_stream``, cuda-python's CUstream its handle."""

    class TorchLikeStream:
        cuda_stream = 0x7F0000005000

    recorder = _RecordingDriver(1)
    launch = recorder.make(["i32"])
    launch((1, 1, 1), 0, 3)
    launch((1, 1, 1), TorchLikeStream(), 3)
    launch((1, 1, 1), driver._driver().CUstream(0x7F0000006000), 3)
    if "torch" not in sys.modules:
        launch((1, 1, 1), None, 3)
    assert [call["stream"] for call in recorder.calls] == [0, 0x7F0000005000, 0x7F0000006000,
                                                           0][:len(recorder.calls)]
    with pytest.raises(TypeError, match=r"stream='main' is not a CUDA stream"):
        launch((1, 1, 1), "main", 3)


def test_launcher_reads_torch_current_stream_once_torch_has_cuda() -> None:
    """Once torch's CUDA is initialized, a launch on the current stream asks torch's raw
    stream reader for the stream of device -1, torch's current device."""
    recorder = _RecordingDriver(1)
    launch = recorder.make(["i32"])
    saved = list(driver._TORCH_STREAM_READERS)
    asked = []
    driver._TORCH_STREAM_READERS[:] = [lambda device: asked.append(device) or 0x7F0000009000]
    try:
        launch((1, 1, 1), None, 3)
    finally:
        driver._TORCH_STREAM_READERS[:] = saved
    assert recorder.calls[0]["stream"] == 0x7F0000009000
    assert asked == [-1]  # torch's "the current device", in one call


def test_launcher_kinds_of_values() -> None:
    recorder = _RecordingDriver(5)
    launch = recorder.make(["bf16", "fp16", "u64", "i1", "fp64"])
    launch((1, 1, 1), 0, 1 + 3 * 2 ** -8, 0.5, 2 ** 63 + 1, True, 1e100)
    assert recorder.calls[0]["slots"] == [
        _slot("bf16", 0x3F82), _slot("fp16", 0.5), _slot("u64", 2 ** 63 + 1),
        _slot("i1", True), _slot("fp64", 1e100)]
    empty = _RecordingDriver(0)
    empty.make([])((3, 1, 1), 0)
    assert empty.calls[0]["params"] == 0 and empty.calls[0]["grid"] == (3, 1, 1)


def test_launcher_checks_name_the_argument_or_the_kernel(monkeypatch) -> None:
    recorder = _RecordingDriver(4)
    launch = recorder.make(["ptr", "ptr", "ptr", "i32"], ["x_ptr", "y_ptr", "out_ptr", "n"])
    host = np.ones(4, np.float32)
    with pytest.raises(TypeError, match=r"argument 'y_ptr' is in host memory: a numpy\.ndarray"):
        launch((1, 1, 1), 0, 16, host, 32, 4)
    with pytest.raises(TypeError, match=r"argument 'x_ptr' is a str, not a pointer"):
        launch((1, 1, 1), 0, "x", 16, 32, 4)
    with pytest.raises(TypeError, match=r"kernel 'add_kernel': argument 'n' \(i32\) cannot "
                                        r"hold 1099511627776"):
        launch((1, 1, 1), 0, 16, 16, 32, 2 ** 40)
    with pytest.raises(TypeError, match=r"argument 'out_ptr' \(ptr\) cannot hold -16"):
        launch((1, 1, 1), 0, 16, 16, -16, 4)
    with pytest.raises(ValueError, match=r"grid \(2147483648, 1, 1\) has a dimension of 2\*\*31"):
        launch((2 ** 31, 1, 1), 0, 16, 16, 32, 4)
    launch((0, 1, 1), 0, 16, 16, 32, 4)  # zero programs: nothing is launched
    launch((4, 1, -1), 0, 16, 16, 32, 4)
    assert recorder.calls == []
    failing = _RecordingDriver(1, result=1)
    monkeypatch.setattr(driver, "_describe", lambda error: f"{error.name}: described")
    with pytest.raises(CudaError, match=r"cuLaunchKernel of 'add_kernel': "
                                        r"CUDA_ERROR_INVALID_VALUE: described"):
        failing.make(["i32"])((1, 1, 1), 0, 3)
    assert driver._LAST_LAUNCHED == ["add_kernel"]


# out[i] = x[i] + y[i] for i < n, one element per thread, 128 threads per block.
_ADD = textwrap.dedent("""
    declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
    declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

    define ptx_kernel void @add_kernel(ptr addrspace(1) %x, ptr addrspace(1) %y,
                                       ptr addrspace(1) %out, i32 %n) "nvvm.maxntid"="128" {
    entry:
      %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
      %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
      %base = mul i32 %bid, 128
      %i = add i32 %base, %tid
      %inside = icmp slt i32 %i, %n
      br i1 %inside, label %body, label %done
    body:
      %offset = sext i32 %i to i64
      %px = getelementptr float, ptr addrspace(1) %x, i64 %offset
      %py = getelementptr float, ptr addrspace(1) %y, i64 %offset
      %po = getelementptr float, ptr addrspace(1) %out, i64 %offset
      %a = load float, ptr addrspace(1) %px
      %b = load float, ptr addrspace(1) %py
      %s = fadd float %a, %b
      store float %s, ptr addrspace(1) %po
      br label %done
    done:
      ret void
    }
""")

# out[0..12] = every scalar argument converted to double (thread 0 of block 0).
_SCALARS = textwrap.dedent("""
    declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

    define ptx_kernel void @scalars(ptr addrspace(1) %out, i1 %b, i8 %i8, i16 %i16, i32 %i32,
                                    i64 %i64, i8 %u8, i16 %u16, i32 %u32, i64 %u64, half %h,
                                    bfloat %bf, float %f, double %d) "nvvm.maxntid"="32" {
    entry:
      %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
      %first = icmp eq i32 %tid, 0
      br i1 %first, label %body, label %done
    body:
      %v0 = uitofp i1 %b to double
      %v1 = sitofp i8 %i8 to double
      %v2 = sitofp i16 %i16 to double
      %v3 = sitofp i32 %i32 to double
      %v4 = sitofp i64 %i64 to double
      %v5 = uitofp i8 %u8 to double
      %v6 = uitofp i16 %u16 to double
      %v7 = uitofp i32 %u32 to double
      %v8 = uitofp i64 %u64 to double
      %hf = fpext half %h to float
      %v9 = fpext float %hf to double
      %bff = fpext bfloat %bf to float
      %v10 = fpext float %bff to double
      %v11 = fpext float %f to double
      %p0 = getelementptr double, ptr addrspace(1) %out, i64 0
      store double %v0, ptr addrspace(1) %p0
      %p1 = getelementptr double, ptr addrspace(1) %out, i64 1
      store double %v1, ptr addrspace(1) %p1
      %p2 = getelementptr double, ptr addrspace(1) %out, i64 2
      store double %v2, ptr addrspace(1) %p2
      %p3 = getelementptr double, ptr addrspace(1) %out, i64 3
      store double %v3, ptr addrspace(1) %p3
      %p4 = getelementptr double, ptr addrspace(1) %out, i64 4
      store double %v4, ptr addrspace(1) %p4
      %p5 = getelementptr double, ptr addrspace(1) %out, i64 5
      store double %v5, ptr addrspace(1) %p5
      %p6 = getelementptr double, ptr addrspace(1) %out, i64 6
      store double %v6, ptr addrspace(1) %p6
      %p7 = getelementptr double, ptr addrspace(1) %out, i64 7
      store double %v7, ptr addrspace(1) %p7
      %p8 = getelementptr double, ptr addrspace(1) %out, i64 8
      store double %v8, ptr addrspace(1) %p8
      %p9 = getelementptr double, ptr addrspace(1) %out, i64 9
      store double %v9, ptr addrspace(1) %p9
      %p10 = getelementptr double, ptr addrspace(1) %out, i64 10
      store double %v10, ptr addrspace(1) %p10
      %p11 = getelementptr double, ptr addrspace(1) %out, i64 11
      store double %v11, ptr addrspace(1) %p11
      %p12 = getelementptr double, ptr addrspace(1) %out, i64 12
      store double %d, ptr addrspace(1) %p12
      br label %done
    done:
      ret void
    }
""")

# Each thread writes its id to dynamic shared memory at byte 102400 + 4 * tid, waits, and
# stores the value of its neighbour (tid ^ 1) to out[tid]: it needs 100 KB + 512 B.
_SHARED = textwrap.dedent("""
    @smem = external addrspace(3) global [0 x i8], align 16
    declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
    declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

    define ptx_kernel void @shared_kernel(ptr addrspace(1) %out) "nvvm.maxntid"="128" {
    entry:
      %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
      %byte = mul i32 %tid, 4
      %at = add i32 %byte, 102400
      %slot = getelementptr i8, ptr addrspace(3) @smem, i32 %at
      store i32 %tid, ptr addrspace(3) %slot
      call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
      %other = xor i32 %tid, 1
      %other_byte = mul i32 %other, 4
      %other_at = add i32 %other_byte, 102400
      %other_slot = getelementptr i8, ptr addrspace(3) @smem, i32 %other_at
      %value = load i32, ptr addrspace(3) %other_slot
      %offset = zext i32 %tid to i64
      %po = getelementptr i32, ptr addrspace(1) %out, i64 %offset
      store i32 %value, ptr addrspace(1) %po
      ret void
    }
""")

# Stores to the address it is given (the test passes 8, which no allocation holds).
_FAULT = textwrap.dedent("""
    define ptx_kernel void @fault_kernel(ptr addrspace(1) %p) "nvvm.maxntid"="32" {
      store float 1.0, ptr addrspace(1) %p
      ret void
    }
""")


def _compile(llir: str, name: str) -> bytes:
    capability = driver.device_properties()["capability"]
    ptx = toolchain.llvm_to_ptx(llir, capability)
    return toolchain.ptx_to_cubin(ptx, capability, name=name).cubin


@gpu
def test_device_properties() -> None:
    properties = driver.device_properties()
    assert properties["name"]
    assert properties["capability"] >= 70
    assert properties["warp_size"] == 32
    assert properties["multiprocessor_count"] > 0
    assert properties["max_threads_per_block"] >= 1024
    assert properties["max_shared_memory_per_block_optin"] >= 48 * 1024
    assert driver.device_properties(0) == driver.device_properties(0)


@gpu
def test_vector_add_on_torch_tensors() -> None:
    torch = pytest.importorskip("torch")
    n = 10_000  # not a multiple of the block
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.full((n + 128,), math.nan, device="cuda")  # poisoned, with room past n
    kernel = CudaFunction(_compile(_ADD, "add_kernel"), "add_kernel", 0, 4,
                          ["ptr", "ptr", "ptr", "i32"],
                          arg_names=["x_ptr", "y_ptr", "out_ptr", "n"])
    kernel.launch((math.ceil(n / 128), 1, 1), [x, y, out, n], driver.current_stream())
    torch.cuda.synchronize()
    reference = x.double() + y.double()
    assert torch.allclose(out[:n].double(), reference, rtol=1e-6, atol=0)
    assert torch.isnan(out[n:]).all()
    # Integer addresses, and a zero-program grid that launches nothing.
    poisoned = torch.full((n,), math.nan, device="cuda")
    kernel.launch((0, 1, 1), [x.data_ptr(), y.data_ptr(), poisoned.data_ptr(), n], 0)
    driver.synchronize()
    assert torch.isnan(poisoned).all()
    with pytest.raises(TypeError, match="argument 'out_ptr' is in host memory"):
        kernel.launch((1, 1, 1), [x, y, torch.empty(n), n], 0)
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        kernel.launch((1, 1, 1), [x, y, out], 0)
    with pytest.raises(TypeError, match=r"argument 'n' \(i32\) cannot hold 1099511627776"):
        kernel.launch((1, 1, 1), [x, y, out, 2 ** 40], 0)


@gpu
def test_launch_on_torch_stream() -> None:
    torch = pytest.importorskip("torch")
    stream = torch.cuda.Stream()
    n = 4096
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.full((n,), math.nan, device="cuda")
    torch.cuda.synchronize()
    kernel = CudaFunction(_compile(_ADD, "add_kernel"), "add_kernel", 0, 4,
                          ["ptr", "ptr", "ptr", "i32"])
    with torch.cuda.stream(stream):
        assert driver.current_stream() == stream.cuda_stream
        kernel.launch((n // 128, 1, 1), [x, y, out, n], driver.current_stream())
    stream.synchronize()
    assert torch.equal(out, x + y)


@gpu
def test_every_scalar_kind_is_packed() -> None:
    torch = pytest.importorskip("torch")
    kinds = ["ptr", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16",
             "bf16", "fp32", "fp64"]
    values = [True, -5, -300, -70_000, -(2 ** 40) - 3, 250, 65_000, 4_000_000_000,
              2 ** 63 + 2 ** 11, 1.5, -2.5, 3.25, 1e100]
    out = torch.full((13,), math.nan, dtype=torch.float64, device="cuda")
    kernel = CudaFunction(_compile(_SCALARS, "scalars"), "scalars", 0, 1, kinds)
    kernel.launch((1, 1, 1), [out, *values], 0)
    driver.synchronize()
    assert out.tolist() == [float(value) for value in values]


@gpu
def test_dynamic_shared_memory_above_48k() -> None:
    torch = pytest.importorskip("torch")
    shared = 100 * 1024 + 512
    limit = driver.device_properties()["max_shared_memory_per_block_optin"]
    if limit < shared:
        pytest.skip(f"the device allows {limit} bytes of shared memory per block")
    cubin = _compile(_SHARED, "shared_kernel")
    out = torch.full((128,), -1, dtype=torch.int32, device="cuda")
    kernel = CudaFunction(cubin, "shared_kernel", shared, 4, ["ptr"])
    kernel.launch((1, 1, 1), [out], 0)
    driver.synchronize()
    assert out.tolist() == [tid ^ 1 for tid in range(128)]
    with pytest.raises(CudaError, match=rf"kernel 'shared_kernel' needs {limit + 1} bytes"):
        CudaFunction(cubin, "shared_kernel", limit + 1, 4, ["ptr"])


@gpu
def test_dlpack_pointers() -> None:
    torch = pytest.importorskip("torch")
    tensor = torch.arange(16, dtype=torch.float32, device="cuda")[4:]

    class Exported:
        """Only the DLPack protocol of a tensor."""

        def __dlpack__(self, stream: int | None = None) -> object:
            return tensor.__dlpack__(stream=stream)

        def __dlpack_device__(self) -> tuple[int, int]:
            return tensor.__dlpack_device__()

    assert pointer_of(torch.utils.dlpack.to_dlpack(tensor), "t") == tensor.data_ptr()
    assert pointer_of(Exported(), "t") == tensor.data_ptr()


@gpu
def test_missing_kernel_symbol_names_it() -> None:
    with pytest.raises(CudaError, match=r"cuLibraryGetKernel of 'no_such_kernel': CUDA_ERROR_"):
        CudaFunction(_compile(_ADD, "add_kernel"), "no_such_kernel", 0, 4, ["ptr"] * 3 + ["i32"])


@gpu
def test_fault_raises_cuda_error_naming_the_kernel() -> None:
    """An illegal address poisons the context, so the kernel faults in a child process."""
    code = textwrap.dedent("""
        from tilecraft.backends.cuda import driver, toolchain
        from tests.backends.cuda.test_driver import _FAULT, _compile
        kernel = driver.CudaFunction(_compile(_FAULT, "fault_kernel"), "fault_kernel", 0, 1,
                                     ["ptr"])
        kernel.launch((1, 1, 1), [8], 0)
        try:
            driver.synchronize()
        except driver.CudaError as error:
            print("CudaError:", error)
    """)
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=120, check=False)
    assert child.returncode == 0, child.stderr
    assert "CudaError: cuCtxSynchronize (the last kernel launched: 'fault_kernel'): " \
           "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered" \
           in child.stdout, child.stdout + child.stderr


@tc.jit
def _jit_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@gpu
def test_jit_launches_take_the_fast_path_and_keep_their_checks(monkeypatch) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("TILECRAFT_BACKEND", "cuda")
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    _jit_add.forget_compiled()
    slow = []
    original = tc.JITFunction._run_slow

    def counting(self: tc.JITFunction, *args: Any, **kwargs: Any) -> Any:
        slow.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(tc.JITFunction, "_run_slow", counting)
    n = 3000
    for round_ in range(3):
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.full((n,), math.nan, device="cuda")
        _jit_add[(tc.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
        torch.cuda.synchronize()
        assert torch.equal(out, x + y), round_
    assert len(slow) == 1
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):  # the fast path launches on torch's current stream
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.full((n,), math.nan, device="cuda")
        _jit_add[(tc.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    stream.synchronize()
    assert torch.equal(out, x + y) and len(slow) == 1
    for _ in range(2):  # the failed launch leaves no entry: the error comes every time
        with pytest.raises(TypeError, match=r"argument 'y_ptr' is in host memory: a torch"):
            _jit_add[(1,)](x, torch.ones(n), out, n, BLOCK=256)
        with pytest.raises(TypeError, match=r"argument 'out_ptr' is in host memory: a numpy"):
            _jit_add[(1,)](x, y, np.ones(n, np.float32), n, BLOCK=256)
    with pytest.raises(TypeError, match=r"_jit_add\(\) takes 5 positional arguments but 6"):
        _jit_add[(1,)](x, y, out, n, 256, 7)
