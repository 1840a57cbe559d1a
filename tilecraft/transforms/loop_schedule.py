"""A coarse schedule of a loop body, as Triton's pipeliner keeps it between its passes: each op of
an ``scf.for`` body gets a *stage* (how many iterations after the first stage it runs) and a
*cluster* (where, in the body of the pipelined loop, it goes: clusters run in order).

`tritongpu-assign-latencies` writes ``tt.latency`` on the ops whose results come late (the
loads to pipeline); `tritongpu-schedule-loops` turns them into ``loop.stage`` and
``loop.cluster`` on every op of the body and ``tt.scheduled_max_stage`` on the loop;
`tritongpu-pipeline` reads that schedule back. The helpers here are the loop facts those passes
share.
"""

from __future__ import annotations

from typing import Iterator

from tilecraft.ir import Block, BlockArgument, IntegerAttr, IntegerType, Operation, Value

__all__ = ["LATENCY", "LOOP_STAGE", "LOOP_CLUSTER", "SCHEDULED_MAX_STAGE", "LoopSchedule",
           "body_of", "is_outer_loop", "has_distance_above_one", "nested_operands",
           "ancestor_in_block", "strip_schedule"]

LATENCY = "tt.latency"
LOOP_STAGE = "loop.stage"
LOOP_CLUSTER = "loop.cluster"
SCHEDULED_MAX_STAGE = "tt.scheduled_max_stage"

_I32 = IntegerType(32)


def body_of(loop: Operation) -> Block:
    """The single block of an ``scf.for``."""
    return loop.regions[0].blocks[0]


def is_outer_loop(loop: Operation) -> bool:
    """Whether the body holds another loop directly (only innermost loops are pipelined)."""
    return any(op.name in ("scf.for", "scf.while") for op in body_of(loop))


def has_distance_above_one(loop: Operation) -> bool:
    """Whether a yielded value is not made by an op (a block argument: an iteration reads a
    value two or more iterations old, which the pipeliner does not handle)."""
    return any(not isinstance(v.owner, Operation) for v in body_of(loop).last_op.operands)


def nested_operands(op: Operation) -> Iterator[Value]:
    """The operands of ``op`` and those its regions use from outside them."""
    yield from op.operands
    if not op.regions:
        return
    for inner in op.walk():
        if inner is op:
            continue
        for value in inner.operands:
            owner = value.owner
            scope = owner if isinstance(owner, Operation) else owner.parent_op
            if not op.is_ancestor(scope):
                yield value


def ancestor_in_block(op: Operation, block: Block) -> Operation | None:
    """``op`` or the op enclosing it that sits in ``block`` (None when it is outside)."""
    while op is not None and op.parent is not block:
        op = op.parent_op
    return op


def strip_schedule(root: Operation) -> None:
    """Removes every schedule attribute under ``root``."""
    for op in root.walk():
        for name in (LOOP_STAGE, LOOP_CLUSTER, SCHEDULED_MAX_STAGE):
            op.attributes.pop(name, None)


class LoopSchedule:
    """Stages and clusters of the ops of one loop body. Clusters are kept as an ordered list of
    tokens, so a new cluster can go before another one; an op's cluster as written to the IR is
    its token's position."""

    def __init__(self, loop: Operation, num_stages: int) -> None:
        self.loop = loop
        self.num_stages = num_stages
        self.clusters: list[int] = []
        self.placement: dict[Operation, tuple[int, int]] = {}
        self._next_token = 0

    # -- clusters

    def new_cluster(self, before: int | None = None, front: bool = False) -> int:
        """A new cluster at the back, at the front, or right before cluster ``before``."""
        token = self._next_token
        self._next_token += 1
        if front:
            self.clusters.insert(0, token)
        elif before is not None:
            self.clusters.insert(self.clusters.index(before), token)
        else:
            self.clusters.append(token)
        return token

    def position(self, cluster: int) -> int:
        return self.clusters.index(cluster)

    # -- ops

    def __contains__(self, op: Operation) -> bool:
        return op in self.placement

    def __getitem__(self, op: Operation) -> tuple[int, int]:
        return self.placement[op]

    def insert(self, op: Operation, stage: int, cluster: int) -> None:
        self.placement[op] = (stage, cluster)

    def insert_if_absent(self, op: Operation, stage: int, cluster: int) -> bool:
        if op in self.placement:
            return False
        self.placement[op] = (stage, cluster)
        return True

    def insert_minimum(self, op: Operation, stage: int, cluster: int) -> bool:
        """Places ``op`` at (stage, cluster) unless it is already placed no later; returns
        whether it moved."""
        existing = self.placement.get(op)
        if existing is None or stage < existing[0]:
            self.placement[op] = (stage, cluster)
            return True
        if stage > existing[0]:
            return False
        if self.position(cluster) < self.position(existing[1]):
            self.placement[op] = (stage, cluster)
            return True
        return False

    def insert_deps(self, op: Operation, stage: int, cluster: int, *, through_args: bool,
                    earlier: bool) -> None:
        """Places the body ops ``op`` depends on at (stage, cluster), recursively; with
        ``through_args`` a loop-carried operand stands for the value yielded for it; with
        ``earlier`` ops already placed later move up (`insert_minimum`)."""
        body = op.parent
        for value in nested_operands(op):
            seen: set[Value] = set()
            while through_args and isinstance(value, BlockArgument) and value not in seen:
                seen.add(value)
                if value.owner is body and value.index > 0:
                    value = body.last_op.operands[value.index - 1]
                    continue
                break
            owner = value.owner
            if not isinstance(owner, Operation) or owner.parent is not body:
                continue
            inserted = (self.insert_minimum(owner, stage, cluster) if earlier
                        else self.insert_if_absent(owner, stage, cluster))
            if inserted:
                self.insert_deps(owner, stage, cluster, through_args=through_args,
                                 earlier=earlier)

    def ops_in_order(self) -> list[tuple[Operation, int, int]]:
        """The placed ops of the body by cluster, then body order: (op, stage, cluster)."""
        placed = [(op, *self.placement[op]) for op in body_of(self.loop)
                  if op in self.placement]
        rank = {token: index for index, token in enumerate(self.clusters)}
        return sorted(placed, key=lambda entry: rank[entry[2]])

    # -- IR

    def write(self) -> None:
        """Writes ``loop.stage``/``loop.cluster`` on the placed ops and the last stage as the
        loop's ``tt.scheduled_max_stage`` (never lowering one already there)."""
        rank = {token: index for index, token in enumerate(self.clusters)}
        for op, stage, cluster in self.ops_in_order():
            op.attributes[LOOP_STAGE] = IntegerAttr(stage, _I32)
            op.attributes[LOOP_CLUSTER] = IntegerAttr(rank[cluster], _I32)
        last = self.num_stages - 1
        existing = self.loop.get_attr(SCHEDULED_MAX_STAGE)
        if isinstance(existing, IntegerAttr):
            last = max(last, existing.value)
        self.loop.attributes[SCHEDULED_MAX_STAGE] = IntegerAttr(last, _I32)

    @classmethod
    def read(cls, loop: Operation) -> LoopSchedule | None:
        """The schedule a loop carries (None without ``tt.scheduled_max_stage``); ops without
        ``loop.stage`` stay unplaced."""
        last = loop.get_attr(SCHEDULED_MAX_STAGE)
        if not isinstance(last, IntegerAttr):
            return None
        schedule = cls(loop, last.value + 1)
        entries = []
        for op in body_of(loop):
            stage, cluster = op.get_attr(LOOP_STAGE), op.get_attr(LOOP_CLUSTER)
            if isinstance(stage, IntegerAttr) and isinstance(cluster, IntegerAttr):
                entries.append((op, stage.value, cluster.value))
        count = max((cluster for _, _, cluster in entries), default=-1) + 1
        schedule.clusters = list(range(count))
        schedule._next_token = count
        for op, stage, cluster in entries:
            schedule.insert(op, stage, cluster)
        return schedule
