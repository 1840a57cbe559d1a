"""Liveness: live-in/live-out sets per block and live ranges of values in program order.

Per block (in every region nested in the analysed op), as MLIR's ``Liveness`` builds them:
``defs(B)`` are B's arguments, the results of its ops and everything defined in their regions;
``uses(B)`` are the operands of B's ops and of the ops nested in them, minus ``defs(B)``. A value
used in a nested region is therefore used by the op holding that region. Per region, the
classic backward fixpoint over the block CFG gives ``live_in(B) = uses(B) | (live_out(B) -
defs(B))`` and ``live_out(B) = union of live_in(S)`` over the successors ``S``.

Ops whose regions may run again (`cfg.is_loop`: ``scf.for``, ``scf.while``, and ops whose region
semantics are unknown): a value defined outside such an op and live into one of its regions is
live in and out of every block of its regions (the next iteration needs it).

Program order: ops are numbered by a pre-order walk (`index`); `end_index` of an op is the
largest index nested in it. `live_range(v)` is the closed interval ``(start, end)`` covering
the definition and every point where ``v`` is live (a use inside a nested region extends ``v``
to the end of the op holding it in ``v``'s region; live-out of a block extends it to the
block's end); results of an op with regions start at its `end_index`. Ranges are what a
shared-memory allocator needs: two buffers whose ranges do not overlap may share memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilecraft.analysis.cfg import ancestor_in_region, is_loop, region_cfg, regions_of
from tilecraft.ir import Block, BlockArgument, Operation, Region, Value

@dataclass(frozen=True)
class LiveRange:
    """A closed interval of program indices (see `Liveness.index`)."""

    start: int
    end: int

    def overlaps(self, other: LiveRange) -> bool:
        return self.start <= other.end and other.start <= self.end

    def __contains__(self, index: int) -> bool:
        return self.start <= index <= self.end

    def __len__(self) -> int:
        return self.end - self.start + 1


def _block_defs_uses(block: Block) -> tuple[set[Value], set[Value]]:
    defs: set[Value] = set(block.arguments)
    uses: set[Value] = set()
    for top in block:
        for op in top.walk():
            defs.update(op.results)
            uses.update(op.operands)
            for region in op.regions:
                for child in region.blocks:
                    defs.update(child.arguments)
    return defs, uses - defs


class Liveness:
    """Liveness of the values in every region nested in ``op``."""

    def __init__(self, op: Operation) -> None:
        self.op = op
        self._live_in: dict[Block, set[Value]] = {}
        self._live_out: dict[Block, set[Value]] = {}
        self.index: dict[Operation, int] = {}
        self.end_index: dict[Operation, int] = {}
        self.ops: list[Operation] = []
        self._number(op)
        for region in regions_of(op):
            self._solve(region)
        for nested in op.walk():
            if nested.regions and is_loop(nested):
                self._extend_loop(nested)
        self._ranges: dict[Value, LiveRange] = {}
        self._values: list[Value] | None = None
        self._by_value: dict[Value, tuple[list[Block], list[Block]]] | None = None

    # -- construction

    def _number(self, root: Operation) -> None:
        stack: list[Operation] = []
        for op in root.walk():
            while stack and not stack[-1].is_ancestor(op):
                done = stack.pop()
                self.end_index[done] = len(self.ops) - 1
            self.index[op] = len(self.ops)
            self.ops.append(op)
            stack.append(op)
        while stack:
            self.end_index[stack.pop()] = len(self.ops) - 1

    def _solve(self, region: Region) -> None:
        import networkx as nx

        graph = region_cfg(region)
        defs: dict[Block, set[Value]] = {}
        uses: dict[Block, set[Value]] = {}
        for block in region.blocks:
            defs[block], uses[block] = _block_defs_uses(block)
            self._live_in[block] = set(uses[block])
            self._live_out[block] = set()
        # visit in post-order so that most successors come first
        order = list(nx.dfs_postorder_nodes(graph, region.entry_block)) if region.blocks else []
        seen = set(order)
        order += [b for b in region.blocks if b not in seen]
        work = list(reversed(order))
        queued = set(work)
        while work:
            block = work.pop()
            queued.discard(block)
            out: set[Value] = set()
            for succ in graph.successors(block):
                out |= self._live_in[succ]
            self._live_out[block] = out
            new_in = uses[block] | (out - defs[block])
            if new_in != self._live_in[block]:
                self._live_in[block] = new_in
                for pred in graph.predecessors(block):
                    if pred not in queued:
                        queued.add(pred)
                        work.append(pred)

    def _extend_loop(self, loop: Operation) -> None:
        carried: set[Value] = set()
        for region in loop.regions:
            if region.blocks:
                carried |= {v for v in self._live_in[region.blocks[0]]
                            if not loop.is_ancestor(_definer(v))}
        if not carried:
            return
        for region in loop.regions:
            for block in region.blocks:
                self._live_in[block] |= carried
                self._live_out[block] |= carried

    # -- block queries

    def live_in(self, block: Block) -> set[Value]:
        """Values live on entry to ``block`` (defined elsewhere, used here or later)."""
        return set(self._live_in.get(block, ()))

    def live_out(self, block: Block) -> set[Value]:
        """Values live on exit from ``block``."""
        return set(self._live_out.get(block, ()))

    # -- program points

    def _last_use_in_block(self, value: Value, block: Block) -> Operation | None:
        """The last op of ``block`` using ``value`` (directly or in its regions)."""
        last: Operation | None = None
        for user in value.users:
            anc = ancestor_in_region(user, block.parent)
            if anc is None or anc.parent is not block:
                continue
            if last is None or self.index[anc] > self.index[last]:
                last = anc
        return last

    def is_dead_after(self, value: Value, op: Operation) -> bool:
        """Whether ``value`` is not needed after ``op`` (``op`` in the block where the question
        is asked; ops nested in ``op`` count as part of it)."""
        block = op.parent
        if block is None:
            return True
        if value in self._live_out.get(block, ()):
            return False
        last = self._last_use_in_block(value, block)
        return last is None or self.index[last] <= self.index[op]

    def live_range(self, value: Value) -> LiveRange:
        """The program-order interval in which ``value`` is live (see the module docstring)."""
        cached = self._ranges.get(value)
        if cached is not None:
            return cached
        block = value.parent_block
        if isinstance(value, BlockArgument):
            first = block.first_op
            start = self.index[first] if first is not None else self.index.get(block.parent_op, 0)
        else:
            # the results of an op with regions exist once its regions have run
            start = self.end_index[value.owner]
        end = start
        region = block.parent if block is not None else None
        # uses, lifted to the op holding them in a block of the defining region
        for user in value.users:
            anc = ancestor_in_region(user, region) if region is not None else None
            end = max(end, self.end_index.get(anc if anc is not None else user, start))
        # blocks of that region where the value is live on entry or on exit
        live_in, live_out = self._live_blocks().get(value, ((), ()))
        for other in live_in:
            if other.parent is region and other.first_op is not None:
                start = min(start, self.index[other.first_op])
                end = max(end, self.index[other.first_op])
        for other in live_out:
            if other.parent is region and other.first_op is not None:
                end = max(end, self.end_index[other.last_op])
        result = LiveRange(start, end)
        self._ranges[value] = result
        return result

    def _live_blocks(self) -> dict[Value, tuple[list[Block], list[Block]]]:
        """Per value, the blocks it is live into and out of (the live sets inverted once, so
        that a live range costs the blocks of its value, not every block of its region)."""
        if self._by_value is None:
            by_value: dict[Value, tuple[list[Block], list[Block]]] = {}
            for position, sets in enumerate((self._live_in, self._live_out)):
                for block, values in sets.items():
                    for value in values:
                        entry = by_value.get(value)
                        if entry is None:
                            entry = by_value[value] = ([], [])
                        entry[position].append(block)
            self._by_value = by_value
        return self._by_value

    def values(self) -> list[Value]:
        """Every value defined in the analysed op (block arguments and results), in order."""
        if self._values is None:
            values: list[Value] = []
            for region in self.op.regions:
                values.extend(_region_values(region))
            self._values = values
        return self._values

    def live_values_at(self, op: Operation) -> set[Value]:
        """Values defined in a region enclosing ``op`` whose live range contains ``op``'s
        index (the values a buffer allocator must keep apart at ``op``)."""
        at = self.index[op]
        enclosing = op.parent_region
        result: set[Value] = set()
        for value in self.values():
            block = value.parent_block
            if block is None or block.parent is None or not block.parent.is_ancestor(enclosing):
                continue
            if at in self.live_range(value):
                result.add(value)
        return result


def _region_values(region: Region) -> list[Value]:
    values: list[Value] = []
    for block in region.blocks:
        values.extend(block.arguments)
        for op in block:
            values.extend(op.results)
            for nested in op.regions:
                values.extend(_region_values(nested))
    return values


def _definer(value: Value) -> Operation | None:
    """The op defining ``value``; for a block argument, the op owning its block's region."""
    if isinstance(value, BlockArgument):
        return value.owner.parent_op
    return value.owner


__all__ = ["Liveness", "LiveRange"]
