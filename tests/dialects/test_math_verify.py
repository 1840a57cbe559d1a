"""math: the type rules its traits give (math has no hand-written verifiers)."""

from __future__ import annotations

from .helpers import func, verifies, verify_error

ARGS = "%f: f32, %t: tensor<4xf32>, %i: i32, %ti: tensor<8xi32>"


def body(text: str) -> str:
    return func(text + "\n  tt.return", ARGS)


def test_classification_infers_i1_of_the_operand_shape():
    verifies(body("  %0 = math.isnan %t : tensor<4xf32>\n  %1 = math.isinf %f : f32"))


def test_classification_result_type():
    text = body('  %0 = "math.isnan"(%t) : (tensor<4xf32>) -> i1')
    assert verify_error(text) == ("'math.isnan' op failed to verify that result is i1 of the "
                                  "operand's shape")


def test_unary_same_type():
    text = body('  %0 = "math.exp"(%t) : (tensor<4xf32>) -> f32')
    assert verify_error(text) == ("'math.exp' op requires the same type for all operands and "
                                  "results")


def test_float_op_rejects_integers():
    text = body("  %0 = math.sqrt %i : i32")
    assert verify_error(text) == ("'math.sqrt' op operand #0 must be floating-point-like, but got "
                                  "'i32'")


def test_fpowi_shapes():
    text = body("  %0 = math.fpowi %t, %ti : tensor<4xf32>, tensor<8xi32>")
    assert verify_error(text) == ("'math.fpowi' op requires the same shape for all operands and "
                                  "results")
