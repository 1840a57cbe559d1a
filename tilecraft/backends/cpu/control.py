"""Structured control flow (`scf.for`, `scf.if`, `scf.while`) and branches (`cf.br`,
`cf.cond_br`, `tt.return`).

Values carried around a loop or out of a branch live in fixed storage, a `Carrier`: a stack
slot per scalar (LLVM promotes them to registers) and a stack buffer per tensor. Writing the
yielded values back is a parallel assignment: a yielded tensor that reads one of the loop's own
buffers (``a, b = b, a``, a transpose of the accumulator) is copied aside first.
"""

from __future__ import annotations

from typing import Sequence

from tilecraft.ir import Block, Operation, Region, Value

from . import types as T
from .advancing import Advance, uniform_advances
from .lowering import FunctionLowering, error_at, lowers
from .tiles import BufferTile, Tile, reads_in_place


class Carrier:
    """Storage for values that flow along control-flow edges (loop-carried values, branch
    results, block arguments). ``like`` gives each value's lowered form (a tile, a scalar or a
    tuple of scalars), from which the storage is shaped."""

    def __init__(self, fl: FunctionLowering, like: Sequence) -> None:
        self.fl = fl
        self.slots = [self._storage(value) for value in like]
        self.roots = frozenset(slot.root for slot in self.slots if isinstance(slot, BufferTile))
        fl.carrier_roots |= self.roots

    def _storage(self, value):
        if isinstance(value, Tile):
            return self.fl.new_buffer(value.shape, value.ty)
        if isinstance(value, tuple):
            return tuple(self._storage(v) for v in value)
        return self.fl.alloca(value.type)

    def read(self) -> list:
        return [self._read(slot) for slot in self.slots]

    def _read(self, slot):
        if isinstance(slot, BufferTile):
            return slot
        if isinstance(slot, tuple):
            return tuple(self._read(s) for s in slot)
        return self.fl.builder.load(slot, typ=slot.allocated_type)

    def write(self, values: Sequence) -> None:
        fl = self.fl
        staged = []
        for slot, value in zip(self.slots, values):
            if not isinstance(slot, BufferTile) or _same_buffer(slot, value):
                continue
            others = self.roots - {slot.root}
            if value.buffers() & others or not reads_in_place(value, slot):
                value = fl.materialize(value, into=fl.new_buffer(value.shape, value.ty))
            staged.append((slot, value))
        for slot, value in staged:
            fl.materialize(value, into=slot)
        for slot, value in zip(self.slots, values):
            if not isinstance(slot, BufferTile):
                self._store(slot, value)

    def _store(self, slot, value) -> None:
        if isinstance(slot, tuple):
            for s, v in zip(slot, value):
                self._store(s, v)
            return
        self.fl.builder.store(value, slot)


def _same_buffer(slot: BufferTile, value) -> bool:
    return isinstance(value, BufferTile) and value.ptr is slot.ptr and \
        value.strides == slot.strides and value.shape == slot.shape


def _lowered(fl: FunctionLowering, values: Sequence[Value]) -> list:
    return [fl.get(v) for v in values]


@lowers("scf.for")
def _for(fl: FunctionLowering, op: Operation) -> None:
    b = fl.builder
    lower, upper, step = fl.get(op.lower_bound), fl.get(op.upper_bound), fl.get(op.step)
    inits = _lowered(fl, op.init_args)
    advances = uniform_advances(fl, op)
    carrier = Carrier(fl, _others(inits, advances))
    carrier.write(_others(inits, advances))
    for advance in advances.values():
        advance.start(fl, inits[advance.index], op)
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
    with fl.new_memo_scope():
        yielded = fl.lower_block(op.body, [iv, *_merged(fl, carrier.read(), advances)])
        for advance in advances.values():
            advance.advance(fl)
        carrier.write(_others(yielded, advances))
    b.store(b.add(iv, step), iv_slot)
    b.branch(head)
    b.position_at_end(exit_)
    for result, value in zip(op.results, _merged(fl, carrier.read(), advances)):
        fl.values[result] = value


def _others(values: list, advances: dict[int, Advance]) -> list:
    """``values`` less those of the iteration arguments held as advances."""
    return [value for index, value in enumerate(values) if index not in advances]


def _merged(fl: FunctionLowering, others: list, advances: dict[int, Advance]) -> list:
    """The values of all iteration arguments: ``others`` in order, advances read in place."""
    rest = iter(others)
    return [advances[index].read(fl) if index in advances else next(rest)
            for index in range(len(others) + len(advances))]


@lowers("scf.if")
def _if(fl: FunctionLowering, op: Operation) -> None:
    b = fl.builder
    then_block = op.then_region.blocks[0]
    else_blocks = op.else_region.blocks
    carrier = None
    if op.results:
        carrier = _result_carrier(fl, op)
    then_bb = b.append_basic_block("if.then")
    else_bb = b.append_basic_block("if.else") if else_blocks else None
    merge = b.append_basic_block("if.end")
    b.cbranch(fl.get(op.condition), then_bb, else_bb or merge)
    for block, bb in ((then_block, then_bb), (else_blocks[0] if else_blocks else None, else_bb)):
        if block is None:
            continue
        b.position_at_end(bb)
        with fl.new_memo_scope():
            yielded = fl.lower_block(block, [])
            if carrier is not None:
                carrier.write(yielded)
        b.branch(merge)
    b.position_at_end(merge)
    if carrier is not None:
        for result, value in zip(op.results, carrier.read()):
            fl.values[result] = value


def _result_carrier(fl: FunctionLowering, op: Operation) -> Carrier:
    """Storage shaped like ``op``'s results."""
    return Carrier(fl, [T.placeholder(result.type) for result in op.results])


@lowers("scf.while")
def _while(fl: FunctionLowering, op: Operation) -> None:
    b = fl.builder
    inits = _lowered(fl, op.inits)
    carrier = Carrier(fl, inits)
    carrier.write(inits)
    before = b.append_basic_block("while.before")
    after = b.append_basic_block("while.after")
    exit_ = b.append_basic_block("while.end")
    b.branch(before)
    b.position_at_end(before)
    with fl.new_memo_scope():
        condition, *forwarded = fl.lower_block(op.before.blocks[0], carrier.read())
    b.cbranch(condition, after, exit_)
    b.position_at_end(after)
    with fl.new_memo_scope():
        yielded = fl.lower_block(op.after.blocks[0], forwarded)
        carrier.write(yielded)
    b.branch(before)
    b.position_at_end(exit_)
    for result, value in zip(op.results, forwarded):
        fl.values[result] = value


# -- unstructured control flow at the top of a function ------------------------------------------

def lower_region(fl: FunctionLowering, region: Region, args: Sequence) -> None:
    """Lowers a function body: one block, or several joined by `cf` branches."""
    blocks = list(region.blocks)
    if len(blocks) == 1:
        fl.lower_block(blocks[0], args)
        return
    fl.cfg = {}
    for block in blocks:
        fl.cfg[block] = (fl.builder.append_basic_block("bb"), None)
    for index, block in enumerate(blocks):
        bb, _ = fl.cfg[block]
        if index == 0:
            fl.builder.branch(bb)
        fl.builder.position_at_end(bb)
        carrier = fl.cfg[block][1]
        with fl.new_memo_scope():
            fl.lower_block(block, args if index == 0 else (carrier.read() if carrier else []))


def _branch_to(fl: FunctionLowering, op: Operation, target: Block, operands) -> None:
    bb, carrier = fl.cfg[target]
    values = _lowered(fl, operands)
    if values:
        if carrier is None:
            carrier = Carrier(fl, values)
            fl.cfg[target] = (bb, carrier)
        carrier.write(values)
    fl.builder.branch(bb)


@lowers("cf.br")
def _br(fl: FunctionLowering, op: Operation) -> None:
    _branch_to(fl, op, op.successors[0], op.operands)


@lowers("cf.cond_br")
def _cond_br(fl: FunctionLowering, op: Operation) -> None:
    b = fl.builder
    true_bb = b.append_basic_block("br.true")
    false_bb = b.append_basic_block("br.false")
    b.cbranch(fl.get(op.condition), true_bb, false_bb)
    b.position_at_end(true_bb)
    _branch_to(fl, op, op.successors[0], op.true_dest_operands)
    b.position_at_end(false_bb)
    _branch_to(fl, op, op.successors[1], op.false_dest_operands)


@lowers("tt.return")
def _return(fl: FunctionLowering, op: Operation) -> None:
    if op.operands:
        raise error_at(op, "the CPU backend runs kernels only: a function that returns values "
                       "must be inlined into its caller")
    fl.builder.ret_void()


@lowers("tt.call")
def _call(fl: FunctionLowering, op: Operation) -> None:
    raise error_at(op, f"call to @{op.callee} was not inlined: the CPU backend needs every "
                   "@jit function inlined into the kernel")
