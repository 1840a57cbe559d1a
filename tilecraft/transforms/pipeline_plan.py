"""What `tritongpu-pipeline` pipelines in a loop: the loads, the slice of the body that computes
their addresses (run iterations ahead of the body), and the loop-carried values that slice
advances (`plan_loop`); without a schedule, the loads that feed a ``ttg.local_alloc`` and
``cp.async`` or TMA can copy (`candidates`); with the loop's schedule (`scheduled_plan`), the
loads of its first stage that later stages use, how far ahead and into how many buffers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tilecraft.dialects.foldutils import const_attr, is_zero
from tilecraft.generated.ttg import MemDescType
from tilecraft.ir import (Attribute, Block, BlockArgument, IntegerAttr, Operation,
                          RankedTensorType, Value)
from tilecraft.transforms.async_copy import copy_bytes, copy_contiguity, load_shared_encoding
from tilecraft.transforms.effects import is_memory_effect_free
from tilecraft.transforms.loop_schedule import LoopSchedule, ancestor_in_block, body_of
from tilecraft.transforms.loop_unroll import NUM_STAGES
from tilecraft.transforms.tma_lowering import tma_shared_encoding
from tilecraft.transforms.transform_utils import is_defined_outside

__all__ = ["Plan", "ScheduledPlan", "stages_of", "is_tma", "candidates", "plan_loop",
           "scheduled_plan", "users_in"]


@dataclass
class Plan:
    """What pipelining one loop moves: the loads with the ``local_alloc`` user their buffer
    replaces (None when they have none: their users read the buffer with a ``local_load``),
    their buffers' shared layouts, the ops of their slice (in body order), and the carried
    values the slice advances (by index)."""

    loads: list[tuple[Operation, Operation | None]]
    encodings: list[Attribute]
    slice_ops: list[Operation]
    carried: list[int]
    contiguity: dict[Operation, int] = field(default_factory=dict)


def stages_of(loop: Operation, default: int) -> int:
    """The loop's own ``tt.num_stages``, else ``default``."""
    attr = loop.get_attr(NUM_STAGES)
    return attr.value if isinstance(attr, IntegerAttr) else default


def is_tma(load: Operation) -> bool:
    """Whether the load is a tensor-descriptor load (copied with TMA)."""
    return load.name == "tt.descriptor_load"


def _candidate(load: Operation) -> Operation | None:
    """The ``local_alloc`` a pipelinable load feeds, or None."""
    if is_tma(load):
        return _tma_candidate(load)
    return _single_alloc_user(load) if _async_copyable(load) else None


def _async_copyable(load: Operation) -> bool:
    """Whether ``cp.async`` can do ``load``: a tensor of pointers (not a block pointer), no
    ``other`` or a zero one, not volatile."""
    if load.name != "tt.load" or not isinstance(load.results[0].type, RankedTensorType):
        return False
    if not isinstance(load.operands[0].type, RankedTensorType):
        return False  # a block pointer
    if load.other is not None and not is_zero(const_attr(load.other)):
        return False
    volatile = load.get_attr("isVolatile")
    return not (volatile is not None and getattr(volatile, "value", False))


def _single_alloc_user(load: Operation) -> Operation | None:
    uses = list(load.results[0].uses)
    if len(uses) != 1 or uses[0].owner.name != "ttg.local_alloc":
        return None
    alloc = uses[0].owner
    return alloc if alloc.parent is load.parent else None


def _tma_candidate(load: Operation) -> Operation | None:
    """The ``local_alloc`` a descriptor load feeds, when TMA can fill it: its layout is the
    descriptor's TMA layout, and the descriptor is the same in every iteration (defined
    before the loop: the copies of later iterations run before the body makes or carries
    another)."""
    alloc = _single_alloc_user(load)
    if alloc is None or not is_defined_outside(load.desc, load.parent.parent_op):
        return None
    encoding = tma_shared_encoding(load.desc.type)
    return alloc if encoding is not None and alloc.results[0].type.encoding == encoding else None


def _slice_of(body: Block, roots: list[Operation], loads: list[Operation]
              ) -> list[Operation] | None:
    """``roots`` and the body ops they depend on, in body order; None when one of them but
    the pipelined ``loads`` has regions or effects (an indirect load, a call): the slice runs
    iterations ahead of the body, where only the pipelined loads are masked off."""
    members: set[Operation] = set()
    work = list(roots)
    while work:
        op = work.pop()
        if op in members:
            continue
        if op not in loads and (op.regions or not is_memory_effect_free(op)):
            return None
        members.add(op)
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner.parent is body:
                work.append(owner)
    return [op for op in body if op in members]


def _depends_on(value: Value, args: set[Value], body: Block, seen: dict) -> bool:
    if value in args:
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent is not body:
        return False
    if owner in seen:
        return seen[owner]
    seen[owner] = False
    result = any(_depends_on(v, args, body, seen) for v in owner.operands)
    seen[owner] = result
    return result


def candidates(loop: Operation, axis_info) -> list[tuple[Operation, Operation]]:
    """The loads to pipeline without a schedule, with their ``local_alloc`` users."""
    pairs = []
    for op in loop.regions[0].blocks[0]:
        alloc = _candidate(op)
        if alloc is not None and (is_tma(op) or copy_bytes(
                op, alloc.results[0].type.encoding, axis_info) >= 4):
            pairs.append((op, alloc))
    return pairs


def plan_loop(loop: Operation, pairs: list[tuple[Operation, Operation | None]],
          encodings: list[Attribute]) -> Plan | None:
    """The slice of the loads ``pairs`` and the carried values it advances, or None when the
    slice cannot run ahead of the body (see the module docstring)."""
    if not pairs:
        return None
    body = loop.regions[0].blocks[0]
    yield_op = body.last_op
    loads = [load for load, _ in pairs]
    slice_ops = _slice_of(body, loads, loads)
    if slice_ops is None:
        return None
    members = set(slice_ops)
    iter_args = body.arguments[1:]
    carried = [k for k, arg in enumerate(iter_args)
               if any(use.owner in members for use in arg.uses)]
    # what advances those values joins the slice
    extra = [yield_op.operands[k] for k in carried]
    advance = _slice_of(body, [v.owner for v in extra
                               if isinstance(v.owner, Operation) and v.owner.parent is body],
                        loads)
    if advance is None:
        return None
    members |= set(advance)
    # the slice may read only the values it advances itself (or values from outside)
    for op in list(members):
        for operand in op.operands:
            if isinstance(operand, BlockArgument) and operand.owner is body and operand.index:
                if operand.index - 1 not in carried:
                    carried.append(operand.index - 1)
    for k in carried:
        value = yield_op.operands[k]
        owner = value.owner
        inside = isinstance(owner, Operation) and owner.parent is body
        if inside and owner not in members:
            return None
        if isinstance(value, BlockArgument) and value.owner is body and value is not iter_args[k]:
            return None
        for use in iter_args[k].uses:
            if use.owner is not yield_op and use.owner not in members:
                return None
    # ops outside the slice may use slice values only where they do not depend on the
    # advanced values (the originals stay for them; the slice itself is cloned)
    advanced = {iter_args[k] for k in carried}
    allocs = {alloc for _, alloc in pairs}
    seen: dict = {}
    for op in body:
        if op in members or op is yield_op or op in allocs:
            continue
        for operand in op.operands:
            owner = operand.owner
            if (isinstance(owner, Operation) and owner in members and owner not in loads
                    and _depends_on(operand, advanced, body, seen)):
                return None
    return Plan(pairs, encodings, [op for op in body if op in members], sorted(carried))


def _stage_distance(load: Operation, schedule: LoopSchedule) -> int:
    """How many stages after ``load`` its first user runs (through a ``local_alloc``, the
    alloc's users count too; a user in a later cluster counts one stage later)."""
    body = load.parent
    stage, cluster = schedule[load]
    users = users_in(load, body)
    for user in list(users):
        if user.name == "ttg.local_alloc":
            users |= users_in(user, body)
    use_stages = []
    for user in users:
        if user in schedule:
            user_stage, user_cluster = schedule[user]
            later = schedule.position(user_cluster) > schedule.position(cluster)
            use_stages.append(user_stage + later)
    return min(use_stages) - stage if use_stages else 0


def users_in(op: Operation, body: Block) -> set[Operation]:
    """The ops of ``body`` that use ``op``'s results (or hold such a use in their regions)."""
    return {user for result in op.results for use in result.uses
            if (user := ancestor_in_block(use.owner, body)) is not None}


def _readers(load: Operation, alloc: Operation | None) -> set[Operation]:
    """The body ops that read a pipelined load's buffer: its users and the users of its
    ``local_alloc`` through memory views."""
    body = load.parent
    readers = users_in(load, body) - {alloc}
    work = [alloc] if alloc is not None else []
    while work:
        for use in work.pop().results[0].uses:
            user = use.owner
            if isinstance(user.results[0].type if user.results else None, MemDescType):
                work.append(user)
            elif (reader := ancestor_in_block(user, body)) is not None:
                readers.add(reader)
    return readers


def _reads_another(load: Operation, loads: set[Operation]) -> bool:
    """Whether the address or mask of ``load`` depends on another of ``loads``."""
    members = _slice_of(load.parent, [load], list(loads)) or []
    return any(op in loads and op is not load for op in members)


@dataclass
class ScheduledPlan:
    """How a loop's schedule pipelines it: the plan, how many iterations ahead the loads run,
    their buffers, and the op the copies in the loop go before."""

    plan: Plan
    distance: int
    num_buffers: int
    anchor: Operation


def scheduled_plan(loop: Operation, schedule: LoopSchedule, axis_info) -> ScheduledPlan | None:
    """The loads of the loop's first stage that the schedule uses stages later (all at the
    largest such distance, and not reading another one), as cp.async or TMA copies; their
    copies go before the first op of a later cluster than theirs, with one buffer per stage of
    distance, and one more when a buffer is read after that point or by a ``wgmma``."""
    body = body_of(loop)
    chosen = []
    for op in body:
        if op.name not in ("tt.load", "tt.descriptor_load") or op not in schedule:
            continue
        distance = _stage_distance(op, schedule)
        if distance <= 0:
            continue
        if is_tma(op):
            alloc = _tma_candidate(op)
            if alloc is None:
                continue
            encoding = alloc.results[0].type.encoding
        else:
            if not _async_copyable(op):
                continue
            encoding = load_shared_encoding(op)
            if copy_bytes(op, encoding, axis_info) < 4:
                continue
            alloc = next((use.owner for use in op.results[0].uses
                          if use.owner.name == "ttg.local_alloc" and use.owner.parent is body
                          and use.owner.results[0].type.encoding == encoding), None)
        chosen.append((op, alloc, encoding, distance))
    if not chosen:
        return None
    first = min(schedule[load][0] for load, *_ in chosen)
    chosen = [entry for entry in chosen if schedule[entry[0]][0] == first]
    distance = max(entry[3] for entry in chosen)
    chosen = [entry for entry in chosen if entry[3] == distance]
    loads = {entry[0] for entry in chosen}
    chosen = [entry for entry in chosen if not _reads_another(entry[0], loads)]
    plan = plan_loop(loop, [(load, alloc) for load, alloc, _, _ in chosen],
                     [encoding for _, _, encoding, _ in chosen])
    if plan is None:
        return None
    plan.contiguity = {load: copy_contiguity(load, axis_info) for load, _ in plan.loads
                       if not is_tma(load)}
    moved = set(plan.slice_ops) | {alloc for _, alloc in plan.loads}
    cluster = min(schedule.position(schedule[load][1]) for load, _ in plan.loads)
    anchor = next((op for op in body if op not in moved and op is not body.last_op
                   and op in schedule and schedule.position(schedule[op][1]) > cluster),
                  body.last_op)
    order = {op: index for index, op in enumerate(body)}
    readers = set().union(*(_readers(load, alloc) for load, alloc in plan.loads))
    late = any(order[reader] >= order[anchor] for reader in readers if reader in order)
    wgmma = any(reader.name == "ttng.warp_group_dot" for reader in readers)
    return ScheduledPlan(plan, distance, distance + (late or wgmma), anchor)
