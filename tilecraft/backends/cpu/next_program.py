"""Prefetching the row the next program reads.

A program that reads a row from memory and then computes on it (softmax: its maximum, then an
exponential per element) leaves memory idle while it computes, and the next program's loads
then wait on memory while the core idles. On two Zen 3 cores, in C, a softmax of 16384 x 4096
floats took 37.1 ms, and 28.7 ms once each row's exponential loop also prefetched the next
row, a line every 16 elements (23.9 with streaming stores, where memcpy of the same bytes took
22.0). Prefetching the whole next row at the program's start gained nothing (32.8 with
streaming stores, 31.8 without the prefetches): they must be spread through the computation.

So a 1-D load in a program's top-level block, whose pointers run contiguously over the tile
and depend on the program id along the grid's first axis (the one that varies fastest in the
order programs run), has its pointer expression lowered a second time with that program id
plus one, for the address of the first element the next program reads (`prefetch_next_row`),
by the first costly 1-D loop that stores an expression in that scope afterwards
(`FunctionLowering.materialize`): that loop is strip-mined, and each strip prefetches its share
of the row's lines. A prefetch of an address no program reads (after the grid's last program) is
harmless: prefetches never fault.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation, Value

from . import types as T
from .lowering import FunctionLowering
from .tiles import I32, ZERO, BufferTile

# The ops a pointer expression may be built of to be lowered again: pure, and none that emits
# a loop.
_RECOMPUTED = frozenset({
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.extsi", "arith.extui",
    "arith.trunci", "arith.index_cast", "tt.get_program_id", "tt.get_num_programs",
    "tt.splat", "tt.make_range", "tt.addptr", "tt.broadcast", "tt.expand_dims",
})


def prefetch_next_row(fl: FunctionLowering, op: Operation) -> None:
    """Has the next costly loop of this scope prefetch what the `tt.load` ``op`` reads in the
    next program, where it is a 1-D load of the kernel's top-level block whose pointers run
    contiguously and follow the program id along the grid's first axis (see the module
    docstring). Nothing otherwise."""
    shape = op.results[0].type.shape
    block = op.parent
    if len(shape) != 1 or fl.axis_info is None or block is None or \
            fl.axis_info.get(op.ptr).contiguity[0] % shape[0] != 0 or \
            getattr(block.parent_op, "name", None) != "tt.func":
        return
    ops = _pointer_ops(op.ptr, block)
    if ops is None or not any(o.name == "tt.get_program_id" and int(o.axis) == 0 for o in ops):
        return
    lowered = {result: fl.values[result] for o in ops for result in o.results}
    if any(isinstance(tile, BufferTile) for tile in lowered.values()):
        return  # an expression stored in a buffer: lowering it again would emit a loop

    def first_address() -> ir.Value:
        """The pointer expression lowered again with the next program id, for its first
        element (emitted where a loop takes the prefetches: most kernels have none)."""
        try:
            for o in [o for o in block if o in ops]:  # in their order
                if o.name == "tt.get_program_id" and int(o.axis) == 0:
                    fl.values[o.results[0]] = fl.builder.add(fl.pid[0], ir.Constant(I32, 1))
                else:
                    fl.lower_op(o)
            return fl.tile(op.ptr).emit(fl, (ZERO,))
        finally:
            fl.values.update(lowered)

    element = T.byte_size(T.mem_type(T.element_type(op.results[0].type)))
    fl.prefetch_next_read(first_address, shape[0] * element)


def _pointer_ops(ptr: Value, block) -> set[Operation] | None:
    """The ops of ``block`` that ``ptr`` is computed from, or None where one of them is not
    one that `_RECOMPUTED` allows."""
    found: set[Operation] = set()
    pending = [ptr]
    while pending:
        owner = getattr(pending.pop(), "owner", None)
        if not isinstance(owner, Operation) or owner.parent is not block or owner in found:
            continue
        if owner.name not in _RECOMPUTED:
            return None
        found.add(owner)
        pending.extend(owner.operands)
    return found
