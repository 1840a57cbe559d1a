"""`ttg` IR (tile IR with explicit layouts) to LLVM IR for NVIDIA GPUs (``nvptx64-nvidia-cuda``).

A kernel becomes one ``ptx_kernel`` function run by ``32 * num_warps`` threads per program
(CUDA block). Every tensor value has a distributed layout (``#ttg.blocked``, ``#ttg.slice``,
``#ttg.dot_op`` ...), which is a linear map from (register, lane, warp) to tensor coordinates
(`tilecraft.layouts`): a thread holds the elements of its registers, as a `Distributed` value
with one LLVM scalar per register. Element-wise ops run the scalar emitters of the CPU backend
register by register; memory ops, reductions, layout conversions and dots are written from the
layout maps (`memory`, `reductions`, `shapes`, `dot`), never per pair of layouts.

Each op name maps to a lowering function registered with `lowers`; the functions live in the
modules named after what they lower. Shared memory is one dynamic ``extern`` array; the ops that
need scratch space (conversions, reductions across warps, ...) find theirs at the offset the
shared-memory allocation gave them (sized by `scratch_sizes`), and barriers are where the
barrier analysis put them (``ttg.barrier local``), besides the one inside each such op between
its writes and its reads. The size is reported in `KernelInfo.shared`.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass, field
from typing import Callable, Sequence

import llvmlite.ir as ir

from tilecraft.generated.tt import PointerType
from tilecraft.ir import Block, Operation, RankedTensorType, Type, Value
from tilecraft.analysis.allocation import FunctionAllocation
from tilecraft.layouts.linear import LinearLayout

from ..cpu import types as T
from ..cpu.lowering import error_at, intrinsic_name
from . import mathlib
from .layouts import layout_of

Lowering = Callable[["GPULowering", Operation], None]
LOWERINGS: dict[str, Lowering] = {}

I1, I8, I16, I32, I64 = T.I1, T.I8, T.I16, T.I32, T.I64
F32, F64 = T.F32, T.F64
GLOBAL = 1
SHARED = 3


def lowers(*names: str) -> Callable[[Lowering], Lowering]:
    """Registers the decorated function as the lowering of the ops ``names``."""

    def register(fn: Lowering) -> Lowering:
        for name in names:
            LOWERINGS[name] = fn
        return fn

    return register


def pointer_type(address_space: int = GLOBAL) -> ir.PointerType:
    return ir.PointerType(addrspace=address_space)


def reg_type(t: Type) -> ir.Type:
    """The LLVM type of a scalar (or of a tensor's elements) in registers: the CPU backend's
    register forms (fp16, bf16 and fp8 computed on in f32), with pointers in their address
    space (global memory is address space 1)."""
    t = T.element_type(t)
    if isinstance(t, PointerType) and not T.is_block_pointer(t):
        return pointer_type(t.address_space)
    return T.reg_type(t)


@dataclass
class Distributed:
    """A tensor as one thread holds it: ``values[i]`` is the element at register ``i`` of
    ``layout`` (whose coordinates also depend on the thread's lane and warp)."""

    layout: LinearLayout
    values: list
    shape: tuple[int, ...]

    def with_values(self, values: list) -> Distributed:
        return Distributed(self.layout, values, self.shape)


@dataclass
class KernelInfo:
    """What the runtime needs besides the code."""

    name: str
    arg_kinds: list[str]
    num_warps: int
    shared: int = 0
    prints: list[dict] = field(default_factory=list)
    asserts: list[dict] = field(default_factory=list)
    # per tensor-descriptor parameter, what the launcher encodes (`tma.tensormap_parameter`)
    tensormaps: list[dict] = field(default_factory=list)
    # bytes of global scratch memory per program (the launcher passes it as a last
    # parameter when not 0), and the offset of each ttg.global_scratch_alloc in them
    # (`global_scratch.plan_global_scratch`)
    global_scratch: int = 0
    global_scratch_offsets: dict = field(default_factory=dict)


class GPULowering:
    """The state of lowering one kernel: the builder, the map from IR values to lowered values
    (LLVM scalars, `Distributed` tensors, tuples for block pointers), the thread's indices and
    the per-layout coordinate offsets."""

    # f16 and bf16 convert with cvt instructions (fpext/fptrunc; sm_80 and newer), not the
    # CPU's integer emulation
    native_half = True
    # multiplies and adds may become fused multiply-adds (`CUDAOptions.enable_fp_fusion`)
    fp_fusion = True

    def __init__(self, module: ir.Module, func: ir.Function, info: KernelInfo,
                 threads_per_warp: int, capability: int) -> None:
        self.module = module
        self.func = func
        self.info = info
        self.num_warps = info.num_warps
        self.threads_per_warp = threads_per_warp
        self.capability = capability
        entry = func.append_basic_block("entry")
        prologue = func.append_basic_block("prologue")
        body = func.append_basic_block("body")
        self.alloca_builder = ir.IRBuilder(entry)
        self.alloca_builder.branch(prologue)
        self.alloca_builder.position_at_start(entry)
        # code every later block may use (thread indices, layout offsets) goes in the prologue
        self.prologue = ir.IRBuilder(prologue)
        self.prologue.position_before(self.prologue.branch(body))
        self.builder = ir.IRBuilder(body)
        self.values: dict[Value, object] = {}
        self.reduction_depth = 0
        p = self.prologue
        self.tid = p.call(self.sreg("tid.x"), [], name="tid")
        lane_bits = threads_per_warp.bit_length() - 1
        self.lane = p.and_(self.tid, ir.Constant(I32, threads_per_warp - 1), name="lane")
        self.warp = p.lshr(self.tid, ir.Constant(I32, lane_bits), name="warp")
        self._offsets: dict[LinearLayout, tuple[ir.Value, ...]] = {}
        self._shared: ir.GlobalVariable | None = None
        self.current_op: Operation | None = None
        # the function's shared-memory buffers (set by `kernel.lower_kernel`)
        self.allocation: FunctionAllocation | None = None
        # the op that needs the most shared memory (errors point at it)
        self.largest_shared_user: Operation | None = None
        # whether the async proxy (wgmma) reads shared memory that threads write: such
        # writes are followed by a proxy fence (set by `kernel.lower_kernel`)
        self.async_proxy_reads = False
        # the kernel's global scratch parameter, where it has one (`KernelInfo.global_scratch`)
        self.global_scratch: ir.Value | None = None

    # -- values
    def get(self, value: Value):
        try:
            return self.values[value]
        except KeyError:
            raise AssertionError(f"value {value} used before it was lowered") from None

    def set(self, value: Value, lowered) -> None:
        self.values[value] = lowered

    def dist(self, value: Value) -> Distributed:
        lowered = self.get(value)
        if not isinstance(lowered, Distributed):
            raise AssertionError(f"expected a tensor for {value}")
        return lowered

    def new_dist(self, t: RankedTensorType, values: list) -> Distributed:
        return Distributed(layout_of(t, self.num_warps), values, tuple(t.shape))

    def layout(self, t: RankedTensorType) -> LinearLayout:
        return layout_of(t, self.num_warps)

    # -- ops and blocks
    def lower_op(self, op: Operation) -> None:
        lowering = LOWERINGS.get(op.name)
        if lowering is None:
            raise error_at(op, f"the CUDA backend cannot lower '{op.name}'")
        outer, self.current_op = self.current_op, op
        try:
            lowering(self, op)
        except T.UnsupportedType as error:
            raise error_at(op, str(error).replace("CPU", "CUDA")) from None
        finally:
            self.current_op = outer

    def lower_block(self, block: Block, args: Sequence) -> list:
        """Lower ``block``'s ops with its arguments bound to ``args``; returns the lowered
        operands of its terminator (which is not lowered)."""
        for arg, value in zip(block.arguments, args):
            self.values[arg] = value
        ops = list(block)
        for op in ops[:-1]:
            self.lower_op(op)
        terminator = ops[-1] if ops else None
        if terminator is None:
            return []
        if terminator.name not in TERMINATORS:
            self.lower_op(terminator)
            return []
        return [self.get(v) for v in terminator.operands]

    # -- intrinsics and special registers
    def declare(self, name: str, result: ir.Type, params: Sequence[ir.Type],
                var_arg: bool = False) -> ir.Function:
        """The function ``name`` declared once in the module."""
        existing = self.module.globals.get(name)
        if existing is None:
            existing = ir.Function(self.module, ir.FunctionType(result, list(params),
                                                                var_arg=var_arg), name)
        return existing

    def intrinsic(self, name: str, result: ir.Type, params: list) -> ir.Function:
        """The LLVM intrinsic ``name`` overloaded on ``result`` (and on the source type for
        conversions), as the CPU backend's scalar emitters ask for it."""
        return self.declare(intrinsic_name(name, result, params), result, params)

    def math(self, name: str, args: list) -> ir.Value:
        """The math function ``name`` (`mathlib.MATH_FUNCTIONS`) of scalar ``args``."""
        return mathlib.emit_math(self.builder, name, args)

    def sreg(self, name: str) -> ir.Function:
        """``llvm.nvvm.read.ptx.sreg.<name>`` (``tid.x``, ``ctaid.y``, ...)."""
        return self.declare(f"llvm.nvvm.read.ptx.sreg.{name}", I32, [])

    def barrier(self) -> None:
        """``bar.sync 0`` over the whole CTA."""
        self.builder.call(self.declare("llvm.nvvm.barrier.cta.sync.aligned.all", ir.VoidType(),
                                       [I32]), [ir.Constant(I32, 0)])

    def fence_async_shared(self) -> None:
        """``fence.proxy.async.shared::cta``: this thread's shared-memory writes so far become
        visible to the async proxy (``wgmma``) once a barrier orders them."""
        asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), []),
                           "fence.proxy.async.shared::cta;", "~{memory}", side_effect=True)
        self.builder.call(asm, [])

    def alloca(self, ty: ir.Type, name: str = "") -> ir.Value:
        """A stack slot in the entry block (promoted to a register by LLVM)."""
        return self.alloca_builder.alloca(ty, name=name)

    # -- shared memory
    def shared_base(self, nbytes: int) -> ir.Value:
        """Where the op being lowered finds its ``nbytes`` of scratch memory: its buffer in the
        function's allocation (`scratch_sizes` gave the allocation its size)."""
        op = self.current_op
        buffer = self.allocation.op_scratch(op) if self.allocation is not None else None
        if buffer is None or nbytes > buffer.size:
            placed = 0 if buffer is None else buffer.size
            raise AssertionError(f"'{op.name}' needs {nbytes} bytes of scratch memory; "
                                 f"{placed} were allocated for it")
        return self.shared_pointer(buffer.offset, buffer.size)

    def shared_pointer(self, offset: int, size: int) -> ir.Value:
        """The address of the ``size`` bytes at ``offset`` in the dynamic shared memory (whose
        size, `KernelInfo.shared`, grows to hold them)."""
        needed = _round_up(offset + size, 16)
        if needed > self.info.shared:
            self.info.shared = needed
            self.largest_shared_user = self.current_op
        if self._shared is None:
            array = ir.ArrayType(I8, 0)
            self._shared = ir.GlobalVariable(self.module, array, "global_smem",
                                             addrspace=SHARED)
            self._shared.linkage = "external"
            self._shared.align = 1024  # what 128-byte swizzled wgmma operands need
            # llvmlite types globals with typed pointers; use it as an opaque one
            self._shared.type = pointer_type(SHARED)
        if offset == 0:
            return self._shared
        return self.builder.gep(self._shared, [ir.Constant(I32, offset)],
                                source_etype=I8, inbounds=True)

    # -- coordinates
    def thread_offsets(self, layout: LinearLayout) -> tuple[ir.Value, ...]:
        """Per output dim, the part of this thread's coordinates that its lane and warp give
        (the register part is a constant: ``layout.apply(register=i)``)."""
        cached = self._offsets.get(layout)
        if cached is not None:
            return cached
        b = self.prologue
        offsets = []
        for dim in range(len(layout.out_dim_names)):
            total: ir.Value = ir.Constant(I32, 0)
            for in_dim, index in (("lane", self.lane), ("warp", self.warp)):
                for bit in range(layout.in_dim_bits(in_dim)):
                    base = layout.basis(in_dim, bit)[dim]
                    if base == 0:
                        continue
                    flag = b.and_(b.lshr(index, ir.Constant(I32, bit)), ir.Constant(I32, 1))
                    total = b.xor(total, b.mul(flag, ir.Constant(I32, base)))
            offsets.append(total)
        result = tuple(offsets)
        self._offsets[layout] = result
        return result

    def coordinates(self, layout: LinearLayout, register: int) -> list[ir.Value]:
        """The coordinates of register ``register`` of this thread, one i32 per dim
        (`with_constant` of the register's constant)."""
        offsets = self.thread_offsets(layout)
        constant = layout.apply(register=register)
        return [self.with_constant(layout, dim, offset, c)
                for dim, (offset, c) in enumerate(zip(offsets, constant))]

    def with_constant(self, layout: LinearLayout, dim: int, offset: ir.Value,
                      constant: int) -> ir.Value:
        """``offset`` (this thread's part of coordinate ``dim`` of ``layout``,
        `thread_offsets`) xor ``constant``. The bits of ``constant`` that no lane or warp can
        set are added instead (``nuw nsw``: they cannot carry into the thread's bits), so
        that LLVM folds them into the addresses that use the result (``[%rd + 8192]``): a
        thread keeps one address per pattern of the other bits, not one per register."""
        b = self.builder
        overlap = constant & _thread_bits(layout, dim)
        value = offset if overlap == 0 else b.xor(offset, ir.Constant(I32, overlap))
        rest = constant ^ overlap
        if rest == 0:
            return value
        return b.add(value, ir.Constant(I32, rest), flags=("nuw", "nsw"))

    def is_representative(self, layout: LinearLayout) -> ir.Value | None:
        """Whether this thread is the first of the threads holding the same elements (lanes
        and warps whose bits are free in ``layout`` hold copies), or None when every thread
        holds distinct elements."""
        masks = layout.free_variable_masks()
        b = self.prologue
        condition = None
        for in_dim, index in (("lane", self.lane), ("warp", self.warp)):
            mask = masks.get(in_dim, 0)
            if mask:
                zero = b.icmp_unsigned("==", b.and_(index, ir.Constant(I32, mask)),
                                       ir.Constant(I32, 0))
                condition = zero if condition is None else b.and_(condition, zero)
        return condition


TERMINATORS = frozenset({"scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return"})

def _round_up(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple


@functools.lru_cache(maxsize=None)
def _thread_bits(layout: LinearLayout, dim: int) -> int:
    """The bits that the lanes and warps of ``layout`` can set in coordinate ``dim``."""
    bits = 0
    for in_dim in ("lane", "warp"):
        for bit in range(layout.in_dim_bits(in_dim)):
            bits |= layout.basis(in_dim, bit)[dim]
    return bits
