"""Which layout an op's result takes from its operand's, and the converse: the transfer functions
through which `tritongpu-remove-layout-conversions` moves layouts (Triton's ``inferDstEncoding``
and ``inferSrcEncoding``), and the ops whose layout it keeps (anchors).

A function here answers None when it cannot tell (an op it does not know, a layout it cannot map):
the pass then leaves that value's layout alone.
"""

from __future__ import annotations

from collections.abc import Callable

from tilecraft.dialects.ttg import context_num_warps, threads_per_warp
from tilecraft.dialects.ttg_inference import (EncodingInferenceError, blocked_reshape_encoding,
                                              default_join_encoding, expand_dims_encoding,
                                              layout_map, layout_with_bases, linear_attr,
                                              reshape_encoding, slice_encoding, split_encoding,
                                              trans_encoding)
from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, BlockedEncodingAttr,
                                     DotOperandEncodingAttr, NvidiaMmaEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import Attribute, Operation, RankedTensorType, Value
from tilecraft.ir.traits import Elementwise, SameOperandsAndResultEncoding
from tilecraft.layouts.distributed import unjoin_registers


__all__ = ["infer_dst_encoding", "infer_src_encoding", "is_layout_anchor",
           "is_expensive_load_or_store", "can_use_result_encoding", "is_tensor", "with_encoding",
           "mappable", "layout_map", "trans_encoding", "reshape_encoding",
           "blocked_reshape_encoding", "MMA_ENCODINGS"]

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
