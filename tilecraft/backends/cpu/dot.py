"""`tt.dot`: ``D = A @ B + C`` as an ``i, k, j`` loop nest over stack buffers, innermost over
the columns of ``B`` and ``D`` so that LLVM vectorizes it into fused multiply-adds.

Inputs are computed in their register form (fp16/bf16 widened to f32, so products are exact and
sums are f32, as on tensor cores); ``inputPrecision = tf32`` computes in full f32 on the CPU.
fp8 operands have no CPU form and are rejected at the op's source line.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import FloatType, Operation

from . import types as T
from .lowering import FunctionLowering, error_at, lowers
from .tiles import BufferTile, Tile


def _operand_buffer(fl: FunctionLowering, tile: Tile) -> BufferTile:
    return tile if isinstance(tile, BufferTile) else fl.materialize(tile)


@lowers("tt.dot")
def _dot(fl: FunctionLowering, op: Operation) -> None:
    for operand in (op.a, op.b):
        elem = T.element_type(operand.type)
        if isinstance(elem, FloatType) and elem.kind.startswith("f8"):
            raise error_at(op, f"the CPU backend cannot compute a dot of {elem.kind} operands")
    a, b = _operand_buffer(fl, fl.tile(op.a)), _operand_buffer(fl, fl.tile(op.b))
    result = op.results[0]
    out_elem = T.element_type(result.type)
    d = fl.materialize(fl.tile(op.c), into=fl.new_buffer(result.type.shape, T.reg_type(out_elem)))
    shape = result.type.shape
    batch = shape[:-2]
    m, n = shape[-2:]
    k_size = a.shape[-1]
    builder = fl.builder
    acc_ty = d.ty
    is_float = isinstance(acc_ty, (ir.FloatType, ir.DoubleType))
    fma = fl.intrinsic("llvm.fmuladd", acc_ty, [acc_ty] * 3) if is_float else None
    a_elem = T.element_type(op.a.type)

    def widen(value: ir.Value) -> ir.Value:
        if value.type == acc_ty:
            return value
        if is_float:
            return builder.fpext(value, acc_ty)
        signed = not (a_elem.is_unsigned_integer() if hasattr(a_elem, "is_unsigned_integer")
                      else False)
        return builder.sext(value, acc_ty) if signed else builder.zext(value, acc_ty)

    def matmul(prefix: tuple) -> None:
        with fl.loop(m) as i:
            with fl.loop(k_size) as k:
                left = widen(fl.load_element(a, prefix + (i, k)))
                with fl.loop(n) as j:
                    at = prefix + (i, j)
                    right = widen(fl.load_element(b, prefix + (k, j)))
                    acc = fl.load_element(d, at)
                    if is_float:
                        total = builder.call(fma, [left, right, acc])
                    else:
                        total = builder.add(acc, builder.mul(left, right))
                    fl.store_element(d, at, total)

    if batch:
        fl.loop_nest(batch, matmul)
    else:
        matmul(())
    if T.is_narrow(out_elem):
        fl.set(result, fl.materialize(_rounded(d, out_elem)))
        return
    fl.set(result, d)


def _rounded(d: BufferTile, elem) -> Tile:
    from .tiles import ExprTile

    return ExprTile(d.shape, d.ty, lambda fl, idx: T.round_narrow(fl, d.emit(fl, idx), elem), (d,))
