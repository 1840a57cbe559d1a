"""Element-wise ops (`arith`, `math` and `tt`'s scalar ops) as scalar LLVM code.

Each op has a scalar emitter ``emit(fl, op, args) -> ir.Value`` over register values. On scalar
operands the emitter runs once; on tensors the op becomes an `ExprTile` whose elements run the
emitter inside whatever loop consumes them. Every element-wise op's emitter applies the rule
its `.td` ``llvmLowering`` declares for the CPU (`declared_emitter`, through
`tilecraft.backends.llvm_lowering`); the op hooks those rules name are the ``@op_hook``
functions here (the CUDA backend inherits them and overrides some). Operations that trap on x86
in C (integer division by zero or ``INT_MIN / -1``) are made total, as on a GPU, and shifts by
the bit width or more give 0 (or the sign), as PTX does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

import llvmlite.ir as ir

from tilecraft.generated.lowering import LOWERINGS, MATH_FUNCTIONS
from tilecraft.ir import Operation

from .. import llvm_lowering
from . import mathlib
from . import types as T
from .lowering import FunctionLowering, error_at, lowers
from .tiles import ExprTile, SplatTile, Tile

Emitter = Callable[[FunctionLowering, Operation, list], ir.Value]

# The element-wise ops lowered here: their instructions per element, by name.
ELEMENTWISE_COSTS: dict[str, int] = {}
# The op hooks that `.td` lowerings name (`OpHook<"name">`), by name.
OP_HOOKS: dict[str, Emitter] = {}


def register(name: str, emit: Emitter, cost: int) -> None:
    """Lowers the element-wise op ``name`` with the scalar emitter ``emit`` of ``cost``
    instructions per element."""
    ELEMENTWISE_COSTS[name] = cost

    def lower(fl: FunctionLowering, op: Operation) -> None:
        operands = [fl.get(v) for v in op.operands]
        result = op.results[0]
        if not any(isinstance(x, Tile) for x in operands):
            fl.set(result, emit(fl, op, operands))
            return
        tiles = [fl.as_tile(v) for v in op.operands]
        shape = result.type.shape
        if name == "arith.divf" and isinstance(tiles[1], SplatTile) and \
                _result_type(op).kind == "f32":
            fl.set(result, _divide_by_uniform(fl, tiles[0], tiles[1].value))
            return
        fl.set(result, ExprTile(
            shape, T.reg_type(result.type),
            lambda fl, idx: emit(fl, op, [t.emit(fl, idx) for t in tiles]), tiles, cost,
            pointwise=True))

    lowers(name)(lower)


def op_hook(name: str) -> Callable[[Emitter], Emitter]:
    """Registers ``emit`` as the op hook ``name`` of `.td` lowerings (``OpHook<"name">``)."""

    def decorate(emit: Emitter) -> Emitter:
        OP_HOOKS[name] = emit
        return emit

    return decorate


def declared_emitter(op_name: str, backend: str, op_hooks: Mapping[str, Emitter],
                     function_hooks: Mapping[str, llvm_lowering.FunctionHook]) -> Emitter:
    """The scalar emitter of ``op_name`` from the lowering its `.td` declares for ``backend``:
    an op hook gives the result; any other rule's f16/bf16 result is rounded from f32 unless
    the lowering is exact."""
    lowering = LOWERINGS[op_name]

    def emit(fl: FunctionLowering, op: Operation, args: list) -> ir.Value:
        register_type = args[0].type if args else None
        rule = llvm_lowering.rule_for(op_name, backend, register_type)
        if rule is None:
            raise error_at(op, f"the {backend.upper()} backend has no lowering of '{op_name}' "
                           f"for {register_type} operands ({lowering.where})")
        if rule.kind == "op_hook":
            return op_hooks[rule.name](fl, op, args)
        result_type = T.reg_type(_result_type(op)) if rule.kind == "cast" else None
        flags = _float_flags(fl) if rule.fast_math else ()
        value = llvm_lowering.apply_rule(fl.builder, rule, args, function_hooks, flags,
                                         result_type)
        return value if lowering.exact else _rounded(fl, op, value)

    return emit


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


def _divide_by_uniform(fl: FunctionLowering, x: Tile, y: ir.Value) -> ExprTile:
    """``x / y`` for an f32 divisor ``y`` the same for every element (softmax's sum): each
    element is ``x * r * s`` with ``r = 1 / (y * s)`` computed once, a multiply where a vector
    division would take several times as long.

    ``s`` is a power of two that keeps ``y * s`` normal and ``r`` neither denormal nor infinite
    (1 unless ``|y|`` lies outside [2**-126, 2**126]). The result is within 2 ulp of the correctly
    rounded quotient, the bound of CUDA's ``div.full.f32`` that Triton's (and the CUDA
    backend's) f32 ``/`` is (``tl.div_rn`` divides exactly); zeros, infinities and NaN come out
    as the division's."""
    b = fl.builder
    magnitude = mathlib.emit_math(b, "absf", [y])
    large = b.fcmp_ordered(">", magnitude, ir.Constant(T.F32, 2.0 ** 126))
    small = b.fcmp_ordered("<", magnitude, ir.Constant(T.F32, 2.0 ** -126))
    scale = b.select(large, ir.Constant(T.F32, 2.0 ** -64),
                     b.select(small, ir.Constant(T.F32, 2.0 ** 64), ir.Constant(T.F32, 1.0)))
    reciprocal = b.fdiv(ir.Constant(T.F32, 1.0), b.fmul(y, scale))

    def element(fl: FunctionLowering, idx) -> ir.Value:
        return fl.builder.fmul(fl.builder.fmul(x.emit(fl, idx), reciprocal), scale)

    return ExprTile(x.shape, T.F32, element, [x], cost=2, pointwise=True)


# -- integers ------------------------------------------------------------------------------------

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


@op_hook("divsi")
def _divsi(fl, op, a):
    b = fl.builder
    q = b.sdiv(a[0], _safe_divisor(fl, a[0], a[1], True))
    # x / -1 == -x (wrapping at the minimum)
    return b.select(b.icmp_signed("==", a[1], ir.Constant(a[1].type, -1)), b.neg(a[0]), q)


@op_hook("divui")
def _divui(fl, op, a):
    return fl.builder.udiv(a[0], _safe_divisor(fl, a[0], a[1], False))


@op_hook("remsi")
def _remsi(fl, op, a):
    b = fl.builder
    r = b.srem(a[0], _safe_divisor(fl, a[0], a[1], True))
    return b.select(b.icmp_signed("==", a[1], ir.Constant(a[1].type, -1)),
                    ir.Constant(a[0].type, 0), r)


@op_hook("remui")
def _remui(fl, op, a):
    return fl.builder.urem(a[0], _safe_divisor(fl, a[0], a[1], False))


@op_hook("rounded_div")
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


@op_hook("shift")
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


@op_hook("int_minmax")
def _int_minmax(fl, op, a):
    b = fl.builder
    predicate, signed = _INT_MINMAX[op.name]
    compare = b.icmp_signed if signed else b.icmp_unsigned
    return b.select(compare(predicate, a[0], a[1]), a[0], a[1])


@op_hook("mulhiui")
def _mulhiui(fl, op, a):
    b = fl.builder
    width = a[0].type.width
    wide = ir.IntType(2 * width)
    product = b.mul(b.zext(a[0], wide), b.zext(a[1], wide))
    return b.trunc(b.lshr(product, ir.Constant(wide, width)), a[0].type)


@op_hook("cmpi")
def _cmpi(fl, op, a):
    b = fl.builder
    key = op.predicate.keyword
    ops = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
    if key in ("eq", "ne"):
        return b.icmp_signed(ops[key], a[0], a[1])
    compare = b.icmp_signed if key[0] == "s" else b.icmp_unsigned
    return compare(ops[key[1:]], a[0], a[1])


# -- floats --------------------------------------------------------------------------------------

@op_hook("clampf")
def _clampf(fl, op, a):
    nan_aware = op.propagate_nan.name == "ALL"
    high, low = ("maximumf", "minimumf") if nan_aware else ("maxnumf", "minnumf")
    raised = fl.math(high, [a[0], a[1]])
    return fl.math(low, [raised, a[2]])


@op_hook("cmpf")
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


# -- casts ---------------------------------------------------------------------------------------

@op_hook("extsi")
def _extsi(fl, op, a):
    target = T.reg_type(_result_type(op))
    if target.width == a[0].type.width:
        return a[0]
    if target.width < a[0].type.width:
        return fl.builder.trunc(a[0], target)
    return fl.builder.sext(a[0], target)


@op_hook("float_cast")
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


@op_hook("float_to_int")
def _float_to_int(fl, op, a):
    target = T.reg_type(_result_type(op))
    name = "llvm.fptosi.sat" if op.name == "arith.fptosi" else "llvm.fptoui.sat"
    return fl.builder.call(fl.intrinsic(name, target, [a[0].type]), [a[0]])


@op_hook("bitcast")
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


@op_hook("int_to_ptr")
def _int_to_ptr(fl, op, a):
    return fl.builder.inttoptr(a[0], T.PTR)


@op_hook("ptr_to_int")
def _ptr_to_int(fl, op, a):
    return fl.builder.ptrtoint(a[0], T.reg_type(_result_type(op)))


@op_hook("addptr")
def _addptr(fl, op, a):
    pointee = _result_type(op).pointee_type
    offset = a[1]
    if offset.type.width < 64:
        offset = fl.builder.sext(offset, T.I64)
    return fl.builder.gep(a[0], [offset], source_etype=T.mem_type(pointee))


# -- math ----------------------------------------------------------------------------------------

@op_hook("fpowi")
def _fpowi(fl, op, a):
    exponent = fl.builder.sitofp(a[1], a[0].type)
    return _rounded(fl, op, fl.math("powf", [a[0], exponent]))


@op_hook("absi")
def _absi(fl, op, a):
    b = fl.builder
    return b.select(b.icmp_signed("<", a[0], ir.Constant(a[0].type, 0)), b.neg(a[0]), a[0])


@op_hook("bit_count")
def _bit_count(fl, op, a):
    """``llvm.ctlz``/``llvm.cttz`` of ``math.ctlz``/``math.cttz``, defined at zero; llvmlite
    declares them without their i1 "zero is poison" flag: declare them here."""
    ty = a[0].type
    name = "llvm." + op.name.split(".", 1)[1]
    return fl.builder.call(fl.intrinsic(name, ty, [ty, T.I1]), [a[0], ir.Constant(T.I1, 0)])


@op_hook("float_class")
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


@op_hook("ipowi")
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


@op_hook("extern_elementwise")
def _extern_elementwise(fl, op, a):
    """A library function by its symbol: libdevice's ``__nv_<name>[f]`` names map to the math
    function ``<name>``; other symbols are called as C functions of the process (libm's)."""
    symbol = op.symbol
    name = symbol[len("__nv_"):] if symbol.startswith("__nv_") else symbol
    if a and a[0].type == T.F32 and name.endswith("f") and name[:-1] in MATH_FUNCTIONS:
        name = name[:-1]
    if name in MATH_FUNCTIONS and all(v.type in (T.F32, T.F64) for v in a):
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


llvm_lowering.check_hooks("cpu", OP_HOOKS, mathlib.FUNCTION_HOOKS)
for _name, _lowering in LOWERINGS.items():
    if llvm_lowering.has_lowering(_name, "cpu"):
        register(_name, declared_emitter(_name, "cpu", OP_HOOKS, mathlib.FUNCTION_HOOKS),
                 _lowering.cost)
