"""The generic verifier behind `Operation.verify`.

For each op, parents before children: its operands must be defined in its region or an enclosing
one (and, within one block, before it); a registered op then runs its ``verify_invariants`` (the
constraints of its definition), its traits' checks and its hand-written ``custom_verify`` (MLIR's
order), and, unless it has ``NoTerminator``, requires each block of its regions to be non-empty
and, once the block's ops verified, to end with a terminator; after its nested ops verified it
runs ``verify_regions`` when defined.
Unregistered ops are only checked structurally.
"""

from __future__ import annotations

from tilecraft.ir.block import Block, Region
from tilecraft.ir.operation import Operation
from tilecraft.ir.traits import NoTerminator, Terminator
from tilecraft.ir.values import OpResult


def verify_operation(op: Operation) -> None:
    """Verify ``op`` and everything nested in it (raises `VerificationError`)."""
    _verify(op, _Dominance())


def _verify(op: Operation, dominance: _Dominance) -> None:
    cls = type(op)
    registered = cls is not Operation
    if registered:
        invariants = getattr(op, "verify_invariants", None)
        if invariants is not None:
            invariants()
        for trait in cls.TRAITS:
            trait.verify(op)
        custom = getattr(op, "custom_verify", None)
        if custom is not None:
            custom()
    needs_terminator = registered and not op.has_trait(NoTerminator)
    for region in op.regions:
        for block in region.blocks:
            if needs_terminator and block.last_op is None:
                raise op.emit_error("empty block: expect at least a terminator")
            seen: set[Operation] = set()
            for child in block:
                _verify_operands(child, region, seen, dominance)
                seen.add(child)
                _verify(child, dominance)
            if needs_terminator:
                _verify_terminator(block)
    if registered:
        verify_regions = getattr(op, "verify_regions", None)
        if verify_regions is not None:
            verify_regions()


class _Dominance:
    """Dominance facts computed on demand during one verification: the order of ops in a
    block, and the dominators of the blocks of multi-block regions (networkx)."""

    __slots__ = ("_orders", "_dominators")

    def __init__(self) -> None:
        self._orders: dict[Block, dict[Operation, int]] = {}
        self._dominators: dict[Region, dict[Block, Block]] = {}

    def before(self, a: Operation, b: Operation) -> bool:
        """Whether ``a`` comes before ``b`` in their block."""
        order = self._orders.get(a.parent)
        if order is None:
            order = self._orders[a.parent] = {o: i for i, o in enumerate(a.parent)}
        return order[a] < order[b]

    def block_dominates(self, a: Block, b: Block) -> bool:
        """Whether block ``a`` dominates block ``b`` (same region); unreachable ``b`` passes."""
        region = a.parent
        idom = self._dominators.get(region)
        if idom is None:
            import networkx as nx  # only multi-block regions need it: keep it off the import path

            graph = nx.DiGraph()
            graph.add_nodes_from(region.blocks)
            graph.add_edges_from((block, succ) for block in region.blocks
                                 for succ in block.successors)
            entry = region.blocks[0]
            idom = self._dominators[region] = dict(nx.immediate_dominators(graph, entry))
            idom[entry] = entry  # newer networkx leaves the start node out
        if b not in idom:
            return True
        while b is not a:
            parent = idom[b]
            if parent is b:
                return False
            b = parent
        return True

def _verify_terminator(block: Block) -> None:
    """A non-empty block ends with a terminator (checked once its ops are verified, as MLIR's
    verifier does when it leaves the block)."""
    last = block.last_op
    if type(last) is not Operation and not last.has_trait(Terminator):
        raise last.emit_error(f"block with no terminator, has '{last.name}'")


def _verify_operands(op: Operation, region: Region, seen: set[Operation],
                     dominance: _Dominance) -> None:
    block = op.parent
    for number, operand in enumerate(op._operands):
        value = operand._value
        if type(value) is OpResult:
            defining_block = value.owner.parent
            if defining_block is block:
                if value.owner not in seen:
                    raise op.emit_error(f"operand #{number} does not dominate this use")
                continue
        else:
            defining_block = value.parent_block
        defining_region = defining_block.parent if defining_block is not None else None
        if defining_region is None or not defining_region.is_ancestor(region):
            raise op.emit_error(f"operand #{number} does not dominate this use")
        # The use's ancestor in the defining region must come after the definition.
        ancestor = op
        while ancestor.parent.parent is not defining_region:
            ancestor = ancestor.parent_op
        use_block = ancestor.parent
        if use_block is defining_block:
            ok = type(value) is not OpResult or dominance.before(value.owner, ancestor)
        else:
            ok = dominance.block_dominates(defining_block, use_block)
        if not ok:
            raise op.emit_error(f"operand #{number} does not dominate this use")
