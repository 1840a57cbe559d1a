"""Layout inference of the TritonGPU dialect for the shape ops of tt (Triton's
``DialectInferLayoutInterface`` of TritonGPU): the layout of ``tt.expand_dims``, ``tt.reduce``,
``tt.trans``, ``tt.join``, ``tt.split`` and ``tt.reshape`` results from their operands' (and
the converse), whether two layouts of a shape are the same map (``verifyLayoutsAreEqual``),
and Triton's default blocked layout of a shape.

Each inference answers an encoding, None where it does not know the layout (a layout without a
linear map here), or raises `EncodingInferenceError` (tt's: the dialect that asks) where
Triton's inference fails, with Triton's message. The tt verifiers call them through hooks of
the ``ttg`` attributes (``infer_expand_dims_encoding``, ``infer_reduce_encoding``,
``infer_trans_encoding``, ``infer_split_encoding``, ``infer_reshape_encoding``,
``verify_layouts_are_equal``), the layout passes directly.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from math import prod

from tilecraft.generated.ttg import (BlockedEncodingAttr, LinearEncodingAttr,
                                     NVMMASharedEncodingAttr, PaddedSharedEncodingAttr,
                                     SharedLinearEncodingAttr, SliceEncodingAttr,
                                     SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute
from tilecraft.layouts.distributed import standard_out_dims, unjoin_registers
from tilecraft.layouts.linear import LinearLayout

from .encoding_errors import EncodingInferenceError
from .ttg_syntax import cga_layout_from_split_params

__all__ = ["EncodingInferenceError", "layout_map", "linear_attr", "layout_with_bases",
           "expand_dims_encoding", "slice_encoding", "trans_encoding", "default_join_encoding",
           "split_encoding", "layouts_equivalent", "infer_expand_dims_encoding",
           "infer_reduce_encoding", "infer_trans_encoding", "infer_split_encoding",
           "infer_reshape_encoding", "verify_layouts_are_equal", "default_blocked",
           "reshape_chunks", "blocked_reshape_encoding", "reshape_encoding"]

_SHARED = (SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr, PaddedSharedEncodingAttr,
           SharedLinearEncodingAttr)


def layout_map(encoding: Attribute | None, shape: tuple[int, ...]) -> LinearLayout | None:
    """``encoding`` as a map over ``shape`` (`encoding_layout`, or `shared_layout` for a shared
    layout); None for a layout without a map here or one that does not fit ``shape``."""
    # ttg_layouts imports the generated classes, whose hooks (ttg.py) import this module
    from .ttg_layouts import encoding_layout, shared_layout

    try:
        if isinstance(encoding, _SHARED):
            return shared_layout(encoding, tuple(shape))
        return encoding_layout(encoding, tuple(shape))
    except ValueError:
        return None


def linear_attr(layout: LinearLayout) -> LinearEncodingAttr:
    """``#ttg.linear`` of a distributed ``layout``."""
    bases = layout.bases
    return LinearEncodingAttr(*(tuple(bases.get(name, ())) for name in
                                ("register", "lane", "warp", "block")))


def layout_with_bases(bases: Mapping[str, Sequence[Sequence[int]]],
                      shape: Sequence[int]) -> LinearLayout:
    """The layout of ``bases`` onto the standard dims (``dim0``, ...) of ``shape``."""
    return LinearLayout(bases, dict(zip(standard_out_dims(len(shape)), shape)))


def _permuted(vectors: Sequence[Sequence[int]], order: Sequence[int]) -> list[tuple[int, ...]]:
    return [tuple(vector[i] for i in order) for vector in vectors]


def _check_rank(rank: int, order: Sequence[int]) -> None:
    if rank != len(order):
        raise EncodingInferenceError(
            f"rank of encoding does not match order: {rank} vs {len(order)}")


def _cga_rank(cga_layout: Sequence[Sequence[int]], order: Sequence[int]) -> int:
    """The rank of a CGA layout's bases (a layout of one CTA has none: any rank fits)."""
    return len(cga_layout[0]) if cga_layout else len(order)


def expand_dims_encoding(encoding: Attribute, axis: int) -> Attribute:
    """The layout of ``tt.expand_dims`` at ``axis`` of a value in ``encoding``: the parent of a
    slice along ``axis``."""
    if not isinstance(encoding, SliceEncodingAttr):
        raise EncodingInferenceError("ExpandDimsOp operand encoding must be SliceEncodingAttr")
    if encoding.dim != axis:
        raise EncodingInferenceError("Incompatible slice dimension for ExpandDimsOp operand")
    return encoding.parent


def slice_encoding(encoding: Attribute, axis: int) -> Attribute:
    """The layout of a value in ``encoding`` without its dimension ``axis`` (a ``tt.reduce``
    along it, or the source of a ``tt.expand_dims`` there): the slice."""
    return SliceEncodingAttr(axis, encoding)


def trans_encoding(encoding: Attribute, shape: Sequence[int],
                   order: Sequence[int]) -> Attribute | None:
    """The layout of ``tt.trans`` (or ``ttg.memdesc_trans``) with permutation ``order`` of a
    ``shape`` value in ``encoding``, chosen so that every thread keeps its elements: blocked,
    swizzled shared and (for ``[1, 0]``) NVMMA shared layouts permuted field by field, others
    as their permuted linear map."""
    order = tuple(order)
    if order == tuple(range(len(order))):
        return encoding
    if len(shape) != len(order):
        raise EncodingInferenceError(
            f"shape and order rank do not match: {len(shape)} vs {len(order)}")
    inverse = [order.index(i) for i in range(len(order))]
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        _check_rank(_cga_rank(encoding.cga_layout, order), order)
        return SwizzledSharedEncodingAttr(encoding.vec, encoding.per_phase, encoding.max_phase,
                                          [inverse[d] for d in encoding.order],
                                          _permuted(encoding.cga_layout, order))
    if isinstance(encoding, NVMMASharedEncodingAttr) and order == (1, 0):
        _check_rank(_cga_rank(encoding.cga_layout, order), order)
        return NVMMASharedEncodingAttr(encoding.swizzling_byte_width, not encoding.transposed,
                                       encoding.element_bit_width, encoding.fp4_padded,
                                       _permuted(encoding.cga_layout, order), encoding.rank)
    if isinstance(encoding, BlockedEncodingAttr):
        _check_rank(_cga_rank(encoding.cga_layout, order), order)
        return BlockedEncodingAttr(*([field[i] for i in order] for field in (
            encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta)),
            [inverse[d] for d in encoding.order], _permuted(encoding.cga_layout, order))
    layout = layout_map(encoding, tuple(shape))
    if layout is None:
        return None
    _check_rank(len(layout.out_dims), order)
    bases = {name: _permuted(vectors, order) for name, vectors in layout.bases.items()}
    if isinstance(encoding, PaddedSharedEncodingAttr):
        return PaddedSharedEncodingAttr(encoding.intervals, encoding.paddings,
                                        offset=bases["offset"], block=bases["block"],
                                        shape=[encoding.shape[i] for i in order])
    if isinstance(encoding, SharedLinearEncodingAttr):
        return SharedLinearEncodingAttr(offset=bases["offset"], block=bases["block"],
                                        layout_alignment=encoding.layout_alignment)
    if isinstance(encoding, _SHARED):
        return None  # an NVMMA layout transposed otherwise: its alignment is not known here
    return linear_attr(layout_with_bases(bases, [shape[i] for i in order]))


def default_join_encoding(encoding: Attribute, shape: Sequence[int]) -> Attribute | None:
    """The layout ``tt.join`` of two ``shape`` values in ``encoding`` gives by default: the
    parent of a slice along the new dimension where splitting the parent gives the slice back,
    a blocked layout with 2 elements per thread along a new fastest dimension, else the linear
    map with a first register bit stepping along the new dimension."""
    joined = (*shape, 2)
    if isinstance(encoding, SliceEncodingAttr) and encoding.dim == len(shape):
        try:
            split = split_encoding(encoding.parent, joined)
        except EncodingInferenceError:
            split = None
        if split is not None and layouts_equivalent(shape, split, encoding):
            return encoding.parent
    elif isinstance(encoding, BlockedEncodingAttr):
        return BlockedEncodingAttr((*encoding.size_per_thread, 2),
                                   (*encoding.threads_per_warp, 1),
                                   (*encoding.warps_per_cta, 1), (len(shape), *encoding.order),
                                   [(*b, 0) for b in encoding.cga_layout])
    layout = layout_map(encoding, tuple(shape))
    if layout is None:
        return None
    bases = {name: [(*b, 0) for b in vectors] for name, vectors in layout.bases.items()}
    bases["register"] = [tuple(int(d == len(shape)) for d in range(len(joined))),
                         *bases.get("register", [])]
    return linear_attr(layout_with_bases(bases, joined))


def split_encoding(encoding: Attribute, shape: Sequence[int]) -> Attribute | None:
    """The layout of the results of ``tt.split`` of a ``shape`` value (last dimension 2) in
    ``encoding``: a blocked layout holding both halves in each thread loses its last
    dimension; otherwise a register bit must step along the last dimension, and the linear map
    without it is the results'."""
    if isinstance(encoding, BlockedEncodingAttr) and encoding.size_per_thread[-1] == 2 \
            and encoding.threads_per_warp[-1] == 1 and encoding.warps_per_cta[-1] == 1 \
            and all(b[-1] == 0 for b in encoding.cga_layout):
        last = len(encoding.order) - 1
        return BlockedEncodingAttr(encoding.size_per_thread[:-1],
                                   encoding.threads_per_warp[:-1],
                                   encoding.warps_per_cta[:-1],
                                   [d for d in encoding.order if d != last],
                                   [b[:-1] for b in encoding.cga_layout])
    if shape[-1] != 2:
        raise EncodingInferenceError("SplitOp input shape should have 2 in the last dim")
    layout = layout_map(encoding, tuple(shape))
    if layout is None:
        return None
    halves = unjoin_registers(layout, len(shape) - 1)
    if halves is None:
        raise EncodingInferenceError("Fp4ToFpOp/SplitOp requires at least 2 elements per "
                                     "thread in the axis/last dimension")
    bases = {name: [b[:-1] for b in vectors] for name, vectors in halves.bases.items()}
    return linear_attr(layout_with_bases(bases, shape[:-1]))


def layouts_equivalent(shape: Sequence[int], expected: Attribute | None,
                       got: Attribute | None) -> bool:
    """Whether ``expected`` and ``got`` lay out a ``shape`` value the same way (the same
    attribute, or the same linear map)."""
    if expected is got or expected == got:
        return True
    if expected is None or got is None:
        return False
    expected_map = layout_map(expected, tuple(shape))
    return expected_map is not None and expected_map == layout_map(got, tuple(shape))


# -- reshapes and the default blocked layout ----------------------------------------------------


def default_blocked(shape: Sequence[int], num_warps: int, threads_per_warp: int = 32,
                    num_ctas: int = 1, size_per_thread: Sequence[int] | None = None,
                    order: Sequence[int] | None = None) -> BlockedEncodingAttr:
    """Triton's blocked layout of ``shape`` for ``size_per_thread`` (default: one element per
    thread in every dim) and ``order`` (default: the last dim fastest): CTAs split the slowest
    dims first; then, from the fastest dim, threads of a warp and then warps cover the dim as
    far as its size allows, and the slowest dim takes the lanes and warps that remain.

    Remembered per arguments (attributes are immutable and uniqued): the conversion to
    `ttg` asks for the same few layouts for every tensor type of a kernel."""
    return _default_blocked(tuple(shape), num_warps, threads_per_warp, num_ctas,
                            None if size_per_thread is None else tuple(size_per_thread),
                            None if order is None else tuple(order))


@functools.lru_cache(maxsize=4096)
def _default_blocked(shape: tuple[int, ...], num_warps: int, threads_per_warp: int,
                     num_ctas: int, size_per_thread: tuple[int, ...] | None,
                     order: tuple[int, ...] | None) -> BlockedEncodingAttr:
    rank = len(shape)
    # A dim that is not a power of two (Triton's are) is laid out as the next one, an empty dim
    # as one of size 1, and so are the elements per thread such dims give: the layout's lanes,
    # warps and CTAs stay powers of two (the verifier then reports the tensor's shape).
    shape = [_power_of_two_at_least(size) for size in shape]
    size_per_thread = tuple(_power_of_two_at_least(size)
                            for size in size_per_thread or (1,) * rank)
    order = tuple(order) if order is not None else tuple(range(rank - 1, -1, -1))
    ctas_per_cga, split_num = _cta_split(shape, size_per_thread, order, num_ctas)
    shape_per_cta = [size // min(size, split) for size, split in zip(shape, split_num)]
    lanes = [1] * rank
    warps = [1] * rank
    remaining_lanes, remaining_warps = threads_per_warp, num_warps
    remaining_threads = num_warps * threads_per_warp
    used_lanes = used_warps = 1
    for dim in order[:-1]:
        threads = min(remaining_threads, max(1, shape_per_cta[dim] // size_per_thread[dim]))
        lanes[dim] = min(threads, remaining_lanes)
        warps[dim] = max(1, min(threads // lanes[dim], remaining_warps))
        remaining_warps //= warps[dim]
        remaining_lanes //= lanes[dim]
        remaining_threads //= threads
        used_lanes *= lanes[dim]
        used_warps *= warps[dim]
    lanes[order[-1]] = threads_per_warp // used_lanes
    warps[order[-1]] = num_warps // used_warps
    return BlockedEncodingAttr(size_per_thread, lanes, warps, order,
                               cga_layout_from_split_params(ctas_per_cga, split_num, order))


def _power_of_two_at_least(size: int) -> int:
    """The smallest power of two not below ``size`` (1 for an empty or negative size)."""
    return 1 << max(size - 1, 0).bit_length()


def _cta_split(shape: Sequence[int], size_per_thread: Sequence[int], order: Sequence[int],
               num_ctas: int) -> tuple[list[int], list[int]]:
    """Triton's ``CTAsPerCGA`` and ``CTASplitNum``: the CTAs split the slowest dims first, and
    any that remain repeat along the last dim."""
    rank = len(shape)
    ctas = [1] * rank
    remaining = num_ctas
    for dim in reversed(order):
        ctas[dim] = min(remaining, max(1, shape[dim] // size_per_thread[dim]))
        remaining //= ctas[dim]
    split = list(ctas)
    ctas[rank - 1] *= remaining
    return ctas, split


def reshape_chunks(src_shape: Sequence[int],
                   dst_shape: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """A reshape from ``src_shape`` to ``dst_shape`` cut into independent chunks: each a run of
    consecutive source dims and the run of destination dims holding the same elements (size-1
    dims join the chunk at hand), as Triton's ``getReshapeDecomposition``."""
    if not src_shape:
        return []
    chunks: list[tuple[list[int], list[int]]] = [([], [])]
    src = dst = 0
    src_count = dst_count = 1
    while src < len(src_shape) or dst < len(dst_shape):
        if src < len(src_shape) and (src_count < dst_count or src_count == 1
                                     or src_shape[src] == 1):
            src_count *= src_shape[src]
            chunks[-1][0].append(src)
            src += 1
        elif dst < len(dst_shape) and (dst_count < src_count or dst_shape[dst] == 1):
            dst_count *= dst_shape[dst]
            chunks[-1][1].append(dst)
            dst += 1
        else:
            chunks.append(([], []))
            src_count = dst_count = 1
    return chunks


def _fills_minor_first(chunk_shape: list[int], sub: Sequence[int], dims: list[int]) -> bool:
    """Whether, walking a chunk's source dims from the most minor, each field of a blocked
    layout (``sub``: sizes per thread, threads or warps per dim) uses a dim only once the more
    minor ones are exhausted; only the most major may exceed its size. ``chunk_shape`` is the
    part of the chunk the earlier fields left, updated in place."""
    for i in range(len(dims) - 1, -1, -1):
        size = sub[dims[i]]
        if size == 1:
            continue
        if any(chunk_shape[j] != 1 for j in range(i + 1, len(dims))):
            return False
        chunk_shape[i] = chunk_shape[i] // size if chunk_shape[i] >= size else 0
        if chunk_shape[i] == 0 and i != 0:
            return False
    return True


def blocked_reshape_encoding(encoding: BlockedEncodingAttr, src_shape: tuple[int, ...],
                             dst_shape: tuple[int, ...]) -> BlockedEncodingAttr | None:
    """A blocked layout of ``dst_shape`` holding, in every thread, the elements that
    ``encoding`` gives it of ``src_shape`` (row-major reshape), when one exists that Triton's
    ``inferReshapeOpLegacyEncoding`` finds: the default layout maps to the default layout;
    otherwise, on one CTA, every field must divide the shape, the source dims merged into one
    destination run must be adjacent in the layout's order, and each field must fill the minor
    dims of such a run before the major ones. The answer is symmetric: reshaping it back gives
    ``encoding``."""
    warps = prod(encoding.warps_per_cta)
    lanes = prod(encoding.threads_per_warp)
    if encoding == default_blocked(src_shape, warps, lanes):
        return default_blocked(dst_shape, warps, lanes)
    if any(any(b) for b in encoding.cga_layout):
        return None
    fields = (encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta)
    if any(size >= sub[d] and size % sub[d] for sub in fields for d, size in enumerate(src_shape)):
        return None
    chunks = reshape_chunks(src_shape, dst_shape)
    position = {d: k for k, d in enumerate(encoding.order)}
    for src_dims, dst_dims in chunks:
        ranks = [position[d] for d in reversed(src_dims)]
        if any(b != a + 1 for a, b in zip(ranks, ranks[1:])) or not dst_dims:
            return None
        left = [src_shape[d] for d in src_dims]
        if not all(_fills_minor_first(left, sub, src_dims) for sub in fields):
            return None
    remaining = list(dst_shape)
    dst_fields = []
    for sub in fields:
        out = [1] * len(dst_shape)
        for src_dims, dst_dims in chunks:
            count = prod(sub[d] for d in src_dims)
            for d in reversed(dst_dims):
                out[d] = min(count, remaining[d])
                count //= out[d]
                remaining[d] //= out[d]
            out[dst_dims[0]] *= count
        dst_fields.append(out)
    rank_of: dict[int, int] = {}
    for src_dims, dst_dims in sorted(chunks, key=lambda chunk: position[chunk[0][0]]):
        for d in reversed(dst_dims):
            rank_of[d] = len(rank_of)
    order = sorted(range(len(dst_shape)), key=rank_of.__getitem__)
    return BlockedEncodingAttr(*dst_fields, order)


def reshape_encoding(encoding: Attribute, src_shape: tuple[int, ...],
                     dst_shape: tuple[int, ...]) -> Attribute | None:
    """The layout of a ``tt.reshape`` (no reordering) from ``src_shape`` in ``encoding`` to
    ``dst_shape``: the same elements in row-major order, as a blocked layout where
    `blocked_reshape_encoding` finds one, else as a linear layout; the encoding itself when
    the shape does not change."""
    if tuple(src_shape) == tuple(dst_shape):
        return encoding
    if isinstance(encoding, BlockedEncodingAttr):
        blocked = blocked_reshape_encoding(encoding, src_shape, dst_shape)
        if blocked is not None:
            return blocked
    layout = layout_map(encoding, src_shape)
    if layout is None:
        return None

    def moved(vector: tuple[int, ...]) -> tuple[int, ...]:
        flat = 0
        for coord, size in zip(vector, src_shape):
            flat = flat * size + coord
        out = []
        for size in reversed(dst_shape):
            out.append(flat % size)
            flat //= size
        return tuple(reversed(out))

    bases = {name: [moved(b) for b in vectors] for name, vectors in layout.bases.items()}
    return linear_attr(layout_with_bases(bases, tuple(dst_shape)))


# -- the hooks of the ttg attributes -------------------------------------------------------------


def infer_expand_dims_encoding(self, axis: int) -> Attribute:
    """`expand_dims_encoding` of this layout (the hook of the ``tt.expand_dims`` verifier)."""
    return expand_dims_encoding(self, axis)


def infer_reduce_encoding(self, axis: int) -> Attribute:
    """`slice_encoding` of this layout along the reduced ``axis`` (the hook of the
    ``tt.reduce`` verifier)."""
    return slice_encoding(self, axis)


def infer_trans_encoding(self, shape: Sequence[int], order: Sequence[int]) -> Attribute | None:
    """`trans_encoding` of this layout (the hook the ``tt.trans`` verifier calls)."""
    return trans_encoding(self, shape, order)


def infer_split_encoding(self, shape: Sequence[int]) -> Attribute | None:
    """`split_encoding` of this layout (the hook the ``tt.split`` and ``tt.join`` verifiers
    call)."""
    return split_encoding(self, shape)


def infer_reshape_encoding(self, src_shape: Sequence[int],
                           dst_shape: Sequence[int]) -> Attribute | None:
    """`reshape_encoding` of this layout (the hook of the ``tt.reshape`` verifier)."""
    return reshape_encoding(self, tuple(src_shape), tuple(dst_shape))


def verify_layouts_are_equal(self, shape: Sequence[int], other: Attribute | None) -> bool:
    """`layouts_equivalent` of this layout and ``other`` over ``shape``."""
    return layouts_equivalent(shape, self, other)
