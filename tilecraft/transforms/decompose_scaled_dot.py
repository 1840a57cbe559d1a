"""``tt.dot_scaled`` as a plain ``tt.dot`` of upcast, scaled operands, as Triton's
DecomposeScaledBlocked pattern rewrites it where no tensor-core instruction takes the scales
(`tritongpu-accelerate-matmul` applies it before choosing the dots' layouts).

For a ``tt.dot_scaled`` whose result is not in an mma layout and whose operands are packed
along K (``lhs_k_pack``, ``rhs_k_pack``), each operand ``v`` with element kind ``kind`` and
optional ``scale`` (one e8m0 byte, or a float, per 16 or 32 elements of K) becomes, in the
compute type (f16 when either operand is fp16, else bf16):

1. ``v`` upcast: ``ttg.fp4_to_fp`` along K for e2m1 (two values per byte), else
   ``tt.fp_to_fp`` (nothing when ``v`` already has the compute type);
2. without a scale, that is all; else the scale in the compute type: an e8m0 byte ``e`` is
   the float ``2^(e - 127)``, i.e. ``e`` shifted into the exponent field of the compute type
   (of f32 then truncated, for f16, whose exponent is too narrow); a float scale is converted
   with ``tt.fp_to_fp``. B's scale, given as ``N x K/factor`` like A's, is transposed first;
3. the scale broadcast over its ``factor`` elements of K (``expand_dims``, ``broadcast``,
   ``trans`` unless K is the last dim, ``reshape``, through a slice of the default blocked
   layout) and multiplied in;
4. unless ``fastMath``, elements whose scale is NaN (byte 0xFF, or an unordered float) are
   NaN (``arith.select``);
5. converted to the ``#ttg.dot_op`` layout of the result's.

The dot of the two and the accumulator replaces the scaled dot.
"""

from __future__ import annotations

from tilecraft.dialects import ttg
from tilecraft.generated.arith import (CmpFOp, CmpFPredicate, CmpIOp, CmpIPredicate, ExtUIOp,
                                       MulFOp, SelectOp, ShLIOp, TruncFOp)
from tilecraft.generated.tt import (BitcastOp, BroadcastOp, DotOp, ExpandDimsOp, FpToFpOp,
                                    ReshapeOp, ScaleDotElemType, SplatOp, TransOp)
from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, ConvertLayoutOp,
                                     DotOperandEncodingAttr, Fp4ToFpOp, NvidiaMmaEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import (Builder, FloatType, IntegerType, Operation, RankedTensorType, Type,
                          Value)
from tilecraft.transforms.layout_inference import (fp4_to_fp_encoding, reshape_encoding,
                                                   trans_encoding, with_encoding)
from tilecraft.transforms.transform_utils import constant_op
from tilecraft.transforms.triton_to_tritongpu import default_blocked

__all__ = ["decompose_scaled_dot", "decompose_scaled_dots"]

_MMA_LAYOUTS = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr)
#: Mantissa bits (without the sign) of the float types a scale is shifted into.
_MANTISSA_BITS = {"bf16": 7, "f32": 23}


def _typed(t: RankedTensorType, element: Type) -> RankedTensorType:
    return RankedTensorType(t.shape, element, t.encoding)


def _convert(b: Builder, value: Value, t: RankedTensorType) -> Value:
    if value.type == t:
        return value
    return b.insert(ConvertLayoutOp.build(t, value, location=b.location)).results[0]


def _scale_to_compute(b: Builder, scale: Value, compute: FloatType) -> Value:
    """The scale as a tensor of ``compute`` (step 2 of the module docstring)."""
    t: RankedTensorType = scale.type
    if isinstance(t.element_type, FloatType):
        return b.insert(FpToFpOp.build(_typed(t, compute), scale,
                                       location=b.location)).results[0]
    wide = compute if str(compute) == "bf16" else FloatType("f32")
    integer = IntegerType(wide.width)
    extended = b.insert(ExtUIOp.build(_typed(t, integer), scale,
                                      location=b.location)).results[0]
    amount = b.insert(constant_op(_MANTISSA_BITS[str(wide)], integer, b.location)).results[0]
    splat = b.insert(SplatOp.build(_typed(t, integer), amount, location=b.location)).results[0]
    shifted = b.insert(ShLIOp.build(extended, splat, location=b.location)).results[0]
    value = b.insert(BitcastOp.build(_typed(t, wide), shifted,
                                     location=b.location)).results[0]
    if wide != compute:
        value = b.insert(TruncFOp.build(_typed(t, compute), value,
                                        location=b.location)).results[0]
    return value


def _broadcast(b: Builder, dot: Operation, scale: Value, dim: int, factor: int) -> Value:
    """``scale`` repeated ``factor`` times along ``dim`` (step 3 of the module docstring)."""
    t: RankedTensorType = scale.type
    rank = t.rank
    module = ttg.enclosing_module(dot)
    blocked = default_blocked((*t.shape, 1),
                              ttg.context_num_warps(dot) or ttg.num_warps(module),
                              ttg.threads_per_warp(module), ttg.num_ctas(module))
    sliced = _convert(b, scale, with_encoding(t, SliceEncodingAttr(rank, blocked)))
    expanded = b.insert(ExpandDimsOp.build(
        RankedTensorType((*t.shape, 1), t.element_type, blocked), sliced, rank,
        location=b.location)).results[0]
    wide_shape = (*t.shape, factor)
    wide = b.insert(BroadcastOp.build(RankedTensorType(wide_shape, t.element_type, blocked),
                                      expanded, location=b.location)).results[0]
    order = list(range(rank))
    order.insert(dim + 1, rank)
    moved_shape = tuple(wide_shape[i] for i in order)
    moved = wide
    if order != sorted(order):  # the scaled dim is not the last one
        moved = b.insert(TransOp.build(
            RankedTensorType(moved_shape, t.element_type,
                             trans_encoding(blocked, wide_shape, tuple(order))),
            wide, tuple(order), location=b.location)).results[0]
    shape = list(t.shape)
    shape[dim] *= factor
    encoding = reshape_encoding(moved.type.encoding, moved_shape, tuple(shape))
    return b.insert(ReshapeOp.build(RankedTensorType(shape, t.element_type, encoding), moved,
                                    location=b.location)).results[0]


def _operand(b: Builder, dot: Operation, index: int, compute: FloatType) -> Value:
    """Operand ``index`` of ``dot`` upcast and scaled (steps 1 to 4)."""
    value: Value = dot.operands[index]
    scale: Value | None = dot.a_scale if index == 0 else dot.b_scale
    kind = dot.a_elem_type if index == 0 else dot.b_elem_type
    t: RankedTensorType = value.type
    k_dim = t.rank - 1 if index == 0 else t.rank - 2
    if kind == ScaleDotElemType.E2M1:
        shape = list(t.shape)
        shape[k_dim] *= 2
        encoding = fp4_to_fp_encoding(t.encoding, tuple(t.shape), k_dim, True)
        value = b.insert(Fp4ToFpOp.build(RankedTensorType(shape, compute, encoding), value,
                                         k_dim, location=b.location)).results[0]
    elif t.element_type != compute:
        value = b.insert(FpToFpOp.build(_typed(t, compute), value,
                                        location=b.location)).results[0]
    if scale is None:
        return value
    if index == 1:
        order = (*range(scale.type.rank - 2), scale.type.rank - 1, scale.type.rank - 2)
        s: RankedTensorType = scale.type
        scale = b.insert(TransOp.build(
            RankedTensorType(tuple(s.shape[i] for i in order), s.element_type,
                             trans_encoding(s.encoding, tuple(s.shape), order)),
            scale, order, location=b.location)).results[0]
    factor = value.type.shape[k_dim] // scale.type.shape[k_dim]
    factors = _broadcast(b, dot, _scale_to_compute(b, scale, compute), k_dim, factor)
    scaled = b.insert(MulFOp.build(value, _convert(b, factors, value.type),
                                   location=b.location)).results[0]
    if dot.fast_math:
        return scaled
    s = scale.type
    if isinstance(s.element_type, FloatType):
        as_float = _scale_to_compute(b, scale, compute)
        is_nan = b.insert(CmpFOp.build(as_float, as_float, CmpFPredicate.UNO,
                                       location=b.location)).results[0]
    else:
        all_ones = b.insert(constant_op(0xFF, s, b.location)).results[0]
        is_nan = b.insert(CmpIOp.build(scale, all_ones, CmpIPredicate.eq,
                                       location=b.location)).results[0]
    mask = _broadcast(b, dot, is_nan, k_dim, factor)
    mask = _convert(b, mask, _typed(value.type, mask.type.element_type))
    nan = b.insert(constant_op(float("nan"), value.type, b.location)).results[0]
    return b.insert(SelectOp.build(mask, nan, scaled, location=b.location)).results[0]


def decompose_scaled_dot(dot: Operation) -> Operation | None:
    """Replaces ``dot`` (a ``tt.dot_scaled``) by the ``tt.dot`` of the module docstring and
    returns it; None, changing nothing, when the result is in an mma layout already or an
    operand is not packed along K."""
    result: RankedTensorType = dot.results[0].type
    if result.encoding is None or isinstance(result.encoding, _MMA_LAYOUTS):
        return None
    if not (dot.lhs_k_pack and dot.rhs_k_pack):
        return None
    fp16 = ScaleDotElemType.FP16 in (dot.a_elem_type, dot.b_elem_type)
    compute = FloatType("f16" if fp16 else "bf16")
    b = Builder.before(dot, dot.location)
    operands = []
    for index in (0, 1):
        value = _operand(b, dot, index, compute)
        encoding = DotOperandEncodingAttr(index, result.encoding, 0)
        operands.append(_convert(b, value, with_encoding(value.type, encoding)))
    new = b.insert(DotOp.build(operands[0], operands[1], dot.operands[2], result,
                               location=dot.location))
    dot.results[0].replace_all_uses_with(new.results[0])
    dot.erase()
    return new


def decompose_scaled_dots(module: Operation) -> list[Operation]:
    """Decomposes the module's scaled dots (see `decompose_scaled_dot`); returns the new dots."""
    dots = [op for op in module.walk() if op.name == "tt.dot_scaled"]
    return [new for new in map(decompose_scaled_dot, dots) if new is not None]
