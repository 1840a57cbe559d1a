"""``tt.dot`` on CUDA cores: each thread computes the accumulator elements of its registers as
a chain of multiply-adds over K, with both operands in ``#ttg.dot_op`` layouts whose parent is
the accumulator's layout (every thread holds the whole K extent of the rows and columns of its
elements, so no data moves during the product). Dots with ``#ttg.nvidia_mma`` results run on
tensor cores (`mma`).
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.generated.ttg import NvidiaMmaEncodingAttr
from tilecraft.ir import FloatType, IntegerType, Operation
from tilecraft.layouts.conversion import registers_by_coordinate

from ..cpu import types as T
from .lowering import GPULowering, error_at, lowers
from .mma import lower_mma_v2


def _multiply_add(fl: GPULowering, op: Operation, a: ir.Value, b: ir.Value,
                  acc: ir.Value) -> ir.Value:
    builder = fl.builder
    result = T.element_type(op.results[0].type)
    if isinstance(result, IntegerType):
        a = builder.sext(a, acc.type) if a.type.width < acc.type.width else a
        b = builder.sext(b, acc.type) if b.type.width < acc.type.width else b
        return builder.add(acc, builder.mul(a, b))
    if a.type != acc.type:
        a = builder.fpext(a, acc.type)
        b = builder.fpext(b, acc.type)
    fn = fl.intrinsic("llvm.fmuladd", acc.type, [acc.type] * 3)
    value = builder.call(fn, [a, b, acc])
    return T.round_narrow(fl, value, result) if isinstance(result, FloatType) else value


@lowers("tt.dot")
def _dot(fl: GPULowering, op: Operation) -> None:
    encoding = op.results[0].type.encoding
    if isinstance(encoding, NvidiaMmaEncodingAttr):
        if encoding.version_major != 2:
            raise error_at(op, f"the CUDA backend has no lowering for mma version "
                           f"{encoding.version_major}")
        lower_mma_v2(fl, op)
        return
    a, b, c = (fl.dist(v) for v in op.operands[:3])
    shape_k = op.operands[0].type.shape[-1]
    a_index, b_index = registers_by_coordinate(a.layout), registers_by_coordinate(b.layout)
    values = []
    for register, acc in enumerate(c.values):
        *batch, m, n = c.layout.apply(register=register)
        batch = tuple(batch)
        for k in range(shape_k):
            ra = a_index.get(batch + (m, k))
            rb = b_index.get(batch + (k, n))
            if ra is None or rb is None:
                raise error_at(op, "the CUDA backend needs the operands of tt.dot in "
                               "#ttg.dot_op layouts of the accumulator's layout")
            acc = _multiply_add(fl, op, a.values[ra], b.values[rb], acc)
        values.append(acc)
    fl.set(op.results[0], c.with_values(values))
