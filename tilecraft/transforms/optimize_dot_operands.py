"""`tritongpu-optimize-dot-operands`: transposes and reshapes of dot operands become views of
shared memory, as Triton's OptimizeDotOperands pass does for NVIDIA targets.

The module is canonicalized first; then, greedily, with the canonicalization patterns of
``ttg.convert_layout``:

* `TransposeThroughShared` (mma.sync operands): ``convert_layout(tt.trans(x))`` into a
  ``#ttg.dot_op`` layout, read by a ``tt.dot`` alone, loads the operand from ``x`` stored
  untransposed: ``local_load(memdesc_trans(local_alloc(x)))``. The buffer is swizzled for the
  operand it will be read as once transposed (Triton's dot-operand swizzle with the operand
  index flipped) in ``x``'s memory order.
* `FuseTransIntoWgmmaOperand`: a ``wgmma`` or tcgen05 MMA (``ttng.tc_gen5_mma``,
  ``ttng.tc_gen5_mma_scaled``) operand ``local_alloc(tt.trans(x))`` (2-D, in an
  ``#ttg.nvmma_shared`` layout, read by the dot alone) becomes ``memdesc_trans`` of ``x``'s
  buffer, whose layout is the NVMMA layout transposed back (its CGA bases too).
* `ReshapeIntoMemDesc`: ``local_alloc(tt.reshape(x))`` becomes ``memdesc_reshape`` of ``x``'s
  buffer when that buffer keeps an NVMMA layout: a single-CTA, non-transposed NVMMA buffer whose
  contiguous (last) dim the reshape keeps.
* `OperandViewsToMemDesc`: a ``wgmma`` or tcgen05 MMA operand read through ``memdesc_trans`` /
  ``memdesc_reshape`` views of ``local_alloc(v)``, where ``v`` is a chain of ``tt.trans`` and
  ``tt.reshape`` of a tensor ``x``, stores ``x`` instead and replays the chain as memory views.
  The layouts are inferred backwards from the buffer's (`trans_shared_encoding`,
  `reshape_shared_encoding`), so that the dot reads the same buffer layout as before.
* `ScalesFromShared`: a ``tc_gen5_mma_scaled`` scale copied to tensor memory from a shared
  buffer read and shuffled into the blocked-scales order reads the buffer through memory
  views of the same shuffle.

Dots, allocations and loads that do not match are left alone. The CUDA backend does not lower
``ttg.memdesc_trans`` or ``ttg.memdesc_reshape`` yet, so this pass is not in its pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from tilecraft.dialects.ttg_layouts import shared_layout
from tilecraft.generated.passes import TritonGPUOptimizeDotOperandsPassBase
from tilecraft.generated.ttg import (ConvertLayoutOp, DotOperandEncodingAttr, LocalAllocOp,
                                     LocalLoadOp, MemDescReshapeOp, MemDescTransOp, MemDescType,
                                     NVMMASharedEncodingAttr, SharedLinearEncodingAttr,
                                     SharedMemorySpaceAttr, SwizzledSharedEncodingAttr)
from tilecraft.generated.ttng import TensorMemoryScalesEncodingAttr
from tilecraft.ir import Attribute, Operation, RankedTensorType, Value
from tilecraft.ir.patterns import RewritePattern
from tilecraft.layouts.distributed import standard_out_dims
from tilecraft.layouts.linear import LinearLayout
from tilecraft.transforms.canonicalize import canonicalize
from tilecraft.transforms.greedy import apply_patterns_greedily
from tilecraft.transforms.reduce_data_duplication import (memory_order,
                                                          swizzled_shared_for_dot_operand)

__all__ = ["FuseTransIntoWgmmaOperand", "OperandViewsToMemDesc", "ReshapeIntoMemDesc",
           "ScalesFromShared", "TransposeThroughShared", "TritonGPUOptimizeDotOperandsPass",
           "optimize_dot_operands", "reshape_shared_encoding", "shared_offsets",
           "trans_shared_encoding"]

_TRANSPOSE_2D = (1, 0)
#: The dots that read their operands from shared memory descriptors.
_MEMDESC_DOTS = frozenset({"ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"})


def _defining(value: Value, name: str) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) and owner.name == name else None


def _only_user(op: Operation) -> Operation | None:
    uses = list(op.results[0].uses)
    return uses[0].owner if len(uses) == 1 else None


def _bit_width(t: RankedTensorType) -> int:
    return max(1, getattr(t.element_type, "width", 32))


def _shared_linear(layout: LinearLayout, alignment: int) -> SharedLinearEncodingAttr:
    bases = layout.bases
    return SharedLinearEncodingAttr(tuple(bases.get("offset", ())), alignment,
                                    tuple(bases.get("block", ())))


def shared_offsets(encoding: Attribute, shape: tuple[int, ...]) -> LinearLayout | None:
    """The (``offset``, ``block``) map of a shared ``encoding`` over ``shape`` (None where
    `shared_layout` knows none: NVMMA layouts of another rank than 2)."""
    if isinstance(encoding, SharedLinearEncodingAttr):
        return LinearLayout({"offset": encoding.offset, "block": encoding.block},
                            dict(zip(standard_out_dims(len(shape)), shape)))
    layout = shared_layout(encoding, shape)
    if (layout is None and isinstance(encoding, NVMMASharedEncodingAttr)
            and encoding.swizzling_byte_width == 0 and not encoding.cga_layout):
        return _unswizzled_nvmma_offsets(encoding, shape)
    return layout


def _unswizzled_nvmma_offsets(encoding: NVMMASharedEncodingAttr, shape: tuple[int, ...]
                              ) -> LinearLayout:
    """The map of an unswizzled NVMMA layout of any rank (Triton's nvmmaSharedToLinearLayout
    without swizzling): row-major over one TMA box (each dim at most 256, fp4-padded rows
    counted unpacked), the boxes repeated along dim 0, then dim 1, ..."""
    rank = len(shape)
    box = [min(size, 256) for size in shape]
    if encoding.fp4_padded:
        contiguous = 0 if encoding.transposed else rank - 1
        box[contiguous] = min(2 * shape[contiguous], 256) // 2
    offsets: list[tuple[int, ...]] = []

    def along(dim: int, first: int, end: int) -> None:
        while first < end:
            offsets.append(tuple(first if d == dim else 0 for d in range(rank)))
            first *= 2

    for dim in reversed(range(rank)):
        along(dim, 1, box[dim])
    for dim in range(rank):
        along(dim, box[dim], shape[dim])
    return LinearLayout({"offset": offsets, "block": []},
                        dict(zip(standard_out_dims(rank), shape)))


def trans_shared_encoding(encoding: Attribute, shape: tuple[int, ...],
                          order: Sequence[int]) -> Attribute | None:
    """The layout of a ``memdesc_trans`` (permutation ``order``) of a ``shape`` buffer in
    ``encoding``: a swizzled layout with its order permuted, a 2-D NVMMA layout with
    ``transposed`` flipped, a linear layout with its bases permuted; None for others."""
    order = tuple(order)
    if order == tuple(range(len(order))):
        return encoding
    inverse = [order.index(d) for d in range(len(order))]
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        return SwizzledSharedEncodingAttr(
            encoding.vec, encoding.per_phase, encoding.max_phase,
            tuple(inverse[d] for d in encoding.order),
            tuple(tuple(b[d] for d in order) for b in encoding.cga_layout))
    if isinstance(encoding, NVMMASharedEncodingAttr):
        if order != _TRANSPOSE_2D:
            return None
        return NVMMASharedEncodingAttr(encoding.swizzling_byte_width, not encoding.transposed,
                                       encoding.element_bit_width, encoding.fp4_padded,
                                       tuple(tuple(b[d] for d in order)
                                             for b in encoding.cga_layout))
    if isinstance(encoding, SharedLinearEncodingAttr):
        return SharedLinearEncodingAttr(
            tuple(tuple(b[d] for d in order) for b in encoding.offset),
            encoding.layout_alignment,
            tuple(tuple(b[d] for d in order) for b in encoding.block))
    return None


def _reshape_layout(layout: LinearLayout, shape: tuple[int, ...]) -> LinearLayout:
    """``layout`` onto ``shape``, both shapes flattened row-major (the last dim fastest)."""
    old = tuple(reversed(layout.out_dim_names))
    new_dims = standard_out_dims(len(shape))
    reversed_new = {name: size for name, size in reversed(list(zip(new_dims, shape)))}
    return layout.transpose_outs(old).reshape_outs(reversed_new).transpose_outs(new_dims)


def reshape_shared_encoding(encoding: Attribute, shape: tuple[int, ...],
                            new_shape: tuple[int, ...]) -> Attribute | None:
    """The layout of a ``memdesc_reshape`` of a ``shape`` buffer in ``encoding`` to
    ``new_shape``: the NVMMA layout of the new rank when the buffer is a single-CTA,
    non-transposed NVMMA one whose last dim the reshape keeps; otherwise the buffer's map
    reshaped (row-major), as an ``#ttg.shared_linear`` layout; None when the map is unknown."""
    if prod(shape) != prod(new_shape):
        return None
    if isinstance(encoding, NVMMASharedEncodingAttr):
        if (not encoding.transposed and not encoding.cga_layout and not encoding.fp4_padded
                and shape[-1] == new_shape[-1]):
            return NVMMASharedEncodingAttr(encoding.swizzling_byte_width, False,
                                           encoding.element_bit_width, rank=len(new_shape))
    layout = shared_offsets(encoding, shape)
    if layout is None:
        return None
    alignment = getattr(encoding, "layout_alignment", None)
    if alignment is None:
        alignment = 128 if isinstance(encoding, NVMMASharedEncodingAttr) else 16
    return _shared_linear(_reshape_layout(layout, new_shape), alignment)


def _memdesc(value_type: RankedTensorType, encoding: Attribute) -> MemDescType:
    return MemDescType(value_type.shape, value_type.element_type, encoding,
                       SharedMemorySpaceAttr())


class TransposeThroughShared(RewritePattern):
    """``convert_layout(tt.trans(x))`` to an mma operand of a ``tt.dot`` →
    ``local_load(memdesc_trans(local_alloc(x)))`` (see the module docstring)."""

    ROOT = "ttg.convert_layout"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        user = _only_user(op)
        if user is None or user.name != "tt.dot":
            return False
        trans = _defining(op.operands[0], "tt.trans")
        if trans is None or tuple(trans.order) != _TRANSPOSE_2D:
            return False
        dot_type: RankedTensorType = op.results[0].type
        operand = dot_type.encoding
        if not isinstance(operand, DotOperandEncodingAttr):
            return False
        source = trans.operands[0]
        source_type: RankedTensorType = source.type
        before = _defining(source, "ttg.convert_layout")
        order_type: RankedTensorType = before.operands[0].type if before else source_type
        # the buffer is read transposed: swizzle it for the other operand index
        flipped = DotOperandEncodingAttr(1 - operand.op_idx, operand.parent, operand.k_width)
        swizzled = swizzled_shared_for_dot_operand(flipped, source_type.shape,
                                                   memory_order(order_type),
                                                   _bit_width(source_type))
        rewriter.set_insertion_point(trans)
        alloc = rewriter.insert(LocalAllocOp.build(_memdesc(source_type, swizzled), source,
                                                   location=trans.location))
        transposed_type = MemDescType(dot_type.shape, dot_type.element_type,
                                      trans_shared_encoding(swizzled, tuple(source_type.shape),
                                                            _TRANSPOSE_2D),
                                      SharedMemorySpaceAttr())
        view = rewriter.insert(MemDescTransOp.build(transposed_type, alloc.results[0],
                                                    _TRANSPOSE_2D, location=trans.location))
        load = rewriter.insert(LocalLoadOp.build(dot_type, view.results[0],
                                                 location=trans.location))
        rewriter.modify_op_in_place(op, lambda: op.set_operand(0, load.results[0]))
        return True


class FuseTransIntoWgmmaOperand(RewritePattern):
    """``local_alloc(tt.trans(x))`` read by a ``wgmma`` alone → ``memdesc_trans`` of
    ``local_alloc(x)`` (see the module docstring)."""

    ROOT = "ttg.local_alloc"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.num_operands != 1:
            return False
        user = _only_user(op)
        if user is None or user.name not in _MEMDESC_DOTS:
            return False
        trans = _defining(op.operands[0], "tt.trans")
        if trans is None or tuple(trans.order) != _TRANSPOSE_2D:
            return False
        alloc_type: MemDescType = op.results[0].type
        if not isinstance(alloc_type.encoding, NVMMASharedEncodingAttr):
            return False
        source = trans.operands[0]
        inner = trans_shared_encoding(alloc_type.encoding, tuple(alloc_type.shape),
                                      _TRANSPOSE_2D)
        if inner is None:
            return False
        rewriter.set_insertion_point(op)
        alloc = rewriter.insert(LocalAllocOp.build(_memdesc(source.type, inner), source,
                                                   location=op.location))
        rewriter.replace_op_with_new_op(op, MemDescTransOp, alloc_type, alloc.results[0],
                                        _TRANSPOSE_2D)
        return True


class ReshapeIntoMemDesc(RewritePattern):
    """``local_alloc(tt.reshape(x))`` → ``memdesc_reshape(local_alloc(x))`` when ``x``'s buffer
    keeps an NVMMA layout (see the module docstring)."""

    ROOT = "ttg.local_alloc"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.num_operands != 1:
            return False
        reshape = _defining(op.operands[0], "tt.reshape")
        if reshape is None:
            return False
        alloc_type: MemDescType = op.results[0].type
        source = reshape.operands[0]
        inner = reshape_shared_encoding(alloc_type.encoding, tuple(alloc_type.shape),
                                        tuple(source.type.shape))
        if not isinstance(inner, NVMMASharedEncodingAttr):
            return False
        rewriter.set_insertion_point(op)
        alloc = rewriter.insert(LocalAllocOp.build(_memdesc(source.type, inner), source,
                                                   location=op.location))
        rewriter.replace_op_with_new_op(op, MemDescReshapeOp, alloc_type, alloc.results[0])
        return True


class OperandViewsToMemDesc(RewritePattern):
    """The ``tt.trans`` / ``tt.reshape`` chain stored for a ``wgmma`` operand → memory views
    of the chain's source stored (see the module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.name not in _MEMDESC_DOTS:
            return False
        changed = False
        for operand in op.operands[:2]:
            changed |= self._rewrite_operand(operand, rewriter)
        return changed

    @staticmethod
    def _rewrite_operand(operand: Value, rewriter) -> bool:
        if not isinstance(operand.type, MemDescType):
            return False
        value = operand
        while isinstance(value.owner, Operation) and value.owner.name in (
                "ttg.memdesc_reshape", "ttg.memdesc_trans"):
            value = value.owner.operands[0]
        alloc = _defining(value, "ttg.local_alloc")
        if alloc is None or alloc.num_operands != 1:
            return False
        base = alloc.operands[0]
        memdesc: MemDescType = alloc.results[0].type
        steps: list[tuple[Operation, MemDescType]] = []  # each view and its result's type
        while isinstance(base.owner, Operation) and base.owner.name in ("tt.reshape",
                                                                         "tt.trans"):
            view = base.owner
            source_type: RankedTensorType = view.operands[0].type
            if view.name == "tt.reshape":
                encoding = reshape_shared_encoding(memdesc.encoding, tuple(memdesc.shape),
                                                   tuple(source_type.shape))
            else:
                inverse = [tuple(view.order).index(d) for d in range(len(view.order))]
                encoding = trans_shared_encoding(memdesc.encoding, tuple(memdesc.shape),
                                                 inverse)
            if encoding is None:
                return False
            steps.append((view, memdesc))
            memdesc = MemDescType(source_type.shape, memdesc.element_type, encoding,
                                  memdesc.memory_space)
            base = view.operands[0]
        if not steps:
            return False
        rewriter.set_insertion_point(alloc)
        rewritten = rewriter.insert(LocalAllocOp.build(memdesc, base,
                                                       location=alloc.location)).results[0]
        for view, result_type in reversed(steps):
            if view.name == "tt.reshape":
                new = MemDescReshapeOp.build(result_type, rewritten, location=view.location)
            else:
                new = MemDescTransOp.build(result_type, rewritten, tuple(view.order),
                                           location=view.location)
            rewritten = rewriter.insert(new).results[0]
        rewriter.replace_op(alloc, [rewritten])
        return True


_SCALE_ORDER = (0, 3, 2, 1, 4)


def _through_conversions(value: Value, name: str) -> Operation | None:
    """The ``name`` op defining ``value`` through ``ttg.convert_layout`` ops, or None."""
    while (convert := _defining(value, "ttg.convert_layout")) is not None:
        value = convert.operands[0]
    return _defining(value, name)


def _contiguous_elements(memdesc: MemDescType) -> int:
    """How many elements of a buffer of type ``memdesc`` lie at consecutive offsets in
    row-major order from offset 0 (Triton's getNumConsecutiveInOut of the buffer's map
    flattened row-major); 0 when the map is unknown."""
    layout = shared_offsets(memdesc.encoding, tuple(memdesc.shape))
    if layout is None:
        return 0
    strides = [prod(memdesc.shape[d + 1:]) for d in range(len(memdesc.shape))]
    count = 1
    for basis in layout.bases.get("offset", ()):
        if sum(c * s for c, s in zip(basis, strides)) != count:
            break
        count *= 2
    return count


class ScalesFromShared(RewritePattern):
    """Triton's UseShmemForScales: a ``tc_gen5_mma_scaled`` scale copied into tensor memory
    from ``reshape(trans(reshape(local_load(buffer))))`` in the blocked-scales shuffle (to
    ``[MN / 128, K / 4, 32, 4, 4]``, order ``[0, 3, 2, 1, 4]``, back to ``[MN, K]``) reads the
    shared ``buffer`` through the same shuffle as memory views instead (tcgen05.cp copies it),
    when the buffer's chunks are contiguous: at least 512 elements from the start, and for a
    buffer not stored by a TMA load, rank 2 with rows of a multiple of 32 x 128 bits."""

    ROOT = "ttng.tc_gen5_mma_scaled"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        changed = False
        for index in (4, 5) if op.acc_dep is not None else (3, 4):
            changed |= self._rewrite_scale(op, index, rewriter)
        return changed

    @staticmethod
    def _rewrite_scale(op: Operation, index: int, rewriter) -> bool:
        scale = op.operands[index]
        if not isinstance(scale.type.encoding, TensorMemoryScalesEncodingAttr):
            return False
        tmem_alloc = _defining(scale, "ttng.tmem_alloc")
        if tmem_alloc is None or tmem_alloc.num_operands != 1:
            return False
        shape_2d = tuple(scale.type.shape)
        rows, columns = shape_2d
        shape_5d = (rows // 128, columns // 4, 32, 4, 4)
        reshape_2d = _through_conversions(tmem_alloc.operands[0], "tt.reshape")
        if reshape_2d is None or tuple(reshape_2d.results[0].type.shape) != shape_2d:
            return False
        trans = _through_conversions(reshape_2d.operands[0], "tt.trans")
        if trans is None or tuple(trans.order) != _SCALE_ORDER:
            return False
        reshape_5d = _through_conversions(trans.operands[0], "tt.reshape")
        if reshape_5d is None or tuple(reshape_5d.results[0].type.shape) != shape_5d:
            return False
        load = _through_conversions(reshape_5d.operands[0], "ttg.local_load")
        if load is None:
            return False
        buffer = load.operands[0]
        memdesc: MemDescType = buffer.type
        alloc = _through_conversions(buffer, "ttg.local_alloc")
        from_tma = (alloc is not None and alloc.num_operands == 1
                    and _through_conversions(alloc.operands[0], "tt.descriptor_load") is not None)
        if _contiguous_elements(memdesc) < 512:
            return False
        if not from_tma and (len(memdesc.shape) != 2
                             or memdesc.shape[-1] * _bit_width(memdesc) % (32 * 128)):
            return False
        views = [(reshape_5d, shape_5d, None), (trans, None, _SCALE_ORDER),
                 (reshape_2d, shape_2d, None)]
        rewriter.set_insertion_point(tmem_alloc)
        value = buffer
        for view, shape, order in views:
            source: MemDescType = value.type
            if order is None:
                encoding = reshape_shared_encoding(source.encoding, tuple(source.shape), shape)
                new_type = MemDescType(shape, source.element_type, encoding,
                                       source.memory_space, source.mutable_memory)
                new = MemDescReshapeOp.build(new_type, value, location=view.location)
            else:
                shape = tuple(source.shape[d] for d in order)
                encoding = trans_shared_encoding(source.encoding, tuple(source.shape), order)
                new_type = MemDescType(shape, source.element_type, encoding,
                                       source.memory_space, source.mutable_memory)
                new = MemDescTransOp.build(new_type, value, order, location=view.location)
            if encoding is None:
                return False
            value = rewriter.insert(new).results[0]
        rewriter.modify_op_in_place(op, lambda: op.set_operand(index, value))
        if not tmem_alloc.results[0].uses:  # the other scale may be the same buffer
            rewriter.erase_op(tmem_alloc)
        return True


def optimize_dot_operands(module: Operation) -> None:
    """Canonicalizes ``module``, then applies the patterns of the module docstring."""
    canonicalize(module)
    patterns: list[RewritePattern] = [TransposeThroughShared(), FuseTransIntoWgmmaOperand(),
                                      ReshapeIntoMemDesc(), OperandViewsToMemDesc(),
                                      ScalesFromShared()]
    patterns.extend(ConvertLayoutOp.get_canonicalization_patterns())
    apply_patterns_greedily(module, patterns)


class TritonGPUOptimizeDotOperandsPass(TritonGPUOptimizeDotOperandsPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        optimize_dot_operands(op)
