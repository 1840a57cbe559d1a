"""The CPU backend as a user meets it: which backend runs a launch, every stage's text, the disk
cache, parallel programs with atomics, device_print and device_assert, and kernels it refuses
with an error at the kernel's line."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import compiler as runtime_compiler
from tilecraft.runtime.cpu_driver import DeviceAssertionError


pytestmark = pytest.mark.usefixtures("cpu_backend")


@tc.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * factor, mask=mask)


def _scale(n=100, factor=3.0):
    x = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    compiled = scale_kernel[(tc.cdiv(n, 32),)](x, out, n, factor, BLOCK=32)
    np.testing.assert_array_equal(out, x * np.float32(factor))
    return compiled


def test_backend_selection(monkeypatch):
    from tilecraft.backends.cuda import driver

    monkeypatch.delenv("TILECRAFT_BACKEND")
    assert runtime_compiler.selected_backend() == ("cuda" if driver.is_available() else "cpu")
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
    assert runtime_compiler.selected_backend() == "interpret"
    monkeypatch.setenv("TILECRAFT_BACKEND", "tpu")
    with pytest.raises(runtime_compiler.BackendError, match="choose one of cpu, cuda, interpret"):
        runtime_compiler.selected_backend()
    monkeypatch.setenv("TILECRAFT_BACKEND", "cuda")
    if not driver.is_available():
        with pytest.raises(runtime_compiler.BackendError, match="no usable CUDA device"):
            runtime_compiler.selected_backend()


def test_every_stage_is_kept():
    compiled = _scale()
    assert "tt.load" in compiled.asm["ttir"] and "tt.func" in compiled.asm["ttir"]
    assert 'define void @"scale_kernel.grid"' in compiled.asm["llir"] or \
        "@scale_kernel.grid" in compiled.asm["llir"]
    assert "scale_kernel.grid" in compiled.asm["asm"]
    assert compiled.metadata["arg_kinds"] == ["ptr", "ptr", "i32", "fp32"]


def test_disk_cache_serves_a_new_process(monkeypatch, tmp_path):
    from tilecraft.backends.cpu import engine

    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    scale_kernel.forget_compiled()
    _scale(factor=5.0)
    assert any(tmp_path.iterdir())
    scale_kernel.forget_compiled()  # as a new process would

    def no_llvm(*args, **kwargs):
        raise AssertionError("compiled again instead of loading the cached object")

    monkeypatch.setattr(engine, "compile_module", no_llvm)
    _scale(factor=5.0)
    # another CPU is another key
    monkeypatch.setattr(engine, "host_cache_key_parts", lambda: ("other-cpu",))
    scale_kernel.forget_compiled()
    with pytest.raises(AssertionError, match="compiled again"):
        _scale(factor=5.0)


def test_cache_key_covers_the_compiler_source():
    """Every tilecraft module this process has imported by now (the CPU backend's compile of
    the kernels above included) is one that the compile cache's fingerprint hashes."""
    import sys

    from tilecraft.runtime import cache

    modules = cache.source_modules()
    _scale(factor=2.0)
    loaded = {name for name, module in sys.modules.items()
              if (name == "tilecraft" or name.startswith("tilecraft."))
              and getattr(module, "__file__", None)}
    assert {"tilecraft.backends.cpu.lowering", "tilecraft.generated.tt",
            "tilecraft.runtime.jit", "tilecraft.ir.printer"} <= loaded
    assert loaded <= set(modules), sorted(loaded - set(modules))


@tc.jit
def count_kernel(counter_ptr, values_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    values = tl.load(values_ptr + tl.program_id(0) * BLOCK + offsets)
    tl.atomic_add(counter_ptr + offsets % 4, 1)
    tl.atomic_max(counter_ptr + 4, tl.max(values, axis=0))


def test_atomics_across_parallel_programs(monkeypatch):
    monkeypatch.setenv("TILECRAFT_CPU_THREADS", "2")
    programs, block = 500, 16
    values = np.random.default_rng(1).integers(-1000, 1000, programs * block).astype(np.int32)
    counter = np.zeros(5, np.int32)
    counter[4] = -2**31
    count_kernel[(programs,)](counter, values, BLOCK=block)
    assert counter[:4].tolist() == [programs * block // 4] * 4
    assert counter[4] == values.max()


@tc.jit
def checked_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK))
    tl.device_assert(x >= 0, "x must be non-negative")


def test_device_assert_stops_the_launch():
    x = np.arange(16, dtype=np.int32)
    checked_kernel[(4,)](x, BLOCK=4)
    x[9] = -1
    with pytest.raises(DeviceAssertionError, match="x must be non-negative") as info:
        checked_kernel[(4,)](x, BLOCK=4)
    assert "pid (2, 0, 0)" in str(info.value)
    assert "test_backend.py" in str(info.value)


@tc.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x", x)


def test_device_print(capsys):
    print_kernel[(1,)](np.array([5, 6], np.int32), BLOCK=2)
    out = capsys.readouterr().out
    assert "pid (0, 0, 0) idx (0) x: 5" in out
    assert "pid (0, 0, 0) idx (1) x: 6" in out


@tc.jit
def positive_part_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n)
    tl.store(out_ptr + offsets, x * 2, mask=(offsets < n) & (x > 0))


def test_masked_stores_take_the_unmasked_copy_only_when_every_element_is_stored():
    rng = np.random.default_rng()
    block, n = 64, 64 * 5 + 17
    x = rng.standard_normal(n).astype(np.float32)
    x[:block] = np.abs(x[:block]) + 1     # program 0: every element stored
    x[2 * block + 5] = -1.0               # program 2: one element kept
    out = np.full(n + block, np.nan, np.float32)  # past n: must stay untouched
    compiled = positive_part_kernel[(tc.cdiv(n, block),)](x, out, n, BLOCK=block)
    expected = np.full(n + block, np.nan, np.float32)
    expected[:n] = np.where(x > 0, x * 2, np.nan)
    np.testing.assert_array_equal(out, expected)
    llir = compiled.asm["llir"]
    assert "@llvm.masked.store" in llir                       # the masked copy
    assert re.search(r"store <\d+ x float>", llir) is not None  # the unmasked copy


@tc.jit
def bounded_copy_kernel(x_ptr, out_ptr, lo, hi, BLOCK: tl.constexpr, FORM: tl.constexpr):
    """Copies x where the mask of FORM holds (else -1): each form is decided by one end of the
    program's offsets (the largest for offs < hi, the smallest for offs >= lo, ...)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if FORM == 0:
        mask = offs < hi
    elif FORM == 1:
        mask = offs <= hi
    elif FORM == 2:
        mask = offs >= lo
    elif FORM == 3:
        mask = offs > lo
    elif FORM == 4:
        mask = hi > offs
    else:
        mask = lo < offs
    x = tl.load(x_ptr + offs, mask=mask, other=-1.0)  # read twice: loaded into a buffer
    tl.store(out_ptr + offs, x * 1.0 + x * 0.0)


@pytest.mark.parametrize("form", range(6))
def test_vector_loads_check_masks_at_the_deciding_end(form):
    """Bounds that fall inside a program, at its first and last element and just outside: the
    vector loads run only where every element of the mask holds."""
    block, programs = 64, 6
    x = np.random.default_rng().standard_normal(block * programs).astype(np.float32)
    offs = np.arange(block * programs)
    for lo, hi in ((70, 200), (63, 64), (64, 127), (128, 191), (0, 383), (-5, 400)):
        out = np.full_like(x, np.nan)
        compiled = bounded_copy_kernel[(programs,)](x, out, lo, hi, BLOCK=block, FORM=form)
        mask = [offs < hi, offs <= hi, offs >= lo, offs > lo, hi > offs, lo < offs][form]
        np.testing.assert_array_equal(out, np.where(mask, x, -1.0), err_msg=f"lo={lo} hi={hi}")
    assert re.search(r"load <\d+ x float>", compiled.asm["llir"]) is not None


@tc.jit
def prefix_store_kernel(x_ptr, out_ptr, hi, BLOCK: tl.constexpr, FORM: tl.constexpr):
    """Stores twice x where the mask of FORM holds: each holds for a prefix of the program's
    offsets (the store runs over that prefix only, with no mask)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if FORM == 0:
        mask = offs < hi
    elif FORM == 1:
        mask = offs <= hi
    elif FORM == 2:
        mask = hi > offs
    else:
        mask = hi >= offs
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


@pytest.mark.parametrize("form", range(4))
def test_stores_under_prefix_masks_write_exactly_the_prefix(form):
    """Bounds inside a program, at its first and last element, just outside, below every
    offset and at the largest i32 (where ``hi - offs`` and ``offs + 1`` would wrap): every
    element of the mask is written, and no other."""
    block, programs = 64, 6
    x = np.random.default_rng().standard_normal(block * programs).astype(np.float32)
    offs = np.arange(block * programs)
    for hi in (200, 63, 64, 127, 0, -5, -2**31, 400, 2**31 - 1):
        out = np.full_like(x, np.nan)
        compiled = prefix_store_kernel[(programs,)](x, out, hi, BLOCK=block, FORM=form)
        mask = [offs < hi, offs <= hi, hi > offs, hi >= offs][form]
        np.testing.assert_array_equal(out, np.where(mask, x * 2, np.nan), err_msg=f"hi={hi}")
    assert "@llvm.masked.store" not in compiled.asm["llir"]


@tc.jit
def prefix_store_2d_kernel(x_ptr, out_ptr, m, n, stride, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    """Copies a block of x where its rows (AXIS 0) or its columns (AXIS 1) are in bounds."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    if AXIS == 0:
        mask = tl.broadcast_to(rows[:, None], (BLOCK_M, BLOCK_N)) < m
    else:
        mask = tl.broadcast_to(cols[None, :], (BLOCK_M, BLOCK_N)) < n
    offsets = rows[:, None] * stride + cols[None, :]
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


@pytest.mark.parametrize("axis", [0, 1])
def test_2d_stores_under_prefix_masks(axis):
    block_m, block_n, rows, cols = 8, 32, 8 * 3, 32 * 3
    x = np.random.default_rng().standard_normal((rows, cols)).astype(np.float32)
    for m, n in ((19, 70), (8, 32), (0, 0), (24, 96)):
        out = np.full_like(x, np.nan)
        prefix_store_2d_kernel[(3, 3)](x, out, m, n, cols, BLOCK_M=block_m, BLOCK_N=block_n,
                                       AXIS=axis)
        inside = (np.arange(rows) < m)[:, None] if axis == 0 else (np.arange(cols) < n)[None]
        inside = np.broadcast_to(inside, x.shape)
        np.testing.assert_array_equal(out, np.where(inside, x, np.nan), err_msg=f"{m} {n}")
