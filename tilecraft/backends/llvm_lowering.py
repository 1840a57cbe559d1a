"""The LLVM lowerings that `.td` declares for element-wise ops (`tilecraft.generated.lowering`,
from the `llvmLowering` of each op), applied to the registers of one element by the CPU and CUDA
backends.

A backend takes the first rule of an op that names it (or no backend) and whose types hold the
LLVM type of the first operand's register (`rule_for`) and applies it (`apply_rule`): an LLVM
instruction, a conversion to the result's register type, an intrinsic overloaded on the
operands' type, a call of a function by its name (declared once per module), or a hand-written
function hook of the backend's ``mathlib.FUNCTION_HOOKS``. Op hooks, which need the op, and the
rounding of f16/bf16 results belong to the backends' element-wise lowering
(`tilecraft.backends.cpu.elementwise`). `emit_math` is a math function by its name, as hooks and
``tt.extern_elementwise`` ask for one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import llvmlite.ir as ir

from tilecraft.generated.lowering import LOWERINGS, MATH_FUNCTIONS, Rule

FunctionHook = Callable[[ir.IRBuilder, Sequence[ir.Value]], ir.Value]
"""A hand-written lowering of registers alone: ``(builder, args) -> value``."""

_F32 = ir.FloatType()
_F64 = ir.DoubleType()


class LoweringError(RuntimeError):
    """A declared lowering that a backend cannot apply: a hook that nobody wrote."""


def register_type_name(ty: ir.Type) -> str:
    """The name `.td` rules give the LLVM type ``ty`` (``f32``, ``f64``, ``i32``), or its text."""
    if isinstance(ty, ir.IntType):
        return f"i{ty.width}"
    return {_F32: "f32", _F64: "f64"}.get(ty, str(ty))


def rule_for(op_name: str, backend: str, ty: ir.Type | None) -> Rule | None:
    """The rule ``backend`` ("cpu" or "cuda") applies to the op ``op_name`` whose first operand
    is a register of type ``ty`` (None: an op without operands, which only rules for any type
    take); None when `.td` declares none."""
    type_name = register_type_name(ty) if ty is not None else None
    return next((rule for rule in LOWERINGS[op_name].rules
                 if rule.backend in ("", backend) and (not rule.types or type_name in rule.types)),
                None)


def has_lowering(op_name: str, backend: str) -> bool:
    """Whether `.td` declares a rule of the op ``op_name`` for ``backend``."""
    return any(rule.backend in ("", backend) for rule in LOWERINGS[op_name].rules)


def _declare(module: ir.Module, name: str, ty: ir.Type, arity: int) -> ir.Function:
    """The function ``name`` of ``arity`` operands of type ``ty``, declared once in ``module``."""
    existing = module.globals.get(name)
    if existing is None:
        existing = ir.Function(module, ir.FunctionType(ty, [ty] * arity), name)
    return existing


def apply_rule(builder: ir.IRBuilder, rule: Rule, args: Sequence[ir.Value],
               function_hooks: Mapping[str, FunctionHook], flags: tuple[str, ...] = (),
               result_type: ir.Type | None = None) -> ir.Value:
    """``rule`` (not an op hook) applied to the registers ``args``: ``flags`` are the fast-math
    flags of an instruction that takes them, ``result_type`` the register type a conversion
    gives."""
    if rule.kind == "instruction":
        method = getattr(builder, rule.name + "_" * (rule.name in ("and", "or")))
        return method(*args, flags=flags) if rule.fast_math else method(*args)
    if rule.kind == "cast":
        return getattr(builder, rule.name)(args[0], result_type)
    if rule.kind == "function_hook":
        return function_hooks[rule.name](builder, args)
    if rule.kind not in ("intrinsic", "call"):
        raise LoweringError(f"the {rule.kind} rule '{rule.name}' needs the op")
    ty = args[0].type
    name = f"{rule.name}.{register_type_name(ty)}" if rule.kind == "intrinsic" else rule.name
    return builder.call(_declare(builder.module, name, ty, len(args)), list(args),
                        fastmath=rule.flags)


def emit_math(builder: ir.IRBuilder, backend: str, name: str, args: Sequence[ir.Value],
              function_hooks: Mapping[str, FunctionHook]) -> ir.Value:
    """The math function ``name`` (a key of `MATH_FUNCTIONS`: the op of that mnemonic) of
    ``args``, all f32 or all f64, as ``backend`` lowers it.

    Raises ValueError for an unknown name or a wrong number of operands, TypeError for operands
    that are not all f32 or all f64; nothing is emitted then.
    """
    op_name = MATH_FUNCTIONS.get(name)
    if op_name is None:
        raise ValueError(f"no {backend.upper()} math function named {name!r}")
    arity = LOWERINGS[op_name].operands
    if len(args) != arity:
        raise ValueError(f"math function {name!r} takes {arity} operands, got {len(args)}")
    ty = args[0].type
    rule = rule_for(op_name, backend, ty)
    if ty not in (_F32, _F64) or any(arg.type != ty for arg in args) or rule is None:
        types = ", ".join(str(arg.type) for arg in args)
        raise TypeError(f"math function {name!r} takes all-f32 or all-f64 operands, got {types}")
    return apply_rule(builder, rule, args, function_hooks)


def check_hooks(backend: str, op_hooks: Mapping[str, object],
                function_hooks: Mapping[str, FunctionHook]) -> None:
    """Raise `LoweringError` at the `.td` declaration of the first hook of ``backend`` that is
    not among its hooks."""
    where_written = {"op_hook": f"tilecraft/backends/{backend}/elementwise.py (@op_hook)",
                     "function_hook": f"tilecraft/backends/{backend}/mathlib.py "
                                      "(FUNCTION_HOOKS)"}
    for op_name, lowering in LOWERINGS.items():
        for rule in lowering.rules:
            hooks = {"op_hook": op_hooks, "function_hook": function_hooks}.get(rule.kind)
            if rule.backend in ("", backend) and hooks is not None and rule.name not in hooks:
                kind = "OpHook" if rule.kind == "op_hook" else "FunctionHook"
                raise LoweringError(
                    f"{lowering.where}: error: '{op_name}' declares {kind}<\"{rule.name}\"> but "
                    f"{where_written[rule.kind]} implements no hook '{rule.name}'")
