"""Structured control flow (``scf.for``, ``scf.if``, ``scf.while``), branches (``cf.br``,
``cf.cond_br``) and ``tt.return`` on the GPU.

Values carried around a loop or out of a branch live in stack slots, one per LLVM scalar (a
tensor has one per register); LLVM's SROA turns them into registers and phis. A shared memory
descriptor (`SharedTensor`) carried by a loop keeps only its address in a slot: its layout,
view corner and buffers are the init's, and a yielded descriptor that differs in them is an
error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import llvmlite.ir as ir

from tilecraft.ir import Block, Operation, RankedTensorType, Region, Type, Value

from ..cpu import types as T
from .lowering import Distributed, GPULowering, error_at, lowers, reg_type
from .shared_memory import SharedTensor


class Carrier:
    """Stack slots for values flowing along control-flow edges, shaped like ``like`` (lowered
    values: scalars, `Distributed` tensors, tuples for block pointers)."""

    def __init__(self, fl: GPULowering, like: Sequence) -> None:
        self.fl = fl
        self.like = list(like)
        self.slots = [self._storage(value) for value in like]

    def _storage(self, value):
        if isinstance(value, Distributed):
            return [self.fl.alloca(v.type) for v in value.values]
        if isinstance(value, tuple):
            return tuple(self._storage(v) for v in value)
        if isinstance(value, SharedTensor):
            return self.fl.alloca(value.base.type)
        return self.fl.alloca(value.type)

    def read(self) -> list:
        return [self._read(slot, like) for slot, like in zip(self.slots, self.like)]

    def _read(self, slot, like):
        b = self.fl.builder
        if isinstance(like, Distributed):
            return like.with_values([b.load(s, typ=s.allocated_type) for s in slot])
        if isinstance(like, tuple):
            return tuple(self._read(s, v) for s, v in zip(slot, like))
        if isinstance(like, SharedTensor):
            return replace(like, base=b.load(slot, typ=slot.allocated_type))
        return b.load(slot, typ=slot.allocated_type)

    def write(self, values: Sequence) -> None:
        for slot, value, like in zip(self.slots, values, self.like):
            self._write(slot, value, like)

    def _write(self, slot, value, like) -> None:
        b = self.fl.builder
        if isinstance(value, SharedTensor):
            if replace(value, base=like.base) != like:
                raise error_at(self.fl.current_op, "the CUDA backend carries a shared memory "
                               "descriptor only when every value it takes has the same "
                               "layout, view corner and buffers")
            b.store(value.base, slot)
        elif isinstance(value, Distributed):
            for s, v in zip(slot, value.values):
                b.store(v, s)
        elif isinstance(value, tuple):
            for s, v, w in zip(slot, value, like):
                self._write(s, v, w)
        else:
            b.store(value, slot)


def placeholder(fl: GPULowering, t: Type):
    """A value shaped like one of type ``t``, to shape a `Carrier` before the value exists."""
    if isinstance(t, RankedTensorType):
        layout = fl.layout(t)
        undefined = ir.Constant(reg_type(t), None)
        return Distributed(layout, [undefined] * layout.in_dim_size("register"), tuple(t.shape))
    if T.is_block_pointer(t):
        return tuple(ir.Constant(ty, None) for ty in _block_pointer_types(t))
    return ir.Constant(reg_type(t), None)


def _block_pointer_types(t: Type) -> tuple[ir.Type, ...]:
    rank = len(t.pointee_type.shape)
    return (ir.PointerType(addrspace=t.address_space),) + (T.I64,) * (2 * rank) + \
        (T.I32,) * rank


def _lowered(fl: GPULowering, values: Sequence[Value]) -> list:
    return [fl.get(v) for v in values]


@lowers("scf.for")
def _for(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    lower, upper, step = fl.get(op.lower_bound), fl.get(op.upper_bound), fl.get(op.step)
    inits = _lowered(fl, op.init_args)
    carrier = Carrier(fl, inits)
    carrier.write(inits)
    iv_slot = fl.alloca(lower.type)
    b.store(lower, iv_slot)
    head = b.append_basic_block("for.head")
    body = b.append_basic_block("for.body")
    exit_ = b.append_basic_block("for.end")
    b.branch(head)
    b.position_at_end(head)
    iv = b.load(iv_slot, typ=lower.type)
    compare = b.icmp_unsigned if op.unsigned_cmp else b.icmp_signed
    b.cbranch(compare("<", iv, upper), body, exit_)
    b.position_at_end(body)
    yielded = fl.lower_block(op.body, [iv, *carrier.read()])
    carrier.write(yielded)
    b.store(b.add(iv, step), iv_slot)
    b.branch(head)
    b.position_at_end(exit_)
    for result, value in zip(op.results, carrier.read()):
        fl.set(result, value)


@lowers("scf.if")
def _if(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    then_block = op.then_region.blocks[0]
    else_blocks = op.else_region.blocks
    carrier = Carrier(fl, [placeholder(fl, r.type) for r in op.results]) if op.results else None
    then_bb = b.append_basic_block("if.then")
    else_bb = b.append_basic_block("if.else") if else_blocks else None
    merge = b.append_basic_block("if.end")
    b.cbranch(fl.get(op.condition), then_bb, else_bb or merge)
    for block, bb in ((then_block, then_bb), (else_blocks[0] if else_blocks else None, else_bb)):
        if block is None:
            continue
        b.position_at_end(bb)
        yielded = fl.lower_block(block, [])
        if carrier is not None:
            carrier.write(yielded)
        b.branch(merge)
    b.position_at_end(merge)
    if carrier is not None:
        for result, value in zip(op.results, carrier.read()):
            fl.set(result, value)


@lowers("scf.while")
def _while(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    inits = _lowered(fl, op.inits)
    carrier = Carrier(fl, inits)
    carrier.write(inits)
    before = b.append_basic_block("while.before")
    after = b.append_basic_block("while.after")
    exit_ = b.append_basic_block("while.end")
    b.branch(before)
    b.position_at_end(before)
    condition, *forwarded = fl.lower_block(op.before.blocks[0], carrier.read())
    if isinstance(condition, Distributed):
        condition = condition.values[0]
    results = Carrier(fl, forwarded)
    results.write(forwarded)
    b.cbranch(condition, after, exit_)
    b.position_at_end(after)
    yielded = fl.lower_block(op.after.blocks[0], results.read())
    carrier.write(yielded)
    b.branch(before)
    b.position_at_end(exit_)
    for result, value in zip(op.results, results.read()):
        fl.set(result, value)


def lower_region(fl: GPULowering, region: Region, args: Sequence) -> None:
    """Lowers a function body: one block, or several joined by `cf` branches."""
    blocks = list(region.blocks)
    if len(blocks) == 1:
        fl.lower_block(blocks[0], args)
        return
    fl.cfg = {block: [fl.builder.append_basic_block("bb"), None] for block in blocks}
    for index, block in enumerate(blocks):
        bb, _ = fl.cfg[block]
        if index == 0:
            fl.builder.branch(bb)
        fl.builder.position_at_end(bb)
        carrier = fl.cfg[block][1]
        fl.lower_block(block, args if index == 0 else (carrier.read() if carrier else []))


def _branch_to(fl: GPULowering, target: Block, operands: Sequence[Value]) -> None:
    entry = fl.cfg[target]
    values = _lowered(fl, operands)
    if values:
        if entry[1] is None:
            entry[1] = Carrier(fl, values)
        entry[1].write(values)
    fl.builder.branch(entry[0])


@lowers("cf.br")
def _br(fl: GPULowering, op: Operation) -> None:
    _branch_to(fl, op.successors[0], op.operands)


@lowers("cf.cond_br")
def _cond_br(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    true_bb = b.append_basic_block("br.true")
    false_bb = b.append_basic_block("br.false")
    b.cbranch(fl.get(op.condition), true_bb, false_bb)
    b.position_at_end(true_bb)
    _branch_to(fl, op.successors[0], op.true_dest_operands)
    b.position_at_end(false_bb)
    _branch_to(fl, op.successors[1], op.false_dest_operands)


@lowers("tt.return")
def _return(fl: GPULowering, op: Operation) -> None:
    fl.builder.ret_void()
