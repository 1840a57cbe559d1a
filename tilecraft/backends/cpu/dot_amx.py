"""`tt.dot` of bf16 operands into an fp32 accumulator on Intel AMX tiles (``tdpbf16ps``).

Where the process may run AMX bf16 instructions (`engine.host_amx_bf16`: the CPU has AMX-TILE
and AMX-BF16 and Linux granted the tile data state) a dot qualifies when its operands are bf16,
its result fp32, ``M`` and ``N`` are multiples of 16 and ``K`` is even (as the compiled
targets' dots of power-of-two tiles at least 16 wide all are; batched dots too). Every other
dot, and every dot on other hosts, takes the FMA micro-kernels of `dot`.

One tile register holds up to 16 rows of 64 bytes. All eight are configured alike, 16 rows of
64 bytes, once per chunk of programs that the grid function runs (``ldtilecfg`` before the
programs, ``tilerelease`` after them; see `lowering`); the intrinsics name the registers by
number. ``tdpbf16ps C, A, B`` adds to the 16 x 16 fp32 tile ``C`` the product of ``A`` (16 rows
of 32 bf16, a 16 x 32 piece of the left operand) and ``B``, a 32 x 16 piece of the right operand
in the "VNNI" layout: 16 rows, row ``q`` holding for each of the 16 columns the pair of elements
of rows ``2q`` and ``2q + 1``.

Each dot first packs its operands into two stack buffers: ``A`` as bf16 rows of ``K`` rounded up
to a multiple of 32 (the padding is zero, written once when the function starts), ``B`` as
pairs of rows (zero pairs below ``K``). The operands' register form is an f32 holding a bf16
value exactly, so a bf16 is the f32's upper half. A 2-D load read only by such a dot, as its
``A`` or ``B`` (`packed_role`), skips the register form: it copies the bf16 bits from memory
straight into the packed buffer (`load_packed`: ``A``'s rows with vector loads and stores,
``B``'s pairs of rows interleaved by one shuffle per vector), and the dot reads that buffer.
Then the ``M x N`` accumulator buffer is cut into blocks of 2 x 2 tiles (32 x 32 elements; 1
wide or high at an odd edge), column blocks outermost as in `dot`: a block's ``C`` tiles are loaded into registers 0-3, for each
32-wide step of ``K`` its two ``A`` tiles into 4-5 and two ``B`` tiles into 6-7 and multiplied
four times, and the ``C`` tiles are stored back.

Results differ from the FMA micro-kernels' within fp32 rounding: ``tdpbf16ps`` adds the
products of each 32-step of ``K`` in two fp32 partial sums (even and odd ``k``) and adds their
sum to ``C``, where the FMA path adds one product at a time; and it treats bf16 subnormal inputs
as zero and flushes subnormal results to zero.
"""

from __future__ import annotations

import struct
from typing import Callable

import llvmlite.ir as ir

from tilecraft.ir import FloatType, Operation

from . import engine
from . import types as T
from .advancing import AdvancingTile
from .lowering import AMX_TILE_CONFIG, FunctionLowering, prefetch
from .tiles import I32, BufferTile, Tile, index_plus, index_times

TILE_ROWS = 16
ROW_BYTES = 64
# k covered by one tdpbf16ps: a row of A holds 32 bf16
K_STEP = ROW_BYTES // 2
# tile registers of a block: C tiles (row r, column c) at 2 * r + c, A tiles, B tiles
C_TILES = 0
A_TILES = 4
B_TILES = 6
BLOCK_TILES = 2

_VOID = ir.VoidType()
_I8 = ir.IntType(8)


def fits_amx(op: Operation) -> bool:
    """Whether the `tt.dot` ``op`` has the types and shape the AMX path takes (whatever the
    host): bf16 operands, an fp32 result, ``M`` and ``N`` multiples of 16, ``K`` even."""
    result = op.results[0].type
    kinds = [getattr(T.element_type(v.type), "kind", None) for v in (op.a, op.b)]
    out = T.element_type(result)
    m, n = result.shape[-2:]
    k = op.a.type.shape[-1]
    return kinds == ["bf16", "bf16"] and isinstance(out, FloatType) and out.kind == "f32" and \
        m % TILE_ROWS == 0 and n % TILE_ROWS == 0 and k > 0 and k % 2 == 0


def takes_amx(op: Operation) -> bool:
    """Whether the `tt.dot` ``op`` is lowered to AMX tiles on this host."""
    return fits_amx(op) and engine.host_amx_bf16()


def packed_role(op: Operation) -> str | None:
    """``"a"`` or ``"b"`` when the `tt.load` ``op`` has a 2-D result read only as that operand
    of a `tt.dot` in the same block that takes AMX tiles (`takes_amx`); else None. (The caller
    checks that nothing between them may write memory.)"""
    result = op.results[0]
    if len(getattr(result.type, "shape", ())) != 2 or len(result.uses) != 1:
        return None
    user = result.uses[0].owner
    if user.name != "tt.dot" or user.parent is not op.parent or not takes_amx(user):
        return None
    if user.a is result and user.b is not result:
        return "a"
    if user.b is result and user.a is not result:
        return "b"
    return None


class PackedOperand(Tile):
    """A bf16 operand of an AMX dot as the dot reads it: ``buffer`` holds ``A``'s rows as bf16
    (i16, ``k_padded`` apart) or ``B``'s pairs of rows (i32, the lower half from the even row),
    zero beyond ``K``. Its elements still read as the register form (f32)."""

    __slots__ = ("role", "buffer")

    def __init__(self, role: str, shape, buffer: BufferTile) -> None:
        super().__init__(shape, T.F32)
        self.role = role
        self.buffer = buffer

    def emit(self, fl: FunctionLowering, idx) -> ir.Value:
        b = fl.builder
        row, column = idx
        if self.role == "a":
            bits = b.zext(fl.load_element(self.buffer, (row, column)), T.I32)
            return b.bitcast(b.shl(bits, ir.Constant(T.I32, 16)), T.F32)
        pair = fl.load_element(self.buffer, (b.lshr(row, ir.Constant(I32, 1)), column))
        odd = b.and_(row, ir.Constant(I32, 1))
        shift = b.sub(ir.Constant(T.I32, 16), b.mul(odd, ir.Constant(T.I32, 16)))
        bits = b.and_(b.shl(pair, shift), ir.Constant(T.I32, 0xFFFF0000))
        return b.bitcast(bits, T.F32)

    def buffers(self) -> frozenset:
        return frozenset([self.buffer.root])


def packed_buffer(fl: FunctionLowering, role: str, shape) -> BufferTile:
    """A stack buffer for operand ``role`` (of ``shape``) packed, its padding of K zeroed once."""
    rows, columns = shape
    if role == "a":
        k = columns
        buffer = fl.new_buffer((rows, -(-k // K_STEP) * K_STEP), T.I16)
    else:
        k = rows
        buffer = fl.new_buffer((-(-k // K_STEP) * K_STEP // 2, columns), T.I32)
    if k % K_STEP:
        _zero_at_entry(fl, buffer)
    return buffer


def load_packed(fl: FunctionLowering, role: str, shape, pointers: Tile, width: int,
                read: Callable[[tuple], ir.Value],
                unmasked: Callable[[Callable[[], None], Callable[[], None]], None],
                prefetch_next: bool) -> PackedOperand:
    """The load of operand ``role`` (``shape``) straight into its packed buffer: with vector
    loads of ``width`` bf16 from ``pointers`` where ``unmasked(vectors, elements)`` runs its
    first argument (no element masked off; the second elsewhere), else one element at a time
    through ``read(idx)`` (the bf16 bits as i16, ``other``'s where masked off)."""
    buffer = packed_buffer(fl, role, shape)
    rows, columns = shape
    vector = ir.VectorType(T.I16, width)

    def load_vector(idx: tuple) -> ir.Value:
        b = fl.builder
        pointer = pointers.emit(fl, idx)
        raw = b.load(pointer, typ=vector, align=2)
        if prefetch_next and isinstance(pointers, AdvancingTile) and pointers.step is not None:
            prefetch(fl, b.gep(pointer, [pointers.step], source_etype=pointers.pointee))
        return raw

    if role == "a":
        def vectors(idx: tuple) -> None:
            first = (idx[0], index_times(fl.builder, idx[1], width))
            fl.store_vector(buffer, first, load_vector(first))

        def elements(idx: tuple) -> None:
            fl.store_element(buffer, idx, read(idx))

        vector_shape, element_shape = (rows, columns // width), (rows, columns)
    else:
        interleave = ir.Constant(ir.VectorType(I32, 2 * width),
                                 [lane // 2 + (lane % 2) * width for lane in range(2 * width)])

        def vectors(idx: tuple) -> None:
            b = fl.builder
            row = index_times(b, idx[0], 2)
            column = index_times(b, idx[1], width)
            low = load_vector((row, column))
            high = load_vector((index_plus(b, row, 1), column))
            pairs = b.shuffle_vector(low, high, interleave)
            fl.store_vector(buffer, (idx[0], column),
                            b.bitcast(pairs, ir.VectorType(T.I32, width)))

        def elements(idx: tuple) -> None:
            b = fl.builder
            row = index_times(b, idx[0], 2)
            low, high = (b.zext(read((r, idx[1])), T.I32) for r in (row, index_plus(b, row, 1)))
            fl.store_element(buffer, idx, b.or_(b.shl(high, ir.Constant(T.I32, 16)), low))

        vector_shape, element_shape = (rows // 2, columns // width), (rows // 2, columns)
    if width > 1:
        unmasked(lambda: fl.loop_nest(vector_shape, vectors),
                 lambda: fl.loop_nest(element_shape, elements))
    else:
        fl.loop_nest(element_shape, elements)
    return PackedOperand(role, shape, buffer)


def bf16_bits(b: ir.IRBuilder, value: ir.Value) -> ir.Value:
    """The bf16 bits (i16) of ``value``, a bf16 in its register form (an f32)."""
    return b.trunc(b.lshr(b.bitcast(value, T.I32), ir.Constant(T.I32, 16)), T.I16)


class AmxMatmul:
    """Emits ``d[prefix] += a[prefix] @ b[prefix]`` for one batch index ``prefix`` (``a`` and
    ``b`` bf16 tiles in their register form, ``d`` the contiguous fp32 accumulator)."""

    def __init__(self, fl: FunctionLowering, a: Tile, b: Tile, d: BufferTile) -> None:
        self.fl = fl
        self.a, self.b, self.d = a, b, d
        self.m, self.n = d.shape[-2:]
        self.k = a.shape[-1]
        self.k_padded = -(-self.k // K_STEP) * K_STEP
        # the packed operands, shared by the batch indices: loaded packed (`load_packed`), or
        # packed by `emit`
        self.packs_a, self.packs_b = not isinstance(a, PackedOperand), \
            not isinstance(b, PackedOperand)
        self.a_packed = packed_buffer(fl, "a", a.shape[-2:]) if self.packs_a else a.buffer
        self.b_packed = packed_buffer(fl, "b", b.shape[-2:]) if self.packs_b else b.buffer
        _tile_config(fl.module)

    # -- the plan: runs of blocks 2 (or, at an odd edge, 1) tiles high or wide
    @staticmethod
    def runs(tiles: int) -> list[tuple[int, int, int]]:
        """``(count, tiles per block, first tile)`` of the blocks along ``tiles`` tiles."""
        runs = []
        if tiles // BLOCK_TILES:
            runs.append((tiles // BLOCK_TILES, BLOCK_TILES, 0))
        if tiles % BLOCK_TILES:
            runs.append((1, tiles % BLOCK_TILES, tiles - tiles % BLOCK_TILES))
        return runs

    # -- code
    def emit(self, prefix: tuple) -> None:
        if self.packs_a:
            self.pack_a(prefix)
        if self.packs_b:
            self.pack_b(prefix)
        fl = self.fl
        for count, columns, first_column in self.runs(self.n // TILE_ROWS):
            def column_block(col0: ir.Value, columns: int = columns) -> None:
                for row_count, rows, first_row in self.runs(self.m // TILE_ROWS):
                    fl.strided(row_count, rows * TILE_ROWS,
                               lambda row0, rows=rows: self.block(prefix, row0, rows, col0,
                                                                  columns),
                               first_row * TILE_ROWS)

            fl.strided(count, columns * TILE_ROWS, column_block, first_column * TILE_ROWS)

    def pack_a(self, prefix: tuple) -> None:
        """``a``'s rows as bf16, ``k_padded`` apart."""
        fl = self.fl

        def element(idx: tuple) -> None:
            fl.store_element(self.a_packed, idx, bf16_bits(fl.builder,
                                                          self.a.emit(fl, prefix + idx)))

        fl.loop_nest((self.m, self.k), element)

    def pack_b(self, prefix: tuple) -> None:
        """``b``'s rows ``2q`` and ``2q + 1`` as row ``q`` of bf16 pairs (the lower half from
        row ``2q``)."""
        fl = self.fl

        def pair(idx: tuple) -> None:
            b = fl.builder
            q, column = idx
            first = index_times(b, q, 2)
            low, high = (b.bitcast(self.b.emit(fl, prefix + (row, column)), T.I32)
                         for row in (first, index_plus(b, first, 1)))
            packed = b.or_(b.and_(high, ir.Constant(T.I32, 0xFFFF0000)),
                           b.lshr(low, ir.Constant(T.I32, 16)))
            fl.store_element(self.b_packed, idx, packed)

        fl.loop_nest((self.k // 2, self.n), pair)

    def block(self, prefix: tuple, row0: ir.Value, rows: int, col0: ir.Value,
              columns: int) -> None:
        """The ``rows x columns`` tiles of the result from ``(row0, col0)`` on."""
        fl = self.fl
        b = fl.builder
        row = [index_plus(b, row0, TILE_ROWS * r) for r in range(rows)]
        col = [index_plus(b, col0, TILE_ROWS * c) for c in range(columns)]
        c_stride = T.byte_size(self.d.ty) * self.d.strides[-2]
        c_tiles = [(C_TILES + BLOCK_TILES * r + c,
                    fl.buffer_pointer(self.d, prefix + (row[r], col[c])))
                   for r in range(rows) for c in range(columns)]
        for tile, pointer in c_tiles:
            _tile_load(fl, tile, pointer, c_stride)

        def step(k_step: ir.Value) -> None:
            b = fl.builder
            k0 = index_times(b, k_step, K_STEP)
            pair_row = index_times(b, k_step, K_STEP // 2)
            for r in range(rows):
                _tile_load(fl, A_TILES + r, fl.buffer_pointer(self.a_packed, (row[r], k0)),
                           2 * self.k_padded)
            for c in range(columns):
                _tile_load(fl, B_TILES + c, fl.buffer_pointer(self.b_packed, (pair_row, col[c])),
                           4 * self.n)
            for r in range(rows):
                for c in range(columns):
                    _call(fl.builder, "llvm.x86.tdpbf16ps", [_I8] * 3,
                          [ir.Constant(_I8, C_TILES + BLOCK_TILES * r + c),
                           ir.Constant(_I8, A_TILES + r), ir.Constant(_I8, B_TILES + c)])

        fl.strided(self.k_padded // K_STEP, 1, step)
        for tile, pointer in c_tiles:
            _call(fl.builder, "llvm.x86.tilestored64", [_I8, T.PTR, T.I64],
                  [ir.Constant(_I8, tile), pointer, ir.Constant(T.I64, c_stride)])


def _tile_load(fl: FunctionLowering, tile: int, pointer: ir.Value, stride: int) -> None:
    """Tile register ``tile`` loaded from 16 rows ``stride`` bytes apart from ``pointer``."""
    _call(fl.builder, "llvm.x86.tileloadd64", [_I8, T.PTR, T.I64],
          [ir.Constant(_I8, tile), pointer, ir.Constant(T.I64, stride)])


def _call(b: ir.IRBuilder, name: str, params: list[ir.Type], args: list[ir.Value]) -> None:
    """Calls the void intrinsic ``name`` (declared once per module)."""
    function = b.module.globals.get(name)
    if function is None:
        function = ir.Function(b.module, ir.FunctionType(_VOID, params), name)
    b.call(function, args)


def _zero_at_entry(fl: FunctionLowering, buffer: BufferTile) -> None:
    """Zeroes ``buffer`` once, in the function's entry block (padding that packing never
    writes)."""
    size = buffer.numel * T.byte_size(buffer.ty)
    _call(fl.alloca_builder, "llvm.memset.p0.i64", [T.PTR, _I8, T.I64, T.I1],
          [buffer.ptr, ir.Constant(_I8, 0), ir.Constant(T.I64, size), ir.Constant(T.I1, 0)])


def _tile_config(module: ir.Module) -> ir.GlobalVariable:
    """The module's tile configuration (palette 1, each of the 8 tiles 16 rows of 64 bytes),
    defined once; its presence tells the grid function to load it."""
    existing = module.globals.get(AMX_TILE_CONFIG)
    if existing is not None:
        return existing
    data = bytearray(64)
    data[0] = 1  # palette
    for tile in range(8):
        struct.pack_into("<H", data, 16 + 2 * tile, ROW_BYTES)
        data[48 + tile] = TILE_ROWS
    ty = ir.ArrayType(_I8, len(data))
    config = ir.GlobalVariable(module, ty, AMX_TILE_CONFIG)
    config.global_constant = True
    config.linkage = "internal"
    config.align = 64
    config.initializer = ir.Constant(ty, bytearray(data))
    return config


def configure_tiles(b: ir.IRBuilder, config: ir.GlobalVariable) -> None:
    """``ldtilecfg``: the tile registers take the shapes ``config`` gives (and are zeroed)."""
    _call(b, "llvm.x86.ldtilecfg", [T.PTR], [config])


def release_tiles(b: ir.IRBuilder) -> None:
    """``tilerelease``: the tile state back to its initial state (cheap to save again)."""
    _call(b, "llvm.x86.tilerelease", [], [])
