"""The interpreter follows the semantics of compiled code: integer overflow wraps, fp16 rounds,
masked lanes are not read, atomics apply in program order; and it is a debugger-friendly
place: device_print and print show values, breakpoints stop in the kernel, bad accesses and
failed assertions point at the kernel's line."""

from __future__ import annotations

import inspect
import sys
import warnings

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _line_of(kernel, marker: str) -> int:
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, line in enumerate(lines) if marker in line)


@tc.jit
def overflow_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * x + x)
    tl.store(out_ptr + BLOCK + offs, x + 2147483647)


def test_integer_overflow_wraps():
    x = np.array([2**20, -(2**20), 65537, 2**31 - 1] * 4, np.int32)
    out = np.zeros(32, np.int32)
    overflow_kernel[(1,)](x, out, BLOCK=16)
    wide = x.astype(np.int64)
    expected = ((wide * wide + wide + 2**31) % 2**32 - 2**31).astype(np.int32)
    np.testing.assert_array_equal(out[:16], expected)
    np.testing.assert_array_equal(out[16:], ((wide + 2**31 - 1 + 2**31) % 2**32 - 2**31))


@tc.jit
def fp16_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = x * y + x
    tl.static_assert(z.dtype == tl.float16)
    tl.store(out_ptr + offs, z)


def test_fp16_rounds_each_operation():
    rng = np.random.default_rng()
    x = rng.standard_normal(64).astype(np.float16)
    y = rng.standard_normal(64).astype(np.float16)
    out = np.zeros(64, np.float16)
    fp16_kernel[(1,)](x, y, out, BLOCK=64)
    np.testing.assert_array_equal(out, (x * y) + x)  # numpy rounds each fp16 op too


@tc.jit
def far_masked_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * 1000000
    x = tl.load(x_ptr + offs, mask=offs < n, other=7.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), x)


def test_masked_lanes_are_not_read():
    x = np.arange(4, dtype=np.float32) + 1
    out = np.zeros(16, np.float32)
    far_masked_kernel[(1,)](x, out, 4, BLOCK=16)
    assert out[0] == 1 and np.all(out[1:] == 7)


@tc.jit
def oob_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # unmasked: reads past the end
    tl.store(out_ptr + offs, x)


def test_out_of_bounds_access_points_at_the_kernel():
    x = np.zeros(10, np.float32)
    out = np.zeros(16, np.float32)
    with pytest.raises(tc.InterpreterError) as info:
        oob_kernel[(1,)](x, out, BLOCK=16)
    error = info.value
    assert "out-of-bounds load" in error.message and "argument 'x_ptr'" in error.message
    assert error.loc.line == _line_of(oob_kernel, "x = tl.load")
    assert "x = tl.load(x_ptr + offs)" in str(error)


@tc.jit
def assert_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x >= 0, "x must be non-negative")


def test_device_assert():
    x = np.array([1, 2, -3, 4], np.int32)
    with pytest.raises(tc.InterpreterError) as info:
        assert_kernel[(1,)](x, BLOCK=4)
    assert "device assertion failed: x must be non-negative" in info.value.message
    assert "at index (2,)" in info.value.message
    assert info.value.loc.line == _line_of(assert_kernel, "tl.device_assert")
    assert_kernel[(1,)](np.abs(x), BLOCK=4)


@tc.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x", x)
    print("y", x + 1)


def test_device_print(capsys):
    print_kernel[(2,)](np.array([5, 6], np.int32), BLOCK=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "pid (0, 0, 0) idx (0) x: 5", "pid (0, 0, 0) idx (1) x: 6",
        "pid (0, 0, 0) idx (0) y: 6", "pid (0, 0, 0) idx (1) y: 7",
        "pid (1, 0, 0) idx (0) x: 5", "pid (1, 0, 0) idx (1) x: 6",
        "pid (1, 0, 0) idx (0) y: 6", "pid (1, 0, 0) idx (1) y: 7",
    ]
    text = print_kernel.ttir("*i32", BLOCK=2)
    assert text.count("tt.print") == 2 and '" x: "' in text


@tc.jit
def print_forms_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("hex ", x, x * 2, hex=True)
    tl.device_print("total", tl.sum(x))
    tl.device_print("quarter", x.to(tl.float32) / 4)
    tl.static_print("static", BLOCK, x.dtype)


def test_device_print_hex_several_values_scalars_and_static_print(capsys):
    print_forms_kernel[(1,)](np.array([5, -6], np.int32), BLOCK=2)
    assert capsys.readouterr().out.splitlines() == [
        "pid (0, 0, 0) idx (0) hex: 0x5, 0xa",
        "pid (0, 0, 0) idx (1) hex: 0xfffffffa, 0xfffffff4",
        "pid (0, 0, 0) idx () total: -1",
        "pid (0, 0, 0) idx (0) quarter: 1.25", "pid (0, 0, 0) idx (1) quarter: -1.5",
        "static 2 int32",  # the interpreter runs the kernel's Python code, once per program
    ]
    text = print_forms_kernel.ttir("*i32", BLOCK=2)
    assert capsys.readouterr().out == "static 2 int32\n"  # and the compiler once
    assert 'tt.print " hex: " {hex = true' in text


@tc.jit
def breakpoint_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    doubled = x * 2
    breakpoint()
    tl.store(x_ptr + tl.arange(0, BLOCK), doubled)


def test_breakpoints_stop_in_the_kernel(monkeypatch):
    seen = []

    def hook(*args, **kwargs):
        frame = sys._getframe(1)
        seen.append((frame.f_code.co_name, frame.f_lineno,
                     np.asarray(frame.f_locals["doubled"].handle).copy()))

    monkeypatch.setattr(sys, "breakpointhook", hook)
    x = np.array([1, 2, 3, 4], np.int32)
    breakpoint_kernel[(1,)](x, BLOCK=4)
    name, line, doubled = seen[0]
    assert name == "breakpoint_kernel" and line == _line_of(breakpoint_kernel, "breakpoint()")
    np.testing.assert_array_equal(doubled, [2, 4, 6, 8])


@tc.jit
def counter_kernel(counter_ptr, order_ptr):
    pid = tl.program_id(0) + tl.num_programs(0) * (tl.program_id(1) + tl.num_programs(1) *
                                                   tl.program_id(2))
    old = tl.atomic_add(counter_ptr, 1)
    tl.store(order_ptr + pid, old)


def test_programs_run_in_order_x_fastest():
    counter = np.zeros(1, np.int32)
    order = np.full(24, -1, np.int32)
    counter_kernel[(2, 3, 4)](counter, order)
    np.testing.assert_array_equal(order, np.arange(24))


@tc.jit
def logic_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    both = (x > 2) and (x < 6)
    either = (x < 2) or (x > 6)
    tl.store(out_ptr + offs, both)
    tl.store(out_ptr + BLOCK + offs, not either)


def test_boolean_operators_are_element_wise():
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(16, bool)
    logic_kernel[(1,)](x, out, BLOCK=8)
    np.testing.assert_array_equal(out[:8], (x > 2) & (x < 6))
    np.testing.assert_array_equal(out[8:], ~((x < 2) | (x > 6)))


@tc.jit
def loop_index_kernel(out_ptr, n):
    total = tl.cast(0, tl.int64)
    for i in range(n):
        total += i.to(tl.int64) * 3000000000
    tl.store(out_ptr, total)


def test_loop_index_is_a_tensor_as_when_compiled():
    out = np.zeros(1, np.int64)
    loop_index_kernel[(1,)](out, 4)
    assert out[0] == 6 * 3000000000


@tc.jit(interpret=True)
def python_only_kernel(out_ptr, n):
    total = 0
    for i in range(n):
        if i == 3:
            break
        total += i
    tl.store(out_ptr, total)


def test_interpret_flag_skips_the_compiler():
    out = np.zeros(1, np.int32)
    python_only_kernel[(1,)](out, 10)  # `break` is fine in Python...
    assert out[0] == 0 + 1 + 2
    with pytest.raises(tc.CompilationError, match="`break` is not supported"):
        python_only_kernel.ttir("*i32", "i32")  # ...but not in a compiled kernel
    assert not python_only_kernel._cache


@tc.jit
def tiny_kernel(out_ptr):
    tl.store(out_ptr, 1)


@pytest.mark.parametrize("variable,value", [("TILECRAFT_BACKEND", "interpret"),
                                            ("TILECRAFT_INTERPRET", "1")])
def test_environment_variables_interpret(monkeypatch, variable, value):
    """Either variable makes launches interpret, without compiling anything."""
    monkeypatch.delenv("TILECRAFT_BACKEND", raising=False)
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv(variable, value)
    tiny_kernel._cache.clear()
    getattr(tiny_kernel, "_binaries", {}).clear()
    out = np.zeros(1, np.int32)
    tiny_kernel[(1,)](out)
    assert out[0] == 1 and not tiny_kernel._cache and not getattr(tiny_kernel, "_binaries", {})


def test_calling_a_kernel_directly_is_an_error():
    with pytest.raises(RuntimeError, match=r"launch it with tiny_kernel\[grid\]"):
        tiny_kernel(np.zeros(1, np.int32))


@tc.jit
def strided_kernel(q_ptr, k_ptr, out_ptr, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    q = tl.load(q_ptr + row * stride + offs, mask=mask)
    k = tl.load(k_ptr + row * stride + offs, mask=mask)
    tl.store(out_ptr + row * stride + offs, q * k, mask=mask)


def test_views_of_one_buffer():
    rng = np.random.default_rng()
    qkv = rng.standard_normal((3, 5, 24)).astype(np.float32)
    q, k, out = qkv[0], qkv[1], qkv[2]  # views sharing one buffer
    expected = q * k
    strided_kernel[(5,)](q, k, out, q.strides[0] // 4, 24, BLOCK=32)
    np.testing.assert_array_equal(qkv[2], expected)


@tc.jit
def bool_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.dtype == tl.int1)
    tl.store(out_ptr + offs, ~x)


def test_bool_arrays():
    x = np.array([True, False] * 4)
    out = np.zeros(8, bool)
    bool_kernel[(1,)](x, out, BLOCK=8)
    np.testing.assert_array_equal(out, ~x)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    from ..frontend.classic_kernels import add_kernel

    x, y = torch.rand(100), torch.rand(100)
    out = torch.empty(100)
    add_kernel[(2,)](x, y, out, 100, BLOCK_SIZE=64)
    assert torch.allclose(out, x + y)


@tc.jit
def strided_copy_kernel(x_ptr, out_ptr, n, sx, so, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs * so, tl.load(x_ptr + offs * sx, mask=mask) + 1, mask=mask)


def test_strided_arrays_over_foreign_buffers():
    """Arrays whose memory is not one numpy array's (a bytearray, read-only bytes) and is not
    contiguous: the bytes between their first and last element are mapped."""
    raw = bytearray(np.arange(40, dtype=np.int32).tobytes())
    out = np.ndarray((10,), np.int32, buffer=raw, offset=8, strides=(12,))  # every 3rd
    source = np.frombuffer(bytes(np.arange(100, 120, dtype=np.int32)), np.int32)[::-2]
    assert not out.flags["C_CONTIGUOUS"] and not source.flags["WRITEABLE"]
    strided_copy_kernel[(1,)](source, out, 10, source.strides[0] // 4, 3, BLOCK=16)
    result = np.frombuffer(bytes(raw), np.int32)
    np.testing.assert_array_equal(result[2:32:3], np.arange(119, 99, -2) + 1)
    untouched = np.ones(40, bool)
    untouched[2:32:3] = False
    np.testing.assert_array_equal(result[untouched], np.arange(40)[untouched])
    with pytest.raises(tc.InterpreterError, match="store into read-only memory .argument "
                       "'out_ptr'"):
        strided_copy_kernel[(1,)](out, source, 10, 3, source.strides[0] // 4, BLOCK=16)
