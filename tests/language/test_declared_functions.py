"""The element-wise functions `.td` declares reach the language, the frontend and the
interpreter through the generated tables, with no hand-written list in between."""

from __future__ import annotations

import re

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.generated.interpreter import SEMANTICS
from tilecraft.generated.language import OPS, TL_FUNCTIONS
from tilecraft.language import elementwise


def test_every_declared_function_is_in_the_language() -> None:
    assert {spec.name for spec in TL_FUNCTIONS} >= {"exp", "atan2", "sqrt_rn", "isnan", "clz"}
    for spec in TL_FUNCTIONS:
        assert getattr(tl.math, spec.name) is elementwise.FUNCTIONS[spec.name]
        if spec.top_level:
            assert getattr(tl, spec.name) is elementwise.FUNCTIONS[spec.name]
            assert getattr(tl.tensor, spec.name) is elementwise.FUNCTIONS[spec.name]
        else:
            assert not hasattr(tl, spec.name) or spec.name in ("max", "min"), spec.name


def test_every_declared_function_builds_an_op_the_interpreter_runs() -> None:
    for spec in TL_FUNCTIONS:
        entry = OPS[spec.language_name]
        assert spec.signature.split("_")[-1] == entry.kind or (
            spec.signature in ("int_unary", "float_classify") and entry.kind == "unary")
        assert spec.language_name in SEMANTICS, entry.op


@tc.jit
def _sqrt_rn_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.sqrt_rn(tl.load(x_ptr + offs)))


@tc.jit
def _clz_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.math.clz(tl.load(x_ptr + offs)))


@pytest.mark.parametrize("kernel, good, bad, message", [
    (_sqrt_rn_kernel, "*fp32", "*fp16", "expected dtype ['fp32'] but got fp16"),
    (_clz_kernel, "*i32", "*fp32", "clz expects an integer tensor, got fp32"),
])
def test_declared_signatures_are_checked(kernel, good: str, bad: str, message: str) -> None:
    assert "tt.func" in kernel.ttir(good, BLOCK=8)
    with pytest.raises(tc.CompilationError, match=re.escape(message)):
        kernel.ttir(bad, BLOCK=8)
