"""`triton-loop-aware-cse`: CSE that also merges ``scf.for`` iter_args that always hold the
same value, as Triton's LoopAwareCSE does.

1. CSE (`eliminate_common_subexpressions`, below: ops without memory effects or regions,
   equal name, operands, properties, attributes and result types, the earlier one dominating
   the later one in structured code), so that equal values from outside loops are one value.
2. In every ``scf.for``, two iter_args ``i`` and ``j`` are equal when they start from the
   same value and the values yielded for them are equal in the loop body, assuming ``i`` and
   ``j`` equal (a co-inductive proof, which is how cycles through the loop are closed): body
   values are equal when they are the same value, iter_args proven equal, or results of the
   same index of ops without memory effects or regions that have the same name, properties,
   attributes, result types and pairwise equal operands. The induction variable equals only
   itself; values from outside the loop only themselves.
3. Each class of equal iter_args keeps its first member: the uses of the others (as block
   arguments and as loop results) read the kept one, and the others are removed from the loop.
4. CSE again, now that the copies of the loop body's computations read the same values.
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonLoopAwareCSEPassBase
from tilecraft.ir import Operation
from tilecraft.ir.traits import IsolatedFromAbove, Terminator
from tilecraft.ir.values import BlockArgument, OpResult

from .effects import is_memory_effect_free
from .transform_utils import loop_with_iter_args

__all__ = ["TritonLoopAwareCSEPass", "eliminate_common_subexpressions",
           "equivalent_iter_args", "remove_iter_args"]


# -- plain CSE


_CANDIDATE_CLASSES: dict[type, bool] = {}


def _cse_candidate_class(op: Operation) -> bool:
    """Whether ops of ``op``'s class, without regions, may be CSE'd: registered, no memory
    effects, not terminators (the traits are the class's, so the answer is cached)."""
    cls = type(op)
    found = _CANDIDATE_CLASSES.get(cls)
    if found is None:
        found = _CANDIDATE_CLASSES[cls] = (op.is_registered and not op.has_trait(Terminator)
                                           and is_memory_effect_free(op))
    return found


def _cse_key(op: Operation):
    if op.regions or not op.results or not _cse_candidate_class(op):
        return None
    return (op.name, op.operands, tuple(r.type for r in op.results),
            tuple(sorted(op.properties.items())), tuple(sorted(op.attributes.items())))


def eliminate_common_subexpressions(root: Operation) -> int:
    """Replace each op without memory effects or regions by an equal one seen before it in
    its block or an enclosing block (not across ``IsolatedFromAbove`` ops, nor between the
    blocks of a region with several). Returns how many ops were erased."""
    erased = 0
    known: dict = {}  # one table, scoped by undo logs (MLIR's ScopedHashTable)
    missing = object()

    def visit_block(block) -> None:
        nonlocal erased, known
        undo: list = []
        for op in block:
            if op.regions:
                if op.has_trait(IsolatedFromAbove):
                    outer, known = known, {}
                    visit_regions(op)
                    known = outer
                else:
                    visit_regions(op)
                continue
            key = _cse_key(op)
            if key is None:
                continue
            existing = known.get(key)
            if existing is None:
                undo.append((key, known.get(key, missing)))
                known[key] = op
                continue
            for old, new in zip(op.results, existing.results):
                old.replace_all_uses_with(new)
            op.erase()
            erased += 1
        for key, previous in reversed(undo):
            if previous is missing:
                del known[key]
            else:
                known[key] = previous

    def visit_regions(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                visit_block(block)

    visit_regions(root)
    return erased


# -- equal iter_args

MAX_DEPTH = 200


class _LoopEquality:
    """The co-inductive equality of ``loop``'s iter_args (see the module docstring)."""

    def __init__(self, loop: Operation) -> None:
        self.loop = loop
        self.body = loop.regions[0].blocks[0]
        self.inits = loop.operands[3:]
        self.yielded = self.body.last_op.operands
        self.assumed: list[tuple[int, int]] = []
        self.depth = 0

    def iter_args_equal(self, i: int, j: int) -> bool:
        if i == j:
            return True
        if self.inits[i] is not self.inits[j]:
            return False
        if (i, j) in self.assumed or (j, i) in self.assumed:
            return True
        self.assumed.append((i, j))
        try:
            return self.values_equal(self.yielded[i], self.yielded[j])
        finally:
            self.assumed.pop()

    def values_equal(self, a, b) -> bool:
        if a is b:
            return True
        self.depth += 1
        try:
            # Deep chains give up (unequal) rather than exhaust Python's stack.
            return self.depth < MAX_DEPTH and self._values_equal(a, b)
        finally:
            self.depth -= 1

    def _values_equal(self, a, b) -> bool:
        if a.type is not b.type:
            return False
        if a.parent_block is not self.body or b.parent_block is not self.body:
            return False
        if isinstance(a, BlockArgument) != isinstance(b, BlockArgument):
            return False
        if isinstance(a, BlockArgument):
            if a.index == 0 or b.index == 0:
                return False  # the induction variable
            return self.iter_args_equal(a.index - 1, b.index - 1)
        if not (type(a) is OpResult and type(b) is OpResult) or a.index != b.index:
            return False
        x, y = a.owner, b.owner
        if x.name != y.name or x.regions or y.regions:
            return False
        if not is_memory_effect_free(x) or not is_memory_effect_free(y):
            return False
        if (x.properties != y.properties or x.attributes != y.attributes
                or [r.type for r in x.results] != [r.type for r in y.results]
                or x.num_operands != y.num_operands):
            return False
        return all(self.values_equal(p, q) for p, q in zip(x.operands, y.operands))


def equivalent_iter_args(loop: Operation) -> list[list[int]]:
    """The classes (of two or more) of ``loop``'s iter_args that are always equal, each
    sorted, in order of their first member."""
    count = len(loop.operands) - 3
    equality = _LoopEquality(loop)
    parent = list(range(count))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(count):
        for j in range(i + 1, count):
            if find(i) != find(j) and equality.iter_args_equal(i, j):
                parent[max(find(i), find(j))] = min(find(i), find(j))
    classes: dict[int, list[int]] = {}
    for i in range(count):
        classes.setdefault(find(i), []).append(i)
    return [members for members in classes.values() if len(members) > 1]


def remove_iter_args(loop: Operation, replacements: dict[int, int]) -> Operation:
    """A copy of ``loop`` without the iter_args ``j`` of ``replacements`` (``j -> i``): the
    uses of iter_arg ``j`` read iter_arg ``i`` and those of result ``j`` read result ``i``.
    The body moves to the new loop, which replaces ``loop``; returns it."""
    body = loop.regions[0].blocks[0]
    for j, i in replacements.items():
        body.arguments[1 + j].replace_all_uses_with(body.arguments[1 + i])
        loop.results[j].replace_all_uses_with(loop.results[i])
    kept = [k for k in range(len(loop.results)) if k not in replacements]
    inits = loop.operands[3:]
    new_loop = loop_with_iter_args(loop, [inits[k] for k in kept])
    terminator = body.last_op
    terminator.set_operands([terminator.operands[k] for k in kept])
    for j in sorted(replacements, reverse=True):
        body.erase_argument(1 + j)
    for new_index, k in enumerate(kept):
        loop.results[k].replace_all_uses_with(new_loop.results[new_index])
    loop.erase()
    return new_loop


def merge_equal_iter_args(root: Operation) -> int:
    """Merge the equal iter_args of every ``scf.for`` in ``root``; returns how many went."""
    merged = 0
    for loop in [op for op in root.walk(post_order=True) if op.name == "scf.for"]:
        classes = equivalent_iter_args(loop)
        if not classes:
            continue
        replacements = {j: members[0] for members in classes for j in members[1:]}
        remove_iter_args(loop, replacements)
        merged += len(replacements)
    return merged


class TritonLoopAwareCSEPass(TritonLoopAwareCSEPassBase):
    """Triton's ``triton-loop-aware-cse``."""

    def run_on_operation(self, op: Operation) -> None:
        eliminate_common_subexpressions(op)
        if merge_equal_iter_args(op):
            eliminate_common_subexpressions(op)
