"""Simplification of the block structure of regions, shared by canonicalize, sccp and dce.

MLIR's canonicalizer simplifies regions after its greedy rewriting (``simplifyRegions``:
unreachable blocks, dead block arguments) and gets branch simplifications from the cf ops'
canonicalization patterns; here they are one helper, `simplify_regions`, made of:

- `fold_constant_branches`: ``cf.cond_br`` on a constant condition, or to one block with the
  same operands on both edges, becomes ``cf.br``;
- `erase_unreachable_blocks`: blocks the entry block cannot reach (the region CFG of
  `tilecraft.analysis.cfg`) go;
- `merge_blocks`: a block reached only by a ``cf.br`` from one block joins that block;
- `erase_dead_block_arguments`: arguments nothing uses leave non-entry blocks and the branches
  that feed them (``cf.br``/``cf.cond_br`` only; other branches keep their blocks as they are).

They change the IR directly (no rewriter): run them outside a greedy driver's iteration.
"""

from __future__ import annotations

from tilecraft.analysis.cfg import RegionCFG, regions_of, successor_operands
from tilecraft.dialects.foldutils import const_splat
from tilecraft.ir import Block, DenseArrayAttr, Operation, Region, get_dialect, i32

__all__ = [
    "simplify_regions", "fold_constant_branches", "erase_unreachable_blocks", "merge_blocks",
    "erase_dead_block_arguments", "replace_with_branch", "set_successor_operands",
]


def _cf():
    return get_dialect("cf").ops


def replace_with_branch(term: Operation, dest: Block, operands) -> Operation:
    """Replace the terminator ``term`` with ``cf.br dest(operands)``; returns the branch."""
    branch = _cf()["cf.br"].build(dest, list(operands), location=term.location)
    term.parent.insert_before(term, branch)
    term.erase()
    return branch


def set_successor_operands(term: Operation, index: int, values) -> bool:
    """Make ``term`` forward ``values`` to its successor ``index`` (``cf.br`` and
    ``cf.cond_br`` only); returns whether it could."""
    values = list(values)
    if term.name == "cf.br":
        term.set_operands(values)
        return True
    if term.name != "cf.cond_br":
        return False
    true_ops = successor_operands(term, 0)
    false_ops = successor_operands(term, 1)
    if true_ops is None or false_ops is None:
        return False
    if index == 0:
        true_ops = values
    else:
        false_ops = values
    term.set_operands([term.operands[0], *true_ops, *false_ops])
    term.properties["operandSegmentSizes"] = DenseArrayAttr(i32, (1, len(true_ops),
                                                                  len(false_ops)))
    return True


def fold_constant_branches(region: Region) -> bool:
    """``cf.cond_br`` on a constant, or with equal edges, becomes ``cf.br``."""
    changed = False
    for block in region.blocks:
        term = block.terminator
        if term is None or term.name != "cf.cond_br" or not term.is_registered:
            continue
        true_ops, false_ops = successor_operands(term, 0), successor_operands(term, 1)
        if true_ops is None or false_ops is None:
            continue
        condition = const_splat(term.operands[0])
        if condition is not None:
            index = 0 if condition else 1
            replace_with_branch(term, term.successors[index], (true_ops, false_ops)[index])
            changed = True
        elif term.successors[0] is term.successors[1] and true_ops == false_ops:
            replace_with_branch(term, term.successors[0], true_ops)
            changed = True
    return changed


def erase_unreachable_blocks(region: Region, reachable: set[Block] | None = None) -> bool:
    """Erase the blocks not in ``reachable`` (default: those the entry block reaches)."""
    if len(region.blocks) < 2:
        return False
    if reachable is None:
        reachable = RegionCFG(region).reachable()
    dead = [b for b in region.blocks if b not in reachable and not b.is_entry_block()]
    if not dead:
        return False
    for block in dead:
        block.drop_all_references()
    for block in dead:
        for op in list(block):
            op.erase()
        block.erase()
    return True


def merge_blocks(region: Region) -> bool:
    """A non-entry block whose only predecessor ends with ``cf.br`` to it joins that block."""
    changed = False
    for block in list(region.blocks):
        if block.parent is None:
            continue
        term = block.terminator
        if term is None or term.name != "cf.br" or not term.is_registered:
            continue
        succ = term.successors[0]
        if succ is block or succ.is_entry_block() or succ.predecessors != [block]:
            continue
        for arg, value in zip(list(succ.arguments), term.operands):
            arg.replace_all_uses_with(value)
        term.erase()
        for op in list(succ):
            op.detach()
            block.append(op)
        succ.erase()
        changed = True
    return changed


def erase_dead_block_arguments(region: Region) -> bool:
    """Remove unused arguments of non-entry blocks whose predecessors all branch with
    ``cf.br``/``cf.cond_br``."""
    changed = False
    for block in region.blocks[1:]:
        dead = [a.index for a in block.arguments if not a.uses]
        if not dead:
            continue
        edges = []
        for pred in region.blocks:
            term = pred.terminator
            if term is None:
                continue
            for index, succ in enumerate(term.successors):
                if succ is block:
                    edges.append((term, index))
        if any(t.name not in ("cf.br", "cf.cond_br") or successor_operands(t, i) is None
               for t, i in edges):
            continue
        for term, index in edges:
            values = successor_operands(term, index)
            set_successor_operands(term, index,
                                   [v for position, v in enumerate(values)
                                    if position not in dead])
        for position in reversed(dead):
            block.erase_argument(position)
        changed = True
    return changed


def simplify_regions(root: Operation, *, erase_dead: bool = True) -> bool:
    """All of the above on every region nested in ``root``, until nothing changes; without
    ``erase_dead``, only what MLIR does with the cf ops' patterns (constant branches, merged
    blocks), not its ``simplifyRegions`` (unreachable blocks, dead arguments)."""
    changed_any = False
    while True:
        changed = False
        for region in list(regions_of(root)):
            if len(region.blocks) < 2:
                continue
            changed |= fold_constant_branches(region)
            if erase_dead:
                changed |= erase_unreachable_blocks(region)
            changed |= merge_blocks(region)
            if erase_dead:
                changed |= erase_dead_block_arguments(region)
        if not changed:
            return changed_any
        changed_any = True

