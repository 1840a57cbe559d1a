"""Control-flow graphs of regions, and helpers for the region structure of the IR.

A region's CFG is an ``nx.DiGraph`` whose nodes are the region's blocks and whose edges go from
a block to each successor of its terminator (``cf.br``, ``cf.cond_br``, or any op with
successors). Control flow *between* regions (``scf.for``/``scf.if``/``scf.while``/
``ttg.warp_specialize`` running their regions) is not part of these graphs: each region has its
own CFG, as in MLIR. networkx is imported when a graph is first built: the region helpers and
`successor_operands` need none.
`region_successors` describes it per op (MLIR's ``RegionBranchOpInterface``) and
`region_flow_graph` joins an op's regions into one graph with the op as entry and exit node.

`successor_operands(term, index)` says which operands of a branch are forwarded to the
arguments of its ``index``-th successor (``cf.br``: all; ``cf.cond_br``: its segment; an
unknown branch with one successor: all operands; otherwise ``None``, unknown).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tilecraft.ir import Block, Operation, Region, Value

if TYPE_CHECKING:
    import networkx as nx


def successor_operands(term: Operation, index: int) -> list[Value] | None:
    """The operands that ``term`` forwards to the arguments of ``term.successors[index]``,
    or None when the op's operand-to-successor mapping is unknown."""
    name = term.name
    if name == "cf.br":
        return list(term.operands)
    if name == "cf.cond_br":
        segments = term.get_attr("operandSegmentSizes")
        if segments is None:
            return None
        sizes = list(segments.values)
        start = sizes[0] + (sizes[1] if index == 1 else 0)
        return list(term.operands[start:start + sizes[1 + index]])
    if len(term.successors) == 1:
        dest = term.successors[0]
        if len(dest.arguments) == term.num_operands:
            return list(term.operands)
        return None
    return None


def region_cfg(region: Region) -> nx.DiGraph:
    """The block CFG of ``region``: every block is a node (unreachable ones too), with an edge
    ``b -> s`` for each successor ``s`` of ``b``'s terminator (edge attribute ``indices``: the
    successor positions, a branch may name a block twice)."""
    import networkx as nx

    graph = nx.DiGraph()
    for block in region.blocks:
        graph.add_node(block)
    for block in region.blocks:
        term = block.terminator
        if term is None:
            continue
        for index, succ in enumerate(term.successors):
            if graph.has_edge(block, succ):
                graph.edges[block, succ]["indices"].append(index)
            else:
                graph.add_edge(block, succ, indices=[index])
    return graph


class RegionCFG:
    """The CFG of one region with the usual queries (all answered with networkx)."""

    def __init__(self, region: Region) -> None:
        self.region = region
        self.graph: nx.DiGraph = region_cfg(region)
        self.entry: Block | None = region.entry_block

    def successors(self, block: Block) -> list[Block]:
        return list(self.graph.successors(block))

    def predecessors(self, block: Block) -> list[Block]:
        return list(self.graph.predecessors(block))

    def reachable(self) -> set[Block]:
        """The blocks reachable from the entry block (the entry included)."""
        if self.entry is None:
            return set()
        import networkx as nx

        return nx.descendants(self.graph, self.entry) | {self.entry}

    def unreachable(self) -> list[Block]:
        """The blocks that cannot be reached from the entry, in region order."""
        live = self.reachable()
        return [b for b in self.region.blocks if b not in live]

    def exit_blocks(self) -> list[Block]:
        """Blocks whose terminator has no successors (returns, yields), in region order."""
        return [b for b in self.region.blocks if self.graph.out_degree(b) == 0]

    def reverse_post_order(self) -> list[Block]:
        """The reachable blocks in reverse post-order of a DFS from the entry."""
        if self.entry is None:
            return []
        import networkx as nx

        return list(reversed(list(nx.dfs_postorder_nodes(self.graph, self.entry))))

    def back_edges(self) -> list[tuple[Block, Block]]:
        """Edges ``b -> h`` where ``h`` dominates ``b`` (the natural-loop back edges)."""
        if self.entry is None:
            return []
        import networkx as nx

        idom = dict(nx.immediate_dominators(self.graph, self.entry))
        idom[self.entry] = self.entry  # networkx >= 3.5 leaves the root out
        result = []
        for src, dst in self.graph.edges:
            if src not in idom:
                continue
            node = src
            while True:
                if node is dst:
                    result.append((src, dst))
                    break
                parent = idom[node]
                if parent is node:
                    break
                node = parent
        return result

    def has_cycle(self) -> bool:
        """Whether some blocks branch in a cycle."""
        import networkx as nx

        return not nx.is_directed_acyclic_graph(self.graph)


# -- structured control flow between regions

#: Stands for "back to the op" (control leaves the regions; the op's results are defined).
PARENT = -1


def region_successors(op: Operation, point: int | None) -> list[int] | None:
    """Where structured control flow goes next, as MLIR's ``getSuccessorRegions``: from the op
    itself (``point`` None) or from the end of its region ``point``, the indices of the regions
    that may run next, `PARENT` for leaving to the op's results. ``ttg.warp_specialize`` runs
    its default region (then leaves) and the region holding its partitions op, which runs each
    partition region; nothing flows out of a partition. None for ops whose regions are not
    known (their regions may run any number of times, in any order)."""
    name = op.name
    if name == "scf.for":
        return [0, PARENT]
    if name == "scf.if":
        if point is None:
            has_else = len(op.regions) > 1 and bool(op.regions[1].blocks)
            return [0, 1] if has_else else [0, PARENT]
        return [PARENT]
    if name == "scf.while":
        return {None: [0], 0: [1, PARENT], 1: [0]}.get(point)
    if name in ("tt.reduce", "tt.scan"):
        return [0] if point is None else [0, PARENT]
    if name == "ttg.warp_specialize":
        return {None: [0, 1], 0: [PARENT]}.get(point, [])
    if name == "ttg.warp_specialize.partitions":
        return list(range(len(op.regions))) if point is None else []
    return None


def region_flow_graph(op: Operation) -> nx.DiGraph:
    """The region-aware CFG of ``op``: the blocks of its regions with their branch edges, plus
    ``op`` itself as the node where control enters and leaves, with edges from ``op`` to the
    entry blocks of the regions it may run first, and from each block ending its region (a
    terminator without successors) to the regions that may run next (or back to ``op``).
    Ops with unknown region semantics are joined conservatively: any region after any."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_node(op)
    for region in op.regions:
        graph.add_edges_from(region_cfg(region).edges)
        graph.add_nodes_from(region.blocks)

    def targets(point: int | None) -> list:
        succ = region_successors(op, point)
        if succ is None:
            succ = [PARENT] + list(range(len(op.regions)))
        return [op if i == PARENT else op.regions[i].blocks[0] for i in succ
                if i == PARENT or op.regions[i].blocks]

    graph.add_edges_from((op, t) for t in targets(None))
    for index, region in enumerate(op.regions):
        for block in region.blocks:
            term = block.terminator
            if term is None or not term.successors:
                graph.add_edges_from((block, t) for t in targets(index))
    return graph


def is_loop(op: Operation) -> bool:
    """Whether some region of ``op`` may run again after it ends (``scf.for``, ``scf.while``,
    reductions' combine regions), or contains a branch cycle."""
    if not op.regions:
        return False
    import networkx as nx

    graph = region_flow_graph(op)
    graph.remove_node(op)
    return not nx.is_directed_acyclic_graph(graph)


# -- region structure


def regions_of(op: Operation) -> Iterator[Region]:
    """Every region nested in ``op`` (its own regions, then theirs), pre-order."""
    for nested in op.walk():
        yield from nested.regions


def ancestor_in_region(op: Operation, region: Region) -> Operation | None:
    """``op`` itself or the op enclosing it whose parent region is ``region`` (None if ``op``
    is not inside ``region``)."""
    while op is not None:
        if op.parent_region is region:
            return op
        op = op.parent_op
    return None


def ancestor_block_in_region(block: Block, region: Region) -> Block | None:
    """``block`` or the block of ``region`` that (through its ops' regions) contains it."""
    while block is not None:
        if block.parent is region:
            return block
        owner = block.parent_op
        block = owner.parent if owner is not None else None
    return None


def value_region(value: Value) -> Region | None:
    """The region where ``value`` is defined (its block's region)."""
    block = value.parent_block
    return block.parent if block is not None else None


__all__ = [
    "RegionCFG", "region_cfg", "successor_operands", "PARENT", "region_successors",
    "region_flow_graph", "is_loop", "regions_of", "ancestor_in_region",
    "ancestor_block_in_region", "value_region",
]
