"""`tt.reduce` and `tt.scan`: loops along the reduced axis that run the op's combine region as
scalar code.

When the axis is the innermost one each output element is a scalar accumulator loop (its
floating-point adds and multiplies may be reassociated, so LLVM vectorizes it); otherwise the
loop over the axis is outermost and the inner loops run over the kept dimensions, updating a
buffer of accumulators with unit stride.
"""

from __future__ import annotations

from typing import Sequence

import llvmlite.ir as ir

from tilecraft.ir import Operation

from .lowering import FunctionLowering, lowers
from .tiles import I32, Tile


def _combine(fl: FunctionLowering, op: Operation, accumulators: Sequence[ir.Value],
             elements: Sequence[ir.Value], reassociate: bool) -> list:
    """The combine region applied to (accumulators, elements), as scalar code here."""
    fl.reduction_depth += reassociate
    try:
        with fl.new_memo_scope():
            return fl.lower_block(op.body, [*accumulators, *elements])
    finally:
        fl.reduction_depth -= reassociate


def _with_axis(idx: tuple, axis: int, position: ir.Value) -> tuple:
    return idx[:axis] + (position,) + idx[axis:]


@lowers("tt.reduce")
def _reduce(fl: FunctionLowering, op: Operation) -> None:
    sources: list[Tile] = [fl.tile(v) for v in op.srcs]
    axis = op.axis
    shape = sources[0].shape
    length = shape[axis]
    kept = shape[:axis] + shape[axis + 1:]
    b = fl.builder
    zero = ir.Constant(I32, 0)

    if not kept or axis == len(shape) - 1:
        outputs = [fl.new_buffer(kept, src.ty) for src in sources] if kept else None
        slots = [fl.alloca(src.ty) for src in sources]

        def reduce_row(idx: tuple) -> list:
            for slot, src in zip(slots, sources):
                b.store(src.emit(fl, _with_axis(idx, axis, zero)), slot)
            if length > 1:
                with fl.loop(length, start=1) as k:
                    accumulators = [b.load(s, typ=s.allocated_type) for s in slots]
                    elements = [src.emit(fl, _with_axis(idx, axis, k)) for src in sources]
                    for slot, value in zip(slots, _combine(fl, op, accumulators, elements, True)):
                        b.store(value, slot)
            return [b.load(s, typ=s.allocated_type) for s in slots]

        if not kept:
            for result, value in zip(op.results, reduce_row(())):
                fl.set(result, value)
            return

        def store_row(idx: tuple) -> None:
            for out, value in zip(outputs, reduce_row(idx)):
                fl.store_element(out, idx, value)

        fl.loop_nest(kept, store_row)
        for result, out in zip(op.results, outputs):
            fl.set(result, out)
        return

    outputs = [fl.new_buffer(kept, src.ty) for src in sources]

    def first(idx: tuple) -> None:
        for out, src in zip(outputs, sources):
            fl.store_element(out, idx, src.emit(fl, _with_axis(idx, axis, zero)))

    fl.loop_nest(kept, first)
    if length > 1:
        with fl.loop(length, start=1) as k:
            def accumulate(idx: tuple) -> None:
                accumulators = [fl.load_element(out, idx) for out in outputs]
                elements = [src.emit(fl, _with_axis(idx, axis, k)) for src in sources]
                for out, value in zip(outputs, _combine(fl, op, accumulators, elements, True)):
                    fl.store_element(out, idx, value)

            fl.loop_nest(kept, accumulate)
    for result, out in zip(op.results, outputs):
        fl.set(result, out)


@lowers("tt.scan")
def _scan(fl: FunctionLowering, op: Operation) -> None:
    sources: list[Tile] = [fl.tile(v) for v in op.srcs]
    axis = op.axis
    shape = sources[0].shape
    length = shape[axis]
    kept = shape[:axis] + shape[axis + 1:]
    outputs = [fl.new_buffer(shape, src.ty) for src in sources]
    b = fl.builder
    last = ir.Constant(I32, length - 1)

    def position(k: ir.Value) -> ir.Value:
        return b.sub(last, k, flags=("nuw", "nsw")) if op.reverse else k

    first_position = last if op.reverse else ir.Constant(I32, 0)

    def start(idx: tuple) -> None:
        at = _with_axis(idx, axis, first_position)
        for out, src in zip(outputs, sources):
            fl.store_element(out, at, src.emit(fl, at))

    def step(idx: tuple, k: ir.Value) -> None:
        here = position(k)
        previous = b.add(here, ir.Constant(I32, 1)) if op.reverse else \
            b.sub(here, ir.Constant(I32, 1), flags=("nuw", "nsw"))
        accumulators = [fl.load_element(out, _with_axis(idx, axis, previous)) for out in outputs]
        elements = [src.emit(fl, _with_axis(idx, axis, here)) for src in sources]
        for out, value in zip(outputs, _combine(fl, op, accumulators, elements, False)):
            fl.store_element(out, _with_axis(idx, axis, here), value)

    if axis == len(shape) - 1:
        def row(idx: tuple) -> None:
            start(idx)
            if length > 1:
                with fl.loop(length, start=1) as k:
                    step(idx, k)

        fl.loop_nest(kept, row)
    else:
        fl.loop_nest(kept, start)
        if length > 1:
            with fl.loop(length, start=1) as k:
                fl.loop_nest(kept, lambda idx: step(idx, k))
    for result, out in zip(op.results, outputs):
        fl.set(result, out)


@lowers("tt.histogram")
def _histogram(fl: FunctionLowering, op: Operation) -> None:
    """Counts of each value of a 1-D integer tile in ``[0, bins)``; other values, and those
    whose mask (the optional second operand) is false, are not counted."""
    source = fl.tile(op.src)
    mask = fl.as_tile(op.operands[1]) if len(op.operands) > 1 else None
    result = op.results[0]
    bins = result.type.shape[0]
    counts = fl.new_buffer((bins,), ir.IntType(result.type.element_type.width))
    b = fl.builder
    zero = ir.Constant(counts.ty, 0)
    fl.loop_nest((bins,), lambda idx: fl.store_element(counts, idx, zero))

    def count(idx: tuple) -> None:
        value = source.emit(fl, idx)
        inside = b.and_(b.icmp_signed(">=", value, ir.Constant(value.type, 0)),
                        b.icmp_signed("<", value, ir.Constant(value.type, bins)))
        if mask is not None:
            inside = b.and_(inside, mask.emit(fl, idx))
        with fl.if_then(inside):
            slot = (b.trunc(value, I32) if value.type.width > 32 else
                    b.sext(value, I32) if value.type.width < 32 else value,)
            fl.store_element(counts, slot, b.add(fl.load_element(counts, slot),
                                                 ir.Constant(counts.ty, 1)))

    fl.loop_nest(source.shape, count)
    fl.set(result, counts)
