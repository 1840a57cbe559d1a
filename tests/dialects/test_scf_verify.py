"""scf verifiers (MLIR's messages) and the parsers' errors and implicit terminators."""

from __future__ import annotations

from tilecraft.ir import parse_module, print_op

from .helpers import func, parse_error, verifies, verify_error

ARGS = "%lb: index, %ub: index, %s: index, %x: i32, %f: f32, %c: i1"


def body(text: str) -> str:
    return func(text + "\n  tt.return", ARGS)


# -- scf.for


def test_for_implicit_yield_is_added_and_elided():
    module = parse_module(body("  scf.for %i = %lb to %ub step %s {\n"
                               "    %y = arith.addi %x, %x : i32\n  }"))
    module.verify()
    loop = [op for op in module.walk() if op.name == "scf.for"][0]
    assert loop.body.last_op.name == "scf.yield"
    assert "scf.yield" not in print_op(module)


def test_for_init_count_against_results():
    text = body('  "scf.for"(%lb, %ub, %s, %x) ({\n  ^bb0(%i: index, %a: i32):\n'
                '    "scf.yield"(%a) : (i32) -> ()\n  }) : (index, index, index, i32) -> ()')
    assert verify_error(text) == ("'scf.for' op mismatch in number of loop-carried values and "
                                  "defined values")


def test_for_induction_variable_type():
    text = body('  "scf.for"(%lb, %ub, %s) ({\n  ^bb0(%i: i32):\n'
                '    "scf.yield"() : () -> ()\n  }) : (index, index, index) -> ()')
    assert verify_error(text) == ("'scf.for' op expected induction variable to be same type as "
                                  "bounds and step")


def test_for_block_argument_count():
    text = body('  %r = "scf.for"(%lb, %ub, %s, %x) ({\n  ^bb0(%i: index):\n'
                '    "scf.yield"(%x) : (i32) -> ()\n  }) : (index, index, index, i32) -> i32')
    assert verify_error(text) == ("'scf.for' op mismatch in number of basic block args and "
                                  "defined values")


def test_for_init_type():
    text = body('  %r = "scf.for"(%lb, %ub, %s, %f) ({\n  ^bb0(%i: index, %a: i32):\n'
                '    "scf.yield"(%a) : (i32) -> ()\n  }) : (index, index, index, f32) -> i32')
    assert verify_error(text) == ("'scf.for' op types mismatch between 0th iter operand and "
                                  "defined value")


def test_for_region_argument_type():
    text = body('  %r = "scf.for"(%lb, %ub, %s, %x) ({\n  ^bb0(%i: index, %a: f32):\n'
                '    "scf.yield"(%x) : (i32) -> ()\n  }) : (index, index, index, i32) -> i32')
    assert verify_error(text) == ("'scf.for' op types mismatch between 0th iter region arg and "
                                  "defined value")


def test_for_terminator():
    text = body('  "scf.for"(%lb, %ub, %s) ({\n  ^bb0(%i: index):\n'
                '    "test.end"() : () -> ()\n  }) : (index, index, index) -> ()')
    assert verify_error(text) == "'scf.for' op expects regions to end with 'scf.yield', found " \
                                 "'test.end'"


def test_for_unregistered_last_op_gets_implicit_yield():
    # As MLIR's ensureRegionTerminator: an unregistered op is not known to be a terminator.
    text = body('  scf.for %i = %lb to %ub step %s {\n    "test.keep"(%x) : (i32) -> ()\n  }')
    module = parse_module(text, allow_unregistered=True)
    module.verify()
    loop = [op for op in module.walk() if op.name == "scf.for"][0]
    assert loop.body.last_op.name == "scf.yield"


def test_for_yield_count():
    text = body("  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (i32) {\n"
                "    scf.yield\n  }")
    assert verify_error(text) == ("'scf.for' op along control flow edge from Region #0 to parent "
                                  "results: source has 0 operands, but target successor needs 1")


def test_for_yield_type():
    text = body("  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (i32) {\n"
                "    scf.yield %f : f32\n  }")
    assert verify_error(text) == ("'scf.for' op along control flow edge from Region #0 to parent "
                                  "results: source type #0 'f32' should match input type #0 "
                                  "'i32'")


def test_for_bounds_have_one_type():
    text = body('  "scf.for"(%lb, %x, %s) ({\n  ^bb0(%i: index):\n'
                '    "scf.yield"() : () -> ()\n  }) : (index, i32, index) -> ()')
    assert "failed to verify that all of {lowerBound, upperBound, step} have same type" in \
        verify_error(text)


def test_for_parse_counts_iter_args_against_types():
    text = body("  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (i32, i32) {\n"
                "    scf.yield %a : i32\n  }")
    assert parse_error(text) == "mismatch in number of loop-carried values and defined values"


# -- scf.if


def test_if_results_need_else():
    text = body("  %r = scf.if %c -> (i32) {\n    scf.yield %x : i32\n  }")
    assert verify_error(text) == "'scf.if' op must have an else block if defining values"


def test_if_regions_take_no_arguments():
    text = body('  "scf.if"(%c) ({\n  ^bb0(%a: i32):\n    "scf.yield"() : () -> ()\n'
                '  }, {\n  }) : (i1) -> ()')
    assert verify_error(text) == "'scf.if' op region #0 should have no arguments"


def test_if_yield_count():
    text = body("  %r = scf.if %c -> (i32) {\n    scf.yield\n  } else {\n"
                "    scf.yield %x : i32\n  }")
    assert verify_error(text) == ("'scf.if' op along control flow edge from Region #0 to parent "
                                  "results: source has 0 operands, but target successor needs 1")


def test_if_else_yield_type():
    text = body("  %r = scf.if %c -> (i32) {\n    scf.yield %x : i32\n  } else {\n"
                "    scf.yield %f : f32\n  }")
    assert verify_error(text) == ("'scf.if' op along control flow edge from Region #1 to parent "
                                  "results: source type #0 'f32' should match input type #0 "
                                  "'i32'")


def test_if_without_results_may_yield_nothing():
    verifies(body("  scf.if %c {\n  } else {\n  }"))


# -- scf.while

WHILE_AFTER = "  } do {\n  ^bb0(%b: i32):\n    scf.yield %b : i32\n  }"


def test_while_before_terminator():
    text = body("  %r = scf.while (%a = %x) : (i32) -> i32 {\n    scf.yield %a : i32\n"
                + WHILE_AFTER)
    assert verify_error(text) == ("'scf.while' op expects the 'before' region to terminate with "
                                  "'scf.condition'")


def test_while_after_terminator():
    text = body("  %r = scf.while (%a = %x) : (i32) -> i32 {\n"
                "    scf.condition(%c) %a : i32\n  } do {\n  ^bb0(%b: i32):\n"
                '    "test.end"() : () -> ()\n  }')
    assert verify_error(text) == ("'scf.while' op expects the 'after' region to terminate with "
                                  "'scf.yield'")


def test_while_inits_against_before_arguments():
    text = body('  %r = "scf.while"(%x) ({\n  ^bb0(%a: f32):\n'
                '    "scf.condition"(%c, %x) : (i1, i32) -> ()\n  }, {\n  ^bb0(%b: i32):\n'
                '    "scf.yield"(%b) : (i32) -> ()\n  }) : (i32) -> i32')
    assert verify_error(text) == ("'scf.while' op along control flow edge from parent operands "
                                  "to Region #0: source type #0 'i32' should match input type #0 "
                                  "'f32'")


def test_while_condition_against_after_arguments():
    text = body("  %r = scf.while (%a = %x) : (i32) -> i32 {\n"
                "    scf.condition(%c) %a : i32\n  } do {\n  ^bb0(%b: i32, %e: i32):\n"
                "    scf.yield %b : i32\n  }")
    assert verify_error(text) == ("'scf.while' op along control flow edge from Region #0 to "
                                  "Region #1: source has 1 operands, but target successor needs 2")


def test_while_condition_against_results():
    text = body("  %r = scf.while (%a = %x) : (i32) -> f32 {\n"
                "    scf.condition(%c) %a : i32\n" + WHILE_AFTER)
    assert verify_error(text) == ("'scf.while' op along control flow edge from Region #0 to "
                                  "parent results: source type #0 'i32' should match input type "
                                  "#0 'f32'")


def test_while_yield_against_before_arguments():
    text = body("  %r = scf.while (%a = %x) : (i32) -> i32 {\n"
                "    scf.condition(%c) %a : i32\n  } do {\n  ^bb0(%b: i32):\n"
                "    scf.yield %f : f32\n  }")
    assert verify_error(text) == ("'scf.while' op along control flow edge from Region #1 to "
                                  "Region #0: source type #0 'f32' should match input type #0 "
                                  "'i32'")


def test_while_parse_counts_types():
    text = body("  %r = scf.while (%a = %x) : (i32, i32) -> i32 {\n"
                "    scf.condition(%c) %a : i32\n" + WHILE_AFTER)
    assert parse_error(text) == "expected as many input types as operands (expected 1 got 2)"


def test_condition_only_in_while():
    text = body("  scf.if %c {\n    scf.condition(%c)\n  }")
    assert verify_error(text) == "'scf.condition' op expects parent op 'scf.while'"
