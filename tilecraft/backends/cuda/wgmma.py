"""``ttng.warp_group_dot`` on Hopper's tensor cores: ``wgmma.mma_async`` (sm_90a) reading both
operands from shared memory through matrix descriptors.

A warp group (4 consecutive warps) computes a 64 x n tile of the ``#ttg.nvidia_mma`` version 3
accumulator per instruction (``m64nNk16`` for f16 and bf16). Its registers are the mma tile's:
thread ``t`` of warp ``w`` holds, for each 8 columns ``j``, the elements at row ``16 w + t / 4``
and eight below, columns ``8 j + 2 (t % 4)`` and the next — found by coordinates in the
accumulator's layout map (thread 0's view), as for ``mma.sync``.

A *matrix descriptor* names an operand tile in an ``#ttg.nvmma_shared`` buffer: its start
address, the swizzle mode, and two strides in 16-byte units that the layout map gives
(`Descriptor`). The core matrices of a swizzled layout are 8 rows of the swizzle width along
the contiguous dim; the *stride* offset (SBO) steps 8 rows along the other dim, the *leading*
offset (LBO) steps one swizzle width along the contiguous dim when that dim is M or N (an
instruction's K never leaves a core matrix). An instruction's tile starts at the buffer offset
of its corner: the warp group's part (from the warp index) plus a constant. Operands stored
with M or N contiguous are read transposed (``imm-trans`` 1; f16 and bf16 only).

The sequence for one dot is ``wgmma.fence``, the instructions (K fastest, each adding into the
accumulator registers of its tile), ``wgmma.commit_group`` and, unless the dot is asynchronous,
``wgmma.wait_group 0``; the accumulator registers pass through the wait so that nothing reads
them before it. An asynchronous dot leaves the wait to ``ttng.warp_group_dot_wait``, except
into f16 accumulators (packed in pairs around the instructions), which it waits for itself.
"""

from __future__ import annotations

from typing import NamedTuple

import llvmlite.ir as ir

from tilecraft.dialects.foldutils import const_attr, is_zero
from tilecraft.generated.ttg import NVMMASharedEncodingAttr, NvidiaMmaEncodingAttr
from tilecraft.ir import Operation
from tilecraft.layouts.conversion import registers_by_coordinate
from tilecraft.layouts.linear import LinearLayout
from tilecraft.transforms.accelerate_matmul import WGMMA_TYPES

from .lowering import F32, I32, Distributed, GPULowering, error_at, lowers
from .mma import pack, unpack
from .shared_memory import SharedTensor

I64 = ir.IntType(64)
_SWIZZLE_MODES = {128: 1, 64: 2, 32: 3}
#: PTX names of the operand and accumulator types.
_PTX_TYPES = {"f16": "f16", "bf16": "bf16", "f32": "tf32", "i8": "s8", "f8E4M3FN": "e4m3",
              "f8E5M2": "e5m2"}
_ACCUMULATORS = {"f32": "f32", "f16": "f16", "i32": "s32"}


class Descriptor(NamedTuple):
    """The constant fields of an operand's matrix descriptors and how to find a tile: the
    buffer's inverse map (coordinates -> element offset), the element size, and whether the
    operand is read transposed (M or N contiguous)."""

    fields: int
    inverse: LinearLayout
    element_bytes: int
    transposed: bool

    def offset(self, coordinate: tuple[int, int]) -> int:
        """The element offset of ``coordinate`` in the buffer."""
        return self.inverse.apply(dim0=coordinate[0], dim1=coordinate[1])[0]


def descriptor(op: Operation, memdesc_type, tensor: SharedTensor, k_dim: int) -> Descriptor:
    """The descriptor of a ``wgmma`` operand stored in ``tensor`` (``k_dim`` is its K dim: 1
    for A, 0 for B), from its NVMMA layout's map."""
    encoding = memdesc_type.encoding
    if not isinstance(encoding, NVMMASharedEncodingAttr) or \
            encoding.swizzling_byte_width not in _SWIZZLE_MODES:
        raise error_at(op, f"wgmma reads operands from swizzled #ttg.nvmma_shared layouts "
                       f"(32, 64 or 128 bytes), not {encoding}")
    element_bytes = memdesc_type.element_type.width // 8
    inverse = tensor.layout.invert()
    contiguous = 0 if encoding.transposed else 1
    tile = encoding.swizzling_byte_width // element_bytes

    def step(dim: int, size: int) -> int:
        """Bytes between the elements ``size`` apart along ``dim`` (16-byte units)."""
        shape = (tensor.layout.out_dim_size("dim0"), tensor.layout.out_dim_size("dim1"))
        if size >= shape[dim]:
            return 0
        corner = (size, 0) if dim == 0 else (0, size)
        return inverse.apply(dim0=corner[0], dim1=corner[1])[0] * element_bytes >> 4

    strided = 1 - contiguous
    sbo = step(strided, 8)
    lbo = step(contiguous, tile) if contiguous != k_dim else 0
    fields = (lbo << 16) | (sbo << 32) | (_SWIZZLE_MODES[encoding.swizzling_byte_width] << 62)
    return Descriptor(fields, inverse, element_bytes, contiguous != k_dim)


def _warp_group_offset(fl: GPULowering, accumulator: LinearLayout, operand: Descriptor,
                       mn_dim: int, operand_mn_dim: int) -> ir.Value:
    """The element offset of this warp group's corner in an operand: the coordinate that the
    accumulator's warp bits beyond the group's four warps give along M (or N), mapped through
    the operand's buffer map."""
    bases = []
    for bit in range(accumulator.in_dim_bits("warp")):
        coordinate = accumulator.basis("warp", bit)[mn_dim] if bit >= 2 else 0
        corner = [0, 0]
        corner[operand_mn_dim] = coordinate
        bases.append((operand.offset(tuple(corner)) if coordinate else 0,))
    size = 1 << max((b[0] for b in bases), default=0).bit_length()
    return fl.thread_offsets(LinearLayout({"warp": bases}, {"offset": size}))[0]


def _asm(fl: GPULowering, text: str, result: ir.Type, constraints: str,
         args: list[ir.Value]) -> ir.Value:
    ftype = ir.FunctionType(result, [a.type for a in args])
    return fl.builder.call(ir.InlineAsm(ftype, text, constraints, side_effect=True), args)


def lower_wgmma(fl: GPULowering, op: Operation) -> None:
    """``ttng.warp_group_dot`` (see the module docstring)."""
    a_value, b_value, c_value = op.operands[:3]
    result_type = op.results[0].type
    mma = result_type.encoding
    if not isinstance(mma, NvidiaMmaEncodingAttr) or mma.version_major != 3:
        raise error_at(op, "wgmma needs an #ttg.nvidia_mma version 3 accumulator")
    if fl.capability != 90:
        raise error_at(op, f"wgmma needs sm_90a, not sm_{fl.capability}")
    if op.use_c is not None:
        raise error_at(op, "the CUDA backend does not lower ttng.warp_group_dot with useC")
    kind = str(a_value.type.element_type)
    accumulate = str(result_type.element_type)
    if accumulate not in WGMMA_TYPES.get(kind, ()) or str(b_value.type.element_type) != kind:
        raise error_at(op, f"wgmma has no form for {kind} x {b_value.type.element_type} -> "
                       f"{accumulate}")
    a_tensor, b_tensor = fl.get(a_value), fl.get(b_value)
    if not isinstance(a_tensor, (SharedTensor, Distributed)) \
            or not isinstance(b_tensor, SharedTensor):
        raise error_at(op, "wgmma reads B from shared memory and A from shared memory or "
                       "registers")
    if any(isinstance(t, SharedTensor) and t.count > 1 for t in (a_tensor, b_tensor)):
        raise error_at(op, "wgmma on a multi-buffered allocation: pick one buffer with "
                       "ttg.memdesc_index first")
    a_desc = (descriptor(op, a_value.type, a_tensor, 1)
              if isinstance(a_tensor, SharedTensor) else None)
    b_desc = descriptor(op, b_value.type, b_tensor, 0)
    if a_value.type.element_type.width != 16 and (b_desc.transposed
                                                  or a_desc is not None and a_desc.transposed):
        raise error_at(op, f"wgmma reads {kind} operands K-major only")
    _, instr_n, instr_k = mma.instr_shape
    shape_k = a_value.type.shape[1]
    if shape_k % instr_k:
        raise error_at(op, f"K = {shape_k} is not a multiple of the wgmma K ({instr_k})")
    c = fl.dist(c_value)
    layout = c.layout
    b_group = _warp_group_offset(fl, layout, b_desc, 1, 1)
    b = fl.builder
    if a_desc is not None:
        a_group = _warp_group_offset(fl, layout, a_desc, 0, 0)
        a_base = _descriptor_base(fl, a_tensor, a_group, a_desc)
    else:
        a_index = registers_by_coordinate(a_tensor.layout)
    b_base = _descriptor_base(fl, b_tensor, b_group, b_desc)
    values = list(c.values)
    index = registers_by_coordinate(layout)
    # a zero accumulator is not read: the first instruction of each tile starts from 0
    zero_start = is_zero(const_attr(c_value))
    _asm(fl, "wgmma.fence.sync.aligned;", ir.VoidType(), "~{memory}", [])
    tiles: list[tuple[list[int], list[ir.Value]]] = []
    for origin in index:
        m, n = origin
        if m % 64 or n % instr_n:
            continue
        registers = [index[(m + 8 * ((i // 2) % 2), n + 8 * (i // 4) + i % 2)]
                     for i in range(instr_n // 2)]
        acc = [values[r] for r in registers]
        if accumulate == "f16":
            acc = [pack(fl, acc[i:i + 2], result_type.element_type, I32)
                   for i in range(0, len(acc), 2)]
        for k in range(0, shape_k, instr_k):
            if a_desc is not None:
                a_operand = [b.add(a_base, ir.Constant(I64, _units(a_desc, a_tensor, (m, k))))]
            else:
                a_operand = _fragment(fl, op, a_tensor, a_value.type.element_type, a_index,
                                      m, k)
            b_address = b.add(b_base, ir.Constant(I64, _units(b_desc, b_tensor, (k, n))))
            acc = _instruction(fl, kind, accumulate, instr_n, instr_k, a_operand, b_address,
                               None if k == 0 and zero_start else acc,
                               a_desc is not None and a_desc.transposed, b_desc.transposed,
                               len(acc))
        tiles.append((registers, acc))
    _asm(fl, "wgmma.commit_group.sync.aligned;", ir.VoidType(), "~{memory}", [])
    # f16 accumulators are packed around the instructions, so an asynchronous dot into them
    # runs synchronously (the pipeliner waits for such a dot right after it anyway)
    if not op.is_async or accumulate == "f16":
        flat = wait_for(fl, [v for _, acc in tiles for v in acc], 0)
        tiles = [(registers, flat[i * len(acc):(i + 1) * len(acc)])
                 for i, (registers, acc) in enumerate(tiles)]
    for registers, acc in tiles:
        outputs = acc if accumulate != "f16" else [
            value for word in acc for value in unpack(fl, word, result_type.element_type, 2)]
        for r, value in zip(registers, outputs):
            values[r] = value
    fl.set(op.results[0], c.with_values(values))


def wait_for(fl: GPULowering, values: list[ir.Value], pending: int) -> list[ir.Value]:
    """``wgmma.wait_group pending`` with ``values`` (32-bit accumulator registers: f32, i32 or
    packed f16 pairs) tied through it, so that nothing reads them before the wait."""
    text = f"wgmma.wait_group.sync.aligned {pending};"
    if not values:
        _asm(fl, text, ir.VoidType(), "~{memory}", [])
        return values
    code = "f" if values[0].type == F32 else "r"
    n = len(values)
    result = ir.LiteralStructType([v.type for v in values])
    constraints = ",".join([f"={code}"] * n + [str(i) for i in range(n)] + ["~{memory}"])
    call = _asm(fl, text, result, constraints, values)
    return [fl.builder.extract_value(call, i) for i in range(n)]


def _descriptor_base(fl: GPULowering, tensor: SharedTensor, group: ir.Value,
                     desc: Descriptor) -> ir.Value:
    """The descriptor of the buffer's start plus this warp group's corner, as an i64."""
    b = fl.builder
    address = b.ptrtoint(tensor.base, I32)
    address = b.add(address, b.mul(group, ir.Constant(I32, desc.element_bytes)))
    start = b.and_(b.lshr(address, ir.Constant(I32, 4)), ir.Constant(I32, 0x3FFF))
    return b.or_(b.zext(start, I64), ir.Constant(I64, desc.fields))


def _units(desc: Descriptor, tensor: SharedTensor, coordinate: tuple[int, int]) -> int:
    """The 16-byte units from the buffer's (or warp group's) start to a tile's corner."""
    return (desc.offset(coordinate) ^ tensor.corner) * desc.element_bytes >> 4


def _fragment(fl: GPULowering, op: Operation, a: Distributed, element, index: dict, m: int,
              k: int) -> list[ir.Value]:
    """The four 32-bit registers of an A operand held in registers for the instruction at
    (m, k): runs of ``32 / bits`` K neighbours at row ``t / 4``, eight rows below, and both
    again four runs further along K (thread 0's coordinates; the lane and warp parts are the
    layout's)."""
    per = 32 // element.width
    registers = []
    for dk in (0, 4 * per):
        for dm in (0, 8):
            run = []
            for e in range(per):
                register = index.get((m + dm, k + dk + e))
                if register is None:
                    raise error_at(op, f"the wgmma A operand's layout has no element at "
                                   f"{(m + dm, k + dk + e)}")
                run.append(a.values[register])
            registers.append(pack(fl, run, element, I32))
    return registers


def _instruction(fl: GPULowering, kind: str, accumulate: str, n: int, k: int,
                 a: list[ir.Value], b: ir.Value, acc: list[ir.Value] | None, trans_a: bool,
                 trans_b: bool, count: int) -> list[ir.Value]:
    """One ``wgmma.mma_async`` into ``count`` accumulator registers: A as a descriptor (one
    i64) or four registers; ``acc`` None starts from zero (scale-d false) instead of adding
    into the registers."""
    registers = ", ".join(f"${i}" for i in range(count))
    if len(a) == 1:
        a_text, a_codes = f"${count}", ["l"]
        trans = f", {int(trans_a)}, {int(trans_b)}"
    else:
        a_text = "{" + ", ".join(f"${count + i}" for i in range(4)) + "}"
        a_codes = ["r"] * 4
        trans = f", {int(trans_b)}"
    # only 16-bit types transpose; integer products take no scale immediates either
    immediates = ("" if kind == "i8" else ", 1, 1") + (trans if kind in ("f16", "bf16") else "")
    b_text = f"${count + len(a)}"
    text = (f"{{\n.reg .pred p;\nsetp.ne.b32 p, {int(acc is not None)}, 0;\n"
            f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{_ACCUMULATORS[accumulate]}."
            f"{_PTX_TYPES[kind]}.{_PTX_TYPES[kind]} "
            f"{{{registers}}}, {a_text}, {b_text}, p{immediates};\n}}")
    code = "f" if accumulate == "f32" else "r"
    tied = [] if acc is None else [str(i) for i in range(count)]
    constraints = ",".join([f"={code}"] * count + a_codes + ["l"] + tied)
    register = {"f32": F32}.get(accumulate, I32)
    result = ir.LiteralStructType([register] * count)
    call = _asm(fl, text, result, constraints, [*a, b, *(acc or [])])
    return [fl.builder.extract_value(call, i) for i in range(count)]


@lowers("ttng.warp_group_dot")
def _warp_group_dot(fl: GPULowering, op: Operation) -> None:
    lower_wgmma(fl, op)


@lowers("ttng.warp_group_dot_wait")
def _warp_group_dot_wait(fl: GPULowering, op: Operation) -> None:
    """Waits until at most ``pendings`` asynchronous dots are in flight; the f32 and i32
    accumulators among the inputs pass through the wait, f16 ones (of dots that ran
    synchronously) and descriptors as they are."""
    lowered = [fl.get(v) for v in op.operands]
    tensors = [v for v in lowered if isinstance(v, Distributed)
               and all(value.type in (F32, I32) for value in v.values)]
    flat = wait_for(fl, [value for tensor in tensors for value in tensor.values], op.pendings)
    for source, result in zip(lowered, op.results):
        if any(source is tensor for tensor in tensors):
            count = len(source.values)
            source, flat = source.with_values(flat[:count]), flat[count:]
        fl.set(result, source)
