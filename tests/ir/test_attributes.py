"""Builtin and dialect attributes: interning, text, parsing."""

import math

import pytest

from tilecraft.ir import (
    ArrayAttr, BoolAttr, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FloatAttr, FloatType,
    IntegerAttr, IntegerType, OpaqueAttr, ParseError, RankedTensorType, StringAttr,
    SymbolRefAttr, TypeAttr, UNSIGNED, UnitAttr, bf16, f16, f32, f64, i1, i8, i32, i64, index,
    parse_attribute,
)
from tilecraft.ir.parser import Parser

from .testdialect import FlagAttr, LayoutAttr, PtrType, SliceAttr


def test_attributes_are_interned():
    assert IntegerAttr(4, i32) is IntegerAttr(4, i32)
    assert IntegerAttr(4) is IntegerAttr(4, i64)
    assert IntegerAttr(255, i8) is IntegerAttr(-1, i8)
    assert IntegerAttr(1, i1) is BoolAttr(True)
    assert isinstance(IntegerAttr(0, i1), BoolAttr) and IntegerAttr(0, i1).value is False
    assert FloatAttr(0.1, f32) is FloatAttr(float(FloatAttr(0.1, f32).value), f32)
    assert FloatAttr(0.0) is not FloatAttr(-0.0)
    assert FloatAttr(math.nan, f32) is FloatAttr(math.nan, f32)
    assert StringAttr("a") is StringAttr("a")
    assert ArrayAttr([StringAttr("a")]) is ArrayAttr((StringAttr("a"),))
    assert DictionaryAttr({"b": UnitAttr(), "a": i32_attr(1)}) is DictionaryAttr({"a": i32_attr(1), "b": UnitAttr()})
    assert SymbolRefAttr("a", ["b"]) is SymbolRefAttr("a", ("b",))
    assert LayoutAttr([1, 0], 4) is LayoutAttr((1, 0), 4)
    assert LayoutAttr((1, 0), 4).order == (1, 0) and LayoutAttr((1, 0), 4).replace(warps=8).warps == 8


def i32_attr(value):
    return IntegerAttr(value, i32)


def test_integer_attributes():
    assert str(IntegerAttr(4, i32)) == "4 : i32"
    assert str(IntegerAttr(4)) == "4 : i64", "MLIR prints the type of a lone i64"
    assert str(ArrayAttr([IntegerAttr(4), IntegerAttr(5, i32)])) == "[4, 5 : i32]", \
        "array elements elide i64 as MLIR does"
    assert parse_attribute("4") is IntegerAttr(4)
    assert str(IntegerAttr(-3, index)) == "-3 : index"
    assert str(IntegerAttr(200, IntegerType(8, UNSIGNED))) == "200 : ui8"
    assert str(BoolAttr(False)) == "false"
    with pytest.raises(ValueError):
        IntegerAttr(256, i8)
    with pytest.raises(ValueError):
        IntegerAttr(-1, IntegerType(8, UNSIGNED))
    with pytest.raises(TypeError):
        IntegerAttr(1.5, i32)
    with pytest.raises(TypeError):
        IntegerAttr(1, f32)


@pytest.mark.parametrize("value,type_,text", [
    (1.0, f32, "1.000000e+00 : f32"),
    (1.0, f64, "1.000000e+00 : f64"),
    (-0.0, f32, "-0.000000e+00 : f32"),
    (0.1, f32, "1.000000e-01 : f32"),
    (0.1, f64, "1.000000e-01 : f64"),
    (math.pi, f64, "3.141592653589793e+00 : f64"),
    (math.pi, f32, "3.1415927e+00 : f32"),
    (1e300, f64, "1.000000e+300 : f64"),
    (math.nan, f32, "0x7FC00000 : f32"),
    (math.inf, f32, "0x7F800000 : f32"),
    (-math.inf, f64, "0xFFF0000000000000 : f64"),
    (math.nan, f16, "0x7E00 : f16"),
    (2.5, bf16, "2.500000e+00 : bf16"),
    (448.0, FloatType("f8E4M3FN"), "4.480000e+02 : f8E4M3FN"),
    (1000.0, FloatType("f8E4M3FN"), "0x7F : f8E4M3FN"),
    (math.nan, FloatType("f8E5M2FNUZ"), "0x80 : f8E5M2FNUZ"),
])
def test_float_attributes_print_like_mlir_and_round_trip(value, type_, text):
    attr = FloatAttr(value, type_)
    assert str(attr) == text
    assert parse_attribute(text) is attr


def test_float_values_are_rounded_to_their_type():
    assert FloatAttr(0.1, f32).value == 0.10000000149011612
    assert FloatAttr(1.0 + 2 ** -9, bf16).value == 1.0
    assert FloatAttr(65520.0, f16).value == math.inf
    assert FloatAttr.from_bits(0x3C00, f16).value == 1.0
    assert parse_attribute("0x3F800000 : f32") is FloatAttr(1.0, f32)


def test_strings_escape_like_mlir():
    attr = StringAttr('a"b\\c\n\tü')
    assert str(attr) == r'"a\22b\5Cc\0A\09\C3\BC"'
    assert parse_attribute(str(attr)) is attr
    assert parse_attribute(r'"q\"\\\n\t"') is StringAttr('q"\\\n\t')


@pytest.mark.parametrize("text", [
    "4 : i32", "-7 : i16", "4 : i64", "true", "false", "1 : index", "200 : ui8", "-5 : si8",
    '"hello"', '""', "unit", "@sym", "@a::@b::@c", '@"with space"::@x',
    "[]", "[1, 2 : i32, [true, \"s\"]]",
    "{}", '{a, b = [], tt.divisibility = 16 : i32, "ttg.num-warps" = 4 : i32}',
    "dense<1.000000e+00> : tensor<4xf32>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
    "dense<[true, false]> : tensor<2xi1>", "dense<0x7FC00000> : tensor<2xf32>",
    "dense<[1.500000e+00, 0xFF800000]> : tensor<2xf32>", "dense<5> : tensor<i64>",
    "dense<> : tensor<0xi32>", "dense<-1> : tensor<3xi8>",
    "array<i32: 1, 2, 3>", "array<i64>", "array<i1: true, false>", "array<f32: 1.000000e+00, 2.500000e-01>",
    "i32", "tensor<4xf32>", "(i32) -> ()", "!tst.ptr<f32>",
    "#tst.layout<{order = [1, 0], warps = 4}>", "#tst.flag",
    "#tst.slice<0, #tst.layout<{order = [0], warps = 2}>>",
    "2.500000e-01 : f16", "1.000000e+00 : f64",
])
def test_attribute_text_round_trips(text):
    attr = parse_attribute(text)
    assert str(attr) == text
    assert parse_attribute(str(attr)) is attr


def test_dictionary_keys_are_sorted_and_quoted_when_needed():
    attr = DictionaryAttr({"z": UnitAttr(), "ttg.num-warps": IntegerAttr(4, i32), "a.b": StringAttr("x")})
    assert str(attr) == '{a.b = "x", "ttg.num-warps" = 4 : i32, z}'
    assert list(attr) == ["a.b", "ttg.num-warps", "z"]
    assert attr["z"] is UnitAttr() and "z" in attr and attr.get("q") is None and len(attr) == 3


def test_dense_elements():
    t = RankedTensorType([2, 3], i32)
    attr = DenseElementsAttr(t, [[1, 2, 3], [4, 5, 6]])
    assert attr.values == (1, 2, 3, 4, 5, 6) and not attr.is_splat
    assert str(attr) == "dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>"
    splat = DenseElementsAttr(t, [7] * 6)
    assert splat is DenseElementsAttr(t, 7) and splat.is_splat and splat.splat_value == 7
    assert str(splat) == "dense<7> : tensor<2x3xi32>"
    floats = DenseElementsAttr(RankedTensorType([2], f32), [0.1, -0.0])
    assert floats.values == (FloatAttr(0.1, f32).value, -0.0)
    assert DenseElementsAttr(RankedTensorType([2], f32), [0.0, -0.0]) is not DenseElementsAttr(RankedTensorType([2], f32), 0.0)
    with pytest.raises(ValueError):
        DenseElementsAttr(t, [1, 2])
    with pytest.raises(TypeError):
        DenseElementsAttr(RankedTensorType([None], i32), [1])


def test_dense_arrays():
    attr = DenseArrayAttr(i32, [1, 0])
    assert list(attr) == [1, 0] and attr[1] == 0 and len(attr) == 2
    assert str(attr) == "array<i32: 1, 0>"
    assert str(DenseArrayAttr(i1, [1, 0])) == "array<i1: true, false>"


def test_type_attributes_and_symbols():
    assert TypeAttr(i32).value is i32 and str(TypeAttr(i32)) == "i32"
    assert SymbolRefAttr("f").leaf == "f" and SymbolRefAttr("a", ["b", "c"]).leaf == "c"
    assert str(SymbolRefAttr("my-func")) == '@"my-func"'


def test_dialect_attributes_with_default_syntax():
    attr = SliceAttr(1, LayoutAttr((0, 1), 8))
    assert attr.dim == 1 and attr.parent is LayoutAttr((0, 1), 8)
    assert str(attr) == "#tst.slice<1, #tst.layout<{order = [0, 1], warps = 8}>>"
    assert str(FlagAttr()) == "#tst.flag" and FlagAttr() is FlagAttr()
    assert parse_attribute("#tst.slice<[1, \"x\", true], i32>") is SliceAttr((1, "x", True), TypeAttr(i32).value)
    assert str(PtrType(f32)) == "!tst.ptr<f32>"
    with pytest.raises(TypeError, match="missing parameter 'parent'"):
        SliceAttr(1)
    with pytest.raises(TypeError, match="has no parameter 'x'"):
        SliceAttr(1, 2, x=3)


def test_unregistered_dialect_attributes_are_opaque_when_allowed():
    text = "#nodialect.blocked<{sizePerThread = [1, 4], order = [1, 0]}>"
    attr = Parser(text, allow_unregistered=True).parse_attribute()
    assert attr is OpaqueAttr("nodialect", "blocked<{sizePerThread = [1, 4], order = [1, 0]}>")
    assert str(attr) == text
    with pytest.raises(ParseError, match="unregistered dialect 'nodialect' in attribute"):
        parse_attribute(text)


def test_typed_literal_rules():
    assert parse_attribute("0x10 : i32") is IntegerAttr(16, i32)
    assert Parser("3").parse_attribute(type=i8) is IntegerAttr(3, i8)
    with pytest.raises(ParseError, match="unexpected decimal integer literal for a floating point value"):
        parse_attribute("1 : f32")
    with pytest.raises(ParseError, match="floating point value not valid for specified type"):
        parse_attribute("1.5 : i32")
    with pytest.raises(ParseError, match="integer constant out of range for attribute"):
        parse_attribute("300 : i8")
    with pytest.raises(ParseError, match="hexadecimal float constant out of range"):
        parse_attribute("0x1FFFF : f16")
    with pytest.raises(ParseError, match=r"inferred shape of elements literal \(\[3\]\) does not match type \(\[2\]\)"):
        parse_attribute("dense<[1, 2, 3]> : tensor<2xi32>")
    with pytest.raises(ParseError, match="ranks are not consistent"):
        parse_attribute("dense<[[1], 2]> : tensor<2x1xi32>")
