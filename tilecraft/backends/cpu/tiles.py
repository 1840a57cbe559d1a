"""How the CPU lowering holds a tensor value: as a `Tile`, a function from an element index to
the element's scalar LLVM value.

Two kinds exist. A `BufferTile` lives in memory (a stack buffer, or a constant array) viewed
with static strides, so broadcasts, `expand_dims`, transposes and contiguous reshapes are free
views. An `ExprTile` is not stored anywhere: asking for element ``idx`` emits the scalar code
of the ops that define it, so chains of element-wise ops, splats, ranges and pointer
arithmetic fuse into the loop of whoever consumes them (a store, a load, a reduction), where
LLVM sees plain affine address arithmetic and vectorizes it. Ops that read memory, or that
are costly and used more than once, are materialized into a `BufferTile` by the lowering.

Indices are tuples of ``i32`` LLVM values, one per dimension, produced by loop nests whose
induction variables never wrap (the flags ``nuw nsw`` on index arithmetic are true).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import llvmlite.ir as ir

if TYPE_CHECKING:
    from .lowering import FunctionLowering

I32 = ir.IntType(32)
I64 = ir.IntType(64)
ZERO = ir.Constant(I32, 0)

Index = tuple  # tuple[ir.Value, ...]


def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


class Tile:
    """A tensor value of static ``shape`` whose elements have the LLVM register type ``ty``."""

    __slots__ = ("shape", "ty")

    def __init__(self, shape: Sequence[int], ty: ir.Type) -> None:
        self.shape = tuple(shape)
        self.ty = ty

    @property
    def numel(self) -> int:
        n = 1
        for size in self.shape:
            n *= size
        return n

    def emit(self, fl: FunctionLowering, idx: Index) -> ir.Value:
        """The scalar value of element ``idx``, emitted at the builder's position."""
        raise NotImplementedError

    def buffers(self) -> frozenset:
        """The stack buffers whose contents this tile reads."""
        raise NotImplementedError

    # -- views (a new tile over the same elements)

    def broadcast_to(self, shape: Sequence[int]) -> Tile:
        shape = tuple(shape)
        if shape == self.shape:
            return self
        dims = [d for d, (a, b) in enumerate(zip(self.shape, shape)) if a != b]
        return MappedTile(self, shape,
                          lambda fl, idx: tuple(ZERO if d in dims else i
                                                for d, i in enumerate(idx)))

    def expand_dims(self, axis: int) -> Tile:
        shape = self.shape[:axis] + (1,) + self.shape[axis:]
        return MappedTile(self, shape, lambda fl, idx: idx[:axis] + idx[axis + 1:])

    def permute(self, order: Sequence[int]) -> Tile:
        order = tuple(order)
        shape = tuple(self.shape[o] for o in order)
        inverse = [order.index(d) for d in range(len(order))]
        return MappedTile(self, shape, lambda fl, idx: tuple(idx[inverse[d]]
                                                             for d in range(len(order))))

    def reshape(self, shape: Sequence[int]) -> Tile:
        shape = tuple(shape)
        if shape == self.shape:
            return self
        source_strides = row_major_strides(self.shape)
        target_strides = row_major_strides(shape)

        def remap(fl: FunctionLowering, idx: Index) -> Index:
            linear = fl.linear_index(idx, target_strides)
            out = []
            for size, stride in zip(self.shape, source_strides):
                if size == 1:
                    out.append(ZERO)
                    continue
                q = fl.builder.udiv(linear, ir.Constant(I32, stride)) if stride != 1 else linear
                out.append(fl.builder.urem(q, ir.Constant(I32, size)) if stride * size !=
                           max(1, self.numel) else q)
            return tuple(out)

        return MappedTile(self, shape, remap)


class BufferTile(Tile):
    """Elements in memory at ``ptr`` (an LLVM pointer) with static element ``strides``."""

    __slots__ = ("ptr", "strides", "root")

    def __init__(self, ptr: ir.Value, shape: Sequence[int], ty: ir.Type,
                 strides: Sequence[int] | None = None, root: ir.Value | None = None) -> None:
        super().__init__(shape, ty)
        self.ptr = ptr
        self.strides = tuple(strides) if strides is not None else row_major_strides(shape)
        self.root = root if root is not None else ptr

    def emit(self, fl: FunctionLowering, idx: Index) -> ir.Value:
        return fl.load_element(self, idx)

    def buffers(self) -> frozenset:
        return frozenset([self.root])

    def is_contiguous(self) -> bool:
        return self.strides == row_major_strides(self.shape)

    # views with strides instead of index remapping
    def broadcast_to(self, shape: Sequence[int]) -> Tile:
        shape = tuple(shape)
        strides = tuple(0 if a != b else s for a, b, s in zip(self.shape, shape, self.strides))
        return BufferTile(self.ptr, shape, self.ty, strides, self.root)

    def expand_dims(self, axis: int) -> Tile:
        return BufferTile(self.ptr, self.shape[:axis] + (1,) + self.shape[axis:], self.ty,
                          self.strides[:axis] + (0,) + self.strides[axis:], self.root)

    def permute(self, order: Sequence[int]) -> Tile:
        return BufferTile(self.ptr, tuple(self.shape[o] for o in order), self.ty,
                          tuple(self.strides[o] for o in order), self.root)

    def reshape(self, shape: Sequence[int]) -> Tile:
        if self.is_contiguous():
            return BufferTile(self.ptr, shape, self.ty, None, self.root)
        return super().reshape(shape)


class RowsTile(Tile):
    """A 2-D tile whose row ``r`` lies contiguously in memory from the pointer ``rows[r]`` (a
    stack array of pointers): a matrix read where it is, in user memory or in a buffer. Its
    elements have the same type in memory and in registers."""

    __slots__ = ("rows", "roots")

    def __init__(self, rows: ir.Value, shape: Sequence[int], ty: ir.Type,
                 roots: frozenset) -> None:
        super().__init__(shape, ty)
        self.rows = rows
        self.roots = roots

    def row_pointer(self, fl: FunctionLowering, row: ir.Value) -> ir.Value:
        b = fl.builder
        slot = b.gep(self.rows, [b.zext(row, I64)], source_etype=ir.PointerType(), inbounds=True)
        return b.load(slot, typ=ir.PointerType())

    def emit(self, fl: FunctionLowering, idx: Index) -> ir.Value:
        b = fl.builder
        pointer = b.gep(self.row_pointer(fl, idx[0]), [b.zext(idx[1], I64)], source_etype=self.ty,
                        inbounds=True)
        return b.load(pointer, typ=self.ty)

    def buffers(self) -> frozenset:
        return self.roots


class ExprTile(Tile):
    """Elements computed on demand by ``fn(fl, idx)`` from the ``operands`` tiles.

    ``cost`` estimates the instructions per element of the whole expression (operands that
    are expressions included); the lowering materializes costly expressions used twice.
    ``pointwise`` says that element ``idx`` reads its operands at ``idx`` only (element-wise
    ops), so the result may overwrite an operand's buffer as it goes."""

    __slots__ = ("fn", "operands", "cost", "pointwise")

    def __init__(self, shape: Sequence[int], ty: ir.Type,
                 fn: Callable[[FunctionLowering, Index], ir.Value],
                 operands: Sequence[Tile] = (), cost: int = 1, pointwise: bool = False) -> None:
        super().__init__(shape, ty)
        self.fn = fn
        self.operands = tuple(operands)
        self.pointwise = pointwise
        self.cost = cost + sum(t.cost for t in self.operands if isinstance(t, (ExprTile,
                                                                                MappedTile)))

    def emit(self, fl: FunctionLowering, idx: Index) -> ir.Value:
        key = (id(self), tuple(id(i) for i in idx))
        cached = fl.memo_get(key)
        if cached is None:
            cached = self.fn(fl, idx)
            fl.memo_put(key, cached, self, idx)
        return cached

    def know(self, fl: FunctionLowering, idx: Index, value: ir.Value) -> None:
        """Makes ``value``, which the caller knows to equal element ``idx`` (in a form LLVM
        reads better: with flags the expression cannot carry), what `emit` gives for ``idx``
        in the current expression memo scope."""
        fl.memo_put((id(self), tuple(id(i) for i in idx)), value, self, idx)

    def buffers(self) -> frozenset:
        found: frozenset = frozenset()
        for operand in self.operands:
            found |= operand.buffers()
        return found


def reads_in_place(tile: Tile, target: BufferTile) -> bool:
    """Whether ``tile`` reads ``target``'s buffer only at the index it computes (so storing
    ``tile`` into ``target`` element by element never reads an overwritten element)."""
    if target.root not in tile.buffers():
        return True
    if isinstance(tile, BufferTile):
        return tile.ptr is target.ptr and tile.strides == target.strides and \
            tile.shape == target.shape
    if isinstance(tile, ExprTile) and tile.pointwise:
        return all(operand.shape in (tile.shape, ()) and reads_in_place(operand, target)
                   if operand.shape else True for operand in tile.operands)
    return False


class MappedTile(Tile):
    """``source`` seen through an index map (a broadcast, transpose or reshape of an
    expression)."""

    __slots__ = ("source", "remap")

    def __init__(self, source: Tile, shape: Sequence[int],
                 remap: Callable[[FunctionLowering, Index], Index]) -> None:
        super().__init__(shape, source.ty)
        self.source = source
        self.remap = remap

    @property
    def cost(self) -> int:
        return getattr(self.source, "cost", 1) + 1

    def emit(self, fl: FunctionLowering, idx: Index) -> ir.Value:
        return self.source.emit(fl, self.remap(fl, idx))

    def buffers(self) -> frozenset:
        return self.source.buffers()


def index_plus(b: ir.IRBuilder, index: ir.Value, offset: int) -> ir.Value:
    """``index + offset`` (i32, never wrapping), folded when ``index`` is a constant."""
    if offset == 0:
        return index
    if isinstance(index, ir.Constant):
        return ir.Constant(I32, index.constant + offset)
    return b.add(index, ir.Constant(I32, offset), flags=("nuw", "nsw"))


def index_times(b: ir.IRBuilder, index: ir.Value, factor: int) -> ir.Value:
    """``index * factor`` (i32, never wrapping), folded when ``index`` is a constant."""
    if factor == 1:
        return index
    if isinstance(index, ir.Constant):
        return ir.Constant(I32, index.constant * factor)
    return b.mul(index, ir.Constant(I32, factor), flags=("nuw", "nsw"))


class SplatTile(ExprTile):
    """Every element is ``value``, a scalar already emitted (so computed outside the loops that
    read the tile)."""

    __slots__ = ("value",)

    def __init__(self, value: ir.Value, shape: Sequence[int]) -> None:
        super().__init__(shape, value.type, lambda fl, idx: value, cost=0)
        self.value = value


def splat(value: ir.Value, shape: Sequence[int]) -> SplatTile:
    """Every element is ``value`` (a scalar already emitted)."""
    return SplatTile(value, shape)
