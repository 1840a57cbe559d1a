"""Which layout an op's result takes from its operand's, and the converse: the transfer functions
through which `tritongpu-remove-layout-conversions` moves layouts (Triton's ``inferDstEncoding``
and ``inferSrcEncoding``), and the ops whose layout it keeps (anchors).

A function here answers None when it cannot tell (an op it does not know, a layout it cannot map):
the pass then leaves that value's layout alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

from tilecraft.dialects.ttg import context_num_warps, threads_per_warp
from tilecraft.dialects.ttg_inference import (EncodingInferenceError, default_join_encoding,
                                              expand_dims_encoding, layout_map,
                                              layout_with_bases, linear_attr, slice_encoding,
                                              split_encoding, trans_encoding)
from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, BlockedEncodingAttr,
                                     DotOperandEncodingAttr, NvidiaMmaEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import Attribute, Operation, RankedTensorType, Value
from tilecraft.ir.traits import Elementwise, SameOperandsAndResultEncoding
from tilecraft.layouts.distributed import unjoin_registers

from .triton_to_tritongpu import default_blocked

__all__ = ["infer_dst_encoding", "infer_src_encoding", "is_layout_anchor",
           "is_expensive_load_or_store", "can_use_result_encoding", "is_tensor", "with_encoding",
           "mappable", "layout_map", "trans_encoding", "MMA_ENCODINGS"]

CONVERT = "ttg.convert_layout"
# ops whose tensor operands and result share one layout although they lack the trait
SAME_ENCODING_OPS = frozenset({"tt.load", "tt.store", "scf.while", "scf.for", "scf.yield",
                               "scf.condition", "ttng.warp_group_dot_wait"})
# ops that make their result in any layout asked of them
FREE_RESULT_OPS = frozenset({"arith.constant", "tt.make_range", "tt.splat", "tt.histogram",
                             "ttg.local_alloc", "ttg.local_load", "ttg.local_store"})


def is_tensor(value: Value) -> bool:
    """Whether ``value`` is a ranked tensor (the values that have layouts)."""
    return isinstance(value.type, RankedTensorType)


def with_encoding(type_: RankedTensorType, encoding: Attribute) -> RankedTensorType:
    """``type_`` with the layout ``encoding``."""
    return RankedTensorType(type_.shape, type_.element_type, encoding)


#: accumulator layouts of matrix instructions (Triton's MmaEncodingTrait)
MMA_ENCODINGS = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr)


def mappable(encoding: Attribute | None, shape: tuple[int, ...]) -> bool:
    """Whether the pass knows ``encoding`` as a map over ``shape`` (values in other layouts are
    left where they are)."""
    return encoding is not None and layout_map(encoding, shape) is not None


def _quietly(infer: Callable[..., Attribute | None], *args) -> Attribute | None:
    """``infer(*args)``, None where the inference refuses the layout."""
    try:
        return infer(*args)
    except EncodingInferenceError:
        return None


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


def fp4_to_fp_encoding(encoding: Attribute, shape: tuple[int, ...], axis: int,
                       forward: bool) -> Attribute | None:
    """The layout of ``ttg.fp4_to_fp``'s result (``forward``: from its source's ``encoding`` over
    ``shape``) or of its source (from its result's, over the result's ``shape``): along
    ``axis`` each source element unpacks into a pair held by the same thread. A blocked layout
    or dot operand whose fastest dimension is ``axis`` keeps its kind (twice or half the
    elements per thread); any other mapped layout becomes a linear one. None when, backward, no
    thread holds both elements of a pair."""
    if isinstance(encoding, BlockedEncodingAttr) and encoding.order[0] == axis:
        sizes = list(encoding.size_per_thread)
        if not forward and sizes[axis] == 1:
            return None
        sizes[axis] = sizes[axis] * 2 if forward else sizes[axis] // 2
        return BlockedEncodingAttr(sizes, encoding.threads_per_warp, encoding.warps_per_cta,
                                   encoding.order, encoding.cga_layout)
    if isinstance(encoding, DotOperandEncodingAttr) and \
            axis == len(shape) - (1 if encoding.op_idx == 0 else 2):
        if not forward and encoding.k_width <= 1:
            return None
        width = encoding.k_width * 2 if forward else encoding.k_width // 2
        return DotOperandEncodingAttr(encoding.op_idx, encoding.parent, width)
    layout = layout_map(encoding, shape)
    if layout is None:
        return None
    if not forward:
        unjoined = unjoin_registers(layout, axis)
        return None if unjoined is None else linear_attr(unjoined)
    unit = tuple(int(k == axis) for k in range(len(shape)))
    bases = {name: [tuple(c * 2 if k == axis else c for k, c in enumerate(b)) for b in vectors]
             for name, vectors in layout.bases.items()}
    bases["register"] = [unit, *bases.get("register", [])]
    return linear_attr(layout_with_bases(bases, tuple(s * 2 if k == axis else s
                                                 for k, s in enumerate(shape))))


def _shape(value: Value) -> tuple[int, ...]:
    return tuple(value.type.shape)


def infer_dst_encoding(op: Operation, encoding: Attribute) -> Attribute | None:
    """The layout of ``op``'s results when its (tensor) operand has ``encoding``; None when the
    layout does not pass through ``op``."""
    name = op.name
    if name == "tt.scan" and not isinstance(encoding, BlockedEncodingAttr):
        return None
    if name in SAME_ENCODING_OPS or op.has_trait(SameOperandsAndResultEncoding) \
            or op.has_trait(Elementwise):
        return encoding
    if name == "tt.reduce":
        if len(op.operands[0].type.shape) == 1:
            return None
        return slice_encoding(encoding, int(op.axis))
    if name == "tt.expand_dims":
        return _quietly(expand_dims_encoding, encoding, int(op.axis))
    if name == "tt.trans":
        return _quietly(trans_encoding, encoding, _shape(op.operands[0]), tuple(op.order))
    if name == "tt.join":
        return _quietly(default_join_encoding, encoding, _shape(op.operands[0]))
    if name == "tt.split":
        return _quietly(split_encoding, encoding, _shape(op.operands[0]))
    if name == "tt.reshape":
        if op.allow_reorder:
            return None
        return reshape_encoding(encoding, _shape(op.operands[0]), _shape(op.results[0]))
    if name == "tt.gather":
        return encoding
    if name == "ttg.fp4_to_fp":
        return fp4_to_fp_encoding(encoding, _shape(op.operands[0]), int(op.axis), True)
    return None


def infer_src_encoding(op: Operation, encoding: Attribute) -> Attribute | None:
    """The layout ``op``'s (tensor) operands need for its result to have ``encoding``; None
    when ``op`` cannot make its result in that layout."""
    name = op.name
    if name == "tt.scan" and not isinstance(encoding, BlockedEncodingAttr):
        return None
    if name in SAME_ENCODING_OPS or op.has_trait(SameOperandsAndResultEncoding) \
            or op.has_trait(Elementwise):
        return encoding
    if name == "tt.reduce":
        if isinstance(encoding, SliceEncodingAttr) and encoding.dim == int(op.axis):
            return encoding.parent
        return None
    if name == "tt.expand_dims":
        return slice_encoding(encoding, int(op.axis))
    if name == "tt.trans":
        order = tuple(op.order)
        inverse = tuple(order.index(i) for i in range(len(order)))
        return _quietly(trans_encoding, encoding, _shape(op.results[0]), inverse)
    if name == "tt.join":
        return _quietly(split_encoding, encoding, _shape(op.results[0]))
    if name == "tt.split":
        return _quietly(default_join_encoding, encoding, _shape(op.results[0]))
    if name == "tt.reshape":
        if op.allow_reorder:
            return None
        return reshape_encoding(encoding, _shape(op.results[0]), _shape(op.operands[0]))
    if name == "tt.gather":
        return encoding
    if name == "ttg.fp4_to_fp":
        return fp4_to_fp_encoding(encoding, _shape(op.results[0]), int(op.axis), False)
    return None


def _single_value(value: Value) -> bool:
    if not is_tensor(value):
        return True
    count = 1
    for size in value.type.shape:
        count *= size
    return count == 1


def _module_of(op: Operation) -> Operation:
    while op.parent_op is not None:
        op = op.parent_op
    return op


def is_expensive_load_or_store(op: Operation) -> bool:
    """Triton's rule: a load or store of one element, or of fewer elements than the CTA has
    threads (their caches make it cheap), may be done again in another layout; others not."""
    ptr = op.operands[0]
    if _single_value(ptr):
        return False
    warps = context_num_warps(op)
    if warps is None:
        return True
    count = 1
    for size in ptr.type.shape:
        count *= size
    return count >= warps * threads_per_warp(_module_of(op))


ANCHOR_OPS = frozenset({"tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "tt.atomic_rmw",
                        "tt.atomic_cas", "ttng.tmem_load", "tt.descriptor_load",
                        "tt.descriptor_gather", "tt.descriptor_store", "tt.descriptor_scatter",
                        "tt.descriptor_reduce"})


def is_layout_anchor(op: Operation) -> bool:
    """Whether ``op``'s results keep their layout and give it to the code that uses them
    (expensive memory accesses, dots, atomics, gathers with an efficient layout, reordering
    reshapes)."""
    name = op.name
    if name in ("tt.load", "tt.store"):
        return is_expensive_load_or_store(op)
    if name in ANCHOR_OPS:
        return True
    if name == "tt.gather":
        return bool(op.efficient_layout)
    if name == "tt.reshape":
        return bool(op.allow_reorder)
    return False


def can_use_result_encoding(op: Operation, encoding: Attribute) -> bool:
    """Whether ``op`` can make its result in ``encoding`` by itself (constants, ranges, splats,
    conversions, ...), without its operands changing layout."""
    if op.name == CONVERT:
        source = op.operands[0].type.encoding
        return not isinstance(encoding, NvidiaMmaEncodingAttr) or encoding == source
    return op.name in FREE_RESULT_OPS
