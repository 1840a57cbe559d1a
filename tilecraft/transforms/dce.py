"""``dce``: dead code elimination by liveness, as MLIR's region DCE (``runRegionDCE``) does it.

Optimistic: every value starts dead, and becomes live when a live op uses it. An op is live
when it has effects beyond reading memory or is a terminator (the roots; see `effects`), or
when one of its results is live. Values that only flow around are live only if what they flow
to is:

- an operand a ``cf.br``/``cf.cond_br`` forwards to a block argument is live when that
  argument is;
- the i-th value an ``scf.yield`` of an ``scf.for`` yields is live when the loop's result i or
  its region argument i is (the initial value likewise); for an ``scf.if`` when its result i
  is.

So dead cycles go too: a loop-carried value that only feeds itself, a block argument passed
around a CFG loop. Then: ``scf.for`` loses the loop-carried values and ``scf.if`` the results
that are dead, non-entry blocks lose their dead arguments (and their branches the operands),
and dead ops are erased (statistic ``num-erased``, nested ops included). ``scf.while`` and
other region ops keep all their values. Unreachable blocks are canonicalize's (or sccp's) to
erase.
"""

from __future__ import annotations

from tilecraft.analysis.cfg import successor_operands
from tilecraft.generated.passes import DCEPassBase
from tilecraft.ir import Block, BlockArgument, Operation, OpResult, Value
from tilecraft.ir.traits import Terminator

from .effects import would_be_trivially_dead
from .region_simplify import set_successor_operands
from .rewriter import PatternRewriter

__all__ = ["DCE", "dce"]


def _is_terminator(op: Operation) -> bool:
    return op.is_registered and type(op).has_trait(Terminator)


def _known_branch(term: Operation, index: int) -> bool:
    return term.name in ("cf.br", "cf.cond_br") and successor_operands(term, index) is not None


class _Liveness:
    def __init__(self, root: Operation) -> None:
        self.root = root
        self.live_values: set[Value] = set()
        self.live_ops: set[Operation] = set()
        self.work: list = []
        # block -> [(terminator, successor index)] of the edges into it
        self.edges: dict[Block, list[tuple[Operation, int]]] = {}

    def run(self) -> None:
        ops = [op for region in self.root.regions for op in region.walk()]
        for op in ops:
            for index, succ in enumerate(op.successors):
                self.edges.setdefault(succ, []).append((op, index))
        for block, edges in self.edges.items():
            if not all(_known_branch(t, i) for t, i in edges):
                for arg in block.arguments:  # an unknown branch keeps what it passes
                    self.mark(arg)
        for op in ops:
            if not _is_terminator(op) and not would_be_trivially_dead(op):
                self.work.append(op)
        for region in self.root.regions:
            for block in region.blocks:
                if block.terminator is not None:
                    self.work.append(block.terminator)
        while self.work:
            item = self.work.pop()
            if isinstance(item, Operation):
                self._visit_op(item)
            else:
                self._visit_value(item)

    def mark(self, value: Value) -> None:
        if value not in self.live_values:
            self.live_values.add(value)
            self.work.append(value)

    def _mark_op(self, op: Operation) -> None:
        if op not in self.live_ops:
            self.work.append(op)

    def _visit_op(self, op: Operation) -> None:
        if op in self.live_ops:
            return
        self.live_ops.add(op)
        parent = op.parent_op
        if parent is not None and parent is not self.root and not _is_terminator(op):
            self._mark_op(parent)  # an op that stays keeps the op around it
        for region in op.regions:  # a live op runs its regions to their terminators
            for block in region.blocks:
                if block.terminator is not None:
                    self._mark_op(block.terminator)
        name = op.name
        if name == "scf.for":
            for value in op.operands[:3]:
                self.mark(value)
            return
        if name == "scf.if":
            self.mark(op.operands[0])
            return
        if name == "scf.yield" and parent is not None and parent.name in ("scf.for", "scf.if"):
            return  # the yielded values are live through the results / region arguments
        if op.successors and all(_known_branch(op, i) for i in range(len(op.successors))):
            if name == "cf.cond_br":
                self.mark(op.operands[0])
            return  # forwarded values are live through the block arguments
        for value in op.operands:
            self.mark(value)

    def _visit_value(self, value: Value) -> None:
        if isinstance(value, OpResult):
            op = value.owner
            self._mark_op(op)
            if op.name == "scf.for":
                index = value.index
                self.mark(op.operands[3 + index])
                self.mark(op.regions[0].blocks[0].last_op.operands[index])
            elif op.name == "scf.if":
                for region in op.regions:
                    if region.blocks:
                        self.mark(region.blocks[0].last_op.operands[value.index])
            return
        assert isinstance(value, BlockArgument)
        block = value.owner
        owner = block.parent_op
        if block.is_entry_block():
            if owner is not None and owner.name == "scf.for" and value.index > 0:
                index = value.index - 1
                self.mark(owner.operands[3 + index])
                self.mark(block.last_op.operands[index])
            return
        for term, index in self.edges.get(block, ()):
            values = successor_operands(term, index)
            if values is None:
                for operand in term.operands:
                    self.mark(operand)
            else:
                self.mark(values[value.index])


def dce(root: Operation) -> int:
    """Erase what is dead in the regions of ``root``; returns the number of ops erased."""
    liveness = _Liveness(root)
    liveness.run()
    live_ops, live_values = liveness.live_ops, liveness.live_values
    dead_roots = []
    for region in root.regions:
        for op in region.walk():
            if op in live_ops:
                continue
            parent = op.parent_op
            if parent is root or parent in live_ops:
                dead_roots.append(op)
    erased = sum(1 for op in dead_roots for _ in op.walk())
    for op in dead_roots:
        op.drop_all_references()
    rewriter = PatternRewriter()
    for op in [op for region in root.regions for op in region.walk()]:
        if op not in live_ops or op.parent is None:
            continue
        if op.name == "scf.for":
            body = op.regions[0].blocks[0]
            drop = [i for i, (result, arg) in enumerate(zip(op.results, body.arguments[1:]))
                    if result not in live_values and arg not in live_values]
            if drop:
                from tilecraft.dialects.scf import remove_for_iter_args

                remove_for_iter_args(rewriter, op, drop)
        elif op.name == "scf.if":
            keep = [r.index for r in op.results if r in live_values]
            if len(keep) != op.num_results:
                from tilecraft.dialects.scf import remove_if_results

                new = remove_if_results(rewriter, op, keep)
                else_region = new.regions[1]
                if not keep and else_region.blocks and len(else_region.blocks[0]) == 1:
                    else_region.blocks[0].erase()  # nothing left to do there
    for op in dead_roots:
        if op.parent is not None:
            op.detach()
    for region in [r for op in root.walk() for r in op.regions]:
        for block in region.blocks[1:]:
            _erase_dead_arguments(block, live_values, liveness.edges)
    return erased


def _erase_dead_arguments(block: Block, live_values: set, edges: dict) -> None:
    dead = [a.index for a in block.arguments if a not in live_values]
    if not dead:
        return
    preds = [(t, i) for t, i in edges.get(block, ()) if t.parent is not None]
    if not all(_known_branch(t, i) for t, i in preds):
        return
    if any(block.arguments[i].uses for i in dead):
        return
    for term, index in preds:
        values = successor_operands(term, index)
        set_successor_operands(term, index, [v for position, v in enumerate(values)
                                             if position not in dead])
    for position in reversed(dead):
        block.erase_argument(position)


class DCE(DCEPassBase):
    """The ``dce`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        self.num_erased += dce(op)
