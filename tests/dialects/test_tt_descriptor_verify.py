"""Verifiers of tt.unsplat, tt.gather, tt.histogram's mask, tt.dot_scaled and the tensor descriptor ops
(Triton's messages), and the parsing of `!tt.tensordesc`, `ub` and `llvm` types."""

from __future__ import annotations

import pytest

from tilecraft.ir import parse_type

from .helpers import func, parse_error, verifies, verify_error


def check(body: str, args: str) -> str:
    """The verifier's message for ``body`` in a function of ``args``."""
    return verify_error(func(body + "\n  tt.return", args))


def ok(body: str, args: str) -> None:
    verifies(func(body + "\n  tt.return", args))


# -- !tt.tensordesc


def test_tensordesc_round_trips_with_and_without_layout():
    for text in ("!tt.tensordesc<32xbf16>", "!tt.tensordesc<4x16xui8>",
                 "!tt.tensordesc<64x8xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 32, "
                 "transposed = true, elementBitWidth = 32}>>"):
        assert str(parse_type(text)) == text


def test_tensordesc_must_not_wrap_a_tensor():
    text = func("  tt.return", "%d: !tt.tensordesc<tensor<4x4xf16>>")
    assert parse_error(text) == ("tensor descriptors must not wrap tensor types; use "
                                 "!tt.tensordesc<shape x element-type[, layout]> instead")


# -- tt.unsplat


def test_unsplat_needs_one_element():
    assert check("  %0 = tt.unsplat %t : tensor<2xf32>", "%t: tensor<2xf32>") == (
        "'tt.unsplat' op source tensor must have exactly one element")


# -- tt.gather

GATHER_ARGS = "%s: tensor<32x8xf16>, %i: tensor<64x8xi32>, %j: tensor<64x2xi32>, %v: tensor<32xf16>"


@pytest.mark.parametrize("op, message", [
    ("tt.gather %s[%i] {axis = 0 : i32} : (tensor<32x8xf16>, tensor<64x8xi32>) -> "
     "tensor<64x4xf16>", "indices and output shapes must match"),
    ("tt.gather %s[%i] {axis = 0 : i32} : (tensor<32x8xf16>, tensor<64x8xi32>) -> "
     "tensor<64x8xf32>", "input and output element types must match"),
    ("tt.gather %v[%i] {axis = 0 : i32} : (tensor<32xf16>, tensor<64x8xi32>) -> "
     "tensor<64x8xf16>", "input and indices ranks must match"),
    ("tt.gather %s[%i] {axis = 2 : i32} : (tensor<32x8xf16>, tensor<64x8xi32>) -> "
     "tensor<64x8xf16>", "gather dimension must be less than the input rank"),
    ("tt.gather %s[%j] {axis = 0 : i32} : (tensor<32x8xf16>, tensor<64x2xi32>) -> "
     "tensor<64x2xf16>", "indices dimension 1 must match the corresponding input dimension"),
])
def test_gather_rules(op, message):
    assert check(f"  %0 = {op}", GATHER_ARGS) == f"'tt.gather' op {message}"


def test_gather_encodings_must_match():
    blocked = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
               "warpsPerCTA = [4, 1], order = [0, 1]}>")
    other = blocked.replace("order = [0, 1]", "order = [1, 0]")
    text = (f"#a = {blocked}\n#b = {other}\n"
            'module attributes {"ttg.num-warps" = 4 : i32} {\n' + func(
                "  %0 = tt.gather %s[%i] {axis = 1 : i32} : (tensor<32x8xf16, #a>, "
                "tensor<32x4xi32, #a>) -> tensor<32x4xf16, #b>\n  tt.return",
                "%s: tensor<32x8xf16, #a>, %i: tensor<32x4xi32, #a>") + "}\n")
    assert verify_error(text) == "'tt.gather' op indices and output encodings must match"


# -- tt.histogram


def test_histogram_mask_has_the_source_shape():
    text = func("  %0 = tt.histogram %x, %m : tensor<64xi32> -> tensor<4xi32>\n  tt.return",
                "%x: tensor<64xi32>, %m: tensor<32xi1>")
    assert "expects different type than prior uses" in parse_error(text)


# -- tt.dot_scaled

DOT_ARGS = ("%a: tensor<64x64xf8E5M2>, %b: tensor<64x32xf8E5M2>, %c: tensor<64x32xf32>, "
            "%a4: tensor<64x32xi8>, %a4m: tensor<32x64xi8>, %s2: tensor<64x2xi8>, "
            "%s4: tensor<64x4xi8>, %sn: tensor<32x2xi8>, %s1: tensor<64x1xi8>")


def dot(operands: str, types: str, attrs: str = "") -> str:
    return check(f"  %0 = tt.dot_scaled {operands} {{fastMath = false{attrs}}} : {types} -> "
                 "tensor<64x32xf32>", DOT_ARGS)


def test_dot_scaled_accepts_packed_fp4():
    ok("  %0 = tt.dot_scaled %a4 scale %s2, %b, %c lhs = e2m1 rhs = e5m2 {fastMath = false} : "
       "tensor<64x32xi8>, tensor<64x2xi8> * tensor<64x32xf8E5M2> -> tensor<64x32xf32>\n"
       "  %1 = tt.dot_scaled %a4m, %b, %c lhs = e2m1 rhs = e5m2 {fastMath = false, "
       "lhs_k_pack = false} : tensor<32x64xi8> * tensor<64x32xf8E5M2> -> tensor<64x32xf32>",
       DOT_ARGS)


def test_dot_scaled_k_of_packed_operand():
    assert dot("%a4, %b, %c lhs = e4m3 rhs = e5m2",
               "tensor<64x32xi8> * tensor<64x32xf8E5M2>") == (
        "'tt.dot_scaled' op expected the last dimension of the first operand to be equal to "
        "the second-to-last dimension of the second operand")


def test_dot_scaled_output_shape():
    assert dot("%a4m, %b, %c lhs = e4m3 rhs = e5m2", "tensor<32x64xi8> * tensor<64x32xf8E5M2>") \
        == ("'tt.dot_scaled' op expected the output shape to be the concatenation of the last "
            "dimension of the first operand and the last dimension of the second")


def test_dot_scaled_scale_factor():
    assert dot("%a scale %s1, %b, %c lhs = e5m2 rhs = e5m2",
               "tensor<64x64xf8E5M2>, tensor<64x1xi8> * tensor<64x32xf8E5M2>") == (
        "'tt.dot_scaled' op scale factor must be 16 or 32. Got 64")


def test_dot_scaled_same_scale_factor():
    assert dot("%a scale %s4, %b scale %sn, %c lhs = e5m2 rhs = e5m2",
               "tensor<64x64xf8E5M2>, tensor<64x4xi8> * tensor<64x32xf8E5M2>, tensor<32x2xi8>") \
        == "'tt.dot_scaled' op Operands must have the same scale factor; (lhs: 16 vs rhs: 32)"


def test_dot_scaled_scale_rows():
    assert dot("%a, %b scale %s2, %c lhs = e5m2 rhs = e5m2",
               "tensor<64x64xf8E5M2> * tensor<64x32xf8E5M2>, tensor<64x2xi8>") == (
        "'tt.dot_scaled' op scales N dimension must match the operand N dimension")


# -- descriptor loads, stores, gathers and scatters

DESC_ARGS = ("%d: !tt.tensordesc<16x8xf32>, %r: !tt.tensordesc<1x64xbf16>, "
             "%w: !tt.tensordesc<1x64xf64>, %u: !tt.tensordesc<16x8xui32>, %i: i32, "
             "%x: tensor<16x8xf32>, %y: tensor<16x8xi32>, %rows: tensor<16xi32>, "
             "%rows2: tensor<2x8xi32>")


def test_descriptor_load_reshapes_and_drops_signedness():
    ok("  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<16x8xf32> -> tensor<128xf32>\n"
       "  %1 = tt.descriptor_load %u[%i, %i] : !tt.tensordesc<16x8xui32> -> tensor<16x8xi32>",
       DESC_ARGS)


def test_descriptor_load_element_type():
    assert check("  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<16x8xf32> -> "
                 "tensor<16x8xf16>", DESC_ARGS) == (
        "'tt.descriptor_load' op descriptor block and tensor element types must match, but got "
        "descriptor element type 'f32' and tensor element type 'f16'")


def test_descriptor_store_element_count():
    assert check("  tt.descriptor_store %d[%i, %i], %y : !tt.tensordesc<16x8xf32>, "
                 "tensor<16x8xi32>", DESC_ARGS).startswith(
        "'tt.descriptor_store' op descriptor block and tensor element types must match")
    assert check("  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<16x8xf32> -> "
                 "tensor<16xf32>", DESC_ARGS) == (
        "'tt.descriptor_load' op descriptor block and tensor must have the same number of "
        "elements, but got descriptor block with 128 elements tensor with 16 elements")


@pytest.mark.parametrize("desc, offsets, result, message", [
    ("%d", "%rows", "tensor<16x8xf32>",
     "descriptor block must have exactly 1 row, but got 'tensor<16x8xf32>'"),
    ("%r", "%rows2", "tensor<16x64xbf16>",
     "x offsets must be a 1D tensor, but got 'tensor<2x8xi32>'"),
    ("%r", "%rows", "tensor<1024xbf16>", "result must be a 2D tensor, but got 'tensor<1024xbf16>'"),
    ("%r", "%rows", "tensor<4x64xbf16>", "must have at least 8 rows, but got 4"),
    ("%w", "%rows", "tensor<16x64xf64>", "TMA dtype cannot be greater than 32 bits"),
    ("%r", "%rows", "tensor<16x8xbf16>", "must have at least 16 columns for 'bf16', but got 8"),
    ("%r", "%rows", "tensor<32x64xbf16>",
     "result tensor must have as many rows as indices (16), but got 'tensor<32x64xbf16>'"),
    ("%r", "%rows", "tensor<16x32xbf16>",
     "result tensor number of columns must match block (64), but got 'tensor<16x32xbf16>'"),
    ("%r", "%rows", "tensor<16x64xf16>",
     "result tensor element type must match block ('bf16'), but got 'tensor<16x64xf16>'"),
])
def test_descriptor_gather_rules(desc, offsets, result, message):
    types = {"%d": "!tt.tensordesc<16x8xf32>", "%r": "!tt.tensordesc<1x64xbf16>",
             "%w": "!tt.tensordesc<1x64xf64>"}[desc]
    index_type = "tensor<2x8xi32>" if offsets == "%rows2" else "tensor<16xi32>"
    text = (f"  %0 = tt.descriptor_gather {desc}[{offsets}, %i] : ({types}, {index_type}, i32) "
            f"-> {result}")
    assert check(text, DESC_ARGS) == f"'tt.descriptor_gather' op {message}"


def test_descriptor_scatter_checks_its_source():
    text = ("  %0 = ub.poison : tensor<16x32xbf16>\n"
            "  tt.descriptor_scatter %r[%rows, %i], %0 : !tt.tensordesc<1x64xbf16>, "
            "tensor<16xi32>, i32, tensor<16x32xbf16>")
    assert check(text, DESC_ARGS) == (
        "'tt.descriptor_scatter' op result tensor number of columns must match block (64), but "
        "got 'tensor<16x32xbf16>'")


# -- llvm types


def test_llvm_types_print_nested_members_short():
    assert str(parse_type("!llvm.struct<(!llvm.ptr<1>, !llvm.array<2xi64>)>")) == \
        "!llvm.struct<(ptr<1>, array<2 x i64>)>"
    assert parse_type("!llvm.struct<packed (i8)>").packed


def test_llvm_array_has_one_dimension():
    assert parse_error(func("  %0 = llvm.mlir.undef : !llvm.array<2x3xi8>\n  tt.return")) == \
        "expected one dimension: the number of elements"
