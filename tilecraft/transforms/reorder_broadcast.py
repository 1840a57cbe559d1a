"""`triton-reorder-broadcast`: do elementwise work before broadcasts and splats, on fewer
elements, as Triton's ReorderBroadcast pass does (greedily, with folding).

- `MoveSplatAfterElementwise`: ``elementwise(splat(a), splat(b), c)`` → ``splat(
  elementwise(a, b, c'))`` when every operand is a ``tt.splat`` or a splat constant (``c'``
  is its scalar). An op of splat constants alone that its folder leaves (``tt.int_to_ptr``
  of ``dense<1>``, ...) moves too, as in Triton.
- `MoveBroadcastAfterElementwise`: ``elementwise(broadcast(a), broadcast(b), splat(c), d)``
  → ``broadcast(elementwise(a, b, splat(c)', d'))`` when at least one operand is a
  ``tt.broadcast``, every broadcast operand broadcasts from the same shape, and every other
  operand is a ``tt.splat`` or a splat constant, re-made with that shape (and the first
  broadcast source's encoding). Broadcasts from different shapes (``128x1`` and ``1x128``),
  or any other operand, leave the op alone.

Both need an op with the ``Elementwise`` trait and no memory effects whose results are
tensors. The ``broadcast``/``expand_dims`` canonicalizations of `tile_patterns` run with them
(``broadcast(splat(x))`` → ``splat(x)``, ...), as Triton adds those ops' canonicalizers.
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonReorderBroadcastPassBase
from tilecraft.ir import DenseElementsAttr, Operation, RankedTensorType
from tilecraft.ir.patterns import RewritePattern
from tilecraft.ir.traits import Elementwise

from .folding import constant_attr
from .greedy import apply_patterns_greedily
from .patterns import PatternSet
from .tile_patterns import broadcast_patterns
from .effects import is_memory_effect_free
from .transform_utils import constant_op, splat_scalar_attr

__all__ = ["TritonReorderBroadcastPass", "MoveSplatAfterElementwise",
           "MoveBroadcastAfterElementwise", "reorder_broadcast_patterns"]


def _is_splat_constant(value) -> bool:
    attr = constant_attr(value)
    return isinstance(attr, DenseElementsAttr) and attr.is_splat


def _kind(value) -> str | None:
    """"splat", "constant", "broadcast" or None, for an operand."""
    op = value.defining_op
    if op is None:
        return None
    if op.name == "tt.splat":
        return "splat"
    if op.name == "tt.broadcast":
        return "broadcast"
    if _is_splat_constant(value):
        return "constant"
    return None


_ELEMENTWISE_CLASSES: dict[type, bool] = {}


def _candidate(op: Operation) -> bool:
    if op.regions or not op.results or not op.operands:
        return False
    for result in op.results:
        if not isinstance(result.type, RankedTensorType):
            return False
    cls = type(op)
    elementwise = _ELEMENTWISE_CLASSES.get(cls)
    if elementwise is None:  # for ops without regions the traits decide: once per class
        elementwise = _ELEMENTWISE_CLASSES[cls] = (
            op.is_registered and op.has_trait(Elementwise) and is_memory_effect_free(op))
    return elementwise


def _clone_with(op: Operation, operands, result_types, rewriter) -> Operation:
    new_op = Operation.create(op.name, operands, result_types, dict(op.properties),
                              dict(op.attributes), location=op.location)
    return rewriter.insert(new_op)


class MoveSplatAfterElementwise(RewritePattern):
    """``elementwise(splat(a), ...)`` → ``splat(elementwise(a, ...))``."""

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.tt import SplatOp

        if not _candidate(op):
            return False
        kinds = [_kind(v) for v in op.operands]
        if any(k not in ("splat", "constant") for k in kinds):
            return False
        scalars = []
        for value, kind in zip(op.operands, kinds):
            if kind == "splat":
                scalars.append(value.defining_op.operands[0])
            else:
                element = value.type.element_type
                constant = constant_op(splat_scalar_attr(value), element, op.location)
                scalars.append(rewriter.insert(constant).results[0])
        new_op = _clone_with(op, scalars, [r.type.element_type for r in op.results], rewriter)
        values = [rewriter.insert(SplatOp.build(r.type, v, location=op.location)).results[0]
                  for r, v in zip(op.results, new_op.results)]
        rewriter.replace_op(op, values)
        return True


class MoveBroadcastAfterElementwise(RewritePattern):
    """``elementwise(broadcast(a), splat(b), ...)`` → ``broadcast(elementwise(a, ...))``."""

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.tt import BroadcastOp, SplatOp

        if not _candidate(op):
            return False
        kinds = [_kind(v) for v in op.operands]
        if "broadcast" not in kinds or any(k is None for k in kinds):
            return False
        sources = [v.defining_op.operands[0] for v, k in zip(op.operands, kinds)
                   if k == "broadcast"]
        shape, encoding = sources[0].type.shape, sources[0].type.encoding
        if any(source.type.shape != shape for source in sources[1:]):
            return False

        def reshaped(type_) -> RankedTensorType:
            return RankedTensorType(shape, type_.element_type, encoding)

        operands = []
        for value, kind in zip(op.operands, kinds):
            if kind == "broadcast":
                operands.append(value.defining_op.operands[0])
            elif kind == "splat":
                splat = SplatOp.build(reshaped(value.type), value.defining_op.operands[0],
                                      location=op.location)
                operands.append(rewriter.insert(splat).results[0])
            else:
                constant = constant_op(splat_scalar_attr(value), reshaped(value.type),
                                       op.location)
                operands.append(rewriter.insert(constant).results[0])
        new_op = _clone_with(op, operands, [reshaped(r.type) for r in op.results], rewriter)
        values = [rewriter.insert(BroadcastOp.build(r.type, v, location=op.location)).results[0]
                  for r, v in zip(op.results, new_op.results)]
        rewriter.replace_op(op, values)
        return True


def reorder_broadcast_patterns() -> list[RewritePattern]:
    return [*broadcast_patterns(), MoveBroadcastAfterElementwise(), MoveSplatAfterElementwise()]


class TritonReorderBroadcastPass(TritonReorderBroadcastPassBase):
    """Triton's ``triton-reorder-broadcast``."""

    _patterns: PatternSet | None = None

    def run_on_operation(self, op: Operation) -> None:
        if TritonReorderBroadcastPass._patterns is None:
            TritonReorderBroadcastPass._patterns = PatternSet(reorder_broadcast_patterns())
        apply_patterns_greedily(op, TritonReorderBroadcastPass._patterns)
