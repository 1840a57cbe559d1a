"""The CUDA launcher: cubins loaded through cuda-python's driver API, device properties, the
device addresses of kernel arguments, and CUDA errors as `CudaError`.

cuda-python is imported on first use, so this module imports on machines without it (and
`is_available` says False there). Kernels run in the current CUDA context; where the calling
thread has none, the primary context of the device is retained and made current, as torch does,
so kernels and torch tensors share one context.

Each `CudaFunction` has a launcher for its own argument kinds (`CudaFunction.launch_values`),
which converts what needs converting (device objects to addresses, bf16 values to their bits),
packs the values into 8-byte slots and calls ``cuLaunchKernel``. By default it is native
(`make_native_launcher`: a ``CudaLauncher`` of `tilecraft.backends.native`, compiled C that
calls the driver library's ``cuLaunchKernel`` with no Python in between); where that cannot be
built, or ``TILECRAFT_NATIVE_LAUNCHER=0``, it is generated Python (`make_launcher`) that packs
with one precompiled `struct.Struct` and calls cuda-python's ``cuLaunchKernel`` with a pointer
array built once (`CudaFunction.native_unavailable` says why). On the lent H100 host
(2026-11-25), one launch of a 4-argument kernel took 3.9-4.1 us in cuda-python's
``cuLaunchKernel`` alone and 5.2 us through the Python launcher (a ctypes call of the driver's
``cuLaunchKernel`` was slower, 5.8 us); tools/bench/gpu_launch.py measures both launchers.

Loading a cubin (`CudaFunction`): 0.34 ms on the lent H100 host.
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
import threading
from collections.abc import Callable
from typing import Any, Sequence

from tilecraft.backends import native

# Argument kind -> struct format of its 8-byte slot (little endian, as every CUDA host is).
# bf16 is packed as the upper 16 bits of the float32, rounded to nearest even (see _bf16_bits).
_SLOT_FORMATS: dict[str, str] = {
    "ptr": "Q", "i1": "?7x", "i8": "b7x", "i16": "h6x", "i32": "i4x", "i64": "q",
    "u8": "B7x", "u16": "H6x", "u32": "I4x", "u64": "Q",
    "fp16": "e6x", "bf16": "H6x", "fp32": "f4x", "fp64": "d",
}
ARGUMENT_KINDS = frozenset(_SLOT_FORMATS)

# DLPack device types whose memory a kernel can address: CUDA and CUDA managed memory.
_DLPACK_CUDA_DEVICES = frozenset({2, 13})
_DLPACK_HOST_DEVICES = {1: "the CPU", 3: "pinned host memory (kDLCUDAHost)"}
_FLOAT32 = struct.Struct("<f")
_UINT32 = struct.Struct("<I")

# The kernel most recently launched (one element), so that an asynchronous fault reported later
# can name it; the launchers write it.
_LAST_LAUNCHED = [""]

# A grid dimension must fit in 31 bits (the driver's limit in x): larger is a named error.
_GRID_LIMIT_BITS = 31


class CudaError(RuntimeError):
    """A CUDA driver call failed, or a kernel cannot run on the device; the message names the
    call, the kernel and the driver's error name and description."""


def _driver() -> Any:
    """cuda-python's driver module (``cuda.bindings.driver``; ``cuda.cuda`` before 12.6)."""
    try:
        from cuda.bindings import driver
    except ImportError:
        from cuda import cuda as driver
    return driver


def _describe(error: Any) -> str:
    driver = _driver()
    name_error, name = driver.cuGetErrorName(error)
    string_error, string = driver.cuGetErrorString(error)
    success = driver.CUresult.CUDA_SUCCESS
    name_text = name.decode() if name_error == success else str(error)
    string_text = string.decode() if string_error == success else "unknown error"
    return f"{name_text}: {string_text}"


def _check(result: tuple[Any, ...], call: str, kernel: str | None = None) -> Any:
    """The values a driver call returned after its status; raises `CudaError` on failure."""
    error = result[0]
    if error != _driver().CUresult.CUDA_SUCCESS:
        where = f"{call} of {kernel!r}" if kernel else call
        raise CudaError(f"{where}: {_describe(error)}")
    values = result[1:]
    return values[0] if len(values) == 1 else values


@functools.cache
def is_available() -> bool:
    """Whether cuda-python imports, the driver initializes and there is at least one GPU."""
    try:
        driver = _driver()
        error, = driver.cuInit(0)
        if error != driver.CUresult.CUDA_SUCCESS:
            return False
        error, count = driver.cuDeviceGetCount()
    except Exception:  # no cuda-python, or no driver library (cuda.pathfinder's errors)
        return False
    return error == driver.CUresult.CUDA_SUCCESS and count > 0


def device_count() -> int:
    """How many GPUs the driver sees."""
    _initialize()
    return int(_check(_driver().cuDeviceGetCount(), "cuDeviceGetCount"))


def use_device(device: int) -> None:
    """Makes the primary context of ``device`` current for the calling thread, and the device
    torch's current one where torch is imported, so that kernels, torch's streams and events
    all run on it."""
    _initialize()
    _make_primary_current(device)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.cuda.set_device(device)


@functools.cache
def _initialize() -> None:
    if not is_available():
        raise CudaError("CUDA is not available here: cuda-python, the NVIDIA driver or a GPU "
                        "is missing")


def _current_device() -> int:
    """The device of the calling thread's current context, or 0 where there is none."""
    driver = _driver()
    context = _check(driver.cuCtxGetCurrent(), "cuCtxGetCurrent")
    if int(context) == 0:
        return 0
    return int(_check(driver.cuCtxGetDevice(), "cuCtxGetDevice"))


def ensure_context(device: int | None = None) -> int:
    """Makes sure the calling thread has a current CUDA context, retaining the primary context
    of ``device`` (default 0) when it has none; returns the context's device."""
    _initialize()
    driver = _driver()
    context = _check(driver.cuCtxGetCurrent(), "cuCtxGetCurrent")
    if int(context) != 0:
        return int(_check(driver.cuCtxGetDevice(), "cuCtxGetDevice"))
    index = 0 if device is None else device
    _make_primary_current(index)
    return index


def _make_primary_current(device: int) -> None:
    """Retains the primary context of ``device`` and makes it the calling thread's current."""
    driver = _driver()
    handle = _check(driver.cuDeviceGet(device), "cuDeviceGet")
    primary = _check(driver.cuDevicePrimaryCtxRetain(handle), "cuDevicePrimaryCtxRetain")
    _check(driver.cuCtxSetCurrent(primary), "cuCtxSetCurrent")


def device_properties(device: int | None = None) -> dict[str, Any]:
    """``name``, ``capability`` (90 for 9.0), ``multiprocessor_count``,
    ``max_shared_memory_per_block_optin`` (bytes), ``max_threads_per_block`` and ``warp_size``
    of ``device`` (default: the current context's device, else 0)."""
    _initialize()
    return _properties(_current_device() if device is None else device)


@functools.cache
def _properties(device: int) -> dict[str, Any]:
    driver = _driver()
    handle = _check(driver.cuDeviceGet(device), "cuDeviceGet")
    attribute = driver.CUdevice_attribute

    def get(name: str) -> int:
        return int(_check(driver.cuDeviceGetAttribute(getattr(attribute, name), handle),
                          f"cuDeviceGetAttribute({name})"))

    raw_name = _check(driver.cuDeviceGetName(256, handle), "cuDeviceGetName")
    return {
        "name": raw_name.split(b"\0", 1)[0].decode(),
        "capability": 10 * get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
        + get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"),
        "multiprocessor_count": get("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"),
        "max_shared_memory_per_block_optin":
            get("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
        "max_threads_per_block": get("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK"),
        "warp_size": get("CU_DEVICE_ATTRIBUTE_WARP_SIZE"),
    }


# torch's function from a device index to that device's raw current stream, once torch has
# initialized CUDA (it never goes back), so that later calls skip the checks. It is called with
# `CURRENT_DEVICE`: torch's -1, the current device (one call of 0.17 us on the H200 host,
# against 0.34 us for asking the current device first, and 5 us for the public API).
_TORCH_STREAM_READERS: list[Callable[[int], int]] = []
CURRENT_DEVICE = -1


def current_stream() -> int:
    """torch's current CUDA stream where torch is imported and has initialized CUDA (torch is
    never imported here), else 0, the legacy default stream."""
    if _TORCH_STREAM_READERS:
        return _TORCH_STREAM_READERS[0](CURRENT_DEVICE)
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_initialized():
        return 0
    raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw_stream is None:
        return int(torch.cuda.current_stream().cuda_stream)
    _TORCH_STREAM_READERS[:] = [raw_stream]
    return int(raw_stream(CURRENT_DEVICE))


def stream_handle(stream: object) -> int:
    """The CUstream handle, as an int, that ``stream`` names: None is the current stream
    (`current_stream`); a torch stream (``.cuda_stream``), a cuda-python ``CUstream`` or an
    int are taken as they are."""
    if stream is None:
        return current_stream()
    if type(stream) is int:
        return stream
    handle = getattr(stream, "cuda_stream", None)
    if handle is not None:
        return int(handle)
    to_int = getattr(type(stream), "__int__", None)  # cuda-python's CUstream has one
    if to_int is None or isinstance(stream, float):
        raise TypeError(f"stream={stream!r} is not a CUDA stream: pass a CUstream handle as an "
                        f"int, a cuda-python CUstream or a torch.cuda.Stream")
    return int(to_int(stream))


def synchronize() -> None:
    """Waits for the current context's work; a kernel's asynchronous fault (an illegal address,
    a trap) becomes a `CudaError` naming the kernel launched last."""
    _initialize()
    driver = _driver()
    error, = driver.cuCtxSynchronize()
    if error != driver.CUresult.CUDA_SUCCESS:
        last_launched = _LAST_LAUNCHED[0]
        last = f" (the last kernel launched: {last_launched!r})" if last_launched else ""
        raise CudaError(f"cuCtxSynchronize{last}: {_describe(error)}")


class Event:
    """A CUDA event of the current context (``cuEventCreate``), for timing work on a stream."""

    def __init__(self) -> None:
        ensure_context()
        self.handle = _check(_driver().cuEventCreate(0), "cuEventCreate")

    def record(self, stream: int) -> None:
        """Records the event on ``stream`` (a CUstream handle as an int, 0 for the default)."""
        _check(_driver().cuEventRecord(self.handle, stream), "cuEventRecord")

    def elapsed_ms(self, end: Event) -> float:
        """Milliseconds from this event to ``end``, once ``end`` has completed."""
        driver = _driver()
        _check(driver.cuEventSynchronize(end.handle), "cuEventSynchronize")
        elapsed = getattr(driver, "cuEventElapsedTime_v2", None) or driver.cuEventElapsedTime
        return float(_check(elapsed(self.handle, end.handle), "cuEventElapsedTime"))

    def __del__(self) -> None:
        handle = getattr(self, "handle", None)
        if handle is not None and not sys.is_finalizing():
            _driver().cuEventDestroy(handle)


class DeviceBuffer:
    """``size`` bytes of device memory of the current context (``cuMemAlloc``)."""

    def __init__(self, size: int) -> None:
        ensure_context()
        self.size = size
        self.address = _check(_driver().cuMemAlloc(size), "cuMemAlloc")

    def clear(self, stream: int) -> None:
        """Writes zeros over the buffer on ``stream`` (``cuMemsetD8Async``): what benchmarks
        do between runs to evict the L2 cache."""
        _check(_driver().cuMemsetD8Async(self.address, 0, self.size, stream),
               "cuMemsetD8Async")

    def __del__(self) -> None:
        address = getattr(self, "address", None)
        if address is not None and not sys.is_finalizing():
            _driver().cuMemFree(address)


class _DLTensor(ctypes.Structure):
    """The head of DLPack's DLTensor: data pointer, then device type and id."""

    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("dtype", ctypes.c_uint32), ("shape", ctypes.c_void_p),
                ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64)]


# DLManagedTensorVersioned: version (2 x u32), manager_ctx, deleter, flags (u64), then DLTensor.
_VERSIONED_TENSOR_OFFSET = 8 + 8 + 8 + 8


def _capsule_pointer(capsule: object, name: str) -> tuple[int, int]:
    """(device type, address) of the DLPack capsule ``capsule``."""
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object,
                                                                   ctypes.c_char_p]
    capsule_name = get_name(capsule)
    if capsule_name == b"dltensor":
        address = get_pointer(capsule, capsule_name)
    elif capsule_name == b"dltensor_versioned":
        address = get_pointer(capsule, capsule_name) + _VERSIONED_TENSOR_OFFSET
    else:
        raise TypeError(f"argument {name!r} is a capsule {capsule_name!r}, not a DLPack tensor "
                        f"(or one already consumed)")
    tensor = _DLTensor.from_address(address)
    return tensor.device_type, (tensor.data or 0) + tensor.byte_offset


def _host_memory(name: str, value: object, where: str) -> TypeError:
    return TypeError(f"argument {name!r} is in host memory: a {type(value).__module__}."
                     f"{type(value).__qualname__} on {where}; a CUDA kernel needs device "
                     f"memory (a CUDA torch tensor, or an object with __cuda_array_interface__ "
                     f"or __dlpack__ on a CUDA device)")


def pointer_of(value: object, name: str) -> int:
    """The device address of ``value``: a torch CUDA tensor, an object with
    ``__cuda_array_interface__``, or a DLPack capsule or ``__dlpack__`` object on a CUDA device.
    Raises `TypeError` naming argument ``name`` for host memory and for anything else."""
    if isinstance(value, int):
        return value
    is_cuda = getattr(value, "is_cuda", None)
    data_ptr = getattr(value, "data_ptr", None)
    if isinstance(is_cuda, bool) and callable(data_ptr):  # torch.Tensor, without importing it
        if not is_cuda:
            raise _host_memory(name, value, f"device {getattr(value, 'device', 'cpu')}")
        return int(data_ptr())
    interface = getattr(value, "__cuda_array_interface__", None)
    if isinstance(interface, dict):
        return int(interface["data"][0])
    if type(value).__name__ == "PyCapsule":
        device_type, address = _capsule_pointer(value, name)
    elif hasattr(value, "__dlpack_device__") and hasattr(value, "__dlpack__"):
        device_type = int(value.__dlpack_device__()[0])
        if device_type not in _DLPACK_CUDA_DEVICES:
            raise _host_memory(name, value, _DLPACK_HOST_DEVICES.get(
                device_type, f"DLPack device type {device_type}"))
        try:
            capsule = value.__dlpack__(stream=-1)  # -1: no synchronization with our stream
        except TypeError:
            capsule = value.__dlpack__()
        device_type, address = _capsule_pointer(capsule, name)
    elif hasattr(value, "__array_interface__"):
        raise _host_memory(name, value, "the host")
    else:
        raise TypeError(f"argument {name!r} is a {type(value).__qualname__}, not a pointer: "
                        f"pass a CUDA tensor, an object with __cuda_array_interface__ or "
                        f"__dlpack__, or an address as an int")
    if device_type not in _DLPACK_CUDA_DEVICES:
        raise _host_memory(name, value, _DLPACK_HOST_DEVICES.get(
            device_type, f"DLPack device type {device_type}"))
    return address


def _bf16_bits(value: float) -> int:
    """The bfloat16 nearest to ``value`` (ties to even; NaN stays NaN), as its 16 bits."""
    bits = _UINT32.unpack(_FLOAT32.pack(value))[0]
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return (bits >> 16) | 0x0040
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


class CudaFunction:
    """A kernel of a cubin, loaded as a context-independent library (`cuLibraryLoadData`):
    it launches in the calling thread's current context, on any GPU (`ensure_context` makes one
    current where there is none), with ``32 * num_warps`` threads per block and ``shared`` bytes of dynamic shared memory.

    ``arg_kinds`` lists each kernel parameter's kind (`ARGUMENT_KINDS`: ``"ptr"``, ``"i32"``,
    ``"fp16"`` ...), in order; they fix how `launch` packs its values. ``arg_names`` (default
    ``#0``, ``#1`` ...) name the arguments in errors.
    """

    def __init__(self, cubin: bytes, name: str, shared: int, num_warps: int,
                 arg_kinds: Sequence[str], *, arg_names: Sequence[str] | None = None,
                 device: int | None = None) -> None:
        unknown = [kind for kind in arg_kinds if kind not in ARGUMENT_KINDS]
        if unknown:
            raise ValueError(f"kernel {name!r}: unknown argument kinds {unknown} "
                             f"(known: {', '.join(sorted(ARGUMENT_KINDS))})")
        self.name = name
        self.shared = shared
        self.num_warps = num_warps
        self.arg_kinds = tuple(arg_kinds)
        self.arg_names = tuple(arg_names or (f"#{index}" for index in range(len(arg_kinds))))
        if len(self.arg_names) != len(self.arg_kinds):
            raise ValueError(f"kernel {name!r}: {len(self.arg_kinds)} argument kinds but "
                             f"{len(self.arg_names)} names")
        self.device = ensure_context(device)
        driver = _driver()
        self._library = _check(driver.cuLibraryLoadData(cubin, None, None, 0, None, None, 0),
                               "cuLibraryLoadData", name)
        self._kernel = _check(driver.cuLibraryGetKernel(self._library, name.encode()),
                              "cuLibraryGetKernel", name)
        if shared > 48 * 1024:
            limit = device_properties(self.device)["max_shared_memory_per_block_optin"]
            if shared > limit:
                raise CudaError(f"kernel {name!r} needs {shared} bytes of shared memory; "
                                f"{device_properties(self.device)['name']} allows {limit} per "
                                f"block")
            attribute = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            for index in range(device_count()):
                if shared <= device_properties(index)["max_shared_memory_per_block_optin"]:
                    _check(driver.cuKernelSetAttribute(
                        attribute, shared, self._kernel,
                        _check(driver.cuDeviceGet(index), "cuDeviceGet")),
                        "cuKernelSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", name)
        # A CUkernel, which cuLaunchKernel takes for a CUfunction: a launch runs in the calling
        # thread's current context, on whichever GPU that is (the driver loads the code there
        # on its first launch).
        self.handle = int(self._kernel)
        native_launch = make_native_launcher(name, self.arg_kinds, self.arg_names, self.handle,
                                             32 * num_warps, shared)
        #: Why the launches go through cuda-python (`make_launcher`), or None where they go
        #: through the native launcher (`make_native_launcher`).
        self.native_unavailable = native_launch if isinstance(native_launch, str) else None
        self.launch_values = native_launch if not isinstance(native_launch, str) else \
            make_launcher(name, self.arg_kinds, self.arg_names, self.handle, 32 * num_warps,
                          shared, driver.cuLaunchKernel)

    def launch(self, grid: tuple[int, int, int], arg_values: Sequence[Any],
               stream: object) -> None:
        """Launches the kernel over ``grid`` programs on ``stream`` (a CUstream handle as an
        int, 0 for the default stream, None for the current one; see `stream_handle`) with
        ``arg_values``, one per kind; pointers may be ints or device objects (`pointer_of`). A
        grid of zero programs launches nothing."""
        if len(arg_values) != len(self.arg_kinds):
            raise TypeError(f"kernel {self.name!r} takes {len(self.arg_kinds)} arguments, "
                            f"got {len(arg_values)}")
        self.launch_values(grid, stream, *arg_values)


@functools.cache
def launch_kernel_address(library: str | None = None) -> int:
    """The address of ``cuLaunchKernel``: by default the one cuda-python's driver gives
    (``cuGetProcAddress``, with the default stream's semantics cuda-python's own calls have:
    per-thread where ``CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM`` says so), so that both
    launchers call the same driver instance; else that of the shared library ``library`` (a
    stand-in, in tests). OSError where there is none."""
    if library is not None:
        try:
            function = ctypes.CDLL(library).cuLaunchKernel
        except AttributeError:
            raise OSError(f"{library} has no cuLaunchKernel") from None
        return ctypes.cast(function, ctypes.c_void_p).value or 0
    driver = _driver()
    flags = driver.CUdriverProcAddress_flags
    per_thread = os.environ.get("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "0") != "0"
    try:
        found = _check(driver.cuGetProcAddress(
            b"cuLaunchKernel", 12000, flags.CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
            if per_thread else flags.CU_GET_PROC_ADDRESS_DEFAULT),
            "cuGetProcAddress(cuLaunchKernel)")
    except Exception as error:  # noqa: BLE001 - CudaError, or cuda-python's own by version
        raise OSError(f"cuda-python gives no cuLaunchKernel: {error}") from None
    address = int(found[0] if isinstance(found, tuple) else found)  # (pfn, status) since 12.5
    if not address:
        raise OSError("the driver has no cuLaunchKernel for CUDA 12.0")
    return address


def make_native_launcher(name: str, arg_kinds: Sequence[str], arg_names: Sequence[str],
                         function: int, block: int, shared: int,
                         library: str | None = None) -> Callable[..., None] | str:
    """``launch_values(grid, stream, *values)`` as `make_launcher` makes it, but a native
    ``CudaLauncher`` (`tilecraft.backends.native`) that packs the values and calls the driver's
    ``cuLaunchKernel`` (`launch_kernel_address` of ``library``) with no Python in between; or,
    where there is none (no C compiler, no driver function, ``TILECRAFT_NATIVE_LAUNCHER=0``),
    the reason."""
    module = native.launchers()
    if module is None:
        return native.unavailable_reason() or "the native launchers are unavailable"
    try:
        address = launch_kernel_address(library)
    except OSError as error:
        return f"no cuLaunchKernel to call: {error}"

    def launch_error(status: int) -> CudaError:
        try:
            error = _driver().CUresult(status)
        except ValueError:  # a status cuda-python does not know
            return CudaError(f"cuLaunchKernel of {name!r}: CUresult {status}")
        return CudaError(f"cuLaunchKernel of {name!r}: {_describe(error)}")

    return module.CudaLauncher(
        name, tuple(arg_kinds), tuple(arg_names), function, block, shared, address,
        _TORCH_STREAM_READERS, current_stream, stream_handle, pointer_of, launch_error,
        _LAST_LAUNCHED)


def make_launcher(name: str, arg_kinds: Sequence[str], arg_names: Sequence[str], function: int,
                  block: int, shared: int, launch_kernel: Callable[..., tuple[Any, ...]]
                  ) -> Callable[..., None]:
    """``launch_values(grid, stream, *values)`` for kernel ``name`` (a CUfunction handle as an
    int, launched with ``block`` threads per block and ``shared`` bytes of dynamic shared
    memory through ``launch_kernel``, cuda-python's ``cuLaunchKernel``, given the handle, the
    stream and the parameter array as ints), generated
    for its argument kinds: it converts the values that need it (device objects to addresses,
    bf16 values to their bits), packs them into this launcher's slots and launches over
    ``grid`` on ``stream`` as `stream_handle` takes it (None: the current stream). A grid of
    zero programs launches nothing; a value its kind cannot hold is a `TypeError` naming the
    argument, a failed launch a `CudaError` naming the kernel."""
    packer = struct.Struct("<" + "".join(_SLOT_FORMATS[kind] for kind in arg_kinds))
    slots = ctypes.create_string_buffer(max(8 * len(arg_kinds), 8))
    base = ctypes.addressof(slots)
    pointers = (ctypes.c_void_p * max(len(arg_kinds), 1))(
        *[base + 8 * index for index in range(len(arg_kinds))])

    def grid_error(grid: tuple[int, int, int]) -> ValueError:
        return ValueError(f"kernel {name!r}: grid {tuple(grid)} has a dimension of 2**31 or "
                          f"more programs")

    def launch_error(error: Any) -> CudaError:
        return CudaError(f"cuLaunchKernel of {name!r}: {_describe(error)}")

    def packing_error(values: list[Any], error: Exception) -> TypeError:
        """Names the first argument that does not fit its kind."""
        for index, (kind, value) in enumerate(zip(arg_kinds, values)):
            try:
                struct.pack("<" + _SLOT_FORMATS[kind], value)
            except (struct.error, OverflowError) as cause:
                return TypeError(f"kernel {name!r}: argument {arg_names[index]!r} ({kind}) "
                                 f"cannot hold {value!r}: {cause}")
        return TypeError(f"kernel {name!r}: cannot pack the arguments: {error}")

    values = [f"a{index}" for index in range(len(arg_kinds))]
    spread = "".join(f", {value}" for value in values)
    lines = [f"def launch_values(grid, stream{spread}):",
             "    gx, gy, gz = grid",
             "    if gx <= 0 or gy <= 0 or gz <= 0:",
             "        return",
             f"    if (gx | gy | gz) >> {_GRID_LIMIT_BITS}:",
             "        raise _grid_error(grid)",
             "    if stream is None:",
             "        if _torch_stream:",
             f"            stream = _torch_stream[0]({CURRENT_DEVICE})",
             "        else:",
             "            stream = _current_stream()",
             "    elif type(stream) is not int:",
             "        stream = _stream_handle(stream)"]
    for index, kind in enumerate(arg_kinds):
        if kind == "ptr":
            lines += [f"    if type(a{index}) is not int:",
                      f"        a{index} = _pointer_of(a{index}, {arg_names[index]!r})"]
    lines.append("    with _lock:")
    if arg_kinds:
        lines.append("        try:")
        lines += [f"            a{index} = _bf16_bits(a{index})"
                  for index, kind in enumerate(arg_kinds) if kind == "bf16"]
        lines += [f"            _pack_into(_slots, 0{spread})",
                  "        except (_struct_error, OverflowError) as error:",
                  f"            raise _packing_error([{', '.join(values)}], error) from None"]
    lines += ["        error, = _launch_kernel(_function, gx, gy, gz, _block, 1, 1, _shared, "
              "stream, _params, 0)",
              "    _last_launched[0] = _name",
              "    if error:",
              "        raise _launch_error(error)"]
    namespace: dict[str, Any] = {
        "_grid_error": grid_error, "_stream_handle": stream_handle,
        "_torch_stream": _TORCH_STREAM_READERS, "_current_stream": current_stream,
        "_pointer_of": pointer_of,
        "_bf16_bits": _bf16_bits, "_lock": threading.Lock(), "_pack_into": packer.pack_into,
        "_slots": slots, "_pointers": pointers, "_struct_error": struct.error,
        "_packing_error": packing_error, "_launch_kernel": launch_kernel,
        "_function": function, "_block": block, "_shared": shared,
        "_params": ctypes.addressof(pointers) if arg_kinds else 0,
        "_last_launched": _LAST_LAUNCHED, "_name": name, "_launch_error": launch_error,
    }
    exec(compile("\n".join(lines) + "\n", f"<launcher of {name}>", "exec"),  # noqa: S102
         namespace)
    return namespace["launch_values"]
