"""`Builder`: creates operations at an insertion point."""

from __future__ import annotations

from typing import Iterable

from tilecraft.ir.attributes import Attribute
from tilecraft.ir.block import Block, Region
from tilecraft.ir.location import Location
from tilecraft.ir.operation import Operation
from tilecraft.ir.types import Type
from tilecraft.ir.values import Value


class Builder:
    """Inserts operations into ``block`` before ``anchor`` (at the end when ``anchor`` is None).

    Successive insertions keep their order. Ops created without a location get ``location``.
    """

    __slots__ = ("block", "anchor", "location")

    def __init__(self, block: Block, anchor: Operation | None = None,
                 location: Location | None = None) -> None:
        if anchor is not None and anchor.parent is not block:
            raise ValueError("the anchor operation is not in the block")
        self.block = block
        self.anchor = anchor
        self.location = location

    @classmethod
    def at_end(cls, block: Block, location: Location | None = None) -> Builder:
        return cls(block, None, location)

    @classmethod
    def at_start(cls, block: Block, location: Location | None = None) -> Builder:
        return cls(block, block.first_op, location)

    @classmethod
    def before(cls, op: Operation, location: Location | None = None) -> Builder:
        return cls(cls._block_of(op), op, location)

    @classmethod
    def after(cls, op: Operation, location: Location | None = None) -> Builder:
        return cls(cls._block_of(op), op.next_op, location)

    @staticmethod
    def _block_of(op: Operation) -> Block:
        if op.parent is None:
            raise ValueError(f"'{op.name}' is not in a block")
        return op.parent

    def insert(self, op: Operation) -> Operation:
        """Insert the detached ``op`` at the insertion point; returns it."""
        if self.anchor is None:
            self.block.append(op)
        else:
            self.block.insert_before(self.anchor, op)
        return op

    def create(
        self,
        name: str,
        operands: Iterable[Value] = (),
        result_types: Iterable[Type] = (),
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: int | Iterable[Region] = 0,
        successors: Iterable[Block] = (),
        location: Location | None = None,
    ) -> Operation:
        """`Operation.create` then `insert`."""
        op = Operation.create(name, operands, result_types, properties, attributes, regions,
                              successors, location or self.location)
        return self.insert(op)


__all__ = ["Builder"]
