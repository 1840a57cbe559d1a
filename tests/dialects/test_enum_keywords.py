"""Enum cases in assembly formats: bare or quoted, as MLIR's parsers accept them."""

from __future__ import annotations

from tilecraft.ir import parse_module, print_op

from .helpers import func, parse_error

ARGS = "%x: i32, %f: tensor<4xf32>"


def test_quoted_predicates_parse_and_print_bare():
    text = func('  %0 = arith.cmpi "slt", %x, %x : i32\n'
                '  %1 = arith.cmpf "oeq", %f, %f : tensor<4xf32>\n'
                '  %2 = tt.get_program_id "y" : i32\n  tt.return', ARGS)
    module = parse_module(text)
    module.verify()
    printed = print_op(module)
    assert "arith.cmpi slt, %arg0, %arg0 : i32\n" in printed
    assert "arith.cmpf oeq, %arg1, %arg1 : tensor<4xf32>\n" in printed
    assert "tt.get_program_id y : i32\n" in printed


def test_unknown_quoted_predicate():
    text = func('  %0 = arith.cmpi "lt", %x, %x : i32\n  tt.return', ARGS)
    assert parse_error(text).startswith("expected CmpIPredicate to be one of: 'eq', 'ne'")
