"""arith.select: MLIR's format (condition type only for tensor conditions) and verifier."""

from __future__ import annotations

from tilecraft.ir import parse_module, print_op

from .helpers import func, verify_error

ARGS = "%c: i1, %x: i32, %t: tensor<4xf32>, %m: tensor<4xi1>, %m8: tensor<8xi1>"


def test_select_prints_like_mlir():
    text = func("  %0 = arith.select %c, %x, %x : i32\n"
                "  %1 = arith.select %m, %t, %t : tensor<4xi1>, tensor<4xf32>\n"
                "  %2 = arith.select %c, %t, %t : tensor<4xf32>\n  tt.return", ARGS)
    module = parse_module(text)
    module.verify()
    printed = print_op(module)
    assert "arith.select %arg0, %arg1, %arg1 : i32\n" in printed
    assert "arith.select %arg3, %arg2, %arg2 : tensor<4xi1>, tensor<4xf32>\n" in printed
    assert "arith.select %arg0, %arg2, %arg2 : tensor<4xf32>\n" in printed


def test_tensor_condition_needs_a_tensor_result():
    text = func("  %0 = arith.select %m, %x, %x : tensor<4xi1>, i32\n  tt.return", ARGS)
    # MLIR's op-level constraint (BooleanConditionOrMatchingShape) is checked first
    assert verify_error(text) == ("'arith.select' op failed to verify that condition is "
                                  "signless i1 or has matching shape")


def test_tensor_condition_shape():
    text = func("  %0 = arith.select %m8, %t, %t : tensor<8xi1>, tensor<4xf32>\n  tt.return",
                ARGS)
    assert verify_error(text) == ("'arith.select' op failed to verify that condition is "
                                  "signless i1 or has matching shape")
