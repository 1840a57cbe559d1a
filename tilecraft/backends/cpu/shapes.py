"""Constants, ranges, program ids and the ops that only rearrange elements (splat, broadcast,
expand_dims, reshape, trans, join, split, cat): views of their operand's tile, never copies,
except `cat`, which stores both halves into one buffer, and `gather`, which reads its source
from a buffer at the indices."""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import DenseElementsAttr, Operation

from . import types as T
from .lowering import MATERIALIZE_COST, FunctionLowering, lowers
from .tiles import ZERO, BufferTile, ExprTile, MappedTile, splat


def scalar_constant(ty: ir.Type, value) -> ir.Constant:
    if isinstance(ty, ir.IntType):
        value = int(value)
        if ty.width > 1 and value >= 1 << (ty.width - 1):
            value -= 1 << ty.width
        return ir.Constant(ty, value & 1 if ty.width == 1 else value)
    return ir.Constant(ty, float(value))


@lowers("arith.constant")
def _constant(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    ty = T.reg_type(result.type)
    attr = op.value
    if not isinstance(attr, DenseElementsAttr):
        fl.set(result, scalar_constant(ty, attr.value))
        return
    values = attr.values
    shape = result.type.shape
    if len(set(values)) == 1 or attr.is_splat:
        fl.set(result, splat(scalar_constant(ty, values[0]), shape))
        return
    storage = T.buffer_type(result.type)
    array_ty = ir.ArrayType(storage, len(values))
    table = ir.GlobalVariable(fl.module, array_ty, fl.module.get_unique_name("dense"))
    table.global_constant = True
    table.linkage = "internal"
    table.initializer = ir.Constant(array_ty, [scalar_constant(storage, v) for v in values])
    fl.set(result, BufferTile(table, shape, ty))


@lowers("tt.make_range")
def _make_range(fl: FunctionLowering, op: Operation) -> None:
    start = ir.Constant(T.I32, op.start)
    result = op.results[0]

    def element(fl: FunctionLowering, idx) -> ir.Value:
        return fl.builder.add(idx[0], start, flags=("nuw", "nsw")) if op.start else idx[0]

    fl.set(result, ExprTile(result.type.shape, T.I32, element, cost=0))


@lowers("tt.get_program_id")
def _program_id(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], fl.pid[int(op.axis)])


@lowers("tt.get_num_programs")
def _num_programs(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], fl.grid[int(op.axis)])


@lowers("tt.splat")
def _splat(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], splat(fl.get(op.src), op.results[0].type.shape))


@lowers("tt.broadcast")
def _broadcast(fl: FunctionLowering, op: Operation) -> None:
    source = fl.tile(op.src)
    if isinstance(source, (ExprTile, MappedTile)) and source.cost >= MATERIALIZE_COST:
        # computed once per element of the source, not per element of the broadcast (the
        # ``(start + arange) % N`` offsets of a tile's rows)
        source = fl.materialize(source)
    fl.set(op.results[0], source.broadcast_to(op.results[0].type.shape))


@lowers("tt.expand_dims")
def _expand_dims(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], fl.tile(op.src).expand_dims(op.axis))


@lowers("tt.reshape")
def _reshape(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], fl.tile(op.src).reshape(op.results[0].type.shape))


@lowers("tt.trans")
def _trans(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], fl.tile(op.src).permute(op.order))


@lowers("tt.join")
def _join(fl: FunctionLowering, op: Operation) -> None:
    lhs, rhs = fl.tile(op.lhs), fl.tile(op.rhs)
    result = op.results[0]

    def element(fl: FunctionLowering, idx) -> ir.Value:
        inner = idx[:-1]
        first = fl.builder.icmp_unsigned("==", idx[-1], ZERO)
        return fl.builder.select(first, lhs.emit(fl, inner), rhs.emit(fl, inner))

    fl.set(result, ExprTile(result.type.shape, lhs.ty, element, (lhs, rhs), cost=2))


@lowers("tt.split")
def _split(fl: FunctionLowering, op: Operation) -> None:
    source = fl.tile(op.src)
    shape = source.shape[:-1]
    for half, result in enumerate(op.results):
        last = ir.Constant(T.I32, half)
        fl.set(result, MappedTile(source, shape, lambda fl, idx, last=last: idx + (last,)))


@lowers("tt.cat")
def _cat(fl: FunctionLowering, op: Operation) -> None:
    lhs, rhs = fl.tile(op.lhs), fl.tile(op.rhs)
    result = op.results[0]
    out = fl.new_buffer(result.type.shape, lhs.ty)
    fl.materialize(lhs, into=BufferTile(out.ptr, lhs.shape, out.ty, out.strides, out.root))
    offset = lhs.shape[0] * out.strides[0]
    tail = fl.builder.gep(out.ptr, [ir.Constant(T.I64, offset)],
                          source_etype=T.buffer_type(op.lhs.type))
    fl.materialize(rhs, into=BufferTile(tail, rhs.shape, out.ty, out.strides, out.root))
    fl.set(result, out)


@lowers("tt.gather")
def _gather(fl: FunctionLowering, op: Operation) -> None:
    """``out[c] = src[c with c[axis] = indices[c]]``; an index outside the source reads its
    first element along the axis rather than memory past the buffer."""
    source = fl.materialize(fl.tile(op.src))
    indices = fl.tile(op.indices)
    axis = int(op.axis)
    size = ir.Constant(T.I32, source.shape[axis])
    result = op.results[0]
    out = fl.new_buffer(result.type.shape, source.ty)
    b = fl.builder

    def element(idx: tuple) -> None:
        index = indices.emit(fl, idx)
        width = index.type.width
        index = b.trunc(index, T.I32) if width > 32 else b.sext(index, T.I32) if width < 32 \
            else index
        index = b.select(b.icmp_unsigned("<", index, size), index, ZERO)
        at = idx[:axis] + (index,) + idx[axis + 1:]
        fl.store_element(out, idx, fl.load_element(source, at))

    fl.loop_nest(result.type.shape, element)
    fl.set(result, out)
