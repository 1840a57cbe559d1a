"""`triton-test-loop-peeling`: peeling a loop's last iteration keeps what it computes.

A loop accumulating a function of its induction variable (signed and ``unsigned``, i8 so that
the unsigned bounds reach past the signed range) runs over lower bounds, upper bounds and steps
around zero and the type's edges, before and after the pass, in the numpy evaluator. As in
Triton, a signed loop is peeled on the premise that ``ub - step`` and ``ub - lb`` do not
overflow; bounds that break it are left out."""

from __future__ import annotations

import pytest

from tilecraft.ir import IntegerType, parse_module, print_op
from tilecraft.transforms import PassManager

from .evaluator import Undefined, evaluate, same_values, to_value

I8 = IntegerType(8)

LOOP = """
tt.func @f(%lb: i8, %ub: i8, %step: i8) -> (i8, i8) {{
  %c0 = arith.constant 0 : i8
  %c3 = arith.constant 3 : i8
  %r:2 = scf.for {unsigned}%i = %lb to %ub step %step iter_args(%sum = %c0, %last = %c0) -> (i8, i8) : i8 {{
    %t = arith.muli %i, %c3 : i8
    %s = arith.addi %sum, %t : i8
    scf.yield %s, %i : i8, i8
  }} {{__test_peel_epilogue}}
  tt.return %r#0, %r#1 : i8, i8
}}
"""

BOUNDS = (-128, -7, -1, 0, 1, 2, 5, 9, 126, 127)
STEPS = (1, 2, 3, 7, 100)


@pytest.mark.parametrize("unsigned", [False, True], ids=["signed", "unsigned"])
def test_peeled_loop_keeps_values(unsigned: bool) -> None:
    text = LOOP.format(unsigned="unsigned " if unsigned else "")
    before = parse_module(text, "peel.mlir")
    after = parse_module(text, "peel.mlir")
    PassManager.parse("triton-test-loop-peeling").run(after)
    after.verify()
    assert print_op(after).count("scf.if") == 1
    checked = 0
    for lb in BOUNDS:
        for ub in BOUNDS:
            for step in STEPS:
                if not unsigned and (ub - step < -128 or ub - lb > 127):
                    continue
                args = [to_value(I8, lb), to_value(I8, ub), to_value(I8, step)]
                try:
                    expected = evaluate(before, "f", args)
                except Undefined:
                    continue
                got = evaluate(after, "f", args)
                assert all(same_values(a, b) for a, b in zip(got, expected)), (
                    f"lb={lb} ub={ub} step={step}: {got!r} != {expected!r}\n"
                    f"{print_op(after)}")
                checked += 1
    assert checked > 200
