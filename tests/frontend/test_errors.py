"""One test per kind of error a kernel author can make: the message in words, and the caret at
the expression that caused it (file:line:col), with no traceback into the compiler."""

from __future__ import annotations

import inspect
import os

import pytest

import tilecraft as tc
import tilecraft.frontend
import tilecraft.language as tl

NOT_CONSTEXPR = 4
GOOD = tl.constexpr(8)


def _where(kernel, marker: str) -> tuple[int, int, str]:
    """The file line and 1-based column of ``marker`` in the kernel's source, and the line."""
    lines, first = inspect.getsourcelines(kernel.fn)
    body = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def ")) + 1
    for index, line in enumerate(lines):
        if marker in line and index >= body:
            return first + index, line.index(marker) + 1, line.rstrip("\n")
    raise AssertionError(f"{marker!r} not in {kernel.__name__}")


def check_error(kernel, args, kwargs, message: str, marker: str, cls=tc.CompilationError):
    with pytest.raises(cls) as info:
        kernel.ttir(*args, **kwargs)
    error = info.value
    line, col, text = _where(kernel, marker)
    assert message in error.message, error.message
    assert (error.loc.line, error.loc.col) == (line, col), str(error)
    rendered = str(error).splitlines()
    assert rendered[0] == f"{error.loc.file}:{line}:{col}: error: {error.message}"
    assert rendered[1] == text
    assert rendered[2] == " " * (col - 1) + "^"
    assert error.loc.file.endswith("test_errors.py")
    # no frame of the compiler in the traceback the user sees
    compiler = [os.path.dirname(tilecraft.frontend.__file__),
                os.path.dirname(tilecraft.language.__file__)]
    for entry in info.traceback:
        assert not str(entry.path).startswith(tuple(compiler)), str(entry.path)
    return error


@tc.jit
def broadcast_mismatch(x_ptr):
    a = tl.arange(0, 128)
    b = tl.arange(0, 64)
    tl.store(x_ptr + a, a + b)


def test_shape_mismatch():
    check_error(broadcast_mismatch, ("*i32",), {}, "cannot broadcast shapes [128] and [64]",
                "a + b")


@tc.jit
def pointer_plus_float(x_ptr):
    tl.store(x_ptr, 1.0)
    p = x_ptr + 1.5
    tl.store(p, 2.0)


def test_type_mismatch():
    check_error(pointer_plus_float, ("*fp32",), {}, "invalid operands of type pointer<fp32> "
                "and fp32", "x_ptr + 1.5")


@tc.jit
def branch_types(x_ptr, n):
    if n > 0:
        v = 1
    else:
        v = 1.5
    tl.store(x_ptr, v)


def test_branch_type_mismatch():
    check_error(branch_types, ("*fp32", "i32"), {}, "mismatched type for 'v' between the "
                "then branch (int32) and the else branch (fp32)", "v = 1.5")


@tc.jit
def loop_type_change(x_ptr, n):
    acc = 0
    for i in range(n):
        acc = acc + 0.5
    tl.store(x_ptr, acc)


def test_loop_carried_type_change():
    check_error(loop_type_change, ("*fp32", "i32"), {}, "loop-carried variable 'acc' has "
                "initial type int32 but is re-assigned to fp32", "acc = acc + 0.5")


@tc.jit
def bad_arange(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs)


def test_non_power_of_two_arange():
    check_error(bad_arange, ("*i32",), {"BLOCK": 100}, "arange's range must be a power of 2, "
                "got 100", "tl.arange(0, BLOCK)")


@tc.jit
def runtime_arange(x_ptr, n):
    offs = tl.arange(0, n)
    tl.store(x_ptr + offs, offs)


def test_non_constexpr_where_needed():
    check_error(runtime_arange, ("*i32", "i32"), {}, "arange's arguments must be of type "
                "tl.constexpr", "tl.arange(0, n)")


@tc.jit
def runtime_static_range(x_ptr, n):
    for i in tl.static_range(n):
        tl.store(x_ptr + i, i)


def test_static_range_needs_constexpr():
    check_error(runtime_static_range, ("*i32", "i32"), {}, "static_range's end must be a "
                "constexpr integer", "tl.static_range(n)")


@tc.jit
def undefined_name(x_ptr):
    tl.store(x_ptr, y_value)  # noqa: F821 - the error under test


def test_undefined_name():
    check_error(undefined_name, ("*i32",), {}, "name 'y_value' is not defined", "y_value")


@tc.jit
def reads_global(x_ptr):
    tl.store(x_ptr, NOT_CONSTEXPR + GOOD)


def test_non_constexpr_global():
    check_error(reads_global, ("*i32",), {}, "cannot access global variable 'NOT_CONSTEXPR'",
                "NOT_CONSTEXPR")


@tc.jit
def uses_break(x_ptr, n):
    for i in range(n):
        break


@tc.jit
def uses_continue(x_ptr, n):
    for i in range(n):
        continue


@tc.jit
def uses_try(x_ptr):
    try:
        tl.store(x_ptr, 1)
    except ValueError:
        pass


@tc.jit
def uses_for_else(x_ptr, n):
    for i in range(n):
        tl.store(x_ptr, i)
    else:
        tl.store(x_ptr, 0)


@tc.jit
def uses_while_else(x_ptr, n):
    while n > 0:
        n -= 1
    else:
        tl.store(x_ptr, 0)


@tc.jit
def uses_lambda(x_ptr):
    f = lambda v: v  # noqa: E731 - the error under test
    tl.store(x_ptr, f(1))


@tc.jit
def uses_with(x_ptr):
    with open("x"):
        pass


@tc.jit
def uses_nested_def(x_ptr):
    def inner(v):
        return v
    tl.store(x_ptr, inner(1))


@pytest.mark.parametrize("kernel,message,marker", [
    (uses_break, "`break` is not supported in kernels", "break"),
    (uses_continue, "`continue` is not supported in kernels", "continue"),
    (uses_try, "`try` is not supported in kernels", "try:"),
    (uses_for_else, "`for ... else` is not supported in kernels", "for i in range(n)"),
    (uses_while_else, "`while ... else` is not supported in kernels", "while n > 0"),
    (uses_lambda, "lambda functions are not supported in kernels", "lambda v: v"),
    (uses_with, "`with` is not supported in kernels", "with open"),
    (uses_nested_def, "nested function definitions are not supported", "def inner"),
])
def test_unsupported_syntax(kernel, message, marker):
    args = ("*i32", "i32")[:len(kernel.arg_names)]
    check_error(kernel, args, {}, message, marker, tc.CompilationError)
    from tilecraft.frontend import UnsupportedLanguageConstruct

    with pytest.raises(UnsupportedLanguageConstruct):
        kernel.ttir(*args)


@tc.jit
def return_in_loop(x_ptr, n):
    for i in range(n):
        if i > 3:
            return
        tl.store(x_ptr + i, i)


def test_return_inside_loop():
    check_error(return_in_loop, ("*i32", "i32"), {}, "`return` inside a conditional nested in "
                "a loop is not supported", "if i > 3")


@tc.jit
def kernel_returns_value(x_ptr):
    return tl.load(x_ptr)


def test_kernel_cannot_return_a_value():
    check_error(kernel_returns_value, ("*i32",), {}, "a kernel cannot return a value",
                "return tl.load")


@tc.jit
def bad_reshape(x_ptr):
    a = tl.arange(0, 16)
    b = tl.reshape(a, (4, 8))
    tl.store(x_ptr + a, a)


def test_reshape_size():
    check_error(bad_reshape, ("*i32",), {}, "reshape cannot change the number of elements",
                "tl.reshape(a, (4, 8))")


@tc.jit
def bad_dot(x_ptr):
    a = tl.zeros((16, 32), tl.float16)
    b = tl.zeros((16, 32), tl.float16)
    c = tl.dot(a, b)
    tl.store(x_ptr, tl.sum(c))


def test_dot_shapes():
    check_error(bad_dot, ("*fp32",), {}, "dot shapes [16, 32] and [16, 32] are not compatible",
                "tl.dot(a, b)")


@tc.jit
def failing_static_assert(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")


def test_static_assert():
    check_error(failing_static_assert, ("*i32",), {"BLOCK": 16},
                "static_assert failed: BLOCK must be a multiple of 32", "tl.static_assert")


@tc.jit
def chained_compare(x_ptr, n):
    tl.store(x_ptr, 0 < n < 4)


def test_chained_comparison():
    check_error(chained_compare, ("*i1", "i32"), {}, "chained comparisons", "0 < n < 4")


@tc.jit
def subscript_assign(x_ptr):
    a = tl.arange(0, 16)
    a[0] = 1


def test_assignment_to_subscript():
    check_error(subscript_assign, ("*i32",), {}, "assignment to a subscript", "a[0]")


def plain_python(v):
    return v + 1


@tc.jit
def calls_plain_python(x_ptr):
    tl.store(x_ptr, plain_python(tl.load(x_ptr)))


def test_calling_a_python_function_with_tensors():
    check_error(calls_plain_python, ("*i32",), {}, "cannot call 'plain_python' with tensor "
                "arguments", "plain_python(tl.load")


@tc.jit
def _helper_with_constexpr(x, N: tl.constexpr):
    return x + tl.arange(0, N)


@tc.jit
def passes_tensor_as_constexpr(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.sum(_helper_with_constexpr(x, x)))


def test_error_in_called_function_notes_the_call():
    """As in Triton, a tensor given for a tl.constexpr parameter of a called function is a
    tensor there; using it where a constexpr is needed is the error, noted at the call."""
    with pytest.raises(tc.CompilationError) as info:
        passes_tensor_as_constexpr.ttir("*i32")
    error = info.value
    assert "arange's arguments must be of type tl.constexpr" in error.message, error.message
    line, col, _ = _where(_helper_with_constexpr, "tl.arange(0, N)")
    assert (error.loc.line, error.loc.col) == (line, col)
    line, col, _ = _where(passes_tensor_as_constexpr, "_helper_with_constexpr(x, x)")
    assert error.notes and (error.notes[0][0].line, error.notes[0][0].col) == (line, col)


@tc.jit
def _offsets_helper(base, offs: tl.constexpr, N: tl.constexpr):
    return base + offs * N


@tc.jit
def tensor_for_constexpr_parameter(x_ptr, n):
    offs = tl.arange(0, 8)
    tl.store(x_ptr + offs, _offsets_helper(1, offs, n))


def test_tensor_for_a_constexpr_parameter_of_a_called_function():
    """Triton's fused-attention tutorial passes `offs_m` and the runtime `N_CTX` to
    parameters annotated tl.constexpr: they stay tensors."""
    text = tensor_for_constexpr_parameter.ttir("*i32", "i32")
    assert "tt.func private @offsets_helper_int32S8S_int32_base_1(%arg0: tensor<8xi32>, " \
        "%arg1: i32)" in text and "tt.call" in text


@tc.jit
def _inner_bad(x):
    return x + tl.arange(0, 32)


@tc.jit
def calls_inner_bad(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), _inner_bad(x))


def test_error_inside_a_called_function():
    error = check_error(_inner_bad_proxy, ("*i32",), {}, "cannot broadcast shapes [16] and "
                        "[32]", "x + tl.arange(0, 32)")
    line, col, _ = _where(calls_inner_bad, "_inner_bad(x)")
    assert error.notes and (error.notes[0][0].line, error.notes[0][0].col) == (line, col)
    assert "in the call of '_inner_bad' from here" in str(error)


class _Proxy:
    """Reports the source of `_inner_bad` (where the error is) but compiles `calls_inner_bad`."""

    fn = _inner_bad.fn

    @staticmethod
    def ttir(*args, **kwargs):
        return calls_inner_bad.ttir(*args, **kwargs)


_inner_bad_proxy = _Proxy()


def test_debug_mode_keeps_the_compiler_traceback(monkeypatch):
    monkeypatch.setenv("TILECRAFT_DEBUG", "1")
    with pytest.raises(ValueError, match="cannot broadcast shapes"):
        broadcast_mismatch.ttir("*i32")


def test_launch_reports_the_same_error(monkeypatch):
    import numpy as np

    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    x = np.zeros(128, np.int32)
    with pytest.raises(tc.CompilationError, match="cannot broadcast shapes"):
        broadcast_mismatch[(1,)](x)
