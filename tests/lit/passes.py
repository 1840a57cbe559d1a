"""Test-only passes for the lit tests, loaded with ``tilecraft-opt --load-pass-plugin=...``.

They exercise the pass infrastructure (options, statistics, nesting, failures, diagnostics,
the greedy driver) while no real pass exists; they are registered in Python, never in defs/.
"""

from __future__ import annotations

from tilecraft.generated.arith import AddIOp, ConstantOp
from tilecraft.ir import BoolAttr, IntegerAttr, Operation, StringAttr, i1
from tilecraft.ir.pass_base import Pass, PassOption, PassStatistic
from tilecraft.transforms import (
    GreedyRewriteConfig, RewriteListener, RewritePattern, apply_patterns_greedily, constant_attr,
    emit_remark, emit_warning, register_pass,
)


def _is_int(value, number: int) -> bool:
    attr = constant_attr(value)
    return isinstance(attr, IntegerAttr) and not isinstance(attr, BoolAttr) and attr.value == number


class AddZero(RewritePattern):
    """``addi(x, 0) -> x``."""

    ROOT = "arith.addi"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _is_int(op.rhs, 0):
            return False
        rewriter.replace_op(op, [op.lhs])
        return True


class MulTwo(RewritePattern):
    """``muli(x, 2) -> addi(x, x)``: a new op, which the other patterns then see."""

    ROOT = "arith.muli"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _is_int(op.rhs, 2):
            return False
        rewriter.replace_op_with_new_op(op, AddIOp, op.lhs, op.lhs)
        return True


class SubSelf(RewritePattern):
    """``subi(x, x) -> 0``."""

    ROOT = "arith.subi"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if op.lhs is not op.rhs:
            return False
        zero = IntegerAttr(0, op.lhs.type)
        rewriter.replace_op_with_new_op(op, ConstantOp, zero, op.lhs.type)
        return True


class SwapOperands(RewritePattern):
    """``addi(a, b) -> addi(b, a)``: never converges (for the error)."""

    ROOT = "arith.addi"

    def match_and_rewrite(self, op, rewriter) -> bool:
        lhs, rhs = op.lhs, op.rhs
        rewriter.modify_op_in_place(op, lambda: op.set_operands([rhs, lhs]))
        return True


class _Counter(RewriteListener):
    __slots__ = ("replaced",)

    def __init__(self) -> None:
        self.replaced = 0

    def notify_op_replaced(self, op, values) -> None:
        self.replaced += 1


@register_pass
class TestGreedyPass(Pass):
    ARGUMENT = "test-greedy"
    SUMMARY = "Applies addi(x, 0) -> x, muli(x, 2) -> addi(x, x), subi(x, x) -> 0 greedily"
    OPTIONS = (
        PassOption("max_iterations", "max-iterations", int, 10, "the iteration bound"),
        PassOption("swap", "swap", bool, False, "also swap addi operands (never converges)"),
    )
    STATISTICS = (PassStatistic("num_replaced", "num-replaced", "ops replaced"),)

    def run_on_operation(self, op: Operation) -> None:
        patterns = [AddZero(), MulTwo(), SubSelf()] + ([SwapOperands()] if self.swap else [])
        counter = _Counter()
        apply_patterns_greedily(op, patterns, max_iterations=self.max_iterations,
                                config=GreedyRewriteConfig(listener=counter))
        self.num_replaced += counter.replaced


@register_pass
class TestOptionsPass(Pass):
    ARGUMENT = "test-options"
    SUMMARY = "Writes its options into the attribute test.options of the op it runs on"
    OPTIONS = (
        PassOption("factor", "factor", int, 1, "a number"),
        PassOption("label", "label", str, "", "a string"),
        PassOption("flag", "flag", bool, False, "a switch"),
        PassOption("sizes", "sizes", int, (), "numbers", is_list=True),
    )

    def run_on_operation(self, op: Operation) -> None:
        op.attributes["test.options"] = StringAttr(self.options_text())


@register_pass
class TestFuncPass(Pass):
    ARGUMENT = "test-func"
    SUMMARY = "Numbers the functions it runs on (attribute test.visit)"
    ANCHOR = "tt.func"
    STATISTICS = (PassStatistic("num_funcs", "num-funcs", "functions visited"),)

    def run_on_operation(self, op: Operation) -> None:
        self.num_funcs += 1
        op.attributes["test.visit"] = IntegerAttr(self.num_funcs)


@register_pass
class TestFailPass(Pass):
    ARGUMENT = "test-fail"
    SUMMARY = "Fails with an error on the first op named op-name (default: the op it runs on)"
    OPTIONS = (PassOption("op_name", "op-name", str, "", "the op to fail on"),)

    def run_on_operation(self, op: Operation) -> None:
        for nested in op.walk():
            if not self.op_name or nested.name == self.op_name:
                raise nested.emit_error("test pass failure")


@register_pass
class TestCrashPass(Pass):
    ARGUMENT = "test-crash"
    SUMMARY = "Raises a Python exception (an internal error)"

    def run_on_operation(self, op: Operation) -> None:
        raise RuntimeError("the test pass crashed")


@register_pass
class TestInvalidIRPass(Pass):
    ARGUMENT = "test-invalid-ir"
    SUMMARY = "Makes the first arith.addi produce i1 (invalid IR)"

    def run_on_operation(self, op: Operation) -> None:
        for nested in op.walk():
            if nested.name == "arith.addi":
                nested.results[0].type = i1
                return


@register_pass
class TestDiagnosticsPass(Pass):
    ARGUMENT = "test-diagnostics"
    SUMMARY = "Emits the warnings and remarks written in test.warning/test.remark attributes"

    def run_on_operation(self, op: Operation) -> None:
        for nested in op.walk():
            warning = nested.attributes.get("test.warning")
            if isinstance(warning, StringAttr):
                emit_warning(nested, warning.value)
            remark = nested.attributes.get("test.remark")
            if isinstance(remark, StringAttr):
                emit_remark(nested, remark.value)
