"""`tritongpu-prefetch`: in a loop, the dot reads its operands from shared memory one slice of K
at a time, and the first slice of the next iteration is loaded before the loop ends, as
Triton's Prefetch pass does.

After the ``ttg.convert_layout`` canonicalizations, each ``scf.for`` whose body holds exactly one
``tt.dot`` (directly), with an ``#ttg.nvidia_mma`` version 2 or ``#ttg.amd_mfma`` result, and no
TMA copy, is rewritten when both operands of that dot are *prefetchable*:

* An operand is a ``ttg.local_load`` into a ``#ttg.dot_op`` layout of a shared memory
  descriptor (its *source*), followed by single-operand ops, each value of the chain used once
  (`prefetch_chain`); the source, and the load's token if it has one, are *tracked*.
* Either both sources are loop-carried (block arguments of the body), or a load has a token
  and the sources and tokens are computed in the body from values that can be recomputed
  anywhere (`is_promotable`): values from outside, the induction variable, loop-carried
  values, and element-wise ops, constants, ``ttg.async_wait`` and ``ttg.memdesc_index`` of
  such values (as the pipeliner's ring of buffers gives them).
* K is at least, and a multiple of, the slice width: ``8 * kWidth`` of the operands (``256 /
  bits`` without a kWidth).

Then, with slices ``ttg.memdesc_subslice`` of the source along K (``[0, k]`` in A, ``[k, 0]``
in B; the leading batch dim stays) loaded into ``#ttg.dot_op`` layouts of ``kWidth = width /
8``, and the chain's ops repeated on each slice:

* **Prologue**: before the loop, the tracked values are recomputed for the first iteration
  (the induction variable is the lower bound, loop-carried values their inits) and the first
  slice of each operand is loaded.
* **Loop**: new loop arguments carry, in this order, A's and B's sources and A's and B's tokens
  where they are not loop-carried already (their prologue values as inits; the same value
  twice when both loads share a token), then the two first slices. The dot becomes a chain of
  dots, the first on the carried slices, each next one on the next slice (loaded right before
  it, from the carried source and token) with the previous result as accumulator. The last
  dot sinks below the ops after it that neither use it nor hold regions.
* **Next iteration**: before the yield (and above the sunk dot), the tracked values are
  recomputed for the next iteration (the induction variable plus the step, loop-carried
  values as yielded), sources first, and yielded for the new arguments; its first slices are
  loaded from them and yielded.

Each of the four tracked values is recomputed on its own, as Triton's pass does: a token that
both loads share is waited for twice at the end of the body (the second wait finds the first's
state), and the two carried tokens stay two loop arguments.

Other loops and dots outside loops are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tilecraft.generated.passes import TritonGPUPrefetchPassBase
from tilecraft.generated.arith import AddIOp
from tilecraft.generated.scf import YieldOp
from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, ConvertLayoutOp,
                                     DotOperandEncodingAttr, LocalLoadOp, MemDescSubsliceOp,
                                     MemDescType, NvidiaMmaEncodingAttr)
from tilecraft.ir import Block, BlockArgument, Builder, Operation, RankedTensorType, Value
from tilecraft.ir.traits import ConstantLike, Elementwise
from tilecraft.transforms.greedy import apply_patterns_greedily
from tilecraft.transforms.transform_utils import loop_with_iter_args

__all__ = ["TritonGPUPrefetchPass", "is_promotable", "prefetch_chain", "prefetch_loops",
           "slice_width"]

#: Ops whose copies may be made anywhere a loop's tracked values are recomputed.
_RECOMPUTABLE_OPS = frozenset({"ttg.async_wait", "ttg.memdesc_index"})
_TMA_COPIES = frozenset({"ttng.async_tma_copy_global_to_local",
                         "ttng.async_tma_copy_local_to_global"})


def slice_width(k_width: int, element_bits: int) -> int:
    """K of one prefetched slice: ``8 * kWidth``, or ``256 / bits`` without a kWidth."""
    return 8 * k_width if k_width else 256 // element_bits


def prefetch_chain(operand: Value) -> list[Value] | None:
    """``[source, loaded, ...chain..., operand]``: the shared memory descriptor the dot operand
    ``operand`` is loaded from by a ``ttg.local_load`` into a ``#ttg.dot_op`` layout, then
    the values of the single-operand ops from the load to ``operand``, each used once; None
    when ``operand`` is not so loaded."""
    chain = [operand]
    value = operand
    while isinstance(value.owner, Operation):
        op = value.owner
        if len(list(op.results[0].uses)) != 1:
            return None
        if isinstance(op, LocalLoadOp):
            if not isinstance(op.results[0].type.encoding, DotOperandEncodingAttr):
                return None
            chain.append(op.operands[0])
            return chain[::-1]
        if op.num_operands != 1:
            return None
        value = op.operands[0]
        chain.append(value)
    return None


def _load_of(chain: list[Value]) -> Operation:
    return chain[1].owner


def is_promotable(value: Value | None, body: Block) -> bool:
    """Whether ``value`` (a loop's tracked value) can be recomputed before the loop and at the
    end of its body ``body`` (see the module docstring)."""
    if value is None or isinstance(value, BlockArgument):
        return True
    op = value.owner
    if op.parent is not body:
        return True
    if op.regions:
        return False
    kind = type(op)
    if not (kind.has_trait(Elementwise) or kind.has_trait(ConstantLike)
            or op.name in _RECOMPUTABLE_OPS):
        return False
    return all(is_promotable(operand, body) for operand in op.operands)


@dataclass
class _Operand:
    """What is tracked of one operand of the dot: its chain and the load's token."""

    chain: list[Value]
    token: Value | None

    @property
    def source(self) -> Value:
        return self.chain[0]


class _Prefetcher:
    """The rewrite of one loop (see the module docstring)."""

    def __init__(self, loop: Operation) -> None:
        self.loop = loop
        self.body: Block = loop.regions[0].blocks[0]
        self.iv: BlockArgument = self.body.arguments[0]
        self.yield_op: Operation = self.body.last_op
        self.dot: Operation | None = None
        self.operands: tuple[_Operand, _Operand] | None = None
        self.width = 0

    # -- analysis

    def _carried(self, value: Value | None) -> bool:
        return (isinstance(value, BlockArgument) and value.owner is self.body
                and value is not self.iv)

    def _init_of(self, arg: BlockArgument) -> Value:
        return self.loop.operands[3 + arg.index - 1]

    def _yielded(self, arg: BlockArgument) -> Value:
        return self.yield_op.operands[arg.index - 1]

    def match(self) -> bool:
        """Whether the loop is rewritten; finds its dot and operands."""
        dots = []
        for op in self.body:
            if op.name == "tt.dot":
                encoding = op.results[0].type.encoding
                if not (isinstance(encoding, NvidiaMmaEncodingAttr)
                        and encoding.version_major == 2
                        or isinstance(encoding, AMDMfmaEncodingAttr)):
                    return False
                dots.append(op)
            if op.name in _TMA_COPIES:
                return False
        if len(dots) != 1:
            return False
        dot = dots[0]
        a_type: RankedTensorType = dot.operands[0].type
        if not isinstance(a_type.encoding, DotOperandEncodingAttr):
            return False
        width = slice_width(a_type.encoding.k_width, a_type.element_type.width)
        k = a_type.shape[-1]
        if k < width or k % width:
            return False
        chains = [prefetch_chain(dot.operands[i]) for i in (0, 1)]
        if chains[0] is None or chains[1] is None:
            return False
        operands = tuple(_Operand(chain, _load_of(chain).token) for chain in chains)
        carried = all(self._carried(o.source) for o in operands)
        tracked = [v for o in operands for v in (o.source, o.token)]
        promotable = (any(o.token is not None for o in operands)
                      and all(is_promotable(v, self.body) for v in tracked))
        if not (carried or promotable):
            return False
        self.dot, self.operands, self.width = dot, operands, width
        return True

    # -- recomputing tracked values

    def _recompute(self, value: Value | None, builder: Builder,
                   map_arg: Callable[[BlockArgument], Value], cache: dict) -> Value | None:
        """``value`` computed again at ``builder``: the body's ops on its path are copied,
        block arguments of the body mapped by ``map_arg``."""
        if value is None:
            return None
        if value in cache:
            return cache[value]
        if isinstance(value, BlockArgument):
            result = map_arg(value) if value.owner is self.body else value
        elif value.owner.parent is not self.body:
            result = value
        else:
            op = value.owner
            mapping = {operand: self._recompute(operand, builder, map_arg, cache)
                       for operand in op.operands}
            copy = builder.insert(op.clone(mapping))
            for old, new in zip(op.results, copy.results):
                cache[old] = new
            result = cache[value]
        cache[value] = result
        return result

    def _first_iteration(self, arg: BlockArgument) -> Value:
        return self.loop.operands[0] if arg is self.iv else self._init_of(arg)

    # -- slices

    def _slice(self, builder: Builder, operand: _Operand, index: int, source: Value,
               token: Value | None, offset: int) -> Value:
        """The ``offset`` slice of ``source`` along K loaded, the operand's chain repeated."""
        memdesc: MemDescType = source.type
        shape = list(memdesc.shape)
        offsets = [0] * len(shape)
        k_dim = len(shape) - 1 if index == 0 else len(shape) - 2
        shape[k_dim], offsets[k_dim] = self.width, offset
        view_type = MemDescType(shape, memdesc.element_type, memdesc.encoding,
                                memdesc.memory_space, memdesc.mutable_memory,
                                memdesc.alloc_shape or memdesc.shape)
        location = self.dot.location
        view = builder.insert(MemDescSubsliceOp.build(view_type, source, tuple(offsets),
                                                      location=location)).results[0]
        encoding = DotOperandEncodingAttr(index, self.dot.results[0].type.encoding,
                                          self.width // 8)
        loaded = builder.insert(LocalLoadOp.build(
            RankedTensorType(shape, memdesc.element_type, encoding), view, token,
            location=location)).results[0]
        value = loaded
        for step in operand.chain[2:]:
            op = step.owner
            copy = builder.insert(op.clone({op.operands[0]: value}))
            result_type = copy.results[0].type
            if isinstance(result_type, RankedTensorType):
                copy.results[0].type = RankedTensorType(shape, result_type.element_type,
                                                        value.type.encoding)
            value = copy.results[0]
        return value

    # -- the rewrite

    def rewrite(self) -> None:
        """Rewrites the matched loop (see the module docstring)."""
        loop, body, dot = self.loop, self.body, self.dot
        location = loop.location
        before = Builder.before(loop, location)
        cache: dict = {}
        heads = []
        for index, operand in enumerate(self.operands):
            source = self._recompute(operand.source, before, self._first_iteration, cache)
            token = self._recompute(operand.token, before, self._first_iteration, cache)
            heads.append(self._slice(before, operand, index, source, token, 0))

        # A's and B's sources, then their tokens, where not loop-carried, and the two first
        # slices, carried in new loop arguments
        values = [o.source for o in self.operands] + [o.token for o in self.operands]
        tracked = [v for v in values if v is not None and not self._carried(v)]
        inits = [self._recompute(v, before, self._first_iteration, cache) for v in tracked]
        new_loop = loop_with_iter_args(loop, list(loop.operands[3:]) + inits + heads)
        tracked_args = [body.add_argument(v.type, location) for v in inits]
        head_args = [body.add_argument(v.type, location) for v in heads]
        slots = iter(tracked_args)

        def in_body(value: Value | None) -> Value | None:
            """A tracked value as the body reads it: its new argument (taken in the order of
            ``tracked``), or itself where it is loop-carried already or absent."""
            return value if value is None or self._carried(value) else next(slots)

        sources = [in_body(o.source) for o in self.operands]
        tokens = [in_body(o.token) for o in self.operands]

        # the chain of dots over the slices
        first = Builder.before(dot, dot.location).insert(
            dot.clone({dot.operands[0]: head_args[0], dot.operands[1]: head_args[1]}))
        last = first
        for offset in range(self.width, dot.operands[0].type.shape[-1], self.width):
            at = Builder.before(last, dot.location)
            a, b = (self._slice(at, o, i, sources[i], tokens[i], offset)
                    for i, o in enumerate(self.operands))
            last = Builder.after(last, dot.location).insert(
                dot.clone({dot.operands[0]: a, dot.operands[1]: b,
                           dot.operands[2]: last.results[0]}))
        dot.results[0].replace_all_uses_with(last.results[0])
        dot.erase()

        # the last dot sinks below what neither uses it nor holds regions
        stop = last.next_op
        while stop is not self.yield_op and not stop.regions and not any(
                v is last.results[0] for v in stop.operands):
            stop = stop.next_op
        last.move_before(stop)
        at_end = Builder.before(last if stop is self.yield_op else self.yield_op, location)

        # the next iteration's tracked values and first slices, yielded
        def next_iteration(arg: BlockArgument) -> Value:
            if arg is self.iv:
                return at_end.insert(AddIOp.build(arg, loop.operands[2],
                                                  location=location)).results[0]
            return self._yielded(arg)

        def following(value: Value | None) -> Value | None:
            """``value`` for the next iteration, its ops copied afresh for each tracked value
            (as Triton's pass does: a token both loads share is waited for twice)."""
            if self._carried(value):
                return self._yielded(value)
            return self._recompute(value, at_end, next_iteration, {})

        following_values = [following(v) for v in values]
        next_heads = [self._slice(at_end, o, i, following_values[i], following_values[2 + i], 0)
                      for i, o in enumerate(self.operands)]
        yielded = [*self.yield_op.operands,
                   *(n for v, n in zip(values, following_values)
                     if v is not None and not self._carried(v)),
                   *next_heads]
        Builder.before(self.yield_op, location).insert(YieldOp.build(yielded,
                                                                     location=location))
        self.yield_op.erase()
        for operand in self.operands:
            for value in reversed(operand.chain[1:]):
                value.owner.erase()
        for old, new in zip(loop.results, new_loop.results):
            old.replace_all_uses_with(new)
        loop.erase()


def _canonicalize_conversions(module: Operation) -> None:
    apply_patterns_greedily(module, ConvertLayoutOp.get_canonicalization_patterns())


def prefetch_loops(module: Operation) -> int:
    """Rewrites the module's loops as the module docstring says; returns how many."""
    _canonicalize_conversions(module)
    count = 0
    for loop in [op for op in module.walk() if op.name == "scf.for"]:
        prefetcher = _Prefetcher(loop)
        if prefetcher.match():
            prefetcher.rewrite()
            count += 1
    return count


class TritonGPUPrefetchPass(TritonGPUPrefetchPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        prefetch_loops(op)
