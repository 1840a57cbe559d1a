"""Hooks of the ttng (TritonNvidiaGPU) dialect: the formats Triton writes by hand (the optional
``[%token]`` of the tensor-memory ops, the TMA copy's operand list, the wait's result types) and
Triton's verifier rules.

Every ttng op's `custom_verify` first checks the layouts of its tensors and memory descriptors
against the module, as ttg ops do, then the op's own rules.
"""

from __future__ import annotations

import os

from tilecraft.ir import ArrayAttr, DenseArrayAttr, IntegerAttr, RankedTensorType, i1, i16, i32
from tilecraft.ir.ods import implements
from tilecraft.layouts.linear import LinearLayout

from . import generated_module
from .tt import _parse_clauses, _print_clauses
from .tt import gen as _tt
from .ttg import context_num_warps, install_verifiers, rule
from .ttg import gen as _ttg

gen = generated_module(__name__, "ttng")

_FP8 = ("f8E5M2", "f8E4M3FN")


# -- attributes ----------------------------------------------------------------------------------


@implements(gen.TensorMemoryEncodingAttr)
def verify(self) -> str | None:
    """blockM is 64 or 128, blockN a power of two up to 512, colStride 1, 2 or 4."""
    if self.block_m not in (64, 128):
        return f"blockM must be 64 or 128 but got {self.block_m}"
    if self.block_n <= 0 or self.block_n & (self.block_n - 1):
        return f"blockN must be a power of 2 but got {self.block_n}"
    if self.block_n > 512:
        return f"blockN must be less than or equal to 512 but got {self.block_n}"
    if self.col_stride not in (1, 2, 4):
        return f"colStride must be 1, 2, or 4 but got {self.col_stride}"
    return None


@implements(gen.TensorMemoryEncodingAttr)
def print_parameters(self, printer) -> None:
    """``<blockM = 128, blockN = 64, colStride = 1>``, then ``CGALayout = [[..]]`` with more
    than one CTA and ``twoCTAs = true`` when set."""
    printer.write(f"<blockM = {self.block_m}, blockN = {self.block_n}, "
                  f"colStride = {self.col_stride}")
    if self.cga_layout:
        printer.write(", CGALayout = " + _bases_text(self.cga_layout))
    if self.two_ct_as:
        printer.write(", twoCTAs = true")
    printer.write(">")


def _bases_text(bases: tuple[tuple[int, ...], ...]) -> str:
    """``[[1, 0], [0, 1]]``."""
    return "[" + ", ".join("[" + ", ".join(map(str, basis)) + "]" for basis in bases) + "]"


def _parse_bases(parser) -> tuple[tuple[int, ...], ...]:
    token = parser.i
    attr = parser.parse_attribute()
    if not isinstance(attr, ArrayAttr) or not all(
            isinstance(b, ArrayAttr) and all(type(v) is IntegerAttr for v in b.elements)
            for b in attr.elements):
        parser.error("expected a list of integer lists", token)
    return tuple(tuple(v.value for v in b.elements) for b in attr.elements)


def _parse_bool(parser) -> bool:
    word = parser.parse_optional_keyword(("true", "false"))
    if word is None:
        parser.error("expected 'true' or 'false'")
    return word == "true"


@implements(gen.TensorMemoryEncodingAttr)
@classmethod
def parse_parameters(cls, parser):
    """Read what `print_parameters` writes (the fields in any order, each at most once) and
    verify the attribute."""
    fields = {"blockM": parser.parse_integer, "blockN": parser.parse_integer,
              "colStride": parser.parse_integer, "CGALayout": lambda: _parse_bases(parser),
              "twoCTAs": lambda: _parse_bool(parser)}
    values: dict[str, object] = {}
    at = parser.i
    parser.parse_punct("<")
    while True:
        token = parser.i
        name = parser.parse_optional_keyword(tuple(fields))
        if name is None:
            parser.error(f"expected one of the fields {', '.join(fields)}", token)
        if name in values:
            parser.error(f"duplicate field '{name}'", token)
        parser.parse_punct("=")
        values[name] = fields[name]()
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct(">")
    for required in ("blockM", "blockN", "colStride"):
        if required not in values:
            parser.error(f"struct is missing required parameter: {required}")
    result = cls(values["blockM"], values["blockN"], values["colStride"],
                 values.get("CGALayout", ()), values.get("twoCTAs", False))
    message = result.verify()
    if message is not None:
        parser.error(message, at)
    return result


@implements(gen.TensorMemoryScalesEncodingAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<>``, or ``<CGALayout = [[..]]>`` with more than one CTA."""
    printer.write("<")
    if self.cga_layout:
        printer.write("CGALayout = " + _bases_text(self.cga_layout))
    printer.write(">")


@implements(gen.TensorMemoryScalesEncodingAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """Read what `print_parameters` writes."""
    parser.parse_punct("<")
    bases: tuple[tuple[int, ...], ...] = ()
    if parser.parse_optional_keyword(("CGALayout",)) is not None:
        parser.parse_punct("=")
        bases = _parse_bases(parser)
    parser.parse_punct(">")
    return cls(bases)


# -- the optional token of tensor-memory accesses ------------------------------------------------


def _parse_token(parser):
    """``[%dep]``, ``[]`` or nothing: (the dependency operand or None, whether a token result
    is there)."""
    if not parser.parse_optional_punct("["):
        return None, False
    if parser.parse_optional_punct("]"):
        return None, True
    dep = parser.parse_operand()
    parser.parse_punct("]")
    return dep, True


def _print_token(printer, dep, has_token: bool) -> None:
    if not has_token:
        return
    printer.write("[")
    if dep is not None:
        printer.print_operand(dep)
    printer.write("]")


# -- ops: formats --------------------------------------------------------------------------------


@implements(gen.WarpGroupDotWaitOp)
@classmethod
def parse(cls, parser):
    """``%a, %b {pendings = N : i32} : type-a, type-b``: the results have the inputs' types."""
    inputs = parser.parse_operand_list()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    types = parser.parse_type_list()
    operands = parser.resolve_operands(inputs, types)
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=types,
                      properties=properties, attributes=attributes)


@implements(gen.WarpGroupDotWaitOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    printer.write(" ")
    printer.print_operands(self.inputs)
    printer.print_attr_dict(self.all_attributes())
    printer.write(" : ")
    printer.print_types(v.type for v in self.inputs)


@implements(gen.AsyncTMACopyGlobalToLocalOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%desc[%c0, %c1] [offsets = [%o]] %buf, %barrier, %pred [cacheModifier = ..]
    [evictionPolicy = ..] {attrs} : desc-type, barrier-type -> buffer-type``."""
    desc = parser.parse_operand()
    parser.parse_punct("[")
    coord = [] if parser.parse_optional_punct("]") else parser.parse_operand_list()
    if coord:
        parser.parse_punct("]")
    offsets = []
    if parser.parse_optional_keyword("offsets"):
        parser.parse_punct("=")
        parser.parse_punct("[")
        offsets = parser.parse_operand_list()
        parser.parse_punct("]")
    result = parser.parse_operand()
    parser.parse_punct(",")
    barrier = parser.parse_operand()
    parser.parse_punct(",")
    pred = parser.parse_operand()
    attrs: dict = {}
    _parse_clauses(parser, attrs)
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    desc_type = parser.parse_type()
    parser.parse_punct(",")
    barrier_type = parser.parse_type()
    parser.parse_punct("->")
    result_type = parser.parse_type()
    operands = [parser.resolve_operand(desc, desc_type),
                *parser.resolve_operands(coord, [i32] * len(coord)),
                *parser.resolve_operands(offsets, [i16] * len(offsets)),
                parser.resolve_operand(barrier, barrier_type),
                parser.resolve_operand(result, result_type),
                parser.resolve_operand(pred, i1)]
    attrs["operandSegmentSizes"] = DenseArrayAttr(i32, (1, len(coord), len(offsets), 1, 1, 1))
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, properties=properties,
                      attributes=attributes)


@implements(gen.AsyncTMACopyGlobalToLocalOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.desc)
    printer.write("[")
    printer.print_operands(self.coord)
    printer.write("]")
    if self.offsets:
        printer.write(" offsets = [")
        printer.print_operands(self.offsets)
        printer.write("]")
    printer.write(" ")
    printer.print_operands([self.result_, self.barrier, self.pred])
    _print_clauses(self, printer)
    elided = ["operandSegmentSizes", "cache", "evict"]
    if not self.is_volatile:
        elided.append("isVolatile")
    printer.print_attr_dict(self.all_attributes(), elided)
    printer.write(" : ")
    printer.print_type(self.desc.type)
    printer.write(", ")
    printer.print_type(self.barrier.type)
    printer.write(" -> ")
    printer.print_type(self.result_.type)


@implements(gen.TMEMLoadOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%buf[%dep] {attrs} : memdesc-type -> tensor-type`` (``[%dep]`` optional)."""
    src = parser.parse_operand()
    dep, has_token = _parse_token(parser)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    src_type = parser.parse_type()
    parser.parse_punct("->")
    result_type = parser.parse_type()
    operands = [parser.resolve_operand(src, src_type)]
    if dep is not None:
        operands.append(parser.resolve_operand(dep, _ttg.AsyncTokenType()))
    result_types = [result_type] + ([_ttg.AsyncTokenType()] if has_token else [])
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=result_types,
                      properties=properties, attributes=attributes)


@implements(gen.TMEMLoadOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.src)
    _print_token(printer, self.dep, self.token is not None)
    printer.print_attr_dict(self.all_attributes())
    printer.write(" : ")
    printer.print_type(self.src.type)
    printer.write(" -> ")
    printer.print_type(self.result_.type)


@implements(gen.TMEMStoreOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%src, %buf[%dep], %pred {attrs} : tensor-type -> memdesc-type``."""
    src = parser.parse_operand()
    parser.parse_punct(",")
    dst = parser.parse_operand()
    dep, has_token = _parse_token(parser)
    parser.parse_punct(",")
    pred = parser.parse_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    src_type = parser.parse_type()
    parser.parse_punct("->")
    dst_type = parser.parse_type()
    operands = [parser.resolve_operand(dst, dst_type)]
    if dep is not None:
        operands.append(parser.resolve_operand(dep, _ttg.AsyncTokenType()))
    operands += [parser.resolve_operand(src, src_type), parser.resolve_operand(pred, i1)]
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands,
                      result_types=[_ttg.AsyncTokenType()] if has_token else [],
                      properties=properties, attributes=attributes)


@implements(gen.TMEMStoreOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operands([self.src, self.dst])
    _print_token(printer, self.dep, self.token is not None)
    printer.write(", ")
    printer.print_operand(self.pred)
    printer.print_attr_dict(self.all_attributes())
    printer.write(" : ")
    printer.print_type(self.src.type)
    printer.write(" -> ")
    printer.print_type(self.dst.type)


# `ttng.tc_gen5_mma` and `ttng.tc_gen5_mma_scaled`:
#   %a, %b, %d[%dep], (%a_scale, %b_scale,)? %useD, %pred (lhs = T rhs = T)? (, %bar[%p])*
#   {attrs} : type(a), type(b), type(d)(, type(a_scale), type(b_scale))? (, type(barriers))*


def _parse_mma(cls, parser, scaled: bool):
    a = parser.parse_operand()
    parser.parse_punct(",")
    b = parser.parse_operand()
    parser.parse_punct(",")
    d = parser.parse_operand()
    dep, has_token = _parse_token(parser)
    parser.parse_punct(",")
    scales = []
    if scaled:
        scales = [parser.parse_operand()]
        parser.parse_punct(",")
        scales.append(parser.parse_operand())
        parser.parse_punct(",")
    use_d = parser.parse_operand()
    parser.parse_punct(",")
    pred = parser.parse_operand()
    attrs: dict = {}
    if scaled:
        for side, name in (("lhs", "a_type"), ("rhs", "b_type")):
            if parser.parse_optional_keyword((side,)) is None:
                parser.error(f"expected '{side}'")
            parser.parse_punct("=")
            attrs[name] = IntegerAttr(int(_tt.ScaleDotElemType.parse(parser)), i32)
    barriers, barrier_preds = [], []
    while parser.parse_optional_punct(","):
        barriers.append(parser.parse_operand())
        parser.parse_punct("[")
        barrier_preds.append(parser.parse_operand())
        parser.parse_punct("]")
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    types = parser.parse_type_list()
    memdescs = 3 + len(scales)
    if len(types) != memdescs + len(barriers):
        parser.error(f"expected {memdescs + len(barriers)} types but got {len(types)}")
    operands = parser.resolve_operands([a, b, d], types[:3])
    if dep is not None:
        operands.append(parser.resolve_operand(dep, _ttg.AsyncTokenType()))
    operands += parser.resolve_operands(scales, types[3:memdescs])
    operands += parser.resolve_operands([use_d, pred], i1)
    operands += parser.resolve_operands(barriers, types[memdescs:])
    operands += parser.resolve_operands(barrier_preds, i1)
    segments = (1, 1, 1, int(dep is not None), *(1,) * len(scales), 1, 1, len(barriers),
                len(barrier_preds))
    attrs["operandSegmentSizes"] = DenseArrayAttr(i32, segments)
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands,
                      result_types=[_ttg.AsyncTokenType()] if has_token else [],
                      properties=properties, attributes=attributes)


def _print_mma(op, printer, scales: list) -> None:
    printer.write(" ")
    printer.print_operands([op.a, op.b, op.d])
    _print_token(printer, op.acc_dep, op.token is not None)
    printer.write(", ")
    printer.print_operands([*scales, op.use_d, op.pred])
    elided = ["operandSegmentSizes"]
    if scales:
        printer.write(f" lhs = {op.a_type.keyword} rhs = {op.b_type.keyword}")
        elided += ["a_type", "b_type"]
    for barrier, pred in zip(op.barriers, op.barrier_preds):
        printer.write(", ")
        printer.print_operand(barrier)
        printer.write("[")
        printer.print_operand(pred)
        printer.write("]")
    printer.print_attr_dict(op.all_attributes(), elided)
    printer.write(" : ")
    printer.print_types(v.type for v in [op.a, op.b, op.d, *scales, *op.barriers])


@implements(gen.TCGen5MMAOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%a, %b, %d[%dep], %useD, %pred, %bar[%p] {attrs} : a-type, b-type, d-type, bar-type``
    (``[%dep]``, ``[]`` or nothing; barriers optional)."""
    return _parse_mma(cls, parser, scaled=False)


@implements(gen.TCGen5MMAOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    _print_mma(self, printer, [])


@implements(gen.TCGen5MMAScaledOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%a, %b, %d[%dep], %sa, %sb, %useD, %pred lhs = e4m3 rhs = e2m1, %bar[%p] {attrs} :
    a-type, b-type, d-type, sa-type, sb-type, bar-type``."""
    return _parse_mma(cls, parser, scaled=True)


@implements(gen.TCGen5MMAScaledOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    _print_mma(self, printer, [self.a_scale, self.b_scale])


# -- ops: verifiers ------------------------------------------------------------------------------

@rule(gen.WarpGroupDotOp)
def _verify_warp_group_dot(self) -> None:
    """Triton's wgmma rules: a Hopper MMA result of rank 2 with M a multiple of 64 and N of 8,
    NVMMA-shared (or dot-operand for A) operands, warps in groups of 4, fp8 inputs with an f32
    accumulator only with maxNumImpreciseAcc >= 32, and an A in registers of kWidth 32/bits."""
    result = self.d.type
    mma = result.encoding
    if not isinstance(mma, _ttg.NvidiaMmaEncodingAttr) or mma.version_major != 3:
        raise self.emit_error("WGMMA result layout must be Hopper NVMMA")
    shared = (_ttg.NVMMASharedEncodingAttr, _ttg.SharedLinearEncodingAttr)
    a_type, b_type = self.a.type, self.b.type
    if not isinstance(a_type.encoding, (*shared, _ttg.DotOperandEncodingAttr)):
        raise self.emit_error("WGMMA A operand must have NVMMA shared or dot layout")
    if not isinstance(b_type.encoding, shared):
        raise self.emit_error("WGMMA B operand must have NVMMA shared layout")
    warps = context_num_warps(self)
    if warps is not None and warps % 4:
        raise self.emit_error("WGMMA requires num_warps to be divisible by 4")
    if len(result.shape) != 2:
        raise self.emit_error("WGMMA result shape must be 2D")
    if result.shape[0] % 64:
        raise self.emit_error("WGMMA result M dimension must be divisible by 64")
    if result.shape[1] % 8:
        raise self.emit_error("WGMMA result N dimension must be divisible by 8")
    if self.max_num_imprecise_acc < 32 and str(a_type.element_type) in _FP8 \
            and str(result.element_type) == "f32":
        raise self.emit_error("Cannot use F32 as the accumulator element type when the "
                              "max_num_imprecise_acc is less than 32")
    if isinstance(a_type, RankedTensorType):
        k_width = 32 // a_type.element_type.width
        if a_type.encoding.k_width != k_width:
            raise self.emit_error(f"in-register LHS operand must have a kWidth of {k_width} but "
                                  f"got {a_type.encoding.k_width}")


@rule(gen.WarpGroupDotWaitOp)
def _verify_warp_group_dot_wait(self) -> None:
    """The outputs have the inputs' types, and the op waits on something."""
    if [v.type for v in self.inputs] != [v.type for v in self.outputs]:
        raise self.emit_error("failed to verify that all of {inputs, outputs} have same type")
    if not self.inputs:
        raise self.emit_error("expected to be waiting on at least one dependency")


@rule(gen.AsyncTMACopyGlobalToLocalOp)
def _verify_async_tma_copy(self) -> None:
    """The destination is a mutable buffer."""
    if not self.result_.type.mutable_memory:
        raise self.emit_error("Cannot store into immutable memory")


def _verify_barrier_buffer(op) -> None:
    """An mbarrier lives in a one-element i64 shared-memory buffer (one CTA)."""
    memdesc = op.alloc.type
    if str(memdesc.element_type) != "i64" or tuple(memdesc.shape) != (1,):
        raise op.emit_error("barrier allocation must be a descriptor of 1xi64 type")


for _barrier_op in (gen.InitBarrierOp, gen.InvalBarrierOp, gen.BarrierExpectOp,
                    gen.WaitBarrierOp):
    rule(_barrier_op)(_verify_barrier_buffer)


def _same_shape_and_element(op, tensor, memdesc, tensor_name: str) -> None:
    if tensor.element_type != memdesc.element_type:
        raise op.emit_error(f"{tensor_name} element type {tensor.element_type} does not match the "
                            f"buffer element type {memdesc.element_type}")
    if tuple(tensor.shape) != tuple(memdesc.shape):
        raise op.emit_error(f"{tensor_name} shape {list(tensor.shape)} does not match the buffer "
                            f"shape {list(memdesc.shape)}")


def _check_tmem_tensor(op, tensor, name: str) -> None:
    if len(tensor.shape) != 2:
        raise op.emit_error(f"{name} must be a 2D tensor")


@rule(gen.TMEMAllocOp)
def _verify_tmem_alloc(self) -> None:
    """A tensor-memory encoding (of values or of scales); an initializer is a 2-D tensor of the
    buffer's shape, and a buffer without one is mutable."""
    memdesc = self.result_.type
    if not isinstance(memdesc.encoding, (gen.TensorMemoryEncodingAttr,
                                         gen.TensorMemoryScalesEncodingAttr)):
        raise self.emit_error("should use tensor memory encoding")
    if self.src is None:
        if not memdesc.mutable_memory:
            raise self.emit_error("Only mutable memory can be allocated without an initializer")
        return
    _check_tmem_tensor(self, self.src.type, "source")
    _same_shape_and_element(self, self.src.type, memdesc, "source")


@rule(gen.TMEMLoadOp)
def _verify_tmem_load(self) -> None:
    """The source is a buffer in tensor memory with a tensor-memory encoding, read into a 2-D
    tensor of its shape."""
    memdesc = self.src.type
    if not isinstance(memdesc.memory_space, gen.TensorMemorySpaceAttr):
        raise self.emit_error("source must be a tensor memory buffer.")
    if not isinstance(memdesc.encoding, gen.TensorMemoryEncodingAttr):
        raise self.emit_error("should use tensor memory encoding.")
    _check_tmem_tensor(self, self.result_.type, "result")
    _same_shape_and_element(self, self.result_.type, memdesc, "result")


@rule(gen.TMEMStoreOp)
def _verify_tmem_store(self) -> None:
    """The destination is a mutable buffer with a tensor-memory encoding, written from a 2-D
    tensor of its shape."""
    memdesc = self.dst.type
    if not isinstance(memdesc.encoding, gen.TensorMemoryEncodingAttr):
        raise self.emit_error("should use tensor memory encoding.")
    if not memdesc.mutable_memory:
        raise self.emit_error("Cannot store into an immutable alloc")
    _check_tmem_tensor(self, self.src.type, "source")
    _same_shape_and_element(self, self.src.type, memdesc, "source")


# -- tcgen05 MMAs: the operand types each kind of instruction takes --------------------------

#: Per operand type, the instruction kind it belongs to and the accumulator types it takes.
_MMA_V5_KINDS = {"f32": ("tf32", ("f32",)), "f16": ("f16", ("f16", "f32")),
                 "bf16": ("f16", ("f32",)), "i8": ("i8", ("i32",))}
_F8F6F4 = ("f8f6f4", ("f16", "f32"))
#: The element type a scaled operand's bits are read as, for integer-typed (packed) operands.
_SCALED_OPERAND_TYPES = {"E4M3": "f8E4M3FN", "E5M2": "f8E5M2", "E2M3": "f6E2M3FN",
                         "E3M2": "f6E3M2FN", "E2M1": "f4E2M1FN", "BF16": "bf16", "FP16": "f16"}


def _mma_v5_kind(element: str) -> tuple[str, tuple[str, ...]] | None:
    if element in _MMA_V5_KINDS:
        return _MMA_V5_KINDS[element]
    if element.startswith(("f8", "f6", "f4")):
        return _F8F6F4
    return None


def _verify_mma_types(op, a: str, b: str, d: str) -> None:
    """Triton's verifyMMADType: both operand types of one instruction kind, and an accumulator
    type that kind takes."""
    a_kind, b_kind = _mma_v5_kind(a), _mma_v5_kind(b)
    if a_kind is None:
        raise op.emit_error(f"unsupported LHS operand dtype: {a}")
    if b_kind is None:
        raise op.emit_error(f"unsupported RHS operand dtype: {b}")
    if a_kind[0] != b_kind[0]:
        raise op.emit_error(f"LHS and RHS operand dtypes kinds don't match: LHS kind is "
                            f"{a_kind[0]} but RHS kind is {b_kind[0]}")
    if d not in a_kind[1] or d not in b_kind[1]:
        raise op.emit_error(f"unsupported accumulator dtype for operand types {a} and {b}, "
                            f"accumulator dtype is {d} but must be one of "
                            f"[{', '.join(a_kind[1])}]")


def _verify_mma_barriers(op) -> None:
    if not op.is_async and op.barriers:
        raise op.emit_error("The op is synchronous but a barrier is present.")
    for barrier in op.barriers:
        memdesc = barrier.type
        if str(memdesc.element_type) != "i64" or tuple(memdesc.shape) != (1,):
            raise op.emit_error("barrier allocation must be a descriptor of 1xi64 type")


@rule(gen.TCGen5MMAOp)
def _verify_tc_gen5_mma(self) -> None:
    """Triton's rules: matching operand kinds, rank-2 operands, NVMMA-shared (or tensor-memory
    for A) operands, an accumulator in tensor memory with colStride 32 / bits and instructions
    at most 256 wide, and twoCTAs as the op's."""
    _verify_mma_barriers(self)
    a_type, b_type, d_type = self.a.type, self.b.type, self.d.type
    _verify_mma_types(self, str(a_type.element_type), str(b_type.element_type),
                      str(d_type.element_type))
    for memdesc, name in ((a_type, "LHS operand"), (b_type, "RHS operand"),
                          (d_type, "Return operand")):
        if len(memdesc.shape) != 2:
            raise self.emit_error(f"{name} must have a rank-2 tensor")
    shared = (_ttg.NVMMASharedEncodingAttr, _ttg.SharedLinearEncodingAttr)
    if not isinstance(a_type.encoding, (*shared, gen.TensorMemoryEncodingAttr)):
        raise self.emit_error("LHS operand must have a NVMMAShared or TensorMemory encoding")
    if not isinstance(b_type.encoding, shared):
        raise self.emit_error("RHS operand must have a NVMMAShared encoding")
    accumulator = d_type.encoding
    if not isinstance(accumulator, gen.TensorMemoryEncodingAttr):
        raise self.emit_error("Return operand must have a TensorMemory encoding")
    if isinstance(a_type.encoding, gen.TensorMemoryEncodingAttr) \
            and a_type.encoding.col_stride != 1:
        raise self.emit_error("The col stride of the LHS operand must be 1")
    bits = d_type.element_type.width
    if accumulator.col_stride != 32 // bits:
        raise self.emit_error(f"The col stride of the return operand must be 32 / {bits} but "
                              f"got {accumulator.col_stride}")
    ctas_along_n = 1 << sum(1 for basis in accumulator.cga_layout if basis[1])
    if min(accumulator.block_n, d_type.shape[1] // ctas_along_n) > 256:
        raise self.emit_error("The block size of the return operand must be less than or "
                              "equal to 256")
    if accumulator.two_ct_as != self.two_ctas:
        raise self.emit_error(f"The returned value's encoding must have "
                              f"twoCTA={str(self.two_ctas).lower()} to be used in a "
                              f"{'twoCTA' if self.two_ctas else 'non-twoCTA'} kernel")


@rule(gen.TCGen5MMAScaledOp)
def _verify_tc_gen5_mma_scaled(self) -> None:
    """Triton's rules: the operands' types (integer operands read as their scaled type) of one
    instruction kind, and an accumulator in tensor memory with blockM 128."""
    _verify_mma_barriers(self)
    a, b = (str(v.type.element_type) if not str(v.type.element_type).startswith("i")
            else _SCALED_OPERAND_TYPES[kind.name]
            for v, kind in ((self.a, self.a_type), (self.b, self.b_type)))
    _verify_mma_types(self, a, b, str(self.d.type.element_type))
    accumulator = self.d.type.encoding
    if not isinstance(accumulator, gen.TensorMemoryEncodingAttr):
        raise self.emit_error("expected accumulator layout to be a TensorMemoryLayout")
    if accumulator.block_m != 128:
        raise self.emit_error("only supports instruction shape blockM=128")


@rule(gen.TensormapCreateOp)
def _verify_tensormap_create(self) -> None:
    """A map of rank 1 to 5: as many box sizes, sizes and element strides, one stride fewer."""
    rank = len(self.box_dim)
    if not 1 <= rank <= 5:
        raise self.emit_error(f"a TMA descriptor has rank 1 to 5, got {rank} box sizes")
    if len(self.global_dim) != rank or len(self.element_stride) != rank:
        raise self.emit_error(f"expected {rank} global_dim and element_stride operands as "
                              f"box_dim, got {len(self.global_dim)} and "
                              f"{len(self.element_stride)}")
    if len(self.global_stride) != rank - 1:
        raise self.emit_error(f"expected {rank - 1} global_stride operands (the dimensions "
                              f"after the innermost), got {len(self.global_stride)}")


install_verifiers(gen.DIALECT.ops.values())


# -- which register layouts tensor-memory loads and stores accept --------------------------------
#
# Triton's rule (computeTMemLdStEncodingInfo): the register layout, read through the buffer's
# (row, col) layout, must be a tcgen05.ld/st message tile repeated: after dropping registers
# that repeat data and packing elements narrower than 32 bits into 32-bit columns, one of the
# message shapes (32x32b, 16x256b, 16x64b, 16x128b, or 16x32bx2 with a second half at a
# nonzero offset) has its lanes and warps exactly as the layout's first ones, and its registers
# among the layout's, with the other bases clear of the tile. Only whether such a message
# exists matters here, not how wide the vectors are (which the register limit only shortens).

_TMEM_MESSAGES = ("32x32b", "16x256b", "16x64b", "16x128b")


def _bits(size: int) -> int:
    return size.bit_length() - 1


def _covering_size(coordinates) -> int:
    """The power of two just above the largest of ``coordinates`` (1 when there are none)."""
    return 1 << max((c.bit_length() for c in coordinates), default=0)


def tensor_memory_layout(shape: tuple[int, ...], encoding) -> LinearLayout | None:
    """The (``row``, ``col``) -> (``dim0``, ``dim1``) map of a 2-D buffer of ``shape`` in
    ``#ttng.tensor_memory_encoding`` over one CTA (Triton's tensorMemoryToLinearLayout): a
    blockM x blockN tile, each element ``colStride`` columns wide, repeated along columns over
    the rest of the shape. A blockM = 64 tile fills rows 0-15 of each 32-row quarter, the row-16
    bit taking the next 64 rows, the next blockN columns, or nothing. None for buffers spread
    over CTAs."""
    if encoding.cga_layout or encoding.two_ct_as or len(shape) != 2:
        return None
    m, n = shape
    block_n = min(encoding.block_n, n)
    columns = [(0, 0)] * _bits(encoding.col_stride) + [(0, 1 << i) for i in range(_bits(block_n))]
    if encoding.block_m == 64:
        row16 = (64, 0) if m > 64 else (0, block_n) if n > block_n else (0, 0)
        rows = [(1 << i, 0) for i in range(4)] + [row16, (16, 0), (32, 0)]
    else:
        rows = [(1 << i, 0) for i in range(_bits(encoding.block_m))]
    tile_m = _covering_size(r for r, _ in rows + columns)
    tile_n = _covering_size(c for _, c in rows + columns)
    columns += [(tile_m << i, 0) for i in range(_bits(max(m // tile_m, 1)))]
    columns += [(0, tile_n << i) for i in range(_bits(max(n // tile_n, 1)))]
    return LinearLayout({"row": rows, "col": columns}, {"dim0": m, "dim1": n})


def _message_tile(message: str, unpacked: bool) -> dict[str, list[tuple[int, int]]]:
    """The (``row``, ``col``) bases of one tcgen05.ld/st message over 4 warps: which row or
    32-bit column each register, lane and warp bit moves to (an unpacked register of 16-bit
    elements spans two columns)."""
    c = 2 if unpacked else 1
    rows8 = [(1, 0), (2, 0), (4, 0)]
    tiles = {
        "32x32b": ([], rows8 + [(8, 0), (16, 0)]),
        "16x256b": ([(0, c), (8, 0)], [(0, 2 * c), (0, 4 * c)] + rows8),
        "16x64b": ([], [(8, 0), (0, c)] + rows8),
        "16x128b": ([(8, 0)], [(0, c), (0, 2 * c)] + rows8),
        "16x32bx2": ([], rows8 + [(8, 0)]),
    }
    registers, lanes = tiles[message]
    return {"register": registers, "lane": lanes, "warp": [(32, 0), (64, 0)]}


def _tile_reps(cvt: dict[str, list[tuple[int, int]]],
               tile: dict[str, list[tuple[int, int]]]) -> dict[str, list] | None:
    """``cvt``'s bases with its registers reordered so that ``tile``'s come first (Triton's
    regPermForDivide), when the tile then leads every input (its lanes and warps are ``cvt``'s
    first ones) and the remaining bases are clear of the tile's rows and columns (getReps);
    else None."""
    registers = list(cvt["register"])
    leading = []
    for basis in tile["register"]:
        if basis not in registers:
            return None
        registers.remove(basis)
        leading.append(basis)
    ordered = {**cvt, "register": leading + registers}
    row_mask = col_mask = 0
    for bases in tile.values():
        for row, col in bases:
            row_mask |= row
            col_mask |= col
    for name, bases in ordered.items():
        lead = tile.get(name, [])
        if bases[:len(lead)] != lead:
            return None
        if any(row & row_mask or col & col_mask for row, col in bases[len(lead):]):
            return None
    return ordered


def _divide_columns(cvt: dict[str, list[tuple[int, int]]], registers: list[tuple[int, int]],
                    columns: int) -> dict[str, list[tuple[int, int]]] | None:
    """Triton's divideLeft of ``cvt`` by a factor on the column dimension alone: ``cvt``'s
    first registers are ``registers`` and every other basis is a multiple of ``columns``
    columns; then the rest with columns counted in units of ``columns``, else None."""
    if cvt["register"][:len(registers)] != registers:
        return None
    quotient = {}
    for name, bases in cvt.items():
        rest = bases[len(registers):] if name == "register" else bases
        if any(col % columns for _, col in rest):
            return None
        quotient[name] = [(row, col // columns) for row, col in rest]
    return quotient


def _spread_columns(cvt: dict[str, list[tuple[int, int]]]) -> dict[str, list[tuple[int, int]]]:
    """``cvt`` with every column doubled: 16-bit elements stored unpacked, one per 32-bit
    column pair."""
    return {name: [(row, 2 * col) for row, col in bases] for name, bases in cvt.items()}


def _has_message(cvt: dict[str, list[tuple[int, int]]], bitwidth: int, unpacked: bool) -> bool:
    """Whether a tcgen05 message shape lowers the register -> (row, col) map ``cvt`` of
    ``bitwidth``-bit elements (Triton's lowerTMemLdSt, without choosing the vector width)."""
    cvt = {**cvt, "register": [b for b in cvt["register"] if b != (0, 0)]}
    if bitwidth < 32:
        contiguous, packed = 1, cvt
        while bitwidth * contiguous * 2 <= 32:
            wider = _divide_columns(cvt, [(0, 1 << i) for i in range(_bits(contiguous * 2))],
                                    contiguous * 2)
            if wider is None:
                break
            contiguous, packed = contiguous * 2, wider
        if contiguous > 1:
            return _has_message(packed, bitwidth * contiguous, False)
        unpacked_pairs = _divide_columns(cvt, [(0, 2)], 4) if bitwidth == 16 else None
        if unpacked_pairs is not None:
            return _has_message(_spread_columns(unpacked_pairs), 32, True)
        padded = _divide_columns(cvt, [], 32 // bitwidth)
        if padded is None:
            return False
        if bitwidth == 16:
            padded = _spread_columns(padded)
        return _has_message(padded, 32, bitwidth == 16)
    if any(_tile_reps(cvt, _message_tile(m, unpacked)) is not None for m in _TMEM_MESSAGES):
        return True
    reps = _tile_reps(cvt, _message_tile("16x32bx2", unpacked))
    if reps is None or len(reps["lane"]) < 5:
        return False
    return reps["lane"][4] != (0, 0)  # a second half at offset 0 only pads scale buffers


def tmem_access_compatible(tensor: RankedTensorType, memdesc) -> bool:
    """Whether ``ttng.tmem_load``/``tmem_store`` can move a tensor of type ``tensor`` (its
    layout) from or to the tensor-memory buffer ``memdesc`` (Triton's
    isDistributedLayoutTMemCompatible): warps 1 and 2 hold rows 32 and 64 as the buffer does,
    and a message shape covers the rest (see `_has_message`)."""
    from .ttg_layouts import encoding_layout

    encoding = memdesc.encoding
    shape = tuple(memdesc.shape[-2:])
    if not isinstance(encoding, gen.TensorMemoryEncodingAttr) or tuple(tensor.shape) != shape:
        return False
    memory = tensor_memory_layout(shape, encoding)
    try:
        registers = encoding_layout(tensor.encoding, shape)
    except ValueError:
        return False
    if memory is None or registers is None or registers.in_dim_size("block") > 1 \
            or registers.in_dim_bits("warp") < 2:
        return False
    if registers.bases["warp"][:2] != [memory.basis("row", 5), memory.basis("row", 6)]:
        return False
    try:
        cvt = memory.invert_and_compose(registers)
    except ValueError:
        return False
    names = cvt.out_dim_names
    bases = {name: [(dict(zip(names, b))["row"], dict(zip(names, b))["col"]) for b in vectors]
             for name, vectors in cvt.bases.items() if name in ("register", "lane", "warp")}
    bases["warp"][:2] = [(32, 0), (64, 0)]
    return _has_message(bases, memdesc.element_type.width, False)



# -- the register layouts tensor-memory loads and stores use by default --------------------------
#
# Triton's getDistributedLayoutForTmemLdSt: a tcgen05.ld/st message tile (32x32b by default,
# 16x256b when TRITON_PREFER_TMEM_16x256_LAYOUT is set and the buffer allows it) repeated over
# the buffer's columns in registers, with warps 1 and 2 on rows 32 and 64, the row-16 bit on a
# warp (more than 4 warps) or a register, and the remaining warps along the columns (broadcast
# when there are fewer column groups than warps), read through the buffer's (row, col) map.
# Elements narrower than 32 bits are first packed into 32-bit columns (or padded to them).

PREFER_16X256_ENV = "TRITON_PREFER_TMEM_16x256_LAYOUT"


def tensor_memory_scales_layout(shape: tuple[int, ...]) -> LinearLayout:
    """The (``row``, ``col``) -> (``dim0``, ``dim1``) map of a 2-D buffer of block scales in
    ``#ttng.tensor_memory_scales_encoding`` over one CTA (Triton's
    tensorMemoryScalesToLinearLayout): chunks of 32 rows by 4 columns, broadcast over the
    4 warps' row quarters, two chunks side by side along dim 0, repeated along dim 0 and then
    dim 1 over the columns; coordinates beyond the shape are 0."""
    m, n = shape
    rows = [(1 << i, 0) for i in range(5)] + [(0, 0), (0, 0)]
    columns = [(0, 1), (0, 2), (32, 0)]
    columns += [(64 << i, 0) for i in range(_bits(max(-(-m // 64), 1)))]
    columns += [(0, 4 << i) for i in range(_bits(max(-(-n // 4), 1)))]

    def fit(basis: tuple[int, int]) -> tuple[int, int]:
        return (basis[0] if basis[0] < m else 0, basis[1] if basis[1] < n else 0)

    return LinearLayout({"row": [fit(b) for b in rows], "col": [fit(b) for b in columns]},
                        {"dim0": m, "dim1": n})


def _buffer_layout(memdesc) -> LinearLayout | None:
    shape = tuple(memdesc.shape[-2:])
    if isinstance(memdesc.encoding, gen.TensorMemoryScalesEncodingAttr):
        return None if memdesc.encoding.cga_layout else tensor_memory_scales_layout(shape)
    return tensor_memory_layout(shape, memdesc.encoding)


def _divide_columns_left(memory: LinearLayout, leading: list[int], factor: int
                         ) -> LinearLayout | None:
    """Triton's divideLeft of the buffer map ``memory`` by a map of its first columns alone:
    its first column bits go to ``leading`` (dim-1 coordinates), every other bit to a multiple
    of ``factor`` along dim 1; then the rest with dim 1 counted in units of ``factor``."""
    columns = list(memory.bases["col"])
    if columns[:len(leading)] != [(0, c) for c in leading]:
        return None
    rest = {"row": list(memory.bases["row"]), "col": columns[len(leading):]}
    if any(c % factor for bases in rest.values() for _, c in bases):
        return None
    return LinearLayout({name: [(r, c // factor) for r, c in bases]
                         for name, bases in rest.items()},
                        {"dim0": memory.out_dim_size("dim0"),
                         "dim1": max(memory.out_dim_size("dim1") // factor, 1)})


def _widen_registers(layout: LinearLayout, factor: int) -> LinearLayout:
    """Triton's ``identity1D(factor, register, dim1) * layout``: ``factor`` consecutive
    elements along dim 1 in the first registers."""
    bases = {name: [(r, c * factor) for r, c in vectors]
             for name, vectors in layout.bases.items()}
    bases["register"] = [(0, 1 << i) for i in range(_bits(factor))] + bases["register"]
    return LinearLayout(bases, {"dim0": layout.out_dim_size("dim0"),
                                "dim1": layout.out_dim_size("dim1") * factor})


def _tmem_message_layout(memory: LinearLayout, message: str, num_warps: int,
                         bitwidth: int) -> LinearLayout | None:
    """The register layout of ``message`` over a buffer map ``memory`` of ``bitwidth``-bit
    elements (see the comment above), None when the message does not fit the buffer."""
    if bitwidth != 32:
        contiguous, packed = 1, memory
        while bitwidth * contiguous * 2 <= 32:
            wider = _divide_columns_left(memory, [1 << i for i in range(_bits(contiguous * 2))],
                                         contiguous * 2)
            if wider is None:
                break
            contiguous, packed = contiguous * 2, wider
        if contiguous > 1:
            inner = _tmem_message_layout(packed, message, num_warps, bitwidth * contiguous)
            return None if inner is None else _widen_registers(inner, contiguous)
        pads = [0] * _bits(32 // bitwidth)
        unpacked = _divide_columns_left(memory, [0, 1], 2) if bitwidth == 16 else None
        if unpacked is not None:
            inner = _tmem_message_layout(unpacked, message, num_warps, 32)
            return None if inner is None else _widen_registers(inner, 2)
        padded = _divide_columns_left(memory, pads, 1)
        if padded is not None:
            return _tmem_message_layout(padded, message, num_warps, 32)
        if memory.in_dim_size("col") != 1:
            return None
        return _tmem_message_layout(memory, message, num_warps, 32)
    tile = _message_tile(message, False)
    tile_columns = _covering_size(c for bases in tile.values() for _, c in bases)
    missing = memory.in_dim_size("col") // tile_columns
    if missing == 0:
        return None
    whole_rows = message == "32x32b"
    rows16 = memory.basis("row", 4) == (0, 0)
    lanes = tile["lane"][:4] if whole_rows else tile["lane"]
    images = [memory.apply(row=r, col=c) for r, c in tile["register"] + lanes]
    if not LinearLayout({"in": images}, memory.out_dims).is_injective():
        return None
    row16 = None if whole_rows or rows16 else "warp" if num_warps > 4 else "register"
    warps_to_tile = num_warps // (8 if row16 == "warp" else 4)
    broadcast = warps_to_tile // min(missing, warps_to_tile)
    warps_to_tile //= broadcast
    missing //= warps_to_tile
    bases = {"register": list(tile["register"]), "lane": list(tile["lane"]), "warp": []}
    if missing > 1 and whole_rows and rows16:
        # lanes 16-31 read the other half of the columns (the 16x32bx2 message)
        bases["lane"] = [(r // 2, c) for r, c in bases["lane"][1:]]
        bases["register"] += [(0, tile_columns << i) for i in range(_bits(missing // 2))]
        bases["lane"].append((0, tile_columns * missing // 2))
    elif missing > 1:
        bases["register"] += [(0, tile_columns << i) for i in range(_bits(missing))]
    columns = tile_columns * missing
    bases["warp"] += [(32, 0), (64, 0)]
    if row16 is not None:
        bases[row16].append((16, 0))
    bases["warp"] += [(0, columns << i) for i in range(_bits(warps_to_tile))]
    bases["warp"] += [(0, 0)] * _bits(broadcast)
    images = {name: [memory.apply(row=r, col=c) for r, c in vectors]
              for name, vectors in bases.items()}
    images["block"] = []
    return LinearLayout(images, memory.out_dims)


def default_tmem_layout(memdesc, num_warps: int) -> LinearLayout | None:
    """The register layout that `ttng.tmem_load`/`tmem_store` of the tensor-memory buffer of
    type ``memdesc`` use by default (Triton's getDefaultLayoutForTmemLdSt): the 16x256b message's
    when the environment sets TRITON_PREFER_TMEM_16x256_LAYOUT and it fits, else the 32x32b
    message's; None for buffers spread over CTAs."""
    memory = _buffer_layout(memdesc)
    if memory is None:
        return None
    bitwidth = memdesc.element_type.width
    if os.environ.get(PREFER_16X256_ENV, "").lower() in ("1", "true", "on"):
        layout = _tmem_message_layout(memory, "16x256b", num_warps, bitwidth)
        if layout is not None:
            return layout
    return _tmem_message_layout(memory, "32x32b", num_warps, bitwidth)
