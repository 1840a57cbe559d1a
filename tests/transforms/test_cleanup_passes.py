"""canonicalize, cse, dce, symbol-dce and sccp through their Python entry points: statistics,
options, convergence, what the pattern registry holds, memory effects, SCCP leaving in-place
folds undone, and a pipeline of all of them keeping what programs with loops and branches
compute (the numpy evaluator)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.generated import DIALECTS
from tilecraft.ir import Operation, get_dialect, parse_module, print_op
from tilecraft.ir.patterns import RewritePattern
from tilecraft.transforms import PassManager, RewriteConvergenceError, create_pass
from tilecraft.transforms.canonicalize import (CanonicalizationPatternSet,
                                               canonicalization_patterns, canonicalize)
from tilecraft.transforms.cse import cse, equivalent_ops
from tilecraft.transforms.patterns import PatternSet
from tilecraft.transforms.dce import dce
from tilecraft.transforms.effects import is_trivially_dead, memory_effects
from tilecraft.transforms.sccp import sccp
from tilecraft.transforms.symbol_dce import symbol_dce

from .evaluator import evaluate, same_values, to_value


def ops_of(module: Operation, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


CHAIN = """\
tt.func @f(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %a, %0 : i32
  %2 = arith.addi %1, %c3 : i32
  %dead = arith.muli %2, %2 : i32
  tt.return %2 : i32
}
"""


# -- canonicalize ----------------------------------------------------------------------------------


def test_canonicalize_statistics_through_the_pass_manager():
    module = parse_module(CHAIN)
    pm = PassManager.parse("builtin.module(canonicalize)")
    pm.run(module)
    (pass_,) = pm.passes()
    assert (pass_.num_folded, pass_.num_rewrites) == (1, 1)
    assert pass_.num_erased >= 1
    report = pm.statistics_report()
    assert "num-folded - ops folded" in report and "num-rewrites - patterns applied" in report
    assert "arith.addi %arg0, %c6_i32" in print_op(module)


def test_canonicalize_options_parse():
    pass_ = create_pass("canonicalize", "top-down=false max-iterations=3 max-num-rewrites=5")
    assert (pass_.top_down, pass_.max_iterations, pass_.max_num_rewrites) == (False, 3, 5)
    default = create_pass("canonicalize")
    assert (default.top_down, default.max_iterations, default.max_num_rewrites) == (True, 10, -1)
    assert (default.region_simplify, default.test_convergence) == ("normal", False)
    checked = create_pass("canonicalize", "region-simplify=disabled test-convergence=true")
    assert (checked.region_simplify, checked.test_convergence) == ("disabled", True)


@pytest.mark.parametrize("top_down", [True, False])
def test_canonicalize_orders_converge_alike(top_down):
    module = parse_module(CHAIN)
    driver = canonicalize(module, top_down=top_down)
    assert driver.num_folded == 1 and driver.num_rewrites == 1
    text = print_op(module)
    assert "arith.constant 6 : i32" in text and "arith.muli" not in text


def test_canonicalize_iteration_bound_is_quiet():
    module = parse_module(CHAIN)
    canonicalize(module, max_iterations=1)  # no error, as MLIR's canonicalizer
    module.verify()


def test_canonicalize_rewrite_limit_stops():
    module = parse_module(CHAIN)
    driver = canonicalize(module, max_num_rewrites=0)
    assert driver.num_rewrites == 0 and driver.stopped
    assert len(ops_of(module, "arith.addi")) == 3  # stopped before anything
    driver = canonicalize(module, max_num_rewrites=1)
    assert driver.num_rewrites == 1 and driver.num_folded == 1


class _Flip(RewritePattern):
    """addi(a, b) -> addi(b, a), forever."""

    ROOT = "arith.addi"

    def match_and_rewrite(self, op, rewriter) -> bool:
        lhs, rhs = op.operands
        rewriter.modify_op_in_place(op, lambda: op.set_operands([rhs, lhs]))
        return True


def test_canonicalize_reports_patterns_that_cycle():
    module = parse_module("tt.func @f(%a: i32, %b: i32) -> i32 {\n"
                          "  %0 = arith.addi %a, %b : i32\n  tt.return %0 : i32\n}\n")
    with pytest.raises(RewriteConvergenceError, match="_Flip"):
        canonicalize(module, patterns=[_Flip()])


def test_every_canonicalizer_returns_patterns_for_its_op():
    patterns = canonicalization_patterns()
    names = {type(p).__name__ for p in patterns}
    assert {"TransOfTrans", "SelectSimplify", "IfStaticCondition", "ForTrivialTrips",
            "MaskedLoadOfTrue", "AddIConstantChain"} <= names
    for name in DIALECTS:
        for cls in get_dialect(name).ops.values():
            if "get_canonicalization_patterns" in cls.HOOKS:
                for pattern in cls.get_canonicalization_patterns():
                    assert isinstance(pattern, RewritePattern)
                    assert pattern.ROOT == cls.OPERATION_NAME
            if "fold" in cls.HOOKS:
                assert callable(cls.fold)


def test_patterns_collected_per_op_are_those_of_all_dialects():
    everything, per_op = PatternSet(canonicalization_patterns()), CanonicalizationPatternSet()
    for name in DIALECTS:
        for op_name in get_dialect(name).ops:
            assert [type(p) for p in per_op.for_op(op_name)] == \
                [type(p) for p in everything.for_op(op_name)]


def test_fold_hooks_leave_unfoldable_ops_alone():
    module = parse_module("tt.func @f(%a: i32, %b: i32) -> i32 {\n"
                          "  %0 = arith.divsi %a, %b : i32\n  tt.return %0 : i32\n}\n")
    (div,) = ops_of(module, "arith.divsi")
    assert div.fold([None, None]) is None


# -- cse, dce, symbol-dce --------------------------------------------------------------------------


def test_cse_counts_and_structural_equality():
    module = parse_module("""\
tt.func @f(%c: i1, %a: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %1 = scf.if %c -> (i32) {
    %y = arith.addi %a, %a : i32
    scf.yield %y : i32
  } else {
    scf.yield %a : i32
  }
  %unused = arith.muli %a, %a : i32
  tt.return %0, %1 : i32, i32
}
""")
    first, second = ops_of(module, "scf.if")
    assert equivalent_ops(first, second)
    assert cse(module) == (1, 1)
    assert len(ops_of(module, "scf.if")) == 1


def test_dce_counts_nested_ops():
    module = parse_module("""\
tt.func @f(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) : index {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  }
  tt.return %a : i32
}
""")
    assert dce(module) == 5  # the loop, its add and yield, and the two constants
    assert dce(module) == 0


def test_symbol_dce_keeps_nested_public_symbols_of_live_modules():
    module = parse_module("""\
module {
  module @inner {
    tt.func @pub() {
      tt.return
    }
    tt.func private @priv() {
      tt.return
    }
  }
  tt.func private @gone() {
    tt.return
  }
}
""")
    assert symbol_dce(module) == 2
    names = [op.get_attr("sym_name").value for op in module.walk() if op.name == "tt.func"]
    assert names == ["pub"]


# -- effects -------------------------------------------------------------------------------------


def test_memory_effects():
    module = parse_module("""\
tt.func @f(%p: !tt.ptr<f32>, %x: f32, %c: i1) {
  %0 = tt.load %p : !tt.ptr<f32>
  %1 = tt.load %p {isVolatile = true} : !tt.ptr<f32>
  %2 = tt.extern_elementwise %x {libname = "m", libpath = "p", pure = true, symbol = "s"} : (f32) -> f32
  %3 = tt.extern_elementwise %x {libname = "m", libpath = "p", pure = false, symbol = "s"} : (f32) -> f32
  scf.if %c {
    tt.store %p, %x : !tt.ptr<f32>
  }
  %4 = scf.if %c -> (f32) {
    %5 = tt.load %p : !tt.ptr<f32>
    scf.yield %5 : f32
  } else {
    scf.yield %x : f32
  }
  tt.return
}
""")
    body = module.regions[0].blocks[0].first_op.regions[0].blocks[0].ops
    effects = [memory_effects(op) for op in body]
    assert effects == ["read", "write", "none", "write", "write", "read", "none"]
    assert [is_trivially_dead(op) for op in body] == [True, False, True, False, False, True,
                                                      False]


# -- sccp ----------------------------------------------------------------------------------------


def test_sccp_does_not_keep_in_place_folds():
    """SCCP simulates folds: a constant left operand stays where it is (canonicalize moves
    it), while the folds of other ops still see the simulated constants."""
    module = parse_module("""\
tt.func @f(%a: i32) -> (i32, i1, i32) {
  %c3 = arith.constant 3 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %c3, %a : i32
  %1 = arith.cmpi slt, %c3, %a : i32
  %2 = arith.muli %c0, %a : i32
  tt.return %0, %1, %2 : i32, i1, i32
}
""")
    assert sccp(module) == 1
    add = ops_of(module, "arith.addi")[0]
    cmp = ops_of(module, "arith.cmpi")[0]
    assert add.operands[0].defining_op.name == "arith.constant"
    assert cmp.predicate.name == "slt"
    assert cmp.operands[0].defining_op.name == "arith.constant"
    assert not ops_of(module, "arith.muli")


# -- the pipeline against the evaluator ----------------------------------------------------------

PROGRAM = """\
tt.func private @helper(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.muli %x, %c2 : i32
  tt.return %0 : i32
}
tt.func private @unused(%x: i32) -> i32 {
  tt.return %x : i32
}
tt.func @f(%a: i32, %b: i32, %n: index) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %t = arith.cmpi slt, %one, %four : i32
  %s:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %k = %one, %dead = %b) -> (i32, i32, i32) : index {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %acc, %ii : i32
    %y = arith.muli %k, %one : i32
    %z = arith.addi %dead, %x : i32
    scf.yield %x, %y, %z : i32, i32, i32
  }
  %u = scf.if %t -> (i32) {
    %v = arith.addi %s#0, %s#1 : i32
    scf.yield %v : i32
  } else {
    scf.yield %zero : i32
  }
  %c = arith.cmpi sgt, %a, %b : i32
  cf.cond_br %c, ^bb1(%a : i32), ^bb2(%b, %four : i32, i32)
^bb1(%p: i32):
  %h = tt.call @helper(%p) : (i32) -> i32
  cf.br ^bb3(%h, %one : i32, i32)
^bb2(%q: i32, %r: i32):
  %w = arith.subi %q, %r : i32
  cf.br ^bb3(%w, %one : i32, i32)
^bb3(%m: i32, %o: i32):
  %m1 = arith.muli %m, %o : i32
  %m2 = arith.addi %m1, %zero : i32
  tt.return %u, %m2, %s#1 : i32, i32, i32
}
"""

PIPELINES = ["canonicalize", "cse", "dce", "sccp", "symbol-dce",
             "sccp,canonicalize,cse,dce,symbol-dce", "canonicalize{top-down=false},cse,sccp"]


@pytest.mark.parametrize("pipeline", PIPELINES)
@settings(max_examples=25, deadline=None)
@given(a=st.integers(-1000, 1000), b=st.integers(-1000, 1000), n=st.integers(0, 5))
def test_pipelines_keep_what_programs_compute(pipeline, a, b, n):
    original = parse_module(PROGRAM)
    args = [to_value(t, v) for t, v in zip(
        original.regions[0].blocks[0].last_op.function_type.inputs, (a, b, n))]
    expected = evaluate(original, "f", args)
    module = parse_module(PROGRAM)
    PassManager.parse(f"builtin.module({pipeline})").run(module)
    got = evaluate(module, "f", args)
    assert all(same_values(x, y) for x, y in zip(got, expected)), print_op(module)


def test_full_pipeline_simplifies_the_program():
    module = parse_module(PROGRAM)
    PassManager.parse("builtin.module(sccp,canonicalize,cse,dce,symbol-dce)").run(module)
    text = print_op(module)
    assert "@unused" not in text
    assert "scf.if" not in text
    assert text.count("iter_args") == 1 and "-> (i32)" in text  # one loop-carried value left


def test_symbol_dce_keeps_everything_without_private_symbols():
    module = parse_module("""\
module {
  module @inner {
    tt.func @pub() {
      tt.return
    }
  }
  tt.func @kernel() {
    tt.return
  }
}
""")
    text = str(module)
    assert symbol_dce(module) == 0
    assert str(module) == text
