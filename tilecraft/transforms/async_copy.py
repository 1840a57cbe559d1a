"""What an asynchronous copy of a load into shared memory needs, as Triton's pipeliner decides
it: the buffer's shared layout (`load_shared_encoding`) and how many bytes one ``cp.async``
moves (`copy_bytes`; ``cp.async`` moves 4, 8 or 16).
"""

from __future__ import annotations

from tilecraft.generated.ttg import (DotOperandEncodingAttr, MemDescType,
                                     SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute, Operation, RankedTensorType, Value
from tilecraft.transforms.reduce_data_duplication import (memory_order,
                                                          swizzled_shared_for_dot_operand)

__all__ = ["dot_operand_shared_encoding", "load_shared_encoding", "copy_contiguity",
           "copy_bytes"]


def _order(t) -> tuple[int, ...]:
    if isinstance(t, MemDescType):
        order = getattr(t.encoding, "order", None)
        if order is not None:
            return tuple(order)
        return tuple(range(len(t.shape) - 1, -1, -1))
    return memory_order(t)


def _bit_width(t) -> int:
    return max(1, getattr(t.element_type, "width", 32))


def dot_operand_shared_encoding(value: Value) -> tuple[SwizzledSharedEncodingAttr | None, bool]:
    """The swizzled shared layout every user of ``value`` wants when all of them read it as a
    dot operand (``ttg.convert_layout``/``ttg.local_load`` into ``#ttg.dot_op``, or a
    ``ttg.local_alloc`` or view in a swizzled layout whose users do), and whether two users
    want different ones. (None, False) when a user is of another kind."""
    wanted: SwizzledSharedEncodingAttr | None = None
    for use in value.uses:
        user = use.owner
        if len(user.results) != 1:
            return None, False
        result_type = user.results[0].type
        if isinstance(result_type, MemDescType):
            encoding = result_type.encoding
            if not isinstance(encoding, SwizzledSharedEncodingAttr):
                return None, False
            inner, clash = dot_operand_shared_encoding(user.results[0])
            if inner is None:
                return None, clash
        else:
            if user.name not in ("ttg.local_load", "ttg.convert_layout"):
                return None, False
            dot = getattr(result_type, "encoding", None)
            if not isinstance(dot, DotOperandEncodingAttr):
                return None, False
            encoding = swizzled_shared_for_dot_operand(dot, tuple(value.type.shape),
                                                       _order(value.type),
                                                       _bit_width(value.type))
        if wanted is not None and wanted != encoding:
            return None, True
        wanted = encoding
    return wanted, False


def _alloc_encodings(load: Operation) -> list[Attribute]:
    return [use.owner.results[0].type.encoding for use in load.results[0].uses
            if use.owner.name == "ttg.local_alloc"]


def load_shared_encoding(load: Operation) -> Attribute:
    """The shared layout of a pipelined load's buffers: its ``ttg.local_alloc`` users' (the
    first one's), else the one its dot-operand users want, else an unswizzled layout in the
    load's order."""
    encodings = _alloc_encodings(load)
    if encodings:
        return encodings[0]
    wanted, _ = dot_operand_shared_encoding(load.results[0])
    if wanted is not None:
        return wanted
    return SwizzledSharedEncodingAttr(1, 1, 1, memory_order(load.results[0].type))


def copy_contiguity(load: Operation, axis_info) -> int:
    """How many elements a thread's ``cp.async`` of ``load`` may cover in global memory:
    consecutive, aligned and under one mask value (axis info over the pointers' layout); 1
    without a layout map."""
    from tilecraft.analysis.axisinfo import pointee_bytes
    from tilecraft.dialects.ttg_layouts import encoding_layout

    pointers = load.operands[0].type
    if not isinstance(pointers, RankedTensorType):
        return 1
    layout = encoding_layout(pointers.encoding, tuple(pointers.shape))
    if layout is None:
        return 1
    return axis_info.layout_vector_width(load.operands[0], layout,
                                         pointee_bytes(pointers) * 8, mask=load.mask)


def copy_bytes(load: Operation, encoding: Attribute, axis_info) -> int:
    """The bytes one ``cp.async`` of ``load`` into a buffer of ``encoding`` can move: its
    `copy_contiguity`, within what the buffer's layout keeps consecutive; 0 without layout
    maps."""
    from tilecraft.analysis.axisinfo import pointee_bytes
    from tilecraft.dialects.ttg_layouts import encoding_layout, shared_layout
    from tilecraft.layouts.shared import shared_vector_width

    pointers = load.operands[0].type
    if not isinstance(pointers, RankedTensorType):
        return 0
    shape = tuple(pointers.shape)
    layout = encoding_layout(pointers.encoding, shape)
    buffer = shared_layout(encoding, shape)
    if layout is None or buffer is None:
        return 0
    elem_bytes = pointee_bytes(pointers)
    width = copy_contiguity(load, axis_info)
    return min(width, shared_vector_width(buffer, layout, elem_bytes)) * elem_bytes
