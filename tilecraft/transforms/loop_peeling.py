"""Loop peeling: run an ``scf.for``'s last iteration after the loop, under a guard.

`peel_loop_epilogue` rewrites ``for %i = lb to ub step s`` (as Triton's ``peelLoopEpilogue``
does) into

- the loop itself, now running ``for %i = lb to ub - s step s``: every iteration but the
  last (``arith.subi ub, s`` is emitted before the loop; for an ``unsigned`` loop
  ``max(ub, s) - s``, which does not wrap around when ``ub < s``);
- the last induction value, ``(ub - lb - 1) / s * s + lb``, computed after the loop;
- ``scf.if (lb < ub)`` whose then region is a copy of the loop body with the induction
  variable read as that last value and the iter_args as the loop's results (its
  ``scf.yield`` yields what the last iteration yields), and whose else region yields the
  loop's results unchanged, for a loop that runs zero times.

Every use of the loop's results outside the new ``scf.if`` reads the ``scf.if``'s results
instead. Signed loops compare with ``slt`` and divide with ``divsi``; an ``unsigned`` loop
uses ``ult`` and ``divui``, so that the peeled iteration is the one the loop would run. As
Triton's, the rewrite of a signed loop assumes that ``ub - s`` and ``ub - lb`` do not overflow.

`TestLoopPeelingPass` (``triton-test-loop-peeling``) peels the loops that carry the unit
attribute ``__test_peel_epilogue``, as Triton's test pass of the same name does.
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonTestLoopPeelingPassBase
from tilecraft.ir import Builder, Location, Operation, Value

from .transform_utils import clone_block_ops, constant_op

__all__ = ["TestLoopPeelingPass", "peel_loop_epilogue", "last_induction_value",
           "PEEL_EPILOGUE"]

#: The attribute that marks a loop for `TestLoopPeelingPass`.
PEEL_EPILOGUE = "__test_peel_epilogue"


def _binary(builder: Builder, name: str, lhs: Value, rhs: Value,
            location: Location | None) -> Value:
    return builder.insert(Operation.create(name, [lhs, rhs], [lhs.type],
                                           location=location)).results[0]


def last_induction_value(builder: Builder, loop: Operation) -> Value:
    """Emit ``(ub - lb - 1) / step * step + lb`` through ``builder``: the induction variable
    of ``loop``'s last iteration, when it runs at all."""
    lb, ub, step = loop.operands[:3]
    location = loop.location
    divide = "arith.divui" if loop.get_attr("unsignedCmp") is not None else "arith.divsi"
    diff = _binary(builder, "arith.subi", ub, lb, location)
    one = builder.insert(constant_op(1, diff.type, location)).results[0]
    diff = _binary(builder, "arith.subi", diff, one, location)
    steps = _binary(builder, divide, diff, step, location)
    delta = _binary(builder, "arith.muli", steps, step, location)
    return _binary(builder, "arith.addi", delta, lb, location)


def peel_loop_epilogue(loop: Operation) -> Operation:
    """Peel the last iteration of the ``scf.for`` ``loop`` into an ``scf.if`` after it (see
    the module's docstring); returns that ``scf.if``."""
    from tilecraft.generated.arith import CmpIOp, CmpIPredicate
    from tilecraft.generated.scf import IfOp, YieldOp

    lb, ub, step = loop.operands[:3]
    location = loop.location
    unsigned = loop.get_attr("unsignedCmp") is not None
    before = Builder.before(loop)
    # Unsigned, ub - step would wrap when ub < step: max(ub, step) - step is 0 then.
    top = _binary(before, "arith.maxui", ub, step, location) if unsigned else ub
    new_ub = _binary(before, "arith.subi", top, step, location)

    after = Builder.after(loop)
    last_iv = last_induction_value(after, loop)
    predicate = CmpIPredicate.ult if unsigned else CmpIPredicate.slt
    cond = after.insert(CmpIOp.build(lb, ub, predicate, location=location)).results[0]

    results = list(loop.results)
    body = loop.regions[0].blocks[0]
    mapping: dict = {body.arguments[0]: last_iv}
    mapping.update(zip(body.arguments[1:], results))
    if_op = after.insert(IfOp.build([r.type for r in results], cond, location=location))
    clone_block_ops(body, Builder.at_end(if_op.then_region.add_block()), mapping,
                    skip_terminator=False)
    if_op.else_region.add_block().append(YieldOp.build(results, location=location))

    for index, result in enumerate(results):
        result.replace_uses_with_if(
            if_op.results[index], lambda use: not if_op.is_ancestor(use.owner))
    loop.set_operand(1, new_ub)
    return if_op


class TestLoopPeelingPass(TritonTestLoopPeelingPassBase):
    """Triton's ``triton-test-loop-peeling``: peel the loops marked ``__test_peel_epilogue``."""

    def run_on_operation(self, op: Operation) -> None:
        loops = [loop for loop in op.walk(post_order=True) if loop.name == "scf.for"
                 and PEEL_EPILOGUE in loop.attributes]
        for loop in loops:
            peel_loop_epilogue(loop)
