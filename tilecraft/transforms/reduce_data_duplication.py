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
from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     LinearEncodingAttr, MemDescType, NvidiaMmaEncodingAttr,
                                     SharedMemorySpaceAttr, SliceEncodingAttr,
                                     SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute, Builder, Operation, RankedTensorType
from tilecraft.layouts.conversion import conversion_plan
from tilecraft.layouts.distributed import (Blocked, blocked_layout, fma_dot_operand_layout,
                                           nvidia_mma_v2_dot_operand_layout,
                                           nvidia_mma_v2_layout, slice_layout,
                                           standard_out_dims)
from tilecraft.layouts.linear import LinearLayout

__all__ = ["TritonGPUReduceDataDuplicationPass", "memory_order", "needs_shared_memory",
           "reduce_data_duplication", "swizzled_shared_for_dot_operand"]


def _blocked(encoding: BlockedEncodingAttr) -> Blocked:
    return Blocked(encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta,
                   encoding.order)


def _layout(encoding: Attribute, shape: tuple[int, ...]) -> LinearLayout | None:
    """The linear map of ``encoding`` over ``shape``; None for an encoding without one here."""
    if isinstance(encoding, BlockedEncodingAttr):
        return blocked_layout(shape, *_blocked(encoding))
    if isinstance(encoding, SliceEncodingAttr):
        dim = encoding.dim
        parent = _layout(encoding.parent, shape[:dim] + (1,) + shape[dim:])
        return None if parent is None else slice_layout(parent, dim)
    if isinstance(encoding, NvidiaMmaEncodingAttr) and encoding.version_major == 2:
        return nvidia_mma_v2_layout(shape, encoding.warps_per_cta, encoding.instr_shape)
    if isinstance(encoding, DotOperandEncodingAttr):
        parent = encoding.parent
        if isinstance(parent, BlockedEncodingAttr):
            return fma_dot_operand_layout(_blocked(parent), encoding.op_idx, shape)
        if isinstance(parent, NvidiaMmaEncodingAttr) and parent.version_major == 2:
            return nvidia_mma_v2_dot_operand_layout(shape, parent.warps_per_cta,
                                                    encoding.op_idx, encoding.k_width)
        return None
    if isinstance(encoding, LinearEncodingAttr):
        bases = {"register": encoding.register, "lane": encoding.lane, "warp": encoding.warp}
        return LinearLayout({k: [tuple(v) for v in vs] for k, vs in bases.items()},
                            dict(zip(standard_out_dims(len(shape)), shape)))
    return None


def needs_shared_memory(src: RankedTensorType, dst: RankedTensorType) -> bool:
    """Whether converting ``src`` to ``dst`` moves elements between threads (True also when
    either layout has no map here)."""
    shape = tuple(src.shape)
    src_layout, dst_layout = _layout(src.encoding, shape), _layout(dst.encoding, shape)
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
