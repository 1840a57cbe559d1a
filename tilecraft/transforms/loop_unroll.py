"""`triton-loop-unroll`: unroll ``scf.for`` loops by their ``tt.loop_unroll_factor``.

For a loop ``for %i = lb to ub step s`` with factor ``f > 1`` (the attribute is removed from
every loop that has it; a factor of 1 or less, or one that is not an integer, only loses the
attribute), as MLIR's ``loopUnrollByFactor`` that Triton calls does:

- the main loop runs ``for %i = lb to ub' step s * f`` and its body holds ``f`` copies of the
  original body, copy ``k`` seeing ``%i + k * s`` as its induction variable and the values the
  copy before it yields as its iter_args; ``ub' = lb + (tc - tc mod f) * s`` where
  ``tc = ceildiv(ub - lb, s)`` is the trip count;
- an epilogue loop, a copy of the original loop from ``ub'`` to ``ub`` starting from the main
  loop's results, runs the remaining ``tc mod f`` iterations; its results replace the
  loop's. As Triton does, it gets ``tt.num_stages = 1`` (it is not worth pipelining).

With constant bounds and step the bounds are computed here: the factor is lowered to the trip
count when that is smaller, and no epilogue is made when ``f`` divides the trip count; a loop
that never runs is left as it is. Otherwise the computation is emitted before the loop
(``arith.subi``, ``ceildivsi``, ``remsi``, ...). ``unsigned`` loops need constant bounds (they
are left alone, with a remark, otherwise).
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonLoopUnrollPassBase
from tilecraft.ir import Builder, IntegerAttr, Operation, i32

from .diagnostics import emit_remark
from .transform_utils import constant_op, int_constant

__all__ = ["TritonLoopUnrollPass", "unroll_by_factor", "UNROLL_FACTOR", "NUM_STAGES"]

UNROLL_FACTOR = "tt.loop_unroll_factor"
NUM_STAGES = "tt.num_stages"


def _unroll_factor(loop: Operation) -> int:
    attr = loop.attributes.get(UNROLL_FACTOR)
    if isinstance(attr, IntegerAttr) and not isinstance(attr.value, bool):
        return attr.value
    return 1


def _static_trip_count(loop: Operation) -> int | None:
    lb, ub, step = (int_constant(v) for v in loop.operands[:3])
    if lb is None or ub is None or step is None or step <= 0:
        return None
    if loop.get_attr("unsignedCmp") is not None:
        type_ = loop.operands[0].type
        width = 64 if type_.is_index() else type_.width
        lb, ub = lb % (1 << width), ub % (1 << width)
    return max(0, -(-(ub - lb) // step))


class _Emitter:
    """Creates arith ops before the loop, folding constants on the way."""

    def __init__(self, loop: Operation) -> None:
        self.builder = Builder.before(loop)
        self.location = loop.location
        self.type = loop.operands[0].type

    def constant(self, number: int):
        return self.builder.insert(constant_op(number, self.type, self.location)).results[0]

    def binary(self, name: str, lhs, rhs):
        op = Operation.create(name, [lhs, rhs], [self.type], location=self.location)
        return self.builder.insert(op).results[0]


def unroll_by_factor(loop: Operation, factor: int) -> Operation | None:
    """Unroll ``loop`` by ``factor`` (> 1); returns the epilogue loop, if one was made.
    Returns None without changing anything when the loop cannot be unrolled (it never runs,
    or is unsigned with bounds that are not constants)."""
    lb, ub, step = loop.operands[:3]
    trip_count = _static_trip_count(loop)
    emit = _Emitter(loop)
    if trip_count is not None:
        if trip_count == 0:
            return None
        factor = min(factor, trip_count)
        if factor <= 1:
            return None
        step_value = int_constant(step)
        main_count = trip_count - trip_count % factor
        needs_epilogue = main_count != trip_count
        lb_value = int_constant(lb)
        new_ub = (emit.constant(lb_value + main_count * step_value) if needs_epilogue
                  else ub)
        new_step = emit.constant(step_value * factor)
    else:
        if loop.get_attr("unsignedCmp") is not None:
            emit_remark(loop, "not unrolled: an unsigned loop needs constant bounds")
            return None
        needs_epilogue = True
        step_value = int_constant(step)
        diff = emit.binary("arith.subi", ub, lb)
        count = emit.binary("arith.ceildivsi", diff, step)
        rest = emit.binary("arith.remsi", count, emit.constant(factor))
        even = emit.binary("arith.subi", count, rest)
        new_ub = emit.binary("arith.addi", lb, emit.binary("arith.muli", even, step))
        new_step = (emit.constant(step_value * factor) if step_value is not None
                    else emit.binary("arith.muli", step, emit.constant(factor)))

    epilogue = None
    if needs_epilogue:
        epilogue = loop.clone()
        loop.parent.insert_after(loop, epilogue)
        epilogue.set_operand(0, new_ub)
        for index, result in enumerate(loop.results):
            result.replace_all_uses_with(epilogue.results[index])
            epilogue.set_operand(3 + index, result)
        epilogue.attributes[NUM_STAGES] = IntegerAttr(1, i32)
        epilogue.attributes.pop(UNROLL_FACTOR, None)

    _unroll_body(loop, factor, step, step_value)
    loop.set_operand(1, new_ub)
    loop.set_operand(2, new_step)
    return epilogue


def _unroll_body(loop: Operation, factor: int, step, step_value: int | None) -> None:
    body = loop.regions[0].blocks[0]
    iv, iter_args = body.arguments[0], body.arguments[1:]
    yield_op = body.last_op
    original = [op for op in body if op is not yield_op]
    original_yield = list(yield_op.operands)
    yielded = original_yield
    builder = Builder.before(yield_op)
    outside = Builder.before(loop)
    location = loop.location
    for k in range(1, factor):
        if step_value is not None:
            offset = outside.insert(constant_op(k * step_value, iv.type, location)).results[0]
        elif k == 1:
            offset = step
        else:
            times = outside.insert(constant_op(k, iv.type, location)).results[0]
            offset = outside.insert(Operation.create(
                "arith.muli", [step, times], [iv.type], location=location)).results[0]
        shifted = builder.insert(Operation.create("arith.addi", [iv, offset], [iv.type],
                                                  location=location)).results[0]
        mapping = {iv: shifted, **{arg: value for arg, value in zip(iter_args, yielded)}}
        for op in original:
            builder.insert(op.clone(mapping))
        yielded = [mapping.get(v, v) for v in original_yield]
    yield_op.set_operands(yielded)


class TritonLoopUnrollPass(TritonLoopUnrollPassBase):
    """Triton's ``triton-loop-unroll``."""

    def run_on_operation(self, op: Operation) -> None:
        # Inner loops first, so that an outer loop's copies hold already unrolled ones.
        loops = [loop for loop in op.walk(post_order=True) if loop.name == "scf.for"
                 and UNROLL_FACTOR in loop.attributes]
        for loop in loops:
            factor = _unroll_factor(loop)
            del loop.attributes[UNROLL_FACTOR]
            if factor > 1:
                unroll_by_factor(loop, factor)

