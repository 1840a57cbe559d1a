"""`convert-triton-to-tritongpu`: every tensor of a tile-IR module gets a layout.

Triton's rules: a tensor gets the default ``#ttg.blocked`` layout of its shape (`default_blocked`)
unless an op fixes it. A ``tt.reduce``'s results have its operand's layout sliced along the
axis; ``tt.expand_dims`` reads its operand in a slice of its result's layout; ``tt.dot`` reads
A and B in ``#ttg.dot_op`` layouts whose parent is the accumulator's layout. Every other operand
must be in the default layout of its shape. Where an operand's layout differs from what its
user needs, a ``ttg.convert_layout`` is inserted before the user (`tritongpu-remove-layout-
conversions` removes most of them later).
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.generated.passes import ConvertTritonToTritonGPUPassBase
from tilecraft.generated.tt import PointerType
from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import (Builder, DenseElementsAttr, IntegerAttr, Operation, RankedTensorType, StringAttr, Value,
                          i32)

__all__ = ["ConvertTritonToTritonGPUPass", "default_blocked", "convert_module"]


def default_blocked(shape: Sequence[int], num_warps: int, threads_per_warp: int = 32,
                    size_per_thread: Sequence[int] | None = None) -> BlockedEncodingAttr:
    """Triton's default blocked layout of ``shape``: threads of a warp, then warps, spread
    along the fastest dim (the last) first, as far as the shape allows; the slowest dim takes
    what remains."""
    rank = len(shape)
    size_per_thread = tuple(size_per_thread or (1,) * rank)
    order = tuple(range(rank - 1, -1, -1))
    lanes = [1] * rank
    warps = [1] * rank
    remaining_lanes, remaining_warps = threads_per_warp, num_warps
    remaining_threads = threads_per_warp * num_warps
    used_lanes = used_warps = 1
    for dim in order[:-1]:
        threads = max(1, min(remaining_threads, shape[dim] // size_per_thread[dim]))
        warps[dim] = max(1, min(threads // remaining_lanes, remaining_warps))
        lanes[dim] = max(1, min(threads // warps[dim], remaining_lanes))
        remaining_warps //= warps[dim]
        remaining_lanes //= lanes[dim]
        remaining_threads //= threads
        used_lanes *= lanes[dim]
        used_warps *= warps[dim]
    last = order[-1]
    lanes[last] = threads_per_warp // used_lanes
    warps[last] = num_warps // used_warps
    return BlockedEncodingAttr(size_per_thread, tuple(lanes), tuple(warps), order)


class _Converter:
    """The state of one conversion: options and the default layouts made so far."""

    def __init__(self, num_warps: int, threads_per_warp: int) -> None:
        self.num_warps = num_warps
        self.threads_per_warp = threads_per_warp

    def default_type(self, t):
        """``t`` with Triton's default layout: a tensor's own, or a block pointer's pointee."""
        if isinstance(t, PointerType) and isinstance(t.pointee_type, RankedTensorType):
            return PointerType(self.default_type(t.pointee_type), t.address_space)
        encoding = default_blocked(t.shape, self.num_warps, self.threads_per_warp)
        return RankedTensorType(t.shape, t.element_type, encoding)

    def natural(self, op: Operation, index: int, t: RankedTensorType) -> RankedTensorType:
        """The layout ``op``'s result ``index`` gets."""
        if op.name == "tt.reduce":
            source = self.default_type(op.operands[index].type).encoding
            return _with(t, SliceEncodingAttr(int(op.axis), source))
        if op.name == "tt.broadcast":
            return _with(t, self.default_type(op.operands[0].type).encoding)
        if op.name == "tt.expand_dims":
            return _with(t, self.expanded(op))
        if op.name == "tt.dot":
            return _with(t, self.dot_encoding(t.shape))
        return self.default_type(t)

    def expanded(self, op: Operation) -> BlockedEncodingAttr:
        """Triton's layout of an ``expand_dims`` result: its operand's default layout with a
        dim of one element inserted at the axis."""
        axis = int(op.axis)
        source = self.default_type(op.operands[0].type).encoding

        def insert(values: Sequence[int]) -> tuple[int, ...]:
            return tuple(values[:axis]) + (1,) + tuple(values[axis:])

        rank = len(source.order) + 1
        return BlockedEncodingAttr(insert(source.size_per_thread),
                                   insert(source.threads_per_warp),
                                   insert(source.warps_per_cta), tuple(range(rank)))

    def dot_encoding(self, shape: Sequence[int]) -> BlockedEncodingAttr:
        """Triton's accumulator layout of an FMA dot: 2x2 or 4x4 elements per thread when
        the tile has enough of them."""
        rank = len(shape)
        per_thread = [1] * rank
        elements = 1
        for size in shape:
            elements *= size
        per_thread_elements = elements // (self.num_warps * self.threads_per_warp)
        size = 4 if per_thread_elements >= 16 else 2 if per_thread_elements >= 4 else 1
        per_thread[-1] = min(size, shape[-1])
        per_thread[-2] = min(size, shape[-2])
        return default_blocked(shape, self.num_warps, self.threads_per_warp, per_thread)

    def required(self, op: Operation, index: int, t: RankedTensorType) -> RankedTensorType | None:
        """The layout ``op`` needs its operand ``index`` in (None: any)."""
        if op.name == "ttg.convert_layout":
            return None
        if op.name == "tt.expand_dims":
            return _with(t, SliceEncodingAttr(int(op.axis), op.results[0].type.encoding))
        if op.name == "tt.dot":
            parent = op.results[0].type.encoding
            if index == 2:
                return _with(t, parent)
            return _with(t, DotOperandEncodingAttr(index, parent, 0))
        if op.name == "scf.yield" and op.parent_op is not None and \
                op.parent_op.name in ("scf.if", "scf.for"):
            parent = op.parent_op
            return parent.results[index].type if index < len(parent.results) else None
        return self.default_type(t)

    def convert(self, module: Operation) -> None:
        for op in list(module.walk()):
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if _needs_layout(arg.type):
                            arg.type = self.default_type(arg.type)
            for index, result in enumerate(op.results):
                if _needs_layout(result.type):
                    result.type = self.natural(op, index, result.type)
            if op.name == "arith.constant" and isinstance(op.value, DenseElementsAttr):
                retype_constant(op)
        for op in list(module.walk()):
            for index, operand in enumerate(op.operands):
                if not isinstance(operand.type, RankedTensorType):
                    continue
                wanted = self.required(op, index, operand.type)
                if wanted is not None and wanted != operand.type:
                    op.set_operand(index, _convert_before(op, operand, wanted))


def retype_constant(op: Operation) -> None:
    """A dense ``arith.constant``'s value given its result's (new) type."""
    attr = op.value
    values = [attr.splat_value] if attr.is_splat else list(attr.values)
    op.properties["value"] = DenseElementsAttr(op.results[0].type, values)


def _with(t: RankedTensorType, encoding) -> RankedTensorType:
    return RankedTensorType(t.shape, t.element_type, encoding)


def _needs_layout(t) -> bool:
    if isinstance(t, PointerType):
        return _needs_layout(t.pointee_type)
    return isinstance(t, RankedTensorType) and t.encoding is None


def _convert_before(op: Operation, value: Value, wanted: RankedTensorType) -> Value:
    builder = Builder.before(op)
    convert = builder.create("ttg.convert_layout", operands=[value], result_types=[wanted],
                             location=op.location)
    return convert.results[0]


def convert_module(module: Operation, *, num_warps: int = 4, threads_per_warp: int = 32,
                   num_ctas: int = 1, target: str = "") -> None:
    """Gives every tensor in ``module`` a layout and records the options on it."""
    _Converter(num_warps, threads_per_warp).convert(module)
    module.attributes["ttg.num-warps"] = IntegerAttr(num_warps, i32)
    module.attributes["ttg.num-ctas"] = IntegerAttr(num_ctas, i32)
    module.attributes["ttg.threads-per-warp"] = IntegerAttr(threads_per_warp, i32)
    if target:
        module.attributes["ttg.target"] = StringAttr(target)


class ConvertTritonToTritonGPUPass(ConvertTritonToTritonGPUPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        convert_module(op, num_warps=self.num_warps, threads_per_warp=self.threads_per_warp,
                       num_ctas=self.num_ctas, target=self.target)
