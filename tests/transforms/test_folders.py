"""The arith folders against the numpy evaluator: one op on constants (scalars, splats and
dense tensors) computes the same value folded by -canonicalize as evaluated; an op whose
evaluation is undefined (division by zero, big shifts, out-of-range conversions) is not folded.
Plus the helpers' exactness (integer to float rounding) and the comparison tables."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.dialects.foldutils import int_to_float, to_signed, wrap
from tilecraft.dialects.math import round_fraction
from tilecraft.ir import FloatAttr, FloatType, IntegerAttr, IntegerType, parse_module, parse_type
from tilecraft.transforms.canonicalize import canonicalize

from .evaluator import Undefined, evaluate, same_values

INT_OPS = ("addi", "subi", "muli", "divsi", "divui", "ceildivsi", "floordivsi", "remsi", "remui",
           "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui")
FLOAT_OPS = ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
             "minnumf")
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true")
CASTS = (
    ("extsi", "i8", "i32"), ("extui", "i8", "i32"), ("trunci", "i32", "i8"),
    ("trunci", "i64", "i16"), ("sitofp", "i32", "f32"), ("sitofp", "i64", "f16"),
    ("uitofp", "i8", "f32"), ("uitofp", "i64", "f64"), ("fptosi", "f32", "i32"),
    ("fptosi", "f64", "i8"), ("fptoui", "f32", "i8"), ("extf", "f16", "f32"),
    ("truncf", "f32", "f16"), ("truncf", "f64", "f32"), ("bitcast", "f32", "i32"),
    ("bitcast", "i32", "f32"), ("index_cast", "i32", "index"), ("index_cast", "index", "i8"),
)
SPECIAL = (0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, 65504.0, 1e30, -1e-30, 1e-45, math.inf,
           -math.inf, math.nan)


def width_of(element: str) -> int:
    return 64 if element == "index" else int(element[1:])


def ints(element: str):
    width = width_of(element)
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return st.one_of(st.sampled_from([0, 1, -1, 2, 7, low, high, low + 1, width, width - 1]),
                     st.integers(low, high))


def floats(element: str):
    bits = {"f16": 16, "f32": 32, "f64": 64}[element]
    return st.one_of(st.sampled_from(SPECIAL), st.floats(width=bits))


def constant(element: str, value, shape) -> str:
    """``arith.constant`` text for a scalar, or a tensor of ``value`` (a list: dense)."""
    type_ = parse_type(element)
    if not shape:
        attr = FloatAttr(value, type_) if isinstance(type_, FloatType) else IntegerAttr(value, type_)
        return f"arith.constant {attr}"
    elements = [FloatAttr(v, type_) if isinstance(type_, FloatType) else IntegerAttr(v, type_)
                for v in value]
    texts = []
    for attr in elements:
        texts.append(str(attr).rsplit(" : ", 1)[0])
    if all(t == texts[0] for t in texts):
        body = texts[0]
    else:
        body = "[" + ", ".join(texts) + "]"
    return f"arith.constant dense<{body}> : tensor<{shape[0]}x{element}>"


def type_text(element: str, shape) -> str:
    return f"tensor<{shape[0]}x{element}>" if shape else element


_NEVER_FOLDED_WHEN_UNDEFINED = {
    "arith.divui", "arith.remui", "arith.shli", "arith.shrsi", "arith.shrui", "arith.fptosi",
    "arith.fptoui",
}


def check_fold(lines: list[str], result_type: str, op_name: str) -> None:
    text = ("tt.func @f() -> " + result_type + " {\n" + "\n".join(lines)
            + f"\n  tt.return %r : {result_type}\n}}\n")
    module = parse_module(text)
    module.verify()
    try:
        expected = evaluate(module, "f", [])
    except Undefined:
        expected = None
    canonicalize(module)
    module.verify()
    func = module.regions[0].blocks[0].first_op
    ret = func.regions[0].blocks[0].last_op
    defining = ret.operands[0].defining_op
    if expected is None:
        # Undefined behaviour: any result is right, but a constant division by zero, an
        # overflowing division or shift, or an out-of-range conversion must not fold to a
        # constant (identities such as x / 1 may still apply).
        if defining is not None and defining.name == "arith.constant":
            assert op_name not in _NEVER_FOLDED_WHEN_UNDEFINED, f"undefined folded:\n{text}"
        return
    assert defining is not None and defining.name == "arith.constant", f"not folded:\n{text}"
    got = evaluate(module, "f", [])
    if op_name in ("arith.maxnumf", "arith.minnumf"):
        # the sign of a zero result is unspecified (LLVM's maxnum takes +0, numpy's fmax
        # either): compare zeros by value
        same = got[0].shape == expected[0].shape and bool(np.all(
            (got[0] == expected[0]) | (np.isnan(got[0]) & np.isnan(expected[0]))))
    else:
        same = same_values(got[0], expected[0])
    assert same, f"{text}\nfolded {got[0]!r}, expected {expected[0]!r}"


@st.composite
def operands(draw, element: str, count: int):
    shape = draw(st.sampled_from([(), (4,)]))
    values = floats(element) if element.startswith("f") else ints(element)
    result = []
    for _ in range(count):
        if shape:
            if draw(st.booleans()):
                result.append([draw(values)] * 4)
            else:
                result.append([draw(values) for _ in range(4)])
        else:
            result.append(draw(values))
    return shape, result


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(INT_OPS), st.sampled_from(["i1", "i8", "i32", "i64"]), st.data())
def test_int_binary_folds(op, element, data):
    shape, (a, b) = data.draw(operands(element, 2))
    type_ = type_text(element, shape)
    lines = [f"  %a = {constant(element, a, shape)}", f"  %b = {constant(element, b, shape)}",
             f"  %r = arith.{op} %a, %b : {type_}"]
    check_fold(lines, type_, f"arith.{op}")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FLOAT_OPS), st.sampled_from(["f16", "f32", "f64"]), st.data())
def test_float_binary_folds(op, element, data):
    shape, (a, b) = data.draw(operands(element, 2))
    type_ = type_text(element, shape)
    lines = [f"  %a = {constant(element, a, shape)}", f"  %b = {constant(element, b, shape)}",
             f"  %r = arith.{op} %a, %b : {type_}"]
    check_fold(lines, type_, f"arith.{op}")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CMPI), st.sampled_from(["i1", "i8", "i32"]), st.data())
def test_cmpi_folds(predicate, element, data):
    shape, (a, b) = data.draw(operands(element, 2))
    type_ = type_text(element, shape)
    lines = [f"  %a = {constant(element, a, shape)}", f"  %b = {constant(element, b, shape)}",
             f"  %r = arith.cmpi {predicate}, %a, %b : {type_}"]
    check_fold(lines, type_text("i1", shape), "arith.cmpi")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CMPF), st.sampled_from(["f16", "f32"]), st.data())
def test_cmpf_folds(predicate, element, data):
    shape, (a, b) = data.draw(operands(element, 2))
    type_ = type_text(element, shape)
    lines = [f"  %a = {constant(element, a, shape)}", f"  %b = {constant(element, b, shape)}",
             f"  %r = arith.cmpf {predicate}, %a, %b : {type_}"]
    check_fold(lines, type_text("i1", shape), "arith.cmpf")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CASTS), st.data())
def test_cast_folds(cast, data):
    op, source, target = cast
    shape, (a,) = data.draw(operands(source, 1))
    if target == "index" or source == "index":
        shape = ()
        a = a if not isinstance(a, list) else a[0]
    lines = [f"  %a = {constant(source, a, shape)}",
             f"  %r = arith.{op} %a : {type_text(source, shape)} to {type_text(target, shape)}"]
    check_fold(lines, type_text(target, shape), f"arith.{op}")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["i8", "f32"]), st.data())
def test_select_folds(element, data):
    shape, (a, b) = data.draw(operands(element, 2))
    condition = data.draw(st.lists(st.booleans(), min_size=4, max_size=4)) if shape else \
        data.draw(st.booleans())
    type_ = type_text(element, shape)
    if shape:
        cond_text = "[" + ", ".join("true" if c else "false" for c in condition) + "]"
        cond_line = f"  %c = arith.constant dense<{cond_text}> : tensor<4xi1>"
        select = f"  %r = arith.select %c, %a, %b : tensor<4xi1>, {type_}"
    else:
        cond_line = f"  %c = arith.constant {'true' if condition else 'false'}"
        select = f"  %r = arith.select %c, %a, %b : {type_}"
    lines = [cond_line, f"  %a = {constant(element, a, shape)}",
             f"  %b = {constant(element, b, shape)}", select]
    check_fold(lines, type_, "arith.select")


# -- helpers ---------------------------------------------------------------------------------------


@given(st.integers(-(1 << 70), 1 << 70), st.sampled_from(["f16", "bf16", "f32", "f64"]))
def test_int_to_float_rounds_once(value, kind):
    """Integer to float conversion rounds the exact integer (no double rounding)."""
    type_ = FloatType(kind)
    got = int_to_float(value, type_)
    assert got == round_fraction(Fraction(value), type_)
    if kind == "f32":
        assert got == float(np.float32(value)) or abs(value) > 2**64


def test_int_to_float_tie_to_even():
    f32 = FloatType("f32")
    assert int_to_float(16777217, f32) == 16777216.0  # halfway: to even
    assert int_to_float(16777219, f32) == 16777220.0
    assert int_to_float((1 << 128) - 1, f32) == math.inf


@given(st.integers(-(1 << 40), 1 << 40), st.integers(1, 64))
def test_wrap_is_twos_complement(value, width):
    wrapped = wrap(value, width)
    assert -(1 << (width - 1)) <= wrapped < (1 << (width - 1))
    assert (wrapped - value) % (1 << width) == 0
    assert to_signed(wrapped, width) == wrapped


def test_round_fraction_subnormals():
    f16 = FloatType("f16")
    smallest = 2.0 ** -24
    assert round_fraction(Fraction(smallest) / 2, f16) == 0.0  # halfway to even (zero)
    assert round_fraction(Fraction(smallest) * 3 / 4, f16) == smallest
    assert round_fraction(Fraction(70000), f16) == math.inf


@pytest.mark.parametrize("kind, value, bits", [("f32", 1.0, 0x3F800000), ("f16", -2.0, 0xC000)])
def test_bitcast_constant(kind, value, bits):
    width = 32 if kind == "f32" else 16
    text = (f"tt.func @f() -> i{width} {{\n  %a = arith.constant {FloatAttr(value, FloatType(kind))}"
            f"\n  %r = arith.bitcast %a : {kind} to i{width}\n  tt.return %r : i{width}\n}}\n")
    module = parse_module(text)
    canonicalize(module)
    ret = module.regions[0].blocks[0].first_op.regions[0].blocks[0].last_op
    assert ret.operands[0].defining_op.get_attr("value") == IntegerAttr(bits, IntegerType(width))
