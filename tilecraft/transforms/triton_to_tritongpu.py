"""`convert-triton-to-tritongpu`: every tensor of a tile-IR module gets a layout.

This follows Triton's dialect conversion (``TritonToTritonGPUPass.cpp``). Its type converter
gives a tensor type without an encoding the default ``#ttg.blocked`` layout of its shape
(`default_blocked`) and leaves a type with one alone; an op all of whose types already have
layouts (a ``tt.dot`` also needs ``#ttg.dot_op`` operands) is legal and left untouched. Every
other op is rewritten:

- operands are read in the converted type of their original type; where the value now has
  another layout (a reduction's result, say) a ``ttg.convert_layout`` is materialized right
  after the value's definition, one per value and layout;
- results get the converted type of their original type, except that ops infer them from their
  operands as Triton does: ``tt.reduce`` slices its operand's layout along the axis, ``tt.scan``
  and ``tt.broadcast`` keep it, ``tt.trans`` permutes it, ``tt.join`` adds a last dimension of
  two elements per thread and ``tt.split`` drops it (reading its operand in that layout),
  ``tt.expand_dims`` inserts a dimension of one thread (reading its operand in a slice of the
  result), ``tt.cat`` widens ``sizePerThread`` to hold both operands' elements, ``tt.dot``
  takes the 2x2/4x4-per-thread accumulator layout and reads A and B as its ``#ttg.dot_op``s,
  and ``tt.descriptor_gather``/``_scatter`` read their row offsets in packs of four per thread
  (`_Converter.gather4_rows_encoding`);
- block arguments (``scf`` bodies, ``cf`` successors, function entries) get converted types,
  and dense ``arith.constant`` values are retyped.

The module gets ``ttg.num-warps``, ``ttg.threads-per-warp``, ``ttg.num-ctas`` and ``ttg.target``
from the options, as Triton sets them, whether or not anything else changes.

Where tilecraft departs from Triton, it is to keep the IR valid for its own lowering: a block
pointer's pointee tensor gets a layout too (Triton rewrites block pointers away first), a
function's signature and a call's result types are converted along with the body (Triton
converts only the entry block), and an explicit convert (of ``expand_dims``, ``dot`` and
``split`` operands) reads the value itself rather than its default-layout materialization,
which is what Triton's canonicalizer makes of the pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tilecraft.dialects.ttg import cga_layout_from_split_params
from tilecraft.dialects.ttg_inference import default_blocked
from tilecraft.generated.passes import ConvertTritonToTritonGPUPassBase
from tilecraft.generated.tt import PointerType
from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import (Attribute, Builder, DenseElementsAttr, FunctionType, IntegerAttr,
                          Operation, RankedTensorType, StringAttr, Type, TypeAttr, Value,
                          VerificationError, i32)
from tilecraft.ir.values import OpResult
from tilecraft.layouts.distributed import blocked_layout

__all__ = ["ConvertTritonToTritonGPUPass", "default_blocked", "convert_module"]

Bases = tuple[tuple[int, ...], ...]
#: Descriptor ops whose row offsets (operand 1) take `_Converter.gather4_rows_encoding`.
_GATHER4 = ("tt.descriptor_gather", "tt.descriptor_scatter")


def _insert_dim(bases: Bases, axis: int) -> Bases:
    """CTA bases with a new dim of one CTA at ``axis``."""
    return tuple(b[:axis] + (0,) + b[axis:] for b in bases)


def _blocked(size_per_thread: Sequence[int], threads_per_warp: Sequence[int],
             warps_per_cta: Sequence[int], order: Sequence[int],
             bases: Bases) -> BlockedEncodingAttr:
    return BlockedEncodingAttr(tuple(size_per_thread), tuple(threads_per_warp),
                               tuple(warps_per_cta), tuple(order), bases)


def expanded(encoding: BlockedEncodingAttr, axis: int) -> BlockedEncodingAttr:
    """Triton's layout of an ``expand_dims`` result whose operand has ``encoding``: a dim of
    one element, thread and warp inserted at ``axis``, and ``order`` [0, 1, ...]."""

    def insert(values: Sequence[int]) -> tuple[int, ...]:
        return tuple(values[:axis]) + (1,) + tuple(values[axis:])

    return _blocked(insert(encoding.size_per_thread), insert(encoding.threads_per_warp),
                    insert(encoding.warps_per_cta), range(len(encoding.order) + 1),
                    _insert_dim(encoding.cga_layout, axis))


def transposed(encoding: BlockedEncodingAttr, order: Sequence[int]) -> BlockedEncodingAttr:
    """Triton's inferred layout of ``tt.trans`` with ``order``: each per-dim field permuted as
    the shape is, and the layout's ``order`` renamed through the inverse permutation."""
    inverse = [0] * len(order)
    for position, dim in enumerate(order):
        inverse[dim] = position

    def permute(values: Sequence[int]) -> tuple[int, ...]:
        return tuple(values[dim] for dim in order)

    return _blocked(permute(encoding.size_per_thread), permute(encoding.threads_per_warp),
                    permute(encoding.warps_per_cta), [inverse[d] for d in encoding.order],
                    tuple(permute(b) for b in encoding.cga_layout))


def joined(encoding: BlockedEncodingAttr) -> BlockedEncodingAttr:
    """Triton's inferred layout of ``tt.join``: a new last dim of two elements per thread,
    the fastest."""
    rank = len(encoding.order)
    return _blocked((*encoding.size_per_thread, 2), (*encoding.threads_per_warp, 1),
                    (*encoding.warps_per_cta, 1), (rank, *encoding.order),
                    _insert_dim(encoding.cga_layout, rank))


class _Converter:
    """One conversion: the options, and the types every value had before it."""

    def __init__(self, num_warps: int, threads_per_warp: int, num_ctas: int) -> None:
        self.num_warps = num_warps
        self.threads_per_warp = threads_per_warp
        self.num_ctas = num_ctas
        self.original: dict[Value, Type] = {}
        self.materialized: dict[tuple[Value, Type], Value] = {}
        self.last_convert: dict[Value, Operation] = {}

    # -- types ------------------------------------------------------------------------------

    def default(self, shape: Sequence[int],
                size_per_thread: Sequence[int] | None = None) -> BlockedEncodingAttr:
        return default_blocked(shape, self.num_warps, self.threads_per_warp, self.num_ctas,
                               size_per_thread)

    def convert_type(self, t: Type) -> Type:
        """The type converter: a tensor without an encoding gets its shape's default layout
        (a block pointer's pointee too); every other type is kept."""
        if isinstance(t, PointerType) and isinstance(t.pointee_type, RankedTensorType):
            return PointerType(self.convert_type(t.pointee_type), t.address_space)
        if isinstance(t, RankedTensorType) and t.encoding is None:
            return _with(t, self.default(t.shape))
        return t

    def operand_layout(self, op: Operation, index: int) -> Attribute:
        """The encoding of ``op``'s operand ``index`` as a rewrite pattern reads it."""
        return self.convert_type(self.original[op.operands[index]]).encoding

    def blocked_operand(self, op: Operation) -> BlockedEncodingAttr:
        """The blocked layout of ``op``'s first operand, from which its result's is made."""
        encoding = self.operand_layout(op, 0)
        if not isinstance(encoding, BlockedEncodingAttr):
            raise op.emit_error(f"cannot infer a result layout from the operand layout "
                                f"{encoding}")
        return encoding

    def dot_encoding(self, shape: Sequence[int]) -> BlockedEncodingAttr:
        """Triton's accumulator layout of a dot: 2x2 or 4x4 elements per thread when each
        thread has at least 4 or 16."""
        per_thread_elements = math.prod(shape) // (self.num_warps * self.threads_per_warp)
        size = 4 if per_thread_elements >= 16 else 2 if per_thread_elements >= 4 else 1
        per_thread = [1] * len(shape)
        per_thread[-1] = min(size, shape[-1])
        per_thread[-2] = min(size, shape[-2])
        return self.default(shape, per_thread)

    def gather4_rows_encoding(self) -> SliceEncodingAttr:
        """Triton's layout of the row offsets of a descriptor gather or scatter: packs of 4
        neighbouring rows per thread, the same on every warp (dim 0 of a blocked parent of
        ``sizePerThread = [1, 4]`` with the lanes along dim 0 and the warps and CTAs along
        dim 1)."""
        order = (1, 0)
        parent = BlockedEncodingAttr(
            (1, 4), (self.threads_per_warp, 1), (1, self.num_warps), order,
            cga_layout_from_split_params((1, self.num_ctas), (1, self.num_ctas), order))
        return SliceEncodingAttr(0, parent)

    def cat_encoding(self, op: Operation, t: RankedTensorType) -> BlockedEncodingAttr:
        """Triton's ``tt.cat`` result layout: the default one with ``sizePerThread`` along the
        fastest dim widened until a thread holds both operands' elements (rounded up to a
        power of two)."""
        default = self.default(t.shape)
        held = sum(_elements_per_thread(self.convert_type(self.original[v]))
                   for v in op.operands)
        wanted = 1 << (held - 1).bit_length()
        size_per_thread = list(default.size_per_thread)
        size_per_thread[default.order[0]] *= max(1, wanted // _elements_per_thread(
            _with(t, default)))
        return _blocked(size_per_thread, default.threads_per_warp, default.warps_per_cta,
                        default.order, default.cga_layout)

    # -- what each op gets --------------------------------------------------------------------

    def is_legal(self, op: Operation) -> bool:
        """Whether Triton's conversion target accepts ``op`` as it is."""
        if op.name == "tt.dot":
            return all(isinstance(self.original[op.operands[i]].encoding,
                              DotOperandEncodingAttr) for i in (0, 1))
        if op.name == "tt.func":
            signature = op.function_type
            if any(self.convert_type(t) is not t
                   for t in (*signature.inputs, *signature.results)):
                return False
        values = [*op.operands, *op.results]
        values += [arg for region in op.regions for block in region.blocks
                   for arg in block.arguments]
        return all(self.convert_type(self.original[v]) is self.original[v] for v in values)

    def result_type(self, op: Operation, index: int) -> Type:
        """The type of ``op``'s result ``index`` once ``op`` is rewritten."""
        t = self.original[op.results[index]]
        if not isinstance(t, RankedTensorType) or t.encoding is not None:
            return self.convert_type(t)
        name = op.name
        if name == "tt.reduce":
            return _with(t, SliceEncodingAttr(int(op.axis), self.operand_layout(op, index)))
        if name in ("tt.scan", "tt.broadcast"):
            return _with(t, self.operand_layout(op, index if name == "tt.scan" else 0))
        if name == "tt.expand_dims":
            return _with(t, expanded(self.blocked_operand(op), int(op.axis)))
        if name == "tt.trans":
            return _with(t, transposed(self.blocked_operand(op), list(op.order)))
        if name == "tt.join":
            return _with(t, joined(self.blocked_operand(op)))
        if name == "tt.dot":
            return _with(t, self.dot_encoding(t.shape))
        if name == "tt.cat":
            return _with(t, self.cat_encoding(op, t))
        return self.convert_type(t)

    def operand_type(self, op: Operation, index: int) -> tuple[Type, bool]:
        """The type a rewritten ``op`` reads its operand ``index`` in, and whether a pattern
        converts it explicitly (before ``op``, from the value as it is)."""
        name = op.name
        if name == "tt.expand_dims":
            encoding = SliceEncodingAttr(int(op.axis), op.results[0].type.encoding)
            return _with(self.original[op.operands[0]], encoding), True
        if name == "tt.dot":
            accumulator = op.results[0].type
            if index == 2:
                return accumulator, True
            t = self.convert_type(self.original[op.operands[index]])
            if isinstance(t.encoding, DotOperandEncodingAttr):
                return t, False
            return _with(t, DotOperandEncodingAttr(index, accumulator.encoding, 0)), True
        if name in _GATHER4 and index == 1:
            return _with(self.original[op.operands[1]], self.gather4_rows_encoding()), True
        if name == "tt.split":
            # The operand's converted type is the default layout, whose last dim (of size
            # two) is spread over threads; split reads it from the join of its results'.
            encoding = joined(op.results[0].type.encoding)
            return _with(self.original[op.operands[0]], encoding), True
        return self.convert_type(self.original[op.operands[index]]), False

    # -- the rewrite --------------------------------------------------------------------------

    def convert(self, module: Operation) -> None:
        ops = [op for op in module.walk() if op is not module]
        for op in ops:
            for value in (*op.results, *_block_arguments(op)):
                self.original[value] = value.type
        illegal = [op for op in ops if not self.is_legal(op)]
        for op in ops:
            for value in _block_arguments(op):
                value.type = self.convert_type(value.type)
        for op in illegal:
            for index, result in enumerate(op.results):
                result.type = self.result_type(op, index)
            if op.name == "arith.constant" and isinstance(op.value, DenseElementsAttr):
                retype_constant(op)
            if op.name == "tt.func":
                signature = op.function_type
                op.properties["function_type"] = TypeAttr(FunctionType(
                    [self.convert_type(t) for t in signature.inputs],
                    [self.convert_type(t) for t in signature.results]))
        for op in illegal:
            for index, operand in enumerate(op.operands):
                wanted, explicit = self.operand_type(op, index)
                if operand.type is wanted:
                    continue
                if explicit:
                    converted = _create_convert(Builder.before(op), operand, wanted)
                else:
                    converted = self.materialize(operand, wanted)
                op.set_operand(index, converted)

    def materialize(self, value: Value, wanted: Type) -> Value:
        """``value`` converted to ``wanted`` right after its definition (after the converts
        already made of it), once per value and type."""
        key = (value, wanted)
        if key not in self.materialized:
            anchor = self.last_convert.get(value)
            if anchor is not None:
                builder = Builder.after(anchor)
            elif isinstance(value, OpResult):
                builder = Builder.after(value.owner)
            else:
                builder = Builder.at_start(value.owner)
            converted = _create_convert(builder, value, wanted)
            self.last_convert[value] = converted.owner
            self.materialized[key] = converted
        return self.materialized[key]


def retype_constant(op: Operation) -> None:
    """A dense ``arith.constant``'s value given its result's (new) type."""
    attr = op.value
    values = [attr.splat_value] if attr.is_splat else list(attr.values)
    op.properties["value"] = DenseElementsAttr(op.results[0].type, values)


def _with(t: RankedTensorType, encoding: Attribute) -> RankedTensorType:
    return RankedTensorType(t.shape, t.element_type, encoding)


def _elements_per_thread(t: RankedTensorType) -> int:
    """How many elements of a blocked-layout tensor each thread holds (of its CTA's part)."""
    e = t.encoding
    shape = [size >> sum(1 for basis in e.cga_layout if basis[dim])
             for dim, size in enumerate(t.shape)]
    layout = blocked_layout(shape, e.size_per_thread, e.threads_per_warp, e.warps_per_cta,
                            e.order)
    return layout.in_dim_size("register")


def _block_arguments(op: Operation) -> list[Value]:
    """The arguments of the blocks directly in ``op``'s regions."""
    return [arg for region in op.regions for block in region.blocks for arg in block.arguments]


def _create_convert(builder: Builder, value: Value, wanted: Type) -> Value:
    location = value.owner.location if isinstance(value, OpResult) else value.location
    convert = builder.create("ttg.convert_layout", operands=[value], result_types=[wanted],
                             location=location)
    return convert.results[0]


def convert_module(module: Operation, *, target: str, num_warps: int = 4,
                   threads_per_warp: int = 32, num_ctas: int = 1) -> None:
    """Records the options on ``module`` and gives every tensor in it a layout."""
    if not target:
        loc, source = module.location.diagnostic_position()
        raise VerificationError("'convert-triton-to-tritongpu' requires 'target' option to be "
                                "set", loc, source, op=module)
    module.attributes["ttg.num-warps"] = IntegerAttr(num_warps, i32)
    module.attributes["ttg.threads-per-warp"] = IntegerAttr(threads_per_warp, i32)
    module.attributes["ttg.num-ctas"] = IntegerAttr(num_ctas, i32)
    module.attributes["ttg.target"] = StringAttr(target)
    _Converter(num_warps, threads_per_warp, num_ctas).convert(module)


class ConvertTritonToTritonGPUPass(ConvertTritonToTritonGPUPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        convert_module(op, target=self.target, num_warps=self.num_warps,
                       threads_per_warp=self.threads_per_warp, num_ctas=self.num_ctas)
