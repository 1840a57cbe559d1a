"""Hooks of the ttg (TritonGPU) dialect: the custom formats that Triton's printer writes by hand,
Triton's verifier rules, and typed readers of the module attributes (``ttg.num-warps``, ...).

Every ttg op gets a `custom_verify` that checks the layouts of its tensors and memory
descriptors against the module (Triton's VerifyTensorLayoutsTrait and VerifyMemDescLayoutsTrait)
and then the op's own rules from `_OWN_RULES`; every ttg attribute gets the
``tensor_layout_error`` hook with which tt and ttg ops check the tensors they encode.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from math import prod

from tilecraft.ir import (
    Block, DenseArrayAttr, DenseElementsAttr, IntegerAttr, Operation, RankedTensorType, Region,
    StringAttr, Type, i1, i32,
)
from tilecraft.ir.lexer import token_loc
from tilecraft.ir.ods import i1_like, implements, parse_int_list, parse_struct
from tilecraft.ir.patterns import RewritePattern
from tilecraft.layouts.distributed import unjoin_registers

from . import generated_module
from .arith import gen as arith_gen
from .tt import gen as _tt
from .tt import (
    _parse_clauses, _print_clauses, inferred_encoding, inferred_mismatch, layouts_equal,
    plain_error, pointee_type, tensor_layout_message, verified_order, verify_layouts,
)
from .ttg_syntax import (
    LEGACY_CTA_FIELDS, bases_rank, format_ints, is_power_of_two,
    parse_bases, parse_cga_layout, permutation_message, print_bases, require_fields,
)
from .ttg_syntax import cga_layout_from_split_params  # noqa: F401 - re-exported for passes

gen = generated_module(__name__, "ttg")

# The hooks of the other ttg attributes attach themselves; imported once ``gen`` exists.
from . import ttg_amd  # noqa: E402,F401 - imported for its hooks
from .ttg_shared import SHARED_ENCODINGS, memdesc_type_message  # noqa: E402

# -- module attributes ---------------------------------------------------------------------------

NUM_WARPS = "ttg.num-warps"
THREADS_PER_WARP = "ttg.threads-per-warp"
NUM_CTAS = "ttg.num-ctas"
TARGET = "ttg.target"


def _module_int(module: Operation, name: str, default: int | None) -> int:
    """The module's integer attribute ``name``, ``default`` when it has none; an error at the
    module when it has none and there is no default, or when it is not an integer."""
    attr = module.attributes.get(name)
    if attr is None:
        if default is None:
            raise module.emit_error(f"has no '{name}' attribute")
        return default
    if not isinstance(attr, IntegerAttr):
        raise module.emit_error(f"has the '{name}' attribute {attr}, which is not an integer")
    return attr.value


def num_warps(module: Operation) -> int:
    """The module's ``ttg.num-warps`` (an error at the module when it has none)."""
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


def context_num_warps(op: Operation) -> int | None:
    """The number of warps ``op`` runs on, as Triton's ``maybeLookupNumWarps`` finds it: the
    ``num_warps`` of the `ttg.warp_specialize` partition holding it, else the
    ``ttg.num-warps`` of the nearest function or module that has one; None without either."""
    while op is not None:
        if op.name in ("builtin.module", "tt.func"):
            attr = op.attributes.get(NUM_WARPS)
            if isinstance(attr, IntegerAttr):
                return attr.value
        else:
            region = op.parent_region
            holder = region.parent if region is not None else None
            if isinstance(holder, gen.WarpSpecializePartitionsOp):
                return holder.parent_op.partition_num_warps[holder.regions.index(region)]
        op = op.parent_op
    return None


# -- layout verifiers (Triton's ``verify`` of each encoding, with its messages) -----------------


def _order_message(order: Sequence[int]) -> str | None:
    if sorted(order) != list(range(len(order))):
        return (f"order must be a permutation of 0..(rank-1), but was "
                f"[{', '.join(map(str, order))}]")
    return None


def layout_rank(layout) -> int | None:
    """The rank of a layout encoding (None for an attribute that is not one)."""
    if isinstance(layout, (gen.BlockedEncodingAttr, gen.SwizzledSharedEncodingAttr)):
        return len(layout.order)
    if isinstance(layout, gen.SliceEncodingAttr):
        parent = layout_rank(layout.parent)
        return None if parent is None else parent - 1
    if isinstance(layout, gen.DotOperandEncodingAttr):
        return layout_rank(layout.parent)
    if isinstance(layout, (gen.NvidiaMmaEncodingAttr, gen.AMDMfmaEncodingAttr)):
        return len(layout.warps_per_cta)
    if isinstance(layout, gen.AMDWmmaEncodingAttr):
        return layout.rank
    if isinstance(layout, gen.LinearEncodingAttr):
        for bases in (layout.register, layout.lane, layout.warp, layout.block):
            if bases:
                return len(bases[0])
        return None
    if isinstance(layout, gen.NVMMASharedEncodingAttr):
        return bases_rank(layout.cga_layout, layout.rank)
    if isinstance(layout, gen.SharedLinearEncodingAttr):
        return bases_rank(layout.offset, 0)
    if isinstance(layout, gen.PaddedSharedEncodingAttr):
        return len(layout.shape)
    if isinstance(layout, gen.PartitionedSharedEncodingAttr):
        return layout_rank(layout.partition_layout)
    return None


def _cga_message(cga: Sequence[Sequence[int]], rank: int, owner: str) -> str | None:
    if cga and len(cga[0]) != rank:
        return owner
    return permutation_message(cga, "the CGA encoding")


@implements(gen.BlockedEncodingAttr)
def verify(self) -> str | None:
    """Equal ranks, power-of-two sizes, a CGA layout of the same rank, an order permutation."""
    ranks = {len(self.size_per_thread), len(self.threads_per_warp), len(self.warps_per_cta),
             len(self.order)}
    if len(ranks) != 1:
        return ("sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same "
                "rank.")
    for name, values in (("sizePerThread", self.size_per_thread),
                         ("threadsPerWarp", self.threads_per_warp),
                         ("warpsPerCTA", self.warps_per_cta)):
        if not all(is_power_of_two(v) for v in values):
            return f"Every element in {name} must be a power of two."
    message = _cga_message(self.cga_layout, len(self.order),
                           "BlockedEncodingAttr and CGALayout's fields must have the same rank.")
    return message or _order_message(self.order)


@implements(gen.SliceEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """The parent has rank 2 or more and the sliced dimension is one of its dimensions."""
    rank = layout_rank(self.parent)
    if rank is None:
        return None
    if rank <= 1:
        return "parent layout must have at least rank >= 2"
    if self.dim >= rank:
        return f"slice dim={self.dim} must be less than the parent rank={rank}"
    return None


@implements(gen.PartitionedSharedEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """A shared partition layout, at least two partitions and a positive number of groups
    (powers of two), and a partition dimension inside the layout's rank."""
    if not isinstance(self.partition_layout, SHARED_ENCODINGS):
        return "partitionLayout must be a SharedEncodingTrait"
    if self.num_partitions < 2 or not is_power_of_two(self.num_partitions):
        return "numPartitions must be a power of 2 and at least 2"
    if self.num_groups < 1 or not is_power_of_two(self.num_groups):
        return "numGroups must be a power of 2 and greater than 0"
    rank = layout_rank(self.partition_layout)
    if rank is not None and self.partition_dim >= rank:
        return (f"partitionDim ({self.partition_dim}) must be less than the layout rank "
                f"({rank})")
    return None


@implements(gen.DotOperandEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """opIdx is 0 or 1; kWidth is given exactly for Ampere and Hopper MMA parents, and a
    Hopper parent takes only operand A in registers; AMD parents take the kWidths of their
    instructions."""
    if self.op_idx not in (0, 1):
        return f"ttg.dot_op opIdx parameter can be 0 or 1, got: {self.op_idx}"
    parent = self.parent
    if isinstance(parent, gen.NvidiaMmaEncodingAttr):
        ampere_or_hopper = parent.version_major in (2, 3)
        if self.k_width != 0 and not ampere_or_hopper:
            return ("ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA "
                    "parent")
        if self.k_width == 0 and ampere_or_hopper:
            return "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent"
        if self.op_idx != 0 and parent.version_major == 3:
            return ("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper "
                    "WGMMA only allows first operand to be in registers")
        return None
    if isinstance(parent, gen.AMDWmmaEncodingAttr):
        if parent.version == 1 and self.k_width not in (8, 16):
            return ("ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed "
                    "cases for `scaled_dot`)")
        if parent.version == 2 and self.k_width not in (4, 8, 16):
            return ("ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed "
                    "cases for `scaled_dot`)")
        if parent.version == 3 and self.k_width == 0:
            return "ttg.dot_op kWidth parameter is mandatory for WMMA v3 "
        return None
    if isinstance(parent, gen.AMDMfmaEncodingAttr):
        if self.k_width == 0:
            return "ttg.dot_op kWidth parameter is mandatory for MFMA parent"
        return None
    if isinstance(parent, gen.BlockedEncodingAttr):
        if self.k_width != 0:
            return ("ttg.dot_op kWidth parameter is not supported when the parent is a blocked "
                    "layout")
        return None
    return None


@implements(gen.NvidiaMmaEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """The CGA layout has the layout's rank and is a permutation."""
    return _cga_message(self.cga_layout, len(self.warps_per_cta),
                        "NvidiaMmaEncodingAttr and CGALayout's fields must have the same rank.")


@implements(gen.LinearEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """Without its zero bases, the map from (register, lane, warp, block) is a permutation."""
    bases = [*self.register, *self.lane, *self.warp, *self.block]
    if len({len(b) for b in bases}) > 1:
        return "Expected all bases to have the same rank"
    return permutation_message(bases, "the layout")


@implements(gen.SwizzledSharedEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """vec, perPhase and maxPhase are powers of two (the swizzle's arithmetic needs them; a 0
    escaped as a ValueError from the passes that lay buffers out), the CGA layout has the
    order's rank, and the order is a permutation."""
    for name, value in (("vec", self.vec), ("perPhase", self.per_phase),
                        ("maxPhase", self.max_phase)):
        if not is_power_of_two(value):
            return f"{name} must be a power of two, not {value}"
    rank = bases_rank(self.cga_layout, len(self.order))
    if rank != len(self.order):
        return f"order size ({len(self.order)}) must match CGALayout rank ({rank})"
    return permutation_message(self.cga_layout, "the CGA encoding") or _order_message(
        self.order)


# -- layouts against the module (Triton's TritonGPUVerifyTensorLayoutInterface) -----------------

_DISTRIBUTED = (gen.BlockedEncodingAttr, gen.SliceEncodingAttr, gen.DotOperandEncodingAttr,
                gen.NvidiaMmaEncodingAttr, gen.AMDMfmaEncodingAttr, gen.AMDWmmaEncodingAttr,
                gen.LinearEncodingAttr)


def enclosing_module(op: Operation) -> Operation | None:
    """The nearest ``builtin.module`` holding ``op`` (``op`` itself when it is one)."""
    while op is not None and op.name != "builtin.module":
        op = op.parent_op
    return op


def layout_num_ctas(layout) -> int:
    """The CTAs a layout spreads over (Triton's ``getNumCTAs``): 2 to the number of its block
    bases (``CGALayout``, or ``block`` for linear layouts); a slice or dot operand has its
    parent's."""
    if isinstance(layout, (gen.SliceEncodingAttr, gen.DotOperandEncodingAttr)):
        return layout_num_ctas(layout.parent)
    if isinstance(layout, gen.PartitionedSharedEncodingAttr):
        return layout_num_ctas(layout.partition_layout)
    if isinstance(layout, (gen.LinearEncodingAttr, gen.SharedLinearEncodingAttr,
                           gen.PaddedSharedEncodingAttr)):
        return 1 << len(layout.block)
    return 1 << len(layout.cga_layout)


def warps_and_lanes(layout) -> tuple[int, int]:
    """The warps per CTA and threads per warp of a distributed layout: the sizes of the
    ``warp`` and ``lane`` inputs of its linear layout (`ttg_layouts.encoding_layout`), which do
    not depend on the shape, read off the parameters (a slice or dot operand has its
    parent's; NVIDIA mma and AMD wmma layouts use 32 lanes, AMD mfma ones 64)."""
    if isinstance(layout, (gen.SliceEncodingAttr, gen.DotOperandEncodingAttr)):
        return warps_and_lanes(layout.parent)
    if isinstance(layout, gen.BlockedEncodingAttr):
        return prod(layout.warps_per_cta), prod(layout.threads_per_warp)
    if isinstance(layout, gen.NvidiaMmaEncodingAttr):
        return prod(layout.warps_per_cta), 32
    if isinstance(layout, gen.AMDMfmaEncodingAttr):
        return prod(layout.warps_per_cta), 64
    if isinstance(layout, gen.AMDWmmaEncodingAttr):
        return 1 << len(layout.cta_warp), 32
    return 1 << len(layout.warp), 1 << len(layout.lane)


def _module_ctas_message(op: Operation, layout) -> str | None:
    """Triton's ``verifyCTAs``: the layout's CTAs are the module's ``ttg.num-ctas``."""
    module = enclosing_module(op)
    expected = 1 if module is None else num_ctas(module)
    ctas = layout_num_ctas(layout)
    if ctas != expected:
        return (f"{layout}.\nLayout has {ctas} CTAs per CGA, but the context requires "
                f"{expected} CTAs per CGA.")
    return None


def tensor_layout_error(layout, op: Operation, tensor: RankedTensorType) -> str | None:
    """The hook of every ttg attribute that `tt.tensor_layout_message` calls on a tensor's
    encoding: Triton's ``verifyTensorLayout`` of ``layout`` on a tensor of ``op``, its checks in
    its order: the layout's rank is the tensor's, its CTAs are the module's ``ttg.num-ctas``,
    it is distributed, the shape is made of powers of two, and its threads per warp and warps
    per CTA are the module's ``ttg.threads-per-warp`` and the context's number of warps
    (`context_num_warps`). Outside a module the module attributes take their defaults."""
    rank = layout_rank(layout)
    if rank is not None:
        if rank != tensor.rank:
            return (f"Layout has rank {rank}, but the tensor it's attached to has rank "
                    f"{tensor.rank}.")
        message = _module_ctas_message(op, layout)
        if message is not None:
            return message
    if not isinstance(layout, _DISTRIBUTED):
        return "Non-distributed layout is not allowed in tensor type."
    if not all(is_power_of_two(d) for d in tensor.shape):
        shape = ", ".join(map(str, tensor.shape))
        return (f"Layout has shape {shape}, but the tensor it's attached to has shape {shape} "
                f"which is not a power of two.")
    warps, lanes = warps_and_lanes(layout)
    module = enclosing_module(op)
    module_lanes = 32 if module is None else threads_per_warp(module)
    if lanes != module_lanes:
        return (f"{layout}.\nLayout has {lanes} threads per warp, but the module specifies "
                f"{module_lanes} threads per warp.")
    context_warps = context_num_warps(op)
    if context_warps is None:
        return ("Could not determine the number of warps per CTA. Operation is not in a "
                "context with `ttg.num-warps`.")
    if warps != context_warps:
        return (f"{layout}.\nLayout has {warps} warps per CTA, but the context requires "
                f"{context_warps} warps per CTA.")
    return None


def _linear_out_sizes(bases) -> tuple[int, ...]:
    """The output sizes of a linear layout given by its bases: each dimension the power of two
    just above its largest coordinate."""
    return tuple(1 << max(b[d] for b in bases).bit_length() for d in range(len(bases[0])))


def memdesc_layout_message(op: Operation, type_: Type) -> str | None:
    """Triton's ``verifyMemDescLayout`` of a memory descriptor of ``op`` (None for other types
    and when nothing is wrong): its layout's rank is the descriptor's or one less (a multibuffer),
    its CTAs are the module's, and a ``#ttg.shared_linear`` layout covers the trailing
    dimensions of the allocation."""
    if not isinstance(type_, gen.MemDescType):
        return None
    layout = type_.encoding
    rank = layout_rank(layout)
    if rank is None:
        return None
    memdesc_rank = len(type_.shape)
    if memdesc_rank not in (rank, rank + 1):
        return (f"Layout has rank {rank}, but the memdesc it's attached to has rank "
                f"{memdesc_rank}. Memdesc rank must equal the layout rank or be exactly one "
                f"greater for multibuffering.")
    message = _module_ctas_message(op, layout)
    if message is not None:
        return message
    if isinstance(layout, gen.SharedLinearEncodingAttr) and rank:
        shape = tuple(alloc_shape(type_)[-rank:])
        layout_shape = _linear_out_sizes([*layout.offset, *layout.block])
        if shape != layout_shape:
            return (f"{layout}.\nLayout has shape {', '.join(map(str, layout_shape))}, but the "
                    f"memdesc type has shape {', '.join(map(str, shape))}.")
    return None


# -- #ttg.nvidia_mma -----------------------------------------------------------------------------


@implements(gen.NvidiaMmaEncodingAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [..], instrShape = [..]}>``, with
    ``CGALayout`` before ``instrShape`` when it is not trivial."""
    printer.write(f"<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
                  f"warpsPerCTA = {format_ints(self.warps_per_cta)}")
    if self.cga_layout:
        printer.write(", CGALayout = ")
        print_bases(printer, self.cga_layout)
    printer.write(f", instrShape = {format_ints(self.instr_shape)}}}>")


@implements(gen.NvidiaMmaEncodingAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """Read Triton's fields in any order; ``versionMinor`` defaults to 0."""
    parser.parse_punct("<")
    start = parser.i
    fields = {"versionMajor": parser.parse_integer, "versionMinor": parser.parse_integer,
              "warpsPerCTA": lambda: parse_int_list(parser),
              "CGALayout": lambda: parse_bases(parser),
              "instrShape": lambda: parse_int_list(parser)}
    fields.update({name: (lambda: parse_int_list(parser)) for name in LEGACY_CTA_FIELDS})
    values = parse_struct(parser, fields)
    parser.parse_punct(">")
    require_fields(parser, values, ("versionMajor", "warpsPerCTA", "instrShape"), start)
    result = cls(version_major=values["versionMajor"],
                 version_minor=values.get("versionMinor", 0), warps_per_cta=values["warpsPerCTA"],
                 instr_shape=values["instrShape"], cga_layout=parse_cga_layout(parser, values, start))
    message = result.verify()
    if message is not None:
        parser.error(message, start)
    return result


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
    message = memdesc_type_message(shape, alloc_shape or shape, encoding, layout_rank(encoding))
    if message is not None:
        parser.error(message, token)
    return cls(shape, element_type, encoding, memory_space, mutable,
               () if alloc_shape == shape else alloc_shape)


def alloc_shape(memdesc) -> tuple[int, ...]:
    """The shape of the allocation a memory descriptor views (its own shape when it views the
    whole allocation)."""
    return memdesc.alloc_shape or memdesc.shape


# -- the verifier of every ttg op -----------------------------------------------------------------

# The op-specific rules of ttg and ttng ops, run by their `custom_verify` after the layout
# checks.
_OWN_RULES: dict[type, Callable[[Operation], None]] = {}


def rule(cls: type) -> Callable:
    """Register the op-specific verifier of ``cls``."""

    def register(function: Callable[[Operation], None]) -> Callable[[Operation], None]:
        _OWN_RULES[cls] = function
        return function

    return register


# -- ops -----------------------------------------------------------------------------------------


def _memory_op_types(op, src, dst) -> None:
    """Triton's ``verifyMemoryOpTypes`` between the value copied from (``src``) and the one
    copied to (``dst``), a tensor and a buffer: their element types and shapes match (Triton
    writes the whole source type, and the shapes without their brackets)."""
    if src.element_type != dst.element_type:
        raise op.emit_error(f"source element type {src} must match destination element type "
                            f"{dst.element_type}")
    if tuple(src.shape) != tuple(dst.shape):
        raise op.emit_error(f"source shape [{', '.join(map(str, src.shape))}] must match "
                            f"[destination shape {', '.join(map(str, dst.shape))}]")


def _shared_memory_rank(op, tensor, memdesc, name: str) -> None:
    """Triton's ``verifySharedMemoryRank``: the buffer has a layout of the tensor's rank."""
    if memdesc.encoding is None:
        raise op.emit_error("expected memdesc to have a shared memory encoding")
    rank = layout_rank(memdesc.encoding)
    if rank is not None and rank != tensor.rank:
        raise op.emit_error(f"{name} has rank {tensor.rank} but memdesc encoding has rank {rank}")


@rule(gen.LocalAllocOp)
def _verify_local_alloc(self) -> None:
    """A buffer in shared memory, of the initializer's rank, viewing its whole allocation;
    mutable without an initializer, of its element type and shape with one."""
    result = self.result.type
    if not isinstance(result.memory_space, gen.SharedMemorySpaceAttr):
        raise self.emit_error("should create a buffer of shared memory")
    if self.src is not None:
        _shared_memory_rank(self, self.src.type, result, "source")
    if tuple(result.shape) != alloc_shape(result):
        raise self.emit_error("result shape and its alloc shape must match")
    if self.src is None:
        if not result.mutable_memory:
            raise self.emit_error("uninitialized alloc must have a mutable memdesc type")
        return
    _memory_op_types(self, self.src.type, result)


@rule(gen.LocalLoadOp)
def _verify_local_load(self) -> None:
    """The result has the buffer layout's rank, the buffer's element type and shape."""
    _shared_memory_rank(self, self.result.type, self.src.type, "result")
    _memory_op_types(self, self.src.type, self.result.type)


@rule(gen.LocalStoreOp)
def _verify_local_store(self) -> None:
    """The destination is mutable, has a layout of the stored tensor's rank, its element type
    and shape."""
    if not self.dst.type.mutable_memory:
        raise self.emit_error("Cannot store into immutable memory")
    _shared_memory_rank(self, self.src.type, self.dst.type, "source")
    _memory_op_types(self, self.src.type, self.dst.type)


@rule(gen.MemDescIndexOp)
def _verify_mem_desc_index(self) -> None:
    """Triton's rules (its messages, without the op's name): the result is one whole buffer of
    a whole allocation, in the source's layout, its shape the source's without the leading
    dimension; a tensor-memory buffer is indexed from 3D to 2D only."""
    src, result = self.src.type, self.result.type
    if src.element_type != result.element_type:
        raise plain_error(self, "result element type must match desc element type")
    if src.encoding != result.encoding:
        raise plain_error(self, "src and result must have the same encoding")
    if len(src.shape) != len(result.shape) + 1:
        raise plain_error(self, "result rank must be input rank - 1")
    if len(alloc_shape(src)) != len(src.shape):
        raise plain_error(self, "We don't allow taking memdesc_index of a memdesc_index")
    if tuple(src.shape[1:]) != tuple(result.shape):
        raise plain_error(self, "result shape must equal to srcShape[1:]")
    if alloc_shape(src) != tuple(src.shape):
        raise plain_error(self, "We don't support memdesc_index of a subview")
    if alloc_shape(result) != tuple(result.shape):
        raise plain_error(self, "alloc shape must match shape for both result and src")
    from tilecraft.generated.ttng import TensorMemoryEncodingAttr

    if (isinstance(src.encoding, TensorMemoryEncodingAttr)
            and (len(src.shape), len(result.shape)) != (3, 2)):
        raise plain_error(self, "only 3D -> 2D subviews are supported for "
                                "TensorMemoryEncodingAttr")


@rule(gen.MemDescSubsliceOp)
def _verify_mem_desc_subslice(self) -> None:
    """Triton's rules (its messages, without the op's name): the result has the source's
    element type, layout and rank, one offset per dimension; the dimensions that shrink are
    split at multiples of the result's size, the others not offset; and the split moves along
    whole tiles of the layout: not along its swizzling pattern nor across CTAs (nor with CTAs
    that hold copies)."""
    src, result = self.src.type, self.result.type
    offsets = self.offsets
    if src.element_type != result.element_type:
        raise plain_error(self, "result element type must match desc element type")
    if src.encoding != result.encoding:
        raise plain_error(self, "src and result must have the same encoding")
    if len(offsets) != len(src.shape):
        raise plain_error(self, "offsets must have the same rank as input")
    if len(result.shape) != len(src.shape):
        raise plain_error(self, "result rank must equal to input rank")
    split = [d for d, (a, b) in enumerate(zip(src.shape, result.shape)) if a != b]
    if not split:
        return
    for dim, offset in enumerate(offsets):
        if dim not in split:
            if offset != 0:
                raise plain_error(self, "A non zero offset found in a dimension that is not being "
                                      "split")
        elif offset & (result.shape[dim] - 1):
            raise plain_error(self, "The split offset may not touch the tile")
        elif not 0 <= offset < src.shape[dim]:
            raise plain_error(self, "The split offset may not exceed the source shape")
    encoding = src.encoding
    if (isinstance(encoding, gen.PaddedSharedEncodingAttr)
            and len(encoding.shape) < len(src.shape)):
        raise plain_error(self, "SubSlice of low rank PaddedSharedEncoding from higher rank "
                              "tensors is not supported yet")
    _check_split_along_tiles(self, split)


def _check_split_along_tiles(op, split: Sequence[int]) -> None:
    """The layout part of the subslice rules, for the shared layouts that have a map."""
    from .ttg_layouts import shared_layout

    src, result = op.src.type, op.result.type
    try:
        layout = shared_layout(src.encoding, tuple(alloc_shape(src)[-len(src.shape):]))
    except ValueError as error:  # a shape the layout cannot map (not a power of two)
        raise plain_error(op, f"the source's shared layout has no map: {error}") from None
    if layout is None:
        return
    if layout.free_variable_masks().get("block", 0):
        raise plain_error(op, "We don't support splitting with broadcasted CTA outputs")
    if not layout.is_invertible():
        return
    inverse = layout.invert()
    in_dims = inverse.out_dim_names
    for dim in split:
        size = result.shape[dim]
        while size < src.shape[dim]:
            owner = dict(zip(in_dims, inverse.apply(**{f"dim{dim}": size})))
            if owner.get("offset", 0) and not is_power_of_two(owner["offset"]):
                raise plain_error(op, "We don't support splitting along the swizzling pattern")
            if owner.get("block", 0):
                raise plain_error(op, "We don't support splitting along CTA dimensions")
            size *= 2


@implements(gen.MemDescSubsliceOp)
@classmethod
def parse(cls, parser):
    """``%src[o0, o1] {attrs} : src-type -> result-type``."""
    src = parser.parse_operand()
    token = parser.i
    offsets = parse_int_list(parser)
    if not all(-2**31 <= offset < 2**31 for offset in offsets):
        parser.error(f"offsets {list(offsets)} do not fit in 32 bits", token)
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


@rule(gen.MemDescReshapeOp)
def _verify_mem_desc_reshape(self) -> None:
    """Triton's rules (its messages, without the op's name): the view keeps the number and
    type of the elements, and reshapes a whole allocation (not a subslice of one)."""
    src, result = self.src.type, self.result.type
    if prod(src.shape) != prod(result.shape):
        raise plain_error(self, "number of src and dst elements of reshape must be the same")
    if src.element_type != result.element_type:
        raise plain_error(self, "result element type must match src element type")
    if alloc_shape(src)[-len(src.shape):] != tuple(src.shape):
        raise plain_error(self, "NYI: memdesc_reshape of memdesc_subslice")


@rule(gen.MemDescTransOp)
def _verify_mem_desc_trans(self) -> None:
    """Triton's inference (InferMemDescTypeOpWithLayoutEquivalence): the source's shape and
    the last dimensions of its allocation shape permuted by ``order``, the element type,
    memory space and mutability kept, in the transposed layout or one laid out the same."""
    src, result = self.src.type, self.result.type
    order = verified_order(self, len(src.shape))
    encoding = inferred_encoding(self, src.encoding, result.encoding, "infer_trans_encoding",
                                 src.shape, order)
    shape = tuple(src.shape[i] for i in order)
    whole = alloc_shape(src)
    kept = len(whole) - len(order)
    allocation = (*whole[:kept], *(whole[kept:][i] for i in order))
    inferred = gen.MemDescType(shape, src.element_type, encoding, src.memory_space,
                               src.mutable_memory, () if allocation == shape else allocation)
    if (result.shape, alloc_shape(result), result.element_type, result.memory_space,
            result.mutable_memory) != (shape, allocation, src.element_type, src.memory_space,
                                       src.mutable_memory) \
            or not layouts_equal(shape, encoding, result.encoding):
        raise inferred_mismatch(self, [inferred], [result])


@rule(gen.Fp4ToFpOp)
def _verify_fp4_to_fp(self) -> None:
    """Triton's rules (and its messages, without the op's name): a bf16 or f16 result twice as
    long as the source along ``axis`` and equal elsewhere, and layouts on both or neither, the
    source's being the result's with each register pair along ``axis`` merged into one
    element."""
    src, result, axis = self.src.type, self.result.type, self.axis
    if str(result.element_type) not in ("bf16", "f16"):
        raise plain_error(self, f"only bf16 or f16 is supported for now, got "
                                f"{result.element_type}")
    if src.rank != result.rank:
        raise plain_error(self, f"source rank {src.rank} != result rank {result.rank}")
    if not 0 <= axis < src.rank:
        raise plain_error(self, f"axis {axis} out of range for rank {src.rank}")
    for dim, (have, want) in enumerate(zip(src.shape, result.shape)):
        if dim == axis and want != 2 * have:
            raise plain_error(self, f"axis {axis} dimension must be 2x source dimension "
                                    f"(src={have}, dst={want})")
        if dim != axis and want != have:
            raise plain_error(self, f"dimension {dim} mismatch (src={have}, dst={want}, "
                                    f"axis={axis})")
    if (src.encoding is None) != (result.encoding is None):
        raise plain_error(self, "source and result must both have an encoding, or neither")
    src_map, result_map = _layout_map(src), _layout_map(result)
    if src_map is None or result_map is None:
        return
    expected = unjoin_registers(result_map, axis)
    if expected is None:
        raise plain_error(self, "failed to infer encoding")
    if expected != src_map:
        raise plain_error(self, "Src and Dst encodings are not compatible:\n"
                                f"{expected}\n{src_map}")


@rule(gen.AsyncCopyGlobalToLocalOp)
def _verify_async_copy_global_to_local(self) -> None:
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
    # MLIR also reads the type with its name (``!ttg.memdesc<...>``), as Triton's tests write it
    dst_type = parser.parse_optional_type() or gen.MemDescType.parse_parameters(parser)
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


# -- ttg.warp_specialize -------------------------------------------------------------------------


def partition_op(op) -> Operation:
    """The `ttg.warp_specialize.partitions` op holding the partition regions of ``op``."""
    return op.partition_op_holder.blocks[0].first_op


@implements(gen.WarpSpecializeOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``(captures) [attributes {..}] default {..} [partitionN(%a: t, ..) num_warps(n) {..}]*
    : (capture types) -> results``, as Triton's parser reads it."""
    operand_token = parser.i
    parser.parse_punct("(")
    captures = parser.parse_operand_list()
    parser.parse_punct(")")
    attrs = parser.parse_optional_attr_dict_with_keyword()
    parser.parse_keyword("default")
    default = parser.parse_region()
    holder_location = token_loc(parser.source, parser.i)
    num_warps_list: list[int] = []
    partitions: list = []
    while parser.parse_optional_keyword(f"partition{len(num_warps_list)}"):
        parser.parse_punct("(")
        arguments = []
        if not parser.parse_optional_punct(")"):
            arguments.append(parser.parse_argument())
            while parser.parse_optional_punct(","):
                arguments.append(parser.parse_argument())
            parser.parse_punct(")")
        parser.parse_keyword("num_warps")
        parser.parse_punct("(")
        num_warps_list.append(parser.parse_integer(32))
        parser.parse_punct(")")
        # The partition regions belong to the isolated partitions op: parse them isolated.
        parser._op_stack.append(gen.WarpSpecializePartitionsOp)
        try:
            partitions.append(parser.parse_region(arguments))
        finally:
            parser._op_stack.pop()
    parser.parse_punct(":")
    inputs, results = parser.parse_functional_type()
    if len(inputs) != len(captures):
        parser.error(f"{len(captures)} operands present, but expected {len(inputs)}",
                     operand_token)
    operands = [parser.resolve_operand(u, t) for u, t in zip(captures, inputs)]
    holder = Operation.create(gen.WarpSpecializePartitionsOp.OPERATION_NAME, operands=operands,
                              regions=partitions, location=holder_location)
    attrs["partitionNumWarps"] = DenseArrayAttr(i32, num_warps_list)
    properties, attributes = cls.split_attributes(attrs)
    holder_region = Region()
    holder_region.add_block(Block())
    holder_region.blocks[0].append(holder)
    return cls.create(cls.OPERATION_NAME, result_types=results, properties=properties,
                      attributes=attributes, regions=[default, holder_region])


@implements(gen.WarpSpecializeOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    partitions = partition_op(self)
    printer.write("(")
    printer.print_operands(partitions.operands)
    printer.write(")")
    printer.print_attr_dict_with_keyword(self.all_attributes(), ("partitionNumWarps",))
    newline = "\n" + printer._indent
    printer.write(newline + "default ")
    printer.print_region(self.default_region, print_entry_block_args=False)
    for number, (region, warps) in enumerate(zip(partitions.regions, self.partition_num_warps)):
        printer.write(f"{newline}partition{number}(")
        for index, argument in enumerate(region.blocks[0].arguments):
            if index:
                printer.write(", ")
            printer.print_argument(argument)
        printer.write(f") num_warps({warps}) ")
        printer.print_region(region, print_entry_block_args=False)
    printer.write(" : ")
    printer.print_functional_type([v.type for v in partitions.operands],
                                  [r.type for r in self.results])


@rule(gen.WarpSpecializeOp)
def _verify_warp_specialize(self) -> None:
    """Triton's rules: the partitions op is there, one power-of-two warp count per partition,
    as many start ids as partitions, no nesting, and num_warps a multiple of 4."""
    holder = self.partition_op_holder.blocks[0].first_op
    if not isinstance(holder, gen.WarpSpecializePartitionsOp):
        raise self.emit_error("expected to find only a `ttg.warp_specialize.partitions` op "
                              "inside its second region")
    counts = self.partition_num_warps
    if len(holder.regions) != len(counts):
        raise self.emit_error(f"has {len(holder.regions)} partitions but `partitionNumWarps` "
                              f"has {len(counts)} elements")
    for number, count in enumerate(counts):
        if count <= 0 or count & (count - 1):
            raise self.emit_error(f"partition #{number} number of warps ({count}) must be a "
                                  "power of 2")
    start_ids = self.warp_group_start_ids
    if start_ids is not None and len(start_ids) != len(counts):
        raise self.emit_error(f"has {len(start_ids)} warp group start IDs but expected "
                              f"{len(counts)}")
    parent = self.parent_op
    while parent is not None:
        if isinstance(parent, gen.WarpSpecializeOp):
            raise self.emit_error("cannot be nested inside another `ttg.warp_specialize` op")
        parent = parent.parent_op
    warps = context_num_warps(self)
    if warps is not None and warps % 4:
        raise plain_error(self, "warp-specialized kernels requires num_warps to be a multiple "
                                "of 4")


@rule(gen.WarpSpecializePartitionsOp)
def _verify_warp_specialize_partitions(self) -> None:
    """Each partition region takes the captures as its arguments."""
    capture_types = [v.type for v in self.operands]
    for number, region in enumerate(self.regions):
        arguments = region.blocks[0].arguments if region.blocks else ()
        if len(arguments) != len(capture_types):
            raise self.emit_error(f"partition region #{number} has {len(arguments)} arguments "
                                  f"but expected {len(capture_types)}")
        for index, (argument, capture) in enumerate(zip(arguments, capture_types)):
            if argument.type is not capture:
                raise self.emit_error(f"partition region #{number} argument #{index} has type "
                                      f"'{argument.type}' but corresponding capture has type "
                                      f"'{capture}'")


@rule(gen.WarpYieldOp)
def _verify_warp_yield(self) -> None:
    """The yielded values match the results of the `ttg.warp_specialize`."""
    expected = [r.type for r in self.parent_op.results]
    if len(self.operands) != len(expected):
        raise self.emit_error(f"has {len(self.operands)} operands but parent op expected "
                              f"{len(expected)}")
    for index, (value, type_) in enumerate(zip(self.operands, expected)):
        if value.type is not type_:
            raise self.emit_error(f"operand #{index} has type '{value.type}' but parent op "
                                  f"expected '{type_}'")


class WarpSpecializeUnusedResults(RewritePattern):
    """Drop the results of a `ttg.warp_specialize` that nothing uses (and the values its default
    region yields for them), as Triton's ``WarpSpecializeOp::canonicalize`` does.

    Not a `Pat`: the new op has fewer (variadic) results and takes over both regions, whose yields
    change.
    """

    ROOT = "ttg.warp_specialize"

    def match_and_rewrite(self, op, rewriter) -> bool:
        keep = [i for i, result in enumerate(op.results) if not result.use_empty()]
        if len(keep) == op.num_results:
            return False
        for block in op.default_region.blocks:
            terminator = block.last_op
            if isinstance(terminator, gen.WarpYieldOp):
                values = [terminator.operands[i] for i in keep]
                rewriter.modify_op_in_place(terminator, lambda t=terminator, v=values:
                                           t.set_operands(v))
        new = Operation.create(op.name, result_types=[op.results[i].type for i in keep],
                               properties=dict(op.properties), attributes=dict(op.attributes),
                               regions=2, location=op.location)
        for old_region, new_region in zip(op.regions, new.regions):
            for block in list(old_region.blocks):
                old_region.blocks.remove(block)
                block.parent = None
                new_region.add_block(block)
        rewriter.set_insertion_point(op)
        rewriter.insert(new)
        values: list = [None] * op.num_results
        for index, result in zip(keep, new.results):
            values[index] = result
        rewriter.replace_op(op, values)
        return True


class PartitionsUnusedCaptures(RewritePattern):
    """Drop the captures that no partition region uses, and fold duplicate captures into their
    first occurrence, as Triton's ``WarpSpecializePartitionsOp::canonicalize`` does.

    Not a `Pat`: it erases region arguments and rewrites their uses inside the partition regions.
    """

    ROOT = "ttg.warp_specialize.partitions"

    def match_and_rewrite(self, op, rewriter) -> bool:
        blocks = [region.blocks[0] for region in op.regions]
        first: dict = {}
        drop: list[int] = []
        for index, capture in enumerate(op.operands):
            if all(block.arguments[index].use_empty() for block in blocks):
                drop.append(index)
                continue
            original = first.setdefault(capture, index)
            if original != index:
                for block in blocks:
                    rewriter.replace_all_uses_with(block.arguments[index],
                                                   block.arguments[original])
                drop.append(index)
        if not drop:
            return False

        def erase() -> None:
            for block in blocks:
                for index in reversed(drop):
                    block.erase_argument(index)
            op.set_operands([v for i, v in enumerate(op.operands) if i not in drop])

        rewriter.modify_op_in_place(op, erase)
        return True


# -- convert_layout canonicalization (Triton's CanonicalizeConvertFrom* patterns) ---------------

def _layout_map(type_: RankedTensorType):
    """The linear layout of a tensor type's encoding over its shape (None when unmapped)."""
    from .ttg_layouts import encoding_layout

    return encoding_layout(type_.encoding, tuple(type_.shape))


def _same_layout(src: RankedTensorType, dst: RankedTensorType) -> bool:
    """Whether two encodings of one shape are the same map (Triton's ``isConvertTrivial``,
    ``verifyLayoutsAreEqual``): then a conversion between them moves nothing."""
    if src.encoding is dst.encoding:
        return True
    if layout_num_ctas(src.encoding) != 1 or layout_num_ctas(dst.encoding) != 1:
        return False
    src_map, dst_map = _layout_map(src), _layout_map(dst)
    return src_map is not None and src_map == dst_map


def _registers(type_: RankedTensorType) -> int | None:
    """The elements each thread holds of a tensor (Triton's ``getTotalElemsPerThread``)."""
    layout = _layout_map(type_)
    return None if layout is None else layout.in_dim_size("register")


def is_expensive_view(src: RankedTensorType, dst: RankedTensorType) -> bool:
    """Triton's ``isExpensiveView``: a reshape from ``src`` to ``dst`` must move data across
    threads when the layouts replicate differently (other free bits of the register, lane and
    warp inputs) or hold a different number of elements per thread. Layouts without a map
    count as expensive."""
    src_map, dst_map = _layout_map(src), _layout_map(dst)
    if src_map is None or dst_map is None:
        return True
    src_free, dst_free = src_map.free_variable_masks(), dst_map.free_variable_masks()
    if any(src_free.get(d, 0) != dst_free.get(d, 0) for d in {*src_free, *dst_free}):
        return True
    return src_map.in_dim_size("register") != dst_map.in_dim_size("register")


def _has_dot_operand(type_) -> bool:
    return isinstance(getattr(type_, "encoding", None), gen.DotOperandEncodingAttr)


class ConvertFromProducer(RewritePattern):
    """``convert_layout`` of an op that can produce the target layout itself (Triton's
    CanonicalizeConvertFromConvert):

    - to its own type -> its source;
    - of a ``convert_layout`` -> one conversion from the first source;
    - of ``tt.reshape`` -> the reshape with the target layout (only a reordering reshape
      without ``efficient_layout``, not an expensive view, no dot operand layout around it);
    - of ``tt.histogram`` -> the histogram with the target layout;
    - of ``ttg.local_load`` -> the load in the target layout, where the load was;
    - of ``tt.cat`` -> the cat in the target layout, unless that holds fewer elements per
      thread (Triton's ``isExpensiveCat``);
    - of ``tt.splat``, ``tt.make_range`` or a splat ``arith.constant`` -> that op in the target
      layout.

    Conversions from an NVIDIA mma layout to a dot operand stay (Triton's fused-attention
    heuristic).

    Not a `Pat` (kept as Triton's one CanonicalizeConvertFromConvert): the reshape and cat
    cases compute layout maps (expensive views, registers per thread) with the ttg hooks, and
    the local_load case inserts the new load where the old one was, not at the conversion.
    """

    ROOT = "ttg.convert_layout"

    def match_and_rewrite(self, op, rewriter) -> bool:
        src_type, dst_type = op.src.type, op.result_.type
        if src_type is dst_type:
            rewriter.replace_op(op, [op.src])
            return True
        if isinstance(dst_type.encoding, gen.DotOperandEncodingAttr) and \
                isinstance(src_type.encoding, gen.NvidiaMmaEncodingAttr):
            return False
        arg = op.src.defining_op
        if isinstance(arg, _tt.ReshapeOp):
            if not arg.allow_reorder or arg.efficient_layout or \
                    is_expensive_view(arg.src.type, dst_type) or \
                    _has_dot_operand(src_type) or _has_dot_operand(dst_type):
                return False
            rewriter.replace_op_with_new_op(op, _tt.ReshapeOp, dst_type, arg.src, True)
            return True
        if isinstance(arg, _tt.HistogramOp):
            rewriter.replace_op_with_new_op(op, _tt.HistogramOp, dst_type, arg.src, arg.mask)
            return True
        if isinstance(arg, gen.LocalLoadOp):
            new = gen.LocalLoadOp.build(dst_type, arg.src, arg.token, location=op.location)
            rewriter.set_insertion_point(arg)  # effects between the load and the conversion
            rewriter.insert(new)
            rewriter.replace_op(op, [new.result_])
            return True
        if isinstance(arg, _tt.CatOp):
            before, after = _registers(src_type), _registers(dst_type)
            if before is None or after is None or after < before:
                return False
            rewriter.replace_op_with_new_op(op, _tt.CatOp, dst_type, arg.lhs, arg.rhs)
            return True
        if isinstance(arg, gen.ConvertLayoutOp):
            rewriter.replace_op_with_new_op(op, gen.ConvertLayoutOp, dst_type, arg.src)
            return True
        if isinstance(arg, _tt.SplatOp):
            rewriter.replace_op_with_new_op(op, _tt.SplatOp, dst_type, arg.src)
            return True
        if isinstance(arg, _tt.MakeRangeOp):
            rewriter.replace_op_with_new_op(op, _tt.MakeRangeOp, dst_type, arg.start, arg.end)
            return True
        if isinstance(arg, arith_gen.ConstantOp) and isinstance(arg.value, DenseElementsAttr) and \
                arg.value.is_splat:
            rewriter.replace_op_with_new_op(
                op, arith_gen.ConstantOp, DenseElementsAttr(dst_type, arg.value.splat_value), dst_type)
            return True
        return False


class _IntoUser(RewritePattern):
    """A conversion folded into the ops that read it as their source: for each user of the
    ``convert_layout`` that is a ``USER`` reading it as ``src``, `rewrite_user` may rebuild
    the user on the conversion's source. (Triton roots these patterns at the users; here they
    are the conversion's, so that every op's patterns start at it.)

    Not a `Pat`: rooted at the conversion, it rewrites the conversion's users, and a source pattern
    only reaches an op's operands and their producers; the conditions compute layouts with the ttg
    hooks.
    """

    ROOT = "ttg.convert_layout"
    USER: type

    def match_and_rewrite(self, op, rewriter) -> bool:
        changed = False
        for user in op.result_.users:
            if isinstance(user, self.USER) and user.src is op.result_:
                rewriter.set_insertion_point(user)
                changed |= self.rewrite_user(op, user, rewriter)
        return changed

    def rewrite_user(self, convert, user, rewriter) -> bool:
        """Rebuild ``user`` on ``convert``'s source; whether it did."""
        raise NotImplementedError


class ReshapeOfConvert(_IntoUser):
    """``reshape(convert_layout(x))`` -> ``reshape(x)`` when the conversion moves nothing, or
    when the reshape may reorder and is not an expensive view from ``x``'s layout (Triton's
    CanonicalizeConvertFromReshape); the reshape keeps its flags.

    Not a `Pat`: see `_IntoUser`.
    """

    USER = _tt.ReshapeOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        if not _same_layout(convert.src.type, convert.result_.type) and (
                is_expensive_view(convert.src.type, user.result_.type)
                or not user.allow_reorder):
            return False
        rewriter.replace_op_with_new_op(user, _tt.ReshapeOp, user.result_.type, convert.src,
                                        user.allow_reorder or None,
                                        user.efficient_layout or None)
        return True


class TransOfConvert(_IntoUser):
    """``trans(convert_layout(x))`` -> ``trans(x)`` when the conversion moves nothing (Triton's
    CanonicalizeConvertFromTranspose).

    Not a `Pat`: see `_IntoUser`.
    """

    USER = _tt.TransOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        if not _same_layout(convert.src.type, convert.result_.type):
            return False
        rewriter.replace_op_with_new_op(user, _tt.TransOp, user.result_.type, convert.src,
                                        user.order)
        return True


class TMEMStoreOfConvert(_IntoUser):
    """``tmem_store(convert_layout(x), buf)`` -> ``tmem_store(x, buf)`` when a tensor-memory
    store takes ``x``'s layout too (Triton's CanonicalizeConvertFromTMEMStore, with its rule
    of which layouts TMEM loads and stores accept: `ttng.tmem_access_compatible`).

    Not a `Pat`: see `_IntoUser`.
    """

    @property
    def USER(self) -> type:  # noqa: N802 - the attribute `_IntoUser` reads; ttng imports ttg
        from .ttng import gen as ttng

        return ttng.TMEMStoreOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        from .ttng import tmem_access_compatible

        if not tmem_access_compatible(convert.src.type, user.dst.type):
            return False
        index = next(i for i, operand in enumerate(user.operands) if operand is user.src)
        rewriter.start_op_modification(user)
        user.set_operand(index, convert.src)
        rewriter.finalize_op_modification(user)
        return True


class GatherSourceOfConvert(_IntoUser):
    """``gather(convert_layout(x), i)`` -> ``gather(x, i)``: the source of a gather without
    ``efficient_layout`` goes through shared memory, so its layout does not matter (Triton's
    CanonicalizeConvertFromGatherSource).

    Not a `Pat`: see `_IntoUser`.
    """

    USER = _tt.GatherOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        if user.efficient_layout:
            return False
        rewriter.replace_op_with_new_op(user, _tt.GatherOp, user.result_.type, convert.src,
                                        user.indices, user.axis)
        return True


class HistogramOfConvert(_IntoUser):
    """``histogram(convert_layout(x), m)`` -> ``histogram(x, convert_layout(m))``: the bins do
    not depend on the source's layout; the mask follows the source's (Triton's
    CanonicalizeConvertFromHistogram).

    Not a `Pat`: see `_IntoUser`.
    """

    USER = _tt.HistogramOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        src = convert.src
        mask = user.mask
        if mask is not None:
            mask_type = RankedTensorType(src.type.shape, i1, src.type.encoding)
            mask = rewriter.insert(gen.ConvertLayoutOp.build(
                mask_type, mask, location=user.location)).result_
        rewriter.replace_op_with_new_op(user, _tt.HistogramOp, user.result_.type, src, mask)
        return True


class SplitOfConvert(_IntoUser):
    """``split(convert_layout(x))`` -> ``split(x)`` when splitting ``x`` gives the results'
    layout already (Triton's CanonicalizeConvertFromSplit).

    Not a `Pat`: see `_IntoUser`.
    """

    USER = _tt.SplitOp

    def rewrite_user(self, convert, user, rewriter) -> bool:
        src = convert.src.type
        try:
            inferred = split_encoding(src.encoding, src.shape)
        except EncodingInferenceError:
            return False
        if inferred is None or not layouts_equivalent(user.out_lhs.type.shape, inferred,
                                                      user.out_lhs.type.encoding):
            return False
        rewriter.replace_op_with_new_op(user, _tt.SplitOp, user.out_lhs.type,
                                        user.out_rhs.type, convert.src)
        return True


@implements(gen.LocalAllocOp)
def fold(self, operand_constants):
    """``local_alloc(local_load(b))`` -> ``b`` for an immutable buffer of ``b``'s type (Triton's
    ``LocalAllocOp::fold``)."""
    if self.result_.type.mutable_memory or self.src is None:
        return None
    load = self.src.defining_op
    if not isinstance(load, gen.LocalLoadOp) or load.src.type != self.result_.type:
        return None
    return [load.src]


def _patterns(cls, *pattern_classes) -> None:
    """Give ``cls`` its canonicalization patterns."""

    @implements(cls)
    @staticmethod
    def canonicalization_patterns() -> list[RewritePattern]:
        return [pattern() for pattern in pattern_classes]


_patterns(gen.WarpSpecializeOp, WarpSpecializeUnusedResults)
_patterns(gen.WarpSpecializePartitionsOp, PartitionsUnusedCaptures)
_patterns(gen.ConvertLayoutOp, ConvertFromProducer, ReshapeOfConvert, TransOfConvert,
          TMEMStoreOfConvert, GatherSourceOfConvert, HistogramOfConvert, SplitOfConvert)


def _with_layout_checks(own: Callable[[Operation], None] | None) -> Callable[[Operation], None]:
    """The `custom_verify` of a ttg or ttng op: Triton's VerifyTensorLayoutsTrait and
    VerifyMemDescLayoutsTrait (after the op's other traits, as in Triton), then the op's own
    rules ``own``."""

    def custom_verify(self) -> None:
        verify_layouts(self, tensor_layout_message)
        verify_layouts(self, memdesc_layout_message)
        if own is not None:
            own(self)

    return custom_verify


def install_verifiers(ops: Iterable[type]) -> None:
    """Gives each op class of ``ops`` (ttg's, ttng's) its `custom_verify`: the layout checks,
    then the rule registered for it with `rule`."""
    for cls in ops:
        implements(cls)(_with_layout_checks(_OWN_RULES.get(cls)))


from .ttg_dot import verify_dot_operands  # noqa: E402 - it reads context_num_warps
from .ttg_inference import (  # noqa: E402 - hooks of the attributes, as the two above
    EncodingInferenceError, infer_expand_dims_encoding, infer_reduce_encoding,
    infer_reshape_encoding, infer_split_encoding, infer_trans_encoding, layouts_equivalent,
    split_encoding, verify_layouts_are_equal,
)

install_verifiers(gen.DIALECT.ops.values())
for _cls in gen.DIALECT.attributes.values():
    implements(_cls)(tensor_layout_error)
    implements(_cls)(verify_dot_operands)
    implements(_cls)(infer_expand_dims_encoding)
    implements(_cls)(infer_reduce_encoding)
    implements(_cls)(infer_trans_encoding)
    implements(_cls)(infer_reshape_encoding)
    implements(_cls)(infer_split_encoding)
    implements(_cls)(verify_layouts_are_equal)
del _cls
