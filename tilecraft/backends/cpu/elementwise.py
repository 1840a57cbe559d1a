"""Element-wise ops (`arith`, `math` and `tt`'s scalar ops) as scalar LLVM code.

Each op has a scalar emitter ``emit(fl, op, args) -> ir.Value`` over register values. On scalar
operands the emitter runs once; on tensors the op becomes an `ExprTile` whose elements run the
emitter inside whatever loop consumes them. Operations that trap on x86 in C (integer division by
zero or ``INT_MIN / -1``) are made total, as on a GPU, and shifts by the bit width or more give
0 (or the sign), as PTX does.
"""

from __future__ import annotations

from typing import Callable

import llvmlite.ir as ir

from tilecraft.ir import Operation

from . import mathlib
from . import types as T
from .lowering import FunctionLowering, error_at, lowers
from .tiles import ExprTile, Tile

Emitter = Callable[[FunctionLowering, Operation, list], ir.Value]

# Instructions per element charged to expressions (see lowering.MATERIALIZE_COST).
CHEAP, COSTLY = 1, 12


ELEMENTWISE_OPS: set[str] = set()
# The scalar emitter of each element-wise op, by op name; the CUDA backend runs them per register.
SCALAR_EMITTERS: dict[str, Emitter] = {}


def elementwise(*names: str, cost: int = CHEAP) -> Callable[[Emitter], Emitter]:
    """Registers ``emit`` as the scalar code of the element-wise ops ``names``."""
    ELEMENTWISE_OPS.update(names)

    def register(emit: Emitter) -> Emitter:
        SCALAR_EMITTERS.update(dict.fromkeys(names, emit))

        def lower(fl: FunctionLowering, op: Operation) -> None:
            operands = [fl.get(v) for v in op.operands]
            result = op.results[0]
            if not any(isinstance(x, Tile) for x in operands):
                fl.set(result, emit(fl, op, operands))
                return
            tiles = [fl.as_tile(v) for v in op.operands]
            shape = result.type.shape
            fl.set(result, ExprTile(
                shape, T.reg_type(result.type),
                lambda fl, idx: emit(fl, op, [t.emit(fl, idx) for t in tiles]), tiles, cost,
                pointwise=True))

        lowers(*names)(lower)
        return emit

    return register


def _result_type(op: Operation):
    return T.element_type(op.results[0].type)


def _operand_type(op: Operation, index: int = 0):
    return T.element_type(op.operands[index].type)


def _rounded(fl: FunctionLowering, op: Operation, value: ir.Value) -> ir.Value:
    return T.round_narrow(fl, value, _result_type(op))


def _float_flags(fl: FunctionLowering) -> tuple:
    """Inside a reduction's combine region floating-point adds may be reassociated, so that
    LLVM vectorizes the reduction (Triton's reductions have no fixed order either); with
    ``fp_fusion`` multiplies and adds may be contracted into fused multiply-adds."""
    flags = ("reassoc", "nsz") if fl.reduction_depth else ()
    return flags + ("contract",) if fl.fp_fusion else flags


# -- integers ------------------------------------------------------------------------------------

@elementwise("arith.addi")
def _addi(fl, op, a):
    return fl.builder.add(a[0], a[1])


@elementwise("arith.subi")
def _subi(fl, op, a):
    return fl.builder.sub(a[0], a[1])


@elementwise("arith.muli")
def _muli(fl, op, a):
    return fl.builder.mul(a[0], a[1])


def _safe_divisor(fl: FunctionLowering, x: ir.Value, y: ir.Value, signed: bool) -> ir.Value:
    """``y`` with 0 replaced by 1 and, for signed division, -1 by 1 where ``x`` is the minimum
    (the callers fix the result there)."""
    b = fl.builder
    one = ir.Constant(y.type, 1)
    bad = b.icmp_unsigned("==", y, ir.Constant(y.type, 0))
    if signed:
        minimum = ir.Constant(x.type, -(1 << (x.type.width - 1)))
        overflow = b.and_(b.icmp_signed("==", x, minimum),
                          b.icmp_signed("==", y, ir.Constant(y.type, -1)))
        bad = b.or_(bad, overflow)
    return b.select(bad, one, y)


@elementwise("arith.divsi", cost=COSTLY)
def _divsi(fl, op, a):
    b = fl.builder
    q = b.sdiv(a[0], _safe_divisor(fl, a[0], a[1], True))
    # x / -1 == -x (wrapping at the minimum)
    return b.select(b.icmp_signed("==", a[1], ir.Constant(a[1].type, -1)), b.neg(a[0]), q)


@elementwise("arith.divui", cost=COSTLY)
def _divui(fl, op, a):
    return fl.builder.udiv(a[0], _safe_divisor(fl, a[0], a[1], False))


@elementwise("arith.remsi", cost=COSTLY)
def _remsi(fl, op, a):
    b = fl.builder
    r = b.srem(a[0], _safe_divisor(fl, a[0], a[1], True))
    return b.select(b.icmp_signed("==", a[1], ir.Constant(a[1].type, -1)),
                    ir.Constant(a[0].type, 0), r)


@elementwise("arith.remui", cost=COSTLY)
def _remui(fl, op, a):
    return fl.builder.urem(a[0], _safe_divisor(fl, a[0], a[1], False))


@elementwise("arith.ceildivsi", "arith.floordivsi", cost=COSTLY)
def _rounded_div(fl, op, a):
    b = fl.builder
    x, y = a
    q = _divsi(fl, op, a)
    r = b.sub(x, b.mul(q, y))
    zero = ir.Constant(x.type, 0)
    nonzero = b.icmp_unsigned("!=", r, zero)
    same_sign = b.icmp_signed(">=", b.xor(x, y), zero)
    if op.name == "arith.ceildivsi":
        return b.select(b.and_(nonzero, same_sign), b.add(q, ir.Constant(x.type, 1)), q)
    return b.select(b.and_(nonzero, b.not_(same_sign)), b.sub(q, ir.Constant(x.type, 1)), q)


@elementwise("arith.andi")
def _andi(fl, op, a):
    return fl.builder.and_(a[0], a[1])


@elementwise("arith.ori")
def _ori(fl, op, a):
    return fl.builder.or_(a[0], a[1])


@elementwise("arith.xori")
def _xori(fl, op, a):
    return fl.builder.xor(a[0], a[1])


@elementwise("arith.shli", "arith.shrsi", "arith.shrui")
def _shift(fl, op, a):
    b = fl.builder
    x, y = a
    width = ir.Constant(y.type, x.type.width)
    too_far = b.icmp_unsigned(">=", y, width)
    amount = b.select(too_far, ir.Constant(y.type, 0), y)
    if op.name == "arith.shli":
        return b.select(too_far, ir.Constant(x.type, 0), b.shl(x, amount))
    if op.name == "arith.shrui":
        return b.select(too_far, ir.Constant(x.type, 0), b.lshr(x, amount))
    return b.ashr(x, b.select(too_far, ir.Constant(y.type, x.type.width - 1), amount))


_INT_MINMAX = {"arith.maxsi": (">", True), "arith.minsi": ("<", True),
               "arith.maxui": (">", False), "arith.minui": ("<", False)}


@elementwise(*_INT_MINMAX)
def _int_minmax(fl, op, a):
    b = fl.builder
    predicate, signed = _INT_MINMAX[op.name]
    compare = b.icmp_signed if signed else b.icmp_unsigned
    return b.select(compare(predicate, a[0], a[1]), a[0], a[1])


@elementwise("tt.mulhiui")
def _mulhiui(fl, op, a):
    b = fl.builder
    width = a[0].type.width
    wide = ir.IntType(2 * width)
    product = b.mul(b.zext(a[0], wide), b.zext(a[1], wide))
    return b.trunc(b.lshr(product, ir.Constant(wide, width)), a[0].type)


@elementwise("arith.cmpi")
def _cmpi(fl, op, a):
    b = fl.builder
    key = op.predicate.keyword
    ops = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
    if key in ("eq", "ne"):
        return b.icmp_signed(ops[key], a[0], a[1])
    compare = b.icmp_signed if key[0] == "s" else b.icmp_unsigned
    return compare(ops[key[1:]], a[0], a[1])


# -- floats --------------------------------------------------------------------------------------

@elementwise("arith.addf")
def _addf(fl, op, a):
    return _rounded(fl, op, fl.builder.fadd(a[0], a[1], flags=_float_flags(fl)))


@elementwise("arith.subf")
def _subf(fl, op, a):
    return _rounded(fl, op, fl.builder.fsub(a[0], a[1], flags=_float_flags(fl)))


@elementwise("arith.mulf")
def _mulf(fl, op, a):
    return _rounded(fl, op, fl.builder.fmul(a[0], a[1], flags=_float_flags(fl)))


@elementwise("arith.divf", "tt.precise_divf", cost=4)
def _divf(fl, op, a):
    return _rounded(fl, op, fl.builder.fdiv(a[0], a[1]))


@elementwise("arith.remf", cost=COSTLY)
def _remf(fl, op, a):
    return _rounded(fl, op, fl.math("remf", [a[0], a[1]]))


@elementwise("arith.negf")
def _negf(fl, op, a):
    return fl.builder.fneg(a[0])


_FLOAT_MINMAX = {"arith.maximumf": "maximumf", "arith.minimumf": "minimumf",
                 "arith.maxnumf": "maxnumf", "arith.minnumf": "minnumf"}


@elementwise(*_FLOAT_MINMAX)
def _float_minmax(fl, op, a):
    return fl.math(_FLOAT_MINMAX[op.name], list(a))


@elementwise("tt.clampf")
def _clampf(fl, op, a):
    nan_aware = op.propagate_nan.name == "ALL"
    high, low = ("maximumf", "minimumf") if nan_aware else ("maxnumf", "minnumf")
    raised = fl.math(high, [a[0], a[1]])
    return fl.math(low, [raised, a[2]])


@elementwise("arith.cmpf")
def _cmpf(fl, op, a):
    b = fl.builder
    key = op.predicate.keyword
    if key == "false":
        return ir.Constant(T.I1, 0)
    if key == "true":
        return ir.Constant(T.I1, 1)
    if key in ("ord", "uno"):
        return (b.fcmp_ordered if key == "ord" else b.fcmp_unordered)(key, a[0], a[1])
    ops = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
    compare = b.fcmp_ordered if key[0] == "o" else b.fcmp_unordered
    return compare(ops[key[1:]], a[0], a[1])


@elementwise("arith.select")
def _select(fl, op, a):
    return fl.builder.select(a[0], a[1], a[2])


# -- casts ---------------------------------------------------------------------------------------

@elementwise("arith.extsi", "arith.index_cast")
def _extsi(fl, op, a):
    target = T.reg_type(_result_type(op))
    if target.width == a[0].type.width:
        return a[0]
    if target.width < a[0].type.width:
        return fl.builder.trunc(a[0], target)
    return fl.builder.sext(a[0], target)


@elementwise("arith.extui")
def _extui(fl, op, a):
    return fl.builder.zext(a[0], T.reg_type(_result_type(op)))


@elementwise("arith.trunci")
def _trunci(fl, op, a):
    return fl.builder.trunc(a[0], T.reg_type(_result_type(op)))


@elementwise("arith.extf", "arith.truncf", "tt.fp_to_fp")
def _float_cast(fl, op, a):
    source, target = _operand_type(op), _result_type(op)
    if op.name == "tt.fp_to_fp" and op.rounding is not None and op.rounding.name == "RTZ":
        raise error_at(op, "the CPU backend supports only round-to-nearest-even conversions")
    return convert_float(fl, a[0], source, target)


def convert_float(fl: FunctionLowering, value: ir.Value, source, target) -> ir.Value:
    """A float register value of type ``source`` as one of type ``target`` (f64 to fp8 rounds
    through f32)."""
    b = fl.builder
    if source == target:
        return value
    if target.kind == "f64":
        return b.fpext(value, T.F64)
    if source.kind == "f64":
        if target.kind == "f16":
            return mathlib.f16_to_f32(b, mathlib.f64_to_f16(b, value))
        if target.kind == "bf16":
            return mathlib.bf16_to_f32(b, mathlib.f64_to_bf16(b, value))
        value = b.fptrunc(value, T.F32)
    return T.round_narrow(fl, value, target)


@elementwise("arith.sitofp", "arith.uitofp")
def _int_to_float(fl, op, a):
    target = _result_type(op)
    convert = fl.builder.sitofp if op.name == "arith.sitofp" else fl.builder.uitofp
    return T.round_narrow(fl, convert(a[0], T.reg_type(target)), target)


@elementwise("arith.fptosi", "arith.fptoui")
def _float_to_int(fl, op, a):
    target = T.reg_type(_result_type(op))
    name = "llvm.fptosi.sat" if op.name == "arith.fptosi" else "llvm.fptoui.sat"
    return fl.builder.call(fl.intrinsic(name, target, [a[0].type]), [a[0]])


@elementwise("arith.bitcast", "tt.bitcast")
def _bitcast(fl, op, a):
    source, target = _operand_type(op), _result_type(op)
    b = fl.builder
    value = a[0]
    if T.is_narrow(source):
        value = T.to_memory(fl, value, source)
    if T.is_narrow(target):
        raw = value if value.type == T.mem_type(target) else b.bitcast(value, T.mem_type(target))
        return T.from_memory(fl, raw, target)
    target_ty = T.reg_type(target)
    if value.type == T.PTR or target_ty == T.PTR:
        return b.inttoptr(value, T.PTR) if target_ty == T.PTR else b.ptrtoint(value, target_ty)
    return b.bitcast(value, target_ty)


@elementwise("tt.int_to_ptr")
def _int_to_ptr(fl, op, a):
    return fl.builder.inttoptr(a[0], T.PTR)


@elementwise("tt.ptr_to_int")
def _ptr_to_int(fl, op, a):
    return fl.builder.ptrtoint(a[0], T.reg_type(_result_type(op)))


@elementwise("tt.addptr")
def _addptr(fl, op, a):
    pointee = _result_type(op).pointee_type
    offset = a[1]
    if offset.type.width < 64:
        offset = fl.builder.sext(offset, T.I64)
    return fl.builder.gep(a[0], [offset], source_etype=T.mem_type(pointee))


# -- math ----------------------------------------------------------------------------------------

_MATH = {
    "math.exp": "exp", "math.exp2": "exp2", "math.log": "log", "math.log2": "log2",
    "math.log10": "log10", "math.log1p": "log1p", "math.expm1": "expm1", "math.sin": "sin",
    "math.cos": "cos", "math.tan": "tan", "math.asin": "asin", "math.acos": "acos",
    "math.atan": "atan", "math.sinh": "sinh", "math.cosh": "cosh", "math.tanh": "tanh",
    "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh", "math.erf": "erf",
    "math.erfc": "erfc", "math.cbrt": "cbrt", "math.sqrt": "sqrt", "tt.precise_sqrt": "sqrt",
    "math.floor": "floor", "math.ceil": "ceil", "math.trunc": "trunc", "math.round": "round",
    "math.roundeven": "roundeven", "math.absf": "absf", "math.copysign": "copysign",
    "math.powf": "powf", "math.fma": "fma", "math.atan2": "atan2",
}
_CHEAP_MATH = {"sqrt", "floor", "ceil", "trunc", "round", "roundeven", "absf", "copysign",
               "fma"}


def _math(fl, op, a):
    return _rounded(fl, op, fl.math(_MATH[op.name], list(a)))


for _name, _fn in _MATH.items():
    elementwise(_name, cost=CHEAP if _fn in _CHEAP_MATH else COSTLY)(_math)


@elementwise("math.rsqrt", cost=4)
def _rsqrt(fl, op, a):
    return _rounded(fl, op, fl.math("rsqrt", [a[0]]))


@elementwise("math.fpowi", cost=COSTLY)
def _fpowi(fl, op, a):
    exponent = fl.builder.sitofp(a[1], a[0].type)
    return _rounded(fl, op, fl.math("powf", [a[0], exponent]))


@elementwise("math.absi")
def _absi(fl, op, a):
    b = fl.builder
    return b.select(b.icmp_signed("<", a[0], ir.Constant(a[0].type, 0)), b.neg(a[0]), a[0])


_BIT_COUNTS = {"math.ctlz": "llvm.ctlz", "math.cttz": "llvm.cttz", "math.ctpop": "llvm.ctpop"}


@elementwise(*_BIT_COUNTS)
def _bit_count(fl, op, a):
    name = _BIT_COUNTS[op.name]
    ty = a[0].type
    if name == "llvm.ctpop":
        return fl.builder.call(fl.intrinsic(name, ty, [ty]), [a[0]])
    # llvmlite declares ctlz/cttz without their i1 "zero is poison" flag: declare them here
    return fl.builder.call(fl.intrinsic(name, ty, [ty, T.I1]), [a[0], ir.Constant(T.I1, 0)])


@elementwise("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _float_class(fl, op, a):
    b = fl.builder
    x = a[0]
    if op.name == "math.isnan":
        return b.fcmp_unordered("uno", x, x)
    magnitude = fl.math("absf", [x])
    inf = ir.Constant(x.type, float("inf"))
    if op.name == "math.isinf":
        return b.fcmp_ordered("==", magnitude, inf)
    if op.name == "math.isfinite":
        return b.fcmp_ordered("<", magnitude, inf)
    smallest = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126, "f64": 2.0 ** -1022}
    tiny = ir.Constant(x.type, smallest[_operand_type(op).kind])
    return b.and_(b.fcmp_ordered(">=", magnitude, tiny), b.fcmp_ordered("<", magnitude, inf))


@elementwise("math.ipowi", cost=COSTLY)
def _ipowi(fl, op, a):
    """``x ** n`` by squaring (one step per bit of ``n``); a negative ``n`` gives 0 unless
    ``x`` is 1 or -1, as MLIR defines it."""
    b = fl.builder
    x, n = a
    ty = x.type
    one, zero = ir.Constant(ty, 1), ir.Constant(ty, 0)
    result, base, exponent = one, x, n
    for _ in range(ty.width):
        odd = b.trunc(exponent, T.I1)
        result = b.select(odd, b.mul(result, base), result)
        base = b.mul(base, base)
        exponent = b.lshr(exponent, one)
    minus_one = ir.Constant(ty, -1)
    odd_n = b.trunc(n, T.I1)
    negative = b.select(b.icmp_signed("==", x, one), one,
                        b.select(b.icmp_signed("==", x, minus_one),
                                 b.select(odd_n, minus_one, one), zero))
    return b.select(b.icmp_signed("<", n, zero), negative, result)


@elementwise("tt.extern_elementwise", cost=COSTLY)
def _extern_elementwise(fl, op, a):
    """A library function by its symbol: libdevice's ``__nv_<name>[f]`` names map to the math
    function ``<name>``; other symbols are called as C functions of the process (libm's)."""
    symbol = op.symbol
    name = symbol[len("__nv_"):] if symbol.startswith("__nv_") else symbol
    if a and a[0].type == T.F32 and name.endswith("f") and name[:-1] in mathlib.MATH_FUNCTIONS:
        name = name[:-1]
    if name in mathlib.MATH_FUNCTIONS and all(v.type in (T.F32, T.F64) for v in a):
        return _rounded(fl, op, fl.math(name, list(a)))
    result_ty = T.reg_type(_result_type(op))
    existing = fl.module.globals.get(symbol)
    fn = existing or ir.Function(fl.module, ir.FunctionType(result_ty, [v.type for v in a]),
                                 symbol)
    return fl.builder.call(fn, list(a))


@lowers("tt.elementwise_inline_asm")
def _inline_asm(fl, op):
    raise error_at(op, "inline assembly is GPU code: the CPU backend cannot run "
                   "tl.inline_asm_elementwise")
