"""Blocks and regions.

A `Block` holds its operations in a doubly linked list (``first_op``/``last_op`` here,
``prev_op``/``next_op`` on each operation) so that inserting or erasing anywhere is O(1). A
`Region` is an ordered list of blocks owned by an operation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from tilecraft.ir.location import Location, UnknownLoc
from tilecraft.ir.values import BlockArgument

if TYPE_CHECKING:
    from tilecraft.ir.operation import Operation
    from tilecraft.ir.types import Type


#: The gap between consecutive order indices of a block's ops (room for insertions).
_ORDER_STRIDE = 8


class Block:
    """A list of operations with typed ``arguments``, inside a region (``parent``).

    Iterating a block yields its operations; the loop may erase or move the operation it is on.
    """

    __slots__ = ("parent", "arguments", "_first", "_last", "_size", "_ordered")

    def __init__(self, arg_types: Iterable[Type] = (),
                 arg_locations: Iterable[Location] | None = None) -> None:
        self.parent: Region | None = None
        self._first: Operation | None = None
        self._last: Operation | None = None
        self._size = 0
        self._ordered = False  # whether the ops' `_order` indices are valid
        self.arguments: list[BlockArgument] = []
        locations = list(arg_locations) if arg_locations is not None else None
        for position, type_ in enumerate(arg_types):
            self.add_argument(type_, locations[position] if locations else None)

    # -- arguments

    def add_argument(self, type: Type, location: Location | None = None) -> BlockArgument:
        """Append an argument of ``type`` and return it."""
        arg = BlockArgument(type, self, len(self.arguments), location or UnknownLoc())
        self.arguments.append(arg)
        return arg

    def insert_argument(self, index: int, type: Type,
                        location: Location | None = None) -> BlockArgument:
        """Insert an argument of ``type`` at position ``index`` and return it."""
        arg = BlockArgument(type, self, index, location or UnknownLoc())
        self.arguments.insert(index, arg)
        self._renumber_arguments(index + 1)
        return arg

    def erase_argument(self, index: int) -> None:
        """Remove argument ``index``, which must have no uses."""
        arg = self.arguments[index]
        if arg._uses:
            raise ValueError(
                f"cannot erase block argument #{index}: it still has {len(arg._uses)} uses")
        del self.arguments[index]
        self._renumber_arguments(index)

    def _renumber_arguments(self, start: int) -> None:
        for position in range(start, len(self.arguments)):
            self.arguments[position].index = position

    # -- operations

    @property
    def first_op(self) -> Operation | None:
        return self._first

    @property
    def last_op(self) -> Operation | None:
        return self._last

    def __iter__(self) -> Iterator[Operation]:
        op = self._first
        while op is not None:
            following = op._next
            yield op
            op = following

    @property
    def ops(self) -> list[Operation]:
        """The operations, as a list (a snapshot)."""
        return list(self)

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return True

    def append(self, op: Operation) -> Operation:
        """Add ``op`` (not in any block) at the end; returns it."""
        self._link(op, self._last, None)
        return op

    def prepend(self, op: Operation) -> Operation:
        """Add ``op`` at the start; returns it."""
        self._link(op, None, self._first)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        """Insert ``op`` right before ``anchor`` (an operation of this block); returns ``op``."""
        if anchor.parent is not self:
            raise ValueError("the anchor operation is not in this block")
        self._link(op, anchor._prev, anchor)
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        """Insert ``op`` right after ``anchor`` (an operation of this block); returns ``op``."""
        if anchor.parent is not self:
            raise ValueError("the anchor operation is not in this block")
        self._link(op, anchor, anchor._next)
        return op

    def _link(self, op: Operation, prev: Operation | None, following: Operation | None) -> None:
        if op.parent is not None:
            raise ValueError(f"'{op.name}' is already in a block: detach it first")
        if self._ordered:
            self._order_inserted(op, prev, following)
        op.parent = self
        op._prev = prev
        op._next = following
        if prev is None:
            self._first = op
        else:
            prev._next = op
        if following is None:
            self._last = op
        else:
            following._prev = op
        self._size += 1

    def _order_inserted(self, op: Operation, prev: Operation | None,
                        following: Operation | None) -> None:
        """Give ``op``, inserted between ``prev`` and ``following``, an order index between
        theirs, or drop the block's indices when there is no room (MLIR's scheme)."""
        if prev is None and following is None:
            op._order = 0
        elif prev is None:
            op._order = following._order - _ORDER_STRIDE
        elif following is None:
            op._order = prev._order + _ORDER_STRIDE
        elif following._order - prev._order > 1:
            op._order = (prev._order + following._order) // 2
        else:
            self._ordered = False

    def _renumber(self) -> None:
        """Number the ops in order (``_order``), ``_ORDER_STRIDE`` apart."""
        order = 0
        op = self._first
        while op is not None:
            op._order = order
            order += _ORDER_STRIDE
            op = op._next
        self._ordered = True

    def _unlink(self, op: Operation) -> None:
        prev, following = op._prev, op._next
        if prev is None:
            self._first = following
        else:
            prev._next = following
        if following is None:
            self._last = prev
        else:
            following._prev = prev
        op.parent = op._prev = op._next = None
        self._size -= 1

    # -- structure

    @property
    def terminator(self) -> Operation | None:
        """The last operation when it is (or, unregistered, may be) a terminator, else None."""
        from tilecraft.ir.operation import Operation
        from tilecraft.ir.traits import Terminator

        last = self._last
        if last is not None and (type(last) is Operation or last.has_trait(Terminator)):
            return last
        return None

    @property
    def successors(self) -> list[Block]:
        """The blocks the terminator may branch to."""
        term = self.terminator
        return list(term.successors) if term is not None else []

    @property
    def predecessors(self) -> list[Block]:
        """The blocks of the region whose terminators branch here (each once, in block order)."""
        if self.parent is None:
            return []
        return [b for b in self.parent.blocks if b._last is not None and self in b._last.successors]

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def is_entry_block(self) -> bool:
        return self.parent is not None and self.parent.blocks[0] is self

    def drop_all_references(self) -> None:
        """Drop every use made by the operations of this block (and their regions)."""
        for op in self:
            op.drop_all_references()

    def erase(self) -> None:
        """Remove this block from its region, dropping what its operations reference."""
        self.drop_all_references()
        if self.parent is not None:
            self.parent.blocks.remove(self)
            self.parent = None

    def __repr__(self) -> str:
        return f"<Block with {len(self.arguments)} arguments and {self._size} operations>"


class Region:
    """An ordered list of ``blocks`` owned by the operation ``parent``.

    Add blocks with `add_block`/`insert_block` (they set the block's ``parent``).
    """

    __slots__ = ("parent", "blocks")

    def __init__(self, parent: Operation | None = None) -> None:
        self.parent = parent
        self.blocks: list[Block] = []

    @property
    def entry_block(self) -> Block | None:
        """The first block, or None for an empty region."""
        return self.blocks[0] if self.blocks else None

    def add_block(self, block: Block | None = None) -> Block:
        """Append ``block`` (a new empty block by default) and return it."""
        return self.insert_block(len(self.blocks), block)

    def insert_block(self, index: int, block: Block | None = None) -> Block:
        """Insert ``block`` (a new empty block by default) at ``index`` and return it."""
        block = Block() if block is None else block
        if block.parent is not None:
            raise ValueError("the block is already in a region")
        block.parent = self
        self.blocks.insert(index, block)
        return block

    def __iter__(self) -> Iterator[Block]:
        return iter(list(self.blocks))

    @property
    def parent_region(self) -> Region | None:
        """The region containing the operation that owns this one."""
        op = self.parent
        return op.parent.parent if op is not None and op.parent is not None else None

    def is_ancestor(self, other: Region | None) -> bool:
        """Whether ``other`` is this region or nested (at any depth) inside it."""
        while other is not None:
            if other is self:
                return True
            other = other.parent_region
        return False

    def walk(self, post_order: bool = False) -> Iterator[Operation]:
        """Every operation nested in this region (see `Operation.walk`)."""
        for block in self.blocks:
            for op in block:
                yield from op.walk(post_order)

    def drop_all_references(self) -> None:
        for block in self.blocks:
            block.drop_all_references()

    def __repr__(self) -> str:
        return f"<Region with {len(self.blocks)} blocks>"


__all__ = ["Block", "Region"]
