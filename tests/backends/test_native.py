"""Building and loading the native launchers (`tilecraft.backends.native`), and the CPU
backend's native launcher against its Python one."""

from __future__ import annotations

import shutil
import time

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends import native

needs_compiler = pytest.mark.skipif(isinstance(native.compiler(), str),
                                    reason="no C compiler here")


@needs_compiler
def test_builds_and_rebuilds_a_damaged_module(tmp_path) -> None:
    path = native.module_path(tmp_path)
    module = native.load(path)
    assert module.__file__ == str(path)
    assert {"CudaLauncher", "CpuLauncher"} <= set(dir(module))
    assert [entry.name for entry in tmp_path.iterdir()] == [path.name]  # no build leftovers
    damaged = native.module_path(tmp_path / "damaged")
    damaged.parent.mkdir()
    damaged.write_bytes(b"\x7fELF truncated")
    assert hasattr(native.load(damaged), "CudaLauncher")
    assert damaged.stat().st_size > 1000


@needs_compiler
def test_builds_in_the_background_where_not_asked_to_wait(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(native, "_LOADED", [])  # as a new process with an empty cache
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    assert native.launchers() is None
    assert native.unavailable_reason().startswith("being built in the background")
    path = native.module_path(tmp_path / ".native")
    deadline = time.monotonic() + 120
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert native.launchers() is not None and native.unavailable_reason() is None
    assert [entry.name for entry in path.parent.iterdir()] == [path.name]


def test_no_compiler_is_a_reason(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CC", "/no/such/cc")
    with pytest.raises(native.NativeUnavailable, match="no C compiler: CC='/no/such/cc' is not "
                                                       "found"):
        native.load(native.module_path(tmp_path))
    monkeypatch.setenv("CC", "")
    monkeypatch.setattr(native.sysconfig, "get_config_var", lambda name: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert native.compiler() == ("no C compiler: CC is unset and none of cc, gcc, clang is on "
                                 "the PATH")


def test_failed_builds_and_missing_headers_are_reasons(tmp_path, monkeypatch) -> None:
    """A failed build is recorded with the compiler's messages, and not tried again while the
    record is there."""
    monkeypatch.setenv("CC", f"{shutil.which('sh')} -c 'echo broken headers >&2; exit 1'")
    path = native.module_path(tmp_path)
    with pytest.raises(native.NativeUnavailable, match=r"the build of tilecraft_launchers-\w+"
                                                       r"\S+ failed \(.*\.failed; remove it to "
                                                       r"try again\): broken headers$"):
        native.load(path)
    monkeypatch.delenv("CC")
    with pytest.raises(native.NativeUnavailable, match="broken headers"):
        native.load(path)
    native.failure_record(path).unlink()
    monkeypatch.setattr(native.sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    with pytest.raises(native.NativeUnavailable, match=f"no Python.h in {tmp_path}"):
        native.load(path)


def test_a_cache_that_cannot_hold_the_module_is_a_reason(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(native, "_LOADED", [])  # as a new process
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(not_a_folder))
    assert native.launchers(wait=True) is None
    assert native.unavailable_reason().startswith(f"cannot build in {not_a_folder}/.native: ")


@pytest.mark.parametrize("environment", [{"TILECRAFT_CACHE_DIR": "/somewhere/cache"},
                                         {"TILECRAFT_CACHE_DIR": ""}, {}])
def test_the_module_lives_in_the_compile_cache(monkeypatch, environment) -> None:
    from tilecraft.runtime import cache

    monkeypatch.delenv("TILECRAFT_CACHE_DIR", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert native._folder() == cache.cache_dir() / ".native"
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    assert cache.cache_dir() is None and native._folder() == native._process_folder()


def test_switched_off(monkeypatch) -> None:
    monkeypatch.setenv(native.SWITCH, "off")
    assert native.launchers() is None
    assert native.unavailable_reason() == "switched off by TILECRAFT_NATIVE_LAUNCHER='off'"


@tc.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@pytest.fixture
def cpu_backend(monkeypatch) -> None:
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")


def test_cpu_native_launcher_runs_times_and_hands_on(cpu_backend) -> None:
    if native.launchers(wait=True) is None:
        pytest.skip(f"no native launchers here: {native.unavailable_reason()}")
    _add_kernel.forget_compiled()
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal(1000).astype(np.float32) for _ in range(2))
    out = np.full_like(x, np.nan)
    compiled = _add_kernel[(8,)](x, y, out, 1000, BLOCK=128)
    kernel = compiled.launcher.kernel
    launch = compiled.launcher.launch_values
    assert type(launch).__name__ == "CpuLauncher"
    np.testing.assert_array_equal(out, x + y)
    assert kernel.program_seconds is not None  # timed by the first launch
    for grid, n in [((1, 1, 1), 100), ((3, 1, 1), 300), ((4, 1, 1), 500)]:
        out[:] = np.nan
        launch(grid, None, x.ctypes.data, y.ctypes.data, out.ctypes.data, n)
        np.testing.assert_array_equal(out[:n], (x + y)[:n])
        assert np.isnan(out[n:]).all()
    launch((0, 1, 1), None, 0, 0, 0, 5)  # no programs: nothing runs (address 0 untouched)
    kernel._timing.program_seconds = 1.0  # as if expensive: the Python launcher plans threads
    out[:] = np.nan
    launch((8, 1, 1), None, x.ctypes.data, y.ctypes.data, out.ctypes.data, 1000)
    np.testing.assert_array_equal(out, x + y)
    assert kernel.program_seconds < 1.0  # measured again
    with pytest.raises(TypeError, match=r"argument 3 \(1\.5\) is not a valid i32"):
        launch((1, 1, 1), None, x.ctypes.data, y.ctypes.data, out.ctypes.data, 1.5)
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        launch((1, 1, 1), None, x.ctypes.data, y.ctypes.data, out.ctypes.data)
    with pytest.raises(ValueError, match=r"invalid grid \(-1, 1, 1\)"):
        launch((-1, 1, 1), None, x.ctypes.data, y.ctypes.data, out.ctypes.data, 5)


@pytest.mark.parametrize("environment", [{native.SWITCH: "0"}, {"CC": "/no/such/cc"}])
def test_cpu_kernels_launch_in_python_without_native_launchers(cpu_backend, monkeypatch,
                                                               tmp_path, environment) -> None:
    """Switched off, or with no compiler and an empty cache: the Python launcher, with the
    same results."""
    monkeypatch.setattr(native, "_LOADED", [])  # as a new process with an empty cache
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    _add_kernel.forget_compiled()
    try:
        x = np.arange(300, dtype=np.float32)
        out = np.full_like(x, np.nan)
        compiled = _add_kernel[(3,)](x, x, out, 300, BLOCK=128)
        np.testing.assert_array_equal(out, 2 * x)
        assert native.unavailable_reason() is not None
        assert compiled.launcher.launch_values == compiled.launcher.kernel._launch_in_python
        out[:] = np.nan
        _add_kernel[(3,)](x, x, out, 300, BLOCK=128)
        np.testing.assert_array_equal(out, 2 * x)
    finally:
        _add_kernel.forget_compiled()
