"""`tritongpu-remove-layout-conversions`: remove ``ttg.convert_layout`` ops by choosing layouts
for the code between the ops whose layouts matter, in phases (as Triton's pass does):

1. forward propagation of the anchors' layouts to the code that uses them, and a rewrite of
   each function in those layouts (`layout_propagation`);
2. backward rematerialization, repeated while it removes conversions: a conversion whose source
   can be computed in the target layout cheaply enough is replaced by that computation
   (`layout_rematerialization`);
3. hoisting (`layout_hoisting`) of the conversions that stay: above extensions and
   broadcasts, into the branch of an ``scf.if`` that needs them, and up to the loads before an
   mma dot;
4. cleanup: loop-carried values that nothing live needs (a liveness graph: effects, returns and
   control flow make values live, and liveness flows back through ops, branches and loops) are
   dropped, and conversions canonicalized (folded into their producers, removed when they
   convert to the same layout).

Layouts the pass cannot map (attributes it does not know) stay where they are, with the
conversions from and to them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tilecraft.generated import scf as scf_ops
from tilecraft.generated import ttg as ttg_ops
from tilecraft.generated.passes import TritonGPURemoveLayoutConversionsPassBase
from tilecraft.ir import Operation
from tilecraft.ir.traits import Terminator

from .greedy import apply_patterns_greedily
from .patterns import PatternSet
from .layout_propagation import propagate_layouts
from .layout_hoisting import hoist_conversions
from .layout_rematerialization import backward_rematerialization
from .effects import is_memory_effect_free

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["TritonGPURemoveLayoutConversionsPass", "remove_layout_conversions"]


def _cleanup(module: Operation, *, loops: bool = False) -> None:
    apply_patterns_greedily(module, _cleanup_patterns(loops))


@functools.cache
def _cleanup_patterns(loops: bool) -> PatternSet:
    """The canonicalization patterns of ``ttg.convert_layout`` (and, with ``loops``, of
    ``scf.for`` and ``scf.if``), made once: patterns hold no state."""
    patterns = list(ttg_ops.ConvertLayoutOp.get_canonicalization_patterns())
    if loops:
        patterns += scf_ops.ForOp.get_canonicalization_patterns()
        patterns += scf_ops.IfOp.get_canonicalization_patterns()
    return PatternSet(patterns)


_ROOT = "live"


def _liveness_graph(module: Operation) -> nx.DiGraph:
    """Edges ``a -> b``: if ``a`` is live, so is ``b``; the node ``_ROOT`` reaches what ops
    with effects, terminators that return and control flow need (MLIR's liveness analysis,
    conservative about branch conditions and loop bounds)."""
    import networkx as nx

    graph = nx.DiGraph()
    for op in module.walk():
        name = op.name
        parent = op.parent_op
        if name == "scf.yield" and parent is not None and parent.name in ("scf.for", "scf.if",
                                                                          "scf.while"):
            for k, value in enumerate(op.operands):
                if parent.name == "scf.for":
                    sources = [parent.results[k], parent.region.blocks[0].arguments[k + 1]]
                elif parent.name == "scf.if":
                    sources = [parent.results[k]]
                else:
                    sources = [parent.regions[0].blocks[0].arguments[k]]
                graph.add_edges_from((source, value) for source in sources)
        elif name == "scf.condition":
            graph.add_edge(_ROOT, op.operands[0])
            after = parent.regions[1].blocks[0]
            for k, value in enumerate(op.operands[1:]):
                graph.add_edges_from([(parent.results[k], value), (after.arguments[k], value)])
        elif name == "scf.for":
            first = len(op.operands) - len(op.init_args)
            graph.add_edges_from((_ROOT, bound) for bound in op.operands[:first])
            body = op.region.blocks[0]
            for k, init in enumerate(op.init_args):
                graph.add_edges_from([(op.results[k], init), (body.arguments[k + 1], init)])
        elif name == "scf.while":
            before = op.regions[0].blocks[0]
            graph.add_edges_from(zip(before.arguments, op.operands))
        elif name == "scf.if":
            graph.add_edge(_ROOT, op.operands[0])
        elif not is_memory_effect_free(op) or op.has_trait(Terminator):
            graph.add_edges_from((_ROOT, value) for value in op.operands)
        else:
            graph.add_edges_from((result, value) for result in op.results
                                 for value in op.operands)
    graph.add_node(_ROOT)
    return graph


def _eliminate_dead_iter_args(module: Operation) -> None:
    """Gives the uses of loop-carried values that nothing live needs the initial value (the
    cleanup then drops them), as Triton's runDeadIterArgElimination. Without such loops there is
    nothing to do, and no graph (nor networkx) is needed."""
    loops = [op for op in module.walk() if op.name == "scf.for" and op.init_args]
    if not loops:
        return
    import networkx as nx

    live = nx.descendants(_liveness_graph(module), _ROOT)
    for loop in loops:
        body = loop.region.blocks[0]
        for k, init in enumerate(loop.init_args):
            if body.arguments[k + 1] not in live:
                body.arguments[k + 1].replace_all_uses_with(init)


def remove_layout_conversions(module: Operation) -> None:
    """Removes what conversions it can from ``module`` (see the module docstring)."""
    for func in [op for op in module.walk() if op.name == "tt.func"]:
        propagate_layouts(func)
    _cleanup(module)
    while backward_rematerialization(module):
        _cleanup(module)
    hoist_conversions(module)
    _eliminate_dead_iter_args(module)
    _cleanup(module, loops=True)


class TritonGPURemoveLayoutConversionsPass(TritonGPURemoveLayoutConversionsPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        remove_layout_conversions(op)
