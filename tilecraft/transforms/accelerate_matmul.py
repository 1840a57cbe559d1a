"""`tritongpu-accelerate-matmul`: ``tt.dot`` onto tensor cores, as Triton's AccelerateMatmul
pass does for NVIDIA targets.

For a target of compute capability 80 or more (the module's ``ttg.target``), a dot whose
operand types ``mma.sync`` takes gets an ``#ttg.nvidia_mma`` version 2 accumulator:

* **Warps** (`warps_per_tile`): spread so that the operand registers per warp balance (an A
  tile of 16 rows costs twice a B tile of 8 columns), or all along one dim when the dot feeds or
  is fed by another dot of the same region (the second dot of attention reuses the first's
  layout); batched (rank 3) dots put every warp on the batch.
* **Operands** become ``#ttg.dot_op<{opIdx, parent = #mma, kWidth}>`` with ``kWidth = 32 /
  bits``, bits being the narrowest element type the operand was loaded as (`loaded_bit_width`:
  an fp8 load widened to f16 keeps fp8's 4 elements per 32-bit register).
* The accumulator is converted in, the result converted back; fp8 operands are widened to f16
  where ``mma.sync`` has no fp8 form (all but sm_89 and sm_12x).

On Hopper (sm_90), a dot of f16, bf16, tf32 (f32 with ``inputPrecision = tf32``), int8 or fp8
operands (fp8 when ``maxNumImpreciseAcc`` is 32 or more) into the accumulator types
``wgmma`` has (`WGMMA_TYPES`), with M a multiple of 64, N of 16 and K at least one
instruction's (``256 / bits``), under a multiple of 4 warps, becomes a
``ttng.warp_group_dot`` (``wgmma``) with an ``#ttg.nvidia_mma`` version 3 accumulator, as
Triton's pass chooses it:

* **Operands**: B, and A when it is a load or a block argument (through layout conversions,
  transposes and memory views: `comes_from_load_or_block_arg`), are stored to shared
  memory (``ttg.local_alloc``) in ``#ttg.nvmma_shared`` layouts that keep the order the value
  was loaded in (`memory_order`; ``transposed`` when dim 0 is the contiguous one) and swizzle
  by the widest of 128, 64 or 32 bytes that the contiguous dim fills; 8-bit and tf32
  operands, which ``wgmma`` cannot read transposed, are stored K-major, with a warning when
  that is not the order they are held in. An A computed in registers (attention's
  probabilities) stays there, in the ``#ttg.dot_op`` layout of the accumulator with
  ``kWidth = 32 / bits``.
* **Instruction** ``(16, n, 256 / bits)`` per warp: ``n`` the largest of 8, 16, ..., 256 that
  divides N and does not exceed the columns a warp group gets (`wgmma_instr_n`); warps go
  along M in groups of 4 while M has rows for them, then along N (`warps_per_tile_v3`); all
  along M for a dot whose result reaches another dot (`feeds_a_dot`: attention's first
  product, whose rows then stay in the warps that reduce them; when M has fewer than 16 rows
  per warp, the warp groups beyond the first hold copies of the first's rows).

On Blackwell (sm_100 to sm_11x; int8 on sm_103 excepted), a dot with 4 or 8 warps, M a
multiple of 64, N of 16, K of at least one instruction and integers only as i8 into i32
(`mma_v5_supported`) becomes a ``ttng.tc_gen5_mma``, as Triton's BlockedToMMAv5 makes it:

* **Operands** both stored to shared memory as for ``wgmma`` (f32 ones K-major, no warning).
* **Accumulator** in tensor memory: a ``#ttng.tensor_memory_encoding`` buffer of
  ``min(M, 128)``-row (128 from 128 rows on, else 64) by ``min(N, 256)``-column blocks, one
  32-bit column per element (``colStride = 32 / bits``), written from the accumulator converted
  to the default tensor-memory register layout (`default_tmem_layout`: the 32x32b message's),
  and loaded back after the MMA through the tokens of ``ttng.tmem_alloc``, the MMA and
  ``ttng.tmem_load``. ``useD`` and ``pred`` are one ``arith.constant true`` at the start of
  the function (where Triton's pattern driver moves constants).
* Operands of 32 bits or more without tf32 stay on the CUDA cores.

A ``tt.dot_scaled`` with both scales, 4 or 8 warps, M at least 128 and N at least 16 becomes,
on those targets, a ``ttng.tc_gen5_mma_scaled`` (`scaled_mma_v5_supported`, Triton's
ScaledBlockedToMMAv5): fp4 operands stored K-major (M- or N-major when not packed along K),
padded (``fp4Padded``) when mixed with another type or not packed along K; the accumulator
in 128-row tensor-memory blocks; each scale in a ``#ttng.tensor_memory_scales_encoding``
buffer, read through shared memory when it is loaded (`_stage_scale_in_shared`). On sm_12x
a scaled dot of fp8 x fp8 or fp4 x fp4 with both scales stays a ``tt.dot_scaled`` on an mma
v2 accumulator, its scales in the layouts of `sm120_scale_layout` (Triton's
ScaledBlockedToMMA). Any other ``tt.dot_scaled`` is decomposed into a ``tt.dot`` of upcast,
scaled operands (`decompose_scaled_dots`), which then goes through the same choice.

Dots that stay on CUDA cores (targets before sm_80, f32 with ``inputPrecision = ieee``, types
the tensor cores do not take, shapes smaller than one instruction) get operands narrower than
their result widened to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import prod

from tilecraft.dialects import ttg
from tilecraft.generated.passes import TritonGPUAccelerateMatmulPassBase
from tilecraft.generated.tt import DotScaledOp, InputPrecision, ScaleDotElemType
from tilecraft.generated.ttg import (AsyncTokenType, BlockedEncodingAttr, DotOperandEncodingAttr,
                                     MemDescType, NVMMASharedEncodingAttr,
                                     LinearEncodingAttr, NvidiaMmaEncodingAttr,
                                     SharedMemorySpaceAttr, SliceEncodingAttr)
from tilecraft.generated.ttng import (TCGen5MMAOp, TCGen5MMAScaledOp, TensorMemoryEncodingAttr,
                                      TensorMemoryScalesEncodingAttr, TensorMemorySpaceAttr,
                                      TMEMAllocOp, TMEMLoadOp, WarpGroupDotOp)
from tilecraft.dialects.foldutils import element_type
from tilecraft.dialects.ttg_inference import linear_attr
from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.dialects.ttng import default_tmem_layout
from tilecraft.ir import (BoolAttr, Builder, FloatType, IntegerType, Location, Operation,
                          RankedTensorType, Type, Value, i1)
from tilecraft.ir.traits import Elementwise
from tilecraft.transforms.decompose_scaled_dot import decompose_scaled_dots
from tilecraft.transforms.diagnostics import emit_warning
from tilecraft.transforms.effects import is_memory_effect_free
from tilecraft.transforms.layout_inference import with_encoding
from tilecraft.transforms.reduce_data_duplication import memory_order
from tilecraft.transforms.transform_utils import constant_op

__all__ = ["WGMMA_TYPES", "TritonGPUAccelerateMatmulPass", "accelerate_matmul",
           "capability_of", "comes_from_load_or_block_arg", "k_width_of", "loaded_bit_width",
           "mma_v2_supported", "mma_v3_supported", "mma_v5_supported", "nvmma_shared_for",
           "scaled_mma_v2_supported", "scaled_mma_v5_supported", "sm120_scale_layout",
           "warps_per_tile", "warps_per_tile_v3", "wgmma_instr_n"]

FP8_KINDS = frozenset({"f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ"})
# operand types with an mma.sync form (fp8 through f16 where it has none)
_MMA_OPERAND_KINDS = frozenset({"f16", "bf16"}) | FP8_KINDS
#: ``wgmma`` operand types (both alike) and the accumulator types each takes.
WGMMA_TYPES = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",), "i8": ("i32",),
               "f8E4M3FN": ("f32",), "f8E5M2": ("f32",)}
#: The N of int8 ``wgmma`` instructions (Triton's list; other types take multiples of 8).
_INT8_WGMMA_N = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)
# where a layout-only or element-wise op lets the loaded element width show through
_VIEW_OPS = frozenset({"tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join",
                       "tt.split", "tt.cat", "ttg.convert_layout", "tt.fp_to_fp", "tt.load",
                       "tt.descriptor_load", "ttg.fp4_to_fp"})


def capability_of(module: Operation) -> int | None:
    """The compute capability of the module's ``ttg.target`` (``"cuda:90"`` -> 90), None for
    other targets or none."""
    target = ttg.target(module)
    if target is None or not target.startswith("cuda:"):
        return None
    digits = target[len("cuda:"):].rstrip("a")
    return int(digits) if digits.isdigit() else None


def _kind(t: Type) -> str:
    """The element type's name (``f16``, ``i8``, ...)."""
    return str(element_type(t))


def _bits(t: Type) -> int:
    return getattr(element_type(t), "width", 32)


def mma_v2_supported(dot: Operation) -> bool:
    """Whether ``mma.sync`` takes the dot's operand and result types and shapes (one 16x8 tile
    of the result and one instruction's K at least)."""
    a_type: RankedTensorType = dot.operands[0].type
    b_type: RankedTensorType = dot.operands[1].type
    d_type: RankedTensorType = dot.results[0].type
    a, b, d = _kind(a_type), _kind(b_type), _kind(d_type)
    if d_type.rank not in (2, 3):
        return False
    if a in ("f32", "f64") or b in ("f32", "f64"):
        if a != b or d != a:
            return False
        if a == "f32" and dot.input_precision != InputPrecision.TF32:
            return False
    elif a == "i8" or b == "i8":
        if a != b or d != "i32":
            return False
    elif a in _MMA_OPERAND_KINDS and b in _MMA_OPERAND_KINDS:
        if d not in ("f32", "f16") or (d == "f16" and (a, b) != ("f16", "f16")):
            return False
        if (a == "bf16") != (b == "bf16"):
            return False
    else:
        return False
    *_, m, n = d_type.shape
    return m >= 16 and n >= 8 and _fills_instructions(a, a_type.shape[-1], k_width_of(dot))


def _fills_instructions(kind: str, shape_k: int, k_width: int) -> bool:
    """Whether K splits into whole ``mma.sync`` instructions: lanes cover ``4 * kWidth`` of K,
    a thread holds ``kWidth`` elements per half tile (two halves when K reaches ``8 *
    kWidth``), and an instruction takes two runs of ``32 / bits`` of them (one f64)."""
    if shape_k % (4 * k_width):
        return False
    if kind == "f64":
        return True
    per_thread = k_width * (2 if shape_k >= 8 * k_width else 1)
    per_register = {"f32": 1, "i8": 4}.get(kind, 2)  # f16, bf16 and fp8 (widened to f16)
    return per_thread % (2 * per_register) == 0


def k_width_of(dot: Operation) -> int:
    """The ``kWidth`` of the dot's mma v2 operands: the 32-bit register's share of the
    narrowest type the operands were loaded as."""
    bits = min(loaded_bit_width(dot.operands[0]), loaded_bit_width(dot.operands[1]))
    return max(32 // bits, 1)


def _same_region_neighbours(op: Operation) -> Iterator[Operation]:
    for operand in op.operands:
        owner = operand.owner if isinstance(operand.owner, Operation) else None
        if owner is not None:
            yield owner
    for result in op.results:
        for use in result.uses:
            yield use.owner


def _connected_dots(dot: Operation) -> list[Operation]:
    """The other dots connected to ``dot`` through def-use chains in its region that do not go
    through ``tt.trans`` (Triton's slice of the dot)."""
    region = dot.parent_region
    seen, stack, dots = {dot}, [dot], []
    while stack:
        for neighbour in _same_region_neighbours(stack.pop()):
            if (neighbour in seen or neighbour.parent_region is not region
                    or neighbour.name == "tt.trans"):
                continue
            seen.add(neighbour)
            stack.append(neighbour)
            if neighbour.name in _DOT_OPS:
                dots.append(neighbour)
    return dots


_DOT_OPS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")


def feeds_a_dot(dot: Operation) -> bool:
    """Whether another dot is in the forward slice of ``dot``'s result, as MLIR's
    ``getForwardSlice`` builds it: the users, transitively, and with each user every op nested
    in its regions."""
    seen: set[Operation] = set()
    stack = [use.owner for use in dot.results[0].uses]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.name in _DOT_OPS:
            return True
        stack.extend(nested for nested in op.walk() if nested is not op)
        stack.extend(use.owner for result in op.results for use in result.uses)
    return False


def warps_per_tile(dot: Operation, shape: tuple[int, ...], num_warps: int) -> tuple[int, ...]:
    """The ``warpsPerCTA`` of the dot's mma v2 accumulator (see the module docstring)."""
    rank = len(shape)
    if rank == 3:
        return (num_warps, 1, 1)
    chained = False
    for other in _connected_dots(dot):
        other_type: RankedTensorType = other.results[0].type
        if other_type.rank != rank:
            continue
        if isinstance(other_type.encoding, NvidiaMmaEncodingAttr):
            return tuple(other_type.encoding.warps_per_cta)
        chained = True
    if chained:
        return (num_warps, 1) if shape[0] >= shape[1] else (1, num_warps)
    warps = [1, 1]
    # instructions per warp along M (16 rows) and N (8 columns): an A tile takes 4 registers
    # per K step, a B tile 2, so halve the larger count first, M on ties
    reps = [-(-shape[0] // 16), -(-shape[1] // 8)]
    while warps[0] * warps[1] < num_warps:
        if reps[0] >= reps[1]:
            warps[0] *= 2
            if reps[0] != 1:
                reps[0] //= 2
        else:
            warps[1] *= 2
            reps[1] //= 2
    return tuple(warps)


def loaded_bit_width(value: Value) -> int:
    """The narrowest element width among the loads ``value`` is computed from through views,
    conversions and pure element-wise ops (4 after ``ttg.fp4_to_fp``), or ``value``'s own;
    halved when a ``tt.join`` is on the way (as Triton's heuristic: layout propagation halves
    the elements per thread along K through a join, so the loads keep their width)."""
    width = _bits(value.type)
    joined = False
    seen: set[Operation] = set()
    stack = [value]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        if not (owner.name in _VIEW_OPS or _is_pure_elementwise(owner)):
            continue
        if owner.name == "ttg.fp4_to_fp":
            return 4
        joined |= owner.name == "tt.join"
        if owner.name in ("tt.load", "tt.descriptor_load"):
            result = owner.results[0].type
            if isinstance(result, RankedTensorType):
                width = min(width, _bits(result))
            continue
        stack.extend(owner.operands)
    return width // 2 if joined else width


def _is_pure_elementwise(op: Operation) -> bool:
    return type(op).has_trait(Elementwise) and is_memory_effect_free(op)


def _convert(builder: Builder, value: Value, t: RankedTensorType) -> Value:
    if value.type == t:
        return value
    op = builder.create("ttg.convert_layout", operands=[value], result_types=[t],
                        location=value.owner.location if isinstance(value.owner, Operation)
                        else builder.location)
    return op.results[0]


def _widen(builder: Builder, value: Value, element: Type) -> Value:
    """``value`` widened to ``element``: ``tt.fp_to_fp`` from fp8, ``arith.extf`` otherwise."""
    t: RankedTensorType = value.type
    if t.element_type == element:
        return value
    name = "tt.fp_to_fp" if _kind(t) in FP8_KINDS else "arith.extf"
    op = builder.create(name, operands=[value],
                        result_types=[RankedTensorType(t.shape, element, t.encoding)])
    return op.results[0]


def _to_mma_v2(dot: Operation, num_warps: int, capability: int) -> None:
    d_type: RankedTensorType = dot.results[0].type
    rank = d_type.rank
    instr_shape = (16, 8) if rank == 2 else (1, 16, 8)
    mma = NvidiaMmaEncodingAttr(2, 0, warps_per_tile(dot, tuple(d_type.shape), num_warps),
                                instr_shape)
    builder = Builder.before(dot, dot.location)
    new_type = with_encoding(d_type, mma)
    k_width = k_width_of(dot)
    for index in (0, 1):
        operand = dot.operands[index]
        encoding = DotOperandEncodingAttr(index, mma, k_width)
        dot.set_operand(index, _convert(builder, operand, with_encoding(operand.type, encoding)))
    dot.set_operand(2, _convert(builder, dot.operands[2], new_type))
    old_type = d_type
    dot.results[0].type = new_type
    after = Builder.after(dot, dot.location)
    back = after.create("ttg.convert_layout", operands=[dot.results[0]], result_types=[old_type])
    dot.results[0].replace_uses_with_if(back.results[0], lambda use: use.owner is not back)
    native_fp8 = capability == 89 or capability // 10 == 12
    if _kind(dot.operands[0].type) in FP8_KINDS and not native_fp8:
        f16 = FloatType("f16")
        for index in (0, 1):
            dot.set_operand(index, _widen(builder, dot.operands[index], f16))


def _widen_fma_operands(dot: Operation) -> None:
    result: RankedTensorType = dot.results[0].type
    if (_kind(dot.operands[0].type) == _kind(result)
            or not isinstance(result.element_type, FloatType)):
        return
    builder = Builder.before(dot, dot.location)
    for index in (0, 1):
        dot.set_operand(index, _widen(builder, dot.operands[index], result.element_type))


def _is_blocked_like(encoding) -> bool:
    return isinstance(encoding, (BlockedEncodingAttr, SliceEncodingAttr))


#: Ops that `comes_from_load_or_block_arg` looks through: conversions, transposes and views.
_OPERAND_PEEL_OPS = frozenset({"ttg.convert_layout", "tt.trans", "ttg.memdesc_trans",
                               "ttg.memdesc_subslice", "ttg.memdesc_index",
                               "ttg.memdesc_reshape"})
_LOAD_OPS = frozenset({"tt.load", "tt.descriptor_load", "tt.descriptor_gather"})


def comes_from_load_or_block_arg(value: Value) -> bool:
    """Whether ``value`` is, through layout conversions, transposes and memory views, a load
    (``tt.load``, ``tt.descriptor_load``, ``tt.descriptor_gather``) or a block argument: a
    ``wgmma`` A operand that is one is read from shared memory, any other stays in registers."""
    while isinstance(value.owner, Operation) and value.owner.name in _OPERAND_PEEL_OPS:
        value = value.owner.operands[0]
    owner = value.owner
    return not isinstance(owner, Operation) or owner.name in _LOAD_OPS


def mma_v3_supported(dot: Operation, num_warps: int) -> bool:
    """Whether the dot becomes a ``wgmma`` on Hopper (see the module docstring)."""
    a_type: RankedTensorType = dot.operands[0].type
    d_type: RankedTensorType = dot.results[0].type
    a, b, d = _kind(a_type), _kind(dot.operands[1].type), _kind(d_type)
    if d_type.rank != 2 or num_warps % 4 or a != b or d not in WGMMA_TYPES.get(a, ()):
        return False
    if a == "f32" and dot.input_precision != InputPrecision.TF32:
        return False
    if a in FP8_KINDS and dot.max_num_imprecise_acc < 32:
        return False  # Triton's rule: fp8 accumulates in f32 only when allowed to
    m, n = d_type.shape
    return m % 64 == 0 and n % 16 == 0 and a_type.shape[-1] >= 256 // _bits(a_type)


def wgmma_instr_n(shape: tuple[int, ...], num_warps: int, kind: str) -> int:
    """The N of the dot's ``wgmma`` instructions: the largest instruction N (multiples of 8
    up to 256; int8's own list) that divides N and fits the columns each warp along N gets
    when warps first cover M in rows of 16."""
    m_warps = max(shape[0] // 16, 1)
    n_warps = max(num_warps // m_warps, 1)
    widest = max(shape[1] // n_warps, 8)
    choices = _INT8_WGMMA_N if kind == "i8" else range(256, 7, -8)
    return next(n for n in choices if shape[1] % n == 0 and n <= widest)


def warps_per_tile_v3(dot: Operation, shape: tuple[int, ...], num_warps: int
                      ) -> tuple[int, int]:
    """Warps of a version 3 accumulator: all along M when the dot's result reaches another dot
    (`feeds_a_dot`: attention's scores stay in the warps that hold their rows); else groups of
    4 along M, doubled along M while M has more rows than the warps along it take (16 each),
    else along N."""
    if feeds_a_dot(dot):
        return (num_warps, 1)
    warps = [4, 1]
    while warps[0] * warps[1] < num_warps:
        if shape[0] > 16 * warps[0]:
            warps[0] *= 2
        else:
            warps[1] *= 2
    return tuple(warps)


def nvmma_shared_for(t: RankedTensorType, order: tuple[int, ...] | None = None,
                     fp4_padded: bool = False) -> NVMMASharedEncodingAttr:
    """The ``#ttg.nvmma_shared`` layout for storing a tensor of type ``t`` in ``order``
    (default: its memory order; ``transposed`` when dim 0 is the contiguous one): the widest
    swizzle (128, 64 or 32 bytes) that the contiguous dim's bytes (twice as many for padded
    fp4) are a multiple of, none when the other dims hold fewer than 8 rows."""
    order = memory_order(t) if order is None else order
    bits = _bits(t)
    contiguous_bytes = t.shape[order[0]] * (2 if fp4_padded else 1) * bits // 8
    swizzle = next((w for w in (128, 64, 32) if contiguous_bytes % w == 0), 0)
    if len(order) < 2 or prod(t.shape[d] for d in order[1:]) < 8:
        swizzle = 0
    return NVMMASharedEncodingAttr(swizzle, len(order) > 1 and order[0] == 0, bits, fp4_padded,
                                   rank=len(order))


def _to_shared(value: Value, op_idx: int, allow_transpose: bool, location: Location,
               warn_at: Operation | None = None, fp4_padded: bool = False,
               force_transpose: bool = False) -> Value:
    """``value`` (through conversions) stored to a new shared buffer for MMA operand
    ``op_idx``, right after it is defined (a loop-invariant operand is stored once, before the
    loop): in the order it is held in when the MMA reads the type transposed
    (``allow_transpose``), else K-major (M- or N-major with ``force_transpose``), with a warning
    at ``warn_at`` when that is not the order it is held in (its registers are transposed on
    the way)."""
    while isinstance(value.owner, Operation) and value.owner.name == "ttg.convert_layout":
        value = value.owner.operands[0]
    t: RankedTensorType = value.type
    order = memory_order(t)
    if not allow_transpose:
        wanted = (1, 0) if op_idx == 0 else (0, 1)
        order = wanted[::-1] if force_transpose else wanted
    if warn_at is not None and order != memory_order(t):
        emit_warning(warn_at, f"Warning: Forcing a different order [{order[0]}, {order[1]}] on "
                     f"SMEM than the register order for the operand {op_idx}. Registers will "
                     "be transposed before SMEM store and the pipelined load for this operand "
                     "will be disabled, so poor performance is expected. Recommendation: "
                     "consider transposing the operand in global memory to remove the need "
                     "to transpose the tensor in registers.")
    encoding = nvmma_shared_for(t, order, fp4_padded)
    memdesc = MemDescType(t.shape, t.element_type, encoding, SharedMemorySpaceAttr())
    return _after_definition(value, location).create(
        "ttg.local_alloc", operands=[value], result_types=[memdesc],
        location=location).results[0]


def _after_definition(value: Value, location: Location) -> Builder:
    owner = value.owner
    return (Builder.after(owner, location) if isinstance(owner, Operation)
            else Builder.at_start(owner, location))


def _to_mma_v3(dot: Operation, num_warps: int) -> None:
    d_type: RankedTensorType = dot.results[0].type
    shape = tuple(d_type.shape)
    instr_n = wgmma_instr_n(shape, num_warps, _kind(dot.operands[0].type))
    k = 256 // _bits(dot.operands[0].type)
    mma = NvidiaMmaEncodingAttr(3, 0, warps_per_tile_v3(dot, shape, num_warps),
                                (16, instr_n, k))
    builder = Builder.before(dot, dot.location)
    a = dot.operands[0]
    allow_transpose = _bits(a.type) == 16
    if comes_from_load_or_block_arg(a):
        a = _to_shared(a, 0, allow_transpose, dot.location, dot)
    else:
        encoding = DotOperandEncodingAttr(0, mma, 32 // _bits(a.type))
        a = _convert(builder, a, with_encoding(a.type, encoding))
    b = _to_shared(dot.operands[1], 1, allow_transpose, dot.location, dot)
    new_type = with_encoding(d_type, mma)
    c = _convert(builder, dot.operands[2], new_type)
    wgmma = builder.insert(WarpGroupDotOp.build(
        a, b, c, new_type, input_precision=dot.input_precision,
        max_num_imprecise_acc=dot.max_num_imprecise_acc, location=dot.location))
    back = builder.create("ttg.convert_layout", operands=[wgmma.results[0]],
                          result_types=[d_type], location=dot.location)
    dot.results[0].replace_all_uses_with(back.results[0])
    dot.erase()


def mma_v5_supported(dot: Operation, num_warps: int) -> bool:
    """Whether a ``tt.dot`` has the shape and types of a ``tcgen05.mma`` on Blackwell (Triton's
    supportMMA for version 5): integers only as i8 into i32, rank 2, 4 or 8 warps (the tensor
    memory accesses take no other), K of at least one instruction (``256 / bits``), M a
    multiple of 64 and N of 16."""
    a_type: RankedTensorType = dot.operands[0].type
    d_type: RankedTensorType = dot.results[0].type
    kinds = (_kind(a_type), _kind(dot.operands[1].type), _kind(d_type))
    if any(isinstance(element_type(t), IntegerType) for t in (a_type, dot.operands[1].type,
                                                              d_type)):
        if kinds != ("i8", "i8", "i32"):
            return False
    if d_type.rank != 2 or num_warps not in (4, 8):
        return False
    m, n = d_type.shape
    return a_type.shape[-1] >= 256 // _bits(a_type) and m % 64 == 0 and n % 16 == 0


def _function_true(op: Operation) -> Value:
    """An ``arith.constant true`` at the start of the function around ``op`` (where Triton's
    pattern driver moves the constants it creates), made once."""
    function = op
    while function.parent_op is not None and function.name != "tt.func":
        function = function.parent_op
    block = function.regions[0].blocks[0]
    for candidate in block:
        if candidate.name != "arith.constant":
            break
        if candidate.results[0].type == i1 and candidate.value == BoolAttr(True):
            return candidate.results[0]
    return Builder.at_start(block, op.location).insert(
        constant_op(True, i1, op.location)).results[0]


def _tmem_accumulator(builder: Builder, dot: Operation, block_m: int, block_n: int,
                      num_warps: int) -> tuple[Value, Value, RankedTensorType]:
    """The accumulator of ``dot`` copied into a new tensor-memory buffer of ``block_m x
    block_n`` blocks: (the buffer, its token, the register type its loads and stores use)."""
    d_type: RankedTensorType = dot.results[0].type
    encoding = TensorMemoryEncodingAttr(block_m, block_n, 32 // _bits(d_type), (), False)
    memdesc = MemDescType(d_type.shape, d_type.element_type, encoding, TensorMemorySpaceAttr(),
                          True)
    registers = with_encoding(d_type, linear_attr(default_tmem_layout(memdesc, num_warps)))
    acc = _convert(builder, dot.operands[2], registers)
    alloc = builder.insert(TMEMAllocOp.build(memdesc, AsyncTokenType(), acc,
                                             location=dot.location))
    return alloc.results[0], alloc.results[1], registers


def _load_tmem_result(builder: Builder, dot: Operation, acc: Value, token: Value,
                      registers: RankedTensorType) -> None:
    """Replaces ``dot`` by the load of ``acc`` once the MMA of ``token`` wrote it."""
    load = builder.insert(TMEMLoadOp.build(registers, acc, AsyncTokenType(), token,
                                           location=dot.location))
    back = builder.create("ttg.convert_layout", operands=[load.results[0]],
                          result_types=[dot.results[0].type], location=dot.location)
    dot.results[0].replace_all_uses_with(back.results[0])
    dot.erase()


def _to_mma_v5(dot: Operation, num_warps: int) -> bool:
    """Rewrites ``dot`` as a ``ttng.tc_gen5_mma`` (see the module docstring); False, changing
    nothing, for operands of 32 bits or more without tf32."""
    a, b = dot.operands[0], dot.operands[1]
    if (min(loaded_bit_width(a), loaded_bit_width(b)) >= 32
            and dot.input_precision != InputPrecision.TF32):
        return False
    allow_transpose = _kind(a.type) != "f32"
    a = _to_shared(a, 0, allow_transpose, dot.location)
    b = _to_shared(b, 1, allow_transpose, dot.location)
    m, n = dot.results[0].type.shape
    builder = Builder.before(dot, dot.location)
    acc, token, registers = _tmem_accumulator(builder, dot, 128 if m >= 128 else 64,
                                              min(n, 256), num_warps)
    true = _function_true(dot)
    mma = builder.insert(TCGen5MMAOp.build(a, b, acc, true, true, AsyncTokenType(), token,
                                           location=dot.location))
    _load_tmem_result(builder, dot, acc, mma.results[0], registers)
    return True


_SCALE_LOAD_PEEL = frozenset({"tt.reshape", "tt.trans", "ttg.convert_layout"})


def _stage_scale_in_shared(scale: Value) -> Value:
    """Triton's addSmemStageToScaleLoad: the load a block scale comes from (through
    reshapes, transposes and conversions) is read back through shared memory
    (``local_load(local_alloc(load))``, unswizzled), where the pipeliner then puts its
    buffers; the scale, or the shared read when the scale is the load itself."""
    owner = scale.owner
    consumed = False
    while isinstance(owner, Operation) and owner.name in _SCALE_LOAD_PEEL:
        consumed = True
        owner = owner.operands[0].owner
    if not isinstance(owner, Operation) or owner.name not in ("tt.load", "tt.descriptor_load"):
        return scale
    loaded = owner.results[0]
    t: RankedTensorType = loaded.type
    encoding = NVMMASharedEncodingAttr(0, False, _bits(t), rank=t.rank)
    after = Builder.after(owner, owner.location)
    alloc = after.create("ttg.local_alloc", operands=[loaded], result_types=[
        MemDescType(t.shape, t.element_type, encoding, SharedMemorySpaceAttr())])
    read = after.create("ttg.local_load", operands=[alloc.results[0]], result_types=[t])
    loaded.replace_uses_with_if(read.results[0], lambda use: use.owner is not alloc)
    return scale if consumed else read.results[0]


def _scales_to_tmem(builder: Builder, scale: Value, num_warps: int) -> Value:
    """A block scale of a ``ttng.tc_gen5_mma_scaled`` in a new tensor-memory buffer of the
    scales layout, through shared memory when it is loaded (`_stage_scale_in_shared`)."""
    t: RankedTensorType = scale.type
    memdesc = MemDescType(t.shape, t.element_type, TensorMemoryScalesEncodingAttr(()),
                          TensorMemorySpaceAttr())
    registers = with_encoding(t, linear_attr(default_tmem_layout(memdesc, num_warps)))
    staged = _stage_scale_in_shared(scale)
    return builder.insert(TMEMAllocOp.build(memdesc, None, _convert(builder, staged, registers),
                                            location=builder.location)).results[0]


def scaled_mma_v5_supported(dot: Operation, capability: int, num_warps: int) -> bool:
    """Whether a ``tt.dot_scaled`` becomes a ``ttng.tc_gen5_mma_scaled`` (Triton's
    ScaledBlockedToMMAv5): both scales given, sm_100 to sm_11x, 4 or 8 warps, M at least 128
    and N at least 16."""
    m, n = dot.results[0].type.shape[-2:]
    return (dot.a_scale is not None and dot.b_scale is not None
            and 100 <= capability < 120 and num_warps in (4, 8) and m >= 128 and n >= 16)


def _to_scaled_mma_v5(dot: Operation, num_warps: int) -> None:
    """Rewrites the ``tt.dot_scaled`` ``dot`` as a ``ttng.tc_gen5_mma_scaled``: operands in
    shared memory (fp4 ones K-major, or along M/N when not packed along K, and padded when
    mixed with another type or not packed along K), scales and accumulator in tensor memory."""
    fp4 = [kind == ScaleDotElemType.E2M1 for kind in (dot.a_elem_type, dot.b_elem_type)]
    mixed = dot.a_elem_type != dot.b_elem_type
    k_packed = (dot.lhs_k_pack, dot.rhs_k_pack)
    a_padded = (mixed and fp4[0]) or not k_packed[0]
    b_padded = (mixed and fp4[1] and not fp4[0]) or not k_packed[1]
    a = _to_shared(dot.operands[0], 0, not fp4[0], dot.location, dot, a_padded,
                   not k_packed[0])
    b = _to_shared(dot.operands[1], 1, not fp4[1], dot.location, dot, b_padded,
                   not k_packed[1])
    n = dot.results[0].type.shape[1]
    builder = Builder.before(dot, dot.location)
    acc, token, registers = _tmem_accumulator(builder, dot, 128, min(n, 256), num_warps)
    a_scale = _scales_to_tmem(builder, dot.a_scale, num_warps)
    b_scale = _scales_to_tmem(builder, dot.b_scale, num_warps)
    true = _function_true(dot)
    mma = builder.insert(TCGen5MMAScaledOp.build(
        a, b, acc, a_scale, b_scale, true, true, dot.a_elem_type, dot.b_elem_type,
        AsyncTokenType(), token, location=dot.location))
    _load_tmem_result(builder, dot, acc, mma.results[0], registers)


def sm120_scale_layout(shape: tuple[int, ...], op_idx: int, warps: tuple[int, ...]
                       ) -> LinearEncodingAttr:
    """The ``#ttg.linear`` layout of a block scale of a ``tt.dot_scaled`` on sm_12x's
    ``mma.sync`` with block scaling (Triton's getSM120DotScaledScaleLayout): each thread holds
    its rows' scales along K in registers, lanes of a quad share a row (A: rows 8 apart in the
    two halves of the lanes), warps go along M (A) or N (B) as the accumulator's and repeat
    along K; fitted to ``shape``."""
    lanes = [(8, 0) if op_idx == 0 else (0, 0), (0, 0), (1, 0), (2, 0), (4, 0)]
    rows_per_warp = 16 if op_idx == 0 else 8
    along, across = (warps[0], warps[1]) if op_idx == 0 else (warps[1], warps[0])
    copies = [(0, 0)] * (across.bit_length() - 1)
    rows = [(rows_per_warp << i, 0) for i in range(along.bit_length() - 1)]
    # in the accumulator's warp order: A's copies along K first, B's rows first
    warp_bases = copies + rows if op_idx == 0 else rows + copies
    registers = [(0, 1 << i) for i in range(shape[1].bit_length() - 1)]
    raw = LinearEncodingAttr(tuple(registers), tuple(lanes), tuple(warp_bases), ())
    return linear_attr(encoding_layout(raw, tuple(shape)))


def scaled_mma_v2_supported(dot: Operation, capability: int, num_ctas: int) -> bool:
    """Whether a ``tt.dot_scaled`` stays scaled on sm_12x's ``mma.sync`` (Triton's
    ScaledBlockedToMMA): one CTA, both scales in blocked layouts and of one element type, and
    both operands fp8 or both fp4."""
    if capability // 10 != 12 or num_ctas != 1:
        return False
    if dot.a_scale is None or dot.b_scale is None:
        return False
    scales = (dot.a_scale.type, dot.b_scale.type)
    if not all(isinstance(t.encoding, BlockedEncodingAttr) for t in scales) \
            or scales[0].element_type != scales[1].element_type:
        return False
    fp8 = (ScaleDotElemType.E4M3, ScaleDotElemType.E5M2)
    kinds = (dot.a_elem_type, dot.b_elem_type)
    return all(k in fp8 for k in kinds) or all(k == ScaleDotElemType.E2M1 for k in kinds)


def _to_scaled_mma_v2(dot: Operation, num_warps: int) -> None:
    """Rewrites the ``tt.dot_scaled`` ``dot`` onto an ``#ttg.nvidia_mma`` version 2
    accumulator, keeping it scaled: operands in ``#ttg.dot_op`` layouts of ``kWidth = 32 /
    bits``, scales in the layouts of `sm120_scale_layout`."""
    d_type: RankedTensorType = dot.results[0].type
    warps = warps_per_tile(dot, tuple(d_type.shape), num_warps)
    mma = NvidiaMmaEncodingAttr(2, 0, warps, (16, 8))
    builder = Builder.before(dot, dot.location)
    k_width = 32 // min(_bits(dot.operands[0].type), _bits(dot.operands[1].type))
    a, b = (_convert(builder, v, with_encoding(v.type, DotOperandEncodingAttr(i, mma, k_width)))
            for i, v in enumerate(dot.operands[:2]))
    c = _convert(builder, dot.operands[2], with_encoding(d_type, mma))
    a_scale, b_scale = (
        _convert(builder, s, with_encoding(s.type, sm120_scale_layout(tuple(s.type.shape), i,
                                                                      warps)))
        for i, s in enumerate((dot.a_scale, dot.b_scale)))
    new = builder.insert(DotScaledOp.build(
        a, b, c, dot.a_elem_type, dot.b_elem_type, dot.fast_math, with_encoding(d_type, mma),
        a_scale, b_scale, dot.lhs_k_pack, dot.rhs_k_pack, location=dot.location))
    back = builder.create("ttg.convert_layout", operands=[new.results[0]],
                          result_types=[d_type], location=dot.location)
    dot.results[0].replace_all_uses_with(back.results[0])
    dot.erase()


def accelerate_matmul(module: Operation) -> None:
    """Rewrites the module's dots as the module docstring says."""
    capability = capability_of(module)
    if capability is None:
        return
    for scaled in [op for op in module.walk() if op.name == "tt.dot_scaled"]:
        num_warps = ttg.context_num_warps(scaled)
        if not _is_blocked_like(scaled.results[0].type.encoding) or num_warps is None:
            continue
        if scaled_mma_v5_supported(scaled, capability, num_warps):
            _to_scaled_mma_v5(scaled, num_warps)
        elif scaled_mma_v2_supported(scaled, capability, ttg.num_ctas(module)):
            _to_scaled_mma_v2(scaled, num_warps)
    decompose_scaled_dots(module)
    dots = [op for op in module.walk() if op.name == "tt.dot"]
    # later dots first, as Triton's pattern driver visits them: a chained dot's layout is
    # chosen from the dot that consumes it
    for dot in reversed(dots):
        d_type = dot.results[0].type
        if not isinstance(d_type, RankedTensorType) or not _is_blocked_like(d_type.encoding):
            continue
        num_warps = ttg.context_num_warps(dot)
        if (100 <= capability < 120 and num_warps is not None
                and not (capability == 103 and _kind(dot.operands[0].type) == "i8"
                         and _kind(dot.operands[1].type) == "i8")
                and mma_v5_supported(dot, num_warps)):
            # where the operands do not fit tcgen05 (f32 without tf32), Triton's mma.sync
            # pattern does not take the dot either: it stays on the CUDA cores
            if not _to_mma_v5(dot, num_warps):
                _widen_fma_operands(dot)
        elif 90 <= capability < 100 and num_warps is not None and mma_v3_supported(dot,
                                                                                  num_warps):
            _to_mma_v3(dot, num_warps)
        elif capability >= 80 and num_warps is not None and mma_v2_supported(dot):
            _to_mma_v2(dot, num_warps, capability)
        else:
            _widen_fma_operands(dot)


class TritonGPUAccelerateMatmulPass(TritonGPUAccelerateMatmulPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        accelerate_matmul(op)
