"""tt verifiers: one failing case per rule, with Triton's messages (MLIR's for functions and
calls), plus the custom formats' parse errors."""

from __future__ import annotations

import pytest

from tilecraft.ir import parse_module, parse_type, print_op
from tilecraft.transforms.diagnostics import collect_diagnostics

from .helpers import func, parse_error, verifies, verify_error

ARGS = ("%p: !tt.ptr<f32>, %i: i32, %l: i64, %f: f32, %h: f16, %t: tensor<16xf32>, "
        "%ti: tensor<16xi32>, %m: tensor<16xi1>, %ps: tensor<16x!tt.ptr<f32>>")
BLOCKED = ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
           "order = [0]}>")
BLOCKED2 = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
            "warpsPerCTA = [4, 1], order = [0, 1]}>")


def body(text: str, args: str = ARGS) -> str:
    """``text`` in a function with ``args``, in a module of 4 warps; ``#blocked`` and
    ``#blocked2`` name TritonGPU layouts of rank 1 and 2 that fit it."""
    return (f"#blocked = {BLOCKED}\n#blocked2 = {BLOCKED2}\n"
            'module attributes {"ttg.num-warps" = 4 : i32} {\n'
            + func(text + "\n  tt.return", args) + "}\n")


def error(text: str, args: str = ARGS) -> str:
    return verify_error(body(text, args))


def inference_error(text: str, args: str = ARGS) -> str:
    """The error an op that infers its result types reports before failing with MLIR's
    "failed to infer returned types"."""
    with collect_diagnostics() as reports:
        raised = error(text, args)
    assert raised.endswith(" op failed to infer returned types")
    assert [report.severity for report in reports] == ["error"]
    return reports[0].message


# -- types


def test_pointer_type_prints_default_address_space_short():
    assert str(parse_type("!tt.ptr<f32>")) == "!tt.ptr<f32>"
    assert str(parse_type("!tt.ptr<f32, 1>")) == "!tt.ptr<f32>"
    assert str(parse_type("!tt.ptr<f16, 3>")) == "!tt.ptr<f16, 3>"
    assert parse_type("!tt.ptr<f32, 3>").address_space == 3
    assert str(parse_type("tensor<8x!tt.ptr<tensor<4xf32>>>")) == \
        "tensor<8x!tt.ptr<tensor<4xf32>>>"


# -- Triton's tensor size rule


def test_tensor_elements_power_of_two():
    assert error("  %0 = tt.splat %f : f32 -> tensor<3xf32>") == (
        "'tt.splat' op number of elements must be power-of-two, but tensor<3xf32> has 3")


def test_tensor_elements_maximum():
    assert error("  %0 = tt.splat %f : f32 -> tensor<2048x1024xf32>") == (
        "'tt.splat' op maximum allowed number of elements is 1048576, but "
        "tensor<2048x1024xf32> has 2097152")


# -- casts


def test_bitcast_pointer_to_scalar():
    assert error("  %0 = tt.bitcast %p : !tt.ptr<f32> -> i64") == (
        "'tt.bitcast' op Cannot bitcast pointer to non-pointer type")


def test_bitcast_pointer_address_space():
    assert error("  %0 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<f32, 3>") == (
        "'tt.bitcast' op Cannot bitcast pointer between different address spaces")


def test_bitcast_width():
    assert error("  %0 = tt.bitcast %f : f32 -> f16") == (
        "'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 16")


def test_fp_to_fp_downcast_needs_rounding():
    assert error("  %0 = tt.fp_to_fp %t : tensor<16xf32> -> tensor<16xf16>") == (
        "'tt.fp_to_fp' op Rounding mode is required for FP downcast")


# -- make_range


@pytest.mark.parametrize("text,message", [
    ("{end = 0 : i32, start = 16 : i32} : tensor<16xi32>", "start must be less than end"),
    ("{end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>", "return type must be a 1D tensor"),
    ("{end = 8 : i32, start = 0 : i32} : tensor<16xi32>",
     "number of elements in returned tensor, 16, must match size of range [0, 8), which has 8 "
     "elements"),
    ("{end = 16 : i32, start = 0 : i32} : tensor<16xi64>", "returned tensor must have i32 elements"),
])
def test_make_range(text, message):
    assert error(f"  %0 = tt.make_range {text}") == f"'tt.make_range' op {message}"


# -- shapes


def test_splat_of_a_tensor():
    assert error("  %0 = tt.splat %t : tensor<16xf32> -> tensor<16x16xf32>") == (
        "'tt.splat' op source must be a scalar or a 0-d tensor, but got tensor<16xf32>")


def test_expand_dims_axis():
    assert error("  %0 = tt.expand_dims %t {axis = 2 : i32} : tensor<16xf32> -> tensor<16x1xf32>") \
        == ("'tt.expand_dims' op axis 2 is out of range for a tensor of rank 1 (expected 0 <= axis "
            "<= 1)")


def test_expand_dims_result():
    assert inference_error(
        "  %0 = tt.expand_dims %t {axis = 0 : i32} : tensor<16xf32> -> tensor<16x1xf32>") == ("'tt.expand_dims' op inferred type(s) 'tensor<1x16xf32>' are incompatible with return "
            "type(s) of operation 'tensor<16x1xf32>'")


def test_expand_dims_of_a_layout_that_is_not_a_slice():
    args = "%e: tensor<16xf32, #blocked>"
    with collect_diagnostics() as reports:
        raised = error("  %0 = tt.expand_dims %e {axis = 0 : i32} : tensor<16xf32, #blocked> -> "
                       "tensor<1x16xf32, #blocked2>", args)
    assert [report.message for report in reports] == [
        "ExpandDimsOp operand encoding must be SliceEncodingAttr",
        "failed to infer layout for ExpandDimsOp"]
    assert raised == "'tt.expand_dims' op failed to infer returned types"


def test_expand_dims_gives_the_parent_of_its_slice():
    args = "%e: tensor<8xf32, #ttg.slice<{dim = 0, parent = #blocked2}>>"
    text = ("  %0 = tt.expand_dims %e {axis = 0 : i32} : tensor<8xf32, #ttg.slice<{dim = 0, "
            "parent = #blocked2}>> -> tensor<1x8xf32, #blocked2>")
    verifies(body(text, args))
    with collect_diagnostics() as reports:
        error(text.replace("axis = 0", "axis = 1").replace("1x8", "8x1"), args)
    assert reports[0].message == "Incompatible slice dimension for ExpandDimsOp operand"


def test_reduce_result_is_the_slice_of_its_operand_layout():
    args = "%e2: tensor<2x8xf32, #blocked2>"
    region = "({\n  ^bb0(%x: f32, %y: f32):\n    tt.reduce.return %x : f32\n  })"
    sliced = "tensor<8xf32, #ttg.slice<{dim = 0, parent = #blocked2}>>"
    verifies(body(f'  %0 = "tt.reduce"(%e2) <{{axis = 0 : i32}}> {region} : '
                  f"(tensor<2x8xf32, #blocked2>) -> {sliced}", args))
    assert inference_error(f'  %0 = "tt.reduce"(%e2) <{{axis = 0 : i32}}> {region} : '
                           "(tensor<2x8xf32, #blocked2>) -> tensor<8xf32>", args) == (
        f"'tt.reduce' op inferred type(s) '{sliced.replace('#blocked2', BLOCKED2)}' are "
        "incompatible with return type(s) of operation 'tensor<8xf32>'")


def test_reshape_element_count():
    assert error("  %0 = tt.reshape %t : tensor<16xf32> -> tensor<4x2xf32>") == (
        "number of src and dst elements of reshape must be the same")


def test_reshape_encodings():
    assert error(f"  %0 = tt.reshape %t : tensor<16xf32> -> tensor<4x4xf32, {BLOCKED2}>") == (
        "Op requires that either (a) src and dst both have encodings, or (b) "
        "neither does.")


def test_broadcast_rank():
    assert error("  %0 = tt.broadcast %t : tensor<16xf32> -> tensor<16x16xf32>") == (
        "'tt.broadcast' op rank of source must be same as rank of result")


def test_broadcast_dimension():
    text = "  %e = tt.reshape %t : tensor<16xf32> -> tensor<2x8xf32>\n" \
           "  %0 = tt.broadcast %e : tensor<2x8xf32> -> tensor<4x8xf32>"
    assert error(text) == ("'tt.broadcast' op Different dimensions at index 0 between source and "
                           "result.  Broadcast requires the source dimension to be 1.")


def test_cat_element_count():
    assert error("  %0 = tt.cat %t, %t : tensor<16xf32> -> tensor<64xf32>") == (
        "'tt.cat' op result element count must equal the sum of the operand element counts, "
        "expected 32 but got 64")


def test_cat_encodings():
    assert error(f"  %0 = tt.cat %t, %t : tensor<16xf32> -> tensor<32xf32, {BLOCKED}>") == (
        "'tt.cat' op requires that either (a) operands and result all have encodings, or (b) "
        "none do.")


def test_join_shape():
    assert error("  %0 = tt.join %t, %t : tensor<16xf32> -> tensor<32xf32>") == (
        "'tt.join' op result shape must be (16, 2), but got 32")
    text = "  %e = tt.reshape %t : tensor<16xf32> -> tensor<4x4xf32>\n" \
           "  %0 = tt.join %e, %e : tensor<4x4xf32> -> tensor<4x8xf32>"
    assert error(text) == "'tt.join' op result shape must be (4, 4, 2), but got 4, 8"


def test_join_element_type():
    assert error("  %0 = tt.join %t, %t : tensor<16xf32> -> tensor<16x2xf16>") == (
        "'tt.join' op result element type must match the input element type")


def test_join_encoding():
    args = "%e: tensor<16xf32, #blocked>"
    assert error("  %0 = tt.join %e, %e : tensor<16xf32, #blocked> -> tensor<16x2xf32>",
                 args).endswith("result encoding must be specified")


def test_split_last_dimension():
    assert inference_error("  %0:2 = tt.split %t : tensor<16xf32> -> tensor<8xf32>") == (
        "last dimension of input tensor must be 2")


def test_split_result():
    text = "  %j = tt.join %t, %t : tensor<16xf32> -> tensor<16x2xf32>\n" \
           "  %0:2 = tt.split %j : tensor<16x2xf32> -> tensor<16xf16>"
    assert inference_error(text) == ("'tt.split' op inferred type(s) 'tensor<16xf32>', "
                                     "'tensor<16xf32>' are "
                           "incompatible with return type(s) of operation 'tensor<16xf16>', "
                           "'tensor<16xf16>'")


@pytest.mark.parametrize("order,message", [
    ("0", "order must have the same size as the source tensor"),
    ("0, 0", "order must be a permutation of 0..n-1"),
])
def test_trans_order(order, message):
    text = "  %e = tt.reshape %t : tensor<16xf32> -> tensor<2x8xf32>\n" \
           f"  %0 = tt.trans %e {{order = array<i32: {order}>}} : tensor<2x8xf32> -> " \
           "tensor<2x8xf32>"
    assert error(text) == message


def test_trans_result_shape():
    text = "  %e = tt.reshape %t : tensor<16xf32> -> tensor<2x8xf32>\n" \
           "  %0 = tt.trans %e {order = array<i32: 1, 0>} : tensor<2x8xf32> -> tensor<2x8xf32>"
    assert inference_error(text) == (
        "'tt.trans' op inferred type(s) 'tensor<8x2xf32>' are incompatible with return type(s) "
        "of operation 'tensor<2x8xf32>'")


# -- loads, stores, pointers


def test_load_mask_shape():
    text = '  %0 = "tt.load"(%ps, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : ' \
           "(tensor<16x!tt.ptr<f32>>, tensor<16xi1>) -> tensor<16xf16>"
    assert error(text) == "'tt.load' op failed to verify that result matches ptr type"


def test_load_other_type():
    text = "  %o = tt.splat %h : f16 -> tensor<16xf16>\n" \
           '  %0 = "tt.load"(%ps, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : ' \
           "(tensor<16x!tt.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>"
    assert error(text) == "'tt.load' op failed to verify that other matches ptr type"


def test_store_value_type():
    text = '  "tt.store"(%p, %h) : (!tt.ptr<f32>, f16) -> ()'
    assert error(text) == "'tt.store' op failed to verify that value type matches ptr type"


def test_store_mask_type():
    text = '  "tt.store"(%ps, %t, %i) : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, i32) -> ()'
    assert "operand #2 must be" in error(text)


def test_addptr_result_type():
    text = '  %0 = "tt.addptr"(%p, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>'
    assert error(text) == "'tt.addptr' op failed to verify that result type matches ptr type"


def test_atomic_cas_pointer_types():
    text = "  %0 = tt.atomic_cas relaxed, gpu, %ps, %ti, %t : (tensor<16x!tt.ptr<f32>>, " \
           "tensor<16xi32>, tensor<16xf32>) -> tensor<16xf32>"
    assert error(text) == "'tt.atomic_cas' op failed to verify that ptr type matches cmp type"


def test_atomic_rmw_pointer_type():
    text = "  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %i : (!tt.ptr<f32>, i32) -> i32"
    assert error(text) == "'tt.atomic_rmw' op failed to verify that ptr type matches value type"


def test_make_tensor_ptr_operand_counts():
    text = "  %0 = tt.make_tensor_ptr %p, [%l, %l], [%l, %l], [%i, %i] {order = array<i32: 0>} : " \
           "!tt.ptr<tensor<16xf32>>"
    assert error(text) == ("'tt.make_tensor_ptr' op expected 1 shape, 1 stride and 1 offset values "
                           "for a block of rank 1, but got 6 values")


def test_make_tensor_ptr_needs_a_tensor_pointer():
    text = "  %0 = tt.make_tensor_ptr %p, [], [], [] {order = array<i32>} : !tt.ptr<f32>"
    assert "result #0 must be ptr to tensor" in error(text)


def test_advance_offsets():
    text = "  %0 = tt.make_tensor_ptr %p, [%l], [%l], [%i] {order = array<i32: 0>} : " \
           "!tt.ptr<tensor<16xf32>>\n  %1 = tt.advance %0, [%i, %i] : !tt.ptr<tensor<16xf32>>"
    assert error(text) == "'tt.advance' op expected 1 offsets for a block of rank 1, but got 2"


def test_load_parse_errors():
    assert parse_error(body("  %0 = tt.load %f : f32")) == (
        "expected a pointer, a tensor of pointers or a tensor pointer type, but got f32")
    assert parse_error(body("  %0 = tt.load %p cacheModifier = ca cacheModifier = cg : "
                            "!tt.ptr<f32>")) == (
        "'cacheModifier' clause can appear at most once in the expansion of the oilist directive")


def test_load_store_defaults_are_elided():
    text = body("  %0 = tt.load %p cacheModifier = none {isVolatile = false} : !tt.ptr<f32>\n"
                "  tt.store %p, %0 evictionPolicy = evict_normal : !tt.ptr<f32>")
    printed = print_op(parse_module(text, allow_unregistered=True))
    assert "tt.load %arg0 : !tt.ptr<f32>\n" in printed
    assert "tt.store %arg0, %0 : !tt.ptr<f32>\n" in printed


# -- dot


DOT_ARGS = ("%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>, "
            "%v: tensor<16xf32>, %a3: tensor<2x16x32xf16>, %b3: tensor<2x32x16xf16>, "
            "%c3: tensor<4x16x16xf32>, %bf: tensor<32x16xf32>, %a2: tensor<16x16xf16>, "
            "%ae: tensor<16x32xf16, #blocked2>, %be: tensor<32x16xf16, #blocked2>")


@pytest.mark.parametrize("operands,types,message", [
    ("%v, %v, %v", "tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>",
     "expected operands to be 2d or 3d"),
    ("%a3, %b, %c", "tensor<2x16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>",
     "expected all operands to have the same rank"),
    ("%a3, %b3, %c3", "tensor<2x16x32xf16> * tensor<2x32x16xf16> -> tensor<4x16x16xf32>",
     "expected the first dimension of the first operand to be equal to the first dimension of "
     "the result"),
    ("%b, %a, %c", "tensor<32x16xf16> * tensor<16x32xf16> -> tensor<16x16xf32>",
     "expected the output shape to be the concatenation of the last dimension of the first "
     "operand and the last dimension of the second"),
    ("%a2, %b, %c", "tensor<16x16xf16> * tensor<32x16xf16> -> tensor<16x16xf32>",
     "expected the last dimension of the first operand to be equal to the second-to-last "
     "dimension of the second operand"),
    ("%a, %bf, %c", "tensor<16x32xf16> * tensor<32x16xf32> -> tensor<16x16xf32>",
     "element types of operands A and B must have same bit width"),
    ("%ae, %b, %c", "tensor<16x32xf16, #blocked2> * tensor<32x16xf16> -> tensor<16x16xf32>",
     "mismatching encoding between A and B operands"),
    ("%ae, %be, %c", "tensor<16x32xf16, #blocked2> * tensor<32x16xf16, #blocked2> -> "
     "tensor<16x16xf32>", "miss encoding of C operand"),
])
def test_dot(operands, types, message):
    # Triton's DotOp::verify reports its own rules with emitError (no op name), the dot
    # interface's shape rules with emitOpError.
    expected = message if message in _DOT_OWN_RULES else f"'tt.dot' op {message}"
    assert error(f"  %0 = tt.dot {operands} : {types}", DOT_ARGS) == expected


_DOT_OWN_RULES = {"element types of operands A and B must have same bit width",
                  "mismatching encoding between A and B operands", "miss encoding of C operand"}


# -- reduce and scan

REDUCE_ARGS = "%t: tensor<16xf32>, %ti: tensor<16xi32>, %t2: tensor<4x4xf32>"
COMBINE = ("^bb0(%x: f32, %y: f32):\n    %s = arith.addf %x, %y : f32\n"
           "    tt.reduce.return %s : f32\n  }")


def reduce_error(text: str) -> str:
    return error(text, REDUCE_ARGS)


@pytest.mark.parametrize("text,message", [
    ('"tt.reduce"() <{axis = 0 : i32}> ({\n  ^bb0:\n    tt.reduce.return :\n  }) : () -> ()',
     "expected 1 or more operands, but found 0"),  # the SameOperandsShape trait, first as in MLIR
    (f'%0:2 = "tt.reduce"(%t) <{{axis = 0 : i32}}> ({{\n  {COMBINE}) : (tensor<16xf32>) -> '
     "(f32, f32)", "must have the same number of inputs as outputs"),
    (f'%0 = "tt.reduce"(%t) <{{axis = 1 : i32}}> ({{\n  {COMBINE}) : (tensor<16xf32>) -> f32',
     "axis out of bounds for operand rank 1"),
    ('%0:2 = "tt.reduce"(%t2, %t) <{axis = 0 : i32}> ({\n  ^bb0(%a: f32, %b: f32, %c: f32, '
     "%d: f32):\n    tt.reduce.return %a, %b : f32, f32\n  }) : (tensor<4x4xf32>, "
     "tensor<16xf32>) -> (tensor<4xf32>, f32)",
     "requires the same shape for all operands"),  # the trait reports it before the rank rule
    (f'%0 = "tt.reduce"(%t) <{{axis = 0 : i32}}> ({{\n  {COMBINE}) : (tensor<16xf32>) -> i32',
     "operand types and result types must agree"),
])
def test_reduce(text, message):
    assert reduce_error("  " + text) == f"'tt.reduce' op {message}"


def test_reduce_result_type():
    text = f'  %0 = "tt.reduce"(%t2) <{{axis = 0 : i32}}> ({{\n  {COMBINE}) : (tensor<4x4xf32>) -> f32'
    assert inference_error(text, REDUCE_ARGS) == (
        "'tt.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of "
        "operation 'f32'")


@pytest.mark.parametrize("region,message", [
    ("^bb0(%x: f32):\n    tt.reduce.return %x : f32",
     "nested block must take 2 arguments, but given block with 1 arguments"),
    ("^bb0(%x: f32, %y: i32):\n    tt.reduce.return %x : f32",
     "type mismatch on combine operation. Expected argument 1 to have type f32 but got i32"),
    ('^bb0(%x: f32, %y: f32):\n    "test.end"() : () -> ()',
     "combine operation must be terminated with a tt.reduce.return but got 'test.end'"),
    ("^bb0(%x: f32, %y: f32):\n    tt.reduce.return %x, %y : f32, f32",
     "expected combine operation to return 1 values but got 2"),
    ("^bb0(%x: f32, %y: f32):\n    %c = arith.constant 0 : i32\n    tt.reduce.return %c : i32",
     "type mismatch on combine operation. Expected argument 0 to have type f32 but got i32"),
])
def test_reduce_combine_region(region, message):
    text = f'  %0 = "tt.reduce"(%t) <{{axis = 0 : i32}}> ({{\n  {region}\n  }}) : ' \
           "(tensor<16xf32>) -> f32"
    assert reduce_error(text) == f"'tt.reduce' op {message}"


def test_scan_result_types():
    args = "%t: tensor<16xf32, #blocked>"
    text = ('  %0 = "tt.scan"(%t) <{axis = 0 : i32, reverse = false}> ({\n'
            "  ^bb0(%x: f32, %y: f32):\n    tt.scan.return %x : f32\n"
            "  }) : (tensor<16xf32, #blocked>) -> tensor<16xf32>")
    assert inference_error(text, args) == (
        f"'tt.scan' op inferred type(s) 'tensor<16xf32, {BLOCKED}>' are incompatible with return "
        "type(s) of operation 'tensor<16xf32>'")


def test_scan_combine_region():
    text = ('  %0 = "tt.scan"(%t) <{axis = 0 : i32, reverse = false}> ({\n'
            "  ^bb0(%x: f32, %y: f32):\n    tt.reduce.return %x : f32\n"
            "  }) : (tensor<16xf32>) -> tensor<16xf32>")
    assert reduce_error(text) == "'tt.reduce.return' op expects parent op 'tt.reduce'"


def test_traits_are_checked_before_the_op_rules():
    text = ('  %0 = "tt.scan"(%t2) <{axis = 0 : i32, reverse = false}> ({\n'
            "  ^bb0(%x: f32, %y: f32):\n    tt.scan.return %x : f32\n"
            "  }) : (tensor<4x4xf32>) -> tensor<16xf32>")
    assert reduce_error(text) == ("'tt.scan' op requires the same shape for all operands and "
                                  "results")


# -- inline assembly


def test_inline_asm_packed_element():
    text = ('  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 3 : i32, '
            "pure = true} %t : tensor<16xf32> -> tensor<16xf32>")
    assert error(text) == ("'tt.elementwise_inline_asm' op number of input elements 16 must be a "
                           "multiple of the op's packed_element attribute, 3")


def test_inline_asm_shapes():
    text = ('  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r,r", packed_element = 1 : i32,'
            " pure = true} %t, %ti : tensor<16xf32>, tensor<16xi32> -> tensor<32xf32>")
    assert "must have the same shape" in error(text)


# -- functions, calls, returns

CALLEE = "tt.func private @g(i32, f32) -> f32\n"


def test_func_with_body_needs_named_arguments():
    assert parse_error("tt.func @f(i32) {\n  tt.return\n}\n") == (
        "expected named arguments (%name: type) for a function with a body")
    assert parse_error("tt.func @f(%a: i32, f32)\n") == "expected SSA identifier"


def test_func_argument_attribute_count():
    text = ('"tt.func"() <{arg_attrs = [{}, {}], function_type = (i32) -> (), sym_name = "f"}> '
            '({\n^bb0(%a: i32):\n  tt.return\n}) : () -> ()\n')
    assert verify_error(text) == ("'tt.func' op expects argument attribute array to have the same "
                                  "number of elements as the number of function arguments, got 2, "
                                  "but expected 1")


def test_func_argument_attributes_round_trip():
    text = "tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) " \
           "attributes {noinline = false} {\n  tt.return\n}\n"
    module = parse_module(text)
    module.verify()
    function = module.body.first_op
    assert function.sym_visibility == "public"
    assert function.properties["arg_attrs"][0]["tt.divisibility"].value == 16
    assert "tt.func public @k(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) " \
           "attributes {noinline = false} {" in print_op(module)


def test_return_count():
    text = "tt.func @f() -> i32 {\n  tt.return\n}\n"
    assert verify_error(text) == "'tt.return' op has 0 operands, but enclosing function (@f) " \
                                 "returns 1"


def test_return_type():
    text = "tt.func @f(%a: f32) -> i32 {\n  tt.return %a : f32\n}\n"
    assert verify_error(text) == ("'tt.return' op type of return operand 0 (f32) doesn't match "
                                  "function result type (i32) in function @f")


@pytest.mark.parametrize("call,message", [
    ("%0 = tt.call @nope(%i, %f) : (i32, f32) -> f32", "'nope' does not reference a valid function"),
    ("%0 = tt.call @g(%i) : (i32) -> f32", "incorrect number of operands for callee"),
    ("%0 = tt.call @g(%i, %i) : (i32, i32) -> f32",
     "operand type mismatch: expected operand type f32, but provided i32 for operand number 1"),
    ("tt.call @g(%i, %f) : (i32, f32) -> ()", "incorrect number of results for callee"),
    ("%0 = tt.call @g(%i, %f) : (i32, f32) -> i32", "result type mismatch at index 0"),
])
def test_call(call, message):
    assert verify_error(CALLEE + body("  " + call)) == f"'tt.call' op {message}"


def test_valid_call():
    verifies(CALLEE + body("  %0 = tt.call @g(%i, %f) : (i32, f32) -> f32"))


def test_load_comma_without_mask():
    """As MLIR's generated parser: a comma with no mask after it reads as no mask."""
    printed = print_op(parse_module(body("  %0 = tt.load %p, : !tt.ptr<f32>"),
                                    allow_unregistered=True))
    assert "tt.load %arg0 : !tt.ptr<f32>\n" in printed
