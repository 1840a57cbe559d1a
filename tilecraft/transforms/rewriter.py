"""`PatternRewriter`: the one way patterns change the IR, telling a listener about each change.

A driver (such as the greedy one) listens to the rewriter so that its worklist sees the ops a
pattern created, changed or erased. Every change a pattern makes must go through the rewriter;
changing the IR directly (``op.erase()``, ``operand.set(v)``) leaves the driver blind.
"""

from __future__ import annotations

from typing import Callable, Sequence

from tilecraft.ir import Block, Builder, Operation, Value

__all__ = ["RewriteListener", "PatternRewriter"]


class RewriteListener:
    """Receives the rewriter's notifications; every method does nothing by default."""

    __slots__ = ()

    def notify_op_inserted(self, op: Operation) -> None:
        """``op`` was inserted into a block (created, cloned or moved there)."""

    def notify_op_modified(self, op: Operation) -> None:
        """``op`` was changed in place (operands, attributes, types, regions)."""

    def notify_op_replaced(self, op: Operation, values: Sequence[Value | None]) -> None:
        """``op``'s results are about to be replaced by ``values`` (then ``op`` is erased)."""

    def notify_op_erased(self, op: Operation) -> None:
        """``op`` is about to be erased; it is still linked and keeps its operands."""


_SILENT = RewriteListener()


class PatternRewriter(Builder):
    """A `Builder` whose every change to the IR is reported to ``listener``.

    The insertion point starts unset; a driver sets it before the op a pattern is applied to.
    `insert` and `create` (from `Builder`) put new ops there.
    """

    __slots__ = ("listener",)

    def __init__(self, listener: RewriteListener | None = None) -> None:
        self.block = None
        self.anchor = None
        self.location = None
        self.listener = listener if listener is not None else _SILENT

    # -- the insertion point

    def set_insertion_point(self, op: Operation) -> None:
        """Insert before ``op`` from now on."""
        self.block, self.anchor = self._block_of(op), op

    def set_insertion_point_after(self, op: Operation) -> None:
        self.block, self.anchor = self._block_of(op), op.next_op

    def set_insertion_point_to_start(self, block: Block) -> None:
        self.block, self.anchor = block, block.first_op

    def set_insertion_point_to_end(self, block: Block) -> None:
        self.block, self.anchor = block, None

    # -- creating

    def insert(self, op: Operation) -> Operation:
        """Insert the detached ``op`` at the insertion point and report it; returns ``op``."""
        if self.block is None:
            raise ValueError("the rewriter has no insertion point")
        super().insert(op)
        self.listener.notify_op_inserted(op)
        return op

    def clone(self, op: Operation, mapping: dict | None = None) -> Operation:
        """Insert a deep copy of ``op`` (see `Operation.clone`) at the insertion point."""
        return self.insert(op.clone(mapping))

    # -- replacing and erasing

    def replace_op(self, op: Operation, values: Sequence[Value | None] | Operation) -> None:
        """Make the users of ``op``'s results use ``values`` (one per result, or the results
        of an op), then erase ``op``. A None value is allowed for a result without uses."""
        if isinstance(values, Operation):
            values = values.results
        values = tuple(values)
        if len(values) != op.num_results:
            raise ValueError(f"'{op.name}' has {op.num_results} results but {len(values)} "
                             "replacement values were given")
        self.listener.notify_op_replaced(op, values)
        for result, value in zip(op.results, values):
            if value is not None:
                self.replace_all_uses_with(result, value)
        self.erase_op(op)

    def replace_op_with_new_op(self, op: Operation, op_type: str | type[Operation], *args,
                               **kwargs) -> Operation:
        """Create an op at the insertion point and replace ``op`` with its results.

        ``op_type`` is an op name (the arguments are those of `Operation.create`) or a
        generated op class (the arguments are those of its ``build``). The new op gets
        ``op``'s location unless ``location`` is given.
        """
        kwargs.setdefault("location", op.location)
        if isinstance(op_type, str):
            new_op = Operation.create(op_type, *args, **kwargs)
        else:
            new_op = op_type.build(*args, **kwargs)
        self.insert(new_op)
        self.replace_op(op, new_op.results)
        return new_op

    def erase_op(self, op: Operation) -> None:
        """Erase ``op`` and what its regions hold; its results must have no uses left.

        Nested ops are reported erased before ``op``, last ones first (users before the ops
        defining what they use).
        """
        for result in op.results:
            for use in result.uses:
                if not op.is_ancestor(use.owner):
                    raise ValueError(f"cannot erase '{op.name}': result #{result.index} still "
                                     f"has uses")
        self._notify_erased(op)
        op.erase()

    def _notify_erased(self, op: Operation) -> None:
        for region in op.regions:
            for block in reversed(region.blocks):
                child = block.last_op
                while child is not None:
                    self._notify_erased(child)
                    child = child.prev_op
        self.listener.notify_op_erased(op)

    # -- changing in place

    def start_op_modification(self, op: Operation) -> None:
        """Announce an in-place change of ``op``; end it with `finalize_op_modification`."""

    def finalize_op_modification(self, op: Operation) -> None:
        """Report the in-place change of ``op`` started with `start_op_modification`."""
        self.listener.notify_op_modified(op)

    def modify_op_in_place(self, op: Operation, change: Callable[[], object]) -> None:
        """Run ``change()`` (which changes ``op`` in place) and report ``op`` modified."""
        self.start_op_modification(op)
        change()
        self.finalize_op_modification(op)

    def replace_all_uses_with(self, value: Value, new: Value) -> None:
        """Make every use of ``value`` read ``new``; each user is reported modified."""
        if new is value:
            return
        users = value.users
        value.replace_all_uses_with(new)
        for user in users:
            self.listener.notify_op_modified(user)

    def replace_uses_with_if(self, value: Value, new: Value, predicate) -> None:
        """Make the uses of ``value`` for which ``predicate(use)`` holds read ``new``."""
        changed: dict[Operation, None] = {}
        for use in value.uses:
            if predicate(use):
                use.set(new)
                changed[use.owner] = None
        for user in changed:
            self.listener.notify_op_modified(user)

    # -- moving

    def move_op_before(self, op: Operation, anchor: Operation) -> None:
        """Move ``op`` right before ``anchor`` (reported as an insertion)."""
        op.move_before(anchor)
        self.listener.notify_op_inserted(op)

    def move_op_after(self, op: Operation, anchor: Operation) -> None:
        """Move ``op`` right after ``anchor`` (reported as an insertion)."""
        op.move_after(anchor)
        self.listener.notify_op_inserted(op)

    def inline_block_before(self, block: Block, op: Operation,
                            arg_values: Sequence[Value] = ()) -> None:
        """Move the ops of ``block`` before ``op``, replacing the block's arguments with
        ``arg_values``, then erase the (now empty) block."""
        if len(arg_values) != len(block.arguments):
            raise ValueError(f"the block has {len(block.arguments)} arguments but "
                             f"{len(arg_values)} values were given")
        if block.predecessors:
            raise ValueError("cannot inline a block that other blocks branch to")
        for arg, value in zip(block.arguments, arg_values):
            self.replace_all_uses_with(arg, value)
        destination = self._block_of(op)
        for child in block:
            child.detach()
            destination.insert_before(op, child)
            self.listener.notify_op_inserted(child)
        block.erase()
