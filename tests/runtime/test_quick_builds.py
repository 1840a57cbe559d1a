"""Quick builds on the CPU backend: a launch's new specialization of a kernel that runs straight
through is built with no LLVM optimization and level-0 code generation, gives the same results,
is cached as such, and is replaced by the optimized build (in memory, in the launcher and in the
cache) once it has run `cpu_driver.QUICK_SECONDS`, in the middle of a launch too, or when
`warmup`, a benchmark or a reader of its assembly asks for it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import cache, cpu_driver
from tilecraft.runtime.compiler import CPUBackend


@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * 3.0 + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@tc.jit
def row_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(total))


@tc.jit
def checked_kernel(x_ptr, limit, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK))
    tl.device_assert(x < limit, "x below the limit")


@pytest.fixture(autouse=True)
def quick_builds(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    monkeypatch.setenv("TILECRAFT_QUICK_BUILDS", "1")
    # No launch here runs its quick build long enough to be optimized, however loaded the machine
    # (a test that wants it sets 0).
    monkeypatch.setattr(cpu_driver, "QUICK_SECONDS", 60.0)
    for name in ("TILECRAFT_CACHE_DISABLE", "TILECRAFT_INTERPRET", "TILECRAFT_ALWAYS_COMPILE"):
        monkeypatch.delenv(name, raising=False)
    for kernel in (add_kernel, row_sum_kernel, checked_kernel):
        kernel.forget_compiled()
    return tmp_path


def _add(n: int = 5000, block: int = 256, seed: int = 0):
    """Launches add_kernel on fresh data, checks the result and returns the compiled kernel."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    compiled = add_kernel[(tc.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    np.testing.assert_array_equal(out, x * np.float32(3.0) + y)
    return compiled


def _metadata(cache_dir: Path, kernel: str = "add_kernel") -> dict:
    """The metadata of the one cache entry of ``kernel``."""
    found = [json.loads((path / cache.METADATA_FILE).read_text())
             for path in cache_dir.iterdir() if not path.name.startswith(".")]
    found = [metadata for metadata in found if metadata.get("name") == kernel]
    assert len(found) == 1, found
    return found[0]


def test_a_new_specialization_runs_a_quick_build_that_the_cache_keeps(quick_builds):
    compiled = _add()
    assert compiled.quick and compiled.launcher.kernel.quick
    assert _metadata(quick_builds)["quick"] is True
    add_kernel.forget_compiled()  # as a new process: the quick entry is used as it is
    again = _add(seed=1)
    assert again is not compiled and again.quick


def test_reading_the_assembly_gives_the_optimized_build_everywhere(quick_builds):
    compiled = _add()
    assert "llvm.loop.isvectorized" not in compiled._asm["llir"]  # the lowering's loops
    llir = compiled.asm["llir"]
    assert "llvm.loop.isvectorized" in llir  # vectorized by O3
    assert not compiled.quick and not compiled.launcher.kernel.quick
    assert _metadata(quick_builds)["quick"] is False
    _add(seed=2)
    add_kernel.forget_compiled()
    assert not _add(seed=3).quick  # the optimized entry replaced the quick one


def test_warmup_and_benchmarks_optimize_a_quick_build(quick_builds):
    compiled = _add()
    assert add_kernel.warmup("*fp32:16", "*fp32:16", "*fp32:16", "i32", BLOCK=256) is compiled
    assert not compiled.quick and not compiled.launcher.kernel.quick
    other = _add(block=512)
    assert other.quick
    tc.testing.do_bench(lambda: _add(block=512), warmup=0, rep=1, device="cpu")
    assert not other.quick


def test_a_long_launch_goes_on_with_the_optimized_build(quick_builds, monkeypatch):
    monkeypatch.setattr(cpu_driver, "QUICK_SECONDS", 0.0)  # optimize from the first program
    ran = []
    run_quick = cpu_driver.CPUKernel._run_quick
    monkeypatch.setattr(cpu_driver.CPUKernel, "_run_quick",
                        lambda self, *args: ran.append(run_quick(self, *args)) or ran[-1])
    compiled = _add(n=1 << 20, block=64)
    assert 1 <= ran[0] <= (1 << 20) // 64
    assert not compiled.quick and not compiled.launcher.kernel.quick
    _add(n=1 << 20, block=64, seed=4)
    assert len(ran) == 1  # the second launch ran the optimized build only


def test_a_failed_optimization_is_raised_and_tried_again(quick_builds, monkeypatch):
    monkeypatch.setattr(cpu_driver, "QUICK_SECONDS", 0.0)
    optimized = CPUBackend.optimized

    def failing(self, binary):
        raise RuntimeError("optimization failed")

    monkeypatch.setattr(CPUBackend, "optimized", failing)
    with pytest.raises(RuntimeError, match="optimization failed"):
        _add()
    monkeypatch.setattr(CPUBackend, "optimized", optimized)
    compiled = _add(seed=5)
    assert not compiled.quick


def test_kernels_that_loop_are_always_optimized(quick_builds):
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros(2, np.float32)
    compiled = row_sum_kernel[(2,)](x, out, 1000, BLOCK=128)
    np.testing.assert_allclose(out, [x.sum()] * 2)
    assert not compiled.quick
    assert _metadata(quick_builds, "row_sum_kernel")["quick"] is False


def test_quick_builds_can_be_turned_off(quick_builds, monkeypatch):
    monkeypatch.setenv("TILECRAFT_QUICK_BUILDS", "0")
    assert not _add().quick


def test_an_assertion_in_a_quick_build_names_its_line(quick_builds):
    x = np.arange(64, dtype=np.float32)
    compiled = checked_kernel[(4,)](x, 100.0, BLOCK=16)
    assert compiled.quick
    with pytest.raises(cpu_driver.DeviceAssertionError, match="x below the limit") as error:
        checked_kernel[(4,)](x, 40.0, BLOCK=16)
    assert error.value.pid == (2, 0, 0)


def test_the_native_launcher_hands_a_quick_build_on_and_runs_the_optimized_one(quick_builds):
    from tilecraft.backends import native

    if native.launchers(wait=True) is None:
        pytest.skip(f"no native launchers here: {native.unavailable_reason()}")
    compiled = _add(n=100, block=128)  # one program: the native launcher would run it itself
    kernel = compiled.launcher.kernel
    assert type(compiled.launcher.launch_values).__name__ == "CpuLauncher"
    assert kernel.program_seconds is None  # handed to the Python launcher, which runs it quick
    compiled.optimize()
    _add(n=100, block=128, seed=6)
    assert kernel.program_seconds is not None  # run and timed by the native launcher
