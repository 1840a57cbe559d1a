"""Builtin and dialect types: interning, text, parsing, predicates."""

import pickle

import pytest

from tilecraft.ir import (
    DYNAMIC, FLOAT_KINDS, FloatType, FunctionType, IndexType, IntegerType, NoneType, OpaqueType,
    ParseError, RankedTensorType, SIGNED, UNSIGNED, element_type_of, encoding_of, f16, f32, i1,
    i32, i64, index, parse_type, shape_of,
)
from tilecraft.ir.parser import Parser

from .testdialect import LayoutAttr, PtrType, TokenType


def test_types_are_interned():
    assert IntegerType(32) is i32
    assert IntegerType(8, SIGNED) is IntegerType(8, "signed")
    assert IntegerType(8, SIGNED) is not IntegerType(8)
    assert FloatType("f32") is f32
    assert IndexType() is index and NoneType() is NoneType()
    assert RankedTensorType([4, None], f32) is RankedTensorType((4, DYNAMIC), f32)
    assert FunctionType([i32], [f32]) is FunctionType((i32,), (f32,))
    assert PtrType(f32) is PtrType(pointee=f32)
    assert {i32: 1}[IntegerType(32)] == 1


def test_types_are_immutable():
    with pytest.raises(AttributeError):
        i32.width = 64
    assert pickle.loads(pickle.dumps(RankedTensorType([2], f16))) is RankedTensorType([2], f16)


@pytest.mark.parametrize("text", [
    "i1", "i32", "i64", "i7", "si32", "ui8", "index", "none",
    *FLOAT_KINDS,
    "tensor<4x?x8xf32>", "tensor<f32>", "tensor<1xi1>", "tensor<0xf32>", "tensor<2x0x3xbf16>",
    "tensor<128x64xf16, #tst.layout<{order = [1, 0], warps = 4}>>",
    "(i32, f32) -> i64", "() -> ()", "(i32) -> (i32, i32)", "(i32) -> ((i32) -> i32)",
    "!tst.ptr<f32>", "!tst.ptr<tensor<4xi32>>", "!tst.token", "tensor<4x!tst.ptr<f16>>",
])
def test_type_text_round_trips(text):
    t = parse_type(text)
    assert str(t) == text
    assert parse_type(str(t)) is t


def test_type_structure():
    t = parse_type("tensor<4x?x8xf32, #tst.layout<{order = [1, 0], warps = 4}>>")
    assert t.shape == (4, DYNAMIC, 8) and t.element_type is f32 and t.rank == 3
    assert t.encoding is LayoutAttr((1, 0), 4)
    assert not t.has_static_shape()
    assert parse_type("tensor<2x3xf32>").num_elements == 6
    assert parse_type("ui16") is IntegerType(16, UNSIGNED)
    assert parse_type("tf32").width == 19
    assert parse_type("!tst.ptr<i32>").pointee is i32
    assert TokenType() is parse_type("!tst.token")


def test_predicates():
    assert i32.is_integer() and i32.is_integer(32) and not i32.is_integer(64)
    assert i32.is_signless_integer(32) and not IntegerType(32, SIGNED).is_signless_integer()
    assert IntegerType(32, SIGNED).is_signed_integer(32)
    assert IntegerType(8, UNSIGNED).is_unsigned_integer() and IntegerType(8, UNSIGNED).is_integer(8)
    assert f16.is_float() and f16.is_float(16) and not f16.is_float(32) and not f16.is_integer()
    assert FloatType("f8E4M3FN").is_float(8)
    assert index.is_index() and not i64.is_index()
    tensor = RankedTensorType([4], f32)
    assert tensor.is_tensor() and not f32.is_tensor() and not tensor.is_float()


def test_shape_helpers_treat_scalars_as_shapeless():
    enc = LayoutAttr((0,), 1)
    tensor = RankedTensorType([4, 2], i1, enc)
    assert shape_of(tensor) == (4, 2) and shape_of(i32) is None
    assert shape_of(RankedTensorType([], f32)) == ()
    assert element_type_of(tensor) is i1 and element_type_of(f32) is f32
    assert encoding_of(tensor) is enc and encoding_of(i32) is None
    assert encoding_of(RankedTensorType([4], f32)) is None


def test_invalid_types_are_rejected():
    with pytest.raises(ValueError):
        IntegerType(0)
    with pytest.raises(ValueError):
        IntegerType(32, "weird")
    with pytest.raises(ValueError):
        FloatType("f12")
    with pytest.raises(TypeError):
        RankedTensorType([4], "f32")


def test_unregistered_dialect_types_are_opaque_when_allowed():
    parser = Parser("!foo.bar<1x2, {a = [3]}>", allow_unregistered=True)
    t = parser.parse_type()
    assert t is OpaqueType("foo", "bar<1x2, {a = [3]}>")
    assert str(t) == "!foo.bar<1x2, {a = [3]}>"
    assert str(Parser("!foo.baz", allow_unregistered=True).parse_type()) == "!foo.baz"
    with pytest.raises(ParseError, match="unregistered dialect 'foo' in type '!foo.bar'"):
        parse_type("!foo.bar<1>")
    with pytest.raises(ParseError, match="unknown type 'nope' in dialect 'tst'"):
        parse_type("!tst.nope")
