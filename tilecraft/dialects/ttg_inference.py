"""Layout inference of the TritonGPU dialect for the shape ops of tt (Triton's
``DialectInferLayoutInterface`` of TritonGPU): the layout of ``tt.expand_dims``, ``tt.reduce``,
``tt.trans``, ``tt.join`` and ``tt.split`` results from their operands' (and the converse), and
whether two layouts of a shape are the same map (``verifyLayoutsAreEqual``).

Each inference answers an encoding, None where it does not know the layout (a layout without a
linear map here), or raises `EncodingInferenceError` (tt's: the dialect that asks) where
Triton's inference fails, with Triton's message. The tt verifiers call them through hooks of the ``ttg`` attributes
(``infer_expand_dims_encoding``, ``infer_reduce_encoding``, ``infer_trans_encoding``,
``infer_split_encoding``, ``verify_layouts_are_equal``), the layout passes directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tilecraft.generated.ttg import (BlockedEncodingAttr, LinearEncodingAttr,
                                     NVMMASharedEncodingAttr, PaddedSharedEncodingAttr,
                                     SharedLinearEncodingAttr, SliceEncodingAttr,
                                     SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute
from tilecraft.layouts.distributed import standard_out_dims, unjoin_registers
from tilecraft.layouts.linear import LinearLayout

from .tt import EncodingInferenceError

__all__ = ["EncodingInferenceError", "layout_map", "linear_attr", "layout_with_bases",
           "expand_dims_encoding", "slice_encoding", "trans_encoding", "default_join_encoding",
           "split_encoding", "layouts_equivalent", "infer_expand_dims_encoding",
           "infer_reduce_encoding", "infer_trans_encoding", "infer_split_encoding",
           "verify_layouts_are_equal"]

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


def verify_layouts_are_equal(self, shape: Sequence[int], other: Attribute | None) -> bool:
    """`layouts_equivalent` of this layout and ``other`` over ``shape``."""
    return layouts_equivalent(shape, self, other)
