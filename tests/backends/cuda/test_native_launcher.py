"""The native CUDA launcher (`driver.make_native_launcher`), with no GPU: it calls the
``cuLaunchKernel`` of a stand-in driver library written in C, which records what it was given
and reads the parameter slots through the pointer array, as the driver does."""

from __future__ import annotations

import ctypes
import math
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tilecraft.backends import native
from tilecraft.backends.cuda import driver
from tilecraft.backends.cuda.driver import CudaError

_STAND_IN = r"""
#include <stdint.h>
#include <string.h>
struct {
    int calls;
    void *function;
    unsigned dims[7];
    void *stream, **params, **extra;
    uint64_t slots[16];
} recorded;
int status;  /* what the next call returns */
int parameters;  /* how many parameters the kernel has (the real driver knows it) */
int cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned shared, void *stream, void **params,
                   void **extra) {
    unsigned dims[7] = {gx, gy, gz, bx, by, bz, shared};
    recorded.calls++;
    recorded.function = function;
    memcpy(recorded.dims, dims, sizeof dims);
    recorded.stream = stream;
    recorded.params = params;
    recorded.extra = extra;
    memset(recorded.slots, 0xAB, sizeof recorded.slots);
    for (int i = 0; params != NULL && i < parameters && i < 16; i++) {
        memcpy(&recorded.slots[i], params[i], 8);
    }
    return status;
}
"""


class _Recorded(ctypes.Structure):
    _fields_ = [("calls", ctypes.c_int), ("function", ctypes.c_void_p),
                ("dims", ctypes.c_uint * 7), ("stream", ctypes.c_void_p),
                ("params", ctypes.c_void_p), ("extra", ctypes.c_void_p),
                ("slots", ctypes.c_uint64 * 16)]


class StandIn:
    """The stand-in driver library: its path and what its last call recorded."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        library = ctypes.CDLL(self.path)
        self.recorded = _Recorded.in_dll(library, "recorded")
        self.status = ctypes.c_int.in_dll(library, "status")
        self.parameters = ctypes.c_int.in_dll(library, "parameters")

    def make(self, kinds: list[str], names: list[str] | None = None, *,
             function: int = 0x7F00DEAD0000BEEF, block: int = 128, shared: int = 0) -> Any:
        """A native launcher of a kernel 'add_kernel' of ``kinds`` into the stand-in (which
        then reads that many parameters)."""
        self.parameters.value = len(kinds)
        launch = driver.make_native_launcher(
            "add_kernel", kinds, names or [f"#{index}" for index in range(len(kinds))],
            function, block, shared, library=self.path)
        assert not isinstance(launch, str), launch
        return launch

    def slots(self, count: int) -> list[bytes]:
        return [struct.pack("<Q", word) for word in self.recorded.slots[:count]]


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory) -> StandIn:
    if native.launchers(wait=True) is None:
        pytest.skip(f"no native launchers here: {native.unavailable_reason()}")
    folder = tmp_path_factory.mktemp("stand_in")
    source = folder / "stand_in_libcuda.c"
    source.write_text(_STAND_IN)
    library = folder / "libstandincuda.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)],
                   check=True, capture_output=True)
    return StandIn(library)


def _slot(kind: str, value: Any) -> bytes:
    return struct.pack("<" + driver._SLOT_FORMATS[kind], value).ljust(8, b"\0")


def test_handles_grid_block_shared_and_stream_arrive_whole(stand_in: StandIn) -> None:
    launch = stand_in.make(["ptr", "ptr", "ptr", "i32"], ["x_ptr", "y_ptr", "out_ptr", "n"],
                           block=256, shared=65536)
    launch((2 ** 31 - 1, 3, 2), 0x7F00CAFE1234, 0x7F0000001000, 0x7F0000002000,
           0x7F0000003000, -7)
    recorded = stand_in.recorded
    assert recorded.calls == 1
    assert recorded.function == 0x7F00DEAD0000BEEF
    assert list(recorded.dims) == [2 ** 31 - 1, 3, 2, 256, 1, 1, 65536]
    assert recorded.stream == 0x7F00CAFE1234 and recorded.extra is None
    assert stand_in.slots(4) == [_slot("ptr", 0x7F0000001000), _slot("ptr", 0x7F0000002000),
                                 _slot("ptr", 0x7F0000003000), _slot("i32", -7)]
    launch([5, 1, 1], 0, 16, 32, 48, 2 ** 31 - 1)  # any sequence of three is a grid
    assert recorded.calls == 2 and recorded.stream is None and recorded.dims[0] == 5
    assert stand_in.slots(4)[3] == _slot("i32", 2 ** 31 - 1)


def test_values_of_every_kind_pack_as_struct_packs_them(stand_in: StandIn) -> None:
    kinds = ["ptr", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16",
             "fp32", "fp64"]
    values = [2 ** 64 - 16, True, -128, -32768, -2 ** 31, -2 ** 63, 255, 65535, 2 ** 32 - 1,
              2 ** 64 - 1, 0.1, 1 + 3 * 2 ** -8, 1.1, math.pi]
    launch = stand_in.make(kinds)
    launch((1, 1, 1), 0, *values)
    values[kinds.index("bf16")] = 0x3F82  # bf16 goes as its 16 bits, rounded to even
    expected = [_slot(kind, value) for kind, value in zip(kinds, values)]
    assert stand_in.slots(len(kinds)) == expected
    # ints for floats, objects with __index__ for ints, and truth values for i1, as struct
    launch((1, 1, 1), 0, 64, [], np.int8(-3), 7, 8, 9, 10, 11, 12, np.uint64(13), 2, -3, 4, 5)
    assert stand_in.slots(len(kinds)) == [_slot(kind, value) for kind, value in zip(
        kinds, [64, False, -3, 7, 8, 9, 10, 11, 12, 13, 2.0, 0xC040, 4.0, 5.0])]


def test_no_arguments_pass_no_pointer_array(stand_in: StandIn) -> None:
    stand_in.make([])((3, 1, 1), 0)
    assert stand_in.recorded.params is None and stand_in.recorded.dims[0] == 3


def test_matches_the_python_launcher_slot_for_slot(stand_in: StandIn) -> None:
    """Random values of every kind: the native launcher packs the bytes the cuda-python
    launcher (`driver.make_launcher`) packs."""
    kinds = ["ptr", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16",
             "fp32", "fp64"]
    ranges = {"ptr": (0, 2 ** 64), "u64": (0, 2 ** 64), "i64": (-2 ** 63, 2 ** 63),
              "i32": (-2 ** 31, 2 ** 31), "u32": (0, 2 ** 32), "i16": (-2 ** 15, 2 ** 15),
              "u16": (0, 2 ** 16), "i8": (-128, 128), "u8": (0, 256)}
    python_calls: list[bytes] = []

    def cuda_python_launch(function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        python_calls.append(ctypes.string_at(
            ctypes.c_void_p.from_address(params).value or 0, 8 * len(kinds)))
        return (driver._driver().CUresult(0),)

    python_launch = driver.make_launcher("add_kernel", kinds, kinds, 1, 128, 0,
                                         cuda_python_launch)
    native_launch = stand_in.make(kinds)
    rng = np.random.default_rng(0)
    for _ in range(200):
        values: list[Any] = []
        for kind in kinds:
            if kind in ranges:
                low, high = ranges[kind]
                values.append(int(rng.integers(low, high, dtype=np.uint64 if low == 0
                                               else np.int64)))
            elif kind in ("fp16", "bf16"):
                values.append(float(rng.standard_normal() * 10.0 ** rng.integers(-6, 4)))
            else:
                values.append(float(rng.standard_normal() * 10.0 ** rng.integers(-30, 30)))
        python_launch((1, 1, 1), 0, *values)
        native_launch((1, 1, 1), 0, *values)
        assert b"".join(stand_in.slots(len(kinds))) == python_calls[-1], values


def test_device_objects_give_their_addresses(stand_in: StandIn) -> None:
    class DeviceArray:
        __cuda_array_interface__ = {"data": (0x7F0000002000, False), "shape": (4,),
                                    "typestr": "<f4", "version": 3}

    stand_in.make(["ptr", "ptr"])((1, 1, 1), 0, DeviceArray(), 0x10)
    assert stand_in.slots(2) == [_slot("ptr", 0x7F0000002000), _slot("ptr", 0x10)]


def test_wrong_values_name_the_argument(stand_in: StandIn) -> None:
    launch = stand_in.make(["ptr", "ptr", "i32", "fp32"], ["x_ptr", "out_ptr", "n", "scale"])
    calls = stand_in.recorded.calls
    with pytest.raises(TypeError, match=r"argument 'x_ptr' is in host memory: a numpy\.ndarray"):
        launch((1, 1, 1), 0, np.ones(4, np.float32), 16, 4, 1.0)
    with pytest.raises(TypeError, match=r"argument 'out_ptr' is a str, not a pointer"):
        launch((1, 1, 1), 0, 16, "out", 4, 1.0)
    with pytest.raises(TypeError, match=r"^kernel 'add_kernel': argument 'n' \(i32\) cannot "
                                        r"hold 1099511627776: out of range$"):
        launch((1, 1, 1), 0, 16, 16, 2 ** 40, 1.0)
    with pytest.raises(TypeError, match=r"argument 'n' \(i32\) cannot hold 1\.5: "):
        launch((1, 1, 1), 0, 16, 16, 1.5, 1.0)
    with pytest.raises(TypeError, match=r"argument 'out_ptr' \(ptr\) cannot hold -16"):
        launch((1, 1, 1), 0, 16, -16, 4, 1.0)
    with pytest.raises(TypeError, match=r"argument 'scale' \(fp32\) cannot hold 'x'"):
        launch((1, 1, 1), 0, 16, 16, 4, "x")
    with pytest.raises(TypeError, match=r"argument 'scale' \(fp32\) cannot hold 1e\+300"):
        launch((1, 1, 1), 0, 16, 16, 4, 1e300)
    with pytest.raises(TypeError, match=r"kernel 'add_kernel' takes 4 arguments, got 3"):
        launch((1, 1, 1), 0, 16, 16, 4)
    with pytest.raises(ValueError, match=r"grid \(2147483648, 1, 1\) has a dimension of 2\*\*31"):
        launch((2 ** 31, 1, 1), 0, 16, 16, 4, 1.0)
    with pytest.raises(ValueError, match=r"does not have 3 dimensions"):
        launch((1, 1), 0, 16, 16, 4, 1.0)
    launch((0, 1, 1), 0, 16, 16, 4, 1.0)  # zero programs: nothing is launched
    launch((4, 1, -2 ** 70), 0, 16, 16, 4, 1.0)
    assert stand_in.recorded.calls == calls


def test_streams(stand_in: StandIn) -> None:
    """None is the current stream (torch's once it has CUDA, else 0); torch-like streams give
    their ``cuda_stream``, cuda-python's CUstream its handle."""

    class TorchLikeStream:
        cuda_stream = 0x7F0000005000

    launch = stand_in.make(["i32"])
    streams = []
    for stream in (0x7F0000004000, TorchLikeStream(), driver._driver().CUstream(0x7F0000006000)):
        launch((1, 1, 1), stream, 3)
        streams.append(stand_in.recorded.stream)
    assert streams == [0x7F0000004000, 0x7F0000005000, 0x7F0000006000]
    if "torch" not in sys.modules:
        launch((1, 1, 1), None, 3)
        assert stand_in.recorded.stream is None
    saved = list(driver._TORCH_STREAM_READERS)
    asked = []
    driver._TORCH_STREAM_READERS[:] = [lambda device: asked.append(device) or 0x7F0000009000]
    try:
        launch((1, 1, 1), None, 3)
    finally:
        driver._TORCH_STREAM_READERS[:] = saved
    assert stand_in.recorded.stream == 0x7F0000009000
    assert asked == [-1]  # torch's "the current device", in one call
    with pytest.raises(TypeError, match=r"stream='main' is not a CUDA stream"):
        launch((1, 1, 1), "main", 3)
    with pytest.raises(TypeError, match=r"stream=-1 is not a CUDA stream"):
        launch((1, 1, 1), -1, 3)


def test_a_failed_launch_names_the_kernel(stand_in: StandIn, monkeypatch) -> None:
    launch = stand_in.make(["i32"])
    monkeypatch.setattr(driver, "_describe", lambda error: f"{error.name}: described")
    stand_in.status.value = 1  # CUDA_ERROR_INVALID_VALUE
    try:
        with pytest.raises(CudaError, match=r"cuLaunchKernel of 'add_kernel': "
                                            r"CUDA_ERROR_INVALID_VALUE: described"):
            launch((1, 1, 1), 0, 3)
        stand_in.status.value = 123456
        with pytest.raises(CudaError, match=r"cuLaunchKernel of 'add_kernel': CUresult 123456"):
            launch((1, 1, 1), 0, 3)
    finally:
        stand_in.status.value = 0
    assert driver._LAST_LAUNCHED == ["add_kernel"]


def test_unavailable_native_launchers_give_the_reason(monkeypatch, tmp_path) -> None:
    """Switched off, or with no compiler and nothing cached, `make_native_launcher` gives the
    reason instead of a launcher (`CudaFunction` then launches through cuda-python)."""
    monkeypatch.setenv(native.SWITCH, "0")
    assert driver.make_native_launcher("k", ["i32"], ["n"], 1, 32, 0) == \
        "switched off by TILECRAFT_NATIVE_LAUNCHER='0'"
    monkeypatch.delenv(native.SWITCH)
    monkeypatch.setattr(native, "_LOADED", [])  # as a new process with an empty cache
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    reason = driver.make_native_launcher("k", ["i32"], ["n"], 1, 32, 0)
    assert reason == f"no C compiler: CC={str(tmp_path / 'no-such-cc')!r} is not found"
    monkeypatch.undo()
    if not driver.is_available():
        assert driver.make_native_launcher("k", ["i32"], ["n"], 1, 32, 0).startswith(
            "no cuLaunchKernel to call: cuda-python gives no cuLaunchKernel: ")
    missing = tmp_path / "libnothing.so"
    if native.launchers(wait=True) is not None:
        reason = driver.make_native_launcher("k", ["i32"], ["n"], 1, 32, 0,
                                             library=str(missing))
        assert reason.startswith("no cuLaunchKernel to call: ")


gpu = pytest.mark.skipif(not driver.is_available(), reason="no CUDA device")


@gpu
@pytest.mark.parametrize("switch", ["1", "0"])
def test_cuda_functions_launch_alike_natively_and_through_cuda_python(monkeypatch,
                                                                      switch: str) -> None:
    """On a GPU: a CudaFunction launches natively by default and through cuda-python with the
    switch off, and both pack every kind and launch on torch's current stream alike."""
    torch = pytest.importorskip("torch")
    from tests.backends.cuda.test_driver import _ADD, _SCALARS, _compile

    monkeypatch.setenv(native.SWITCH, switch)
    kinds = ["ptr", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16",
             "bf16", "fp32", "fp64"]
    values = [True, -5, -300, -70_000, -(2 ** 40) - 3, 250, 65_000, 4_000_000_000,
              2 ** 63 + 2 ** 11, 1.5, -2.5, 3.25, 1e100]
    scalars = driver.CudaFunction(_compile(_SCALARS, "scalars"), "scalars", 0, 1, kinds)
    assert (scalars.native_unavailable is None) is (switch == "1" and
                                                     native.launchers() is not None)
    out = torch.full((13,), math.nan, dtype=torch.float64, device="cuda")
    scalars.launch((1, 1, 1), [out, *values], 0)
    driver.synchronize()
    assert out.tolist() == [float(value) for value in values]
    add = driver.CudaFunction(_compile(_ADD, "add_kernel"), "add_kernel", 0, 4,
                              ["ptr", "ptr", "ptr", "i32"])
    n = 4096
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    result = torch.full((n,), math.nan, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        add.launch_values((n // 128, 1, 1), None, x.data_ptr(), y.data_ptr(),
                          result.data_ptr(), n)
    stream.synchronize()
    assert torch.equal(result, x + y)
