"""LICM, inlining, loop unrolling and loop-aware CSE keep what programs compute: each program
is evaluated (`evaluator`) before and after the pass, over many bounds, trip counts included
that are zero, below, equal to and above the unroll factor; plus the helpers the passes use."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tilecraft.ir import f32, i1, i32, parse_module, print_op
from tilecraft.transforms import PassManager
from tilecraft.transforms.transform_utils import (
    is_speculatable, may_write_memory, remap_operands,
)

from .evaluator import Undefined, evaluate, same_values, to_value


def run(text: str, pipeline: str):
    """(the module before, the module after ``pipeline``); the result is verified."""
    before = parse_module(text, "input.mlir")
    after = parse_module(text, "input.mlir")
    PassManager.parse(pipeline).run(after)
    after.verify()
    return before, after


def assert_same(before, after, function: str, args) -> None:
    try:
        expected = evaluate(before, function, args)
    except Undefined:
        return
    got = evaluate(after, function, args)
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert same_values(a, b), (function, [int(x) if x.ndim == 0 else x for x in args],
                                   a, b, print_op(after))


# -- triton-loop-unroll

UNROLL = """\
tt.func @sum(%lb: i32, %ub: i32, %step: i32, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0, %prod = %x) -> (i32, i32) : i32 {
    %sq = arith.muli %i, %i : i32
    %a = arith.addi %acc, %sq : i32
    %p = arith.muli %prod, %x : i32
    %q = arith.addi %p, %i : i32
    scf.yield %a, %q : i32, i32
  } {tt.loop_unroll_factor = FACTOR : i32}
  tt.return %r#0, %r#1 : i32, i32
}
"""

STATIC_UNROLL = """\
tt.func @sum(%x: i32) -> i32 {
  %lb = arith.constant LB : i32
  %ub = arith.constant UB : i32
  %step = arith.constant STEP : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (i32) : i32 {
    %a = arith.muli %acc, %i : i32
    %b = arith.addi %a, %x : i32
    scf.yield %b : i32
  } {tt.loop_unroll_factor = FACTOR : i32}
  tt.return %r : i32
}
"""


@pytest.mark.parametrize("factor", [2, 3, 4, 8])
def test_unroll_dynamic_bounds(factor):
    before, after = run(UNROLL.replace("FACTOR", str(factor)), "triton-loop-unroll")
    assert "tt.loop_unroll_factor" not in print_op(after)
    for lb, ub, step in itertools.product((-3, 0, 2), (-1, 0, 1, 5, 9, 17), (1, 2, 3)):
        args = [to_value(i32, v) for v in (lb, ub, step, 3)]
        assert_same(before, after, "sum", args)


@pytest.mark.parametrize("factor", [2, 3, 5, 16])
@pytest.mark.parametrize("bounds", [(0, 12, 1), (0, 10, 3), (-4, 7, 2), (5, 6, 1), (3, 3, 1),
                                    (9, 2, 1)])
def test_unroll_static_bounds(factor, bounds):
    lb, ub, step = bounds
    text = (STATIC_UNROLL.replace("FACTOR", str(factor)).replace("LB", str(lb))
            .replace("UB", str(ub)).replace("STEP", str(step)))
    before, after = run(text, "triton-loop-unroll")
    loops = print_op(after).count("scf.for")
    trip_count = max(0, -(-(ub - lb) // step))
    if trip_count and trip_count % min(factor, trip_count) == 0:
        assert loops == 1  # no epilogue when the factor divides the trip count
    for x in (0, 1, -7):
        assert_same(before, after, "sum", [to_value(i32, x)])


def test_unroll_index_loop_and_nested_loops():
    text = """\
tt.func @f(%n: index, %m: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc) -> (i32) {
      %ji = arith.index_cast %j : index to i32
      %ii = arith.index_cast %i : index to i32
      %t = arith.muli %ji, %ii : i32
      %u = arith.addi %a, %t : i32
      scf.yield %u : i32
    } {tt.loop_unroll_factor = 3 : i32}
    scf.yield %s : i32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : i32
}
"""
    from tilecraft.ir import IndexType
    before, after = run(text, "triton-loop-unroll")
    assert "tt.loop_unroll_factor" not in print_op(after)
    for n, m in itertools.product(range(0, 6), range(0, 5)):
        assert_same(before, after, "f",
                    [to_value(IndexType(), n), to_value(IndexType(), m), to_value(i32, 1)])


# -- LICM


LICM = """\
tt.func @f(%lb: i32, %ub: i32, %st: i32, %a: i32, %b: i32, %c: i1) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%acc = %c0, %o = %a) -> (i32, i32) : i32 {
    %x = arith.addi %a, %b : i32
    %q = arith.divsi %x, %c7 : i32
    %y = arith.muli %x, %q : i32
    %v = scf.if %c -> (i32) {
      %w = arith.subi %y, %b : i32
      scf.yield %w : i32
    } else {
      scf.yield %x : i32
    }
    %z = arith.addi %acc, %v : i32
    %inner = scf.for %j = %lb to %ub step %st iter_args(%t = %o) -> (i32) : i32 {
      %s = arith.xori %a, %c7 : i32
      %ij = arith.addi %i, %j : i32
      %u = arith.addi %t, %s : i32
      %u2 = arith.addi %u, %ij : i32
      scf.yield %u2 : i32
    }
    scf.yield %z, %inner : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}
"""


@pytest.mark.parametrize("pipeline", ["loop-invariant-code-motion", "triton-licm"])
def test_licm_keeps_results(pipeline):
    before, after = run(LICM, pipeline)
    body = print_op(after).split("scf.for", 1)[1]
    assert "arith.divsi" not in body and "arith.xori" not in body and "scf.if" not in body
    for lb, ub, c in itertools.product((0, 2), (0, 1, 4), (0, 1)):
        args = [to_value(i32, v) for v in (lb, ub, 1, 5, -3)] + [to_value(i1, c)]
        assert_same(before, after, "f", args)


def test_licm_on_while():
    text = """\
tt.func @f(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %lim = arith.muli %n, %n : i32
    %c = arith.cmpi slt, %v, %lim : i32
    scf.condition(%c) %v : i32
  } do {
  ^bb0(%w: i32):
    %two = arith.addi %n, %n : i32
    %next = arith.addi %w, %two : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}
"""
    before, after = run(text, "loop-invariant-code-motion")
    assert print_op(after).index("arith.muli") < print_op(after).index("scf.while")
    for x, n in itertools.product((-5, 0, 3, 30), (1, 2, 4)):
        assert_same(before, after, "f", [to_value(i32, x), to_value(i32, n)])


# -- inline


INLINE = """\
tt.func private @clamp(%a: i32, %lo: i32, %hi: i32) -> i32 {
  %below = arith.cmpi slt, %a, %lo : i32
  cf.cond_br %below, ^low, ^check
^low:
  tt.return %lo : i32
^check:
  %above = arith.cmpi sgt, %a, %hi : i32
  cf.cond_br %above, ^high, ^mid(%a : i32)
^high:
  tt.return %hi : i32
^mid(%m: i32):
  tt.return %m : i32
}
tt.func private @twice(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
tt.func private @both(%a: i32, %lo: i32) -> i32 {
  %0 = tt.call @twice(%a) : (i32) -> i32
  %c9 = arith.constant 9 : i32
  %1 = tt.call @clamp(%0, %lo, %c9) : (i32, i32, i32) -> i32
  tt.return %1 : i32
}
tt.func @f(%a: i32, %lo: i32, %n: i32) -> (i32, i32) {
  %0 = tt.call @both(%a, %lo) : (i32, i32) -> i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (i32) : i32 {
    %t = tt.call @twice(%acc) : (i32) -> i32
    scf.yield %t : i32
  }
  %1 = tt.call @clamp(%r, %lo, %0) : (i32, i32, i32) -> i32
  tt.return %1, %r : i32, i32
}
"""


def test_inline_keeps_results():
    before, after = run(INLINE, "inline")
    text = print_op(after)
    assert "tt.call" not in text and "@twice" not in text and "@clamp" not in text
    for a, lo, n in itertools.product((-4, 0, 2, 7), (-1, 3), (0, 2)):
        assert_same(before, after, "f", [to_value(i32, v) for v in (a, lo, n)])


def test_inline_max_iterations_one_still_inlines_in_post_order():
    _, after = run(INLINE, "inline{max-iterations=1}")
    assert "tt.call" not in print_op(after)


# -- triton-loop-aware-cse


LOOP_CSE = """\
tt.func @f(%lb: i32, %ub: i32, %x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %r:4 = scf.for %i = %lb to %ub step %c1 iter_args(%a = %x, %b = %x, %c = %y, %d = %x) -> (i32, i32, i32, i32) : i32 {
    %a1 = arith.muli %b, %c : i32
    %b1 = arith.muli %a, %c : i32
    %c1b = arith.addi %c, %i : i32
    %d1 = arith.muli %d, %y : i32
    scf.yield %a1, %b1, %c1b, %d1 : i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}
"""


def test_loop_aware_cse_keeps_results():
    before, after = run(LOOP_CSE, "triton-loop-aware-cse")
    assert "-> (i32, i32, i32) : i32" in print_op(after)  # a and b merged, d is not
    for lb, ub, x, y in itertools.product((0, 3), (0, 1, 5), (2, -1), (3, 0)):
        assert_same(before, after, "f", [to_value(i32, v) for v in (lb, ub, x, y)])


# -- helpers


def _ops(text: str):
    module = parse_module(text)
    return [op for op in module.walk() if op.name not in ("builtin.module", "tt.func",
                                                            "tt.return", "scf.yield")]


def test_speculation_and_memory_effects():
    ops = _ops("""\
tt.func @f(%a: i32, %b: i32, %p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.divsi %a, %b : i32
  %1 = arith.divsi %a, %c3 : i32
  %2 = arith.divsi %a, %m1 : i32
  %3 = arith.divui %a, %m1 : i32
  %4 = arith.remui %a, %c0 : i32
  %5 = tt.load %p : !tt.ptr<f32>
  scf.for %i = %c0 to %n step %c3 : i32 {
    %6 = arith.addi %i, %a : i32
  }
  scf.for %i = %c0 to %n step %b : i32 {
    tt.store %p, %5 : !tt.ptr<f32>
  }
  tt.return
}
""")
    by_result = {}
    for op in ops:
        by_result.setdefault(op.name, []).append(op)
    divs = by_result["arith.divsi"]
    assert [is_speculatable(d) for d in divs] == [False, True, False]
    assert is_speculatable(by_result["arith.divui"][0])
    assert not is_speculatable(by_result["arith.remui"][0])
    first_loop, second_loop = by_result["scf.for"]
    assert is_speculatable(first_loop) and not may_write_memory(first_loop)
    assert not is_speculatable(second_loop) and may_write_memory(second_loop)
    assert not may_write_memory(by_result["tt.load"][0])
    assert not is_speculatable(by_result["tt.load"][0])


def test_remap_operands_follows_mapping():
    module = parse_module("""\
tt.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
""")
    func = next(op for op in module.walk() if op.name == "tt.func")
    a, b = func.regions[0].blocks[0].arguments
    add = func.regions[0].blocks[0].first_op
    remap_operands([add], {a: b})
    assert add.operands == (b, b)


def test_evaluator_wraps_and_rejects_undefined():
    module = parse_module("""\
tt.func @f(%a: i8, %b: i8) -> (i8, i8, i1, i8) {
  %0 = arith.addi %a, %b : i8
  %1 = arith.divsi %a, %b : i8
  %2 = arith.cmpi ult, %a, %b : i8
  %3 = arith.shrui %a, %b : i8
  tt.return %0, %1, %2, %3 : i8, i8, i1, i8
}
""")
    from tilecraft.ir import i8
    got = evaluate(module, "f", [to_value(i8, 100), to_value(i8, 3)])
    assert [int(v) for v in got] == [103, 33, 0, 12]
    got = evaluate(module, "f", [to_value(i8, -1), to_value(i8, 1)])
    assert [int(v) for v in got] == [0, -1, 0, 127]
    with pytest.raises(Undefined):
        evaluate(module, "f", [to_value(i8, 1), to_value(i8, 0)])
    assert same_values(np.float32(np.nan), np.float32(-np.nan))
    assert not same_values(np.float32(0.0), np.float32(-0.0))
    assert to_value(f32, 1.5).dtype == np.float32


def test_loop_aware_cse_long_chains_do_not_exhaust_the_stack():
    body = ["    %a0 = arith.addi %a, %x : i32", "    %b0 = arith.addi %b, %x : i32"]
    for k in range(1, 400):
        body.append(f"    %a{k} = arith.addi %a{k - 1}, %x : i32")
        body.append(f"    %b{k} = arith.addi %b{k - 1}, %x : i32")
    text = (
        "tt.func @f(%lb: i32, %ub: i32, %x: i32) -> (i32, i32) {\n"
        "  %c1 = arith.constant 1 : i32\n"
        "  %r:2 = scf.for %i = %lb to %ub step %c1 iter_args(%a = %x, %b = %x) -> (i32, i32)"
        " : i32 {\n" + "\n".join(body) + "\n    scf.yield %a399, %b399 : i32, i32\n  }\n"
        "  tt.return %r#0, %r#1 : i32, i32\n}\n")
    before, after = run(text, "triton-loop-aware-cse")
    assert_same(before, after, "f", [to_value(i32, v) for v in (0, 2, 3)])
