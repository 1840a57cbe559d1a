"""The IR core's own ``builtin`` dialect: ``builtin.module``, printed ``module { ... }``.

It is a fallback: when a generated ``tilecraft.generated.builtin`` exists, the registry uses that
instead, and the core only relies on an op named ``builtin.module`` existing.
"""

from __future__ import annotations

from tilecraft.ir.attributes import StringAttr
from tilecraft.ir.block import Block
from tilecraft.ir.location import Location
from tilecraft.ir.operation import Operation
from tilecraft.ir.registry import register_fallback
from tilecraft.ir.traits import IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable

CORE_BUILTIN = register_fallback("builtin", "The IR core's minimal builtin dialect.")


@CORE_BUILTIN.op
class ModuleOp(Operation):
    """``module @name attributes {...} { ... }``: the top-level container of a program."""

    __slots__ = ()
    OPERATION_NAME = "builtin.module"
    TRAITS = (IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable)
    PROPERTY_NAMES = ("sym_name", "sym_visibility")

    @classmethod
    def build(cls, location: Location | None = None) -> Operation:
        """An empty module (one empty block), of the registered ``builtin.module`` class."""
        module = Operation.create(cls.OPERATION_NAME, regions=1, location=location)
        module.regions[0].add_block()
        return module

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def print(self, printer) -> None:
        name = self.properties.get("sym_name")
        if name is not None:
            printer.write(" ")
            printer.print_symbol_name(name.value)
        printer.print_attr_dict_with_keyword(self.attributes)
        printer.write(" ")
        printer.print_region(self.regions[0], print_entry_block_args=False)

    @classmethod
    def parse(cls, parser) -> Operation:
        properties = {}
        name = parser.parse_optional_symbol_name()
        if name is not None:
            properties["sym_name"] = StringAttr(name)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block()
        return cls.create(cls.OPERATION_NAME, properties=properties, attributes=attributes,
                          regions=[region])


__all__ = ["CORE_BUILTIN", "ModuleOp"]
