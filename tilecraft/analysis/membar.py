"""Barrier insertion for shared memory (Triton's ``MembarAnalysis``).

Threads of a CTA write and read shared memory independently; a ``ttg.barrier local`` must
separate two accesses to overlapping bytes when one of them writes (read after write, write
after read, write after write). The analysis walks each function's control flow and keeps, per
program point, the byte intervals (from `tilecraft.analysis.allocation`) read and written since
the last barrier, each with the ops that accessed them (`BlockInfo`). An access is a `Slice`:
a buffer's bytes, narrowed to a box of elements when the descriptor is a
``ttg.memdesc_subslice`` of the whole buffer, so that views of disjoint boxes do not conflict.

- an op's accesses are its shared-memory effects on the buffers its operands may refer to
  (`shared_effects`), or, for a call, the callee's pending accesses shifted to the call's
  virtual buffer; an op with a scratch buffer writes it first and reads it last, and its
  lowering synchronizes inside, so everything pending before it is done afterwards;
- when the op's accesses conflict with the pending ones, a barrier goes right before it and
  the pending set is cleared; an existing local barrier clears it too; a
  ``ttg.async_wait`` or ``ttng.async_tma_store_wait`` (Triton's ``MemWaitOpTrait`` ops) is
  followed by a barrier (the copies it waited for were issued by other threads: one thread
  issues the TMA stores, and the others may only write their buffers once it has waited), one
  for a run of adjacent waits (the prefetch pass's waits for the next
  iteration's two operands), where Triton puts one after each;
- control flow is a graph of *virtual blocks*: a block, or the rest of a block after an op
  with regions (``scf.for``/``scf.if``/``scf.while``/``ttg.warp_specialize``), with edges
  along branches, into the
  regions an op may run (`tilecraft.analysis.cfg.region_successors`) and from a region's end
  to the regions that may run next or back after the op. A worklist runs to a fixpoint, the
  input of a virtual block being the join of its predecessors' outputs, so a loop's back edge
  brings the accesses of the end of its body to its start. ``ttg.warp_specialize`` runs its
  default region in line; its partitions start after the ``ttg.warp_specialize.partitions``
  op, which synchronizes like a barrier, and nothing flows out of them.

Functions are processed callees first (`ModuleMembar`); what a function leaves pending at its
returns is what its calls bring in.

With ``skip_satisfied_waits`` (the CUDA backend's choice; Triton always synchronizes after a
wait) a run of ``ttg.async_wait`` that every path reaches with its copies already waited for
(`wait_is_satisfied`: an earlier wait for as few pending groups, no ``ttg.async_commit_group``
since, through the back edge of an ``scf.for`` too) gets no barrier of its own: it waits for
nothing, and the earlier wait's barrier made those copies visible. The pipeliner's wait at the
top of a loop whose first operand slice `tritongpu-prefetch` loads at the end of the previous
trip is such a wait; without its barrier, a pipelined matmul loop synchronizes once a trip.

A backend may pass a *filter* (Triton's ``MembarFilterFn``): when two accesses conflict, the
barrier is left out if the filter says, for every pair of an earlier and a later op behind
them, that the pair needs none. Without a filter every conflict gets its barrier.
`amd_membar_filter` is AMD's (Triton's ``triton::AMD::membarFilter``): a ``ttg.local_load``
whose token comes from a ``ttg.async_wait`` needs no barrier against the asynchronous copies
into the same allocation. It relies, as Triton says, on software pipelining using at least two
buffers, so that such a copy fills another slot than the one the load reads: with a single
buffer it would drop a needed barrier. It reads the ``ttg.amdg.syncedViaAsyncWait`` attribute
that `annotate_synced_via_async_wait` sets.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from tilecraft.analysis.allocation import (FunctionAllocation, Interval, ModuleAllocation)
from tilecraft.analysis.callgraph import resolve_callee
from tilecraft.analysis.cfg import PARENT, region_successors, successor_operands
from tilecraft.generated.ttg import BarrierOp, LocalLoadOp, MemDescType
from tilecraft.ir import Block, BlockArgument, BoolAttr, Operation, Value

__all__ = ["BlockInfo", "FunctionMembar", "MembarFilter", "ModuleMembar", "Slice",
           "access_slice", "shared_effects",
           "LOCAL", "SYNCED_VIA_ASYNC_WAIT", "amd_membar_filter", "cuda_membar_filter",
           "annotate_synced_via_async_wait", "wait_is_satisfied"]

#: The ``local`` bit of ``ttg.barrier``'s address space.
LOCAL = 1
_REGION_BRANCH = ("scf.for", "scf.if", "scf.while", "ttg.warp_specialize",
                  "ttg.warp_specialize.partitions")
_WAITS = ("ttg.async_wait", "ttng.async_tma_store_wait")



class Slice(NamedTuple):
    """The bytes an access may touch (Triton's ``AllocationSlice``): an interval of a buffer
    and, for a ``ttg.memdesc_subslice`` of a whole buffer, the box of elements it views
    (its ``offsets`` and ``shape``, in the buffer's ``encoding``); ``offsets`` is None when the
    box is unknown (the whole interval is touched)."""

    interval: Interval
    offsets: tuple[int, ...] | None = None
    shape: tuple[int, ...] = ()
    encoding: object = None

    def intersects(self, other: Slice) -> bool:
        """Whether the two accesses may touch a common byte: their intervals overlap and,
        when both boxes are known in the same encoding, the boxes overlap in every
        dimension."""
        if not self.interval.intersects(other.interval):
            return False
        if self.offsets is None or other.offsets is None or self.encoding != other.encoding:
            return True
        return all(a < b + m and b < a + n for a, n, b, m in
                   zip(self.offsets, self.shape, other.offsets, other.shape))

    def shifted(self, offset: int) -> Slice:
        """The same access ``offset`` bytes further."""
        moved = Interval(self.interval.start + offset, self.interval.end + offset)
        return Slice(moved, self.offsets, self.shape, self.encoding)


def access_slice(value: Value, interval: Interval) -> Slice:
    """The slice of ``interval`` (a buffer ``value`` may refer to) that ``value`` views: a box
    when ``value`` is a ``ttg.memdesc_subslice`` of a whole buffer, else the whole interval."""
    op = value.defining_op
    if op is not None and op.name == "ttg.memdesc_subslice":
        src = op.operands[0].type
        view = value.type
        if tuple(view.alloc_shape or view.shape) == tuple(src.shape):
            return Slice(interval, tuple(op.get_attr("offsets").values), tuple(view.shape),
                         view.encoding)
    return Slice(interval)


Accesses = dict[Slice, frozenset[Operation]]

#: ``filter(earlier, later, earlier_reads, later_reads, allocation)``: True when the two ops
#: need no barrier between them although their accesses overlap and one of them writes.
MembarFilter = Callable[[Operation, Operation, bool, bool, FunctionAllocation], bool]


@dataclass
class BlockInfo:
    """Shared-memory intervals read and written since the last barrier, with their ops."""

    reads: Accesses = field(default_factory=dict)
    writes: Accesses = field(default_factory=dict)

    def copy(self) -> BlockInfo:
        return BlockInfo(dict(self.reads), dict(self.writes))

    def add(self, access: Slice, op: Operation, write: bool) -> None:
        target = self.writes if write else self.reads
        target[access] = target.get(access, frozenset()) | {op}

    def join(self, other: BlockInfo) -> None:
        for mine, theirs in ((self.reads, other.reads), (self.writes, other.writes)):
            for interval, ops in theirs.items():
                mine[interval] = mine.get(interval, frozenset()) | ops

    def sync(self) -> None:
        self.reads.clear()
        self.writes.clear()

    def conflicts(self, other: BlockInfo, filter: MembarFilter | None = None,
                  allocation: FunctionAllocation | None = None) -> bool:
        """Whether ``other``'s accesses need a barrier after ours (one of the two writes): read
        after write, write after read, write after write; with a ``filter``, only when some
        pair of ops behind overlapping accesses is not filtered out (given ``allocation``)."""
        return (_overlap(self.writes, other.reads, False, True, filter, allocation)
                or _overlap(self.reads, other.writes, True, False, filter, allocation)
                or _overlap(self.writes, other.writes, False, False, filter, allocation))

    def shifted(self, offset: int) -> BlockInfo:
        """The same accesses ``offset`` bytes further (a callee's, seen from its call)."""
        def move(accesses: Accesses) -> Accesses:
            return {a.shifted(offset): ops for a, ops in accesses.items()}
        return BlockInfo(move(self.reads), move(self.writes))


def _overlap(a: Accesses, b: Accesses, a_reads: bool, b_reads: bool,
             filter: MembarFilter | None, allocation: FunctionAllocation | None) -> bool:
    """Whether an access of ``a`` overlaps one of ``b`` and, with a filter, some pair of their
    ops is not filtered out."""
    for x, x_ops in a.items():
        for y, y_ops in b.items():
            if not x.intersects(y):
                continue
            if filter is None or any(not filter(p, q, a_reads, b_reads, allocation)
                                     for p in x_ops for q in y_ops):
                return True
    return False


def shared_effects(op: Operation) -> list[tuple[Value, bool]]:
    """The shared-memory descriptors ``op`` reads or writes, as (value, writes)."""
    name = op.name
    if name == "ttg.local_alloc":
        return [(op.results[0], True)] if op.operands else []
    if name == "ttg.local_load":
        return [(op.operands[0], False)]
    if name == "ttg.local_store":
        return [(op.operands[1], True)]
    if name == "ttg.async_copy_global_to_local":
        return [(op.operands[1], True)]
    if name == "ttng.warp_group_dot":
        return [(v, False) for v in op.operands[:2] if isinstance(v.type, MemDescType)]
    if name == "ttng.async_tma_copy_global_to_local":
        return [(op.barrier, False), (op.result_, True)]
    if name == "ttng.async_tma_copy_local_to_global":
        return [(op.src, False)]
    if name in ("ttng.init_barrier", "ttng.inval_barrier"):
        return [(op.alloc, True)]
    if name in ("ttng.barrier_expect", "ttng.wait_barrier"):
        # mbarrier operations are atomic with one another: only initializing and invalidating
        # a barrier must be ordered against them
        return [(op.alloc, False)]
    return []


def _is_local_barrier(op: Operation | None) -> bool:
    if op is None:
        return False
    if op.name in ("gpu.barrier", "ttg.warp_specialize.partitions"):
        return True
    return op.name == "ttg.barrier" and bool(op.get_attr("addrSpace").value & LOCAL)


#: A block, and the op after which it starts (None: at its beginning).
VirtualBlock = tuple[Block, Operation | None]


class FunctionMembar:
    """Barrier insertion in one function; ``exit_info`` is what it leaves pending."""

    def __init__(self, func: Operation, allocation: FunctionAllocation,
                 callee_infos: dict[Operation, BlockInfo],
                 filter: MembarFilter | None = None,
                 skip_satisfied_waits: bool = False) -> None:
        self.func = func
        self.allocation = allocation
        self.callee_infos = callee_infos
        self.filter = filter
        self.skip_satisfied_waits = skip_satisfied_waits
        self.barriers: list[Operation] = []
        self.exit_info = BlockInfo()

    def run(self) -> None:
        entry: VirtualBlock = (self.func.regions[0].blocks[0], None)
        inputs: dict[VirtualBlock, BlockInfo] = {entry: BlockInfo()}
        outputs: dict[VirtualBlock, BlockInfo] = {}
        work = deque([entry])
        while work:
            vblock = work.popleft()
            info = inputs.setdefault(vblock, BlockInfo()).copy()
            successors = self._visit(vblock, info)
            if vblock in outputs and outputs[vblock] == info:
                continue
            outputs[vblock] = info
            for succ in successors:
                inputs.setdefault(succ, BlockInfo()).join(info)
                work.append(succ)
        for ret in self.func.walk():
            if ret.name != "tt.return":
                continue
            here = [(vb, i) for vb, i in outputs.items() if vb[0] is ret.parent]
            if here:
                latest = max(here, key=lambda p: -1 if p[0][1] is None
                             else _position(p[0][1]))
                self.exit_info.join(latest[1])

    def _visit(self, vblock: VirtualBlock, info: BlockInfo) -> list[VirtualBlock]:
        block, after = vblock
        ops = list(block)
        if after is not None:
            ops = ops[ops.index(after) + 1:]
        for op in ops:
            self._update(op, info)
            if op.name in _REGION_BRANCH:
                return self._region_entries(op)
            if op is block.terminator:
                return self._terminator_successors(op)
        return []

    def _region_entries(self, op: Operation) -> list[VirtualBlock]:
        return self._targets(op, region_successors(op, None) or [])

    def _targets(self, op: Operation, indices: Iterable[int]) -> list[VirtualBlock]:
        result: list[VirtualBlock] = []
        for index in indices:
            if index == PARENT:
                result.append((op.parent, op))
            elif op.regions[index].blocks:
                result.append((op.regions[index].blocks[0], None))
        return result

    def _terminator_successors(self, term: Operation) -> list[VirtualBlock]:
        if term.successors:
            return [(succ, None) for succ in term.successors]
        parent = term.parent_op
        if parent is not None and parent.name in _REGION_BRANCH:
            region_index = parent.regions.index(term.parent_region)
            return self._targets(parent, region_successors(parent, region_index) or [])
        return []

    def _insert_barrier(self, before: Operation | None, after: Operation | None = None) -> None:
        barrier = BarrierOp.build(LOCAL)
        if before is not None:
            before.parent.insert_before(before, barrier)
        else:
            after.parent.insert_after(after, barrier)
        self.barriers.append(barrier)

    def _update(self, op: Operation, info: BlockInfo) -> None:
        if _is_local_barrier(op):
            info.sync()
            return
        if op.name in _WAITS:
            following = op.next_op
            if following is not None and following.name in _WAITS:
                return  # the next wait's barrier follows both
            if self.skip_satisfied_waits and _run_is_satisfied(op):
                return
            if not _is_local_barrier(following):
                self._insert_barrier(None, after=op)
            info.sync()
            return
        current = BlockInfo()
        scratch = None
        if op.name == "tt.call":
            callee = resolve_callee(op)
            callee_info = self.callee_infos.get(callee) if callee is not None else None
            if callee_info is not None:
                virtual = self.allocation.op_scratch(op)
                current = callee_info.shifted(virtual.offset if virtual is not None else 0)
        else:
            for value, write in shared_effects(op):
                for buffer in self.allocation.buffers_of(value):
                    current.add(access_slice(value, buffer.interval), op, write)
            scratch = self.allocation.op_scratch(op)
        if scratch is not None:
            current.add(Slice(scratch.interval), op, True)
            if info.conflicts(current, self.filter, self.allocation):
                self._insert_barrier(op)
            info.sync()
            current.add(Slice(scratch.interval), op, False)
        elif info.conflicts(current, self.filter, self.allocation):
            self._insert_barrier(op)
            info.sync()
        info.join(current)


def _position(op: Operation) -> int:
    return list(op.parent).index(op)


def _run_is_satisfied(last: Operation) -> bool:
    """Whether the run of waits ending at ``last`` is all ``ttg.async_wait`` and
    `wait_is_satisfied` for the fewest pending groups any of them leaves."""
    first, fewest = last, None
    while first.prev_op is not None and first.prev_op.name in _WAITS:
        first = first.prev_op
    op: Operation | None = first
    while op is not None:
        if op.name != "ttg.async_wait":
            return False
        fewest = op.num if fewest is None else min(fewest, op.num)
        if op is last:
            break
        op = op.next_op
    return fewest is not None and wait_is_satisfied(first, fewest)


def wait_is_satisfied(op: Operation, pending: int) -> bool:
    """Whether every path to ``op`` passes a ``ttg.async_wait`` that leaves at most
    ``pending`` groups in flight after the last ``ttg.async_commit_group``: looking back
    through ``op``'s block, and from the start of an ``scf.for`` body both before the loop and
    from the end of the body (the back edge). A call, or an op whose regions commit, ends the
    search with False."""
    return _satisfied_before(op, pending, set())


def _satisfied_before(op: Operation, pending: int, entered: set[int]) -> bool:
    previous = op.prev_op
    while previous is not None:
        if previous.name == "ttg.async_wait":
            return previous.num <= pending
        if previous.name in ("ttg.async_commit_group", "tt.call") or (
                previous.regions and any(inner.name in ("ttg.async_commit_group", "tt.call")
                                         for inner in previous.walk())):
            return False
        previous = previous.prev_op
    block = op.parent
    loop = block.parent_op if block is not None else None
    if loop is None or loop.name != "scf.for" or len(loop.regions[0].blocks) != 1:
        return False
    if id(block) in entered:  # around the body without a wait or a commit: as on entry
        return True
    entered.add(id(block))
    return (_satisfied_before(loop, pending, entered)
            and _satisfied_before(block.terminator, pending, entered))


class ModuleMembar:
    """Barrier insertion in every function of a module, callees first."""

    def __init__(self, module: Operation, allocation: ModuleAllocation | None = None,
                 filter: MembarFilter | None = None,
                 skip_satisfied_waits: bool = False) -> None:
        self.allocation = allocation if allocation is not None else ModuleAllocation(module)
        self.filter = filter
        self.skip_satisfied_waits = skip_satisfied_waits
        self.infos: dict[Operation, BlockInfo] = {}
        self.barriers: list[Operation] = []

    def run(self) -> list[Operation]:
        """Insert the barriers; returns them."""
        for func, data in self.allocation.functions.items():
            if not func.regions or not func.regions[0].blocks:
                continue
            analysis = FunctionMembar(func, data, self.infos, self.filter,
                                      self.skip_satisfied_waits)
            analysis.run()
            self.infos[func] = analysis.exit_info
            self.barriers.extend(analysis.barriers)
        return self.barriers


#: The attribute `annotate_synced_via_async_wait` puts on each ``ttg.local_load`` (Triton's name).
SYNCED_VIA_ASYNC_WAIT = "ttg.amdg.syncedViaAsyncWait"
_ASYNC_WAITS = ("ttg.async_wait", "ttng.async_tma_store_wait")
_ASYNC_LOADS = ("ttg.async_copy_global_to_local",)
_TMA_LOAD = "ttng.async_tma_copy_global_to_local"


def _comes_from_async_wait(token: Value, visiting: set[BlockArgument]) -> bool:
    """Whether every definition reaching ``token`` is an async wait: its defining op, or, for a
    block argument, the value each predecessor's branch passes to it (all predecessors must be
    branches with known forwarded operands). A block argument without predecessors (an entry
    block's, so also an scf loop's carried token: Triton's tests lower scf to cf first) counts
    as coming from a wait, as in Triton; one already being followed (a cycle of
    branches) adds no other definition."""
    op = token.defining_op
    if op is not None:
        return op.name in _ASYNC_WAITS
    if not isinstance(token, BlockArgument):
        return False
    if token in visiting:
        return True
    visiting.add(token)
    block = token.owner
    for pred in block.predecessors:
        term = pred.terminator
        for index, succ in enumerate(term.successors):
            if succ is not block:
                continue
            forwarded = successor_operands(term, index)
            if forwarded is None or token.index >= len(forwarded) \
                    or not _comes_from_async_wait(forwarded[token.index], visiting):
                return False
    return True


def annotate_synced_via_async_wait(module: Operation) -> None:
    """Mark each ``ttg.local_load`` of ``module`` with `SYNCED_VIA_ASYNC_WAIT`: true when it has
    a token and that token comes from async waits only (Triton's
    ``annotateLocalLoadsSyncedViaAsyncWait``); a load already marked keeps its mark."""
    for op in module.walk():
        if not isinstance(op, LocalLoadOp) or SYNCED_VIA_ASYNC_WAIT in op.attributes:
            continue
        token = op.token
        synced = token is not None and _comes_from_async_wait(token, set())
        op.attributes[SYNCED_VIA_ASYNC_WAIT] = BoolAttr(synced)


def _async_memdesc(op: Operation) -> Value | None:
    """The descriptor an async copy writes or a local load reads (None for other ops)."""
    if op.name in _ASYNC_LOADS:
        return op.operands[1]
    if isinstance(op, LocalLoadOp):
        return op.src
    return None


def _synced_local_load(op: Operation) -> bool:
    attr = op.get_attr(SYNCED_VIA_ASYNC_WAIT)
    return isinstance(op, LocalLoadOp) and isinstance(attr, BoolAttr) and attr.value


def cuda_membar_filter(first: Operation, second: Operation, first_reads: bool,
                       second_reads: bool, allocation: FunctionAllocation) -> bool:
    """The CUDA backend's barrier filter: True (no barrier) after an asynchronous copy into
    shared memory (``cp.async``, TMA) before another or before a read (the copy's writes land
    whenever they land; only its wait orders them, a barrier does not), and where AMD's filter says so (`amd_membar_filter`: a copy and a ``ttg.local_load``
    synced via an async wait, which `tritongpu-pipeline` arranges in different buffers)."""
    asynchronous = (*_ASYNC_LOADS, _TMA_LOAD)
    if first.name in asynchronous and (second.name in asynchronous or second_reads):
        # what an asynchronous copy writes is ordered by its wait (cp.async's wait_group, the
        # TMA copy's mbarrier), after which the analysis puts its barrier, not by a barrier
        # between the copy and a read
        return True
    return amd_membar_filter(first, second, first_reads, second_reads, allocation)


def amd_membar_filter(first: Operation, second: Operation, first_reads: bool,
                      second_reads: bool, allocation: FunctionAllocation) -> bool:
    """AMD's barrier filter (Triton's ``triton::AMD::membarFilter``): True when exactly one of
    the two ops is an asynchronous copy into shared memory, the other a ``ttg.local_load``
    marked synced via an async wait (`annotate_synced_via_async_wait`; unmarked counts as not
    synced), and the two may use the same buffer. Whether each op reads is not looked at.
    (Triton's other cases, AMD's buffer/TDM copies and LDS barrier ops, concern ops tilecraft
    does not have.)"""
    if (first.name in _ASYNC_LOADS) == (second.name in _ASYNC_LOADS):
        return False
    first_desc, second_desc = _async_memdesc(first), _async_memdesc(second)
    if first_desc is None or second_desc is None:
        return False
    first_buffers = allocation.buffers_of(first_desc)
    if not any(b in first_buffers for b in allocation.buffers_of(second_desc)):
        return False
    return _synced_local_load(first) or _synced_local_load(second)
