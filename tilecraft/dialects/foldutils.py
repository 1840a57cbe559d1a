"""Constant folding helpers shared by the dialects' ``fold`` hooks and canonicalization patterns.

Not a dialect's hooks module: the arith, math and tt hooks import it. Constants are the
attributes that ``fold`` receives (see `tilecraft.transforms.folding`): an `IntegerAttr`
(`BoolAttr` for i1), a `FloatAttr`, or a `DenseElementsAttr` (a splat or every element).

Integers are folded at their width with two's complement wrap-around, as MLIR's APInt does:
`to_signed`/`to_unsigned` read a stored value either way, `wrap` brings a result back into
range. `fold_elementwise` applies a scalar function to scalars, splats, or element by element to
dense tensors of one shape; the function returns None to give up (division by zero, ...).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from tilecraft.ir import (
    Attribute, BoolAttr, DenseElementsAttr, FloatAttr, FloatType, IndexType, IntegerAttr,
    IntegerType, RankedTensorType, Type, Value,
)
from tilecraft.ir.traits import ConstantLike

__all__ = [
    "element_type", "int_width", "to_signed", "to_unsigned", "wrap", "is_int_like",
    "is_float_like", "make_attr", "splat_value", "const_attr", "const_splat",
    "fold_elementwise", "int_to_float", "is_zero", "is_one", "is_all_ones", "is_neg_zero",
    "is_pos_zero", "same_shape_type", "bool_attr_like", "MAX_FOLD_ELEMENTS",
]

#: Dense constants with more elements than this are not folded element by element (a splat
#: folds at any size).
MAX_FOLD_ELEMENTS = 1 << 16


def element_type(type_: Type) -> Type:
    """The element type of a tensor, or the type itself."""
    return type_.element_type if isinstance(type_, RankedTensorType) else type_


def int_width(type_: Type) -> int:
    """The bit width of an integer (or index: 64) type or tensor of them."""
    elem = element_type(type_)
    return 64 if isinstance(elem, IndexType) else elem.width


def is_int_like(type_: Type) -> bool:
    return isinstance(element_type(type_), (IntegerType, IndexType))


def is_float_like(type_: Type) -> bool:
    return isinstance(element_type(type_), FloatType)


def to_unsigned(value: int, width: int) -> int:
    return int(value) & ((1 << width) - 1)


def to_signed(value: int, width: int) -> int:
    value = int(value) & ((1 << width) - 1)
    return value - (1 << width) if value >> (width - 1) else value


wrap = to_signed


def same_shape_type(type_: Type, elem: Type) -> Type:
    """``elem``, or a tensor of ``elem`` with the shape and encoding of the tensor ``type_``."""
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, elem, type_.encoding)
    return elem


def make_attr(type_: Type, value) -> Attribute | None:
    """A constant of ``type_`` holding ``value`` (every element, for a tensor); None when
    ``type_`` cannot hold one (a dynamically shaped tensor, a non-number element type)."""
    elem = element_type(type_)
    if isinstance(type_, RankedTensorType):
        if not type_.has_static_shape() or not isinstance(elem, (IntegerType, IndexType,
                                                                 FloatType)):
            return None
        return DenseElementsAttr(type_, _element(elem, value))
    if isinstance(elem, (IntegerType, IndexType)):
        return IntegerAttr(_element(elem, value), type_)
    if isinstance(elem, FloatType):
        return FloatAttr(float(value), type_)
    return None


def _element(elem: Type, value):
    if isinstance(elem, IntegerType):
        return wrap(value, elem.width)
    if isinstance(elem, IndexType):
        return wrap(value, 64)
    return float(value)


def splat_value(attr: Attribute | None):
    """The number a scalar or splat constant holds (ints as int, i1 as 0/1), else None."""
    if isinstance(attr, DenseElementsAttr):
        if not attr.is_splat:
            return None
        value = attr.splat_value
    elif isinstance(attr, (IntegerAttr, FloatAttr)):
        value = attr.value
    else:
        return None
    return int(value) if isinstance(value, bool) else value


def const_attr(value: Value) -> Attribute | None:
    """The attribute of the ``ConstantLike`` op defining ``value`` (its ``value``), or None."""
    op = value.defining_op
    if op is None or not op.has_trait(ConstantLike):
        return None
    return op.get_attr("value")


def const_splat(value: Value):
    """The number that ``value`` always holds when a scalar or splat constant defines it."""
    return splat_value(const_attr(value))


def _scalars(attr: Attribute, count: int) -> list | None:
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return None
    values = attr.values
    return [int(v) if isinstance(v, bool) else v for v in values]


def fold_elementwise(attrs: Sequence[Attribute | None], result_type: Type,
                     fn: Callable) -> Attribute | None:
    """``fn`` applied to the numbers of ``attrs`` (all scalars, or tensors of one shape),
    giving a constant of ``result_type``; None when an operand is not a constant, the kinds
    mix, or ``fn`` returns None for some element."""
    if not attrs or any(a is None for a in attrs):
        return None
    if all(isinstance(a, (IntegerAttr, FloatAttr)) for a in attrs):
        if isinstance(result_type, RankedTensorType):
            return None
        result = fn(*(splat_value(a) for a in attrs))
        return None if result is None else make_attr(result_type, result)
    if not all(isinstance(a, DenseElementsAttr) for a in attrs):
        return None
    if not isinstance(result_type, RankedTensorType) or not result_type.has_static_shape():
        return None
    shape = result_type.shape
    if any(a.type.shape != shape for a in attrs):
        return None
    if all(a.is_splat for a in attrs):
        result = fn(*(splat_value(a) for a in attrs))
        return None if result is None else make_attr(result_type, result)
    count = result_type.num_elements
    if count > MAX_FOLD_ELEMENTS:
        return None
    columns = [_scalars(a, count) for a in attrs]
    elem = element_type(result_type)
    out = []
    for row in zip(*columns):
        result = fn(*row)
        if result is None:
            return None
        out.append(_element(elem, result))
    return DenseElementsAttr(result_type, out)


def int_to_float(value: int, type_: FloatType) -> float:
    """``value`` rounded (to nearest, ties to even) to the float type ``type_``, exactly (no
    double rounding through a Python float)."""
    fmt = type_.format
    if value == 0:
        return 0.0
    sign = -1.0 if value < 0 else 1.0
    magnitude = abs(value)
    keep = fmt.mbits + 1
    bits = magnitude.bit_length()
    if bits > keep:
        shift = bits - keep
        quotient, rest = divmod(magnitude, 1 << shift)
        half = 1 << (shift - 1)
        if rest > half or (rest == half and quotient & 1):
            quotient += 1
        magnitude = quotient << shift
    try:
        result = float(magnitude)
    except OverflowError:
        result = math.inf
    return fmt.round(math.copysign(result, sign))


# -- predicates on constants (scalars and splats) ----------------------------------------------


def is_zero(attr: Attribute | None) -> bool:
    """An integer zero, or a float zero of either sign."""
    value = splat_value(attr)
    return value is not None and value == 0


def is_one(attr: Attribute | None) -> bool:
    value = splat_value(attr)
    if value is None:
        return False
    if isinstance(attr.type, RankedTensorType) or isinstance(attr, IntegerAttr):
        elem = element_type(attr.type)
        if isinstance(elem, (IntegerType, IndexType)):
            return to_unsigned(value, int_width(elem)) == 1
    return value == 1


def is_all_ones(attr: Attribute | None) -> bool:
    """An integer with every bit set (-1)."""
    value = splat_value(attr)
    if value is None or not is_int_like(attr.type):
        return False
    width = int_width(attr.type)
    return to_unsigned(value, width) == (1 << width) - 1


def is_neg_zero(attr: Attribute | None) -> bool:
    value = splat_value(attr)
    return isinstance(value, float) and value == 0.0 and math.copysign(1.0, value) < 0


def is_pos_zero(attr: Attribute | None) -> bool:
    value = splat_value(attr)
    return isinstance(value, float) and value == 0.0 and math.copysign(1.0, value) > 0


def bool_attr_like(type_: Type, value: bool) -> Attribute | None:
    """True or false as an i1 or a splat tensor of i1 of ``type_``'s shape."""
    if isinstance(type_, RankedTensorType):
        return make_attr(type_, int(value))
    return BoolAttr(value)
