"""`triton-combine`: Triton's peepholes on tile IR, applied greedily (with folding).

Declarative patterns (``defs/combine.td``, the `Pat`s with ``appliedBy = "triton-combine"``,
which the generated ``TritonCombinePassBase.declared_patterns()`` returns), with Triton's extra
conditions:

- ``addi/addf(dot(a, b, 0), c)`` (either operand order) → ``dot(a, b, c)`` when the dot has
  one use; for ``addf`` only with ``maxNumImpreciseAcc = 0``.
- ``addptr(addptr(p, i), j)`` → ``addptr(p, i + j)`` when the offsets have one type and the
  sum cannot overflow: 64-bit offsets, or two constants (scalar, splat or splatted) whose sum
  fits. The new ``addptr`` keeps the outer one's hints (``tt.divisibility``,
  ``tt.contiguity``, ``tt.constancy``, ``tt.pointee_type``), not its other attributes.

Written here, as Triton writes them in C++ (lib/Dialect/Triton/Transforms/Combine.cpp):

- `CombineSelectMaskedLoad`: ``select(c, load(p, m, ...), other)`` → ``load(p, m, other)``
  when the mask ``m`` holds ``c`` in every lane (``m`` is ``c``, ``splat(c)``, or splats or
  broadcasts of the same value as ``c``), and the load is not volatile and has no other
  use (it is erased: the greedy driver keeps unused ops that read memory).
- `CombineBroadcastMulReduce`: ``reduce(+, broadcast(x[:, :, None]) * broadcast(y[None]),
  axis=1)`` → ``dot(reshape(x), reshape(y), 0)`` for float adds of at most 32 bits, M and N
  at least 16, without encodings.
- `CombineTruncMinMaxExt`: ``truncf(maxnumf(extf(a), extf(b)))`` → ``maxnumf(a, b)`` (and
  minnumf, maximumf, minimumf), an operand may be a constant exact in the narrow type.
- `CombineTruncDivPow2` (the scale pattern): ``truncf(divf(extf(x), c))`` → ``mulf(x, 1/c)``
  for a splat constant ``c = ±2^k`` whose reciprocal is exact in the narrow type, when the
  wide type's exponent range makes ``x / c`` exact (f16 into f32/f64, bf16 or f32 into f64).
- `CombineReshapeReduce`: a ``reshape`` to one dimension read only by reductions and
  histograms gets ``allow_reorder``.
- `RankedReduceDescriptorLoads`: ``reshape(descriptor_load(d))`` dropping leading unit
  dimensions → the load of the reshaped tensor, when the reshape is the load's only use.
- The ``broadcast``/``expand_dims`` chains of `tile_patterns` (``broadcast(splat(x))`` →
  ``splat(x)``, ``broadcast(broadcast(x))``, broadcast of a splat constant → constant).
"""

from __future__ import annotations

import math

from tilecraft.generated.passes import TritonCombinePassBase
from tilecraft.ir import (
    DenseElementsAttr, FloatAttr, Operation, RankedTensorType, UnitAttr, element_type_of,
)
from tilecraft.ir.patterns import RewritePattern

from .folding import constant_attr
from .greedy import apply_patterns_greedily
from .patterns import PatternSet
from .tile_patterns import broadcast_patterns
from .transform_utils import constant_op, int_constant

__all__ = [
    "TritonCombinePass", "combine_patterns", "CombineSelectMaskedLoad",
    "CombineBroadcastMulReduce", "CombineTruncMinMaxExt", "CombineTruncDivPow2",
    "CombineReshapeReduce", "RankedReduceDescriptorLoads",
]


#: the discardable attributes a merged ``tt.addptr`` keeps from the outer one
POINTER_HINTS = frozenset({"tt.divisibility", "tt.contiguity", "tt.constancy", "tt.pointee_type"})


def _defining(value, name: str) -> Operation | None:
    op = value.defining_op
    return op if op is not None and op.name == name else None


# -- guards for the generated patterns


class _Guarded(RewritePattern):
    """A generated pattern applied only where ``guard(op)`` also holds. With ``carried``
    (Triton's CopyDiscardableAttrs supplement), the op whose result replaces the root's takes
    the root's discardable attributes of those names (the hints of the axis analysis)."""

    def __init__(self, pattern: RewritePattern, guard,
                 carried: frozenset[str] = frozenset()) -> None:
        self.pattern = pattern
        self.guard = guard
        self.carried = carried
        self.ROOT = pattern.ROOT
        self.BENEFIT = pattern.BENEFIT

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if not self.guard(op):
            return False
        hints = {name: value for name, value in op.attributes.items() if name in self.carried}
        uses = op.results[0].uses if hints else ()
        if not self.pattern.match_and_rewrite(op, rewriter):
            return False
        if uses:  # the uses now read the replacement (a root nothing used gets no hints)
            replacement = uses[0].value.defining_op
            if replacement is not None:
                replacement.attributes.update(hints)
        return True

    def __repr__(self) -> str:
        return f"<{type(self.pattern).__name__} (guarded) on {self.ROOT}>"


def _dot_operand(op: Operation, use_lhs: bool) -> Operation | None:
    return _defining(op.lhs if use_lhs else op.rhs, "tt.dot")


def _precise_accumulation(use_lhs: bool):
    def guard(op: Operation) -> bool:
        dot = _dot_operand(op, use_lhs)
        return dot is None or dot.max_num_imprecise_acc == 0
    return guard


def _scalar_offset(value) -> int | None:
    splat = _defining(value, "tt.splat")
    return int_constant(splat.operands[0] if splat is not None else value)


def _addptr_offsets_combinable(op: Operation) -> bool:
    """Triton's isAddPtrOffsetCombinable."""
    inner = _defining(op.ptr, "tt.addptr")
    if inner is None:
        return True  # the generated pattern does not match either
    first, second = inner.offset, op.offset
    if first.type is not second.type:
        return False
    element = element_type_of(first.type)
    if element.width == 64:
        return True
    a, b = _scalar_offset(first), _scalar_offset(second)
    if a is None or b is None:
        return False
    bound = 1 << (element.width - 1)
    return -bound <= a + b < bound


def _generated_patterns() -> list[RewritePattern]:
    """The declarative patterns defs/ declares for `triton-combine`, each with Triton's extra
    condition where it has one."""
    guards = {
        "CombineDotAddF": _precise_accumulation(use_lhs=False),
        "CombineDotAddFRev": _precise_accumulation(use_lhs=True),
        "CombineAddPtr": _addptr_offsets_combinable,
    }
    carried = {"CombineAddPtr": POINTER_HINTS}
    declared = TritonCombinePassBase.declared_patterns()
    unknown = guards.keys() - {type(pattern).__name__ for pattern in declared}
    if unknown:
        raise RuntimeError(f"triton-combine guards patterns that defs/ no longer declares for "
                           f"it: {', '.join(sorted(unknown))}")
    return [_Guarded(pattern, guards[name], carried.get(name, frozenset()))
            if (name := type(pattern).__name__) in guards else pattern for pattern in declared]


# -- select of a masked load


def _same_lanes(mask, cond) -> bool:
    """Whether the i1 values ``mask`` (a tensor) and ``cond`` hold the same value in every
    lane, a scalar ``cond`` standing for all lanes."""
    if mask is cond:
        return True
    splat = _defining(mask, "tt.splat")
    if splat is not None:
        source = splat.operands[0]
        if source is cond:
            return True
        other = _defining(cond, "tt.splat")
        return other is not None and other.operands[0] is source
    broadcast = _defining(mask, "tt.broadcast")
    other = _defining(cond, "tt.broadcast")
    if broadcast is not None and other is not None and mask.type is cond.type:
        return _same_lanes(broadcast.operands[0], other.operands[0])
    return False


class CombineSelectMaskedLoad(RewritePattern):
    """``select(c, load(p, m, ...), other)`` → ``load(p, m, other)`` when ``m`` is ``c`` in
    every lane and the select is the load's only user."""

    ROOT = "arith.select"
    BENEFIT = 3

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.tt import LoadOp

        load = _defining(op.true_value, "tt.load")
        if load is None or load.mask is None or not load.results[0].has_one_use():
            return False
        if load.is_volatile:
            return False
        if not _same_lanes(load.mask, op.condition):
            return False
        rewriter.replace_op_with_new_op(
            op, LoadOp, load.ptr, load.result_.type, load.mask, op.false_value,
            boundary_check=load.properties.get("boundaryCheck"),
            padding=load.properties.get("padding"), cache=load.properties.get("cache"),
            evict=load.properties.get("evict"), is_volatile=load.properties.get("isVolatile"),
            attributes=dict(load.attributes), location=load.location)
        rewriter.erase_op(load)  # a read nothing uses: dead (the driver keeps ops that read)
        return True


# -- sum(x[:, :, None] * y[None, :, :], 1) -> dot(x, y)


def _broadcasts_only_along(op: Operation, axis: int) -> bool:
    src, dst = op.operands[0].type.shape, op.results[0].type.shape
    return len(src) == len(dst) and all(
        (s != d) == (i == axis) for i, (s, d) in enumerate(zip(src, dst)))


def _is_float_add_combiner(reduce: Operation) -> bool:
    region = reduce.regions[0]
    if len(region.blocks) != 1:
        return False
    ops = region.blocks[0].ops
    if len(ops) != 2 or ops[0].name != "arith.addf" or ops[1].name != "tt.reduce.return":
        return False
    add, block = ops[0], region.blocks[0]
    if {add.lhs, add.rhs} != set(block.arguments) or ops[1].operands != (add.results[0],):
        return False
    return add.results[0].type.width <= 32


class CombineBroadcastMulReduce(RewritePattern):
    """``reduce(+, broadcast(x) * broadcast(y), axis=1)`` with ``x: MxKx1``, ``y: 1xKxN``
    broadcast to ``MxKxN`` → ``dot(reshape(x): MxK, reshape(y): KxN, zeros)``."""

    ROOT = "tt.reduce"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.arith import ConstantOp
        from tilecraft.generated.tt import DotOp, ReshapeOp

        if len(op.operands) != 1 or op.axis != 1 or not _is_float_add_combiner(op):
            return False
        source_type = op.operands[0].type
        if not isinstance(source_type, RankedTensorType) or source_type.rank != 3:
            return False
        mul = _defining(op.operands[0], "arith.mulf")
        if mul is None:
            return False
        lhs, rhs = _defining(mul.lhs, "tt.broadcast"), _defining(mul.rhs, "tt.broadcast")
        if lhs is None or rhs is None:
            return False
        if not _broadcasts_only_along(lhs, 2) or not _broadcasts_only_along(rhs, 0):
            return False
        m, k, n = source_type.shape
        if m < 16 or n < 16:
            return False
        types = (source_type, lhs.operands[0].type, rhs.operands[0].type, op.results[0].type)
        if any(t.encoding is not None for t in types):
            return False
        element = source_type.element_type
        x = rewriter.insert(ReshapeOp.build(RankedTensorType((m, k), element),
                                            lhs.operands[0], location=op.location))
        y = rewriter.insert(ReshapeOp.build(RankedTensorType((k, n), element),
                                            rhs.operands[0], location=op.location))
        acc_type = RankedTensorType((m, n), element)
        zeros = rewriter.insert(ConstantOp.build(DenseElementsAttr(acc_type, 0.0), acc_type,
                                                 location=op.location))
        rewriter.replace_op_with_new_op(op, DotOp, x.results[0], y.results[0],
                                        zeros.results[0], acc_type)
        return True


# -- truncf(op(extf(a), extf(b)))


_NARROW_KINDS = ("f16", "bf16", "f32")


def _float_splat(value) -> float | None:
    """The float a scalar or splat constant (possibly through ``tt.splat``) holds."""
    splat = _defining(value, "tt.splat")
    if splat is not None:
        value = splat.operands[0]
    attr = constant_attr(value)
    if isinstance(attr, DenseElementsAttr):
        if not attr.is_splat:
            return None
        scalar = attr.splat_value
        return float(scalar) if isinstance(scalar, float) else None
    if isinstance(attr, FloatAttr):
        return attr.value
    return None


def _exact_in(number: float, element) -> bool:
    if math.isnan(number):
        return False
    narrowed = FloatAttr(number, element).value
    return narrowed == number and math.copysign(1, narrowed) == math.copysign(1, number)


class CombineTruncMinMaxExt(RewritePattern):
    """``truncf(maxnumf(extf(a), extf(b)))`` → ``maxnumf(a, b)`` (also minnumf, maximumf,
    minimumf); one operand may be a constant exact in the narrow type."""

    ROOT = "arith.truncf"
    OPS = ("arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf")

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        inner = op.in_.defining_op
        if inner is None or inner.name not in self.OPS or not inner.results[0].has_one_use():
            return False
        narrow_type = op.out.type
        element = element_type_of(narrow_type)
        if element.kind not in _NARROW_KINDS:
            return False
        narrowed = []
        for operand in inner.operands:
            ext = _defining(operand, "arith.extf")
            if ext is not None and ext.in_.type is narrow_type:
                narrowed.append(ext.in_)
                continue
            number = _float_splat(operand)
            if number is None or not _exact_in(number, element):
                return False
            narrowed.append(number)
        if all(isinstance(v, float) for v in narrowed):
            return False  # constant folding's job
        values = []
        for value in narrowed:
            if isinstance(value, float):
                value = rewriter.insert(constant_op(FloatAttr(value, element), narrow_type,
                                                    op.location)).results[0]
            values.append(value)
        rewriter.replace_op_with_new_op(op, inner.name, values, [narrow_type],
                                        location=op.location)
        return True


_WIDER_RANGE = {"f16": ("f32", "f64"), "bf16": ("f64",), "f32": ("f64",)}


class CombineTruncDivPow2(RewritePattern):
    """``truncf(divf(extf(x), c))`` → ``mulf(x, 1/c)`` for ``c = ±2^k`` (the scale
    pattern); see the module docstring for when it is exact."""

    ROOT = "arith.truncf"

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        from tilecraft.generated.arith import MulFOp

        div = _defining(op.in_, "arith.divf")
        if div is None or not div.results[0].has_one_use():
            return False
        ext = _defining(div.lhs, "arith.extf")
        if ext is None or ext.in_.type is not op.out.type:
            return False
        narrow, wide = element_type_of(op.out.type), element_type_of(div.lhs.type)
        if wide.kind not in _WIDER_RANGE.get(narrow.kind, ()):
            return False
        divisor = _float_splat(div.rhs)
        if divisor is None or divisor == 0 or not math.isfinite(divisor):
            return False
        if math.frexp(divisor)[0] not in (0.5, -0.5):
            return False
        reciprocal = 1.0 / divisor
        if not math.isfinite(reciprocal) or not _exact_in(reciprocal, narrow):
            return False
        scale = rewriter.insert(constant_op(FloatAttr(reciprocal, narrow), op.out.type,
                                            op.location))
        rewriter.replace_op_with_new_op(op, MulFOp, ext.in_, scale.results[0])
        return True


# -- reshapes


class CombineReshapeReduce(RewritePattern):
    """A ``tt.reshape`` to one dimension that only reductions and histograms read may reorder
    its elements (neither depends on their order): it gets ``allow_reorder``."""

    ROOT = "tt.reshape"
    BENEFIT = 1

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.allow_reorder or op.result_.type.rank != 1:
            return False
        if any(user.name not in ("tt.reduce", "tt.histogram") for user in op.result_.users):
            return False
        rewriter.modify_op_in_place(op, lambda: op.properties.update(allow_reorder=UnitAttr()))
        return True


class RankedReduceDescriptorLoads(RewritePattern):
    """``reshape(descriptor_load(d))`` that only drops leading dimensions of size 1 (the
    load's only use) → the load giving the reshaped tensor (a rank-reduced block load)."""

    ROOT = "tt.reshape"
    BENEFIT = 1

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        load = _defining(op.src, "tt.descriptor_load")
        if load is None or not load.results[0].has_one_use():
            return False
        loaded, reshaped = load.results[0].type.shape, op.result_.type.shape
        dropped = len(loaded) - len(reshaped)
        if dropped <= 0 or any(size != 1 for size in loaded[:dropped]) \
                or tuple(loaded[dropped:]) != tuple(reshaped):
            return False
        new_type = op.result_.type
        rewriter.modify_op_in_place(load, lambda: setattr(load.results[0], "type", new_type))
        rewriter.replace_op(op, load.results)
        return True


def combine_patterns() -> list[RewritePattern]:
    """Every pattern `triton-combine` applies."""
    return [
        *_generated_patterns(), CombineSelectMaskedLoad(), CombineBroadcastMulReduce(),
        CombineTruncMinMaxExt(), CombineTruncDivPow2(), CombineReshapeReduce(),
        RankedReduceDescriptorLoads(), *broadcast_patterns(),
    ]


class TritonCombinePass(TritonCombinePassBase):
    """Triton's ``triton-combine``."""

    _patterns: PatternSet | None = None

    def run_on_operation(self, op: Operation) -> None:
        if TritonCombinePass._patterns is None:
            TritonCombinePass._patterns = PatternSet(combine_patterns())
        apply_patterns_greedily(op, TritonCombinePass._patterns)
