"""Hooks of the func dialect: MLIR's function syntax (shared with `tt.func`), the indirect call's
assembly format, and MLIR's verifiers of functions, calls, constants and returns."""

from __future__ import annotations

from tilecraft.ir import FunctionType
from tilecraft.ir.ods import implements
from tilecraft.ir.patterns import RewritePattern

from . import generated_module
from .functions import (
    lookup_symbol, parse_function, print_function, verify_direct_call, verify_function_attrs,
    verify_return,
)

gen = generated_module(__name__, "func")


@implements(gen.FuncOp)
@classmethod
def parse(cls, parser):
    """``func.func [visibility] @name(args) [-> results] [attributes {...}] [{ body }]``."""
    return parse_function(cls, parser)


@implements(gen.FuncOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    print_function(self, printer)


@implements(gen.FuncOp)
def custom_verify(self) -> None:
    verify_function_attrs(self)
    if not self.body.blocks and self.sym_visibility in (None, "public"):
        raise self.emit_error("symbol declaration cannot have public visibility")


@implements(gen.CallOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    verify_direct_call(self, gen.FuncOp, self.operands_, self.results)


@implements(gen.CallIndirectOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``func.call_indirect %f(%args) attr-dict : (inputs) -> results``."""
    callee = parser.parse_operand()
    parser.parse_punct("(")
    operands = [] if parser.toks[parser.i] == ")" else parser.parse_operand_list()
    parser.parse_punct(")")
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    token = parser.i
    ftype = parser.parse_type()
    if not isinstance(ftype, FunctionType):
        parser.error(f"expected a function type, got '{ftype}'", token)
    if len(operands) != len(ftype.inputs):
        parser.error(f"{len(operands)} operands present, but expected {len(ftype.inputs)}",
                     token)
    values = [parser.resolve_operand(callee, ftype)]
    values += parser.resolve_operands(operands, ftype.inputs)
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=values, result_types=ftype.results,
                      properties=properties, attributes=attributes)


@implements(gen.CallIndirectOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.callee)
    printer.write("(")
    printer.print_operands(self.callee_operands)
    printer.write(")")
    printer.print_attr_dict(self.all_attributes())
    printer.write(" : ")
    printer.print_type(self.callee.type)


@implements(gen.CallIndirectOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    ftype = self.callee.type
    if [v.type for v in self.callee_operands] != list(ftype.inputs):
        raise self.emit_error("failed to verify that callee input types match argument types")
    if [r.type for r in self.results] != list(ftype.results):
        raise self.emit_error("failed to verify that callee result types match result types")


class IndirectCallOfConstant(RewritePattern):
    """``call_indirect (constant @f)(args) -> call @f(args)``, as MLIR canonicalizes it (the
    call then reaches the inliner and the call graph's edges)."""

    ROOT = "func.call_indirect"

    def match_and_rewrite(self, op, rewriter) -> bool:
        constant = op.callee.defining_op
        if not isinstance(constant, gen.ConstantOp):
            return False
        rewriter.replace_op_with_new_op(
            op, gen.CallOp, [r.type for r in op.results], constant.value_attr,
            list(op.callee_operands), arg_attrs=op.arg_attrs, res_attrs=op.res_attrs)
        return True


@implements(gen.CallIndirectOp)
@staticmethod
def canonicalization_patterns():
    return [IndirectCallOfConstant()]


@implements(gen.ConstantOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    function = lookup_symbol(self, self.value)
    if not isinstance(function, gen.FuncOp):
        raise self.emit_error(f"reference to undefined function '{self.value}'")
    if function.function_type is not self.result_.type:
        raise self.emit_error("reference to function with mismatched type")


@implements(gen.ConstantOp)
def asm_result_name(self) -> str:
    """MLIR's name for a function value: ``%f``."""
    return "f"


@implements(gen.ReturnOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    function = self.parent_op
    if isinstance(function, gen.FuncOp):  # else the HasParent trait reports it
        verify_return(self, function, self.operands_, op_prefix=False)

