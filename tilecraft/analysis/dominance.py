"""Region-aware dominance and post-dominance, as MLIR defines them for nested regions.

Each region gets its own dominator tree, computed on demand from its block CFG with
``nx.immediate_dominators`` (post-dominators: on the reversed CFG from a virtual exit joined to
every block without successors). Queries across regions follow MLIR's ``DominanceInfo``:

- op ``a`` properly dominates op ``b`` when ``b`` (or its ancestor in ``a``'s region) is in a
  block properly dominated by ``a``'s block, or comes after ``a`` in the same block, or is
  nested inside ``a`` (``enclosing_op_ok``, the default);
- a block argument dominates every op in (or nested in) a block its block dominates; an op
  result properly dominates ``b`` when its op does, except for ops nested in the defining op;
- blocks in graph regions (``builtin.module``'s body) dominate each other's ops in any order;
- an unreachable block is dominated by every block and dominates only unreachable blocks
  (LLVM's convention).

The analysis is a snapshot: rebuild it (or call `invalidate`) after changing the CFG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilecraft.analysis.cfg import ancestor_block_in_region, ancestor_in_region, region_cfg, \
    regions_of
from tilecraft.ir import Block, BlockArgument, Operation, Region, Value

if TYPE_CHECKING:
    import networkx as nx

#: Ops whose regions are graph regions (no SSA dominance inside a block).
GRAPH_REGION_OPS: set[str] = {"builtin.module"}

_EXIT = "<virtual exit>"


def has_ssa_dominance(region: Region | None) -> bool:
    """Whether ``region`` orders definitions before uses (False for graph regions)."""
    if region is None or region.parent is None:
        return True
    return region.parent.name not in GRAPH_REGION_OPS


class _Tree:
    """One region's dominator tree: the idom map and DFS intervals for O(1) queries."""

    def __init__(self, graph: nx.DiGraph, root) -> None:
        import networkx as nx

        self.graph = graph
        self.root = root
        self.idom: dict = dict(nx.immediate_dominators(graph, root)) if root is not None else {}
        if root is not None:
            self.idom[root] = root  # networkx >= 3.5 leaves the root out
        self.tree = nx.DiGraph()
        self.tree.add_nodes_from(self.idom)
        self.tree.add_edges_from((parent, node) for node, parent in self.idom.items()
                                 if parent is not node)
        self.enter: dict = {}
        self.leave: dict = {}
        if root is not None:
            clock = 0
            for parent, child, label in nx.dfs_labeled_edges(self.tree, root):
                if label == "forward":
                    self.enter[child] = clock
                elif label == "reverse":
                    self.leave[child] = clock
                clock += 1
        self._frontiers: dict | None = None

    def reachable(self, node) -> bool:
        return node in self.enter

    def dominates(self, a, b) -> bool:
        """Reflexive dominance of two nodes of the same graph."""
        if a is b:
            return True
        if not self.reachable(b):
            return True
        if not self.reachable(a):
            return False
        return self.enter[a] <= self.enter[b] and self.leave[b] <= self.leave[a]

    def frontiers(self) -> dict:
        if self._frontiers is None:
            import networkx as nx

            self._frontiers = (nx.dominance_frontiers(self.graph, self.root)
                               if self.root is not None else {})
        return self._frontiers


class _DominanceBase:
    """Shared machinery: per-region trees built lazily and cached."""

    _post = False

    def __init__(self, op: Operation) -> None:
        self.op = op
        self._trees: dict[Region, _Tree] = {}

    def invalidate(self, region: Region | None = None) -> None:
        """Forget the cached tree of ``region`` (or of every region)."""
        if region is None:
            self._trees.clear()
        else:
            self._trees.pop(region, None)

    def _tree(self, region: Region) -> _Tree:
        tree = self._trees.get(region)
        if tree is None:
            graph = region_cfg(region)
            if self._post:
                reverse = graph.reverse(copy=True)
                reverse.add_node(_EXIT)
                for block in region.blocks:
                    if graph.out_degree(block) == 0:
                        reverse.add_edge(_EXIT, block)
                tree = _Tree(reverse, _EXIT)
            else:
                tree = _Tree(graph, region.entry_block)
            self._trees[region] = tree
        return tree

    def regions(self) -> list[Region]:
        """The regions nested in the analysed op (pre-order)."""
        return list(regions_of(self.op))

    # -- blocks

    def block_dominates(self, a: Block, b: Block) -> bool:
        """``a`` (post)dominates ``b``: ``a is b``, or ``b``'s ancestor block in ``a``'s region
        is (post)dominated by ``a`` in that region's tree."""
        if a is b:
            return True
        return self.block_properly_dominates(a, b)

    def block_properly_dominates(self, a: Block, b: Block) -> bool:
        if a is b:
            return not has_ssa_dominance(a.parent)
        region = a.parent
        if region is None:
            return False
        if b.parent is not region:
            anc = ancestor_block_in_region(b, region)
            if anc is None:
                return False
            if anc is a:
                return True
            b = anc
        return self._tree(region).dominates(a, b)

    def is_reachable(self, block: Block) -> bool:
        """Whether ``block`` is reachable from its region's entry (or, post-dominance, reaches
        an exit)."""
        if block.parent is None:
            return False
        return self._tree(block.parent).reachable(block)

    def immediate_dominator(self, block: Block) -> Block | None:
        """The parent of ``block`` in its region's tree (None for the root or unreachable)."""
        if block.parent is None:
            return None
        parent = self._tree(block.parent).idom.get(block)
        if parent is None or parent is block or parent is _EXIT:
            return None
        return parent

    def dominator_tree(self, region: Region) -> nx.DiGraph:
        """The (post)dominator tree of ``region``: edges from immediate dominators to the
        blocks they dominate (the post-dominator tree's root is a virtual exit node, a str)."""
        return self._tree(region).tree

    def nearest_common_dominator(self, a: Block, b: Block) -> Block | None:
        """The deepest block (post)dominating both ``a`` and ``b`` of one region, or None."""
        if a.parent is not b.parent or a.parent is None:
            return None
        tree = self._tree(a.parent)
        if not tree.reachable(a):
            return b if tree.reachable(b) else None
        if not tree.reachable(b):
            return a
        node = a
        while not tree.dominates(node, b):
            node = tree.idom[node]
        return None if node is _EXIT else node


class DominanceInfo(_DominanceBase):
    """Dominance for every region nested in ``op`` (see the module docstring)."""

    def dominance_frontier(self, block: Block) -> set[Block]:
        """The blocks where ``block``'s dominance ends (``nx.dominance_frontiers``)."""
        if block.parent is None:
            return set()
        return set(self._tree(block.parent).frontiers().get(block, ()))

    def properly_dominates(self, a: Operation | Value | Block, b: Operation | Block,
                           enclosing_op_ok: bool = True) -> bool:
        """MLIR's ``properlyDominates`` for ops, values (``a``) and blocks."""
        if isinstance(a, Block):
            if isinstance(b, Operation):
                b = b.parent
                if b is None:
                    return False
                return self.block_dominates(a, b)
            return self.block_properly_dominates(a, b)
        if isinstance(b, Block):
            raise TypeError("a block is dominated by blocks only")
        if isinstance(a, Value):
            if isinstance(a, BlockArgument):
                return b.parent is not None and self.block_dominates(a.owner, b.parent)
            return self._op_properly_dominates(a.owner, b, enclosing_op_ok=False)
        return self._op_properly_dominates(a, b, enclosing_op_ok)

    def dominates(self, a: Operation | Value | Block, b: Operation | Block) -> bool:
        """``a is b`` (or ``b`` defines the value ``a``) or ``a`` properly dominates ``b``."""
        if isinstance(a, Block) and isinstance(b, Block):
            return self.block_dominates(a, b)
        if a is b:
            return True
        if isinstance(a, Value) and not isinstance(a, BlockArgument) and a.owner is b:
            return True
        return self.properly_dominates(a, b)

    def _op_properly_dominates(self, a: Operation, b: Operation, enclosing_op_ok: bool) -> bool:
        a_block = a.parent
        if a_block is None:
            # a top-level op only encloses
            return enclosing_op_ok and a is not b and a.is_ancestor(b)
        if a is b:
            return not has_ssa_dominance(a_block.parent)
        region = a_block.parent
        if b.parent_region is not region:
            anc = ancestor_in_region(b, region)
            if anc is None:
                return False
            if anc is a:
                return enclosing_op_ok
            b = anc
        if b.parent is a_block:
            if not has_ssa_dominance(region):
                return True
            return a.is_before_in_block(b)
        return self.block_properly_dominates(a_block, b.parent)


class PostDominanceInfo(_DominanceBase):
    """Post-dominance for every region nested in ``op``: ``a`` post-dominates ``b`` when every
    path from ``b`` to an exit of their region passes through ``a``."""

    _post = True

    def properly_post_dominates(self, a: Operation | Block, b: Operation | Block) -> bool:
        """MLIR's ``properlyPostDominates`` for ops and blocks."""
        if isinstance(a, Block) and isinstance(b, Block):
            return self.block_properly_dominates(a, b)
        if isinstance(a, Block) or isinstance(b, Block):
            raise TypeError("compare two ops or two blocks")
        if a is b or a.parent is None or b.parent is None:
            return False
        a_block = a.parent
        if b.parent is a_block:
            return b.is_before_in_block(a)
        anc = ancestor_in_region(b, a_block.parent)
        if anc is not None and anc.parent is a_block:
            return anc is not a and anc.is_before_in_block(a)
        return self.block_properly_dominates(a_block, b.parent)

    def post_dominates(self, a: Operation | Block, b: Operation | Block) -> bool:
        return a is b or self.properly_post_dominates(a, b)


__all__ = ["DominanceInfo", "PostDominanceInfo", "has_ssa_dominance", "GRAPH_REGION_OPS"]
