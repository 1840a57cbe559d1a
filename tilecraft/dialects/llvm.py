"""Hooks of the llvm dialect: MLIR's syntax of literal structures and arrays, whose members
print without the ``!llvm.`` prefix when they are LLVM types themselves
(``!llvm.struct<(ptr, array<2 x i64>)>``), as MLIR prints them."""

from __future__ import annotations

from tilecraft.ir.ods import implements

from . import generated_module

gen = generated_module(__name__, "llvm")


def _print_member(printer, type_) -> None:
    """An LLVM type by its mnemonic and parameters; any other type as usual."""
    if getattr(type_, "DIALECT", None) == "llvm":
        printer.write(type_.MNEMONIC)
        type_.print_parameters(printer)
    else:
        printer.print_type(type_)


def _parse_member(parser):
    """An LLVM type written with or without ``!llvm.``, or any other type."""
    mnemonic = parser.parse_optional_keyword(tuple(gen.DIALECT.types))
    if mnemonic is None:
        return parser.parse_type()
    return gen.DIALECT.types[mnemonic].parse_parameters(parser)


@implements(gen.LLVMStructType)
def print_parameters(self, printer) -> None:
    """``<(i32, f32)>``, or ``<packed (i8, i32)>``."""
    printer.write("<packed (" if self.packed else "<(")
    for index, member in enumerate(self.body):
        if index:
            printer.write(", ")
        _print_member(printer, member)
    printer.write(")>")


@implements(gen.LLVMStructType)
@classmethod
def parse_parameters(cls, parser):
    """Read what `print_parameters` writes."""
    parser.parse_punct("<")
    packed = parser.parse_optional_keyword("packed") is not None
    parser.parse_punct("(")
    body = []
    if not parser.parse_optional_punct(")"):
        body.append(_parse_member(parser))
        while parser.parse_optional_punct(","):
            body.append(_parse_member(parser))
        parser.parse_punct(")")
    parser.parse_punct(">")
    return cls(body, packed)


@implements(gen.LLVMArrayType)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<4 x i32>``, as MLIR prints it."""
    printer.write(f"<{self.num_elements} x ")
    _print_member(printer, self.element_type)
    printer.write(">")


@implements(gen.LLVMArrayType)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """``<4 x i32>`` (or ``<4xi32>``): a count, ``x`` and the element type."""
    parser.parse_punct("<")
    token = parser.i
    dims = parser.parse_dimension_list()
    if len(dims) != 1:
        parser.error("expected one dimension: the number of elements", token)
    element_type = _parse_member(parser)
    parser.parse_punct(">")
    return cls(dims[0], element_type)
