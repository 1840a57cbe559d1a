"""`tritongpu-optimize-thread-locality`: reductions, reshapes and gathers that exchange less
between threads, as Triton's OptimizeThreadLocality pass does.

Three rewrites, in Triton's order:

- **Reshapes feeding reductions.** A ``tt.reshape`` with ``allow_reorder`` whose results
  ``tt.reduce`` ops read, all along one axis, gets the default blocked layout of its shape with
  that axis the slowest in the order (so each thread holds whole rows along it) unless its
  layout already keeps the axis within one thread, warp and CTA. It is marked
  ``efficient_layout`` and a ``ttg.convert_layout`` gives its users the old layout. Skipped when
  the new layout would make the reshape move data between threads (an expensive view).
- **Gathers.** A ``tt.gather`` of rank 2 or more not yet marked ``efficient_layout`` gets a
  blocked layout (for its source, indices and result) in which the lanes of a warp run along
  the gather axis first and one warp covers the axis, so the gather is done with warp shuffles;
  conversions surround it.
- **Reductions in loops.** In ``acc' = acc OP reduce(load, axis=last)`` carried by an
  ``scf.for`` whose start value is an ``arith.constant``, where ``OP`` is the reduction's own
  combiner (``arith.addf``, ``mulf``, ``maximumf``, ``maxnumf``, ``minimumf``, ``minnumf``),
  the operand has a ``#ttg.blocked`` layout of rank 2 or more and each thread holds more than
  one element along the axis: the loaded tile is reshaped (``allow_reorder efficient_layout``)
  to split the axis into the part spread over threads and a new last dim holding one thread's
  elements, and only that new dim is reduced in the loop, into a new accumulator that starts at
  ``OP``'s neutral element (+0.0, 1.0, -inf or +inf). After the loop the accumulator is reduced
  along the original axis, converted back to the old accumulator's layout and combined with
  the old start value; the old result's uses read that. The old accumulator slot is left
  passing its argument through (and the old reduction dead) for the canonicalizer, as Triton
  does.

The loop rewrite keeps to what is sound: the reduction has one operand and one use, the update
and the loop's yield are in the loop's own body, the update's other operand is the very loop
argument that slot carries, and the update is the reduction's combiner (with another operation
the new accumulator's start value would be wrong).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tilecraft.dialects.ttg import (context_num_warps, is_expensive_view, num_ctas,
                                    threads_per_warp)
from tilecraft.dialects.ttg_inference import default_blocked
from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.generated.passes import TritonGPUOptimizeThreadLocalityPassBase
from tilecraft.generated.scf import YieldOp
from tilecraft.generated.tt import ReshapeOp
from tilecraft.generated.ttg import BlockedEncodingAttr, ConvertLayoutOp, SliceEncodingAttr
from tilecraft.ir import (Builder, IntegerAttr, Operation, RankedTensorType, UnitAttr, Value,
                          i32)
from tilecraft.ir.patterns import RewritePattern
from tilecraft.layouts.linear import LinearLayout

from .greedy import apply_patterns_greedily
from .transform_utils import constant_op, loop_with_iter_args

__all__ = ["TritonGPUOptimizeThreadLocalityPass", "OptimizeGatherLayout",
           "OptimizeReshapeLayout", "elems_per_thread", "optimize_thread_locality"]

# the combiners the loop rewrite handles, with their neutral elements
_NEUTRAL = {
    "arith.addf": 0.0, "arith.mulf": 1.0,
    "arith.maximumf": -math.inf, "arith.maxnumf": -math.inf,
    "arith.minimumf": math.inf, "arith.minnumf": math.inf,
}


# -- what a layout holds where


def _per_dim_sizes(bases: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Triton's ``basesPerDim`` (broadcasts counted): per dim, two to the number of bases that
    move along it, a basis that moves along none counting for the dim of the basis before it."""
    sizes = [1] * rank
    dim = 0
    for basis in bases:
        dim = next((d for d, c in enumerate(basis) if c), dim)
        sizes[dim] *= 2
    return sizes


def _order_per_dim(bases: Sequence[Sequence[int]], default: Sequence[int]) -> list[int]:
    """Triton's ``orderPerDim``: the dims in the order the bases first move along them, then
    the others in ``default``'s order."""
    order: list[int] = []
    for basis in bases:
        dim = next((d for d, c in enumerate(basis) if c), None)
        if dim is not None and dim not in order:
            order.append(dim)
    return order + [d for d in default if d not in order]


def _layout(type_: RankedTensorType) -> LinearLayout | None:
    return encoding_layout(type_.encoding, tuple(type_.shape))


def elems_per_thread(type_: RankedTensorType) -> list[int] | None:
    """Triton's ``getElemsPerThread``: per dim, the elements one thread holds along it (None
    when the layout has no map here)."""
    layout = _layout(type_)
    if layout is None:
        return None
    return _per_dim_sizes(layout.bases.get("register", []), len(type_.shape))


def _orders(type_: RankedTensorType) -> tuple[list[int], list[int], list[int]] | None:
    """Triton's ``getOrder``, ``getThreadOrder`` and ``getWarpOrder`` of a tensor type: the
    dims in the order its registers, lanes and warps move along them (None when unmapped)."""
    layout = _layout(type_)
    if layout is None:
        return None
    bases = layout.bases
    order = _order_per_dim(bases.get("register", []), range(len(type_.shape) - 1, -1, -1))
    return (order, _order_per_dim(bases.get("lane", []), order),
            _order_per_dim(bases.get("warp", []), order))


def _context(op: Operation) -> tuple[int, int, int] | None:
    """The warps, threads per warp and CTAs ``op`` runs with (None outside a module with
    ``ttg.num-warps``)."""
    warps = context_num_warps(op)
    module = op
    while module is not None and module.name != "builtin.module":
        module = module.parent_op
    if warps is None or module is None:
        return None
    return warps, threads_per_warp(module), num_ctas(module)


# -- reshapes read by reductions


class OptimizeReshapeLayout(RewritePattern):
    """A ``tt.reshape`` with ``allow_reorder`` that reductions along one axis read gets a
    layout holding that axis within threads (see the module docstring)."""

    ROOT = "tt.reshape"
    BENEFIT = 1

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if not op.allow_reorder:
            return False
        axes = {user.axis for user in op.result_.users if user.name == "tt.reduce"}
        if len(axes) != 1:
            return False
        axis = axes.pop()
        type_: RankedTensorType = op.result_.type
        encoding = type_.encoding
        if isinstance(encoding, BlockedEncodingAttr) and \
                encoding.threads_per_warp[axis] == 1 and encoding.warps_per_cta[axis] == 1 and \
                _per_dim_sizes(encoding.cga_layout, len(type_.shape))[axis] == 1:
            return False
        orders, context = _orders(type_), _context(op)
        if orders is None or context is None:
            return False
        order = [d for d in orders[0] if d != axis] + [axis]
        warps, lanes, ctas = context
        new_encoding = default_blocked(type_.shape, warps, lanes, ctas, order=order)
        if new_encoding == encoding:
            return False
        new_type = RankedTensorType(type_.shape, type_.element_type, new_encoding)
        if is_expensive_view(op.src.type, new_type):
            return False

        def retype() -> None:
            op.result_.type = new_type
            op.properties["efficient_layout"] = UnitAttr()

        rewriter.modify_op_in_place(op, retype)
        rewriter.set_insertion_point_after(op)
        convert = rewriter.insert(ConvertLayoutOp.build(type_, op.result_,
                                                        location=op.location))
        rewriter.replace_uses_with_if(op.result_, convert.results[0],
                                      lambda use: use.owner is not convert)
        return True


# -- gathers


def _warp_local_gather_layout(src: RankedTensorType, axis: int, warps: int, lanes: int
                              ) -> BlockedEncodingAttr | None:
    """Triton's warp-local layout for a gather along ``axis`` of ``src``: as many lanes as the
    axis has elements (at most a warp's) along it, the others along the other dims in thread
    order, one warp along the axis and the other warps along the other dims in warp order; the
    axis first in the order; lanes and warps left over repeat along the axis."""
    orders = _orders(src)
    if orders is None:
        return None
    _, thread_order, warp_order = orders
    shape = src.shape
    rank = len(shape)
    lanes_per_dim = [0] * rank
    warps_per_dim = [0] * rank
    lanes_per_dim[axis] = min(shape[axis], lanes)
    lanes_left = lanes // lanes_per_dim[axis]
    order = [axis]
    for dim in thread_order:
        if dim == axis:
            continue
        order.append(dim)
        lanes_per_dim[dim] = min(shape[dim], lanes_left)
        lanes_left //= lanes_per_dim[dim]
    warps_per_dim[axis] = 1
    warps_left = warps
    for dim in warp_order:
        if dim == axis:
            continue
        fit = shape[dim] // lanes_per_dim[dim]
        if fit == 0:
            return None
        warps_per_dim[dim] = min(fit, warps_left)
        warps_left //= warps_per_dim[dim]
    size_per_thread = [1] * rank
    size_per_thread[axis] = shape[axis] // lanes_per_dim[axis]
    lanes_per_dim[axis] *= lanes_left
    warps_per_dim[axis] *= warps_left
    cga_layout = src.encoding.cga_layout if isinstance(src.encoding, BlockedEncodingAttr) else ()
    return BlockedEncodingAttr(size_per_thread, lanes_per_dim, warps_per_dim, order, cga_layout)


class OptimizeGatherLayout(RewritePattern):
    """A ``tt.gather`` of rank 2 or more gets a warp-local layout (see the module docstring)."""

    ROOT = "tt.gather"
    BENEFIT = 1

    def match_and_rewrite(self, op: Operation, rewriter) -> bool:
        if op.efficient_layout:
            return False
        src: RankedTensorType = op.src.type
        if len(src.shape) == 1:
            return False
        context = _context(op)
        layout = None if context is None else \
            _warp_local_gather_layout(src, op.axis, context[0], context[1])
        if layout is None:
            return False
        location = op.location

        def with_layout(value: Value) -> RankedTensorType:
            t = value.type
            return RankedTensorType(t.shape, t.element_type, layout)

        rewriter.set_insertion_point(op)
        new_src = rewriter.insert(ConvertLayoutOp.build(with_layout(op.src), op.src,
                                                        location=location))
        new_indices = rewriter.insert(ConvertLayoutOp.build(with_layout(op.indices), op.indices,
                                                            location=location))
        result_type = op.result_.type
        rewriter.set_insertion_point_after(op)
        back = rewriter.insert(ConvertLayoutOp.build(result_type, op.result_, location=location))
        rewriter.replace_uses_with_if(op.result_, back.results[0],
                                      lambda use: use.owner is not back)

        def relayout() -> None:
            op.op_operands[0].set(new_src.results[0])
            op.op_operands[1].set(new_indices.results[0])
            op.result_.type = with_layout(op.result_)
            op.properties["efficient_layout"] = UnitAttr()

        rewriter.modify_op_in_place(op, relayout)
        return True


# -- reductions carried by loops


def _combiner(reduce: Operation) -> Operation | None:
    """The one op of a reduction's combine region besides its terminator (None otherwise)."""
    if len(reduce.regions) != 1 or len(reduce.regions[0].blocks) != 1:
        return None
    ops = reduce.regions[0].blocks[0].ops
    return ops[0] if len(ops) == 2 else None


class _CarriedReduction:
    """A reduction in a loop that the loop rewrite applies to: the reduction, the update of the
    accumulator with its result, the loop and the accumulator's slot in it."""

    def __init__(self, reduce: Operation, update: Operation, loop: Operation, slot: int,
                 per_thread: int) -> None:
        self.reduce = reduce
        self.update = update
        self.loop = loop
        self.slot = slot
        self.per_thread = per_thread

    @classmethod
    def match(cls, reduce: Operation) -> _CarriedReduction | None:
        """The rewrite's view of ``reduce``, or None when it does not apply."""
        combiner = _combiner(reduce)
        if combiner is None or combiner.name not in _NEUTRAL:
            return None
        if len(reduce.operands) != 1 or len(reduce.results) != 1:
            return None
        src: RankedTensorType = reduce.operands[0].type
        rank, axis = len(src.shape), reduce.axis
        if not isinstance(src.encoding, BlockedEncodingAttr) or rank < 2 or axis != rank - 1:
            return None
        load = reduce.operands[0].defining_op
        if load is None or load.name != "tt.load":
            return None
        per_thread = (elems_per_thread(src) or [1] * rank)[axis]
        if per_thread == 1 or src.shape[axis] % per_thread:
            return None
        if not reduce.results[0].has_one_use():
            return None
        update = reduce.results[0].users[0]
        if update.name != combiner.name or len(update.operands) != 2 or \
                not update.results or not update.results[0].has_one_use():
            return None
        yield_use = update.results[0].uses[0]
        yield_op = yield_use.owner
        loop = reduce.parent_op
        if yield_op.name != "scf.yield" or loop is None or loop.name != "scf.for" or \
                yield_op.parent_op is not loop or update.parent_op is not loop:
            return None
        slot = yield_use.index
        body = loop.regions[0].blocks[0]
        carried = body.arguments[1 + slot]
        accumulator = [v for v in update.operands if v is not reduce.results[0]]
        if accumulator != [carried]:
            return None
        start = loop.operands[3 + slot].defining_op
        if start is None or start.name != "arith.constant":
            return None
        return cls(reduce, update, loop, slot, per_thread)

    def rewrite(self) -> None:
        """Reduces within threads in the loop and across them after it (see the module
        docstring)."""
        reduce, update, loop, slot = self.reduce, self.update, self.loop, self.slot
        location = reduce.location
        src: RankedTensorType = reduce.operands[0].type
        rank, axis = len(src.shape), reduce.axis
        blocked: BlockedEncodingAttr = src.encoding
        per_thread = self.per_thread

        # the split: the axis spread over threads, and a new last dim within each thread
        sizes = list(blocked.size_per_thread) + [blocked.size_per_thread[axis]]
        sizes[axis] = 1
        blocked_split = BlockedEncodingAttr(
            sizes, list(blocked.threads_per_warp) + [1], list(blocked.warps_per_cta) + [1],
            [rank] + list(blocked.order), [basis + (0,) for basis in blocked.cga_layout])
        split_shape = list(src.shape) + [per_thread]
        split_shape[axis] //= per_thread
        split_type = RankedTensorType(split_shape, src.element_type, blocked_split)
        within = SliceEncodingAttr(rank, blocked_split)
        element = src.element_type
        accumulator_type = RankedTensorType(split_shape[:-1], element, within)

        # the new accumulator, right after the old start value
        old_start = loop.operands[3 + slot]
        start = Builder.after(old_start.defining_op, location).insert(
            constant_op(_NEUTRAL[update.name], accumulator_type,
                        old_start.defining_op.location))

        # the loop with one more iter_arg, the old slot passing its argument through
        body = loop.regions[0].blocks[0]
        new_loop = loop_with_iter_args(loop, list(loop.operands[3:]) + [start.results[0]])
        partial = body.add_argument(accumulator_type, location)
        for index, old in enumerate(loop.results):
            old.replace_all_uses_with(new_loop.results[index])
        loop.erase()

        # in the loop: reduce each thread's own elements, fold them into the new accumulator
        at = Builder.after(reduce, location)
        split = at.insert(ReshapeOp.build(split_type, reduce.operands[0], True, True,
                                          location=location))
        local = at.insert(reduce.clone({reduce.operands[0]: split.results[0]}))
        local.properties["axis"] = IntegerAttr(rank, i32)
        local.results[0].type = accumulator_type
        folded = at.insert(update.clone({update.operands[0]: partial,
                                         update.operands[1]: local.results[0]}))
        folded.results[0].type = accumulator_type
        old_yield = body.last_op
        values = list(old_yield.operands)
        values[slot] = body.arguments[1 + slot]
        Builder.before(old_yield, old_yield.location).insert(
            YieldOp.build(values + [folded.results[0]], location=old_yield.location))
        old_yield.erase()

        # after the loop: reduce across threads, back to the old layout, and the start value
        after = Builder.after(new_loop, location)
        total = after.insert(reduce.clone({reduce.operands[0]: new_loop.results[-1]}))
        total.results[0].type = RankedTensorType(
            split_shape[:axis], element, SliceEncodingAttr(axis, within))
        result = new_loop.results[slot]
        back = after.insert(ConvertLayoutOp.build(result.type, total.results[0],
                                                  location=location))
        final = after.insert(update.clone({update.operands[0]: old_start,
                                           update.operands[1]: back.results[0]}))
        final.results[0].type = result.type
        result.replace_all_uses_with(final.results[0])


def optimize_thread_locality(module: Operation) -> None:
    """Runs the three rewrites of the module docstring over ``module``."""
    apply_patterns_greedily(module, [OptimizeReshapeLayout(), OptimizeGatherLayout()])
    for reduce in [op for op in module.walk() if op.name == "tt.reduce"]:
        carried = _CarriedReduction.match(reduce)
        if carried is not None:
            carried.rewrite()


class TritonGPUOptimizeThreadLocalityPass(TritonGPUOptimizeThreadLocalityPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        optimize_thread_locality(op)
