"""cf verifiers: branch operands against the successor's block arguments (MLIR's messages)."""

from __future__ import annotations

from .helpers import func, verifies, verify_error

ARGS = "%c: i1, %x: i32, %y: f32"


def test_valid_branches():
    verifies(func("  cf.cond_br %c, ^bb1(%x : i32), ^bb2\n^bb1(%a: i32):\n  cf.br ^bb2\n"
                  "^bb2:\n  tt.return", ARGS))


def test_br_operand_count():
    text = func("  cf.br ^bb1(%x : i32)\n^bb1:\n  tt.return", ARGS)
    assert verify_error(text) == ("'cf.br' op branch has 1 operands for successor #0, but target "
                                  "block has 0")


def test_br_operand_type():
    text = func("  cf.br ^bb1(%y : f32)\n^bb1(%a: i32):\n  tt.return", ARGS)
    assert verify_error(text) == "'cf.br' op type mismatch for bb argument #0 of successor #0"


def test_cond_br_false_successor():
    text = func("  cf.cond_br %c, ^bb1, ^bb2(%x : i32)\n^bb1:\n  tt.return\n"
                "^bb2(%a: i32, %b: i32):\n  tt.return", ARGS)
    assert verify_error(text) == ("'cf.cond_br' op branch has 1 operands for successor #1, but "
                                  "target block has 2")
