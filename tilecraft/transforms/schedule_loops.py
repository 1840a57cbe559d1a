"""`tritongpu-schedule-loops`: turns the ``tt.latency`` of a loop's ops into a coarse schedule
(`loop_schedule.LoopSchedule`): ``loop.stage`` and ``loop.cluster`` on every op of the body and
``tt.scheduled_max_stage`` on the loop, as Triton's ScheduleLoops pass does.

The ``tt.latency`` attributes of the module are read and removed. A loop is scheduled when it
is innermost, yields no block argument, holds no ``ttg.barrier``, ``tt.assert`` or ``tt.print``,
and one of its ops has a latency. Then:

1. **Key ops.** Each op reachable from a latency op through users in the body (the yield
   aside) gets its *distance*: its latency plus the largest distance of its users. With ``M``
   the largest distance of a latency op, such an op goes to stage ``M - distance``, in the
   cluster of its stage; clusters run in reverse stage order (the last stage's first). An
   ``scf.if`` there whose forward slice holds no such op moves to an epilogue cluster.
2. **Prologue and epilogue.** An ``scf.if`` a placed op depends on goes to a new first cluster
   at the earliest stage of those ops; every other ``scf.if`` to the last stage, in a new last
   cluster.
3. **Dependencies.** Stage by stage, the ops a placed op depends on in the body go to its stage
   and cluster, or to an earlier one where they already are.
4. **Distance one.** For a placed op not in the last stage that reads a loop-carried value,
   the op yielding that value goes one stage later, in a new cluster right before the reader's
   (a ``tt.load`` goes with the reader instead), with its own dependencies.
5. **The rest** goes to the last stage, in the first cluster, or in a later one where an op of
   the last stage it uses sits there.
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonGPUScheduleLoopsPassBase
from tilecraft.ir import BlockArgument, IntegerAttr, Operation
from tilecraft.transforms.loop_schedule import (LATENCY, LoopSchedule, ancestor_in_block,
                                                body_of, has_distance_above_one, is_outer_loop,
                                                nested_operands)

__all__ = ["TritonGPUScheduleLoopsPass", "schedule_loops", "schedule_loop"]

_UNSAFE = ("ttg.barrier", "tt.assert", "tt.print")


def _safe_to_pipeline(loop: Operation) -> bool:
    return (not is_outer_loop(loop) and not has_distance_above_one(loop)
            and not any(op.name in _UNSAFE for op in loop.walk()))


def _users_in_body(op: Operation) -> list[Operation]:
    body = op.parent
    users = []
    for result in op.results:
        for use in result.uses:
            user = ancestor_in_block(use.owner, body)
            if user is not None and user is not body.last_op:
                users.append(user)
    return users


def _forward_slice(op: Operation) -> set[Operation]:
    found: set[Operation] = set()
    work = [op]
    while work:
        for result in work.pop().results:
            for use in result.uses:
                if use.owner not in found:
                    found.add(use.owner)
                    work.append(use.owner)
    return found


def _backward_slice(op: Operation) -> set[Operation]:
    body = op.parent
    found: set[Operation] = set()
    work = [op]
    while work:
        for value in nested_operands(work.pop()):
            owner = value.owner
            if isinstance(owner, Operation) and owner.parent is body and owner not in found:
                found.add(owner)
                work.append(owner)
    return found


def _schedule_key_ops(loop: Operation, latencies: dict[Operation, int]
                      ) -> LoopSchedule | None:
    ops = list(body_of(loop))[:-1]
    latency_ops = [op for op in ops if op in latencies]
    if not latency_ops:
        return None
    # users in the body come after their definitions: one reverse sweep gives the distances
    distance: dict[Operation, int] = {}
    for op in reversed(ops):
        users = [distance[user] for user in _users_in_body(op)]
        distance[op] = latencies.get(op, 0) + max(users, default=0)
    seen: set[Operation] = set()
    work = list(latency_ops)
    while work:
        op = work.pop()
        if op in seen:
            continue
        seen.add(op)
        work.extend(_users_in_body(op))
    reached = [op for op in ops if op in seen]
    longest = max(distance[op] for op in latency_ops)
    stages = {op: longest - distance[op] for op in reached}
    last = max(stages.values())
    schedule = LoopSchedule(loop, last + 1)
    clusters = [schedule.new_cluster() for _ in range(last + 1)]
    for op, stage in stages.items():
        schedule.insert(op, stage, clusters[last - stage])
    epilogue = schedule.new_cluster()
    for op, stage in stages.items():
        if op.name != "scf.if" or op in latencies:
            continue
        if not any(user in stages for user in _forward_slice(op)):
            schedule.insert(op, stage, epilogue)
    return schedule


def _schedule_prologue_and_epilogue(loop: Operation, schedule: LoopSchedule) -> int:
    """Places the ``scf.if`` ops (step 2); returns the cluster that was first before."""
    after_prologue = schedule.clusters[0]
    if_stages: dict[Operation, int] = {}
    ordered = schedule.ops_in_order()
    for stage in range(schedule.num_stages):
        for op, op_stage, _ in ordered:
            if op_stage != stage:
                continue
            for dep in _backward_slice(op):
                if dep.name == "scf.if":
                    if_stages.setdefault(dep, stage)
    if if_stages:
        prologue = schedule.new_cluster(front=True)
        for op, stage in if_stages.items():
            schedule.insert_if_absent(op, stage, prologue)
    epilogue = schedule.new_cluster()
    for op in body_of(loop):
        if op.name == "scf.if" and op not in if_stages:
            schedule.insert_if_absent(op, schedule.num_stages - 1, epilogue)
    return after_prologue


def _schedule_dependencies(schedule: LoopSchedule) -> None:
    ordered = schedule.ops_in_order()
    for stage in range(schedule.num_stages):
        for op, op_stage, cluster in ordered:
            if op_stage == stage:
                schedule.insert_deps(op, stage, cluster, through_args=False, earlier=True)


def _schedule_distance_one(loop: Operation, schedule: LoopSchedule) -> None:
    body = body_of(loop)
    yielded = body.last_op.operands
    before: dict[int, int] = {}
    for op in list(body)[:-1]:
        if op not in schedule:
            continue
        stage, cluster = schedule[op]
        if stage == schedule.num_stages - 1:
            continue
        for value in nested_operands(op):
            if not (isinstance(value, BlockArgument) and value.owner is body and value.index):
                continue
            producer = yielded[value.index - 1].owner
            if not isinstance(producer, Operation) or producer.parent is not body:
                continue
            if producer in schedule:
                continue
            if producer.name == "tt.load":
                schedule.insert_if_absent(producer, stage, cluster)
                schedule.insert_deps(producer, stage, cluster, through_args=True, earlier=True)
            else:
                if cluster not in before:
                    before[cluster] = schedule.new_cluster(before=cluster)
                schedule.insert_if_absent(producer, stage + 1, before[cluster])
                schedule.insert_deps(producer, stage + 1, before[cluster], through_args=True,
                                     earlier=True)


def _schedule_remaining(loop: Operation, schedule: LoopSchedule, first: int) -> None:
    last = schedule.num_stages - 1
    clusters = {op: first for op in list(body_of(loop))[:-1] if op not in schedule}
    work = [op for op, stage, _ in schedule.ops_in_order() if stage == last]
    while work:
        op = work.pop()
        for result in op.results:
            for use in result.uses:
                user = use.owner
                if user not in clusters:
                    continue
                own = schedule[op][1] if op in schedule else clusters[op]
                if schedule.position(clusters[user]) < schedule.position(own):
                    clusters[user] = own
                    work.append(user)
    for op, cluster in clusters.items():
        schedule.insert(op, last, cluster)


def schedule_loop(loop: Operation, latencies: dict[Operation, int]) -> bool:
    """Schedules one loop from the latencies of its ops (see the module docstring) and writes
    the schedule to it; returns whether it did."""
    if not _safe_to_pipeline(loop):
        return False
    schedule = _schedule_key_ops(loop, latencies)
    if schedule is None:
        return False
    first = _schedule_prologue_and_epilogue(loop, schedule)
    _schedule_dependencies(schedule)
    _schedule_distance_one(loop, schedule)
    _schedule_remaining(loop, schedule, first)
    schedule.write()
    return True


def schedule_loops(module: Operation) -> int:
    """Takes the ``tt.latency`` attributes off ``module``'s ops and schedules its loops by them;
    returns how many loops got a schedule."""
    latencies: dict[Operation, int] = {}
    for op in module.walk():
        attr = op.attributes.pop(LATENCY, None)
        if isinstance(attr, IntegerAttr):
            latencies[op] = attr.value
    loops = [op for op in module.walk() if op.name == "scf.for"]
    return sum(schedule_loop(loop, latencies) for loop in loops)


class TritonGPUScheduleLoopsPass(TritonGPUScheduleLoopsPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        schedule_loops(op)
