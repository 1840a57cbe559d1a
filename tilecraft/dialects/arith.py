"""Hooks of the arith dialect: MLIR's custom format and verifier of `arith.select`."""

from __future__ import annotations

from tilecraft.ir import RankedTensorType, i1
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
