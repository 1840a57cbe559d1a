"""Shared-memory allocation: the buffers of each function, their live ranges and offsets.

As Triton's ``Allocation`` analysis (``lib/Analysis/Allocation.cpp``):

- **Buffers.** *Explicit* buffers are the results of ``ttg.local_alloc`` in shared memory, sized
  from their ``!ttg.memdesc`` type (elements of the allocation shape times the element width;
  pointers are 64 bits; ``fp4Padded`` NVMMA buffers hold twice the inner dim; a
  ``#ttg.padded_shared`` buffer holds its padding too, `padded_elements`); a
  ``#ttg.partitioned_shared`` allocation is one buffer per partition, each holding its share
  of the pieces (`partition_sizes`), the buffers being each other's *neighbors*. *Scratch*
  buffers are the temporary memory of ops that exchange data between threads (`scratch_size`:
  ``ttg.convert_layout`` between layouts that need shared memory, ``tt.reduce`` across warps,
  ``tt.scan`` across warps, atomics whose value is used, ``tt.histogram``, ``tt.gather``).
  *Virtual* buffers stand for what a called function allocates (its whole size). A
  ``ttg.warp_specialize`` packs its explicit captures into a scratch buffer, and a function
  holding such ops owns a buffer of one byte per partition warp, live over the whole function.
- **Aliases.** Views (``ttg.memdesc_index``, ``_subslice``, ``_trans``, ``_reshape``,
  ``_reinterpret``), ``arith.select`` and values carried by ``scf.for``/``scf.if``/
  ``scf.while``/branches, ``ttg.warp_specialize`` (captures into partitions, default-region
  results) and ``ttng.warp_group_dot_wait`` refer to the allocations they may come from
  (`alias_sets`).
- **Liveness.** Ops are numbered in post-order (an op after everything nested in it). A value
  is live at the ops MLIR's ``Liveness::resolveLiveness`` returns (from the block live-in/out
  sets of `tilecraft.analysis.liveness.Liveness`); its interval is ``[first, last + 1)`` of
  their numbers. An explicit buffer lives over the union of the intervals of its value and its
  aliases; a scratch or virtual buffer over its op, ``[n, n + 1)``.
- **Offsets.** Buffers are sorted by size (largest first), given starting offsets by the
  triple-based first fit of "Algorithms for Compile-Time Memory Optimization", then, until no
  two buffers that are live together overlap, colored first-fit on the interference graph
  (``networkx``: an edge between buffers whose bytes overlap and that are live at the same
  time or owned in different regions of one ``ttg.warp_specialize``, which run concurrently),
  buffers of color 0 staying put and the others moved past their neighbors. When shared
  memory is split into physical partitions of ``partition_size`` bytes, neighbor buffers in
  the same physical partition interfere too, and a buffer moves past such a neighbor to the
  next physical partition.

`ModuleAllocation` analyses the functions callees first, so a call's virtual buffer has the
callee's size; the module's size is the largest size of a function that nobody calls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

from tilecraft.analysis.callgraph import CallGraph, is_call, resolve_callee
from tilecraft.analysis.cfg import ancestor_in_region, successor_operands
from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.generated.tt import PointerType, TensorDescType
from tilecraft.generated.ttg import (BlockedEncodingAttr, MemDescType, NVMMASharedEncodingAttr,
                                     PaddedSharedEncodingAttr, PartitionedSharedEncodingAttr,
                                     SharedMemorySpaceAttr)
from tilecraft.ir import (Block, BlockArgument, IntegerAttr, Operation, RankedTensorType,
                          Type, Value)
from tilecraft.layouts.conversion import conversion_plan, contiguous_registers
from tilecraft.layouts.linear import LinearLayout

if TYPE_CHECKING:  # networkx is imported once there are buffers to place (not for most kernels)
    import networkx as nx

    from tilecraft.analysis.liveness import Liveness

__all__ = ["Buffer", "Interval", "FunctionAllocation", "ModuleAllocation", "ScratchSizeFn",
           "scratch_size", "explicit_size", "padded_elements", "partition_sizes",
           "SCRATCH_ALIGNMENT"]

BufferKind = Literal["explicit", "scratch", "virtual"]
#: How many bytes of scratch memory an op needs (0: none).
ScratchSizeFn = Callable[[Operation], int]
#: Alignment of scratch and virtual buffers, in bytes.
SCRATCH_ALIGNMENT = 128
#: Alignment of the explicit captures of ``ttg.warp_specialize`` (packed like a struct).
_CAPTURE_ALIGNMENT = 8
#: Alignment of the function's buffer of one byte per warp of its ``ttg.warp_specialize``
#: partitions (their warp indices).
_WARP_INDEX_ALIGNMENT = 4
_DEFAULT_ALIGNMENT = 16
_VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans",
             "ttg.memdesc_reshape", "ttg.memdesc_reinterpret")


class Interval(NamedTuple):
    """The half-open interval ``[start, end)``."""

    start: int
    end: int

    def intersects(self, other: Interval) -> bool:
        return self.start < other.end and other.start < self.end


_EVERYTHING = Interval(0, math.inf)  # type: ignore[arg-type]


@dataclass(eq=False)
class Buffer:
    """A piece of shared memory: ``size`` bytes at ``offset`` (a multiple of ``alignment``)
    owned by ``owner`` (the allocating op, the op needing scratch memory, or the call);
    ``neighbors`` are the other partitions of the same partitioned allocation, which must lie
    in other physical partitions of shared memory."""

    id: int
    kind: BufferKind
    owner: Operation
    size: int
    alignment: int
    offset: int = 0
    neighbors: list[Buffer] = field(default_factory=list)

    def set_offset_aligned(self, offset: int) -> int:
        self.offset = -(-offset // self.alignment) * self.alignment
        return self.offset

    @property
    def interval(self) -> Interval:
        """The bytes the buffer occupies."""
        return Interval(self.offset, self.offset + self.size)

    def __repr__(self) -> str:
        return f"Buffer({self.id}, {self.kind}, size={self.size}, offset={self.offset})"


# -- sizes


def _bits(type_: Type) -> int:
    """The width of an element type in bits (64 for pointers)."""
    if isinstance(type_, PointerType):
        return 64
    width = getattr(type_, "width", None)
    if width is None:
        raise ValueError(f"no bit width for the type {type_}")
    return int(width)


def _is_shared(memdesc: MemDescType) -> bool:
    return isinstance(memdesc.memory_space, SharedMemorySpaceAttr)


def padded_elements(encoding: PaddedSharedEncodingAttr, elements: int) -> int:
    """The elements ``elements`` take in a ``#ttg.padded_shared`` layout: after every
    ``interval`` elements come ``padding`` more (per pair), none after the last element."""
    total = elements
    for interval, padding in zip(encoding.intervals, encoding.paddings):
        total += elements // interval * padding
        if elements % interval == 0:
            total -= padding
    return total


def explicit_size(memdesc: MemDescType) -> int:
    """Bytes of a shared-memory allocation of type ``memdesc`` (all its partitions when it is
    partitioned, each laid out by the partition layout)."""
    shape = list(memdesc.alloc_shape or memdesc.shape)
    encoding = memdesc.encoding
    if isinstance(encoding, PartitionedSharedEncodingAttr):
        encoding = encoding.partition_layout
    if isinstance(encoding, NVMMASharedEncodingAttr) and encoding.fp4_padded and shape:
        shape[-2 if encoding.transposed and len(shape) > 1 else -1] *= 2
    elements = math.prod(shape)
    if isinstance(encoding, PaddedSharedEncodingAttr):
        elements = padded_elements(encoding, elements)
    return elements * _bits(memdesc.element_type) // 8


def partition_sizes(memdesc: MemDescType) -> list[int]:
    """The bytes of each buffer of a shared-memory allocation: for ``#ttg.partitioned_shared``,
    one buffer per partition holding ``numGroups`` of the ``numPartitions * numGroups`` equal
    pieces; otherwise the one buffer of `explicit_size`."""
    size = explicit_size(memdesc)
    encoding = memdesc.encoding
    if not isinstance(encoding, PartitionedSharedEncodingAttr):
        return [size]
    piece = size // (encoding.num_partitions * encoding.num_groups)
    return [piece * encoding.num_groups] * encoding.num_partitions


def _explicit_alignment(op: Operation, memdesc: MemDescType) -> int:
    attr = op.get_attr("alignment")
    if isinstance(attr, IntegerAttr):
        return attr.value
    encoding = memdesc.encoding
    if isinstance(encoding, NVMMASharedEncodingAttr):
        return 128 * max(1, encoding.swizzling_byte_width // 16)
    return _DEFAULT_ALIGNMENT


def _layout(type_: RankedTensorType) -> LinearLayout | None:
    """The linear layout of a tensor type's encoding, None for encodings not mapped here."""
    return encoding_layout(type_.encoding, tuple(type_.shape))


def _moving_along(layout: LinearLayout, in_dim: str, axis: int) -> int:
    """How many distinct coordinates along ``axis`` the bits of ``in_dim`` reach (2^bits of the
    nonzero bases pointing along it)."""
    count = sum(1 for b in range(layout.in_dim_bits(in_dim))
                if layout.basis(in_dim, b)[axis] != 0)
    return 1 << count


def _convert_scratch(op: Operation) -> int:
    src, dst = op.operands[0].type, op.results[0].type
    if src.encoding == dst.encoding:
        return 0
    src_layout, dst_layout = _layout(src), _layout(dst)
    if src_layout is not None and dst_layout is not None and \
            conversion_plan(src_layout, dst_layout).kind != "shared":
        return 0
    return math.prod(src.shape) * max(8, _bits(src.element_type)) // 8


def _reduce_scratch(op: Operation) -> int:
    src = op.operands[0].type
    layout = _layout(src)
    axis = op.get_attr("axis").value
    warps = _moving_along(layout, "warp", axis) if layout is not None else 2
    if warps == 1:
        return 0
    elems = warps * math.prod(d for i, d in enumerate(src.shape) if i != axis)
    return sum(elems * max(8, _bits(v.type.element_type)) // 8 for v in op.operands)


def _scan_scratch(op: Operation) -> int:
    src = op.operands[0].type
    if not isinstance(src.encoding, BlockedEncodingAttr):
        return 0
    layout = _layout(src)
    axis = op.get_attr("axis").value
    rank = len(src.shape)
    contig = [min(contiguous_registers(layout, d), src.shape[d]) for d in range(rank)]
    lanes = [_moving_along(layout, "lane", d) for d in range(rank)]
    warps = [_moving_along(layout, "warp", d) for d in range(rank)]
    if warps[axis] == 1:
        return 0
    non_axis_lanes = math.prod(lanes) // lanes[axis]
    non_axis_elems = math.prod(c for d, c in enumerate(contig) if d != axis)
    axis_blocks = -(-src.shape[axis] // (contig[axis] * lanes[axis] * warps[axis]))
    non_axis_blocks = math.prod(-(-src.shape[d] // (contig[d] * lanes[d] * warps[d]))
                                for d in range(rank) if d != axis)
    elems = math.prod(warps) * non_axis_lanes * non_axis_elems * axis_blocks * non_axis_blocks
    return sum(-(-_bits(v.type.element_type) // 8) for v in op.operands) * elems


def _atomic_scratch(op: Operation) -> int:
    result = op.results[0]
    if not result.users:
        return 0
    if isinstance(result.type, RankedTensorType):
        layout = _layout(result.type)
        if layout is not None and not any(layout.free_variable_masks().values()):
            return 0
        elems = math.prod(result.type.shape)
    else:
        elems = 1
    ptr = op.operands[0].type
    if isinstance(ptr, RankedTensorType):
        ptr = ptr.element_type
    return elems * max(8, _bits(ptr.pointee_type)) // 8


def _gather_scratch(op: Operation) -> int:
    src, idx = op.operands[0].type, op.operands[1].type
    axis = op.get_attr("axis").value
    src_layout, idx_layout = _layout(src), _layout(idx)
    if src_layout is not None and idx_layout is not None and \
            _moving_along(src_layout, "warp", axis) == 1 and \
            _moving_along(idx_layout, "warp", axis) == 1:
        return 0
    return math.prod(src.shape) * -(-_bits(src.element_type) // 8)


def _threads_per_warp(op: Operation) -> int:
    while op is not None:
        attr = op.get_attr("ttg.threads-per-warp")
        if isinstance(attr, IntegerAttr):
            return attr.value
        op = op.parent_op
    return 32


def _capture_size(type_: Type) -> int:
    """Bytes of one explicit capture of ``ttg.warp_specialize`` in shared memory (the captures
    are packed like a struct without padding): a scalar's bytes, 8 for a pointer, a tensor
    descriptor or a descriptor of tensor memory, 8 plus 4 per dimension for a shared-memory
    descriptor (its base and offsets)."""
    if isinstance(type_, MemDescType):
        return 8 + 4 * len(type_.shape) if _is_shared(type_) else 8
    if isinstance(type_, (PointerType, TensorDescType)):
        return 8
    return -(-_bits(type_) // 8)


def scratch_size(op: Operation) -> int:
    """Bytes of scratch shared memory ``op`` needs (Triton's default scratch-size rules)."""
    name = op.name
    if name == "ttg.warp_specialize":
        holder = op.regions[1].blocks[0].first_op if op.regions[1].blocks else None
        return sum(_capture_size(v.type) for v in holder.operands) if holder is not None else 0
    if name == "ttg.convert_layout":
        return _convert_scratch(op)
    if name == "tt.reduce":
        return _reduce_scratch(op)
    if name == "tt.scan":
        return _scan_scratch(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas"):
        return _atomic_scratch(op)
    if name == "tt.gather":
        return _gather_scratch(op)
    if name == "tt.histogram":
        dst = op.results[0].type
        return max(math.prod(dst.shape), _threads_per_warp(op)) * _bits(dst.element_type) // 8
    return 0


# -- one function


def _post_order_ids(func: Operation) -> dict[Operation, int]:
    return {op: n for n, op in enumerate(func.walk(post_order=True))}


def alias_sets(func: Operation) -> dict[Value, frozenset[Value]]:
    """For each shared-memory descriptor in ``func``, the ``ttg.local_alloc`` results it may
    refer to (a forward fixpoint over views, selects and carried values)."""
    sets: dict[Value, frozenset[Value]] = {}

    def join(target: Value, sources: Iterable[Value]) -> bool:
        new = sets.get(target, frozenset()).union(*(sets.get(s, frozenset()) for s in sources))
        if new != sets.get(target, frozenset()):
            sets[target] = new
            return True
        return False

    changed = True
    while changed:
        changed = False
        for op in func.walk():
            name = op.name
            if name == "ttg.local_alloc" and isinstance(op.results[0].type, MemDescType) \
                    and _is_shared(op.results[0].type):
                changed |= op.results[0] not in sets
                sets[op.results[0]] = frozenset((op.results[0],))
            elif name in _VIEW_OPS:
                changed |= join(op.results[0], op.operands[:1])
            elif name == "arith.select":
                changed |= join(op.results[0], op.operands[1:3])
            for target, sources in _carried(op):
                changed |= join(target, sources)
    return {v: s for v, s in sets.items() if s}


def _carried(op: Operation) -> list[tuple[Value, list[Value]]]:
    """Pairs (value, values flowing into it) of the control flow at ``op``."""
    pairs: list[tuple[Value, list[Value]]] = []
    name = op.name
    if name == "scf.for":
        body = op.regions[0].blocks[0]
        inits = op.operands[3:]
        yielded = body.terminator.operands if body.terminator is not None else ()
        for i, init in enumerate(inits):
            sources = [init] + ([yielded[i]] if i < len(yielded) else [])
            pairs.append((body.arguments[i + 1], sources))
            pairs.append((op.results[i], sources))
    elif name == "scf.if":
        for region in op.regions:
            if region.blocks and region.blocks[0].terminator is not None:
                for res, val in zip(op.results, region.blocks[0].terminator.operands):
                    pairs.append((res, [val]))
    elif name == "scf.while":
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        cond = before.terminator
        back = after.terminator.operands if after.terminator is not None else ()
        for i, arg in enumerate(before.arguments):
            pairs.append((arg, [op.operands[i]] + ([back[i]] if i < len(back) else [])))
        if cond is not None:
            for i, val in enumerate(cond.operands[1:]):
                pairs.append((after.arguments[i], [val]))
                pairs.append((op.results[i], [val]))
    elif name == "ttg.warp_specialize":
        default = op.regions[0].blocks[0] if op.regions[0].blocks else None
        if default is not None and default.terminator is not None:
            for res, val in zip(op.results, default.terminator.operands):
                pairs.append((res, [val]))
    elif name == "ttg.warp_specialize.partitions":
        for region in op.regions:
            if region.blocks:
                for arg, val in zip(region.blocks[0].arguments, op.operands):
                    pairs.append((arg, [val]))
    elif name == "ttng.warp_group_dot_wait":
        for res, val in zip(op.results, op.operands):
            pairs.append((res, [val]))
    for index, succ in enumerate(op.successors):
        forwarded = successor_operands(op, index) or []
        for arg, val in zip(succ.arguments, forwarded):
            pairs.append((arg, [val]))
    return pairs


@dataclass
class FunctionAllocation:
    """The shared-memory buffers of one function and where they are placed."""

    func: Operation
    buffers: list[Buffer] = field(default_factory=list)
    #: explicit buffers by the ``ttg.local_alloc`` result that owns them (the first partition's
    #: for a partitioned allocation: `explicit_buffers` gives them all)
    value_buffer: dict[Value, Buffer] = field(default_factory=dict)
    #: scratch and virtual buffers by their op
    op_buffer: dict[Operation, Buffer] = field(default_factory=dict)
    #: the allocations each descriptor may refer to
    aliases: dict[Value, frozenset[Value]] = field(default_factory=dict)
    #: the live interval of each buffer (post-order op numbers)
    ranges: dict[Buffer, Interval] = field(default_factory=dict)
    shared_memory_size: int = 0

    def op_scratch(self, op: Operation) -> Buffer | None:
        """The scratch or virtual buffer of ``op``."""
        return self.op_buffer.get(op)

    #: the size of a physical partition of shared memory (0: not partitioned)
    partition_size: int = 0

    def explicit_buffers(self, alloc: Value) -> list[Buffer]:
        """The buffers of a ``ttg.local_alloc`` result: one per partition (in partition order)
        of a partitioned allocation, else its one buffer; none for other values."""
        first = self.value_buffer.get(alloc)
        return [] if first is None else [first, *first.neighbors]

    def buffers_of(self, value: Value) -> list[Buffer]:
        """The explicit buffers ``value`` (a descriptor) may refer to."""
        return [b for a in self.aliases.get(value, ()) for b in self.explicit_buffers(a)]

    def interference_graph(self) -> nx.Graph:
        """Buffers as nodes, an edge between two buffers that are live at the same time and
        whose bytes overlap, or neighbors in the same physical partition (empty of edges once
        offsets are final)."""
        return _interference_graph(self.buffers, self.ranges, self.partition_size)


class _Builder:
    """Builds one `FunctionAllocation` (Triton's ``AllocationAnalysis``)."""

    def __init__(self, func: Operation, callee_sizes: dict[Operation, int],
                 scratch_fn: ScratchSizeFn, partition_size: int) -> None:
        self.result = FunctionAllocation(func, partition_size=partition_size)
        self.callee_sizes = callee_sizes
        self.scratch_fn = scratch_fn

    def run(self) -> FunctionAllocation:
        self._collect()
        self._resolve_liveness()
        self._compute_offsets()
        return self.result

    def _add(self, kind: BufferKind, owner: Operation, size: int, alignment: int) -> Buffer:
        buffer = Buffer(len(self.result.buffers), kind, owner, size, alignment)
        self.result.buffers.append(buffer)
        return buffer

    def _collect(self) -> None:
        func = self.result.func
        warp_indices = max((sum(op.get_attr("partitionNumWarps").values) for op in func.walk()
                            if op.name == "ttg.warp_specialize"), default=0)
        if warp_indices:
            self.result.op_buffer[func] = self._add("scratch", func, warp_indices,
                                                    _WARP_INDEX_ALIGNMENT)
        for op in func.walk():
            if op is func:
                continue
            if op.name == "ttg.local_alloc":
                memdesc = op.results[0].type
                if isinstance(memdesc, MemDescType) and _is_shared(memdesc):
                    alignment = _explicit_alignment(op, memdesc)
                    parts = [self._add("explicit", op, size, alignment)
                             for size in partition_sizes(memdesc)]
                    for part in parts:
                        part.neighbors = [other for other in parts if other is not part]
                    self.result.value_buffer[op.results[0]] = parts[0]
            if is_call(op):
                callee = resolve_callee(op)
                size = self.callee_sizes.get(callee, 0) if callee is not None else 0
                if size > 0:
                    self.result.op_buffer[op] = self._add("virtual", op, size,
                                                          SCRATCH_ALIGNMENT)
                continue
            size = self.scratch_fn(op)
            if size > 0:
                alignment = _CAPTURE_ALIGNMENT if op.name == "ttg.warp_specialize" \
                    else SCRATCH_ALIGNMENT
                self.result.op_buffer[op] = self._add("scratch", op, size, alignment)
        self.result.aliases = alias_sets(func)

    def _resolve_liveness(self) -> None:
        if not self.result.buffers:
            return  # no live range to find (nor liveness to solve)
        func = self.result.func
        from tilecraft.analysis.liveness import Liveness  # (as networkx: with buffers to place)

        ids = _post_order_ids(func)
        liveness = Liveness(func)

        def interval(value: Value) -> Interval:
            numbers = [ids[op] for op in _live_operations(liveness, value)]
            return Interval(min(numbers), max(numbers) + 1) if numbers else Interval(0, 0)

        ranges = self.result.ranges
        for value in self.result.value_buffer:
            span = interval(value)
            for buffer in self.result.explicit_buffers(value):
                ranges[buffer] = span
        users: set[Value] = set()
        for op in func.walk():
            users.update(op.operands)
            users.update(op.results)
        for value, allocs in self.result.aliases.items():
            if value not in users:
                continue
            span = interval(value)
            for alloc in allocs:
                for buffer in self.result.explicit_buffers(alloc):
                    old = ranges[buffer]
                    ranges[buffer] = Interval(min(old.start, span.start),
                                              max(old.end, span.end))
        for op, buffer in self.result.op_buffer.items():
            ranges[buffer] = _EVERYTHING if op is func else Interval(ids[op], ids[op] + 1)

    def _compute_offsets(self) -> None:
        buffers = sorted(self.result.buffers, key=lambda b: -b.size)
        if not buffers:
            return
        self._calculate_starts(buffers)
        while True:
            self._allocate(buffers, self._interference(buffers))
            if not self._interference(buffers).number_of_edges():
                break

    def _calculate_starts(self, buffers: list[Buffer]) -> None:
        """Starting offsets: the triple (offset, live interval) first fit."""
        ranges = self.result.ranges
        triples: list[tuple[int, int, Interval]] = [(0, 0, _EVERYTHING)]
        sequence = 1
        pending = list(buffers)
        while pending and triples:
            triples.sort(key=lambda t: (t[0], t[1]))
            offset, _, span = triples.pop(0)
            for buffer in pending:
                live = ranges[buffer]
                if live.intersects(span) and \
                        not any(t[2].intersects(live) for t in triples):
                    break
            else:
                continue
            pending.remove(buffer)
            aligned = buffer.set_offset_aligned(offset)
            new = [(aligned + buffer.size, Interval(max(span.start, live.start),
                                                    min(span.end, live.end)))]
            if span.start < live.start:
                new.append((offset, Interval(span.start, live.end)))
            if live.end < span.end:
                new.append((offset, Interval(live.start, span.end)))
            for start, piece in new:
                triples.append((start, sequence, piece))
                sequence += 1

    def _interference(self, buffers: list[Buffer]) -> nx.Graph:
        return _interference_graph(buffers, self.result.ranges, self.result.partition_size)

    def _allocate(self, buffers: list[Buffer], graph: nx.Graph) -> None:
        """First-fit coloring in size order; buffers of color ``c > 0`` move past the buffers
        they interfere with (to the next physical partition after a partition neighbor)."""
        import networkx as nx

        colors = nx.greedy_color(graph, strategy=lambda g, c: iter(buffers))
        partition = self.result.partition_size
        size = 0
        for x in buffers:
            if colors[x] != 0:
                x.set_offset_aligned(max(
                    ((y.offset // partition + 1) * partition
                     if partition and y in x.neighbors else y.offset + y.size
                     for y in graph.neighbors(x)), default=0))
            size = max(size, x.offset + x.size)
        self.result.shared_memory_size = size


def _enclosing_warp_specialize(op: Operation) -> Operation | None:
    parent = op.parent_op
    while parent is not None and parent.name != "ttg.warp_specialize":
        parent = parent.parent_op
    return parent


def _run_concurrently(x: Buffer, y: Buffer) -> bool:
    """Whether the owners of ``x`` and ``y`` sit in different regions of the same
    ``ttg.warp_specialize`` (regions that run at the same time, whatever their liveness says)."""
    ws = _enclosing_warp_specialize(x.owner)
    return ws is not None and ws is _enclosing_warp_specialize(y.owner) and \
        x.owner.parent_region is not y.owner.parent_region


def _interference_graph(buffers: list[Buffer], ranges: dict[Buffer, Interval],
                        partition_size: int) -> nx.Graph:
    """Buffers as nodes, an edge between two buffers whose bytes overlap and that are live at
    the same time or owned in regions of one ``ttg.warp_specialize`` that run concurrently, and
    (with a ``partition_size``) between neighbors that start in the same physical partition."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(buffers)
    for i, x in enumerate(buffers):
        for y in buffers[i + 1:]:
            if x.interval.intersects(y.interval) and \
                    (ranges[x].intersects(ranges[y]) or _run_concurrently(x, y)):
                graph.add_edge(x, y)
        if partition_size:
            for y in x.neighbors:
                if x.offset // partition_size == y.offset // partition_size:
                    graph.add_edge(x, y)
    return graph


def _live_operations(liveness: Liveness, value: Value) -> list[Operation]:
    """The ops at which ``value`` is live (MLIR's ``Liveness::resolveLiveness``): in its
    defining block and the blocks using it, from its definition (or the block start when it is
    live-in) to its last use (or the block end when it is live-out), and on through the
    successors where it is live-in."""
    home = value.parent_block
    blocks: list[Block] = [home]
    seen = {home}
    for user in value.users:
        block = user.parent
        if block is not None and block not in seen:
            seen.add(block)
            blocks.append(block)
    result: list[Operation] = []
    while blocks:
        block = blocks.pop()
        if block.first_op is None:
            continue
        live_in = value in liveness.live_in(block)
        start = block.first_op if live_in or isinstance(value, BlockArgument) \
            else value.owner
        if value in liveness.live_out(block):
            end = block.last_op
        else:
            end = start
            for user in value.users:
                anc = ancestor_in_region(user, block.parent)
                if anc is not None and anc.parent is block and end.is_before_in_block(anc):
                    end = anc
        op = start
        while op is not None:
            result.append(op)
            if op is end:
                break
            op = op.next_op
        term = block.terminator
        for succ in (term.successors if term is not None else ()):
            if succ not in seen and value in liveness.live_in(succ):
                seen.add(succ)
                blocks.append(succ)
    return result


class ModuleAllocation:
    """The allocation of every function of a module (callees before callers); shared memory is
    split into physical partitions of ``partition_size`` bytes (0: not split)."""

    def __init__(self, module: Operation, scratch_fn: ScratchSizeFn = scratch_size,
                 partition_size: int = 0) -> None:
        self.module = module
        self.functions: dict[Operation, FunctionAllocation] = {}
        graph = CallGraph(module)
        sizes: dict[Operation, int] = {}
        for func in graph.post_order():
            if not isinstance(func, Operation):
                continue
            allocation = _Builder(func, sizes, scratch_fn, partition_size).run()
            self.functions[func] = allocation
            sizes[func] = allocation.shared_memory_size
        roots = [f for f in graph.functions if not graph.callers(f)]
        self.shared_memory_size = max((sizes[f] for f in roots if f in sizes), default=0)

    def of(self, func: Operation) -> FunctionAllocation:
        """The allocation of ``func``."""
        return self.functions[func]

