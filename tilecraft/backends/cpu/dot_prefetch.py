"""Prefetching, while a `tt.dot` runs, the tiles its operands' loads will read a few iterations
of their loop later.

In Triton's matmul loop the tiles of ``a`` and ``b`` are loaded through tensors of pointers that
the loop advances by a step known before it (`advancing`), and each iteration's tiles are fresh
rows of large matrices: read when the loads run, they come from far caches or memory, and the
loads wait (a quarter of the tutorial matmul's time on Zen 3). A burst of prefetches issued with
the loads only queues behind the few misses a core keeps in flight. Instead the dot issues them:
before each of its register blocks (see `dot`), a few prefetches of the lines of the tiles
`ITERATIONS_AHEAD` iterations on, in the order the loads will read them, so that memory works
while the multiply-adds run. One address per cache line of each row (a row that straddles a
line boundary may leave its last line to the hardware).

Before its first block, the dot also prefetches the first line of every row of those tiles, all
at once. Rows a page or more apart lie in as many pages, and a prefetch whose address misses the
TLB holds up the core until its page walk is done: one walk at a time, as the spread prefetches
met each row's page, took a tenth of the tutorial matmul's time at 2048^3 (B's rows are 8 KiB
apart, 32 new pages an iteration); issued together, the walks overlap (a Zen 3 core runs six at
a time) and the rest of the row's lines find the page in the TLB.

It covers a dot operand loaded in the dot's block, for the dot alone, through an iteration
argument advanced by a step defined before the loop, whose rows run contiguously; the loads of
such operands leave prefetching to the dot (`prefetched_by_dot`). A dot on AMX tiles
(`dot_amx`) prefetches nothing: it ran faster so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import llvmlite.ir as ir

from tilecraft.ir import Operation
from tilecraft.ir.values import OpResult

from . import types as T
from .advancing import AdvancingTile
from .lowering import FunctionLowering, prefetch
from .tiles import I32

LINE_BYTES = 64
# How many iterations ahead the lines are fetched. Measured on Zen 3 (2 cores shared with other
# jobs, Triton's tutorial matmul at 1024^3 on one thread): the loads still waited for lines
# asked for one iteration ahead (about 3 us); two ahead cut the program's time by 10-15%, three
# did as well as two. At 2048^3 on two threads (with the first lines of all rows fetched before
# the first block, see above), one and three ahead were both slower than two.
ITERATIONS_AHEAD = 2
# A block's share of prefetches is emitted as straight-line code up to this many, else as a loop
# (a dot of few blocks: small tiles).
UNROLLED_SHARE = 8


@dataclass(frozen=True)
class _Stream:
    """The lines of one operand's tile to come: ``rows`` rows of ``lines`` lines of
    ``line_elements`` elements, through ``pointers`` (moved `ITERATIONS_AHEAD` steps on)."""

    pointers: AdvancingTile
    rows: int
    lines: int
    line_elements: int


def prefetched_by_dot(fl: FunctionLowering, load: Operation) -> bool:
    """Whether ``load`` leaves the prefetching of its later tiles to the `tt.dot` that reads
    its tile: the FMA micro-kernels prefetch them (`next_tiles`), a dot on AMX tiles does not,
    since no prefetch ran faster there (see `dot`)."""
    result = load.results[0]
    if len(result.uses) != 1:
        return False
    user = result.uses[0].owner
    return user.name == "tt.dot" and user.parent is load.parent and \
        (user.a is result) != (user.b is result) and _stream_shape(fl, load) is not None


def _stream_shape(fl: FunctionLowering, load: Operation) -> tuple[int, int, int] | None:
    """``(rows, lines, line_elements)`` of ``load``'s tile when it qualifies, else None."""
    shape = load.results[0].type.shape
    if len(shape) != 2 or fl.axis_info is None or T.is_block_pointer(load.ptr.type):
        return None
    pointers = fl.values.get(load.ptr)
    if not isinstance(pointers, AdvancingTile) or pointers.step is None or \
            pointers.pointee is None or fl.axis_info.get(load.ptr).contiguity[1] < 2:
        return None
    line_elements = max(1, LINE_BYTES // T.byte_size(pointers.pointee))
    return shape[0], -(-shape[1] // line_elements), line_elements


def next_tiles(fl: FunctionLowering, dot: Operation
               ) -> Callable[[int], Callable[[], None]] | None:
    """For ``dot``'s micro-kernels: given how many register blocks they run, what to emit
    before each (its share of the prefetches), set up at the builder's position; None when no
    operand qualifies."""
    streams = []
    for operand in (dot.a, dot.b):
        load = operand.owner if isinstance(operand, OpResult) else None
        if load is None or load.name != "tt.load" or not prefetched_by_dot(fl, load):
            continue
        rows, lines, line_elements = _stream_shape(fl, load)
        pointers = fl.values[load.ptr]
        b = fl.builder
        moved = b.add(pointers.offset,
                      b.mul(pointers.step, ir.Constant(pointers.step.type, ITERATIONS_AHEAD)))
        streams.append(_Stream(AdvancingTile(pointers.base, moved, pointers.pointee, None),
                               rows, lines, line_elements))
    if not streams:
        return None
    return lambda blocks: _Spread(fl, streams, blocks).before_block


class _Spread:
    """Each stream's lines cut into equal shares, one share of each before each of ``blocks``
    blocks, in row order; before the first block, also the first line of every row."""

    def __init__(self, fl: FunctionLowering, streams: list[_Stream], blocks: int) -> None:
        self.fl = fl
        self.blocks = max(blocks, 1)
        self.streams = streams
        self.counter = fl.alloca(I32)
        fl.builder.store(ir.Constant(I32, 0), self.counter)

    def before_block(self) -> None:
        b = self.fl.builder
        block = b.load(self.counter, typ=I32)
        b.store(b.add(block, ir.Constant(I32, 1), flags=("nuw", "nsw")), self.counter)
        with self.fl.if_then(b.icmp_unsigned("==", block, ir.Constant(I32, 0))):
            for stream in self.streams:
                self._first_lines(stream)
        for stream in self.streams:
            size = stream.rows * stream.lines
            share = -(-size // self.blocks)
            first = b.mul(block, ir.Constant(I32, share), flags=("nuw", "nsw"))
            if share <= UNROLLED_SHARE:
                for i in range(share):
                    self._line(stream, b.add(first, ir.Constant(I32, i), flags=("nuw", "nsw")),
                               share * self.blocks > size)
                continue
            with self.fl.loop(share) as i:
                self._line(stream, b.add(first, i, flags=("nuw", "nsw")), True)

    def _first_lines(self, stream: _Stream) -> None:
        """Prefetches the first line of each of ``stream``'s rows (their pages' walks at once,
        see the module docstring)."""
        with self.fl.loop(stream.rows) as row:
            prefetch(self.fl, stream.pointers.emit(self.fl, (row, ir.Constant(I32, 0))))

    def _line(self, stream: _Stream, item: ir.Value, checked: bool) -> None:
        """Prefetches ``stream``'s line ``item`` (i32; past its lines, when ``checked``,
        nothing)."""
        fl, b = self.fl, self.fl.builder
        if checked:
            inside = b.icmp_unsigned("<", item, ir.Constant(I32, stream.rows * stream.lines))
            with fl.if_then(inside):
                self._line(stream, item, False)
            return
        row = b.udiv(item, ir.Constant(I32, stream.lines))
        column = b.mul(b.urem(item, ir.Constant(I32, stream.lines)),
                       ir.Constant(I32, stream.line_elements), flags=("nuw", "nsw"))
        prefetch(fl, stream.pointers.emit(fl, (row, column)))
