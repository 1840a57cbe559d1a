"""`scf.for` loops that load two tiles and accumulate their `tt.dot` each iteration, run in
chunks of iterations as a BLAS packs its panels.

Triton's matmul loop (``a = tl.load(a_ptrs); b = tl.load(b_ptrs); acc = tl.dot(a, b, acc)``)
does little work per iteration on a CPU: with ``BLOCK_K = 32`` each micro-kernel of the dot
(`dot`) runs 32 steps of ``k`` between loading and storing its accumulators, and the tiles of
``a``, read where they lie, are rows a power-of-two stride apart that share a few L1 sets.
Lowered here, a run of up to `chunk_iterations` iterations (the *chunk*) first executes every op
of each iteration except the dot, each load writing its tile into the next slice of a contiguous
*pack* (``a``'s columns, ``b``'s rows), then one dot over the packs covers the whole chunk:
``k`` runs ``iterations x BLOCK_K`` steps per micro-kernel, and each step reads packed memory.

Every result element is still the same sequential chain of multiply-adds over ``k`` in the same
order (masked-off elements are the loads' ``other`` values, as before), so results do not change
by a bit. The loop qualifies (`find`) when the dot's accumulator is an iteration argument that
only the dot reads and whose next value is the dot's result and nothing else, the dot's
operands are loads in the loop's body that only the dot reads, and no op of the body writes
memory or holds a region: then postponing each dot to the end of its chunk changes nothing
another op can see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import llvmlite.ir as ir

from tilecraft.ir import Operation
from tilecraft.ir.values import BlockArgument, OpResult

from . import types as T
from .advancing import Advance, AdvancingTile, uniform_advances
from .dot import Interleaved, accumulate
from .lowering import FunctionLowering
from .memory import WRITES_MEMORY
from .tiles import I32, I64, BufferTile
from .vector_loads import prefetch

# The k depth one chunk covers: a micro-kernel's panel of B (depth x 16 f32 on AVX2) stays in
# the L1 cache, and both packs in the L2 cache.
import os
CHUNK_DEPTH = int(os.environ.get("TILECRAFT_EXP_DEPTH", "256"))
# At most this many bytes in the two packs together.
PACK_BYTES = 256 << 10
# Ops whose order relative to others is visible beyond the loop.
_EFFECTS = WRITES_MEMORY + ("tt.print", "tt.assert", "cf.assert")


@dataclass(frozen=True)
class DotLoop:
    """What `find` found in an `scf.for`: the dot, its accumulator's index among the iteration
    arguments, and how many iterations one chunk runs."""

    dot: Operation
    accumulator: int
    iterations: int


def find(loop: Operation) -> DotLoop | None:
    """The chunked form of ``loop`` when it qualifies (see the module docstring), else None."""
    body = loop.regions[0].blocks[0]
    ops = list(body)
    dots = [op for op in ops if op.name == "tt.dot"]
    if len(dots) != 1 or any(op.regions or op.name in _EFFECTS for op in ops[:-1]):
        return None
    dot = dots[0]
    result = dot.results[0]
    if len(result.type.shape) != 2 or T.is_narrow(T.element_type(result.type)):
        return None
    accumulator = dot.c
    if not isinstance(accumulator, BlockArgument) or accumulator.owner is not body or \
            accumulator.index == 0 or len(accumulator.uses) != 1:
        return None
    index = accumulator.index - 1
    if len(result.uses) != 1 or result.uses[0].owner is not ops[-1] or \
            ops[-1].operands[index] is not result:
        return None
    if not all(_loaded_for(operand, dot, body) for operand in (dot.a, dot.b)):
        return None
    iterations = _chunk_iterations(dot)
    return DotLoop(dot, index, iterations) if iterations > 1 else None


def _loaded_for(value, dot: Operation, body) -> bool:
    """Whether ``value`` is a tile loaded in ``body`` that only ``dot`` reads."""
    return isinstance(value, OpResult) and value.owner.name == "tt.load" and \
        value.owner.parent is body and len(value.uses) == 1 and value.uses[0].owner is dot


def _chunk_iterations(dot: Operation) -> int:
    """Iterations per chunk: `CHUNK_DEPTH` deep, fewer when the packs would pass `PACK_BYTES`."""
    m, depth = dot.a.type.shape
    n = dot.b.type.shape[1]
    element_bytes = max(T.byte_size(T.reg_type(T.element_type(v.type))) for v in (dot.a, dot.b))
    iterations = max(1, CHUNK_DEPTH // max(depth, 1))
    while iterations > 1 and (m + n) * depth * iterations * element_bytes > PACK_BYTES:
        iterations //= 2
    return iterations


def lower(fl: FunctionLowering, loop: Operation, plan: DotLoop) -> None:
    """Emits ``loop`` in chunks of ``plan.iterations`` iterations (see the module docstring)."""
    from .control import Carrier

    b = fl.builder
    lower_bound, upper, step = (fl.get(v) for v in (loop.lower_bound, loop.upper_bound,
                                                     loop.step))
    inits = [fl.get(v) for v in loop.init_args]
    advances = uniform_advances(fl, loop)
    carried = [i for i in range(len(inits)) if i not in advances and i != plan.accumulator]
    carrier = Carrier(fl, [inits[i] for i in carried])
    carrier.write([inits[i] for i in carried])
    dot = plan.dot
    accumulator = fl.new_buffer(dot.results[0].type.shape, T.reg_type(dot.results[0].type))
    fl.carrier_roots.add(accumulator.root)
    fl.materialize(inits[plan.accumulator], into=accumulator)
    for advance in advances.values():
        advance.start(fl, inits[advance.index], loop)
    packs = _Packs(fl, dot, plan.iterations)

    iv_slot = fl.alloca(lower_bound.type)
    b.store(lower_bound, iv_slot)
    taken = fl.alloca(I32)
    head, chunk, flush, exit_ = (b.append_basic_block(name) for name in
                                 ("dots.head", "dots.chunk", "dots.flush", "dots.end"))
    compare = b.icmp_unsigned if loop.unsigned_cmp else b.icmp_signed
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(compare("<", b.load(iv_slot, typ=lower_bound.type), upper), chunk, exit_)

    b.position_at_end(chunk)
    b.store(ir.Constant(I32, 0), taken)
    iteration = b.append_basic_block("dots.iteration")
    b.branch(iteration)
    b.position_at_end(iteration)
    iv = b.load(iv_slot, typ=lower_bound.type)
    slot = b.load(taken, typ=I32)
    with fl.new_memo_scope():
        fl.load_destinations.update(packs.slices(slot))
        fl.prefetch_next = False
        try:
            yielded = _lower_all_but_dot(fl, loop, iv, inits, carried, carrier, advances,
                                         accumulator, dot)
        finally:
            fl.prefetch_next = True
            for value in (dot.a, dot.b):
                fl.load_destinations.pop(value, None)
        for advance in advances.values():
            advance.advance(fl)
        carrier.write([yielded[i] for i in carried])
    next_iv = b.add(iv, step)
    b.store(next_iv, iv_slot)
    count = b.add(slot, ir.Constant(I32, 1), flags=("nuw", "nsw"))
    b.store(count, taken)
    more = b.and_(b.icmp_signed("<", count, ir.Constant(I32, plan.iterations)),
                  compare("<", next_iv, upper))
    b.cbranch(more, iteration, flush)

    b.position_at_end(flush)
    depth = b.mul(b.load(taken, typ=I32), ir.Constant(I32, packs.depth), flags=("nuw", "nsw"))
    next_chunk = _NextChunk(fl, loop, dot, advances, plan.iterations)
    accumulate(fl, packs.a, packs.b, accumulator, T.element_type(dot.a.type),
               T.element_type(dot.b.type), depth,
               next_chunk if next_chunk.streams and not os.environ.get("TILECRAFT_EXP_NOSPREAD") else None)
    b.branch(head)

    b.position_at_end(exit_)
    others = iter(carrier.read())
    for index, result in enumerate(loop.results):
        if index == plan.accumulator:
            fl.values[result] = accumulator
        elif index in advances:
            fl.values[result] = advances[index].read(fl)
        else:
            fl.values[result] = next(others)


def _lower_all_but_dot(fl: FunctionLowering, loop: Operation, iv: ir.Value, inits: list,
                       carried: list[int], carrier, advances: dict, accumulator: BufferTile,
                       dot: Operation) -> list:
    """Lowers one iteration of ``loop``'s body, the dot left out; returns the lowered yielded
    values (None for the dot's)."""
    others = iter(carrier.read())
    arguments: list = [None] * len(inits)
    for index in range(len(inits)):
        if index in advances:
            arguments[index] = advances[index].read(fl)
        elif index in carried:
            arguments[index] = next(others)
        else:
            arguments[index] = accumulator
    body = loop.regions[0].blocks[0]
    for argument, value in zip(body.arguments, [iv, *arguments]):
        fl.values[argument] = value
    ops = list(body)
    for op in ops[:-1]:
        if op is not dot:
            fl.lower_op(op)
    return [None if value is dot.results[0] else fl.get(value) for value in ops[-1].operands]


class _Packs:
    """The two packs of a chunk: ``a``, ``M x (iterations x BLOCK_K)``, whose iteration ``i``
    fills columns ``[i x BLOCK_K, (i + 1) x BLOCK_K)``, and ``b``, ``(iterations x BLOCK_K) x
    N``, whose iteration ``i`` fills the same rows."""

    def __init__(self, fl: FunctionLowering, dot: Operation, iterations: int) -> None:
        self.fl = fl
        self.dot = dot
        m, self.depth = dot.a.type.shape
        n = dot.b.type.shape[1]
        self.a = fl.new_buffer((m, iterations * self.depth), T.reg_type(dot.a.type))
        b_type = T.reg_type(dot.b.type)
        import os
        pad = int(os.environ.get("TILECRAFT_EXP_PAD", "1")) * (64 // T.byte_size(b_type))
        stride = n + pad
        rows = iterations * self.depth
        self.b = BufferTile(fl.alloca(b_type, rows * stride), (rows, n), b_type, (stride, 1))

    def slices(self, index: ir.Value) -> dict:
        """The tiles iteration ``index`` (i32) of the chunk loads into, by loaded value."""
        b = self.fl.builder
        column = b.zext(b.mul(index, ir.Constant(I32, self.depth), flags=("nuw", "nsw")), I64)
        row = b.mul(column, ir.Constant(I64, self.b.strides[0]), flags=("nuw", "nsw"))
        a_tile = BufferTile(self._at(self.a, column), self.dot.a.type.shape, self.a.ty,
                            self.a.strides, self.a.root)
        b_tile = BufferTile(self._at(self.b, row), self.dot.b.type.shape, self.b.ty,
                            self.b.strides, self.b.root)
        return {self.dot.a: a_tile, self.dot.b: b_tile}

    def _at(self, pack: BufferTile, offset: ir.Value) -> ir.Value:
        storage = T.I8 if pack.ty == T.I1 else pack.ty
        return self.fl.builder.gep(pack.ptr, [offset], source_etype=storage, inbounds=True)


# Bytes of a cache line, the unit `_NextChunk` prefetches.
LINE_BYTES = 64


@dataclass(frozen=True)
class _Stream:
    """The rows an advancing tensor of pointers loads: ``rows`` rows of ``lines`` cache lines,
    moving by its advance's step each iteration."""

    advance: Advance
    rows: int
    lines: int
    line_elements: int


class _NextChunk:
    """Prefetches, into the L2 cache, the lines the loads of the next chunk will read, one line
    every few steps of this chunk's micro-kernels, so that memory works while the multiply-adds
    run: a burst of prefetches (or of loads) waits on the few misses a core may have in flight.
    It covers loads through tensors of pointers that the loop advances by a step known before
    the loop and whose rows run contiguously (one address per line: a run that straddles lines
    may miss its last); other loads are left to the hardware."""

    def __init__(self, fl: FunctionLowering, loop: Operation, dot: Operation,
                 advances: dict[int, Advance], iterations: int) -> None:
        self.fl = fl
        self.iterations = iterations
        self.streams = [stream for stream in (_stream(fl, loop, operand.owner, advances)
                                              for operand in (dot.a, dot.b)) if stream]
        self.per_iteration = sum(stream.rows * stream.lines for stream in self.streams)

    def __call__(self, steps: int) -> Interleaved | None:
        """One prefetch every ``interval`` of the micro-kernels' ``steps`` steps, so that the
        chunk's lines are spread over all of them."""
        total = self.per_iteration * self.iterations
        interval = 1
        while interval * 2 * total <= steps:
            interval *= 2
        b = self.fl.builder
        counter = self.fl.alloca(I32)
        b.store(ir.Constant(I32, 0), counter)
        offsets = [stream.advance.read(self.fl).offset for stream in self.streams]

        def next_line() -> None:
            item = b.load(counter, typ=I32)
            b.store(b.add(item, ir.Constant(I32, 1), flags=("nuw", "nsw")), counter)
            with self.fl.if_then(b.icmp_unsigned("<", item, ir.Constant(I32, total))):
                self._line(item, offsets)

        return interval, next_line

    def _line(self, item: ir.Value, offsets: list[ir.Value]) -> None:
        """Prefetches line ``item`` (i32) of the next chunk: stream by stream, row by row, each
        row's lines of every iteration in turn (the order of addresses for a row that the loop
        advances along it)."""
        fl, b = self.fl, self.fl.builder
        first = 0
        for number, (stream, offset) in enumerate(zip(self.streams, offsets)):
            size = stream.rows * stream.lines * self.iterations
            inside = b.and_(b.icmp_unsigned(">=", item, ir.Constant(I32, first)),
                            b.icmp_unsigned("<", item, ir.Constant(I32, first + size)))
            with fl.if_then(inside):
                index = b.sub(item, ir.Constant(I32, first))
                per_row = stream.lines * self.iterations
                row = b.udiv(index, ir.Constant(I32, per_row))
                within = b.urem(index, ir.Constant(I32, per_row))
                iteration = b.zext(b.udiv(within, ir.Constant(I32, stream.lines)), I64)
                column = b.mul(b.urem(within, ir.Constant(I32, stream.lines)),
                               ir.Constant(I32, stream.line_elements), flags=("nuw", "nsw"))
                moved = b.add(offset, b.mul(iteration, stream.advance.invariant_step))
                pointers = AdvancingTile(stream.advance.base, moved, stream.advance.pointee, None)
                loc = int(os.environ.get(f"TILECRAFT_EXP_LOC{number}", "2"))
                prefetch(fl, pointers.emit(fl, (row, column)), locality=loc)
            first += size


def _stream(fl: FunctionLowering, loop: Operation, load: Operation,
            advances: dict[int, Advance]) -> _Stream | None:
    """``load``'s rows as a `_Stream` when its pointers are an iteration argument of ``loop``
    advanced by a step defined before it, with contiguous rows; else None."""
    pointer = load.ptr
    body = loop.regions[0].blocks[0]
    if not isinstance(pointer, BlockArgument) or pointer.owner is not body or \
            T.is_block_pointer(pointer.type) or fl.axis_info is None:
        return None
    advance = advances.get(pointer.index - 1)
    rows, columns = load.results[0].type.shape
    if advance is None or advance.invariant_step is None or advance.pointee is None or \
            fl.axis_info.get(pointer).contiguity[1] < 2:
        return None
    element_bytes = T.byte_size(advance.pointee)
    line_elements = max(1, LINE_BYTES // element_bytes)
    return _Stream(advance, rows, -(-columns // line_elements), line_elements)
