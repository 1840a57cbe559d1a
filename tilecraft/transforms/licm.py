"""`loop-invariant-code-motion` and `triton-licm`: hoist loop invariants out of loops.

Both passes visit the ``scf.for`` and ``scf.while`` loops nested in the op they run on,
innermost first, so that what leaves an inner loop lands in the enclosing loop's body and may
leave that one too. In each loop region they go through the ops of the body (not those nested
in other ops' regions) in order, and move an op right before the loop when

- it is not a terminator,
- every value it uses (its nested ops included, when they are defined outside it) is defined
  outside the loop: an ``scf.for``'s induction variable and iter_args, and ``scf.while``'s block
  arguments, are not;
- it has no memory effects and is speculatable (`transform_utils.is_speculatable`: integer
  divisions need a known safe divisor; ``scf.if`` and ``scf.for`` with a constant step count
  when all their nested ops qualify), since the loop may run zero times.

Ops using a hoisted op's results are looked at again, so whole invariant chains leave at once.

`triton-licm` also hoists a ``tt.load`` whose operands are invariant when nothing in the loop
(nested ops included) may write memory and the load is not volatile. As Triton's pass does, the
load is guarded by the loop's trip-count condition folded into its mask: before an ``scf.for``
it becomes ``splat(lb < ub) & mask`` (``ult`` for ``unsigned`` loops), or just the condition
when it had no mask, so a loop that runs zero times reads nothing; each hoisted load gets its
own ``cmpi``/``splat``/``andi`` right before the loop, in that order, as Triton emits them.
A loop known to run at least once (constant bounds with ``lb < ub``) needs no guard, and
neither does a load in an ``scf.while``'s ``before`` region, which always runs (Triton leaves
loads in ``scf.while`` loops); loads in a ``while``'s ``after`` region, loads through tensor
pointers or with a boundary check (which cannot take a mask) stay put.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from tilecraft.generated.passes import LoopInvariantCodeMotionPassBase, TritonLICMPassBase
from tilecraft.ir import Operation, RankedTensorType, i1
from tilecraft.ir.traits import Terminator

from .effects import is_memory_effect_free
from .transform_utils import (
    int_constant, is_defined_outside, is_speculatable, may_write_memory, uses_only,
)

__all__ = ["LoopInvariantCodeMotionPass", "TritonLICMPass", "hoist_loop_invariants",
           "loops_innermost_first"]

LOOP_OPS = ("scf.for", "scf.while")


def loops_innermost_first(root: Operation) -> list[Operation]:
    """The ``scf.for``/``scf.while`` ops nested in ``root``, inner loops before outer ones."""
    return [op for op in root.walk(post_order=True) if op.name in LOOP_OPS and op is not root]


def hoist_loop_invariants(loop: Operation,
                          should_move: Callable[[Operation, int], bool],
                          move: Callable[[Operation, int], None] | None = None) -> int:
    """Move the ops of ``loop``'s regions whose used values are all defined outside the loop
    and for which ``should_move(op, region_index)`` holds before the loop (with ``move(op,
    region_index)`` when given). Returns how many ops moved."""
    moved = 0
    for index, region in enumerate(loop.regions):
        worklist: deque[Operation] = deque(op for block in region.blocks for op in block)
        queued = set(worklist)
        while worklist:
            op = worklist.popleft()
            queued.discard(op)
            if op.parent is None or op.parent.parent is not region:
                continue
            if op.has_trait(Terminator):
                continue
            if not uses_only(op, lambda v: is_defined_outside(v, loop)):
                continue
            if not should_move(op, index):
                continue
            if move is not None:
                move(op, index)
            else:
                op.move_before(loop)
            moved += 1
            for result in op.results:
                for user in result.users:
                    top = _ancestor_in(user, region)
                    if top is not None and top not in queued:
                        queued.add(top)
                        worklist.append(top)
    return moved


def _ancestor_in(op: Operation, region) -> Operation | None:
    while op is not None:
        if op.parent is not None and op.parent.parent is region:
            return op
        op = op.parent_op
    return None


def _pure_and_speculatable(op: Operation) -> bool:
    return is_memory_effect_free(op) and is_speculatable(op)


class LoopInvariantCodeMotionPass(LoopInvariantCodeMotionPassBase):
    """MLIR's loop-invariant-code-motion for ``scf.for`` and ``scf.while``."""

    def run_on_operation(self, op: Operation) -> None:
        for loop in loops_innermost_first(op):
            hoist_loop_invariants(loop, lambda candidate, _index: _pure_and_speculatable(
                candidate))


# -- triton-licm


def runs_at_least_once(loop: Operation) -> bool:
    """An ``scf.for`` with constant bounds and lb < ub (compared as the loop compares)."""
    if loop.name != "scf.for":
        return False
    lb, ub = int_constant(loop.operands[0]), int_constant(loop.operands[1])
    if lb is None or ub is None:
        return False
    if loop.get_attr("unsignedCmp") is not None:
        width = 64 if loop.operands[0].type.is_index() else loop.operands[0].type.width
        lb, ub = lb % (1 << width), ub % (1 << width)
    return lb < ub


def _is_tensor_pointer_load(load: Operation) -> bool:
    from tilecraft.generated.tt import PointerType

    ptr_type = load.operands[0].type
    return isinstance(ptr_type, PointerType) and isinstance(ptr_type.pointee_type,
                                                            RankedTensorType)


class TritonLICMPass(TritonLICMPassBase):
    """Triton's LICM: ``loop-invariant-code-motion`` plus loads in loops that do not write."""

    def run_on_operation(self, op: Operation) -> None:
        for loop in loops_innermost_first(op):
            self._hoist(loop)

    def _hoist(self, loop: Operation) -> None:
        state: dict[str, bool | None] = {"writes": None}

        def loop_writes() -> bool:
            if state["writes"] is None:
                state["writes"] = may_write_memory(loop)
            return state["writes"]

        def should_move(candidate: Operation, index: int) -> bool:
            if candidate.name != "tt.load":
                return _pure_and_speculatable(candidate)
            if candidate.is_volatile or loop_writes():
                return False
            if _is_tensor_pointer_load(candidate) or candidate.boundary_check:
                return False
            if loop.name == "scf.while":
                return index == 0  # the before region always runs
            return True

        def move(candidate: Operation, index: int) -> None:
            if (candidate.name == "tt.load" and loop.name == "scf.for"
                    and not runs_at_least_once(loop)):
                candidate = self._guard(candidate, loop)
            candidate.move_before(loop)

        hoist_loop_invariants(loop, should_move, move)

    @staticmethod
    def _guard(load: Operation, loop: Operation) -> Operation:
        """Replace ``load`` (in the loop) by one whose mask also holds ``lb < ub``, as Triton's
        ``getPredMask`` builds it right before the loop, for each load: ``cmpi``, its ``splat``
        to the pointer's shape, and ``andi`` of that with the load's own mask."""
        from tilecraft.generated.arith import AndIOp, CmpIOp, CmpIPredicate
        from tilecraft.generated.tt import LoadOp, SplatOp

        before_loop = loop.parent

        def insert(new_op: Operation) -> Operation:
            before_loop.insert_before(loop, new_op)
            return new_op

        predicate = (CmpIPredicate.ult if loop.get_attr("unsignedCmp") is not None
                     else CmpIPredicate.slt)
        guard = insert(CmpIOp.build(loop.operands[0], loop.operands[1], predicate,
                                    location=loop.location)).results[0]
        ptr_type = load.operands[0].type
        if isinstance(ptr_type, RankedTensorType):
            mask_type = RankedTensorType(ptr_type.shape, i1, ptr_type.encoding)
            guard = insert(SplatOp.build(mask_type, guard, location=loop.location)).results[0]
        if load.mask is not None:
            guard = insert(AndIOp.build(guard, load.mask, location=loop.location)).results[0]
        location = load.location
        new_load = LoadOp.build(
            load.ptr, load.result_.type, guard, load.other,
            boundary_check=load.properties.get("boundaryCheck"),
            padding=load.properties.get("padding"), cache=load.properties.get("cache"),
            evict=load.properties.get("evict"), is_volatile=load.properties.get("isVolatile"),
            attributes=dict(load.attributes), location=location)
        insert(new_load)
        load.results[0].replace_all_uses_with(new_load.results[0])
        load.erase()
        return new_load
