"""``tt.dot`` on tensor cores with ``mma.sync`` (``#ttg.nvidia_mma`` version 2 accumulators).

The accumulator's layout is made of 16x8 tiles per warp: a thread holds c0, c1 at row
``lane / 4``, columns ``2 * (lane % 4) + {0, 1}`` and c2, c3 eight rows below. The operands'
``#ttg.dot_op`` layouts of it hold, per thread, groups of ``kWidth`` consecutive K elements at
K offset ``kWidth * (lane % 4)`` and again ``4 * kWidth`` further, for rows ``lane / 4`` and
eight below (A) or column ``lane / 4`` (B) — the fragments of one instruction
(``m16n8k{8,16,32}``, whose 32-bit registers each hold ``32 / bits`` elements) when ``kWidth``
is that count. When it is larger (operands loaded narrower than they are multiplied), a
thread's group covers several instructions' K slices: the instructions take the same slice of
every thread's group for A and for B, which is a permutation of K that both operands share,
so the sum is the same. Everything is found by coordinates in the layout maps (thread 0's
view; the lane and warp parts agree between the three layouts by construction).

f64 uses ``m8n8k4`` twice per 16x8 tile (rows and rows + 8), one element per register.
"""

from __future__ import annotations

from typing import NamedTuple

import llvmlite.ir as ir

from tilecraft.generated.ttg import DotOperandEncodingAttr
from tilecraft.ir import Operation, Type
from tilecraft.layouts.conversion import registers_by_coordinate

from ..cpu import types as T
from .lowering import F32, F64, I32, Distributed, GPULowering, error_at

Key = tuple[int, ...]
HALF2 = ir.VectorType(ir.HalfType(), 2)


class Instruction(NamedTuple):
    """One ``mma.sync`` form: its intrinsic, the LLVM types of an operand register and of an
    accumulator register, and how many elements each holds."""

    intrinsic: str
    operand: ir.Type
    per_operand: int
    accumulator: ir.Type
    per_accumulator: int


def _kind(t: Type) -> str:
    """The element type's name (``f16``, ``i8``, ...)."""
    return str(T.element_type(t))


def instruction_for(operand: Type, result: Type) -> Instruction | None:
    """The ``mma.sync`` form multiplying ``operand`` elements into ``result`` accumulators."""
    forms = {
        ("f16", "f32"): Instruction("llvm.nvvm.mma.m16n8k16.row.col.f32.f32", HALF2, 2, F32, 1),
        ("f16", "f16"): Instruction("llvm.nvvm.mma.m16n8k16.row.col.f16.f16", HALF2, 2, HALF2,
                                    2),
        ("bf16", "f32"): Instruction("llvm.nvvm.mma.m16n8k16.row.col.bf16", I32, 2, F32, 1),
        ("f32", "f32"): Instruction("llvm.nvvm.mma.m16n8k8.row.col.tf32", I32, 1, F32, 1),
        ("i8", "i32"): Instruction("llvm.nvvm.mma.m16n8k32.row.col.s8", I32, 4, I32, 1),
        ("f64", "f64"): Instruction("llvm.nvvm.mma.m8n8k4.row.col.f64", F64, 1, F64, 1),
    }
    return forms.get((_kind(operand), _kind(result)))


class _Operand:
    """A dot operand's registers by (thread 0's) coordinates."""

    def __init__(self, op: Operation, tensor: Distributed, element: Type) -> None:
        self.op = op
        self.tensor = tensor
        self.index = registers_by_coordinate(tensor.layout)
        self.element = element

    def value(self, coordinate: Key) -> ir.Value:
        register = self.index.get(coordinate)
        if register is None:
            raise error_at(self.op, f"the mma operand layout has no element at {coordinate}")
        return self.tensor.values[register]


def pack(fl: GPULowering, values: list[ir.Value], element: Type, ty: ir.Type) -> ir.Value:
    """``values`` (register forms of ``element``) as one mma register of type ``ty``."""
    b = fl.builder
    if len(values) == 1:
        raw = T.to_memory(fl, values[0], element)
        return raw if raw.type == ty else b.bitcast(raw, ty)
    if len(values) == 2 and T.is_half(element):
        # one vector conversion (cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32) of the f32 registers
        pair = ir.Constant(ir.VectorType(F32, 2), None)
        for position, value in enumerate(values):
            pair = b.insert_element(pair, value, ir.Constant(I32, position))
        half = b.fptrunc(pair, ir.VectorType(T.native_half_type(element), 2))
        return b.bitcast(half, ty)
    width = 32 // len(values)
    word: ir.Value | None = None
    for position, value in enumerate(values):
        bits = T.to_memory(fl, value, element)
        bits = b.zext(bits, I32)
        if position:
            bits = b.shl(bits, ir.Constant(I32, position * width))
        word = bits if word is None else b.or_(word, bits)
    return word if ty == I32 else b.bitcast(word, ty)


def unpack(fl: GPULowering, register: ir.Value, element: Type, count: int) -> list[ir.Value]:
    """The ``count`` elements of an accumulator register, in register form."""
    b = fl.builder
    if count == 1:
        return [register]
    word = b.bitcast(register, I32)
    width = 32 // count
    bits = ir.IntType(width)
    return [T.from_memory(fl, b.trunc(b.lshr(word, ir.Constant(I32, position * width)), bits),
                          element)
            for position in range(count)]


def _call(fl: GPULowering, form: Instruction, a: list[ir.Value], b: list[ir.Value],
          c: list[ir.Value]) -> list[ir.Value]:
    result = ir.LiteralStructType([form.accumulator] * len(c))
    fn = fl.declare(form.intrinsic, result, [form.operand] * (len(a) + len(b))
                    + [form.accumulator] * len(c))
    call = fl.builder.call(fn, [*a, *b, *c])
    return [fl.builder.extract_value(call, i) for i in range(len(c))]


def lower_mma_v2(fl: GPULowering, op: Operation) -> None:
    """``tt.dot`` with an ``#ttg.nvidia_mma`` version 2 result (see the module docstring)."""
    a_value, b_value, c_value = op.operands[:3]
    element = T.element_type(a_value.type)
    result = T.element_type(op.results[0].type)
    form = instruction_for(element, result)
    if form is None or _kind(b_value.type) != _kind(element):
        raise error_at(op, f"mma.sync has no form for {_kind(element)} x {_kind(b_value.type)} "
                       f"-> {_kind(result)}")
    encoding = a_value.type.encoding
    if not isinstance(encoding, DotOperandEncodingAttr):
        raise error_at(op, "the operands of an mma dot need #ttg.dot_op layouts")
    k_width = max(encoding.k_width, 1)
    shape_k = a_value.type.shape[-1]
    tile, offsets = k_slices(k_width, shape_k)
    if shape_k % tile or shape_k % (4 * k_width) or len(offsets) % (2 * form.per_operand):
        raise error_at(op, f"K = {shape_k} with kWidth = {k_width} does not fill whole "
                       f"mma.sync instructions")
    a = _Operand(op, fl.dist(a_value), element)
    b = _Operand(op, fl.dist(b_value), element)
    c = fl.dist(c_value)
    values = list(c.values)
    c_index = registers_by_coordinate(c.layout)
    for origin in c_index:
        *batch, m, n = origin
        if m % 16 or n % 8:
            continue
        batch = tuple(batch)
        if form.accumulator == F64:
            _f64_tile(fl, form, a, b, values, c_index, batch, m, n, shape_k)
        else:
            _tile(fl, form, a, b, values, c_index, batch, m, n, shape_k, k_width, result)
    fl.set(op.results[0], c.with_values(values))


def k_slices(k_width: int, shape_k: int) -> tuple[int, list[int]]:
    """The K extent of one tile of the operand layouts (``8 * kWidth``, or K when smaller) and
    the K offsets that thread 0 holds in a tile, in register order (its lane ``t`` holds these
    plus ``kWidth * t``): ``kWidth`` consecutive ones, and as many ``4 * kWidth`` further when
    the tile has room."""
    tile = min(8 * k_width, shape_k)
    offsets = list(range(k_width))
    if tile == 8 * k_width:
        offsets += [4 * k_width + k for k in range(k_width)]
    return tile, offsets


def _tile(fl: GPULowering, form: Instruction, a: _Operand, b: _Operand, values: list,
          c_index: dict[Key, int], batch: Key, m: int, n: int, shape_k: int, k_width: int,
          result: Type) -> None:
    """The 16x8 accumulator tile at (m, n): every instruction along K. Each instruction takes
    the next two runs of `Instruction.per_operand` of the thread's K offsets as its low and
    high K halves, for A and for B alike."""
    c_registers = [c_index[batch + (m + dm, n + dn)] for dm in (0, 8) for dn in (0, 1)]
    per_acc = form.per_accumulator
    acc = [pack(fl, [values[r] for r in c_registers[i:i + per_acc]], result, form.accumulator)
           if per_acc > 1 else values[c_registers[i]]
           for i in range(0, 4, per_acc)]
    per = form.per_operand
    tile, offsets = k_slices(k_width, shape_k)
    for k_tile in range(0, shape_k, tile):
        for first in range(0, len(offsets), 2 * per):
            halves = [[k_tile + k for k in offsets[first + h * per:first + (h + 1) * per]]
                      for h in (0, 1)]
            a_regs = [pack(fl, [a.value(batch + (m + dm, k)) for k in half], a.element,
                            form.operand)
                      for half in halves for dm in (0, 8)]
            b_regs = [pack(fl, [b.value(batch + (k, n)) for k in half], b.element,
                            form.operand)
                      for half in halves]
            acc = _call(fl, form, a_regs, b_regs, acc)
    flat = [v for register in acc for v in unpack(fl, register, result, per_acc)]
    for register, value in zip(c_registers, flat):
        values[register] = value


def _f64_tile(fl: GPULowering, form: Instruction, a: _Operand, b: _Operand, values: list,
              c_index: dict[Key, int], batch: Key, m: int, n: int, shape_k: int) -> None:
    """The 16x8 accumulator tile at (m, n) as two m8n8k4 halves, one instruction per K
    offset of the thread (``kWidth`` is 1)."""
    tile, offsets = k_slices(1, shape_k)
    for dm in (0, 8):
        registers = [c_index[batch + (m + dm, n + dn)] for dn in (0, 1)]
        acc = [values[r] for r in registers]
        for k_tile in range(0, shape_k, tile):
            for k in offsets:
                acc = _call(fl, form, [a.value(batch + (m + dm, k_tile + k))],
                            [b.value(batch + (k_tile + k, n))], acc)
        for register, value in zip(registers, acc):
            values[register] = value
