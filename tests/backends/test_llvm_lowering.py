"""The LLVM lowerings `.td` declares (`tilecraft.generated.lowering`) as the backends apply them:
the rule each backend picks by register type, the math functions by name, and a hook that no
backend module implements, named at its `.td` line."""

from __future__ import annotations

import re

import llvmlite.ir as ir
import pytest

from tilecraft.backends import llvm_lowering
from tilecraft.backends.cpu import elementwise as cpu_elementwise
from tilecraft.backends.cpu import mathlib as cpu_mathlib
from tilecraft.backends.cuda import mathlib as cuda_mathlib
from tilecraft.generated.lowering import LOWERINGS, MATH_FUNCTIONS

F32, F64 = ir.FloatType(), ir.DoubleType()


def test_rules_are_picked_by_backend_and_register_type() -> None:
    exp2 = {(backend, str(ty)): llvm_lowering.rule_for("math.exp2", backend, ty)
            for backend in ("cpu", "cuda") for ty in (F32, F64)}
    assert exp2["cpu", "float"].name == "exp2_f32"
    assert exp2["cpu", "double"].name == "llvm.exp2"
    assert exp2["cuda", "float"].name == "llvm.nvvm.ex2.approx.ftz.f"
    assert exp2["cuda", "double"].name == "__nv_exp2"
    assert llvm_lowering.rule_for("math.exp2", "cpu", ir.IntType(32)) is None


def test_math_functions_call_what_each_backend_declares() -> None:
    module = ir.Module()
    fn = ir.Function(module, ir.FunctionType(F32, [F32, F64]), "g")
    builder = ir.IRBuilder(fn.append_basic_block())
    x, y = fn.args
    cpu_mathlib.emit_math(builder, "cbrt", [x])
    cuda_mathlib.emit_math(builder, "erf", [y])
    cuda_mathlib.emit_math(builder, "maxnumf", [x, x])
    cpu_mathlib.emit_math(builder, "maxnumf", [y, y])
    builder.ret(x)
    declared = re.findall(r'^declare [^@]*@"?([\w.]+)"?\(', str(module), re.MULTILINE)
    assert sorted(declared) == ["__nv_erf", "cbrtf", "llvm.maximumnum.f64", "llvm.maxnum.f32"]
    with pytest.raises(ValueError, match="no CUDA math function named 'gamma'"):
        cuda_mathlib.emit_math(builder, "gamma", [x])


def test_every_math_function_is_a_declared_op_of_registers_alone() -> None:
    assert {"exp", "maximumf", "remf", "fma"} <= set(MATH_FUNCTIONS)
    for name, op_name in MATH_FUNCTIONS.items():
        assert op_name.split(".")[1] == name
        assert all(rule.kind != "op_hook" for rule in LOWERINGS[op_name].rules), op_name


def test_a_hook_nobody_wrote_is_named_at_its_td_line() -> None:
    hooks = {name: emit for name, emit in cpu_elementwise.OP_HOOKS.items() if name != "cmpf"}
    with pytest.raises(llvm_lowering.LoweringError) as raised:
        llvm_lowering.check_hooks("cpu", hooks, cpu_mathlib.FUNCTION_HOOKS)
    assert re.fullmatch(r"defs/arith\.td:\d+:7: error: 'arith\.cmpf' declares OpHook<\"cmpf\"> "
                        r"but tilecraft/backends/cpu/elementwise\.py \(@op_hook\) implements no "
                        r"hook 'cmpf'", str(raised.value))
    with pytest.raises(llvm_lowering.LoweringError, match="'math.exp' declares "
                       "FunctionHook<\"exp_f32\"> but tilecraft/backends/cpu/mathlib.py"):
        llvm_lowering.check_hooks("cpu", cpu_elementwise.OP_HOOKS,
                                  {name: hook for name, hook in cpu_mathlib.FUNCTION_HOOKS.items()
                                   if name != "exp_f32"})
