"""``cse``: common subexpression elimination, as MLIR's CSE pass does it.

An op is replaced by an earlier equivalent op that dominates it: same name, properties,
attributes, result types and operands (in any order for ``Commutative`` ops), and regions that
are structurally equal (same blocks, argument types, and equivalent ops inside, values defined
inside the two regions corresponding). Known ops live in scopes: a single-block region opens a
scope nested in the enclosing one, so ops in a loop body reuse ops of the enclosing function; a
multi-block region walks its dominator tree (`tilecraft.analysis.DominanceInfo`), each block
seeing the ops of the blocks that dominate it; an ``IsolatedFromAbove`` op (a function) starts
from an empty scope.

Not merged: ops with memory effects (loads, stores, calls; see `effects`), terminators, ops
with multi-block regions, ops of graph regions (the module's body), and ops of unreachable
blocks. Ops found trivially dead on the way are erased (``num-dce'd``).
"""

from __future__ import annotations

from tilecraft.analysis import DominanceInfo
from tilecraft.analysis.dominance import has_ssa_dominance
from tilecraft.generated.passes import CSEPassBase
from tilecraft.ir import Block, Operation, Region
from tilecraft.ir.traits import Commutative, IsolatedFromAbove, Terminator

from .effects import is_memory_effect_free, is_trivially_dead

__all__ = ["CSE", "cse", "equivalent_ops", "equivalent_regions"]


def _attr_key(mapping: dict) -> tuple:
    return tuple(sorted(mapping.items(), key=lambda item: item[0]))


def _operand_key(op: Operation) -> tuple:
    ids = tuple(id(v) for v in op.operands)
    if type(op).has_trait(Commutative):
        return tuple(sorted(ids))
    return ids


def op_hash(op: Operation) -> int:
    """A hash of what `equivalent_ops` compares at the top level (operands by identity)."""
    return hash((op.name, _attr_key(op.properties), _attr_key(op.attributes),
                 tuple(r.type for r in op.results), _operand_key(op), len(op.regions),
                 tuple(len(r.blocks) for r in op.regions)))


def _same_operands(a: Operation, b: Operation, mapping: dict) -> bool:
    left = [mapping.get(v, v) for v in a.operands]
    right = list(b.operands)
    if len(left) != len(right):
        return False
    if all(x is y for x, y in zip(left, right)):
        return True
    if type(a).has_trait(Commutative):
        return sorted(map(id, left)) == sorted(map(id, right))
    return False


def equivalent_ops(a: Operation, b: Operation, mapping: dict | None = None) -> bool:
    """Whether ``a`` and ``b`` compute the same values (see the module docstring); ``mapping``
    maps values (and blocks) of ``a``'s surroundings to ``b``'s."""
    if a is b:
        return True
    mapping = {} if mapping is None else mapping
    if (a.name != b.name or a.num_results != b.num_results
            or len(a.regions) != len(b.regions) or len(a.successors) != len(b.successors)
            or a.properties != b.properties or a.attributes != b.attributes):
        return False
    if any(x.type is not y.type for x, y in zip(a.results, b.results)):
        return False
    if not _same_operands(a, b, mapping):
        return False
    if any(mapping.get(x, x) is not y for x, y in zip(a.successors, b.successors)):
        return False
    return all(equivalent_regions(x, y, mapping) for x, y in zip(a.regions, b.regions))


def equivalent_regions(a: Region, b: Region, mapping: dict | None = None) -> bool:
    """Whether two regions are structurally equal, their own values corresponding."""
    mapping = {} if mapping is None else mapping
    if len(a.blocks) != len(b.blocks):
        return False
    for x, y in zip(a.blocks, b.blocks):
        if len(x.arguments) != len(y.arguments) or len(x) != len(y):
            return False
        if any(p.type is not q.type for p, q in zip(x.arguments, y.arguments)):
            return False
        mapping[x] = y
        for p, q in zip(x.arguments, y.arguments):
            mapping[p] = q
    for x, y in zip(a.blocks, b.blocks):
        for p, q in zip(x, y):
            if not equivalent_ops(p, q, mapping):
                return False
            for r, s in zip(p.results, q.results):
                mapping[r] = s
    return True


class _Key:
    """An op in the scoped table: hashed by `op_hash`, equal by `equivalent_ops`."""

    __slots__ = ("op", "hash")

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.hash = op_hash(op)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other) -> bool:
        return isinstance(other, _Key) and equivalent_ops(self.op, other.op)


class _CSE:
    """One run over the regions of ``root``."""

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.dominance = DominanceInfo(root)
        self.num_cse = 0
        self.num_dce = 0

    def run(self) -> None:
        for region in self.root.regions:
            self.simplify_region(region, [])

    # -- scopes: a list of dicts, innermost last

    @staticmethod
    def _lookup(scopes: list[dict], key: _Key) -> Operation | None:
        for scope in reversed(scopes):
            found = scope.get(key)
            if found is not None:
                return found
        return None

    def simplify_region(self, region: Region, scopes: list[dict]) -> None:
        if not region.blocks:
            return
        ssa = has_ssa_dominance(region)
        if len(region.blocks) == 1:
            self.simplify_block(region.blocks[0], scopes + [{}], ssa)
            return
        tree = self.dominance.dominator_tree(region)
        entry = region.blocks[0]
        stack: list[tuple[Block, list[dict]]] = [(entry, scopes + [{}])]
        while stack:
            block, block_scopes = stack.pop()
            self.simplify_block(block, block_scopes, ssa)
            for child in reversed(list(tree.successors(block))):
                stack.append((child, block_scopes + [{}]))

    def simplify_block(self, block: Block, scopes: list[dict], ssa: bool) -> None:
        for op in list(block):
            if op.parent is not block:
                continue
            if self.simplify_op(op, scopes, ssa):
                continue
            for region in op.regions:
                if op.is_registered and type(op).has_trait(IsolatedFromAbove):
                    self.simplify_region(region, [])
                else:
                    self.simplify_region(region, scopes)

    def simplify_op(self, op: Operation, scopes: list[dict], ssa: bool) -> bool:
        """Erase ``op`` when dead or replace it by a known equivalent; returns whether it
        went."""
        if op.is_registered and type(op).has_trait(Terminator):
            return False
        if is_trivially_dead(op):
            op.erase()
            self.num_dce += 1
            return True
        if not ssa or any(len(r.blocks) > 1 for r in op.regions):
            return False
        if not op.results or not is_memory_effect_free(op):
            return False
        key = _Key(op)
        existing = self._lookup(scopes, key)
        if existing is not None:
            for old, new in zip(op.results, existing.results):
                old.replace_all_uses_with(new)
            op.erase()
            self.num_cse += 1
            return True
        scopes[-1][key] = op
        return False


def cse(op: Operation) -> tuple[int, int]:
    """Run CSE on the regions of ``op``; returns (ops replaced, dead ops erased)."""
    driver = _CSE(op)
    driver.run()
    return driver.num_cse, driver.num_dce


class CSE(CSEPassBase):
    """The ``cse`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        replaced, erased = cse(op)
        self.num_cse += replaced
        self.num_dce += erased

