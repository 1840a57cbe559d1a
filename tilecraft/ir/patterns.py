"""The base of rewrite patterns, which live with the IR (as MLIR's PatternMatch does) so that
patterns generated from `.td` and those written by hand share it.

A pattern names the op it applies to (`ROOT`, or None for any op), a `BENEFIT` (patterns with a
higher benefit are tried first) and one method, `match_and_rewrite(op, rewriter)`, that returns
whether it changed the IR; all changes go through the rewriter so that drivers see them.
"""

from __future__ import annotations

from typing import ClassVar

from tilecraft.ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr
from tilecraft.ir.traits import ConstantLike

__all__ = ["RewritePattern", "constant_value", "is_constant_zero"]


class RewritePattern:
    """A rewrite of the IR around one op; subclasses implement `match_and_rewrite`."""

    ROOT: ClassVar[str | None] = None
    BENEFIT: ClassVar[int] = 1

    def match_and_rewrite(self, op, rewriter) -> bool:
        """Rewrite around `op` through `rewriter`; return False (changing nothing) on no match."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} on {self.ROOT or 'any op'}>"


def constant_value(value) -> object | None:
    """The Python number a value always holds (a scalar constant or a splat tensor constant),
    or None when it is not such a constant."""
    op = value.defining_op
    if op is None or not op.has_trait(ConstantLike):
        return None
    attr = op.properties.get("value")
    if isinstance(attr, DenseElementsAttr):
        return attr.splat_value if attr.is_splat else None
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return attr.value
    return None


def is_constant_zero(value) -> bool:
    """Whether `value` is the constant 0 (or a tensor of zeros; -0.0 counts)."""
    constant = constant_value(value)
    return constant is not None and constant == 0
