"""Hooks of the ttg (TritonGPU) dialect: the custom formats that Triton's printer writes by hand,
Triton's verifier rules, and typed readers of the module attributes (``ttg.num-warps``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from math import prod

from tilecraft.ir import DenseArrayAttr, IntegerAttr, Operation, StringAttr, i32
from tilecraft.ir.ods import i1_like, implements, parse_int_list, parse_struct

from . import generated_module
from .tt import _parse_clauses, _print_clauses, pointee_type

gen = generated_module(__name__, "ttg")

# -- module attributes ---------------------------------------------------------------------------

NUM_WARPS = "ttg.num-warps"
THREADS_PER_WARP = "ttg.threads-per-warp"
NUM_CTAS = "ttg.num-ctas"
TARGET = "ttg.target"


def _module_int(module: Operation, name: str, default: int | None) -> int:
    attr = module.attributes.get(name)
    if attr is None:
        if default is None:
            raise KeyError(f"the module has no '{name}' attribute")
        return default
    if not isinstance(attr, IntegerAttr):
        raise TypeError(f"the module's '{name}' attribute is {attr}, not an integer")
    return attr.value


def num_warps(module: Operation) -> int:
    """The module's ``ttg.num-warps`` (KeyError when it has none)."""
    return _module_int(module, NUM_WARPS, None)


def threads_per_warp(module: Operation) -> int:
    """The module's ``ttg.threads-per-warp``, 32 when it has none."""
    return _module_int(module, THREADS_PER_WARP, 32)


def num_ctas(module: Operation) -> int:
    """The module's ``ttg.num-ctas``, 1 when it has none."""
    return _module_int(module, NUM_CTAS, 1)


def target(module: Operation) -> str | None:
    """The module's ``ttg.target`` (``"cuda:90"``), None when it has none."""
    attr = module.attributes.get(TARGET)
    return attr.value if isinstance(attr, StringAttr) else None


# -- CTA layouts ---------------------------------------------------------------------------------


def _log2(value: int) -> int:
    return value.bit_length() - 1


def cga_layout_from_split_params(ctas_per_cga: Sequence[int], cta_split_num: Sequence[int],
                                 cta_order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The block bases (``CGALayout``) of Triton's older CTA-layout fields, as Triton converts
    them: along each dimension in ``cta_order``, the CTAs that split it (1, 2, 4, ... in that
    dimension), then the ones that repeat it (zero vectors)."""
    rank = len(cta_order)
    bases: list[tuple[int, ...]] = []
    for dim in cta_order:
        split, ctas = cta_split_num[dim], ctas_per_cga[dim]
        for bit in range(_log2(split)):
            bases.append(tuple(1 << bit if d == dim else 0 for d in range(rank)))
        bases += [(0,) * rank] * _log2(ctas // split)
    return tuple(bases)


def _print_bases(printer, bases: Sequence[Sequence[int]]) -> None:
    printer.write("[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]")


def _parse_bases(parser) -> tuple[tuple[int, ...], ...]:
    parser.parse_punct("[")
    bases: list[tuple[int, ...]] = []
    if not parser.parse_optional_punct("]"):
        bases.append(parse_int_list(parser))
        while parser.parse_optional_punct(","):
            bases.append(parse_int_list(parser))
        parser.parse_punct("]")
    return tuple(bases)


def _print_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


_LEGACY_CTA_FIELDS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")


def _cga_layout(parser, values: dict, start: int) -> tuple[tuple[int, ...], ...]:
    """``CGALayout`` from the parsed fields, or from Triton's older ``CTAsPerCGA``,
    ``CTASplitNum`` and ``CTAOrder`` (all three, and not with ``CGALayout``)."""
    legacy = [name for name in _LEGACY_CTA_FIELDS if name in values]
    if not legacy:
        return values.get("CGALayout", ())
    if "CGALayout" in values or len(legacy) != len(_LEGACY_CTA_FIELDS):
        parser.error("CTAsPerCGA, CTASplitNum and CTAOrder go together, without CGALayout",
                     start)
    return cga_layout_from_split_params(*(values[name] for name in _LEGACY_CTA_FIELDS))


def _missing(parser, values: dict, names: Sequence[str], start: int) -> None:
    for name in names:
        if name not in values:
            parser.error(f"struct is missing required parameter: {name}", start)


# -- #ttg.nvidia_mma -----------------------------------------------------------------------------


@implements(gen.NvidiaMmaEncodingAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [..], instrShape = [..]}>``, with
    ``CGALayout`` before ``instrShape`` when it is not trivial."""
    printer.write(f"<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
                  f"warpsPerCTA = {_print_ints(self.warps_per_cta)}")
    if self.cga_layout:
        printer.write(", CGALayout = ")
        _print_bases(printer, self.cga_layout)
    printer.write(f", instrShape = {_print_ints(self.instr_shape)}}}>")


@implements(gen.NvidiaMmaEncodingAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """Read Triton's fields in any order; ``versionMinor`` defaults to 0."""
    parser.parse_punct("<")
    start = parser.i
    fields = {"versionMajor": parser.parse_integer, "versionMinor": parser.parse_integer,
              "warpsPerCTA": lambda: parse_int_list(parser),
              "CGALayout": lambda: _parse_bases(parser),
              "instrShape": lambda: parse_int_list(parser)}
    fields.update({name: (lambda: parse_int_list(parser)) for name in _LEGACY_CTA_FIELDS})
    values = parse_struct(parser, fields)
    parser.parse_punct(">")
    _missing(parser, values, ("versionMajor", "warpsPerCTA", "instrShape"), start)
    return cls(version_major=values["versionMajor"], version_minor=values.get("versionMinor", 0),
               warps_per_cta=values["warpsPerCTA"], instr_shape=values["instrShape"],
               cga_layout=_cga_layout(parser, values, start))


# -- !ttg.memdesc --------------------------------------------------------------------------------


def _parse_shape(parser) -> tuple[int, ...]:
    """``2x64x16`` (an allocation shape: dimensions with no element type after them)."""
    dims = [parser.parse_integer()]
    while parser.parse_optional_keyword("x"):
        dims.append(parser.parse_integer())
    return tuple(dims)


@implements(gen.MemDescType)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<64x64xf16, #shared, #smem[, mutable][, 2x64x64]>`` as Triton prints it: the allocation
    shape only when it differs from the shape."""
    printer.write("<" + "".join(f"{d}x" for d in self.shape))
    printer.print_type(self.element_type)
    for attr in (self.encoding, self.memory_space):
        if attr is not None:
            printer.write(", ")
            printer.print_attribute(attr)
    if self.mutable_memory:
        printer.write(", mutable")
    if self.alloc_shape and self.alloc_shape != self.shape:
        printer.write(", " + "x".join(map(str, self.alloc_shape)))
    printer.write(">")


@implements(gen.MemDescType)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """Read what `print_parameters` writes; an allocation shape equal to the shape is dropped,
    so that both spellings give the same type."""
    parser.parse_punct("<")
    token = parser.i
    shape = tuple(parser.parse_dimension_list())
    if not shape:
        parser.error("rank 0 memdesc is not allowed", token)
    element_type = parser.parse_type()
    parser.parse_punct(",")
    encoding = parser.parse_attribute()
    memory_space = None
    mutable = False
    alloc_shape: tuple[int, ...] = ()
    if parser.parse_optional_punct(","):
        if parser.parse_optional_keyword("mutable"):
            mutable = True
        else:
            memory_space = parser.parse_attribute()
        while not alloc_shape and parser.parse_optional_punct(","):
            if not mutable and parser.parse_optional_keyword("mutable"):
                mutable = True
            else:
                alloc_shape = _parse_shape(parser)
    parser.parse_punct(">")
    return cls(shape, element_type, encoding, memory_space, mutable,
               () if alloc_shape == shape else alloc_shape)


def alloc_shape(memdesc) -> tuple[int, ...]:
    """The shape of the allocation a memory descriptor views (its own shape when it views the
    whole allocation)."""
    return memdesc.alloc_shape or memdesc.shape


# -- ops -----------------------------------------------------------------------------------------


def _same_shape_and_element(op, tensor, memdesc, tensor_name: str) -> None:
    """Triton's check between a tensor and the buffer it is loaded from or stored to."""
    if tensor.element_type != memdesc.element_type:
        raise op.emit_error(f"{tensor_name} element type {tensor.element_type} does not match the "
                            f"buffer element type {memdesc.element_type}")
    if tuple(tensor.shape) != tuple(memdesc.shape):
        raise op.emit_error(f"{tensor_name} shape {list(tensor.shape)} does not match the buffer "
                            f"shape {list(memdesc.shape)}")


@implements(gen.LocalAllocOp)
def custom_verify(self) -> None:
    """A buffer without an initializer must be mutable; an initializer has its shape and
    element type."""
    result = self.result.type
    if self.src is None:
        if not result.mutable_memory:
            raise self.emit_error("Only mutable memory can be allocated without an initializer")
        return
    _same_shape_and_element(self, self.src.type, result, "source")


@implements(gen.LocalLoadOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """The result has the buffer's shape and element type."""
    _same_shape_and_element(self, self.result.type, self.src.type, "result")


@implements(gen.LocalStoreOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """The destination is mutable and has the stored tensor's shape and element type."""
    if not self.dst.type.mutable_memory:
        raise self.emit_error("Cannot store into immutable memory")
    _same_shape_and_element(self, self.src.type, self.dst.type, "source")


@implements(gen.MemDescIndexOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """The result is one whole buffer of a whole allocation: its shape is the source's without
    the leading dimension, and neither views a larger allocation."""
    src, result = self.src.type, self.result.type
    if src.element_type != result.element_type:
        raise self.emit_error("result element type must match desc element type")
    if len(result.shape) != len(src.shape) - 1:
        raise self.emit_error("result rank must be input rank - 1")
    if tuple(result.shape) != tuple(src.shape[1:]):
        raise self.emit_error("result shape must equal to srcShape[1:]")
    if src.alloc_shape or result.alloc_shape:
        raise self.emit_error("alloc shape must match shape for both result and src")


@implements(gen.MemDescSubsliceOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """One offset per dimension; the result has the source's rank and element type and fits
    in it at the offsets."""
    src, result = self.src.type, self.result.type
    offsets = self.offsets
    if src.element_type != result.element_type:
        raise self.emit_error("result element type must match desc element type")
    if len(offsets) != len(src.shape):
        raise self.emit_error("offsets must have the same rank as input")
    if len(result.shape) != len(src.shape):
        raise self.emit_error("result rank must equal to input rank")
    for offset, size, whole in zip(offsets, result.shape, src.shape):
        if offset < 0 or offset + size > whole:
            raise self.emit_error("result shape cannot exceed input shape at the given offsets")


@implements(gen.MemDescSubsliceOp)
@classmethod
def parse(cls, parser):
    """``%src[o0, o1] {attrs} : src-type -> result-type``."""
    src = parser.parse_operand()
    offsets = parse_int_list(parser)
    attrs = parser.parse_optional_attr_dict()
    attrs["offsets"] = DenseArrayAttr(i32, offsets)
    parser.parse_punct(":")
    src_type = parser.parse_type()
    parser.parse_punct("->")
    result_type = parser.parse_type()
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=[parser.resolve_operand(src, src_type)],
                      result_types=[result_type], properties=properties, attributes=attributes)


@implements(gen.MemDescSubsliceOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    printer.write(" ")
    printer.print_operand(self.src)
    printer.write("[" + ", ".join(map(str, self.offsets)) + "]")
    printer.print_attr_dict(self.all_attributes(), ("offsets",))
    printer.write(" : ")
    printer.print_type(self.src.type)
    printer.write(" -> ")
    printer.print_type(self.result.type)


@implements(gen.MemDescReshapeOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """The view keeps the number of elements."""
    src, result = self.src.type, self.result.type
    if prod(src.shape) != prod(result.shape):
        raise self.emit_error("number of src and result elements must match")


@implements(gen.AsyncCopyGlobalToLocalOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    """The destination is mutable and has the pointers' shape."""
    if not self.result_.type.mutable_memory:
        raise self.emit_error("Cannot store into immutable memory")
    if tuple(self.src.type.shape) != tuple(self.result_.type.shape):
        raise self.emit_error("source and destination must have the same shape")


@implements(gen.AsyncCopyGlobalToLocalOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%ptrs, %buf [mask %m] [other %o] [cacheModifier = ..] [evictionPolicy = ..] {attrs}
    : ptr-tensor-type -> <memdesc parameters>`` (the memdesc type without its name, as
    MLIR prints a type of the op's own dialect)."""
    src = parser.parse_operand()
    parser.parse_punct(",")
    dst = parser.parse_operand()
    mask = parser.parse_operand() if parser.parse_optional_keyword("mask") else None
    other = parser.parse_operand() if parser.parse_optional_keyword("other") else None
    attrs: dict = {}
    _parse_clauses(parser, attrs)
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    src_type = parser.parse_type()
    parser.parse_punct("->")
    dst_type = gen.MemDescType.parse_parameters(parser)
    operands = [parser.resolve_operand(src, src_type), parser.resolve_operand(dst, dst_type)]
    if mask is not None:
        operands.append(parser.resolve_operand(mask, i1_like(src_type)))
    if other is not None:
        operands.append(parser.resolve_operand(other, pointee_type(src_type)))
    attrs["operandSegmentSizes"] = DenseArrayAttr(i32, (1, 1, int(mask is not None),
                                                        int(other is not None)))
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=[gen.AsyncTokenType()],
                      properties=properties, attributes=attributes)


@implements(gen.AsyncCopyGlobalToLocalOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operands([self.src, self.result_])
    for keyword, value in (("mask", self.mask), ("other", self.other)):
        if value is not None:
            printer.write(f" {keyword} ")
            printer.print_operand(value)
    _print_clauses(self, printer)
    elided = ["operandSegmentSizes", "cache", "evict"]
    if not self.is_volatile:
        elided.append("isVolatile")
    if self.contiguity == 1:
        elided.append("contiguity")
    printer.print_attr_dict(self.all_attributes(), elided)
    printer.write(" : ")
    printer.print_type(self.src.type)
    printer.write(" -> ")
    self.result_.type.print_parameters(printer)


# -- ttg.barrier ---------------------------------------------------------------------------------

# The address spaces of `ttg.barrier`, by bit.
ADDRESS_SPACES = {"local": 1, "global_read": 2, "global_write": 4, "tensor_read": 8,
                  "tensor_write": 16}
_ALL_ADDRESS_SPACES = 31


@implements(gen.BarrierOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``none``, ``all`` or address spaces joined by ``|``, then the attribute dictionary."""
    names = ("none", "all", *ADDRESS_SPACES)
    token = parser.i
    spaces = []
    while True:
        name = parser.parse_optional_keyword(names)
        if name is None:
            parser.error(f"expected one of: {', '.join(names)}")
        spaces.append(name)
        if not parser.parse_optional_punct("|"):
            break
    if "none" in spaces and len(spaces) > 1:
        parser.error("'none' cannot be combined with other address spaces", token)
    mask = 0
    for name in spaces:
        mask |= _ALL_ADDRESS_SPACES if name == "all" else ADDRESS_SPACES.get(name, 0)
    attrs = parser.parse_optional_attr_dict()
    attrs["addrSpace"] = IntegerAttr(mask, i32)
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, properties=properties, attributes=attributes)


@implements(gen.BarrierOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    mask = self.addr_space
    if mask == 0:
        text = "none"
    elif mask == _ALL_ADDRESS_SPACES:
        text = "all"
    else:
        text = "|".join(name for name, bit in ADDRESS_SPACES.items() if mask & bit)
    printer.write(" " + text)
    printer.print_attr_dict(self.all_attributes(), ("addrSpace",))
