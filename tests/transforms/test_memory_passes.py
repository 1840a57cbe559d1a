"""Passes around loads and stores keep what programs compute and what they leave in memory:
triton-licm's guarded loads (a loop that does not run must not read, even through a pointer
that is out of bounds), select of a masked load, inlining and unrolling with stores."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tilecraft.ir import i1, i32, parse_module, parse_type, print_op
from tilecraft.transforms import PassManager

from .evaluator import Undefined, evaluate, same_values, to_value

PTR = parse_type("!tt.ptr<f32>")


def run(text: str, pipeline: str):
    before = parse_module(text, "input.mlir")
    after = parse_module(text, "input.mlir")
    PassManager.parse(pipeline).run(after)
    after.verify()
    return before, after


def outcome(module, args, memory):
    """(results, memory afterwards), or "undefined"."""
    memory = {k: v.copy() for k, v in memory.items()}
    try:
        return evaluate(module, "f", args, memory), memory
    except Undefined:
        return "undefined"


def assert_same_outcome(before, after, args, memory) -> None:
    expected = outcome(before, args, memory)
    got = outcome(after, args, memory)
    if expected == "undefined":
        return
    assert got != "undefined", f"the pass made the program undefined\n{print_op(after)}"
    for a, b in zip(got[0], expected[0]):
        assert same_values(a, b), (a, b, print_op(after))
    for key in expected[1]:
        assert same_values(got[1][key], expected[1][key]), (key, print_op(after))


LICM_LOADS = """\
tt.func @f(%p: !tt.ptr<f32>, %off: i32, %lb: i32, %ub: i32, %m: i1) -> (f32, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %zero, %vacc = %zeros) -> (f32, tensor<4xf32>) : i32 {
    %q = tt.addptr %p, %off : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %range = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %qv = tt.addptr %qs, %range : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %ms = tt.splat %m : i1 -> tensor<4xi1>
    %v = tt.load %qv, %ms : tensor<4x!tt.ptr<f32>>
    %s = arith.addf %acc, %x : f32
    %w = arith.addf %vacc, %v : tensor<4xf32>
    scf.yield %s, %w : f32, tensor<4xf32>
  }
  tt.return %r#0, %r#1 : f32, tensor<4xf32>
}
"""


def test_triton_licm_hoists_guarded_loads():
    before, after = run(LICM_LOADS, "triton-licm")
    text = print_op(after)
    assert text.index("tt.load") < text.index("scf.for")
    assert "arith.cmpi slt" in text
    memory = {"f32": np.arange(8, dtype=np.float32) * 1.5}
    for off, lb, ub, m in itertools.product((0, 3, 100, -50), (0, 2), (0, 1, 3), (0, 1)):
        args = [to_value(PTR, 1), to_value(i32, off), to_value(i32, lb), to_value(i32, ub),
                to_value(i1, m)]
        assert_same_outcome(before, after, args, memory)
    # the guard matters: with lb >= ub and a pointer out of bounds, nothing may be read
    args = [to_value(PTR, 1), to_value(i32, 100), to_value(i32, 3), to_value(i32, 0),
            to_value(i1, 1)]
    assert outcome(after, args, memory) != "undefined"


def test_triton_licm_without_guard_when_the_loop_runs():
    text = LICM_LOADS.replace("%lb to %ub", "%c1 to %c4").replace(
        "%c1 = arith.constant 1 : i32", "%c1 = arith.constant 1 : i32\n  %c4 = arith.constant 4 : i32")
    before, after = run(text, "triton-licm")
    assert "arith.cmpi" not in print_op(after)
    memory = {"f32": np.arange(8, dtype=np.float32)}
    for off, m in itertools.product((0, 2), (0, 1)):
        args = [to_value(PTR, 1), to_value(i32, off), to_value(i32, 0), to_value(i32, 0),
                to_value(i1, m)]
        assert_same_outcome(before, after, args, memory)


def test_triton_licm_keeps_loads_of_loops_that_store():
    text = """\
tt.func @f(%p: !tt.ptr<f32>, %n: i32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %x = tt.load %p : !tt.ptr<f32>
    %y = arith.addf %x, %x : f32
    tt.store %p, %y : !tt.ptr<f32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  tt.return %r : f32
}
"""
    before, after = run(text, "triton-licm")
    assert print_op(after).index("tt.load") > print_op(after).index("scf.for")
    memory = {"f32": np.asarray([1.0, 2.0], dtype=np.float32)}
    for n in range(4):
        assert_same_outcome(before, after, [to_value(PTR, 0), to_value(i32, n)], memory)


def test_select_of_masked_load():
    text = """\
tt.func @f(%p: !tt.ptr<f32>, %c: i1, %o: tensor<4xf32>) -> tensor<4xf32> {
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %q = tt.addptr %s, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %m = tt.splat %c : i1 -> tensor<4xi1>
  %x = tt.load %q, %m : tensor<4x!tt.ptr<f32>>
  %y = arith.select %c, %x, %o : tensor<4xf32>
  tt.return %y : tensor<4xf32>
}
"""
    before, after = run(text, "triton-combine")
    assert "arith.select" not in print_op(after)
    memory = {"f32": np.arange(8, dtype=np.float32)}
    other = to_value(parse_type("tensor<4xf32>"), [9.0, -1.0, 0.5, 7.0])
    for c, base in itertools.product((0, 1), (0, 4, 50)):
        assert_same_outcome(before, after, [to_value(PTR, base), to_value(i1, c), other], memory)


def test_inline_and_unroll_with_stores():
    text = """\
tt.func private @put(%p: !tt.ptr<f32>, %i: i32, %v: f32) {
  %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
  %old = tt.load %q : !tt.ptr<f32>
  %new = arith.addf %old, %v : f32
  tt.store %q, %new : !tt.ptr<f32>
  tt.return
}
tt.func @f(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %f = arith.sitofp %i : i32 to f32
    tt.call @put(%p, %i, %f) : (!tt.ptr<f32>, i32, f32) -> ()
    %j = arith.addi %i, %c1 : i32
    tt.call @put(%p, %j, %f) : (!tt.ptr<f32>, i32, f32) -> ()
  } {tt.loop_unroll_factor = 3 : i32}
  tt.return
}
"""
    for pipeline in ("inline", "triton-loop-unroll", "inline,triton-loop-unroll,triton-licm",
                     "triton-loop-unroll,inline,loop-invariant-code-motion"):
        before, after = run(text, pipeline)
        memory = {"f32": np.zeros(12, dtype=np.float32)}
        for n in range(0, 9):
            assert_same_outcome(before, after, [to_value(PTR, 1), to_value(i32, n)], memory)


@pytest.mark.parametrize("pipeline", [
    "inline,canonicalize,triton-combine,triton-reorder-broadcast,cse,triton-licm,"
    "triton-loop-aware-cse,triton-loop-unroll,canonicalize",
])
def test_matmul_like_kernel_through_the_pipeline(pipeline):
    """A small K-loop kernel (loads, dot-free accumulation, masks, pointer increments) through
    Triton's tile pipeline: what it stores stays the same."""
    text = """\
tt.func @f(%a: !tt.ptr<f32>, %out: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %range = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %base = tt.splat %a : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %steps = tt.splat %c4 : i32 -> tensor<4xi32>
  %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zeros, %p = %ptrs) -> (tensor<4xf32>, tensor<4x!tt.ptr<f32>>) : i32 {
    %lim = arith.subi %k, %i : i32
    %lims = tt.splat %lim : i32 -> tensor<4xi32>
    %mask = arith.cmpi slt, %range, %lims : tensor<4xi32>
    %x = tt.load %p, %mask : tensor<4x!tt.ptr<f32>>
    %y = arith.select %mask, %x, %zeros : tensor<4xi1>, tensor<4xf32>
    %two = arith.constant dense<2.0> : tensor<4xf32>
    %z = arith.mulf %y, %two : tensor<4xf32>
    %s = arith.addf %acc, %z : tensor<4xf32>
    %np = tt.addptr %p, %steps : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    scf.yield %s, %np : tensor<4xf32>, tensor<4x!tt.ptr<f32>>
  } {tt.loop_unroll_factor = 2 : i32}
  %obase = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %optrs = tt.addptr %obase, %range : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.store %optrs, %r#0 : tensor<4x!tt.ptr<f32>>
  tt.return
}
"""
    before, after = run(text, pipeline)
    assert "arith.select" not in print_op(after)  # combined into the load
    for k in range(0, 6):
        memory = {"f32": np.arange(40, dtype=np.float32) * 0.25}
        assert_same_outcome(before, after, [to_value(PTR, 0), to_value(PTR, 32),
                                            to_value(i32, k)], memory)
