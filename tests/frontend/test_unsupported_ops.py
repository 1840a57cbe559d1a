"""An op that the frontend or the interpreter does not know is an error that names the op and
what to declare in its `.td` file, at the kernel's line, never a raw KeyError."""

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


def test_frontend_names_the_op_and_what_to_declare(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delitem(ir_builder.OPS, "atan2")
    with pytest.raises(tc.CompilationError) as info:
        atan2_kernel.ttir("*fp32", "*fp32", BLOCK=8)
    error = info.value
    assert error.message == (
        "the frontend has no binary op 'atan2' (declare languageName = \"atan2\" and "
        "languageKind = \"binary\" on its op in defs/)")
    assert error.loc.file == __file__
    assert str(error).splitlines()[1].strip() == "tl.store(y_ptr + offs, tl.math.atan2(x, x))"


@pytest.mark.parametrize("kind, name", [
    ("binary", "fancy_add"), ("unary", "fancy_neg"), ("cast", "fancy_cast")])
def test_frontend_lookups(kind: str, name: str):
    with pytest.raises(UnsupportedOpError, match=f"the frontend has no {kind} op '{name}' "
                                                 f"\\(declare languageName = \"{name}\" and "
                                                 f"languageKind = \"{kind}\" on its op in "):
        ir_builder.language_op(kind, name)
    assert ir_builder.language_op_name("binary", "atan2") == "math.atan2"
    assert ir_builder.language_op_name("unary", "atan2") is None
    assert ir_builder.language_op_name("binary", "fancy_add") is None


def test_frontend_checks_the_declared_kind():
    with pytest.raises(UnsupportedOpError) as info:
        ir_builder.language_op("unary", "atan2")
    assert str(info.value) == ("the language builds 'math.atan2' as a unary op, but "
                               "defs/math.td declares languageKind = \"binary\"")


def test_interpreter_names_the_op_and_its_td_file(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
    monkeypatch.delitem(interpreter.SEMANTICS, "atan2")
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    with pytest.raises(tc.InterpreterError) as info:
        atan2_kernel[(1,)](x, np.empty_like(x), BLOCK=8)
    assert info.value.message == (
        "the interpreter has no semantics for 'math.atan2' (declare interpreterImpl in "
        "defs/math.td)")
    assert "tl.math.atan2(x, x)" in str(info.value)
    assert "Traceback" not in str(info.value)


@pytest.mark.parametrize("kind, name, message", [
    ("binary", "fancy_add", "the interpreter has no semantics for the language's binary op "
                            "'fancy_add' (declare languageName = \"fancy_add\" and "
                            "interpreterImpl on its op in defs/)"),
    ("unary", "ceildivsi", "the interpreter has no semantics for 'arith.ceildivsi' (declare "
                           "interpreterImpl in defs/arith.td)"),
    ("cmpi", "xlt", "the interpreter has no semantics for 'arith.cmpi xlt' (add the predicate "
                    "to _CMPI in runtime/interpreter.py)"),
])
def test_interpreter_lookups(kind: str, name: str, message: str):
    with pytest.raises(UnsupportedOpError) as info:
        interpreter._semantics(kind, name)
    assert str(info.value) == message


def test_interpreter_type_table():
    with pytest.raises(UnsupportedOpError, match="the interpreter has no numpy type for "
                                                 "'fp4' \\(add it to _COMPUTE in "):
        interpreter._compute_type("fp4")
