"""Constants, indices and the ops that move elements between tensors: ``tt.splat``,
``tt.broadcast``, ``tt.expand_dims``, ``tt.reshape``, ``tt.trans``, ``tt.join``, ``tt.split``,
``tt.cat``, ``tt.gather`` and ``ttg.convert_layout``.

Moving elements is computed from the two layouts. When every element a thread needs is already
in one of its own registers (the lane and warp parts of both maps agree), the result is a
selection of registers; when a conversion stays within warps, warp shuffles move the elements
(`shuffles`); otherwise the tensor goes through shared memory: every thread writes its
registers at their coordinates, and after a barrier reads the elements of its new registers.
A layout conversion of a power-of-two shape goes through a swizzled buffer whose 16-byte
chunks run along the dim the new layout's registers run along, xor-ed with the row
(`conversion_buffer`): both sides move vectors (`shared_memory.access_plan`) without bank
conflicts for the usual pairs, an mma accumulator (pairs of columns per thread, rows across
lanes) into a blocked layout (runs along rows) included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import llvmlite.ir as ir

from tilecraft.dialects.ttg import is_expensive_view
from tilecraft.ir import DenseElementsAttr, Operation, RankedTensorType
from tilecraft.layouts.conversion import contiguous_registers, registers_by_coordinate
from tilecraft.layouts.distributed import swizzled_shared_layout
from tilecraft.layouts.linear import LinearLayout

from ..cpu.shapes import scalar_constant
from .lowering import I32, Distributed, GPULowering, error_at, lowers, reg_type
from .scratch import Storage, row_major
from .shared_memory import SharedTensor, load_distributed, store_distributed
from .shuffles import convert_by_shuffles, shuffle_plan

Coordinates = tuple[int, ...]
# Maps a coordinate of the result to the coordinate of the source that holds its element; it
# must be linear over GF(2) (a selection or permutation of coordinate bits).
Projection = Callable[[Coordinates], Coordinates]


@lowers("arith.constant")
def _constant(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    ty = reg_type(result.type)
    attr = op.value
    if not isinstance(attr, DenseElementsAttr):
        fl.set(result, scalar_constant(ty, attr.value))
        return
    values = attr.values
    if len(set(values)) != 1 and not attr.is_splat:
        raise error_at(op, "the CUDA backend supports only splat tensor constants")
    value = scalar_constant(ty, values[0])
    layout = fl.layout(result.type)
    fl.set(result, fl.new_dist(result.type, [value] * layout.in_dim_size("register")))


@lowers("tt.make_range")
def _make_range(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    layout = fl.layout(result.type)
    start = ir.Constant(I32, op.start)
    values = []
    for register in range(layout.in_dim_size("register")):
        (index,) = fl.coordinates(layout, register)
        values.append(fl.builder.add(index, start) if op.start else index)
    fl.set(result, fl.new_dist(result.type, values))


@lowers("tt.get_program_id")
def _program_id(fl: GPULowering, op: Operation) -> None:
    fl.set(op.results[0], fl.builder.call(fl.sreg(f"ctaid.{'xyz'[int(op.axis)]}"), []))


@lowers("tt.get_num_programs")
def _num_programs(fl: GPULowering, op: Operation) -> None:
    fl.set(op.results[0], fl.builder.call(fl.sreg(f"nctaid.{'xyz'[int(op.axis)]}"), []))


@lowers("tt.splat")
def _splat(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    value = fl.get(op.operands[0])
    if isinstance(value, Distributed):  # a one-element tensor
        value = value.values[0]
    count = fl.layout(result.type).in_dim_size("register")
    fl.set(result, fl.new_dist(result.type, [value] * count))


def _broadcast_projection(op: Operation) -> Projection:
    kept = [d for d, size in enumerate(op.operands[0].type.shape) if size != 1]
    return lambda c: tuple(c[d] if d in kept else 0 for d in range(len(c)))


def _expand_dims_projection(op: Operation) -> Projection:
    axis = int(op.axis)
    return lambda c: c[:axis] + c[axis + 1:]


def _trans_projection(op: Operation) -> Projection:
    order = list(op.order)

    def project(c: Coordinates) -> Coordinates:
        source = [0] * len(c)
        for position, dim in enumerate(order):
            source[dim] = c[position]
        return tuple(source)

    return project


# The ops whose result's element at ``c`` is the operand's at ``projection(op)(c)``.
PROJECTIONS: dict[str, Callable[[Operation], Projection]] = {
    "tt.broadcast": _broadcast_projection,
    "tt.expand_dims": _expand_dims_projection,
    "ttg.convert_layout": lambda op: (lambda c: c),
    "tt.trans": _trans_projection,
}


def _move(fl: GPULowering, op: Operation) -> None:
    move(fl, op, PROJECTIONS[op.name](op))


for _name in PROJECTIONS:
    lowers(_name)(_move)


def reshape_keeps_registers(op: Operation) -> bool:
    """Whether a ``tt.reshape`` is lowered by each thread keeping its registers as they are:
    with ``allow_reorder``, when both layouts hold as many elements per thread and replicate
    alike (not an expensive view), as Triton lowers every reshape. The elements then land in
    some order, which ``allow_reorder`` permits."""
    return bool(op.allow_reorder) and not is_expensive_view(op.operands[0].type,
                                                            op.results[0].type)


@lowers("tt.reshape")
def _reshape(fl: GPULowering, op: Operation) -> None:
    """Elements keep their row-major position, unless `reshape_keeps_registers`."""
    src_shape = op.operands[0].type.shape
    dst_shape = op.results[0].type.shape

    source = fl.dist(op.operands[0])
    result = op.results[0]
    if reshape_keeps_registers(op):
        fl.set(result, fl.new_dist(result.type, list(source.values)))
        return
    fl.set(result, through_shared(fl, [(source, lambda c: c)], src_shape, result.type,
                                  lambda c: c, read_shape=dst_shape))


@lowers("tt.join")
def _join(fl: GPULowering, op: Operation) -> None:
    """``join(a, b)[..., i] = (a, b)[i]`` along a new last dim of size 2."""
    result = op.results[0]
    pieces = [fl.dist(v) for v in op.operands]
    src_shape = tuple(op.operands[0].type.shape)
    out = through_shared(
        fl, [(piece, lambda c, k=k: c + (k,)) for k, piece in enumerate(pieces)],
        src_shape + (2,), result.type, lambda c: c)
    fl.set(result, out)


@lowers("tt.split")
def _split(fl: GPULowering, op: Operation) -> None:
    source = fl.dist(op.operands[0])
    shape = tuple(op.operands[0].type.shape)
    for k, result in enumerate(op.results):
        out = through_shared(fl, [(source, lambda c: c)], shape, result.type,
                             lambda c, k=k: c + (k,))
        fl.set(result, out)


@lowers("tt.cat")
def _cat(fl: GPULowering, op: Operation) -> None:
    """The rows of ``b`` after those of ``a`` (Triton allows any order; this keeps it)."""
    a, b = (fl.dist(v) for v in op.operands)
    rows = op.operands[0].type.shape[0]
    result = op.results[0]
    out = through_shared(
        fl, [(a, lambda c: c), (b, lambda c: (c[0] + rows,) + c[1:])],
        tuple(result.type.shape), result.type, lambda c: c)
    fl.set(result, out)


@lowers("tt.gather")
def _gather(fl: GPULowering, op: Operation) -> None:
    """``out[c] = src[c with c[axis] = indices[c]]``: the source is written row-major to shared
    memory and, after a barrier, each result register reads its element (an index outside the
    source reads its first element along the axis). The result has the indices' layout."""
    b = fl.builder
    source, indices = fl.dist(op.src), fl.dist(op.indices)
    shape = tuple(op.src.type.shape)
    axis = int(op.axis)
    storage = Storage.of(op.src.type)
    numel = 1
    for size in shape:
        numel *= size
    base = fl.shared_base(numel * storage.size)
    written: set[Coordinates] = set()
    for register, value in enumerate(source.values):
        coordinate = source.layout.apply(register=register)
        if coordinate not in written:
            written.add(coordinate)
            storage.store(fl, base, row_major(fl, fl.coordinates(source.layout, register), shape),
                          value)
    fl.barrier()
    result = op.results[0]
    size = ir.Constant(I32, shape[axis])
    values = []
    for register, index in enumerate(indices.values):
        width = index.type.width
        index = b.trunc(index, I32) if width > 32 else b.sext(index, I32) if width < 32 \
            else index
        index = b.select(b.icmp_unsigned("<", index, size), index, ir.Constant(I32, 0))
        coordinates = fl.coordinates(indices.layout, register)
        coordinates[axis] = index
        values.append(storage.load(fl, base, row_major(fl, coordinates, shape)))
    fl.set(result, Distributed(indices.layout, values, tuple(result.type.shape)))


# -- moving elements --------------------------------------------------------------------------


def move(fl: GPULowering, op: Operation, project: Projection) -> None:
    """``op``'s result, whose element at coordinate ``c`` is the operand's at ``project(c)``:
    registers selected when the layouts allow it, else a round trip through shared memory."""
    source = fl.dist(op.operands[0])
    result = op.results[0]
    layout = fl.layout(result.type)
    selection = register_selection(source.layout, layout, project)
    if selection is not None:
        fl.set(result, Distributed(layout, [source.values[j] for j in selection],
                                   tuple(result.type.shape)))
        return
    plan = shuffle_plan(source.layout, layout) if op.name == "ttg.convert_layout" else None
    if plan is not None:
        fl.set(result, Distributed(layout, convert_by_shuffles(fl, source, layout, plan),
                                   tuple(result.type.shape)))
        return
    src_shape = tuple(op.operands[0].type.shape)
    storage = Storage.of(result.type)
    buffer = (conversion_buffer(layout, src_shape, storage.size)
              if op.name == "ttg.convert_layout" else None)
    if buffer is not None:
        tensor = SharedTensor(fl.shared_base(buffer.in_dim_size("offset") * storage.size),
                              buffer, storage)
        store_distributed(fl, tensor, source)
        fl.barrier()
        fl.set(result, load_distributed(fl, tensor, layout, src_shape))
        return
    fl.set(result, through_shared(fl, [(source, lambda c: c)], src_shape, result.type, project))


def conversion_buffer(target: LinearLayout, shape: Sequence[int],
                      element_bytes: int) -> LinearLayout | None:
    """The swizzled shared layout a conversion into ``target`` goes through (None for shapes
    of rank 1 or not powers of two): rows along the dim ``target``'s registers run along (the
    last on ties), chunks of 16 bytes, the chunk index xor-ed with the row so that 128 bytes
    of consecutive rows fall in distinct banks."""
    rank = len(shape)
    if rank < 2 or any(size & (size - 1) for size in shape):
        return None
    runs = [contiguous_registers(target, dim) for dim in range(rank)]
    col = max(reversed(range(rank)), key=lambda dim: runs[dim])
    order = (col, *(dim for dim in reversed(range(rank)) if dim != col))
    cols = shape[col]
    vec = max(1, min(16 // element_bytes, cols))
    row_bytes = cols * element_bytes
    per_phase = max(1, 128 // row_bytes)
    max_phase = max(1, min(cols // vec, 8 // per_phase))
    return swizzled_shared_layout(shape, vec, per_phase, max_phase, order)


def register_selection(source: LinearLayout, target: LinearLayout,
                       project: Projection) -> list[int] | None:
    """For each register of ``target``, the register of ``source`` holding the element at the
    projected coordinate in the same thread; None when some element lives in another thread."""
    for in_dim in ("lane", "warp"):
        bits = max(source.in_dim_bits(in_dim), target.in_dim_bits(in_dim))
        for bit in range(bits):
            src = source.basis(in_dim, bit) if bit < source.in_dim_bits(in_dim) else None
            dst = target.basis(in_dim, bit) if bit < target.in_dim_bits(in_dim) else None
            dst_projected = project(dst) if dst is not None else None
            zero_src = src is None or not any(src)
            zero_dst = dst_projected is None or not any(dst_projected)
            if zero_src and zero_dst:
                continue
            if src != dst_projected:
                return None
    by_coordinate = registers_by_coordinate(source)
    selection = []
    for register in range(target.in_dim_size("register")):
        found = by_coordinate.get(project(target.apply(register=register)))
        if found is None:
            return None
        selection.append(found)
    return selection


def through_shared(fl: GPULowering, sources: Sequence[tuple[Distributed, Projection]],
                   buffer_shape: Sequence[int], result_type: RankedTensorType,
                   project: Projection, read_shape: Sequence[int] | None = None) -> Distributed:
    """A tensor of ``result_type`` read from a row-major buffer of ``buffer_shape`` in shared
    memory, into which each source wrote the element at coordinate ``c`` at ``place(c)``; the
    result's element at ``c`` is read at ``project(c)`` (at the row-major position of ``c`` in
    ``read_shape``, when given: a reshape). Places and projections move whole coordinates
    between dims and add constants."""
    storage = Storage.of(result_type)
    numel = 1
    for size in buffer_shape:
        numel *= size
    base = fl.shared_base(numel * storage.size)
    # a reshape reads by row-major position: the buffer stays unswizzled there
    swizzle = read_shape is None
    for source, place in sources:
        written: set[Coordinates] = set()
        for register, value in enumerate(source.values):
            coordinate = source.layout.apply(register=register)
            if coordinate in written:
                continue
            written.add(coordinate)
            placed = _apply(fl, fl.coordinates(source.layout, register), place)
            storage.store(fl, base, _buffer_index(fl, placed, buffer_shape, swizzle), value)
    fl.barrier()
    layout = fl.layout(result_type)
    values = []
    for register in range(layout.in_dim_size("register")):
        coordinates = fl.coordinates(layout, register)
        if read_shape is None:
            index = _buffer_index(fl, _apply(fl, coordinates, project), buffer_shape, swizzle)
        else:
            index = row_major(fl, coordinates, read_shape)
        values.append(storage.load(fl, base, index))
    return Distributed(layout, values, tuple(result_type.shape))


def _buffer_index(fl: GPULowering, coordinates: list[ir.Value], shape: Sequence[int],
                  swizzle: bool) -> ir.Value:
    """The position of ``coordinates`` in a scratch buffer of ``shape``: row-major, with the
    column xor-ed with the row (modulo the row length, at most 32) when ``swizzle``, so that a
    warp reading or writing one column of consecutive rows hits 32 different banks as a warp
    reading along a row does."""
    if swizzle and len(shape) >= 2 and shape[-1] > 1 and shape[-2] > 1:
        b = fl.builder
        period = min(shape[-1], 32)
        row_bits = b.and_(coordinates[-2], ir.Constant(I32, period - 1))
        coordinates = [*coordinates[:-1], b.xor(coordinates[-1], row_bits)]
    return row_major(fl, coordinates, shape)


def _apply(fl: GPULowering, coordinates: list[ir.Value], place: Projection) -> list[ir.Value]:
    """``place`` of run-time coordinates, for places that move whole coordinates between dims
    and add constants (all of this module's: inserting, dropping, permuting, offsetting)."""
    rank = len(coordinates)
    offset = place(tuple(0 for _ in range(rank)))
    result: list[ir.Value | None] = [None] * len(offset)
    for dim in range(rank):
        image = place(tuple(1 if d == dim else 0 for d in range(rank)))
        for out, (value, constant) in enumerate(zip(image, offset)):
            if value != constant:
                result[out] = coordinates[dim]
    b = fl.builder
    return [ir.Constant(I32, constant) if value is None
            else value if constant == 0 else b.add(value, ir.Constant(I32, constant))
            for value, constant in zip(result, offset)]


__all__ = ["move", "register_selection", "reshape_keeps_registers", "through_shared"]
