"""SSA values and their uses.

A `Value` is an `OpResult` (defined by an operation) or a `BlockArgument`. Each value keeps its
uses, the `OpOperand`s that read it, in an insertion-ordered dict so that adding and removing a
use is O(1) and iteration follows creation order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from tilecraft.ir.block import Block, Region
    from tilecraft.ir.location import Location
    from tilecraft.ir.operation import Operation
    from tilecraft.ir.types import Type


class Value:
    """An SSA value of type ``type`` (assignable: passes may retype a value in place)."""

    __slots__ = ("type", "_uses")

    def __init__(self, type: Type) -> None:
        self.type = type
        self._uses: dict[OpOperand, None] = {}

    @property
    def uses(self) -> tuple[OpOperand, ...]:
        """The operands reading this value, oldest first (a snapshot, safe to loop over while
        changing the uses)."""
        return tuple(self._uses)

    @property
    def users(self) -> list[Operation]:
        """The operations reading this value, each once, in use order."""
        return list(dict.fromkeys(use.owner for use in self._uses))

    def has_one_use(self) -> bool:
        return len(self._uses) == 1

    def use_empty(self) -> bool:
        return not self._uses

    def replace_all_uses_with(self, new: Value) -> None:
        """Make every use of this value read ``new`` instead."""
        if new is self:
            return
        for use in tuple(self._uses):
            use.set(new)

    def replace_uses_with_if(self, new: Value, predicate: Callable[[OpOperand], bool]) -> None:
        """Make the uses for which ``predicate(use)`` holds read ``new`` instead."""
        for use in tuple(self._uses):
            if predicate(use):
                use.set(new)

    @property
    def defining_op(self) -> Operation | None:
        """The operation defining this value (None for a block argument)."""
        return None

    @property
    def parent_block(self) -> Block | None:
        """The block this value is defined in (None when detached)."""
        return None

    @property
    def parent_region(self) -> Region | None:
        block = self.parent_block
        return block.parent if block is not None else None

    def __str__(self) -> str:
        from tilecraft.ir.printer import Printer

        return Printer().value_to_string(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"


class OpResult(Value):
    """Result number ``index`` of the operation ``owner``."""

    __slots__ = ("owner", "index")

    def __init__(self, type: Type, owner: Operation, index: int) -> None:
        self.type = type
        self._uses = {}
        self.owner = owner
        self.index = index

    @property
    def defining_op(self) -> Operation:
        return self.owner

    @property
    def parent_block(self) -> Block | None:
        return self.owner.parent


class BlockArgument(Value):
    """Argument number ``index`` of the block ``owner``, with its own source ``location``."""

    __slots__ = ("owner", "index", "location")

    def __init__(self, type: Type, owner: Block, index: int, location: Location) -> None:
        self.type = type
        self._uses = {}
        self.owner = owner
        self.index = index
        self.location = location

    @property
    def parent_block(self) -> Block:
        return self.owner


class OpOperand:
    """Operand number ``index`` of ``owner``: one use of ``value``. Change it with `set`."""

    __slots__ = ("_value", "owner", "index")

    def __init__(self, owner: Operation, index: int, value: Value) -> None:
        self.owner = owner
        self.index = index
        self._value = value
        value._uses[self] = None

    @property
    def value(self) -> Value:
        return self._value

    def set(self, value: Value) -> None:
        """Read ``value`` from now on (updates both values' use lists)."""
        del self._value._uses[self]
        self._value = value
        value._uses[self] = None

    def drop(self) -> None:
        """Remove this use from its value's use list (the operand is being destroyed)."""
        self._value._uses.pop(self, None)

    def __repr__(self) -> str:
        return f"<OpOperand #{self.index} of '{self.owner.name}'>"


__all__ = ["Value", "OpResult", "BlockArgument", "OpOperand"]
