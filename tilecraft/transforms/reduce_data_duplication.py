"""`tritongpu-reduce-data-duplication`: conversions to a dot operand layout go through swizzled
shared memory, as Triton's ReduceDataDuplication pass does.

A ``ttg.convert_layout`` from a distributed layout to a ``#ttg.dot_op`` layout that cannot be
done by picking registers in each thread becomes ``ttg.local_alloc`` of the source into a
``#ttg.swizzled_shared`` buffer and ``ttg.local_load`` of it. The swizzle is Triton's for the
operand of an Ampere/Hopper mma (``vec``, ``perPhase``, ``maxPhase`` from ``kWidth``, the
element width and the size of the fastest dim); other parents get no swizzle. The buffer's
order is the source layout's. Conversions that only pick registers are left alone; so are those
whose layouts have no map here.
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.generated.passes import TritonGPUReduceDataDuplicationPassBase
from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr, MemDescType,
                                     NvidiaMmaEncodingAttr, SharedMemorySpaceAttr,
                                     SliceEncodingAttr, SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute, Builder, Operation, RankedTensorType
from tilecraft.layouts.conversion import conversion_plan

__all__ = ["TritonGPUReduceDataDuplicationPass", "memory_order", "needs_shared_memory",
           "reduce_data_duplication", "swizzled_shared_for_dot_operand"]


def needs_shared_memory(src: RankedTensorType, dst: RankedTensorType) -> bool:
    """Whether converting ``src`` to ``dst`` moves elements between threads (True also when
    either layout has no map here)."""
    shape = tuple(src.shape)
    src_layout = encoding_layout(src.encoding, shape)
    dst_layout = encoding_layout(dst.encoding, shape)
    if src_layout is None or dst_layout is None:
        return True
    return conversion_plan(src_layout, dst_layout).kind not in ("none", "register")


def memory_order(t: RankedTensorType) -> tuple[int, ...]:
    """The order of a tensor of type ``t`` in shared memory: its layout's order (a slice's is
    its parent's without the sliced dim; row-major for other layouts)."""
    rank = len(t.shape)

    def order(encoding: Attribute, rank: int) -> tuple[int, ...]:
        if isinstance(encoding, BlockedEncodingAttr):
            return tuple(encoding.order)
        if isinstance(encoding, SliceEncodingAttr):
            dim = encoding.dim
            return tuple(d - (d > dim) for d in order(encoding.parent, rank + 1) if d != dim)
        return tuple(range(rank - 1, -1, -1))

    return order(t.encoding, rank)


def swizzled_shared_for_dot_operand(dot: DotOperandEncodingAttr, shape: Sequence[int],
                                    order: Sequence[int],
                                    bit_width: int) -> SwizzledSharedEncodingAttr:
    """Triton's swizzle of a dot operand in shared memory: for an mma (v2/v3) parent, rows of
    ``4 * kWidth`` element vectors along K (8 when the fastest dim is not K), xor-swizzled so
    that eight rows of one mma tile fall in different banks; no swizzle for other parents."""
    parent = dot.parent
    if not isinstance(parent, NvidiaMmaEncodingAttr) or parent.version_major not in (2, 3):
        return SwizzledSharedEncodingAttr(1, 1, 1, tuple(order))
    inner = shape[order[0]]
    per_phase = max(1024 // (bit_width * inner), 1)
    mma_stride, vec = 8, 4 * dot.k_width
    rank = len(order)
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    if order[0] != k_dim:
        vec, mma_stride = mma_stride, vec
    max_phase = max(min(mma_stride, 1024 // (vec * bit_width)), 1)
    max_phase = max(max_phase // per_phase, 1)
    return SwizzledSharedEncodingAttr(vec, per_phase, max_phase, tuple(order))


def _bit_width(t: RankedTensorType) -> int:
    return max(1, getattr(t.element_type, "width", 32))


def _through_shared(convert: Operation) -> bool:
    """Replaces ``convert`` by a store to and a load from shared memory when it converts a
    distributed layout to a dot operand layout across threads; returns whether it did."""
    src_type: RankedTensorType = convert.operands[0].type
    dst_type: RankedTensorType = convert.results[0].type
    dot = dst_type.encoding
    if not isinstance(dot, DotOperandEncodingAttr):
        return False
    if not needs_shared_memory(src_type, dst_type):
        return False
    shared = swizzled_shared_for_dot_operand(dot, src_type.shape, memory_order(src_type),
                                             _bit_width(src_type))
    buffer = MemDescType(dst_type.shape, dst_type.element_type, shared, SharedMemorySpaceAttr())
    builder = Builder.before(convert)
    alloc = builder.create("ttg.local_alloc", operands=[convert.operands[0]],
                           result_types=[buffer], location=convert.location)
    load = builder.create("ttg.local_load", operands=[alloc.results[0]],
                          result_types=[dst_type], location=convert.location)
    convert.results[0].replace_all_uses_with(load.results[0])
    convert.erase()
    return True


def reduce_data_duplication(module: Operation) -> None:
    """Sends every conversion to a dot operand layout that crosses threads through shared
    memory (see the module docstring)."""
    for op in list(module.walk()):
        if op.name == "ttg.convert_layout":
            _through_shared(op)


class TritonGPUReduceDataDuplicationPass(TritonGPUReduceDataDuplicationPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        reduce_data_duplication(op)
