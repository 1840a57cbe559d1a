"""`tritongpu-assign-latencies`: marks the loads a loop should pipeline with ``tt.latency``, the
number of stages their results take to arrive, as Triton's AssignLatencies pass does.

For each innermost ``scf.for`` (no loop in its body, no yielded block argument) whose stage
count (its ``tt.num_stages``, else the ``num-stages`` option) is above 1, and where no op of the
body has a ``tt.latency`` yet (those are the user's and stay):

* the loads feeding a dot's A or B operand (``tt.dot``, ``tt.dot_scaled``,
  ``ttng.warp_group_dot``), through ops of the body, are found with their *indirection level*:
  0 for a load the dot reads, 1 for a load the address of such a load depends on, and so on; a
  load reached at two different levels is dropped. A loop with ``tt.num_stages`` also
  considers loads that feed no dot (level 0 for those no other load needs);
* a load is kept when pipelining it pays: a ``tt.descriptor_load`` always; a ``tt.load`` of a
  tensor of pointers when one ``cp.async`` moves at least 4 bytes (`copy_bytes`, into the
  layout of its ``ttg.local_alloc`` users, which must agree, or the one its dot-operand users
  want) and its users do not want two different shared layouts; a scalar load of 32 bits or
  more;
* loads at a level of ``num_stages - 1`` or more are dropped, and each remaining load gets
  ``tt.latency = (num_stages - 1) / (max level + 1)``.
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonGPUAssignLatenciesPassBase
from tilecraft.ir import IntegerAttr, IntegerType, Operation, RankedTensorType
from tilecraft.transforms.async_copy import (copy_bytes, dot_operand_shared_encoding,
                                             load_shared_encoding)
from tilecraft.transforms.loop_schedule import (LATENCY, body_of, has_distance_above_one,
                                                is_outer_loop, nested_operands)
from tilecraft.transforms.loop_unroll import NUM_STAGES
from tilecraft.transforms.pipeline_plan import stages_of

__all__ = ["TritonGPUAssignLatenciesPass", "assign_latencies", "DOT_OPS", "LOAD_OPS"]

DOT_OPS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")
LOAD_OPS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")


def _scalar_bits(t) -> int:
    pointee = getattr(t, "pointee_type", None)
    return getattr(pointee, "width", 0)


def pipelining_pays(load: Operation, axis_info) -> bool:
    """Whether an asynchronous copy of ``load`` is worth it (see the module docstring)."""
    if load.name != "tt.load":
        return True
    pointers = load.operands[0].type
    if not isinstance(pointers, RankedTensorType):
        return _scalar_bits(pointers) >= 32
    if not isinstance(load.results[0].type, RankedTensorType):
        return False
    _, clash = dot_operand_shared_encoding(load.results[0])
    if clash:
        return False
    allocs = {use.owner.results[0].type.encoding for use in load.results[0].uses
              if use.owner.name == "ttg.local_alloc"}
    if len(allocs) > 1:
        return False
    return copy_bytes(load, load_shared_encoding(load), axis_info) >= 4


def indirection_levels(loop: Operation, axis_info, num_stages: int
                       ) -> dict[Operation, int]:
    """The loads of the body to pipeline with their indirection levels (insertion ordered)."""
    body = body_of(loop)
    levels: dict[Operation, int] = {}
    excluded: set[Operation] = set()

    def visit(op: Operation, distance: int, seen: set[Operation]) -> None:
        if op in seen or op in excluded:
            return
        seen.add(op)
        if op.name in LOAD_OPS:
            if not pipelining_pays(op, axis_info):
                return
            if op in levels and levels[op] != distance:
                del levels[op]
                excluded.add(op)
                return
            levels.setdefault(op, distance)
            distance += 1
        accumulator = op.operands[2] if op.name in DOT_OPS and len(op.operands) > 2 else None
        for value in nested_operands(op):
            if value is accumulator:
                continue
            owner = value.owner
            if isinstance(owner, Operation) and owner.parent is body:
                visit(owner, distance, seen)

    ops = list(body)[:-1]
    for op in ops:
        if op.name in DOT_OPS:
            visit(op, 0, set())
    if loop.get_attr(NUM_STAGES) is not None:
        seen: set[Operation] = set()
        for op in ops:
            if op.name not in LOAD_OPS:
                visit(op, 0, seen)
    return {load: level for load, level in levels.items() if level < num_stages - 1}


def _candidate_loops(module: Operation, default: int) -> list[Operation]:
    return [op for op in module.walk() if op.name == "scf.for" and not is_outer_loop(op)
            and not has_distance_above_one(op) and stages_of(op, default) > 1]


def assign_latencies(module: Operation, num_stages: int) -> int:
    """Writes ``tt.latency`` on the loads to pipeline in ``module``'s loops; returns how many
    loads got one."""
    from tilecraft.analysis.axisinfo import AxisInfoAnalysis

    loops = _candidate_loops(module, num_stages)
    axis_info = None
    count = 0
    for loop in loops:
        ops = list(body_of(loop))[:-1]
        if any(op.get_attr(LATENCY) is not None for op in ops):
            continue
        axis_info = axis_info or AxisInfoAnalysis(module)
        stages = stages_of(loop, num_stages)
        levels = indirection_levels(loop, axis_info, stages)
        if not levels:
            continue
        latency = (stages - 1) // (max(levels.values()) + 1)
        for load in levels:
            load.attributes[LATENCY] = IntegerAttr(latency, IntegerType(32))
            count += 1
    return count


class TritonGPUAssignLatenciesPass(TritonGPUAssignLatenciesPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        assign_latencies(op, self.num_stages)
