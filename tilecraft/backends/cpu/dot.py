"""`tt.dot`: ``D = A @ B + C`` as register-blocked micro-kernels over stack buffers.

The ``M x N`` result is cut into blocks of ``rows x columns`` whose accumulators are LLVM
vectors (as wide as the host's vector registers), kept in registers across the whole ``k`` loop:
each step loads one vector per column piece of ``B``'s row ``k``, broadcasts one element of
``A`` per row and issues ``rows x pieces`` vector multiply-adds; a trip of the loop runs
`K_UNROLL` steps. The block follows the host's vector registers (`types.vector_unit`): on an
AVX2 host a block of f32 is 4 x 16 (two 8-lane pieces, 8 accumulators: 2 loads and 4 broadcasts
per 8 fused multiply-adds), on an AVX-512 host 8 x 32 (two 16-lane pieces, 16 accumulators),
elsewhere 128-bit vectors. Columns that do not fill a block's pieces get narrower vectors (8, 4,
2, 1 lanes), rows that do not fill a block one shorter block; column blocks are the outer loop,
so a ``K x 2``-vector panel of ``B`` stays in the L1 cache while the row blocks run over it.
``B`` is read by rows, so a ``B`` whose rows are not contiguous (a transposed view) is copied
first. ``A`` is read one element at a time, so an ``A`` loaded only for the dot stays where it
lies (a `RowsTile`, see `memory`); then row blocks are the outer loop instead, and before its
column blocks each row block copies its rows of ``A`` (``rows x K`` elements) into a small
buffer that stays in the L1 cache while they run over it (a matrix's rows lie a power of two
apart, in a few L1 sets that its other rows evict), and prefetches the next row block's rows.
Copying the whole tile before the dot instead (32 KiB, the L1's size, for 256 x 32 f32 tiles)
took 8% of a profile of the tutorial matmul (one thread, 1024^3, 256x128x32 blocks, Zen 3),
as much when every iteration read the same, cached, tile. Before each block the dot may
prefetch a share of the tiles its operands' loads read in a later iteration of their loop
(`dot_prefetch`).

Inputs are computed in their register form (fp16/bf16 widened to f32, so products are exact and
sums are f32, as on tensor cores; integers widened to the accumulator's type);
``inputPrecision = tf32`` computes in full f32 on the CPU. Each result element is a sequential
sum over ``k`` of ``fmuladd`` steps, in the same order as a plain loop nest would add them. fp8
operands are rejected at the op's source line.

Where the process may run Intel AMX instructions, a dot of bf16 operands into an fp32
accumulator whose ``M`` and ``N`` are multiples of 16 runs on AMX tiles instead (`dot_amx`); its
results differ from these micro-kernels' within fp32 rounding (``tdpbf16ps`` sums the products of
each 32-step of ``k`` in two partial sums, and flushes subnormals). Everywhere else, and for
every other dot, the micro-kernels above run.

An accumulator that is an ``scf.for`` iteration argument read only by this dot (``acc =
tl.dot(a, b, acc)``) is updated in its loop-carried buffer instead of being copied into a new
buffer, and back by the loop's yield, on every iteration.
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import llvmlite.ir as ir

from tilecraft.ir import Operation
from tilecraft.ir.values import BlockArgument

from . import types as T
from .dot_amx import AmxMatmul, takes_amx
from .dot_prefetch import LINE_BYTES, next_tiles
from .lowering import FunctionLowering, lowers, prefetch
from .tiles import I32, BufferTile, ExprTile, RowsTile, Tile, index_plus, index_times

# Accumulator vectors per register block: enough independent multiply-add chains to cover
# the FMA latency (4 cycles) times the FMA ports, while leaving registers for B's pieces and a
# broadcast. With 16 vector registers (AVX2): 8, a 4 x 2-vector block. Measured on Zen 3 (f32,
# AVX2) in a dot-only loop: 4 x 16 blocks (8 accumulators) ran at 88 GFLOP/s per core, 6 x 16
# at 81, 5 x 16 at 83, 2 x 32 at 84, 3 x 16 at 69. With 32 (AVX-512, where Intel's cores issue
# two 512-bit FMAs a cycle, so 8 chains only just cover the latency): 16, an 8 x 2-vector block,
# which also divides the power-of-two heights of tiles (6 rows leave a slower 4-row block in
# 64). On Zen 4 (one 512-bit FMA a cycle) 8, 12 and 16 accumulators all ran at 112-116 GFLOP/s
# in a dot-only loop and within 3% of each other in the tutorial matmul. With `K_UNROLL` steps
# a trip on Zen 3, 6 x 16 blocks (12 accumulators) and 2 x 32 ones were no faster than 4 x 16,
# in a dot-only loop or in the tutorial matmul.
FEW_REGISTERS_ACCUMULATORS = 8
MANY_REGISTERS_ACCUMULATORS = 16
# Vector registers (of the column pieces) in a block of full-width pieces.
BLOCK_VECTORS = 2
# Steps of ``k`` per trip of a register block's loop (the largest divisor of ``K`` up to this):
# straight-line code between the branches lets the core run ahead into the next steps' loads and
# multiply-adds. Measured on Zen 3 (AVX2, 4 x 16 blocks of f32, 64x64x32 tiles), best of 25
# runs: a dot-only loop ran at 84-89 GFLOP/s with one step a trip, 95-99 with 8, 89 with 16, 96
# with 32 (a fully unrolled k loop); the tutorial matmul at 1024^3 on one thread took 8-15%
# less time with 8 than with 1.
K_UNROLL = 8


@functools.cache
def _operand_buffer(fl: FunctionLowering, tile: Tile, rows_in_place: bool = False) -> Tile:
    """The operand as the micro-kernel reads it: a buffer, or (for ``a``, read one element at
    a time) rows left where they are."""
    if isinstance(tile, BufferTile) or (rows_in_place and isinstance(tile, RowsTile)):
        return tile
    return fl.materialize(tile)


@lowers("tt.dot")
def _dot(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    out_elem = T.element_type(result.type)
    shape = result.type.shape
    acc_ty = T.reg_type(out_elem)
    kernel: _Matmul | AmxMatmul
    if takes_amx(op):
        kernel = AmxMatmul(fl, fl.tile(op.a), fl.tile(op.b), _accumulator(fl, op, shape, acc_ty))
    else:
        a = _operand_buffer(fl, fl.tile(op.a), rows_in_place=True)
        b = _operand_buffer(fl, fl.tile(op.b))
        d = _accumulator(fl, op, shape, acc_ty)
        if b.strides[-1] != 1 and b.shape[-1] > 1:
            # B's rows are read as vectors: make them contiguous (a transposed or strided view)
            b = fl.materialize(b, into=fl.new_buffer(b.shape, b.ty))
        kernel = _Matmul(fl, a, b, d, T.element_type(op.a.type), T.element_type(op.b.type))
    d = kernel.d
    # An AMX dot prefetches nothing, and its operands' loads leave it to the dot: on Emerald
    # Rapids (16 threads, the bf16 tutorial matmul at 2048^3, two copies of the kernel in one
    # process in rotating order) 256x256x128 blocks took 5.73 ms without against 6.40 with the
    # prefetches, 128x256x128 5.48 against 6.81 (with the loads' own prefetches instead: 5.91
    # and 6.54 against 6.51 and 7.77).
    prefetcher = next_tiles(fl, op) if not shape[:-2] and not takes_amx(op) else None
    if prefetcher is not None:
        kernel.before_block = prefetcher(kernel.block_count())
    if kernel.k > 0:
        if shape[:-2]:
            fl.loop_nest(shape[:-2], kernel.emit)
        else:
            kernel.emit(())
    if T.is_narrow(out_elem):
        fl.set(result, fl.materialize(_rounded(d, out_elem)))
        return
    fl.set(result, d)


def _accumulator(fl: FunctionLowering, op: Operation, shape, acc_ty: ir.Type) -> BufferTile:
    """The buffer the dot accumulates into: ``C``'s own loop-carried buffer when nothing else
    reads it, else a new buffer holding a copy of ``C``."""
    c = fl.tile(op.c)
    if _updatable_in_place(op, c, shape, acc_ty):
        return c
    return fl.materialize(c, into=fl.new_buffer(shape, acc_ty))


def _updatable_in_place(op: Operation, c: Tile, shape, acc_ty: ir.Type) -> bool:
    """Whether ``C`` is an iteration argument of the ``scf.for`` whose body holds the dot
    directly (not in a nested loop, which would read it again), read by the dot alone, and held
    in the loop's own contiguous buffer of the accumulator's type."""
    value = op.c
    if not isinstance(value, BlockArgument) or value.index == 0 or op.parent is not value.owner:
        return False
    region = value.owner.parent
    loop = region.parent if region is not None else None
    if loop is None or loop.name != "scf.for" or len(value.uses) != 1:
        return False
    return (isinstance(c, BufferTile) and c.ptr is c.root and c.ty == acc_ty and
            tuple(c.shape) == tuple(shape) and c.is_contiguous())


class _Matmul:
    """Emits ``d[prefix] += a[prefix] @ b[prefix]`` for one batch index ``prefix``."""

    def __init__(self, fl: FunctionLowering, a: BufferTile, b: BufferTile, d: BufferTile,
                 a_elem, b_elem) -> None:
        self.fl = fl
        self.a, self.b, self.d = a, b, d
        self.m, self.n = d.shape[-2:]
        self.k = a.shape[-1]
        # what to emit before each register block (`dot_prefetch`)
        self.before_block: Callable[[], None] | None = None
        self.acc_ty = d.ty
        self.is_float = isinstance(self.acc_ty, (ir.FloatType, ir.DoubleType))
        self.signed = {id(a): not _is_unsigned(a_elem), id(b): not _is_unsigned(b_elem)}
        register_bytes, self.registers = T.vector_unit()
        self.lanes = max(1, register_bytes // T.byte_size(self.acc_ty))

    # -- the plan: column groups, each with its pieces, cut into row blocks
    def column_groups(self) -> list[tuple[int, int, list[tuple[int, int]]]]:
        """``(count, width, pieces)``: ``count`` blocks of ``width`` columns side by side, each
        made of vector ``pieces`` ``(offset, lanes)``."""
        w = self.lanes
        full = BLOCK_VECTORS * w
        groups = []
        if self.n // full:
            groups.append((self.n // full, full, [(p * w, w) for p in range(BLOCK_VECTORS)]))
        rest, offset, pieces = self.n % full, 0, []
        width = w
        while rest:
            while width > rest:
                width //= 2
            pieces.append((offset, width))
            offset += width
            rest -= width
        if pieces:
            groups.append((1, offset, pieces))
        return groups

    def block_count(self) -> int:
        """How many register blocks one batch index runs."""
        return sum(count * -(-self.m // self.rows_per_block(len(pieces)))
                   for count, _, pieces in self.column_groups())

    def rows_per_block(self, pieces: int) -> int:
        budget = (self.registers - pieces - 1) // pieces  # less B's pieces and a broadcast
        accumulators = MANY_REGISTERS_ACCUMULATORS if self.registers >= 32 else \
            FEW_REGISTERS_ACCUMULATORS
        wanted = -(-accumulators // pieces)
        return max(1, min(self.m, wanted, budget))

    # -- code
    def emit(self, prefix: tuple) -> None:
        column0 = 0
        for count, width, pieces in self.column_groups():
            rows = self.rows_per_block(len(pieces))
            full_blocks = self.m // rows
            start = column0

            def row_blocks(block: Callable[[ir.Value, int], None], rows=rows,
                           full_blocks=full_blocks) -> None:
                """``block(row0, height)`` for each row block, in order."""
                self.fl.strided(full_blocks, rows, lambda i: block(i, rows))
                if self.m % rows:
                    block(ir.Constant(I32, full_blocks * rows), self.m % rows)

            def column_blocks(block: Callable[[ir.Value], None], count=count, width=width,
                              start=start) -> None:
                self.fl.strided(count, width, block, start)

            def at(i: ir.Value, height: int, j: ir.Value, staged: BufferTile | None,
                   pieces=pieces) -> None:
                self.block(prefix, i, height, j, pieces, staged)

            if isinstance(self.a, RowsTile):
                stage = self.fl.new_buffer((rows, self.k), self.a.ty)

                def staged_rows(i: ir.Value, height: int, stage=stage, rows=rows) -> None:
                    self.stage_rows(i, height, stage, rows)
                    column_blocks(lambda j: at(i, height, j, stage))

                row_blocks(staged_rows)
            else:
                column_blocks(lambda j: row_blocks(lambda i, height: at(i, height, j, None)))
            column0 += count * width

    def stage_rows(self, row0: ir.Value, height: int, stage: BufferTile, rows: int) -> None:
        """Copies ``height`` rows of ``a`` (a `RowsTile`) from ``row0`` on into ``stage``, and
        prefetches the ``rows`` rows after them."""
        fl, b = self.fl, self.fl.builder
        fl.loop_nest((height, self.k), lambda idx: fl.store_element(
            stage, idx, self.a.emit(fl, (b.add(row0, idx[0]), idx[1]))))
        line = max(1, LINE_BYTES // T.byte_size(self.a.ty))
        last = ir.Constant(I32, self.m - 1)
        for r in range(rows):
            after = index_plus(b, row0, rows + r)
            after = b.select(b.icmp_unsigned(">", after, last), last, after)
            start = self.a.row_pointer(fl, after)
            for column in range(0, self.k, line):
                prefetch(fl, b.gep(start, [ir.Constant(T.I64, column)], source_etype=self.a.ty))

    def block(self, prefix: tuple, row0: ir.Value, rows: int, col0: ir.Value,
              pieces: list[tuple[int, int]], staged: BufferTile | None) -> None:
        """``rows`` x (the ``pieces``' columns) of the result from ``(row0, col0)`` on; with
        ``staged``, the rows of ``a`` are read from there (`stage_rows`)."""
        fl, b = self.fl, self.fl.builder
        if self.before_block is not None:
            self.before_block()
        row = [index_plus(b, row0, r) for r in range(rows)]
        col = [index_plus(b, col0, offset) for offset, _ in pieces]
        accs = [[fl.load_vector(self.d, prefix + (row[r], col[p]), lanes)
                 for p, (_, lanes) in enumerate(pieces)] for r in range(rows)]

        def step(k: ir.Value, accs: list[list[ir.Value]]) -> list[list[ir.Value]]:
            """The accumulators after the multiply-adds of ``k``."""
            rights = [self.widen(fl.load_vector(self.b, prefix + (k, col[p]), lanes), self.b)
                      for p, (_, lanes) in enumerate(pieces)]
            updated = []
            for r in range(rows):
                left = self.widen(self.a.emit(fl, prefix + (row[r], k)) if staged is None else
                                  fl.load_element(staged, (ir.Constant(I32, r), k)), self.a)
                splats: dict[int, ir.Value] = {}
                updated.append([self.multiply_add(_splat(b, left, lanes, splats), right, acc)
                                for (_, lanes), right, acc in zip(pieces, rights, accs[r])])
            return updated

        unroll = math.gcd(self.k, K_UNROLL)
        entry = b.block
        with fl.loop(self.k // unroll) as trip:
            phis = []
            for acc_row in accs:
                phi_row = []
                for acc in acc_row:
                    phi = b.phi(acc.type)
                    phi.add_incoming(acc, entry)
                    phi_row.append(phi)
                phis.append(phi_row)
            first = index_times(b, trip, unroll)
            updated = phis
            for offset in range(unroll):
                updated = step(index_plus(b, first, offset), updated)
            latch = b.block
            for phi_row, new_row in zip(phis, updated):
                for phi, new in zip(phi_row, new_row):
                    phi.add_incoming(new, latch)
        # the k loop's body is one block that the exit follows: its values are available here
        for r in range(rows):
            for p, (_, lanes) in enumerate(pieces):
                fl.store_vector(self.d, prefix + (row[r], col[p]), updated[r][p])

    def widen(self, value: ir.Value, source: BufferTile) -> ir.Value:
        """``value`` (a scalar or vector of ``source``'s elements) in the accumulator's type."""
        element = value.type.element if isinstance(value.type, ir.VectorType) else value.type
        if element == self.acc_ty:
            return value
        target = (ir.VectorType(self.acc_ty, value.type.count)
                  if isinstance(value.type, ir.VectorType) else self.acc_ty)
        b = self.fl.builder
        if self.is_float:
            return b.fpext(value, target)
        if element.width > self.acc_ty.width:
            return b.trunc(value, target)
        return b.sext(value, target) if self.signed[id(source)] else b.zext(value, target)

    def multiply_add(self, left: ir.Value, right: ir.Value, acc: ir.Value) -> ir.Value:
        b = self.fl.builder
        if not self.is_float:
            return b.add(acc, b.mul(left, right))
        return b.call(_fmuladd(self.fl, acc.type), [left, right, acc])


def _splat(b: ir.IRBuilder, scalar: ir.Value, lanes: int, cache: dict) -> ir.Value:
    """``scalar`` in each of ``lanes`` lanes (one per width, shared by the row's pieces)."""
    found = cache.get(lanes)
    if found is None:
        vector_ty = ir.VectorType(scalar.type, lanes)
        one = b.insert_element(ir.Constant(vector_ty, ir.Undefined), scalar, ir.Constant(I32, 0))
        found = b.shuffle_vector(one, ir.Constant(vector_ty, ir.Undefined),
                                 ir.Constant(ir.VectorType(I32, lanes), [0] * lanes))
        cache[lanes] = found
    return found


def _fmuladd(fl: FunctionLowering, ty: ir.VectorType) -> ir.Function:
    element = "f64" if isinstance(ty.element, ir.DoubleType) else "f32"
    name = f"llvm.fmuladd.v{ty.count}{element}"
    existing = fl.module.globals.get(name)
    if existing is None:
        existing = ir.Function(fl.module, ir.FunctionType(ty, [ty, ty, ty]), name)
    return existing


def _is_unsigned(elem) -> bool:
    check = getattr(elem, "is_unsigned_integer", None)
    return bool(check()) if check is not None else False


def _rounded(d: BufferTile, elem) -> Tile:
    return ExprTile(d.shape, d.ty, lambda fl, idx: T.round_narrow(fl, d.emit(fl, idx), elem), (d,))
