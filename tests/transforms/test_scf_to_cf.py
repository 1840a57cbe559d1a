"""convert-scf-to-cf keeps what programs compute: nested loops, conditionals and while loops
are evaluated (`evaluator`) before and after the pass over many inputs, trip counts of zero,
one and several included, and no scf op is left."""

from __future__ import annotations

import itertools

from tilecraft.ir import i32, print_op

from .evaluator import to_value
from .test_loop_passes import assert_same, run

NESTED = """\
tt.func @f(%lb: i32, %ub: i32, %step: i32, %x: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%acc = %x, %odd = %c0) -> (i32, i32) : i32 {
    %bit = arith.andi %i, %c1 : i32
    %is_odd = arith.cmpi ne, %bit, %c0 : i32
    %next:2 = scf.if %is_odd -> (i32, i32) {
      %o = arith.addi %odd, %c1 : i32
      scf.yield %acc, %o : i32, i32
    } else {
      %m = arith.muli %acc, %c3 : i32
      %s = scf.for %j = %c0 to %i step %c1 iter_args(%t = %m) -> (i32) : i32 {
        %u = arith.addi %t, %j : i32
        scf.yield %u : i32
      }
      scf.yield %s, %odd : i32, i32
    }
    scf.yield %next#0, %next#1 : i32, i32
  }
  %w = scf.while (%a = %x) : (i32) -> i32 {
    %lt = arith.cmpi slt, %a, %ub : i32
    scf.condition(%lt) %a : i32
  } do {
  ^bb0(%a: i32):
    %a1 = arith.addi %a, %step : i32
    scf.yield %a1 : i32
  }
  tt.return %r#0, %r#1, %w : i32, i32, i32
}
"""

UNSIGNED = """\
tt.func @f(%lb: i32, %ub: i32, %step: i32, %x: i32) -> i32 {
  %r = scf.for unsigned %i = %lb to %ub step %step iter_args(%acc = %x) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %x, %c0 : i32
  scf.if %neg {
    %unused = arith.addi %x, %x : i32
  }
  tt.return %r : i32
}
"""


def test_nested_control_flow_keeps_results():
    before, after = run(NESTED, "convert-scf-to-cf")
    assert "scf." not in print_op(after)
    for lb, ub, step, x in itertools.product((-2, 0, 3), (-1, 0, 4, 7), (1, 3), (-3,)):
        assert_same(before, after, "f", [to_value(i32, v) for v in (lb, ub, step, x)])


def test_unsigned_loop_keeps_results():
    before, after = run(UNSIGNED, "convert-scf-to-cf")
    assert "arith.cmpi ult" in print_op(after) and "scf." not in print_op(after)
    # (-1, 2): no trip unsigned, three signed; the others run alike both ways (steps that
    # do not overflow the induction variable, which scf.for leaves undefined)
    for (lb, ub), step, x in itertools.product(((0, 4), (3, 0), (-3, -1), (-1, 2)), (1, 2),
                                               (-3, 2)):
        assert_same(before, after, "f", [to_value(i32, v) for v in (lb, ub, step, x)])
