"""A small dialect with folders, for the greedy driver's tests: its module is the ops' hooks
module, so its `materialize_constant` is the one the driver uses."""

from __future__ import annotations

from tilecraft.ir import (
    ConstantLike, Dialect, FloatAttr, IntegerAttr, Operation, Pure, Terminator, f32,
)

DIALECT = Dialect("tfold", "ops with folders, for tests")


@DIALECT.op
class ConstOp(Operation):
    """``tfold.const`` with a ``value``: a constant without a fold hook."""

    __slots__ = ()
    OPERATION_NAME = "tfold.const"
    TRAITS = (ConstantLike, Pure)
    PROPERTY_NAMES = ("value",)


@DIALECT.op
class AddOp(Operation):
    """Folds constant + constant and x + 0."""

    __slots__ = ()
    OPERATION_NAME = "tfold.add"
    TRAITS = (Pure,)
    HOOKS = ("fold",)

    def fold(self, operand_constants):
        lhs, rhs = operand_constants
        if lhs is not None and rhs is not None:
            return [IntegerAttr(lhs.value + rhs.value, self.results[0].type)]
        if rhs is not None and rhs.value == 0:
            return [self.get_operand(0)]
        return None


@DIALECT.op
class CanonOp(Operation):
    """Folds in place: moves a constant operand to the right."""

    __slots__ = ()
    OPERATION_NAME = "tfold.canon"
    TRAITS = (Pure,)
    HOOKS = ("fold",)

    def fold(self, operand_constants):
        lhs, rhs = operand_constants
        if lhs is not None and rhs is None:
            self.set_operands([self.get_operand(1), self.get_operand(0)])
            return []
        return None


@DIALECT.op
class HalfOp(Operation):
    """Folds to a float, which `materialize_constant` cannot make."""

    __slots__ = ()
    OPERATION_NAME = "tfold.half"
    TRAITS = (Pure,)
    HOOKS = ("fold",)

    def fold(self, operand_constants):
        (value,) = operand_constants
        return None if value is None else [FloatAttr(value.value / 2, f32)]


@DIALECT.op
class RegionOp(Operation):
    """An op with a region, not isolated from above (constants hoist out of it)."""

    __slots__ = ()
    OPERATION_NAME = "tfold.region"
    TRAITS = ()


@DIALECT.op
class YieldOp(Operation):
    """A pure terminator: never trivially dead."""

    __slots__ = ()
    OPERATION_NAME = "tfold.yield"
    TRAITS = (Pure, Terminator)


def materialize_constant(attr, type_, location):
    """Integer constants become ``tfold.const``; anything else cannot be made."""
    if not isinstance(attr, IntegerAttr):
        return None
    return ConstOp.create("tfold.const", result_types=[type_], properties={"value": attr},
                          location=location)
