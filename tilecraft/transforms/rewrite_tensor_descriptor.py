"""Tensor descriptors as pointer arithmetic: Triton's ``triton-rewrite-tensor-descriptor-to-pointer``.

A ``!tt.tensordesc<B0x...xT>`` of rank r becomes ``1 + 2r + 2`` values (a *pack*): the base
``!tt.ptr<T>`` (T signless), r i64 sizes, r i64 strides, an i1 that says out-of-bounds reads give
NaN (``padding = pad_nan``) and an i1 that says f32 loads round to TF32 (always false when made
by ``tt.make_tensor_descriptor``). The rewrite is a one-to-many type conversion:

- ``tt.make_tensor_descriptor`` becomes its pack (sizes sign-extended to i64, the two flags
  ``arith.constant``s);
- ``tt.descriptor_load`` / ``tt.descriptor_store`` become a ``tt.load`` / ``tt.store`` of a
  block of pointers ``base + sum_d (index_d + range(B_d)) * stride_d`` (each dimension's
  offsets expanded to rank r and broadcast), masked by ``0 <= index_d + range(B_d) < size_d``
  in every dimension; a load reads ``0`` (or NaN when the padding flag is set, for floats)
  outside, and an f32 load is rounded to TF32 under ``scf.if`` on the rounding flag;
- ``tt.descriptor_gather`` / ``tt.descriptor_scatter`` do the same with the given row offsets
  in dimension 0 and ``y_offset + range`` in dimension 1; ``tt.descriptor_reduce`` becomes a
  ``tt.atomic_rmw`` (release, gpu scope) of the matching kind;
- function signatures, ``tt.call``, ``tt.return`` and the structured control flow of ``scf``
  (``scf.for``, ``scf.if``, ``scf.while`` and their terminators) carry packs in place of
  descriptors. A function argument's pack keeps its attributes on the pointer; the other
  values get locations named ``<name>.shape.<d>``, ``<name>.stride.<d>``, ``<name>.padding``
  and ``<name>.roundF32ToTF32`` after the argument's own name location (``arg_<i>`` without one).
  A descriptor argument marked `HOST_DESCRIPTOR` (tilecraft's: a host ``TensorDescriptor``)
  keeps its pack arguments, but its last stride and flags are constants, and its sizes and
  strides have the divisibility `HOST_DIVISIBILITY` gives.

The pass emits ops unsimplified, as Triton does (one offset computation for the pointers and
another for the mask); ``--canonicalize --cse`` after it fold the constants and merge them. An
op that uses or defines a descriptor and is none of the above is an error
("failed to legalize operation").
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.generated.passes import TritonRewriteTensorDescriptorToPointerPassBase
from tilecraft.ir import (
    ArrayAttr, Block, BlockArgument, Builder, DictionaryAttr, FloatAttr, FunctionType,
    IntegerType, Location, NameLoc, Operation, RankedTensorType, Region, Type, TypeAttr,
    Value,
)

from .transform_utils import constant_op

__all__ = ["HOST_DESCRIPTOR", "HOST_DIVISIBILITY", "RewriteTensorDescriptorToPointerPass", "descriptor_pack_types",
           "pack_name_suffixes"]

#: The argument attribute (its value: the padding, "zero" or "nan") of a descriptor a kernel
#: gets from the launcher (a host ``TensorDescriptor``): its last stride is 1 and it rounds
#: nothing to TF32, so the rewrite uses constants for those and for the padding flag.
HOST_DESCRIPTOR = "tilecraft.host_descriptor"
#: With `HOST_DESCRIPTOR`, the divisibility of each size and stride (an array: 16 or 1), which
#: the pack's arguments get as ``tt.divisibility``.
HOST_DIVISIBILITY = "tilecraft.host_divisibility"

_I1 = IntegerType(1)
_I32 = IntegerType(32)
_I64 = IntegerType(64)


def _is_descriptor(type_: Type) -> bool:
    from tilecraft.generated.tt import TensorDescType

    return isinstance(type_, TensorDescType)


def _block_type(desc_type: Type) -> RankedTensorType:
    from tilecraft.dialects.tt import block_type

    return block_type(desc_type)


def descriptor_pack_types(desc_type: Type) -> list[Type]:
    """The types of the values that stand for a descriptor of type ``desc_type``: its base
    pointer, its sizes and strides (i64), its padding and TF32-rounding flags (i1)."""
    from tilecraft.generated.tt import PointerType

    block = _block_type(desc_type)
    return [PointerType(block.element_type), *[_I64] * (2 * block.rank), _I1, _I1]


def pack_name_suffixes(desc_type: Type) -> list[str]:
    """The name suffix of each value of a descriptor's pack ("" for the pointer)."""
    rank = len(desc_type.shape)
    return ["", *[f"shape.{d}" for d in range(rank)], *[f"stride.{d}" for d in range(rank)],
            "padding", "roundF32ToTF32"]


def _convert_types(types: Sequence[Type]) -> list[Type]:
    """``types`` with each descriptor type replaced by its pack's types."""
    out: list[Type] = []
    for type_ in types:
        out.extend(descriptor_pack_types(type_) if _is_descriptor(type_) else [type_])
    return out


class _Descriptor:
    """A descriptor's pack, by role."""

    __slots__ = ("base", "shape", "strides", "padding_nan", "round_to_tf32")

    def __init__(self, base: Value, shape: list[Value], strides: list[Value], padding_nan: Value,
                 round_to_tf32: Value) -> None:
        self.base = base
        self.shape = shape
        self.strides = strides
        self.padding_nan = padding_nan
        self.round_to_tf32 = round_to_tf32

    @classmethod
    def unpack(cls, pack: Sequence[Value]) -> _Descriptor:
        rank = (len(pack) - 3) // 2
        return cls(pack[0], list(pack[1:1 + rank]), list(pack[1 + rank:1 + 2 * rank]),
                   pack[1 + 2 * rank], pack[2 + 2 * rank])


class _Emitter:
    """Emits the pointer arithmetic of one descriptor access through ``builder``, at
    ``location``."""

    def __init__(self, builder: Builder, location: Location) -> None:
        self.builder = builder
        self.location = location

    @classmethod
    def before(cls, anchor: Operation) -> _Emitter:
        """An emitter inserting before ``anchor``, at its location."""
        return cls(Builder.before(anchor), anchor.location)

    def op(self, name: str, operands: Sequence[Value], result_type: Type,
           properties: dict | None = None) -> Value:
        """Insert a one-result op ``name``; returns its result."""
        return self.builder.create(name, operands, [result_type], properties=properties,
                                   location=self.location).results[0]

    def constant(self, value: object, type_: Type) -> Value:
        """An ``arith.constant`` of ``type_`` (splatted for a tensor)."""
        return self.builder.insert(constant_op(value, type_, self.location)).results[0]

    def cmpi(self, predicate: str, lhs: Value, rhs: Value) -> Value:
        """``arith.cmpi predicate, lhs, rhs``."""
        from tilecraft.generated.arith import CmpIOp, CmpIPredicate

        return self.builder.insert(CmpIOp.build(lhs, rhs, CmpIPredicate[predicate],
                                                location=self.location)).results[0]

    def to_i64(self, value: Value) -> Value:
        """``value`` sign-extended to i64 (itself when it is one)."""
        if value.type is _I64:
            return value
        return self.op("arith.extsi", [value], _I64)

    def expand(self, offsets: Value, rank: int, dim: int) -> Value:
        """The 1-D ``offsets`` made rank ``rank`` by unit dimensions everywhere but ``dim``."""
        from tilecraft.generated.tt import ExpandDimsOp

        shape = list(offsets.type.shape)
        for axis in range(rank):
            if axis == dim:
                continue
            shape.insert(axis, 1)
            result = RankedTensorType(tuple(shape), offsets.type.element_type)
            offsets = self.builder.insert(ExpandDimsOp.build(
                result, offsets, axis, location=self.location)).results[0]
        return offsets

    def offset_range(self, block_shape: Sequence[int], offset: Value, dim: int) -> Value:
        """``offset + range(block_shape[dim])`` in i64, expanded to the block's rank."""
        from tilecraft.generated.tt import MakeRangeOp

        size = block_shape[dim]
        row = RankedTensorType((size,), _I64)
        splat = self.op("tt.splat", [offset], row)
        indices = self.builder.insert(MakeRangeOp.build(
            RankedTensorType((size,), _I32), 0, size, location=self.location)).results[0]
        wide = self.op("arith.extsi", [indices], row)
        return self.expand(self.op("arith.addi", [splat, wide], row), len(block_shape), dim)

    def pointers(self, block_shape: Sequence[int], desc: _Descriptor,
                 ranges: Sequence[Value]) -> Value:
        """``splat(base) + sum_d broadcast(ranges[d] * splat(strides[d]))``."""
        index_type = RankedTensorType(tuple(block_shape), _I64)
        ptr_type = RankedTensorType(tuple(block_shape), desc.base.type)
        ptr = self.op("tt.splat", [desc.base], ptr_type)
        for offsets, stride in zip(ranges, desc.strides):
            # The stride is splatted into the expanded shape, keeping its divisibility.
            scaled = self.op("arith.muli", [offsets, self.op("tt.splat", [stride], offsets.type)],
                             offsets.type)
            ptr = self.op("tt.addptr", [ptr, self.op("tt.broadcast", [scaled], index_type)],
                          ptr_type)
        return ptr

    def mask(self, block_shape: Sequence[int], desc: _Descriptor,
             ranges: Sequence[Value]) -> Value:
        """The conjunction over dimensions of ``0 <= ranges[d] < shape[d]``, broadcast."""
        mask_type = RankedTensorType(tuple(block_shape), _I1)
        mask: Value | None = None
        for offsets, size in zip(ranges, desc.shape):
            zero = self.op("tt.splat", [self.constant(0, _I64)], offsets.type)
            lower = self.cmpi("sge", offsets, zero)
            upper = self.cmpi("slt", offsets, self.op("tt.splat", [size], offsets.type))
            in_bounds = self.op("arith.andi", [lower, upper], lower.type)
            wide = self.op("tt.broadcast", [in_bounds], mask_type)
            mask = wide if mask is None else self.op("arith.andi", [mask, wide], mask_type)
        assert mask is not None
        return mask

    def block_ranges(self, block_shape: Sequence[int], indices: Sequence[Value]) -> list[Value]:
        """Each dimension's ``index + range``, expanded to the block's rank."""
        offsets = [self.to_i64(index) for index in indices]
        return [self.offset_range(block_shape, offset, dim)
                for dim, offset in enumerate(offsets)]

    def pointers_and_mask(self, block_shape: Sequence[int], desc: _Descriptor,
                          indices: Sequence[Value]) -> tuple[Value, Value]:
        """The pointers and mask of the block at ``indices`` (each computed anew, as Triton)."""
        ptr = self.pointers(block_shape, desc, self.block_ranges(block_shape, indices))
        return ptr, self.mask(block_shape, desc, self.block_ranges(block_shape, indices))

    def gather_pointers_and_mask(self, block_shape: Sequence[int], desc: _Descriptor,
                                 x_offsets: Value, y_offset: Value) -> tuple[Value, Value]:
        """Pointers and mask of rows ``x_offsets`` from column ``y_offset``."""
        rows = self.expand(x_offsets, len(block_shape), 0)
        rows = self.op("arith.extsi", [rows],
                       RankedTensorType(rows.type.shape, _I64))
        columns = self.offset_range(block_shape, self.to_i64(y_offset), 1)
        return (self.pointers(block_shape, desc, [rows, columns]),
                self.mask(block_shape, desc, [rows, columns]))

    def other(self, block: RankedTensorType, padding_nan: Value) -> Value:
        """What a masked-off element reads: 0, or NaN for floats when ``padding_nan``."""
        zero = self.constant(0, block)
        if not block.element_type.is_float():
            return zero
        nan = self.constant(FloatAttr(float("nan"), block.element_type), block)
        return self.op("arith.select", [padding_nan, nan, zero], block)

    def round_to_tf32(self, value: Value) -> Value:
        """``value`` (f32 tensor) rounded to TF32 (round to nearest even on bit 13), NaN and
        infinities kept."""
        bits_type = RankedTensorType(value.type.shape, _I32)

        def const(number: int) -> Value:
            return self.constant(number - (1 << 32) if number >= 1 << 31 else number, bits_type)

        bits = self.op("tt.bitcast", [value], bits_type)
        exp_mask = const(0x7F800000)
        exponent = self.op("arith.andi", [bits, exp_mask], bits_type)
        special = self.cmpi("eq", exponent, exp_mask)
        lsb = self.op("arith.andi", [self.op("arith.shrui", [bits, const(13)], bits_type),
                                     const(1)], bits_type)
        bias = self.op("arith.addi", [lsb, const(0x00000FFF)], bits_type)
        rounded = self.op("arith.andi", [self.op("arith.addi", [bits, bias], bits_type),
                                         const(0xFFFFE000)], bits_type)
        out = self.op("arith.select", [special, bits, rounded], bits_type)
        return self.op("tt.bitcast", [out], value.type)


def _access_properties(op: Operation, names: Sequence[str]) -> dict:
    """The properties ``names`` that ``op`` sets (cache and eviction hints)."""
    return {name: op.properties[name] for name in names if name in op.properties}


class _Conversion:
    """The rewrite of one module: the pack of every descriptor value, and what to erase once
    every user of a descriptor has been rewritten."""

    def __init__(self) -> None:
        self.packs: dict[Value, list[Value]] = {}
        self.dead_ops: list[Operation] = []
        self.dead_arguments: list[BlockArgument] = []

    def flatten(self, values: Sequence[Value]) -> list[Value]:
        """``values`` with each descriptor replaced by its pack."""
        out: list[Value] = []
        for value in values:
            out.extend(self.packs[value] if _is_descriptor(value.type) else [value])
        return out

    def expand_block_arguments(self, block: Block, name_locations: bool = False) -> None:
        """Give each descriptor argument of ``block`` its pack's arguments after it (the
        descriptor goes at the end); with ``name_locations``, name their locations as
        Triton's function argument renamer does."""
        originals = [(i, a) for i, a in enumerate(block.arguments) if _is_descriptor(a.type)]
        for original_index, arg in originals:
            location = arg.location
            base = location.name if isinstance(location, NameLoc) else f"arg_{original_index}"
            pack: list[Value] = []
            for offset, (type_, suffix) in enumerate(zip(descriptor_pack_types(arg.type),
                                                         pack_name_suffixes(arg.type))):
                where = location
                if name_locations and suffix:
                    where = NameLoc(f"{base}.{suffix}", location)
                pack.append(block.insert_argument(arg.index + 1 + offset, type_, where))
            self.packs[arg] = pack
            self.dead_arguments.append(arg)

    def retire(self, op: Operation) -> None:
        """Erase ``op`` now, or at the end when it defines descriptors (their users go
        first)."""
        if any(_is_descriptor(r.type) for r in op.results):
            self.dead_ops.append(op)
        else:
            op.erase()

    def finish(self) -> None:
        """Erase the ops and block arguments that stood for descriptors."""
        for op in reversed(self.dead_ops):
            op.erase()
        for arg in sorted(self.dead_arguments, key=lambda a: -a.index):
            arg.owner.erase_argument(arg.index)


class RewriteTensorDescriptorToPointerPass(TritonRewriteTensorDescriptorToPointerPassBase):
    """Triton's ``triton-rewrite-tensor-descriptor-to-pointer`` (see the module's docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        conversion = _Conversion()
        functions = [f for f in op.walk() if f.name == "tt.func"]
        for function in functions:
            _convert_signature(conversion, function)
        for function in functions:
            for inner in list(function.walk()):
                if inner is not function:
                    _convert_op(conversion, inner)
        conversion.finish()


def _convert_signature(conversion: _Conversion, function: Operation) -> None:
    """Expand the descriptor arguments and results of ``function``'s type, its argument and
    result attributes, and its entry block's arguments; the pack of an argument marked
    `HOST_DESCRIPTOR` has constants for what the launcher guarantees."""
    ftype = function.function_type
    if not any(_is_descriptor(t) for t in (*ftype.inputs, *ftype.results)):
        return
    hosts: dict[int, str] = {}
    for name, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
        attrs = function.properties.get(name)
        if attrs is None:
            continue
        expanded: list[DictionaryAttr] = []
        for index, (type_, dictionary) in enumerate(zip(types, attrs)):
            pack_attrs = [DictionaryAttr({})] * (len(descriptor_pack_types(type_)) - 1) \
                if _is_descriptor(type_) else []
            if name == "arg_attrs" and HOST_DESCRIPTOR in dictionary:
                hosts[index] = dictionary[HOST_DESCRIPTOR].value
                for position, divisor in enumerate(dictionary.get(HOST_DIVISIBILITY, ())):
                    if divisor.value > 1:
                        pack_attrs[position] = DictionaryAttr({"tt.divisibility": divisor})
                dictionary = DictionaryAttr({k: v for k, v in dictionary.items()
                                             if k not in (HOST_DESCRIPTOR, HOST_DIVISIBILITY)})
            expanded += [dictionary, *pack_attrs]
        function.properties[name] = ArrayAttr(expanded)
    function.properties["function_type"] = TypeAttr(FunctionType(
        _convert_types(ftype.inputs), _convert_types(ftype.results)))
    if function.regions[0].blocks:
        block = function.regions[0].blocks[0]
        arguments = list(block.arguments)
        conversion.expand_block_arguments(block, name_locations=True)
        for index, padding in hosts.items():
            _specialize_host_pack(conversion, block, arguments[index], padding)


def _specialize_host_pack(conversion: _Conversion, block: Block, arg: BlockArgument,
                          padding: str) -> None:
    """A host descriptor's last stride is 1 and its flags are known when it is launched:
    constants stand for them in the pack (the arguments stay, unread)."""
    pack = conversion.packs[arg]
    emitter = _Emitter(Builder.at_start(block), arg.location)
    rank = (len(pack) - 3) // 2
    pack[2 * rank] = emitter.constant(1, _I64)
    pack[2 * rank + 1] = emitter.constant(padding == "nan", _I1)
    pack[2 * rank + 2] = emitter.constant(False, _I1)


def _replace(conversion: _Conversion, old: Operation, new: Operation) -> None:
    """Replace ``old``'s results by ``new``'s (descriptors by their packs) and retire ``old``."""
    results = list(new.results)
    position = 0
    for result in old.results:
        if _is_descriptor(result.type):
            size = len(descriptor_pack_types(result.type))
            conversion.packs[result] = results[position:position + size]
            position += size
        else:
            result.replace_all_uses_with(results[position])
            position += 1
    conversion.retire(old)


def _convert_op(conversion: _Conversion, op: Operation) -> None:
    """Rewrite ``op`` when it uses or defines a descriptor."""
    operands = list(op.operands)
    touches = (any(_is_descriptor(v.type) for v in operands)
               or any(_is_descriptor(r.type) for r in op.results)
               or any(_is_descriptor(a.type) for region in op.regions
                      for block in region.blocks for a in block.arguments))
    if not touches:
        return
    rewrite = _REWRITES.get(op.name)
    if rewrite is None:
        raise op.emit_error(f"failed to legalize operation '{op.name}'")
    rewrite(conversion, op)


def _make_descriptor(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.tt import PaddingOption

    emit = _Emitter.before(op)
    shape = [emit.to_i64(size) for size in op.shape]
    padding = op.properties.get("padding")
    pad_nan = padding is not None and int(padding.value) == int(PaddingOption.PAD_NAN)
    pack = [op.base, *shape, *op.strides, emit.constant(int(pad_nan), _I1),
            emit.constant(0, _I1)]
    conversion.packs[op.results[0]] = pack
    conversion.retire(op)


def _load(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.scf import IfOp, YieldOp
    from tilecraft.generated.tt import LoadOp

    desc_type = op.operands[0].type
    desc = _Descriptor.unpack(conversion.packs[op.operands[0]])
    emit = _Emitter.before(op)
    block = _block_type(desc_type)
    indices = op.operands[1:]
    other = emit.other(block, desc.padding_nan)
    ptr, mask = emit.pointers_and_mask(block.shape, desc, indices)
    load = emit.builder.insert(LoadOp.build(ptr, block, mask, other, location=emit.location))
    load.properties.update(_access_properties(op, ("cache", "evict")))
    load.attributes.update(op.attributes)
    result: Value = load.results[0]
    if block.element_type.is_float() and block.element_type.width == 32:
        branch = emit.builder.insert(IfOp.build([block], desc.round_to_tf32,
                                                location=emit.location))
        then = _Emitter(Builder.at_end(branch.then_region.add_block()), emit.location)
        then.builder.insert(YieldOp.build([then.round_to_tf32(result)], location=emit.location))
        branch.else_region.add_block().append(YieldOp.build([result], location=emit.location))
        result = branch.results[0]
    op.results[0].replace_all_uses_with(result)
    op.erase()


def _store(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.tt import StoreOp

    operands = list(op.operands)
    desc_type, src, indices = operands[0].type, operands[1], operands[2:]
    desc = _Descriptor.unpack(conversion.packs[op.operands[0]])
    emit = _Emitter.before(op)
    ptr, mask = emit.pointers_and_mask(desc_type.shape, desc, indices)
    store = emit.builder.insert(StoreOp.build(ptr, src, mask, location=emit.location))
    store.attributes.update(op.attributes)
    op.erase()


def _gather(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.tt import LoadOp

    operands = list(op.operands)
    desc = _Descriptor.unpack(conversion.packs[op.operands[0]])
    emit = _Emitter.before(op)
    block = op.results[0].type
    ptr, mask = emit.gather_pointers_and_mask(block.shape, desc, operands[1], operands[2])
    other = emit.other(block, desc.padding_nan)
    load = emit.builder.insert(LoadOp.build(ptr, block, mask, other, location=emit.location))
    load.attributes.update(op.attributes)
    result: Value = load.results[0]
    if block.element_type.is_float() and block.element_type.width == 32:
        result = emit.op("arith.select", [desc.round_to_tf32, emit.round_to_tf32(result),
                                          result], block)
    op.results[0].replace_all_uses_with(result)
    op.erase()


def _scatter(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.tt import StoreOp

    operands = list(op.operands)
    desc = _Descriptor.unpack(conversion.packs[op.operands[0]])
    emit = _Emitter.before(op)
    src = operands[3]
    ptr, mask = emit.gather_pointers_and_mask(src.type.shape, desc, operands[1], operands[2])
    store = emit.builder.insert(StoreOp.build(ptr, src, mask, location=emit.location))
    store.attributes.update(op.attributes)
    op.erase()


def _reduce(conversion: _Conversion, op: Operation) -> None:
    from tilecraft.generated.tt import (
        AtomicRMWOp, DescriptorReduceKind, MemSemantic, MemSyncScope, RMWOp,
    )

    operands = list(op.operands)
    desc_type, src, indices = operands[0].type, operands[1], operands[2:]
    element = desc_type.element_type
    kind = DescriptorReduceKind(int(op.properties["kind"].value))
    integer = isinstance(element, IntegerType)
    signed = integer and element.signedness == "signed"
    unsigned = integer and element.signedness == "unsigned"
    choices = {
        DescriptorReduceKind.ADD: RMWOp.ADD if integer else RMWOp.FADD,
        DescriptorReduceKind.MIN: RMWOp.UMIN if unsigned else RMWOp.MIN if signed else None,
        DescriptorReduceKind.MAX: RMWOp.UMAX if unsigned else RMWOp.MAX if signed else None,
        DescriptorReduceKind.AND: RMWOp.AND,
        DescriptorReduceKind.OR: RMWOp.OR,
        DescriptorReduceKind.XOR: RMWOp.XOR,
    }
    rmw = choices.get(kind)
    if rmw is None:
        raise op.emit_error("Cannot fallback on descriptor atomic op, unsupported for type "
                            f"{element}")
    desc = _Descriptor.unpack(conversion.packs[op.operands[0]])
    emit = _Emitter.before(op)
    ptr, mask = emit.pointers_and_mask(desc_type.shape, desc, indices)
    emit.builder.insert(AtomicRMWOp.build(_block_type(desc_type), ptr, src, rmw,
                                          MemSemantic.RELEASE, MemSyncScope.GPU, mask,
                                          location=emit.location))
    op.erase()


def _rebuild(conversion: _Conversion, op: Operation) -> None:
    """Recreate ``op`` (a call, a return, a region terminator or a structured control-flow
    op) with descriptor operands and results flattened into packs; its regions move over,
    their blocks' descriptor arguments expanded in place."""
    operands = conversion.flatten(list(op.operands))
    regions = []
    for region in op.regions:
        moved = Region()
        for block in list(region.blocks):
            region.blocks.remove(block)
            block.parent = None
            moved.add_block(block)
            conversion.expand_block_arguments(block)
        regions.append(moved)
    new = Operation.create(op.name, operands, _convert_types([r.type for r in op.results]),
                           dict(op.properties), dict(op.attributes), regions,
                           list(op.successors), op.location)
    Builder.before(op).insert(new)
    _replace(conversion, op, new)


_REWRITES = {
    "tt.make_tensor_descriptor": _make_descriptor,
    "tt.descriptor_load": _load,
    "tt.descriptor_store": _store,
    "tt.descriptor_gather": _gather,
    "tt.descriptor_scatter": _scatter,
    "tt.descriptor_reduce": _reduce,
    "tt.call": _rebuild,
    "tt.return": _rebuild,
    "scf.for": _rebuild,
    "scf.if": _rebuild,
    "scf.while": _rebuild,
    "scf.yield": _rebuild,
    "scf.condition": _rebuild,
}
