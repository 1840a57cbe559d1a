"""The def-use graph: ops and values as nodes of one ``nx.DiGraph``.

Edges (attribute ``kind``):

- ``"def"``: op -> each of its results;
- ``"use"``: value -> each op using it (attribute ``index``: the operand positions);
- ``"arg"``: op -> the arguments of the blocks of its regions (a loop's induction variable and
  iter_args, a function's parameters), so that producers reach through region entries.

Node attribute ``kind`` is ``"op"`` or ``"value"``. Without the ``"arg"`` edges of blocks whose
values flow through branches, the graph of an SSA program is acyclic, so ops have a
topological order (`topological_ops`); terminators of regions (``scf.yield``) define nothing,
so loops do not close cycles.

Analyses that only need that order and the values coming from outside (axis info) get them from
`def_use_order` and `external_operands` without a graph when, as usual, program order already
defines every value before its uses; networkx is imported when a graph is first built.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from tilecraft.ir import Operation, Value

if TYPE_CHECKING:
    import networkx as nx


class DefUseGraph:
    """The def-use graph of every op nested in ``root`` (``root`` included)."""

    def __init__(self, root: Operation, *, region_args: bool = True) -> None:
        import networkx as nx

        self.root = root
        graph = nx.DiGraph()
        self.ops: list[Operation] = []
        for op in root.walk():
            self.ops.append(op)
            graph.add_node(op, kind="op")
            for result in op.results:
                graph.add_node(result, kind="value")
                graph.add_edge(op, result, kind="def")
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        graph.add_node(arg, kind="value")
                        if region_args:
                            graph.add_edge(op, arg, kind="arg")
        for op in self.ops:
            for index, operand in enumerate(op.operands):
                if operand not in graph:
                    graph.add_node(operand, kind="value")  # defined outside ``root``
                if graph.has_edge(operand, op):
                    graph.edges[operand, op]["index"].append(index)
                else:
                    graph.add_edge(operand, op, kind="use", index=[index])
        self.graph = graph

    def __contains__(self, node: object) -> bool:
        return node in self.graph

    def values(self) -> list[Value]:
        return [n for n, kind in self.graph.nodes(data="kind") if kind == "value"]

    def users(self, value: Value) -> list[Operation]:
        """The ops using ``value`` directly (each once)."""
        return list(self.graph.successors(value))

    def producer(self, value: Value) -> Operation | None:
        """The op defining ``value`` (for a block argument: the op owning its region)."""
        preds = list(self.graph.predecessors(value))
        return preds[0] if preds else None

    def operands(self, op: Operation) -> list[Value]:
        """The distinct values ``op`` uses."""
        return list(self.graph.predecessors(op))

    def transitive_users(self, node: Operation | Value) -> set[Operation]:
        """Every op that (through results and region arguments) depends on ``node``."""
        import networkx as nx

        return {n for n in nx.descendants(self.graph, node) if isinstance(n, Operation)}

    def transitive_producers(self, node: Operation | Value) -> set[Operation]:
        """Every op whose results (or region arguments) ``node`` depends on."""
        import networkx as nx

        return {n for n in nx.ancestors(self.graph, node) if isinstance(n, Operation)}

    def transitive_values(self, node: Operation | Value, *, forward: bool = True) -> set[Value]:
        """The values reachable from ``node`` (``forward``) or that reach it."""
        import networkx as nx

        nodes = nx.descendants(self.graph, node) if forward else nx.ancestors(self.graph, node)
        return {n for n in nodes if isinstance(n, Value)}

    def slice(self, roots: Iterable[Operation | Value], *, forward: bool = True) -> nx.DiGraph:
        """The subgraph induced by ``roots`` and everything reachable from (or reaching) them."""
        import networkx as nx

        keep: set = set()
        for node in roots:
            keep.add(node)
            keep |= (nx.descendants(self.graph, node) if forward
                     else nx.ancestors(self.graph, node))
        return self.graph.subgraph(keep)

    def topological_ops(self) -> list[Operation]:
        """The ops in a def-before-use order (program order breaks ties; if values flow in a
        cycle, as through graph regions, program order is returned)."""
        import networkx as nx

        position = {op: i for i, op in enumerate(self.ops)}
        try:
            order = nx.lexicographical_topological_sort(
                self.graph, key=lambda n: position.get(n, -1) if isinstance(n, Operation) else -1)
            return [n for n in order if isinstance(n, Operation)]
        except nx.NetworkXUnfeasible:
            return list(self.ops)

    def is_dead(self, op: Operation) -> bool:
        """Whether no result of ``op`` is used."""
        return all(self.graph.out_degree(r) == 0 for r in op.results)


def _defines(op: Operation) -> Iterator[Value]:
    """The results of ``op`` and the arguments of the blocks of its regions."""
    yield from op.results
    for region in op.regions:
        for block in region.blocks:
            yield from block.arguments


def _defined_values(ops: Sequence[Operation]) -> set[Value]:
    return {value for op in ops for value in _defines(op)}


def external_operands(ops: Sequence[Operation]) -> list[Value]:
    """The values ``ops`` use that none of them defines, in the order of their first use (as
    `DefUseGraph.values` lists them after those defined inside)."""
    defined = _defined_values(ops)
    external: dict[Value, None] = {}
    for op in ops:
        for operand in op.operands:
            if operand not in defined:
                external[operand] = None
    return list(external)


def def_use_order(root: Operation) -> list[Operation]:
    """The ops nested in ``root`` (``root`` included) in `DefUseGraph.topological_ops`' order.
    When the walk order defines each value before its uses (the structured regions and
    dominance-ordered blocks that the frontend and the passes build), that order is the walk
    order, and no graph is built."""
    ops = list(root.walk())
    inside = _defined_values(ops)
    defined: set[Value] = set()
    for op in ops:
        if any(operand in inside and operand not in defined for operand in op.operands):
            return DefUseGraph(root).topological_ops()
        defined.update(_defines(op))
    return ops


__all__ = ["DefUseGraph", "def_use_order", "external_operands"]
