"""The syntax of the llvm dialect's debug-information attributes, as MLIR prints them:
``#llvm.di_file<"kernel.py" in "/src">`` and, for the others, ``<key = value, ...>`` in the
order of their parameters, each value by its kind: a bare keyword (``DW_LANG_C``), a quoted
string, an integer, a boolean, an attribute, or (last) comma-separated attributes. A field
whose parameter has a default is left out while it holds it."""

from __future__ import annotations

from tilecraft.ir.ods import implements

from .llvm import gen

#: Per attribute class, its fields: (parameter name, accessor, kind).
_FIELDS = {
    gen.LLVMDICompileUnitAttr: (("sourceLanguage", "keyword"), ("file", "attr"),
                                ("producer", "string"), ("isOptimized", "bool"),
                                ("emissionKind", "keyword")),
    gen.LLVMDIBasicTypeAttr: (("tag", "keyword"), ("name", "string"), ("sizeInBits", "int"),
                              ("encoding", "keyword")),
    gen.LLVMDIDerivedTypeAttr: (("tag", "keyword"), ("name", "string"), ("baseType", "attr"),
                                ("sizeInBits", "int"), ("dwarfAddressSpace", "int")),
    gen.LLVMDISubroutineTypeAttr: (("callingConvention", "keyword"), ("types", "attrs")),
    gen.LLVMDISubprogramAttr: (("compileUnit", "attr"), ("scope", "attr"), ("name", "string"),
                               ("linkageName", "string"), ("file", "attr"), ("line", "int"),
                               ("scopeLine", "int"), ("subprogramFlags", "string"),
                               ("type", "attr")),
    gen.LLVMDILexicalBlockFileAttr: (("scope", "attr"), ("file", "attr"),
                                     ("discriminator", "int")),
}
_DEFAULTS = {"compileUnit": None, "dwarfAddressSpace": 0}


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _print_value(printer, kind: str, value) -> None:
    if kind == "keyword":
        printer.write(value)
    elif kind == "string":
        printer.print_string(value)
    elif kind == "bool":
        printer.write("true" if value else "false")
    elif kind == "int":
        printer.write(str(value))
    elif kind == "attr":
        printer.print_attribute(value)
    else:
        for index, item in enumerate(value):
            if index:
                printer.write(", ")
            printer.print_attribute(item)


def _parse_value(parser, kind: str):
    if kind == "keyword":
        return parser.parse_keyword()
    if kind == "string":
        return parser.parse_string()
    if kind == "bool":
        token = parser.i
        word = parser.parse_keyword()
        if word not in ("true", "false"):
            parser.error("expected 'true' or 'false'", token)
        return word == "true"
    if kind == "int":
        return parser.parse_integer()
    if kind == "attr":
        return parser.parse_attribute()
    items = [parser.parse_attribute()]
    while parser.parse_optional_punct(","):
        items.append(parser.parse_attribute())
    return tuple(items)


def print_parameters(self, printer) -> None:
    """``<key = value, ...>``."""
    printer.write("<")
    first = True
    for name, kind in _FIELDS[type(self)]:
        value = getattr(self, _snake(name))
        if name in _DEFAULTS and value == _DEFAULTS[name]:
            continue
        printer.write(("" if first else ", ") + f"{name} = ")
        _print_value(printer, kind, value)
        first = False
    printer.write(">")


@classmethod
def parse_parameters(cls, parser):
    """Read what `print_parameters` writes, the fields in any order."""
    fields = _FIELDS[cls]
    names = [name for name, _ in fields]
    values = {}
    parser.parse_punct("<")
    while True:
        token = parser.i
        name = parser.parse_keyword()
        if name not in names or name in values:
            parser.error(f"expected one of the fields {', '.join(names)}, each once", token)
        parser.parse_punct("=")
        values[name] = _parse_value(parser, dict(fields)[name])
        if dict(fields)[name] == "attrs" or not parser.parse_optional_punct(","):
            break
    parser.parse_punct(">")
    missing = [n for n in names if n not in values and n not in _DEFAULTS]
    if missing:
        parser.error(f"missing field '{missing[0]}'")
    return cls(**{_snake(n): values.get(n, _DEFAULTS.get(n)) for n in names})


for _cls in _FIELDS:
    implements(_cls)(print_parameters)
    implements(_cls)(parse_parameters)


@implements(gen.LLVMDIFileAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<"kernel.py" in "/src">``."""
    printer.write("<")
    printer.print_string(self.name)
    printer.write(" in ")
    printer.print_string(self.directory)
    printer.write(">")


@implements(gen.LLVMDIFileAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    parser.parse_punct("<")
    name = parser.parse_string()
    parser.parse_keyword("in")
    directory = parser.parse_string()
    parser.parse_punct(">")
    return cls(name, directory)
