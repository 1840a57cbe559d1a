"""``tt.reduce`` on the GPU, from the operand's layout map.

Three steps, each read off the layout: the registers of a thread that differ only along the
axis are combined in order of their position; then the lanes whose bits move along the axis
exchange partial results with butterfly shuffles (``shfl.sync.bfly``); then, when warps split
the axis too, each warp writes its partials to shared memory and, after a barrier, every thread
combines the warps' partials for the elements of its result registers. The result has the
operand's layout sliced along the axis (``#ttg.slice``), or is a scalar held by every thread.
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir

from tilecraft.ir import Operation, RankedTensorType
from tilecraft.layouts.linear import LinearLayout

from .lowering import I32, Distributed, GPULowering, error_at, lowers
from . import scratch
from .shuffles import shuffle_xor
from .scratch import Storage

Key = tuple[int, ...]


def combine(fl: GPULowering, op: Operation, left: Sequence, right: Sequence) -> list:
    """The op's combine region applied to two tuples of scalars."""
    fl.reduction_depth += 1
    try:
        return fl.lower_block(op.regions[0].blocks[0], [*left, *right])
    finally:
        fl.reduction_depth -= 1


def axis_bits(layout: LinearLayout, in_dim: str, axis: int) -> list[int]:
    """The bits of ``in_dim`` that move along ``axis``; raises when such a bit also moves
    along another dim (the partials it combines would belong to different results)."""
    bits = []
    for bit in range(layout.in_dim_bits(in_dim)):
        basis = layout.basis(in_dim, bit)
        if basis[axis]:
            if any(v for d, v in enumerate(basis) if d != axis):
                raise ValueError(f"the {in_dim} bit {bit} moves along several dims")
            bits.append(bit)
    return bits


def _groups(layout: LinearLayout, axis: int) -> dict[Key, list[int]]:
    """Registers by their coordinates off the axis, each list ordered along the axis; copies
    of an element held twice by the thread are left out."""
    groups: dict[Key, list[tuple[int, int]]] = {}
    seen: set[Key] = set()
    for register in range(layout.in_dim_size("register")):
        coordinate = layout.apply(register=register)
        if coordinate in seen:
            continue
        seen.add(coordinate)
        key = coordinate[:axis] + (0,) + coordinate[axis + 1:]
        groups.setdefault(key, []).append((coordinate[axis], register))
    return {key: [r for _, r in sorted(members)] for key, members in groups.items()}


@lowers("tt.reduce")
def _reduce(fl: GPULowering, op: Operation) -> None:
    axis = int(op.axis)
    sources = [fl.dist(v) for v in op.operands]
    layout = sources[0].layout
    try:
        lane_bits = axis_bits(layout, "lane", axis)
        warp_bits = axis_bits(layout, "warp", axis)
    except ValueError as error:
        raise error_at(op, f"the CUDA backend cannot reduce this layout: {error}") from None
    partials: dict[Key, list] = {}
    for key, registers in _groups(layout, axis).items():
        acc = [s.values[registers[0]] for s in sources]
        for register in registers[1:]:
            acc = combine(fl, op, acc, [s.values[register] for s in sources])
        for bit in lane_bits:
            acc = combine(fl, op, acc, [shuffle_xor(fl, v, 1 << bit) for v in acc])
        partials[key] = acc
    if warp_bits:
        partials = _across_warps(fl, op, layout, axis, warp_bits, partials)
    _set_results(fl, op, axis, partials)


def _across_warps(fl: GPULowering, op: Operation, layout: LinearLayout, axis: int,
                  warp_bits: list[int], partials: dict[Key, list]) -> dict[Key, list]:
    """Partials of every warp along the axis combined through shared memory."""
    b = fl.builder
    keys = sorted(partials)
    warps = 1 << len(warp_bits)
    # this warp's position along the axis, from its bits that move along it
    position: ir.Value = ir.Constant(I32, 0)
    for k, bit in enumerate(warp_bits):
        flag = b.and_(b.lshr(fl.warp, ir.Constant(I32, bit)), ir.Constant(I32, 1))
        position = b.or_(position, b.shl(flag, ir.Constant(I32, k)))
    # partials are placed by their coordinates: (warp position along the axis, row-major)
    rank = len(layout.out_dim_names)
    shape = [layout.out_dim_size(name) for name in layout.out_dim_names]
    shape[axis] = 1
    numel = 1
    for size in shape:
        numel *= size
    storages = [Storage.of(v.type) for v in op.operands]
    offsets, total = scratch.packed([warps * numel * storage.size for storage in storages])
    base = fl.shared_base(total)
    starts = [scratch.offset(fl, base, offset) for offset in offsets]
    thread = fl.thread_offsets(layout)
    for key in keys:
        coordinate = _key_coordinates(fl, thread, key, axis, rank)
        index = b.add(b.mul(position, ir.Constant(I32, numel)),
                      scratch.row_major(fl, coordinate, shape))
        for value, storage, start in zip(partials[key], storages, starts):
            storage.store(fl, start, index, value)
    fl.barrier()
    combined: dict[Key, list] = {}
    for key in keys:
        coordinate = _key_coordinates(fl, thread, key, axis, rank)
        within = scratch.row_major(fl, coordinate, shape)
        acc = None
        for w in range(warps):
            index = b.add(within, ir.Constant(I32, w * numel))
            loaded = [storage.load(fl, start, index) for storage, start in zip(storages, starts)]
            acc = loaded if acc is None else combine(fl, op, acc, loaded)
        combined[key] = acc
    return combined


def _key_coordinates(fl: GPULowering, thread: Sequence[ir.Value], key: Key, axis: int,
                     rank: int) -> list[ir.Value]:
    """The coordinates (axis set to 0) of the elements a key stands for in this thread."""
    b = fl.builder
    out = []
    for d in range(rank):
        if d == axis:
            out.append(ir.Constant(I32, 0))
        else:
            out.append(thread[d] if key[d] == 0 else b.xor(thread[d], ir.Constant(I32, key[d])))
    return out


def _set_results(fl: GPULowering, op: Operation, axis: int, partials: dict[Key, list]) -> None:
    result_type = op.results[0].type
    if not isinstance(result_type, RankedTensorType):
        (only,) = partials.values()
        for result, value in zip(op.results, only):
            fl.set(result, value)
        return
    layout = fl.layout(result_type)
    per_result: list[list] = [[] for _ in op.results]
    for register in range(layout.in_dim_size("register")):
        coordinate = layout.apply(register=register)
        key = coordinate[:axis] + (0,) + coordinate[axis:]
        if key not in partials:
            raise error_at(op, "the CUDA backend: the reduction's result layout is not its "
                           "operand's layout sliced along the axis")
        for k, value in enumerate(partials[key]):
            per_result[k].append(value)
    for result, values in zip(op.results, per_result):
        fl.set(result, Distributed(layout, values, tuple(result_type.shape)))


@lowers("tt.scan")
def _scan(fl: GPULowering, op: Operation) -> None:
    """Inclusive scans through shared memory: the tensor is written in row-major order, each
    thread scans whole rows along the axis sequentially, and the result is read back in the
    result's layout. Correct for any layout; not fast (rows longer than a few hundred elements
    are scanned by one thread each)."""
    b = fl.builder
    axis = int(op.axis)
    sources = [fl.dist(v) for v in op.operands]
    shape = list(sources[0].shape)
    length = shape[axis]
    inner = 1
    for size in shape[axis + 1:]:
        inner *= size
    numel = 1
    for size in shape:
        numel *= size
    rows = numel // length
    types = [s.values[0].type for s in sources]
    storages = [Storage.of(v.type) for v in op.operands]
    offsets, total = scratch.packed([numel * storage.size for storage in storages])
    base = fl.shared_base(total)
    starts = [scratch.offset(fl, base, offset) for offset in offsets]
    for source, start, storage in zip(sources, starts, storages):
        for register, value in enumerate(source.values):
            index = scratch.row_major(fl, fl.coordinates(source.layout, register), shape)
            storage.store(fl, start, index, value)
    fl.barrier()
    threads = fl.num_warps * fl.threads_per_warp
    reverse = bool(getattr(op, "reverse", False))

    def index(row_base: ir.Value, position: ir.Value) -> ir.Value:
        return b.add(row_base, b.mul(position, ir.Constant(I32, inner)))

    with _counted_loop(fl, fl.tid, ir.Constant(I32, rows), threads) as row:
        outer = b.udiv(row, ir.Constant(I32, inner))
        row_base = b.add(b.mul(outer, ir.Constant(I32, length * inner)),
                         b.urem(row, ir.Constant(I32, inner)))
        first = ir.Constant(I32, length - 1 if reverse else 0)
        slots = [fl.alloca(t) for t in types]
        for k, slot in enumerate(slots):
            b.store(storages[k].load(fl, starts[k], index(row_base, first)), slot)
        with _counted_loop(fl, ir.Constant(I32, 1), ir.Constant(I32, length), 1) as step:
            position = b.sub(ir.Constant(I32, length - 1), step) if reverse else step
            acc = [b.load(slot, typ=t) for slot, t in zip(slots, types)]
            loaded = [storages[k].load(fl, starts[k], index(row_base, position))
                      for k in range(len(types))]
            acc = combine(fl, op, acc, loaded)
            for k, value in enumerate(acc):
                b.store(value, slots[k])
                storages[k].store(fl, starts[k], index(row_base, position), value)
    fl.barrier()
    for k, result in enumerate(op.results):
        layout = fl.layout(result.type)
        values = []
        for register in range(layout.in_dim_size("register")):
            position = scratch.row_major(fl, fl.coordinates(layout, register), shape)
            values.append(storages[k].load(fl, starts[k], position))
        fl.set(result, Distributed(layout, values, tuple(shape)))


class _counted_loop:
    """``for (i = start; i < end; i += step)`` over i32 as a context manager yielding ``i``."""

    def __init__(self, fl: GPULowering, start: ir.Value, end: ir.Value, step: int) -> None:
        self.fl, self.start, self.end, self.step = fl, start, end, step

    def __enter__(self) -> ir.Value:
        b = self.fl.builder
        self.slot = self.fl.alloca(I32)
        b.store(self.start, self.slot)
        self.head = b.append_basic_block("loop.head")
        self.body = b.append_basic_block("loop.body")
        self.exit = b.append_basic_block("loop.end")
        b.branch(self.head)
        b.position_at_end(self.head)
        index = b.load(self.slot, typ=I32)
        b.cbranch(b.icmp_signed("<", index, self.end), self.body, self.exit)
        b.position_at_end(self.body)
        self.index = index
        return index

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            return
        b = self.fl.builder
        b.store(b.add(self.index, ir.Constant(I32, self.step)), self.slot)
        b.branch(self.head)
        b.position_at_end(self.exit)
