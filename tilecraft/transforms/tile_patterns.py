"""Rewrite patterns on splats, broadcasts and expand_dims that `triton-combine` and
`triton-reorder-broadcast` share (Triton's canonicalizations of ``tt.broadcast`` and
``tt.expand_dims``, which its passes apply next to their own patterns):

- ``broadcast(splat(x))`` → ``splat(x)``, ``expand_dims(splat(x))`` → ``splat(x)``,
  ``broadcast(broadcast(x))`` → ``broadcast(x)``: the `BroadcastOfSplat`, `ExpandDimsOfSplat`
  and `BroadcastOfBroadcast` Pats of defs/tt.td (their generated classes; canonicalization
  applies the same ones)
- ``broadcast(x)`` to the type of ``x`` → ``x``
- ``broadcast(c)`` / ``expand_dims(c)`` of a splat constant → the constant of the new shape
"""

from __future__ import annotations

from tilecraft.ir import DenseElementsAttr, Operation
from tilecraft.ir.patterns import RewritePattern

from .folding import constant_attr

__all__ = ["BroadcastIdentity", "ReshapeSplatConstant", "broadcast_patterns"]


class BroadcastIdentity(RewritePattern):
    """``broadcast(x)`` whose result has the type of ``x`` → ``x``."""

    ROOT = "tt.broadcast"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.operands[0].type is not op.results[0].type:
            return False
        rewriter.replace_op(op, [op.operands[0]])
        return True


class ReshapeSplatConstant(RewritePattern):
    """``broadcast(c)`` / ``expand_dims(c)`` of a splat tensor constant → a splat constant of
    the result type (Triton's CombineBroadcastConstantPattern)."""

    def __init__(self, root: str) -> None:
        self.ROOT = root

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.arith import ConstantOp

        source = op.operands[0].defining_op
        if source is None or source.name != "arith.constant":
            return False
        attr = constant_attr(op.operands[0])
        if not isinstance(attr, DenseElementsAttr) or not attr.is_splat:
            return False
        result_type = op.results[0].type
        rewriter.replace_op_with_new_op(op, ConstantOp,
                                        DenseElementsAttr(result_type, attr.splat_value),
                                        result_type)
        return True


def broadcast_patterns() -> list[RewritePattern]:
    """The patterns above, for a `PatternSet`."""
    from tilecraft.generated.patterns.tt import (BroadcastOfBroadcast, BroadcastOfSplat,
                                                 ExpandDimsOfSplat)

    return [
        BroadcastOfSplat(), ExpandDimsOfSplat(), BroadcastOfBroadcast(), BroadcastIdentity(),
        ReshapeSplatConstant("tt.broadcast"), ReshapeSplatConstant("tt.expand_dims"),
    ]
