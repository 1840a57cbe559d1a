"""Axis info: per-dimension contiguity, divisibility and constancy of integer and pointer values.

For a value of shape ``S`` (a scalar counts as shape ``(1,)``), the lattice value `AxisInfo`
holds, for each dimension ``d``:

- ``contiguity[d] = c``: along ``d`` the value splits into groups of ``c`` consecutive elements
  ``x, x+1, ..., x+c-1`` (for pointers: consecutive *elements* of the pointee type);
- ``divisibility[d] = D``: the first element of each such group is a multiple of ``D`` (a power of
  two; for pointers, in bytes). With ``c == 1`` it holds for every element;
- ``constancy[d] = k``: along ``d`` the value splits into groups of ``k`` equal elements;
- ``constant``: the value of every element, when known.

Groups start at multiples of their size. The values come from function arguments' hints
(``tt.divisibility``, ``tt.contiguity``, ``tt.constancy`` in the function's ``arg_attrs``),
constants, ``tt.make_range``, shape ops and arithmetic (one rule per op in `RULES`; the same hint
attributes on an op override what its rule computed, as in Triton). Control flow joins facts:
``scf.for`` (the induction variable from the bounds; iter_args join the inits and the yielded
values), ``scf.if`` (the join of the yields of the branches that may run: a branch that a
constant condition rules out is dead code, as Triton's dead code analysis finds it),
``scf.while``, ``ttg.warp_specialize`` (explicit captures into the partitions' arguments, the
default region's yield into the results), ``cf`` branches into block arguments, and calls of
private functions (arguments join all call sites; results join the callee's returns). The join
keeps what both sides guarantee (gcds).

The fixpoint is optimistic, like MLIR's sparse forward dataflow: values start unknown (the top
of the lattice) and only descend through joins, so loops converge. Values never reached (dead
code, or types we do not track) read as pessimistic: all ones. The rules are Triton's where
its lit tests pin them (e.g. bitwise ops keep no divisibility, scalar comparisons are not
analysed), even where a finer rule would be sound.

Like Triton, division and remainder rules assume non-negative dividends.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from tilecraft.analysis.callgraph import CallGraph, is_declaration, is_function, visibility
from tilecraft.analysis.cfg import successor_operands
from tilecraft.analysis.defuse import def_use_order, external_operands
from tilecraft.ir import (ArrayAttr, Attribute, BoolAttr, DenseArrayAttr,
                          DenseElementsAttr, DictionaryAttr, IntegerAttr, Operation, Type, Value)
from tilecraft.ir.types import element_type_of, shape_of

if TYPE_CHECKING:  # the layouts are loaded by the GPU lowering, which asks for layout widths
    import numpy as np

    from tilecraft.layouts.linear import LinearLayout

#: The divisibility of 0 (and the optimistic top value of every field).
MAX_DIVISOR = 1 << 62

#: The divisibility of a ``tt.make_range`` starting at 0 (its bounds are i32).
RANGE_MAX_DIVISOR = 1 << 30

#: Hint attribute names, on function arguments and on ops.
HINTS = ("tt.contiguity", "tt.divisibility", "tt.constancy")


def highest_pow2_divisor(n: int) -> int:
    """The largest power of two dividing ``n`` (`MAX_DIVISOR` for 0)."""
    if n == 0:
        return MAX_DIVISOR
    return min(abs(n) & -abs(n), MAX_DIVISOR)


def gcd(*values: int) -> int:
    """gcd of positive ints; 0 is the neutral element."""
    return math.gcd(*values)


def _mul_div(a: int, b: int) -> int:
    return min(a * b, MAX_DIVISOR)


class AxisInfo(NamedTuple):
    """One lattice value (see the module docstring); tuples have one entry per dimension."""

    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant: int | None = None

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @classmethod
    def pessimistic(cls, rank: int) -> AxisInfo:
        """Nothing known: every field 1."""
        ones = (1,) * rank
        return cls(ones, ones, ones)

    @classmethod
    def from_constant(cls, value: int, shape: Sequence[int]) -> AxisInfo:
        """Every element equals ``value``."""
        rank = len(shape)
        return cls((1,) * rank, (highest_pow2_divisor(value),) * rank, tuple(shape), value)

    def join(self, other: AxisInfo) -> AxisInfo:
        """What both ``self`` and ``other`` guarantee (the lattice join; gcds per dimension)."""
        if self == other:
            return self
        con, div, cst = [], [], []
        for d in range(self.rank):
            group = gcd(self.contiguity[d], other.contiguity[d])
            con.append(group)
            div.append(gcd(self.div_at(d, group), other.div_at(d, group)))
            cst.append(gcd(self.constancy[d], other.constancy[d]))
        constant = self.constant if self.constant == other.constant else None
        return AxisInfo(tuple(con), tuple(div), tuple(cst), constant)

    def div_at(self, d: int, group: int) -> int:
        """The divisibility of the elements at positions ``0, group, 2*group, ...`` along ``d``
        (the starts of the groups of a result whose contiguity is ``group``)."""
        con = self.contiguity[d]
        div = self.divisibility[d]
        if con <= 1 or group % con == 0:
            return div
        return gcd(div, group, con)

    def elem_div(self, d: int) -> int:
        """The divisibility of every element along ``d``."""
        return self.div_at(d, 1)

    def replace(self, **changes) -> AxisInfo:
        fields = {"contiguity": self.contiguity, "divisibility": self.divisibility,
                  "constancy": self.constancy, "constant": self.constant}
        fields.update(changes)
        return AxisInfo(**fields)

    def __str__(self) -> str:
        """Triton's ``AxisInfo::print`` text: ``contiguity = [..], divisibility = [..],
        constancy = [..], constant_value = <value or <none>>``."""
        constant = "<none>" if self.constant is None else str(self.constant)
        return (f"contiguity = {_ints(self.contiguity)}, divisibility = "
                f"{_ints(self.divisibility)}, constancy = {_ints(self.constancy)}, "
                f"constant_value = {constant}")


def _ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# -- types


def is_pointer_type(t: Type) -> bool:
    return getattr(t, "MNEMONIC", None) == "ptr" and getattr(t, "DIALECT", None) == "tt"


def shape_for(t: Type) -> tuple[int, ...]:
    """The shape the lattice uses for a value of type ``t`` (scalars: ``(1,)``)."""
    shape = shape_of(t)
    return (1,) if shape is None else tuple(shape)


def pointee_bytes(t: Type) -> int:
    """The size in bytes of what a (tensor of) pointer(s) points to (at least 1)."""
    elem = element_type_of(t)
    if not is_pointer_type(elem):
        return 1
    pointee = elem.pointee_type
    if is_pointer_type(pointee):
        return 8
    width = getattr(pointee, "width", None)
    return max(1, (width or 8) // 8)


def _int_width(t: Type) -> int | None:
    elem = element_type_of(t)
    if elem.is_integer():
        return elem.width
    if elem.is_index():
        return 64
    return None


def wrap_constant(value: int | None, t: Type) -> int | None:
    """``value`` as the integer type of ``t`` holds it (i1: 0/1; others: signed two's
    complement); pointers and unknown types keep it."""
    if value is None:
        return None
    width = _int_width(t)
    if width is None:
        return value
    mask = (1 << width) - 1
    value &= mask
    if width > 1 and value >> (width - 1):
        value -= 1 << width
    return value


def _unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


# -- rules


class RuleContext:
    """What a rule sees: the op, its operands' lattice values and the result's shape."""

    __slots__ = ("op", "ins", "shape")

    def __init__(self, op: Operation, ins: list[AxisInfo], shape: tuple[int, ...]) -> None:
        self.op = op
        self.ins = ins
        self.shape = shape

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def result_type(self) -> Type:
        return self.op.results[0].type


Rule = Callable[[RuleContext], "AxisInfo | None"]

#: Op name -> rule computing the lattice value of the op's single result.
RULES: dict[str, Rule] = {}


def rule(*names: str) -> Callable[[Rule], Rule]:
    """Register a rule for ops ``names`` (new rules may be added, as Triton's callbacks do)."""

    def register(fn: Rule) -> Rule:
        for name in names:
            RULES[name] = fn
        return fn

    return register


def _binary(ctx: RuleContext, con: Callable[[AxisInfo, AxisInfo, int], int],
            div: Callable[[AxisInfo, AxisInfo, int, int], int],
            cst: Callable[[AxisInfo, AxisInfo, int], int],
            constant: Callable[[int | None, int | None], int | None]) -> AxisInfo:
    """The common shape of binary rules: a known constant result wins; otherwise ``con``,
    ``div`` (given the result's contiguity) and ``cst`` per dimension."""
    lhs, rhs = ctx.ins[0], ctx.ins[1]
    value = wrap_constant(constant(lhs.constant, rhs.constant), ctx.result_type)
    if value is not None:
        return AxisInfo.from_constant(value, ctx.shape)
    cons, divs, csts = [], [], []
    for d in range(ctx.rank):
        c = con(lhs, rhs, d)
        cons.append(c)
        divs.append(div(lhs, rhs, d, c))
        csts.append(cst(lhs, rhs, d))
    return AxisInfo(tuple(cons), tuple(divs), tuple(csts))


def _both(fn: Callable[[int, int], int | None]) -> Callable[[int | None, int | None], int | None]:
    def apply(a: int | None, b: int | None) -> int | None:
        if a is None or b is None:
            return None
        return fn(a, b)
    return apply


def _cst_gcd(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return gcd(lhs.constancy[d], rhs.constancy[d])


def _con_one(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return 1


def _div_gcd(lhs: AxisInfo, rhs: AxisInfo, d: int, c: int) -> int:
    return gcd(lhs.div_at(d, c), rhs.div_at(d, c))


def _add_con(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # constant + contiguous (or the reverse) stays contiguous in the common groups
    return max(gcd(lhs.constancy[d], rhs.contiguity[d]), gcd(lhs.contiguity[d], rhs.constancy[d]))


def _add_sub_div(sub: bool, size: int = 1) -> Callable[[AxisInfo, AxisInfo, int, int], int]:
    """Triton's divisibility rule of ``addi``, ``subi`` and ``addptr`` (the offset's
    divisibility scaled by the pointee ``size``). Both operands contiguous: a difference of
    groups of equal contiguity keeps the common divisibility (the in-group steps cancel);
    otherwise only parity survives (even plus or minus even is even). One operand contiguous:
    the result's groups may start inside an operand's group, so the divisibility is also
    clamped to the result's contiguity (in bytes for pointers)."""

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int, c: int) -> int:
        lhs_div, rhs_div = lhs.divisibility[d], _mul_div(rhs.divisibility[d], size)
        if lhs.contiguity[d] > 1 and rhs.contiguity[d] > 1:
            if sub and lhs.contiguity[d] == rhs.contiguity[d]:
                return gcd(lhs_div, rhs_div)
            return 2 if lhs_div % 2 == 0 and rhs_div % 2 == 0 else 1
        if lhs.contiguity[d] > 1 or rhs.contiguity[d] > 1:
            return gcd(lhs_div, rhs_div, _mul_div(c, size))
        return gcd(lhs_div, rhs_div)

    return div


@rule("arith.addi")
def _addi(ctx: RuleContext) -> AxisInfo:
    return _binary(ctx, _add_con, _add_sub_div(False), _cst_gcd, _both(lambda a, b: a + b))


@rule("tt.addptr")
def _addptr(ctx: RuleContext) -> AxisInfo:
    """Like ``addi``, with the offset scaled by the pointee size (divisibility is in bytes,
    contiguity in elements)."""
    size = pointee_bytes(ctx.op.operands[0].type)
    return _binary(ctx, _add_con, _add_sub_div(False, size), _cst_gcd,
                   _both(lambda a, b: a + b * size))


@rule("arith.subi")
def _subi(ctx: RuleContext) -> AxisInfo:
    # only contiguous - constant is contiguous (contiguity means increasing)
    return _binary(ctx, lambda l, r, d: gcd(l.contiguity[d], r.constancy[d]),
                   _add_sub_div(True), _cst_gcd, _both(lambda a, b: a - b))


@rule("arith.muli")
def _muli(ctx: RuleContext) -> AxisInfo:
    lhs, rhs = ctx.ins
    if lhs.constant == 0 or rhs.constant == 0:
        return AxisInfo.from_constant(0, ctx.shape)

    def con(l: AxisInfo, r: AxisInfo, d: int) -> int:
        if r.constant == 1:
            return l.contiguity[d]
        if l.constant == 1:
            return r.contiguity[d]
        return 1

    def div(l: AxisInfo, r: AxisInfo, d: int, c: int) -> int:
        if r.constant == 1:
            return l.divisibility[d]
        if l.constant == 1:
            return r.divisibility[d]
        return _mul_div(l.elem_div(d), r.elem_div(d))

    return _binary(ctx, con, div, _cst_gcd, _both(lambda a, b: a * b))


def _trunc_div(a: int, b: int) -> int | None:
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _div_rule(ctx: RuleContext, constant: Callable[[int, int], int | None],
              chunk_constancy: bool) -> AxisInfo:
    shape = ctx.shape

    def con(l: AxisInfo, r: AxisInfo, d: int) -> int:
        return l.contiguity[d] if r.constant == 1 else 1

    def cst(l: AxisInfo, r: AxisInfo, d: int) -> int:
        result = gcd(l.constancy[d], r.constancy[d])
        if chunk_constancy and l.contiguity[d] > 1:
            # aligned chunks of s consecutive ints, s dividing the divisor: one quotient each
            result = max(result, gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d],
                                     r.constancy[d]))
        return min(result, shape[d])

    def div(l: AxisInfo, r: AxisInfo, d: int, c: int) -> int:
        if l.constant == 0 or r.constant == 1:
            return l.divisibility[d]
        if r.constant is not None and r.constant != 0 and l.contiguity[d] == 1:
            divisor = abs(r.constant)
            if divisor & (divisor - 1) == 0:
                return max(1, l.divisibility[d] // divisor)
        return 1

    return _binary(ctx, con, div, cst, _both(constant))


@rule("arith.divsi")
def _divsi(ctx: RuleContext) -> AxisInfo:
    return _div_rule(ctx, _trunc_div, True)


@rule("arith.floordivsi")
def _floordivsi(ctx: RuleContext) -> AxisInfo:
    return _div_rule(ctx, lambda a, b: a // b if b else None, True)


@rule("arith.ceildivsi")
def _ceildivsi(ctx: RuleContext) -> AxisInfo:
    return _div_rule(ctx, lambda a, b: -(-a // b) if b else None, False)


@rule("arith.divui")
def _divui(ctx: RuleContext) -> AxisInfo:
    width = _int_width(ctx.result_type) or 64
    return _div_rule(ctx, lambda a, b: (_unsigned(a, width) // _unsigned(b, width)
                                        if _unsigned(b, width) else None), True)


def _rem_rule(ctx: RuleContext, constant: Callable[[int, int], int | None]) -> AxisInfo:
    lhs, rhs = ctx.ins
    if rhs.constant == 1:
        return AxisInfo.from_constant(0, ctx.shape)

    def con(l: AxisInfo, r: AxisInfo, d: int) -> int:
        if l.contiguity[d] > 1:
            return gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d], r.constancy[d])
        return 1

    return _binary(ctx, con, _div_gcd, _cst_gcd, _both(constant))


def _trunc_rem(a: int, b: int) -> int | None:
    q = _trunc_div(a, b)
    return None if q is None else a - q * b


@rule("arith.remsi")
def _remsi(ctx: RuleContext) -> AxisInfo:
    return _rem_rule(ctx, _trunc_rem)


@rule("arith.remui")
def _remui(ctx: RuleContext) -> AxisInfo:
    width = _int_width(ctx.result_type) or 64
    return _rem_rule(ctx, lambda a, b: (_unsigned(a, width) % _unsigned(b, width)
                                        if _unsigned(b, width) else None))


@rule("arith.andi", "arith.ori", "arith.xori")
def _logical(ctx: RuleContext) -> AxisInfo:
    """Triton's rule: constants fold, runs of equal elements stay, nothing else is known."""
    fn = {"arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b,
          "arith.xori": lambda a, b: a ^ b}[ctx.op.name]
    return _binary(ctx, _con_one, lambda l, r, d, c: 1, _cst_gcd, _both(fn))


@rule("arith.shli")
def _shli(ctx: RuleContext) -> AxisInfo:
    shift = ctx.ins[1].constant

    def con(l: AxisInfo, r: AxisInfo, d: int) -> int:
        return l.contiguity[d] if shift == 0 else 1

    def div(l: AxisInfo, r: AxisInfo, d: int, c: int) -> int:
        if shift == 0:
            return l.divisibility[d]
        base = l.elem_div(d)
        if shift is None or shift < 0:
            return base
        return MAX_DIVISOR if shift >= 62 else _mul_div(base, 1 << shift)

    return _binary(ctx, con, div, _cst_gcd,
                   _both(lambda a, b: a << b if 0 <= b < 64 else None))


@rule("arith.shrsi", "arith.shrui")
def _shr(ctx: RuleContext) -> AxisInfo:
    shift = ctx.ins[1].constant
    width = _int_width(ctx.result_type) or 64
    unsigned = ctx.op.name == "arith.shrui"

    def con(l: AxisInfo, r: AxisInfo, d: int) -> int:
        return l.contiguity[d] if shift == 0 else 1

    def div(l: AxisInfo, r: AxisInfo, d: int, c: int) -> int:
        if shift == 0:
            return l.divisibility[d]
        if shift is None or shift < 0:
            return 1
        return max(1, l.elem_div(d) >> shift)

    def constant(a: int, b: int) -> int | None:
        if not 0 <= b < 64:
            return None
        return (_unsigned(a, width) >> b) if unsigned else a >> b

    return _binary(ctx, con, div, _cst_gcd, _both(constant))


@rule("arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui")
def _minmax(ctx: RuleContext) -> AxisInfo:
    name = ctx.op.name
    width = _int_width(ctx.result_type) or 64
    key = (lambda v: _unsigned(v, width)) if name.endswith("ui") else (lambda v: v)
    pick = max if name.startswith("arith.max") else min
    return _binary(ctx, lambda l, r, d: gcd(l.contiguity[d], r.contiguity[d]), _div_gcd,
                   _cst_gcd, _both(lambda a, b: pick(a, b, key=key)))


_GT, _GE, _LT, _LE = {4, 8}, {5, 9}, {2, 6}, {3, 7}


def _compare(predicate: int, a: int, b: int, width: int) -> bool:
    if predicate >= 6:
        a, b = _unsigned(a, width), _unsigned(b, width)
    return [a == b, a != b, a < b, a <= b, a > b, a >= b, a < b, a <= b, a > b, a >= b][predicate]


@rule("arith.cmpi")
def _cmpi(ctx: RuleContext) -> AxisInfo:
    """Comparisons of tensors (Triton leaves scalar comparisons unknown)."""
    if shape_of(ctx.result_type) is None:
        return AxisInfo.pessimistic(1)
    lhs, rhs = ctx.ins
    attr = ctx.op.get_attr("predicate")
    predicate = int(attr.value) if isinstance(attr, IntegerAttr) else -1
    if lhs.constant is not None and rhs.constant is not None and 0 <= predicate <= 9:
        width = _int_width(ctx.op.operands[0].type) or 64
        return AxisInfo.from_constant(int(_compare(predicate, lhs.constant, rhs.constant, width)),
                                      ctx.shape)
    csts = []
    for d in range(ctx.rank):
        k = gcd(lhs.constancy[d], rhs.constancy[d])
        # a constant multiple of s against aligned runs of s consecutive ints: one answer per run
        if predicate in _GT | _LE and rhs.contiguity[d] > 1:
            k = max(k, gcd(rhs.contiguity[d], rhs.divisibility[d], lhs.elem_div(d),
                           lhs.constancy[d]))
        elif predicate in _LT | _GE and lhs.contiguity[d] > 1:
            k = max(k, gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.elem_div(d),
                           rhs.constancy[d]))
        csts.append(min(k, ctx.shape[d]))
    ones = (1,) * ctx.rank
    return AxisInfo(ones, ones, tuple(csts))


@rule("arith.select")
def _select(ctx: RuleContext) -> AxisInfo:
    cond, lhs, rhs = ctx.ins
    if cond.constant is not None:
        return lhs if cond.constant else rhs
    if lhs.constant is not None and lhs.constant == rhs.constant:
        return AxisInfo.from_constant(lhs.constant, ctx.shape)
    if shape_of(ctx.op.operands[0].type) is None:
        return lhs.join(rhs)  # one side for the whole tensor
    cons, divs, csts = [], [], []
    for d in range(ctx.rank):
        c = gcd(lhs.contiguity[d], rhs.contiguity[d], cond.constancy[d])
        cons.append(c)
        divs.append(gcd(lhs.div_at(d, c), rhs.div_at(d, c)))
        csts.append(gcd(lhs.constancy[d], rhs.constancy[d], cond.constancy[d]))
    constant = lhs.constant if lhs.constant == rhs.constant else None
    return AxisInfo(tuple(cons), tuple(divs), tuple(csts), constant)


@rule("ub.poison")
def _poison(ctx: RuleContext) -> AxisInfo:
    """A poison value is never read: the optimistic top, so that it does not spoil the facts
    of what it is joined with (as Triton)."""
    top = (MAX_DIVISOR,) * ctx.rank
    return AxisInfo(top, top, top)


@rule("builtin.unrealized_conversion_cast")
def _unrealized_cast(ctx: RuleContext) -> AxisInfo:
    """The operand's facts, whatever the result's type (as Triton, so that they survive a round
    trip through an LLVM structure), unless the result is a tensor of another rank."""
    info = ctx.ins[0]
    if shape_of(ctx.result_type) is not None and info.rank != ctx.rank:
        return AxisInfo.pessimistic(ctx.rank)
    return info


@rule("arith.extsi", "arith.index_cast", "arith.index_castui", "arith.trunci", "arith.extui",
      "arith.bitcast", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int")
def _cast(ctx: RuleContext) -> AxisInfo:
    info = ctx.ins[0]
    if info.rank != ctx.rank:
        return AxisInfo.pessimistic(ctx.rank)
    constant = info.constant
    if constant is not None:
        src = _int_width(ctx.op.operands[0].type)
        if ctx.op.name in ("arith.extui", "arith.index_castui") and src is not None:
            constant = _unsigned(constant, src)
        if (_int_width(ctx.result_type) is None and ctx.op.name not in _BITCASTS
                and not is_pointer_type(element_type_of(ctx.result_type))):
            constant = None  # a float's constant is known as its bits, through bitcasts only
        constant = wrap_constant(constant, ctx.result_type)
        if constant is not None:
            return AxisInfo.from_constant(constant, ctx.shape)
    unit = _unit(ctx.op.operands[0].type)
    if unit != _unit(ctx.result_type):
        # contiguity counts pointees (or bytes for integers): a new unit breaks the runs, and
        # elements after a run's start are ``unit`` bytes apart
        divs = tuple(info.divisibility[d] if info.contiguity[d] == 1
                     else gcd(info.divisibility[d], unit) for d in range(ctx.rank))
        return AxisInfo((1,) * ctx.rank, divs, info.constancy)
    return info.replace(constant=None)


_BITCASTS = ("arith.bitcast", "tt.bitcast")


def _unit(t: Type) -> int:
    """The step between contiguous values of type ``t``, in bytes (1 for integers)."""
    return pointee_bytes(t) if is_pointer_type(element_type_of(t)) else 1


@rule("arith.constant")
def _constant(ctx: RuleContext) -> AxisInfo | None:
    attr = ctx.op.get_attr("value")
    if isinstance(attr, IntegerAttr):  # BoolAttr included
        return AxisInfo.from_constant(int(attr.value), ctx.shape)
    if isinstance(attr, DenseElementsAttr):
        elem = element_type_of(attr.type)
        if attr.is_splat:
            if elem.is_integer() or elem.is_index():
                return AxisInfo.from_constant(int(attr.splat_value), ctx.shape)
            return None  # floats are not tracked
        if elem.is_integer() or elem.is_index():
            return dense_axis_info([int(v) for v in attr.values], ctx.shape)
    return None


def dense_axis_info(values: Sequence[int], shape: Sequence[int]) -> AxisInfo:
    """The exact lattice value of a constant tensor given as flat ``values``."""
    import numpy as np  # (only for such constants: a compile for CUDA need not load numpy)

    array = np.array(values, dtype=object).reshape(tuple(shape))
    cons, divs, csts = [], [], []
    for d, size in enumerate(shape):
        moved = np.moveaxis(array, d, -1)
        con = _largest_group(moved, size, step=1)
        cons.append(con)
        csts.append(_largest_group(moved, size, step=0))
        starts = moved[..., ::con].ravel()
        divs.append(min((highest_pow2_divisor(int(v)) for v in starts), default=MAX_DIVISOR))
    return AxisInfo(tuple(cons), tuple(divs), tuple(csts))


def _largest_group(moved: np.ndarray, size: int, step: int) -> int:
    import numpy as np

    for group in sorted((g for g in range(1, size + 1) if size % g == 0), reverse=True):
        chunks = moved.reshape(moved.shape[:-1] + (size // group, group))
        expected = chunks[..., :1] + np.arange(group, dtype=object) * step
        if (chunks == expected).all():
            return group
    return 1


@rule("tt.make_range")
def _make_range(ctx: RuleContext) -> AxisInfo:
    start = int(ctx.op.get_attr("start").value)
    end = int(ctx.op.get_attr("end").value)
    # start and end are i32: a start of 0 is divisible by 2^30, the largest i32 power of two
    # Triton reports (kMaxDivisor for int32_t)
    div = RANGE_MAX_DIVISOR if start == 0 else highest_pow2_divisor(start)
    return AxisInfo((end - start,), (div,), (1,))


@rule("tt.splat")
def _splat(ctx: RuleContext) -> AxisInfo:
    src = ctx.ins[0]
    return AxisInfo((1,) * ctx.rank, (src.divisibility[0],) * ctx.rank, ctx.shape, src.constant)


@rule("tt.broadcast")
def _broadcast(ctx: RuleContext) -> AxisInfo:
    src = ctx.ins[0]
    src_shape = shape_for(ctx.op.operands[0].type)
    if len(src_shape) != ctx.rank:
        return AxisInfo.pessimistic(ctx.rank)
    cons, divs, csts = [], [], []
    for d in range(ctx.rank):
        if src_shape[d] == 1:
            cons.append(1)
            divs.append(src.elem_div(d))
            csts.append(ctx.shape[d])
        else:
            cons.append(src.contiguity[d])
            divs.append(src.divisibility[d])
            csts.append(src.constancy[d])
    return AxisInfo(tuple(cons), tuple(divs), tuple(csts), src.constant)


@rule("tt.expand_dims")
def _expand_dims(ctx: RuleContext) -> AxisInfo:
    src = ctx.ins[0]
    axis = int(ctx.op.get_attr("axis").value)
    if src.constant is not None:
        new_div = highest_pow2_divisor(src.constant)
    else:
        new_div = gcd(*(src.elem_div(d) for d in range(src.rank))) if src.rank else MAX_DIVISOR
    con = list(src.contiguity)
    div = list(src.divisibility)
    cst = list(src.constancy)
    con.insert(axis, 1)
    div.insert(axis, new_div)
    cst.insert(axis, 1)
    return AxisInfo(tuple(con), tuple(div), tuple(cst), src.constant)


@rule("tt.reshape")
def _reshape(ctx: RuleContext) -> AxisInfo:
    """Row-major reshape: dims of size 1 are dropped, the rest split into blocks of input and
    output dims with equal products; each block is seen as one flat sequence (the contiguity
    and divisibility of its innermost input dim, a constancy that spans inner dims that are
    wholly constant) and cut into the block's output dims, innermost first."""
    src = ctx.ins[0]
    in_shape = shape_for(ctx.op.operands[0].type)
    if src.constant is not None:
        return AxisInfo.from_constant(src.constant, ctx.shape)
    if src.rank != len(in_shape) or math.prod(in_shape) != math.prod(ctx.shape):
        return AxisInfo.pessimistic(ctx.rank)
    ins = [d for d, size in enumerate(in_shape) if size > 1]
    outs = [d for d, size in enumerate(ctx.shape) if size > 1]
    elem_divs = [src.elem_div(d) for d in ins] or [src.divisibility[0]]
    cons, divs, csts = [1] * ctx.rank, [gcd(*elem_divs)] * ctx.rank, [1] * ctx.rank
    while ins or outs:
        block_in, block_out = [ins.pop()], [outs.pop()]
        in_size, out_size = in_shape[block_in[0]], ctx.shape[block_out[0]]
        while in_size != out_size:
            if in_size < out_size:
                block_in.append(ins.pop())
                in_size *= in_shape[block_in[-1]]
            else:
                block_out.append(outs.pop())
                out_size *= ctx.shape[block_out[-1]]
        inner = block_in[0]
        con, div = src.contiguity[inner], src.divisibility[inner]
        flat = AxisInfo((con,), (div,), (1,))
        cst = 1
        for d in block_in:  # inner to outer: constancy grows across wholly constant dims
            cst *= src.constancy[d]
            if src.constancy[d] < in_shape[d]:
                break
        stride = 1
        for d in block_out:  # inner to outer
            size = ctx.shape[d]
            cons[d] = min(con, size) if stride == 1 else 1
            divs[d] = flat.div_at(0, cons[d])
            csts[d] = max(1, min(cst // stride, size))
            stride *= size
    return AxisInfo(tuple(cons), tuple(divs), tuple(csts))


@rule("tt.trans")
def _trans(ctx: RuleContext) -> AxisInfo:
    src = ctx.ins[0]
    order = ctx.op.get_attr("order")
    perm = list(order) if isinstance(order, DenseArrayAttr) else list(range(src.rank))[::-1]
    return AxisInfo(tuple(src.contiguity[p] for p in perm),
                    tuple(src.divisibility[p] for p in perm),
                    tuple(src.constancy[p] for p in perm), src.constant)


@rule("tt.load")
def _load(ctx: RuleContext) -> AxisInfo:
    """Loaded data is unknown, but equal pointers under an equal mask load equal values."""
    ptr = ctx.ins[0]
    if ptr.rank != ctx.rank:  # a block pointer: nothing is known of its elements
        return AxisInfo.pessimistic(ctx.rank)
    segments = ctx.op.get_attr("operandSegmentSizes")
    mask = ctx.ins[1] if segments is not None and list(segments)[1] == 1 else None
    csts = tuple(gcd(ptr.constancy[d], mask.constancy[d] if mask is not None else 0)
                 for d in range(ctx.rank))
    ones = (1,) * ctx.rank
    return AxisInfo(ones, ones, csts)


# -- hints


def hint_vector(attr: Attribute | None, rank: int) -> tuple[int, ...] | None:
    """A hint attribute as one value per dimension (an integer is used for every dimension)."""
    if attr is None:
        return None
    if isinstance(attr, BoolAttr):
        return None
    if isinstance(attr, IntegerAttr):
        return (int(attr.value),) * rank
    if isinstance(attr, DenseElementsAttr):
        values = tuple(int(v) for v in attr.values)
    elif isinstance(attr, (DenseArrayAttr, ArrayAttr)):
        values = tuple(int(getattr(v, "value", v)) for v in attr)
    else:
        return None
    return values if len(values) == rank else None


def apply_hints(info: AxisInfo, hints: dict[str, Attribute]) -> AxisInfo:
    """``info`` with the fields named by ``hints`` (``tt.contiguity`` ...) replaced."""
    changes = {}
    for name, field in zip(HINTS, ("contiguity", "divisibility", "constancy")):
        vector = hint_vector(hints.get(name), info.rank)
        if vector is not None:
            changes[field] = vector
    return info.replace(**changes) if changes else info


def function_arg_hints(func: Operation, index: int) -> dict[str, Attribute]:
    """The hint attributes of argument ``index`` of ``func`` (from ``arg_attrs``)."""
    arg_attrs = func.get_attr("arg_attrs")
    if not isinstance(arg_attrs, ArrayAttr) or index >= len(arg_attrs.elements):
        return {}
    attrs = arg_attrs.elements[index]
    if not isinstance(attrs, DictionaryAttr):
        return {}
    return {name: attrs[name] for name in HINTS if name in attrs}


# -- the analysis

_REGION_OPS = ("scf.for", "scf.if", "scf.while", "ttg.warp_specialize",
               "ttg.warp_specialize.partitions")


class AxisInfoAnalysis:
    """Axis info of every value nested in ``root`` (a module or a function), computed at once.

    ``interprocedural``: private functions whose every caller is known get their arguments
    from the call sites, and calls get their results from the callee's returns.
    ``closed_module``: public functions that are called in ``root`` are linked too, as if
    nothing outside called them (Triton's assumption: a kernel module is compiled whole)."""

    def __init__(self, root: Operation, *, interprocedural: bool = True,
                 closed_module: bool = False) -> None:
        self.root = root
        self.closed_module = closed_module
        self.ops: list[Operation] = list(root.walk())
        self.callgraph = CallGraph(root)
        self._state: dict[Value, AxisInfo] = {}
        self._hints: dict[Value, dict[str, Attribute]] = {}
        self._work: deque[Operation] = deque()
        self._queued: set[Operation] = set()
        self._linked: dict[Operation, Operation] = {}  # call -> callee with linked facts
        self._if_live: dict[Operation, tuple[bool, bool]] = {}  # scf.if -> live regions
        self.visits = 0
        self._setup(interprocedural)
        self._solve()

    # -- queries

    def get(self, value: Value) -> AxisInfo:
        """The lattice value of ``value`` (pessimistic when it was never reached)."""
        info = self._state.get(value)
        if info is None:
            return AxisInfo.pessimistic(len(shape_for(value.type)))
        return info

    def known(self, value: Value) -> bool:
        """Whether the fixpoint reached ``value``."""
        return value in self._state

    def contiguity(self, value: Value) -> tuple[int, ...]:
        return self.get(value).contiguity

    def divisibility(self, value: Value) -> tuple[int, ...]:
        return self.get(value).divisibility

    def constancy(self, value: Value) -> tuple[int, ...]:
        return self.get(value).constancy

    def constant(self, value: Value) -> int | None:
        return self.get(value).constant

    def alignment(self, value: Value, element_bits: int | None = None,
                  dim: int | None = None) -> int:
        """How many consecutive elements along ``dim`` (default: the last) start aligned to their
        own combined size: min(contiguity, divisibility in elements), as Triton's
        ``getAlignment``. ``value`` is a tensor of pointers or of integer offsets."""
        info = self.get(value)
        shape = shape_for(value.type)
        if not shape:
            return 1
        d = len(shape) - 1 if dim is None else dim
        elem = element_type_of(value.type)
        if is_pointer_type(elem):
            if element_bits is None:
                element_bits = pointee_bytes(value.type) * 8
            multiple = max(1, info.divisibility[d] // max(1, element_bits // 8))
        else:
            multiple = info.divisibility[d]
        return max(1, min(multiple, info.contiguity[d], shape[d]))

    def vector_width(self, ptr: Value, element_bits: int | None = None, max_bits: int = 128,
                     *, mask: Value | None = None, dim: int | None = None) -> int:
        """How many contiguous, aligned elements one vector access through ``ptr`` may cover:
        the largest power of two dividing the contiguity, within the alignment (in elements),
        ``max_bits / element_bits``, and (with ``mask``) the mask's constancy. Scalars: 1.
        ``ptr`` may also be a tensor of integer offsets (then ``element_bits`` is required)."""
        if not shape_of(ptr.type):
            return 1
        if element_bits is None:
            if not is_pointer_type(element_type_of(ptr.type)):
                raise TypeError("vector_width of offsets needs the element_bits they index")
            element_bits = pointee_bytes(ptr.type) * 8
        info = self.get(ptr)
        d = len(shape_for(ptr.type)) - 1 if dim is None else dim
        limit = min(self.alignment(ptr, element_bits, d), max(1, max_bits // element_bits))
        if mask is not None and shape_of(mask.type) is not None:
            limit = min(limit, self.get(mask).constancy[d])
        width = 1
        while width * 2 <= limit and info.contiguity[d] % (width * 2) == 0:
            width *= 2
        return width

    def layout_vector_width(self, ptr: Value, layout: LinearLayout, element_bits: int, *,
                            mask: Value | None = None) -> int:
        """`vector_width` along the best dim for a thread of the distributed ``layout`` (a
        `LinearLayout` of ``ptr``'s type): at most the registers it holds consecutively along
        that dim (`contiguous_registers`); 1 when none does."""
        from tilecraft.layouts.conversion import contiguous_registers

        best = 1
        for dim in range(len(layout.out_dim_names)):
            registers = contiguous_registers(layout, dim)
            if registers > 1:
                width = self.vector_width(ptr, element_bits, mask=mask, dim=dim)
                best = max(best, min(registers, width))
        return best

    def items(self) -> Iterable[tuple[Value, AxisInfo]]:
        return self._state.items()

    # -- setup

    def _setup(self, interprocedural: bool) -> None:
        linked_callees: set[Operation] = set()
        if interprocedural:
            for func in self.callgraph.functions:
                if ((visibility(func) == "public" and not self.closed_module)
                        or is_declaration(func)
                        or not self.callgraph.callers(func)):
                    continue
                sites = self.callgraph.call_sites(func)
                inputs = len(func.regions[0].blocks[0].arguments)
                if all(site.num_operands == inputs for site in sites):
                    linked_callees.add(func)
                    for site in sites:
                        self._linked[site] = func
        self._linked_callees = linked_callees
        for op in self.ops:
            hints = {name: op.attributes[name] for name in HINTS if name in op.attributes}
            for result in op.results if hints else ():
                self._hints[result] = hints
            if not op.regions:
                continue
            if is_function(op):
                if is_declaration(op):
                    continue
                entry = op.regions[0].blocks[0]
                for index, arg in enumerate(entry.arguments):
                    hints = function_arg_hints(op, index)
                    if hints:
                        self._hints[arg] = hints
                    if op not in linked_callees:
                        self._join(arg, AxisInfo.pessimistic(len(shape_for(arg.type))))
                continue
            if op.name in _REGION_OPS:
                continue
            for region in op.regions:
                if region.blocks:
                    for arg in region.blocks[0].arguments:
                        self._join(arg, AxisInfo.pessimistic(len(shape_for(arg.type))))
        for value in external_operands(self.ops):
            self._join(value, AxisInfo.pessimistic(len(shape_for(value.type))))
        for op in def_use_order(self.root):
            self._push(op)

    def _push(self, op: Operation) -> None:
        if op not in self._queued:
            self._queued.add(op)
            self._work.append(op)

    def _join(self, value: Value, info: AxisInfo | None) -> None:
        """Join ``info`` into ``value``'s state; on a change, revisit its users."""
        if info is None:
            return
        old = self._state.get(value)
        new = info if old is None else old.join(info)
        hints = self._hints.get(value)
        if hints:
            new = apply_hints(new, hints)
        if new != old:
            self._state[value] = new
            for user in value.users:
                self._push(user)

    # -- fixpoint

    def _solve(self) -> None:
        limit = 64 * (len(self.ops) + 16)
        while self._work:
            op = self._work.popleft()
            self._queued.discard(op)
            self.visits += 1
            if self.visits > limit:
                raise RuntimeError("axis info did not converge")
            self._visit(op)

    def _visit(self, op: Operation) -> None:
        name = op.name
        if name == "scf.for":
            self._visit_for(op)
            return
        if name == "scf.while":
            body = op.regions[0].blocks[0]
            for arg, init in zip(body.arguments, op.operands):
                self._join(arg, self._state.get(init))
            return
        if self._in_dead_region(op):
            return
        if name == "scf.if":
            self._visit_if(op)
            return
        if name == "ttg.warp_specialize":
            return  # results come from the default region's yield
        if name == "ttg.warp_specialize.partitions":
            for region in op.regions:
                for arg, capture in zip(region.blocks[0].arguments, op.operands):
                    self._join(arg, self._state.get(capture))
            return
        if name in ("scf.yield", "scf.condition", "ttg.warp_yield"):
            self._visit_region_terminator(op)
            return
        if op.successors:
            self._visit_branch(op)
            return
        if op in self._linked:
            callee = self._linked[op]
            for arg, operand in zip(callee.regions[0].blocks[0].arguments, op.operands):
                self._join(arg, self._state.get(operand))
            return  # results come from the callee's returns
        if (name == "tt.return" or name == "func.return") and op.parent_op is not None:
            func = op.parent_op
            if func in self._linked_callees:
                for site in self.callgraph.call_sites(func):
                    for result, operand in zip(site.results, op.operands):
                        self._join(result, self._state.get(operand))
            return
        if not op.results:
            return
        ins = [self._state.get(v) for v in op.operands]
        if any(info is None for info in ins):
            return  # revisited once every operand is known
        fn = RULES.get(name) if len(op.results) == 1 else None
        for result in op.results:
            shape = shape_for(result.type)
            info = None
            if fn is not None:
                info = fn(RuleContext(op, ins, shape))
            if info is None or (info.rank != len(shape)
                                and shape_of(result.type) is not None):
                info = AxisInfo.pessimistic(len(shape))
            self._join(result, info)

    def _visit_for(self, op: Operation) -> None:
        lower, upper, step, *inits = op.operands
        body = op.regions[0].blocks[0]
        lb = self._state.get(lower)
        st = self._state.get(step)
        if lb is not None and st is not None:
            div = gcd(lb.divisibility[0], st.divisibility[0])
            self._join(body.arguments[0], AxisInfo((1,), (div,), (1,)))
        for arg, result, init in zip(body.arguments[1:], op.results, inits):
            info = self._state.get(init)
            self._join(arg, info)
            self._join(result, info)

    def _live_regions(self, op: Operation) -> tuple[bool, bool]:
        """Which regions of an ``scf.if`` may run: both unless its condition is a known
        constant; none while the condition is still unknown (the fixpoint is optimistic)."""
        cond = self._state.get(op.operands[0])
        if cond is None:
            return False, False
        if cond.constant is None:
            return True, True
        return cond.constant != 0, cond.constant == 0

    def _in_dead_region(self, op: Operation) -> bool:
        """Whether ``op`` is nested in a region of an ``scf.if`` that cannot run (Triton's dead
        code analysis): such ops are never reached and read as pessimistic."""
        while True:
            parent = op.parent_op
            if parent is None or parent is self.root:
                return False
            if parent.name == "scf.if":
                index = parent.regions.index(op.parent_region)
                if not self._live_regions(parent)[index]:
                    return True
            op = parent

    def _visit_if(self, op: Operation) -> None:
        """Visit the ops of the regions that became live (their operands may all be known)."""
        live = self._live_regions(op)
        seen = self._if_live.get(op, (False, False))
        self._if_live[op] = live
        for index, region in enumerate(op.regions):
            if live[index] and not seen[index]:
                for block in region.blocks:
                    for child in block:
                        for nested in child.walk():
                            self._push(nested)

    def _visit_region_terminator(self, op: Operation) -> None:
        parent = op.parent_op
        if parent is None:
            return
        values = list(op.operands)
        if parent.name == "scf.for":
            body = parent.regions[0].blocks[0]
            targets = [body.arguments[1:], parent.results]
        elif parent.name in ("scf.if", "ttg.warp_specialize"):
            targets = [parent.results]
        elif parent.name == "scf.while":
            if op.name == "scf.condition":
                values = values[1:]
                targets = [parent.regions[1].blocks[0].arguments, parent.results]
            else:
                targets = [parent.regions[0].blocks[0].arguments]
        else:
            return
        for group in targets:
            for target, value in zip(group, values):
                self._join(target, self._state.get(value))

    def _visit_branch(self, op: Operation) -> None:
        for index, succ in enumerate(op.successors):
            forwarded = successor_operands(op, index)
            if forwarded is None or len(forwarded) != len(succ.arguments):
                for arg in succ.arguments:
                    self._join(arg, AxisInfo.pessimistic(len(shape_for(arg.type))))
                continue
            for arg, value in zip(succ.arguments, forwarded):
                self._join(arg, self._state.get(value))


__all__ = [
    "AxisInfo", "AxisInfoAnalysis", "MAX_DIVISOR", "RULES", "rule", "RuleContext",
    "highest_pow2_divisor", "dense_axis_info", "apply_hints", "pointee_bytes", "is_pointer_type",
]
