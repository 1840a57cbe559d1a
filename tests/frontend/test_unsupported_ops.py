"""An op that a table of the frontend or the interpreter lacks is an error that names the op and
the table to extend, at the kernel's line, never a raw KeyError."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.frontend import ir_builder
from tilecraft.frontend.errors import UnsupportedOpError
from tilecraft.runtime import interpreter


@tc.jit
def atan2_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.math.atan2(x, x))


def test_frontend_names_the_op_and_its_table(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delitem(ir_builder._BINARY, "atan2")
    with pytest.raises(tc.CompilationError) as info:
        atan2_kernel.ttir("*fp32", "*fp32", BLOCK=8)
    error = info.value
    assert error.message == (
        "the frontend has no binary op 'atan2' (add it to _BINARY in "
        "tilecraft/frontend/ir_builder.py, which maps the language's names to IR ops)")
    assert error.loc.file == __file__
    assert str(error).splitlines()[1].strip() == "tl.store(y_ptr + offs, tl.math.atan2(x, x))"


@pytest.mark.parametrize("kind, name, table", [
    ("binary", "fancy_add", "_BINARY"), ("unary", "fancy_neg", "_UNARY"),
    ("cast", "fancy_cast", "_CASTS")])
def test_frontend_tables(kind: str, name: str, table: str):
    with pytest.raises(UnsupportedOpError, match=f"the frontend has no {kind} op '{name}' "
                                                 f"\\(add it to {table} in "):
        ir_builder.language_op(kind, name)
    assert ir_builder.language_op_name("binary", "atan2") == "math.atan2"
    assert ir_builder.language_op_name("binary", "fancy_add") is None


def test_interpreter_names_the_op_and_its_table(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
    monkeypatch.delitem(interpreter._BINARY, "atan2")
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    with pytest.raises(tc.InterpreterError) as info:
        atan2_kernel[(1,)](x, np.empty_like(x), BLOCK=8)
    assert info.value.message == (
        "the interpreter has no semantics for 'math.atan2' (the language's binary op 'atan2': "
        "add it to _BINARY in runtime/interpreter.py)")
    assert "tl.math.atan2(x, x)" in str(info.value)
    assert "Traceback" not in str(info.value)


@pytest.mark.parametrize("kind, name, message", [
    ("binary", "fancy_add", "the interpreter has no semantics for 'fancy_add' (the language's "
                            "binary op 'fancy_add': add it to _BINARY in runtime/interpreter.py)"),
    ("unary", "fancy_neg", "the interpreter has no semantics for 'fancy_neg' (the language's "
                           "unary op 'fancy_neg': add it to _UNARY in runtime/interpreter.py)"),
    ("cmpi", "xlt", "the interpreter has no semantics for 'arith.cmpi xlt' (the language's cmpi "
                    "op 'xlt': add it to _CMPI in runtime/interpreter.py)"),
])
def test_interpreter_tables(kind: str, name: str, message: str):
    with pytest.raises(UnsupportedOpError) as info:
        interpreter._semantics(kind, name)
    assert str(info.value) == message


def test_interpreter_type_table():
    with pytest.raises(UnsupportedOpError, match="the interpreter has no numpy type for "
                                                 "'fp4' \\(add it to _COMPUTE in "):
        interpreter._compute_type("fp4")
