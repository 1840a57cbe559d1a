"""Helpers for the analysis tests: parse IR text and find ops and values by ``loc("name")``."""

from __future__ import annotations

from tilecraft.ir import Block, NameLoc, Operation, Value, parse_module


def parse(text: str, *, unregistered: bool = False) -> Operation:
    return parse_module(text, allow_unregistered=unregistered)


def op_named(root: Operation, name: str) -> Operation:
    """The op written with ``loc("name")``."""
    found = [op for op in root.walk()
             if isinstance(op.location, NameLoc) and op.location.name == name]
    assert len(found) == 1, f"{len(found)} ops named {name!r}"
    return found[0]


def value(root: Operation, name: str, index: int = 0) -> Value:
    """Result ``index`` of the op named ``name``, or the block argument named ``name``."""
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if isinstance(arg.location, NameLoc) and arg.location.name == name:
                        return arg
    return op_named(root, name).results[index]


def func(root: Operation, symbol: str) -> Operation:
    for op in root.walk():
        attr = op.get_attr("sym_name")
        if attr is not None and attr.value == symbol:
            return op
    raise KeyError(symbol)


def blocks(fn: Operation) -> list[Block]:
    """The blocks of ``fn``'s body."""
    return list(fn.regions[0].blocks)
