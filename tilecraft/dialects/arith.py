"""Hooks of the arith dialect: MLIR's custom format and verifier of `arith.select`, and the
result names of `arith.constant`."""

from __future__ import annotations

from tilecraft.ir import IntegerAttr, IntegerType, RankedTensorType, i1
from tilecraft.ir.ods import implements

from . import generated_module

gen = generated_module(__name__, "arith")


@implements(gen.SelectOp)
@classmethod
def parse(cls, parser):
    """``%cond, %true, %false {attrs} : [condition-type ,] result-type``; the condition type is
    written only when it is not i1 (a tensor of i1 selecting element by element)."""
    operands = [parser.parse_operand()]
    for _ in range(2):
        parser.parse_punct(",")
        operands.append(parser.parse_operand())
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    condition_type = result_type = parser.parse_type()
    if parser.parse_optional_punct(","):
        result_type = parser.parse_type()
    else:
        condition_type = i1
    values = parser.resolve_operands(operands, [condition_type, result_type, result_type])
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=values, result_types=[result_type],
                      properties=properties, attributes=attributes)


@implements(gen.SelectOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    printer.write(" ")
    printer.print_operands(self.operands)
    printer.print_attr_dict(self.all_attributes())
    printer.write(" : ")
    condition_type = self.condition.type
    if isinstance(condition_type, RankedTensorType):
        printer.print_type(condition_type)
        printer.write(", ")
    printer.print_type(self.result_.type)


@implements(gen.SelectOp)
def custom_verify(self) -> None:
    """MLIR's SelectOp::verify: a tensor condition has the shape of the result."""
    condition_type = self.condition.type
    if not isinstance(condition_type, RankedTensorType):
        return
    result_type = self.result_.type
    if not isinstance(result_type, RankedTensorType):
        raise self.emit_error(f"expected condition to be a signless i1, but got "
                              f"{condition_type}")
    expected = RankedTensorType(result_type.shape, i1, result_type.encoding)
    if condition_type is not expected:
        raise self.emit_error(f"expected condition type to have the same shape as the result "
                              f"type, expected {expected}, but got {condition_type}")


# ================================================================================================
# Folding (MLIR's arith folders) and constants
# ================================================================================================

import math  # noqa: E402

from tilecraft.ir import (  # noqa: E402
    Attribute, DenseElementsAttr, FloatAttr, FloatType, IntegerAttr, IntegerType, Operation,
    Value,
)
from tilecraft.ir.traits import Commutative  # noqa: E402
from tilecraft.ir.patterns import RewritePattern  # noqa: E402

from .foldutils import (  # noqa: E402
    bool_attr_like, const_attr, element_type, fold_elementwise, int_to_float, int_width,
    is_all_ones, is_int_like, is_neg_zero, is_one, is_pos_zero, is_zero,
    make_attr, same_shape_type, splat_value, to_signed, to_unsigned, wrap,
)


def materialize_constant(attr: Attribute, type_, location) -> Operation | None:
    """An `arith.constant` of ``type_`` holding ``attr`` (None unless ``attr`` is a number or
    dense attribute of exactly that type)."""
    if isinstance(attr, (IntegerAttr, FloatAttr, DenseElementsAttr)) and attr.type is type_:
        return gen.ConstantOp.build(attr, type_, location=location)
    return None


def _define_fold(cls):
    """Decorator: attach the decorated function as ``cls``'s ``fold`` hook."""

    def attach(function):
        function.__name__ = "fold"
        function.__qualname__ = f"{cls.__name__}.fold"
        implements(cls)(function)
        return function

    return attach


def _defined_by(value: Value, cls):
    """The op defining ``value`` if it is a ``cls``, else None."""
    op = value.defining_op
    return op if isinstance(op, cls) else None


def _swap_operands(op) -> list:
    """Put the constant operand of a commutative op on the right, in place (MLIR's
    canonical order); the fold's empty result says the op changed."""
    lhs, rhs = op.operands
    op.set_operands([rhs, lhs])
    return []


# -- integer binary ops --------------------------------------------------------------------------


def _sdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _int_fns() -> dict:
    """Op class -> f(a, b, width) on signed values; None when MLIR does not fold."""

    def divsi(a, b, w):
        if b == 0 or (a == -(1 << (w - 1)) and b == -1):
            return None
        return _sdiv(a, b)

    def divui(a, b, w):
        ub = to_unsigned(b, w)
        return None if ub == 0 else to_unsigned(a, w) // ub

    def ceildivsi(a, b, w):
        if b == 0 or (a == -(1 << (w - 1)) and b == -1):
            return None
        return -((-a) // b)

    def floordivsi(a, b, w):
        if b == 0 or (a == -(1 << (w - 1)) and b == -1):
            return None
        return a // b

    def remsi(a, b, w):
        if b == 0 or (a == -(1 << (w - 1)) and b == -1):
            return None  # MIN % -1 overflows like MIN / -1 (undefined when lowered)
        return a - _sdiv(a, b) * b

    def remui(a, b, w):
        ub = to_unsigned(b, w)
        return None if ub == 0 else to_unsigned(a, w) % ub

    def shift(kind):
        def fn(a, b, w):
            amount = to_unsigned(b, w)
            if amount >= w:
                return None  # poison in MLIR: not folded
            if kind == "l":
                return to_unsigned(a, w) << amount
            if kind == "rs":
                return a >> amount
            return to_unsigned(a, w) >> amount
        return fn

    def umax(a, b, w):
        return a if to_unsigned(a, w) >= to_unsigned(b, w) else b

    def umin(a, b, w):
        return a if to_unsigned(a, w) <= to_unsigned(b, w) else b

    return {
        gen.AddIOp: lambda a, b, w: a + b,
        gen.SubIOp: lambda a, b, w: a - b,
        gen.MulIOp: lambda a, b, w: a * b,
        gen.DivSIOp: divsi, gen.DivUIOp: divui, gen.CeilDivSIOp: ceildivsi,
        gen.FloorDivSIOp: floordivsi, gen.RemSIOp: remsi, gen.RemUIOp: remui,
        gen.AndIOp: lambda a, b, w: to_unsigned(a, w) & to_unsigned(b, w),
        gen.OrIOp: lambda a, b, w: to_unsigned(a, w) | to_unsigned(b, w),
        gen.XOrIOp: lambda a, b, w: to_unsigned(a, w) ^ to_unsigned(b, w),
        gen.ShLIOp: shift("l"), gen.ShRSIOp: shift("rs"), gen.ShRUIOp: shift("ru"),
        gen.MaxSIOp: lambda a, b, w: max(a, b), gen.MinSIOp: lambda a, b, w: min(a, b),
        gen.MaxUIOp: umax, gen.MinUIOp: umin,
    }


def fold_int_binary(cls, lhs: Attribute | None, rhs: Attribute | None, result_type):
    """The constant ``cls`` computes from the constants ``lhs`` and ``rhs`` (None when one is
    missing or MLIR does not fold it: division by zero, overflowing division, big shifts)."""
    fn = _INT_FNS[cls]
    width = int_width(result_type)
    return fold_elementwise(
        [lhs, rhs], result_type,
        lambda a, b: None if (r := fn(to_signed(a, width), to_signed(b, width), width)) is None
        else wrap(r, width))


def _is_not_of(value: Value, other: Value) -> bool:
    """Whether ``value`` is ``xori(other, -1)`` (either operand order)."""
    op = _defined_by(value, gen.XOrIOp)
    if op is None:
        return False
    return ((op.lhs is other and is_all_ones(const_attr(op.rhs)))
            or (op.rhs is other and is_all_ones(const_attr(op.lhs))))


def _int_identity(op, lhs_c, rhs_c) -> list | None:
    """MLIR's algebraic folds of the integer binary ops (constants are on the right)."""
    lhs, rhs = op.lhs, op.rhs
    type_ = op.result_.type
    width = int_width(type_)
    cls = type(op)
    rhs_value = splat_value(rhs_c)
    if cls is gen.AddIOp:
        if is_zero(rhs_c):
            return [lhs]
        sub = _defined_by(lhs, gen.SubIOp)  # (a - b) + b -> a
        if sub is not None and sub.rhs is rhs:
            return [sub.lhs]
        sub = _defined_by(rhs, gen.SubIOp)  # b + (a - b) -> a
        if sub is not None and sub.rhs is lhs:
            return [sub.lhs]
    elif cls is gen.SubIOp:
        if lhs is rhs:
            zero = make_attr(type_, 0)
            return [zero] if zero is not None else None
        if is_zero(rhs_c):
            return [lhs]
        add = _defined_by(lhs, gen.AddIOp)  # (a + b) - b -> a, (a + b) - a -> b
        if add is not None:
            if add.rhs is rhs:
                return [add.lhs]
            if add.lhs is rhs:
                return [add.rhs]
    elif cls is gen.MulIOp:
        if is_zero(rhs_c):
            return [rhs_c]
        if is_one(rhs_c):
            return [lhs]
    elif cls in (gen.DivSIOp, gen.DivUIOp, gen.CeilDivSIOp, gen.FloorDivSIOp):
        if is_one(rhs_c):
            return [lhs]
    elif cls in (gen.RemSIOp, gen.RemUIOp):
        if is_one(rhs_c):
            zero = make_attr(type_, 0)
            return [zero] if zero is not None else None
    elif cls is gen.AndIOp:
        if is_zero(rhs_c):
            return [rhs_c]
        if is_all_ones(rhs_c) or lhs is rhs:
            return [lhs]
        if _is_not_of(rhs, lhs) or _is_not_of(lhs, rhs):  # x & ~x -> 0
            zero = make_attr(type_, 0)
            return [zero] if zero is not None else None
    elif cls is gen.OrIOp:
        if is_zero(rhs_c) or lhs is rhs:
            return [lhs]
        if is_all_ones(rhs_c):
            return [rhs_c]
        if _is_not_of(rhs, lhs) or _is_not_of(lhs, rhs):  # x | ~x -> -1
            ones = make_attr(type_, -1)
            return [ones] if ones is not None else None
    elif cls is gen.XOrIOp:
        if is_zero(rhs_c):
            return [lhs]
        if lhs is rhs:
            zero = make_attr(type_, 0)
            return [zero] if zero is not None else None
        inner = _defined_by(lhs, gen.XOrIOp)  # (x ^ a) ^ a -> x
        if inner is not None:
            if inner.rhs is rhs:
                return [inner.lhs]
            if inner.lhs is rhs:
                return [inner.rhs]
    elif cls in (gen.ShLIOp, gen.ShRSIOp, gen.ShRUIOp):
        if is_zero(rhs_c):
            return [lhs]
    elif cls in (gen.MaxSIOp, gen.MinSIOp, gen.MaxUIOp, gen.MinUIOp):
        if lhs is rhs:
            return [lhs]
        if rhs_value is None:
            return None
        smax, smin = (1 << (width - 1)) - 1, -(1 << (width - 1))
        value = to_signed(rhs_value, width)
        unsigned = to_unsigned(rhs_value, width)
        umax = (1 << width) - 1
        absorbing, neutral = {
            gen.MaxSIOp: (value == smax, value == smin),
            gen.MinSIOp: (value == smin, value == smax),
            gen.MaxUIOp: (unsigned == umax, unsigned == 0),
            gen.MinUIOp: (unsigned == 0, unsigned == umax),
        }[cls]
        if absorbing:
            return [rhs_c]
        if neutral:
            return [lhs]
    return None


def _make_int_binary_fold(cls):
    commutative = cls.has_trait(Commutative)

    @_define_fold(cls)
    def fold(self, operand_constants):
        lhs_c, rhs_c = operand_constants
        if commutative and lhs_c is not None and rhs_c is None:
            return _swap_operands(self)
        if lhs_c is not None and rhs_c is not None:
            folded = fold_int_binary(cls, lhs_c, rhs_c, self.result_.type)
            if folded is not None:
                return [folded]
        return _int_identity(self, lhs_c, rhs_c)


# -- float binary ops ----------------------------------------------------------------------------


def _divf(a: float, b: float) -> float:
    if b != 0.0:
        return a / b
    if math.isnan(a) or a == 0.0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _remf(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0.0:
        return math.nan
    return math.fmod(a, b)


def _maximum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0.0:
        return a if math.copysign(1.0, a) > 0 else b
    return max(a, b)


def _minimum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return min(a, b)


def _maxnum(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return _maximum(a, b)


def _minnum(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return _minimum(a, b)


_FLOAT_FNS = {
    gen.AddFOp: lambda a, b: a + b,
    gen.SubFOp: lambda a, b: a - b,
    gen.MulFOp: lambda a, b: a * b,
    gen.DivFOp: _divf,
    gen.RemFOp: _remf,
    gen.MaximumFOp: _maximum, gen.MinimumFOp: _minimum,
    gen.MaxNumFOp: _maxnum, gen.MinNumFOp: _minnum,
}


def _is_inf(attr, negative: bool) -> bool:
    value = splat_value(attr)
    return isinstance(value, float) and math.isinf(value) and (value < 0) == negative


def _is_nan(attr) -> bool:
    value = splat_value(attr)
    return isinstance(value, float) and math.isnan(value)


def _float_identity(op, lhs_c, rhs_c) -> list | None:
    lhs, rhs = op.lhs, op.rhs
    cls = type(op)
    if cls is gen.AddFOp and is_neg_zero(rhs_c):  # x + -0.0 -> x
        return [lhs]
    if cls is gen.SubFOp and is_pos_zero(rhs_c):  # x - +0.0 -> x
        return [lhs]
    if cls in (gen.MulFOp, gen.DivFOp) and splat_value(rhs_c) == 1.0:
        return [lhs]
    if cls in (gen.MaximumFOp, gen.MinimumFOp, gen.MaxNumFOp, gen.MinNumFOp):
        if lhs is rhs:
            return [lhs]
        if cls in (gen.MaximumFOp, gen.MaxNumFOp) and _is_inf(rhs_c, negative=True):
            return [lhs]
        if cls in (gen.MinimumFOp, gen.MinNumFOp) and _is_inf(rhs_c, negative=False):
            return [lhs]
        if cls in (gen.MaxNumFOp, gen.MinNumFOp) and _is_nan(rhs_c):
            return [lhs]
    return None


def _make_float_binary_fold(cls):
    commutative = cls.has_trait(Commutative)
    fn = _FLOAT_FNS[cls]

    @_define_fold(cls)
    def fold(self, operand_constants):
        lhs_c, rhs_c = operand_constants
        if commutative and lhs_c is not None and rhs_c is None:
            return _swap_operands(self)
        folded = fold_elementwise([lhs_c, rhs_c], self.result_.type, fn)
        if folded is not None:
            return [folded]
        return _float_identity(self, lhs_c, rhs_c)


@_define_fold(gen.NegFOp)
def _fold_negf(self, operand_constants):
    folded = fold_elementwise(operand_constants, self.result_.type, lambda a: -a)
    if folded is not None:
        return [folded]
    inner = _defined_by(self.operand_, gen.NegFOp)  # -(-x) -> x
    return [inner.operand_] if inner is not None else None


# -- comparisons ---------------------------------------------------------------------------------


_CmpI = gen.CmpIPredicate
_CmpF = gen.CmpFPredicate

_CMPI_SWAPPED = {
    _CmpI.eq: _CmpI.eq, _CmpI.ne: _CmpI.ne, _CmpI.slt: _CmpI.sgt, _CmpI.sle: _CmpI.sge,
    _CmpI.sgt: _CmpI.slt, _CmpI.sge: _CmpI.sle, _CmpI.ult: _CmpI.ugt, _CmpI.ule: _CmpI.uge,
    _CmpI.ugt: _CmpI.ult, _CmpI.uge: _CmpI.ule,
}
def cmpi_holds(predicate, a: int, b: int, width: int) -> bool:
    """Whether ``a predicate b`` holds for two integers of ``width`` bits."""
    name = _CmpI(predicate).name
    if name in ("eq", "ne"):
        equal = to_unsigned(a, width) == to_unsigned(b, width)
        return equal if name == "eq" else not equal
    if name[0] == "s":
        a, b = to_signed(a, width), to_signed(b, width)
    else:
        a, b = to_unsigned(a, width), to_unsigned(b, width)
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[name[1:]]


def cmpf_holds(predicate, a: float, b: float) -> bool:
    """Whether ``a predicate b`` holds (unordered when either is NaN)."""
    predicate = _CmpF(predicate)
    if predicate is _CmpF.AlwaysFalse:
        return False
    if predicate is _CmpF.AlwaysTrue:
        return True
    unordered = math.isnan(a) or math.isnan(b)
    if predicate is _CmpF.ORD:
        return not unordered
    if predicate is _CmpF.UNO:
        return unordered
    name = predicate.name
    if unordered:
        return name[0] == "U"
    return {"EQ": a == b, "NE": a != b, "GT": a > b, "GE": a >= b, "LT": a < b,
            "LE": a <= b}[name[1:]]


@_define_fold(gen.CmpIOp)
def _fold_cmpi(self, operand_constants):
    lhs_c, rhs_c = operand_constants
    predicate = self.predicate
    result_type = self.result_.type
    if self.lhs is self.rhs:  # x == x, x < x, ...
        holds = predicate in (_CmpI.eq, _CmpI.sle, _CmpI.sge, _CmpI.ule, _CmpI.uge)
        attr = bool_attr_like(result_type, holds)
        return [attr] if attr is not None else None
    if lhs_c is not None and rhs_c is None:  # constants go right
        lhs, rhs = self.operands
        self.set_operands([rhs, lhs])
        self.properties["predicate"] = IntegerAttr(int(_CMPI_SWAPPED[predicate]), IntegerType(64))
        return []
    width = int_width(self.lhs.type)
    folded = fold_elementwise([lhs_c, rhs_c], result_type,
                              lambda a, b: int(cmpi_holds(predicate, a, b, width)))
    return [folded] if folded is not None else None


@_define_fold(gen.CmpFOp)
def _fold_cmpf(self, operand_constants):
    lhs_c, rhs_c = operand_constants
    predicate = self.predicate
    result_type = self.result_.type
    if predicate in (_CmpF.AlwaysFalse, _CmpF.AlwaysTrue):
        attr = bool_attr_like(result_type, predicate is _CmpF.AlwaysTrue)
        return [attr] if attr is not None else None
    # A NaN operand decides the comparison whatever the other one is.
    if _is_nan(lhs_c) and rhs_c is None:
        rhs_c = lhs_c
    if _is_nan(rhs_c) and lhs_c is None:
        lhs_c = rhs_c
    folded = fold_elementwise([lhs_c, rhs_c], result_type,
                              lambda a, b: int(cmpf_holds(predicate, a, b)))
    return [folded] if folded is not None else None


# -- select --------------------------------------------------------------------------------------


@_define_fold(gen.SelectOp)
def _fold_select(self, operand_constants):
    cond_c, true_c, false_c = operand_constants
    cond, true_value, false_value = self.operands
    if true_value is false_value:
        return [true_value]
    chosen = splat_value(cond_c)
    if chosen is not None:
        return [true_value if chosen else false_value]
    result_type = self.result_.type
    # select(c, true, false) -> c for i1 values of the condition's type
    if cond.type is result_type and splat_value(true_c) == 1 and splat_value(false_c) == 0:
        return [cond]
    # select(x == y, x, y) -> y; select(x != y, x, y) -> x
    cmp = _defined_by(cond, gen.CmpIOp)
    if cmp is not None and cmp.predicate in (_CmpI.eq, _CmpI.ne):
        pair = {cmp.lhs, cmp.rhs}
        if len(pair) == 2 and pair == {true_value, false_value}:
            return [true_value if cmp.predicate is _CmpI.ne else false_value]
    # a non-splat constant condition choosing between constants, element by element
    if isinstance(cond_c, DenseElementsAttr) and true_c is not None and false_c is not None:
        folded = fold_elementwise([cond_c, true_c, false_c], result_type,
                                  lambda c, t, f: t if c else f)
        if folded is not None:
            return [folded]
    return None


# -- casts ---------------------------------------------------------------------------------------


def _cast_fold(cls, convert):
    """A cast's fold: constant operands through ``convert(value, in_type, out_type)``, then
    ``identities(op)``."""

    def decorate(identities):
        @_define_fold(cls)
        def fold(self, operand_constants):
            (in_c,) = operand_constants
            in_type, out_type = self.in_.type, self.out.type
            if in_c is not None:
                elem_in, elem_out = element_type(in_type), element_type(out_type)
                folded = fold_elementwise([in_c], out_type,
                                          lambda a: convert(a, elem_in, elem_out))
                if folded is not None:
                    return [folded]
            return identities(self) if identities is not None else None
        return fold

    return decorate


def _chain(op, inner_cls):
    """``op(inner(x))``: the inner op when ``op``'s operand is defined by an ``inner_cls``."""
    return _defined_by(op.in_, inner_cls)


def _set_input(op, value) -> list:
    op.set_operand(0, value)
    return []


@_cast_fold(gen.ExtSIOp, lambda a, t_in, t_out: to_signed(a, int_width(t_in)))
def _extsi_identities(op):
    inner = _chain(op, gen.ExtSIOp)  # extsi(extsi(x)) -> extsi(x)
    return _set_input(op, inner.in_) if inner is not None else None


@_cast_fold(gen.ExtUIOp, lambda a, t_in, t_out: to_unsigned(a, int_width(t_in)))
def _extui_identities(op):
    inner = _chain(op, gen.ExtUIOp)  # extui(extui(x)) -> extui(x)
    return _set_input(op, inner.in_) if inner is not None else None


@_cast_fold(gen.TruncIOp, lambda a, t_in, t_out: a)
def _trunci_identities(op):
    for inner_cls in (gen.ExtSIOp, gen.ExtUIOp):
        inner = _chain(op, inner_cls)
        if inner is not None:
            src = inner.in_
            if src.type is op.out.type:  # trunci(ext(x)) -> x
                return [src]
            if int_width(src.type) > int_width(op.out.type):  # trunci(ext(x)) -> trunci(x)
                return _set_input(op, src)
            return None
    inner = _chain(op, gen.TruncIOp)  # trunci(trunci(x)) -> trunci(x)
    return _set_input(op, inner.in_) if inner is not None else None


@_cast_fold(gen.ExtFOp, lambda a, t_in, t_out: a)
def _extf_identities(op):
    inner = _chain(op, gen.ExtFOp)  # extf(extf(x)) -> extf(x)
    return _set_input(op, inner.in_) if inner is not None else None


@_cast_fold(gen.TruncFOp, lambda a, t_in, t_out: a)  # FloatAttr rounds to nearest even
def _truncf_identities(op):
    inner = _chain(op, gen.ExtFOp)
    if inner is not None:
        src = inner.in_
        if src.type is op.out.type:  # truncf(extf(x)) -> x
            return [src]
        if element_type(src.type).width > element_type(op.out.type).width:
            return _set_input(op, src)  # truncf(extf(x)) -> truncf(x)
    return None


@_cast_fold(gen.SIToFPOp, lambda a, t_in, t_out: int_to_float(to_signed(a, int_width(t_in)),
                                                              t_out))
def _sitofp_identities(op):
    return None


@_cast_fold(gen.UIToFPOp, lambda a, t_in, t_out: int_to_float(to_unsigned(a, int_width(t_in)),
                                                              t_out))
def _uitofp_identities(op):
    return None


def _fp_to_int(signed: bool):
    def convert(a, t_in, t_out):
        if math.isnan(a) or math.isinf(a):
            return None
        value = math.trunc(a)
        width = int_width(t_out)
        low, high = ((-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed
                     else (0, (1 << width) - 1))
        return value if low <= value <= high else None  # out of range: poison, not folded
    return convert


@_cast_fold(gen.FPToSIOp, _fp_to_int(True))
def _fptosi_identities(op):
    return None


@_cast_fold(gen.FPToUIOp, _fp_to_int(False))
def _fptoui_identities(op):
    return None


@_cast_fold(gen.IndexCastOp, lambda a, t_in, t_out: to_signed(a, int_width(t_in)))
def _index_cast_identities(op):
    inner = _chain(op, gen.IndexCastOp)  # index_cast(index_cast(x)) -> x
    if inner is not None and inner.in_.type is op.out.type:
        return [inner.in_]
    return None


def _bitcast(a, t_in, t_out):
    if isinstance(t_in, FloatType):
        bits = t_in.format.to_bits(a)
    elif isinstance(t_in, IntegerType):
        bits = to_unsigned(a, t_in.width)
    else:
        return None
    if isinstance(t_out, FloatType):
        if t_out.format.width != (t_in.width if isinstance(t_in, IntegerType)
                                  else t_in.format.width):
            return None
        return t_out.format.from_bits(bits)
    if isinstance(t_out, IntegerType):
        return bits
    return None


@_cast_fold(gen.BitcastOp, _bitcast)
def _bitcast_identities(op):
    if op.in_.type is op.out.type:
        return [op.in_]
    inner = _chain(op, gen.BitcastOp)
    if inner is not None:
        if inner.in_.type is op.out.type:  # bitcast(bitcast(x)) -> x
            return [inner.in_]
        return _set_input(op, inner.in_)  # bitcast(bitcast(x)) -> bitcast(x)
    return None


# -- attaching the binary folds ------------------------------------------------------------------

_INT_FNS = _int_fns()
for _cls in _INT_FNS:
    _make_int_binary_fold(_cls)
for _cls in _FLOAT_FNS:
    _make_float_binary_fold(_cls)
del _cls


# ================================================================================================
# Canonicalization patterns (MLIR's ArithCanonicalization)
# ================================================================================================


def constant_op(rewriter, attr: Attribute, location) -> Value:
    """A new `arith.constant` holding ``attr``, inserted at the rewriter's insertion point."""
    return rewriter.insert(gen.ConstantOp.build(attr, attr.type, location=location)).result_


def _fold_const(cls, lhs_c, rhs_c, type_) -> Attribute | None:
    return fold_int_binary(cls, lhs_c, rhs_c, type_) if lhs_c is not None and \
        rhs_c is not None else None


class _Reassociate(RewritePattern):
    """Chains of an integer op and constants: ``op(inner(x, c0), c1)`` (and the mirrored
    forms of subtraction) become one op with the constants folded, as MLIR's AddIAddConstant,
    AddISubConstantRHS/LHS, SubIRHSAddConstant, ..., MulIMulIConstant do.

    ``RULES`` maps (inner op, where x is, where the outer constant is) to (new op, where x
    goes, the constant's fold: (op, first, second) with "c0"/"c1").

    Not a `Pat`: the new constant is computed (the two constants folded with the arith folder's
    wrap-around, for scalars and splats), and the dialect's folding helpers are not reachable from
    generated patterns.
    """

    RULES: dict = {}

    def match_and_rewrite(self, op, rewriter) -> bool:
        type_ = op.result_.type
        for outer_side, (inner_value, c1) in (("rhs", (op.lhs, const_attr(op.rhs))),
                                               ("lhs", (op.rhs, const_attr(op.lhs)))):
            if c1 is None:
                continue
            inner = inner_value.defining_op
            if inner is None or type(inner) not in (gen.AddIOp, gen.SubIOp, gen.MulIOp):
                continue
            for x_side in ("lhs", "rhs"):
                rule = self.RULES.get((type(inner), x_side, outer_side))
                if rule is None:
                    continue
                x = getattr(inner, x_side)
                c0 = const_attr(inner.rhs if x_side == "lhs" else inner.lhs)
                if c0 is None or const_attr(x) is not None:
                    continue
                new_cls, new_x_side, (fold_cls, first, second) = rule
                values = {"c0": c0, "c1": c1}
                folded = _fold_const(fold_cls, values[first], values[second], type_)
                if folded is None:
                    continue
                constant = constant_op(rewriter, folded, op.location)
                operands = (x, constant) if new_x_side == "lhs" else (constant, x)
                rewriter.replace_op_with_new_op(op, new_cls, *operands)
                return True
        return False


class AddIConstantChain(_Reassociate):
    """`_Reassociate` rooted at `arith.addi`: ``(x + c0) + c1 -> x + (c0 + c1)`` and the
    forms with a subtraction inside."""

    ROOT = "arith.addi"
    RULES = {
        (gen.AddIOp, "lhs", "rhs"): (gen.AddIOp, "lhs", (gen.AddIOp, "c0", "c1")),
        (gen.AddIOp, "lhs", "lhs"): (gen.AddIOp, "lhs", (gen.AddIOp, "c0", "c1")),
        (gen.SubIOp, "lhs", "rhs"): (gen.AddIOp, "lhs", (gen.SubIOp, "c1", "c0")),
        (gen.SubIOp, "lhs", "lhs"): (gen.AddIOp, "lhs", (gen.SubIOp, "c1", "c0")),
        (gen.SubIOp, "rhs", "rhs"): (gen.SubIOp, "rhs", (gen.AddIOp, "c0", "c1")),
        (gen.SubIOp, "rhs", "lhs"): (gen.SubIOp, "rhs", (gen.AddIOp, "c0", "c1")),
    }


class SubIConstantChain(_Reassociate):
    """`_Reassociate` rooted at `arith.subi`: a subtraction of a constant from, or to, a sum or
    difference with a constant."""

    ROOT = "arith.subi"
    RULES = {
        # (x + c0) - c1 -> x + (c0 - c1);  c1 - (x + c0) -> (c1 - c0) - x
        (gen.AddIOp, "lhs", "rhs"): (gen.AddIOp, "lhs", (gen.SubIOp, "c0", "c1")),
        (gen.AddIOp, "lhs", "lhs"): (gen.SubIOp, "rhs", (gen.SubIOp, "c1", "c0")),
        # (x - c0) - c1 -> x - (c0 + c1);  c1 - (x - c0) -> (c0 + c1) - x
        (gen.SubIOp, "lhs", "rhs"): (gen.SubIOp, "lhs", (gen.AddIOp, "c0", "c1")),
        (gen.SubIOp, "lhs", "lhs"): (gen.SubIOp, "rhs", (gen.AddIOp, "c0", "c1")),
        # (c0 - x) - c1 -> (c0 - c1) - x;  c1 - (c0 - x) -> x + (c1 - c0)
        (gen.SubIOp, "rhs", "rhs"): (gen.SubIOp, "rhs", (gen.SubIOp, "c0", "c1")),
        (gen.SubIOp, "rhs", "lhs"): (gen.AddIOp, "lhs", (gen.SubIOp, "c1", "c0")),
    }


class MulIConstantChain(_Reassociate):
    """`_Reassociate` rooted at `arith.muli`: ``(x * c0) * c1 -> x * (c0 * c1)``."""

    ROOT = "arith.muli"
    RULES = {
        (gen.MulIOp, "lhs", "rhs"): (gen.MulIOp, "lhs", (gen.MulIOp, "c0", "c1")),
        (gen.MulIOp, "lhs", "lhs"): (gen.MulIOp, "lhs", (gen.MulIOp, "c0", "c1")),
    }


class SelectSimplify(RewritePattern):
    """MLIR's select canonicalizations that build constants (the others are `Pat`s of
    defs/arith.td, tried after this one):

    - ``select(c, false, true) -> xori(c, true)`` (i1 values of the condition's type);
    - ``select(c, 1, 0) -> extui(c)``, ``select(c, 0, 1) -> extui(xori(c, true))`` (integers
      of the condition's shape).

    Not a `Pat`: the `true` it builds is a computed constant (of the condition's type, scalar or
    splat), and which case applies depends on the element types and shapes of the condition and the
    result.
    """

    ROOT = "arith.select"

    def match_and_rewrite(self, op, rewriter) -> bool:
        cond, true_value, false_value = op.operands
        result_type = op.result_.type
        true_c, false_c = splat_value(const_attr(true_value)), splat_value(const_attr(false_value))
        if cond.type is result_type:  # i1 values
            if true_c == 0 and false_c == 1:
                ones = constant_op(rewriter, bool_attr_like(cond.type, True), op.location)
                rewriter.replace_op_with_new_op(op, gen.XOrIOp, cond, ones)
                return True
        elif is_int_like(result_type) and same_shape_type(result_type, element_type(cond.type)) \
                is cond.type and isinstance(element_type(result_type), IntegerType):
            if {true_c, false_c} == {0, 1} and to_unsigned(true_c, 1) == true_c:
                source = cond
                if true_c == 0:
                    ones = constant_op(rewriter, bool_attr_like(cond.type, True), op.location)
                    source = rewriter.insert(gen.XOrIOp.build(cond, ones, location=op.location)
                                             ).result_
                rewriter.replace_op_with_new_op(op, gen.ExtUIOp, result_type, source)
                return True
        return False


def _patterns(cls, *pattern_classes):
    @implements(cls)
    @staticmethod
    def canonicalization_patterns():
        return [p() for p in pattern_classes]


_patterns(gen.AddIOp, AddIConstantChain)
_patterns(gen.SubIOp, SubIConstantChain)
_patterns(gen.MulIOp, MulIConstantChain)
_patterns(gen.SelectOp, SelectSimplify)


@implements(gen.ConstantOp)
def asm_result_name(self) -> str:
    """MLIR's ConstantOp::getAsmResultNames: ``true``/``false`` for i1, ``c<value>_<type>`` for
    other integers (``c<value>`` for index, the value read as signed), ``cst`` otherwise."""
    value = self.properties["value"]
    if not isinstance(value, IntegerAttr):
        return "cst"
    type_ = value.type
    if not isinstance(type_, IntegerType):
        return f"c{value.value}"
    if type_.width == 1:
        return "true" if value.value else "false"
    bits = value.value & ((1 << type_.width) - 1)
    signed = bits - (1 << type_.width) if bits >> (type_.width - 1) else bits
    return f"c{signed}_{type_}"
