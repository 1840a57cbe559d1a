"""tilecraft's IR core: types, attributes, locations, values, operations, blocks, regions,
traits, dialect registry, printer and parser, in MLIR's model and text format.

``from tilecraft.ir import *`` gives the public names; generated dialect modules use exactly
that import, and `.td` constraint predicates are evaluated in this namespace.
"""

from tilecraft.ir import traits
from tilecraft.ir.attributes import *  # noqa: F401,F403
from tilecraft.ir.attributes import __all__ as _attributes_all
from tilecraft.ir.block import Block, Region
from tilecraft.ir.builder import Builder
from tilecraft.ir.errors import ParseError, VerificationError
from tilecraft.ir.location import (
    CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc, UnknownLoc,
)
from tilecraft.ir.operation import Operation
from tilecraft.ir.parametric import DialectAttribute, DialectType
from tilecraft.ir.parser import (
    Argument, Parser, UnresolvedOperand, parse_attribute, parse_module, parse_op, parse_type,
)
from tilecraft.ir.printer import Printer, print_op
from tilecraft.ir.registry import Dialect, get_dialect, lookup_op
from tilecraft.ir.traits import *  # noqa: F401,F403
from tilecraft.ir.traits import __all__ as _traits_all
from tilecraft.ir.types import *  # noqa: F401,F403
from tilecraft.ir.types import __all__ as _types_all
from tilecraft.ir.values import BlockArgument, OpOperand, OpResult, Value

__all__ = [
    *_types_all, *_attributes_all, *_traits_all, "traits",
    "DialectType", "DialectAttribute",
    "Location", "UnknownLoc", "FileLineColLoc", "NameLoc", "CallSiteLoc", "FusedLoc",
    "Value", "OpResult", "BlockArgument", "OpOperand", "Operation", "Block", "Region", "Builder",
    "Dialect", "get_dialect", "lookup_op",
    "Printer", "print_op", "Parser", "UnresolvedOperand", "Argument",
    "parse_module", "parse_op", "parse_type", "parse_attribute",
    "ParseError", "VerificationError",
]
