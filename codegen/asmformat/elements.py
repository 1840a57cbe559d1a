"""The elements of a declarative assembly format and the parser of format strings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import OpModel
from ..td import TdError

_TOKEN = re.compile(r"\s*(?:(`(?:[^`\\]|\\.)*`)|(\$[A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][\w-]*)|(\S))")
_DIRECTIVES = {
    "attr-dict", "attr-dict-with-keyword", "type", "functional-type", "operands", "results",
    "regions", "successors", "qualified",
}
_UNSUPPORTED = {"custom", "ref", "oilist", "prop-dict"}


@dataclass
class Literal:
    text: str

    @property
    def is_keyword(self) -> bool:
        return bool(re.fullmatch(r"[A-Za-z_][\w.$]*", self.text))


@dataclass
class Var:
    name: str
    kind: str  # operand, attribute, region, successor, result
    anchor: bool = False


@dataclass
class AttrDict:
    with_keyword: bool


@dataclass
class Operands:
    """The `operands` directive: all operands, comma-separated."""


@dataclass
class Results:
    """The `results` directive (only inside `type(...)`/`functional-type(...)`)."""


@dataclass
class Regions:
    """The `regions` directive."""


@dataclass
class Successors:
    """The `successors` directive."""


@dataclass
class TypeOf:
    arg: Var | Operands | Results
    anchor: bool = False


@dataclass
class FunctionalType:
    inputs: Var | Operands
    outputs: Var | Results


@dataclass
class Group:
    elements: list
    else_elements: list = field(default_factory=list)

    def anchor(self) -> Var | TypeOf | None:
        for element in self.elements:
            if isinstance(element, (Var, TypeOf)) and element.anchor:
                return element
        return None


Element = Literal | Var | AttrDict | Operands | Regions | Successors | TypeOf | FunctionalType | Group


class FormatParser:
    """Parses a format string for `op`; errors are TdErrors at the assemblyFormat field."""

    def __init__(self, op: OpModel) -> None:
        self.op = op
        self.loc = op.record.field_loc("assemblyFormat")
        matches = [m for m in _TOKEN.finditer(op.assembly_format or "") if m.group(0).strip()]
        self.tokens = [m.group(0).strip() for m in matches]
        self.offsets = [m.start(m.lastindex) for m in matches]
        self.pos = 0
        self.kinds: dict[str, str] = {}
        for name_list, kind in (
            ([o.name for o in op.operands], "operand"), ([a.name for a in op.attributes], "attribute"),
            ([r.name for r in op.regions], "region"), ([s.name for s in op.successors], "successor"),
            ([r.name for r in op.results], "result"),
        ):
            for name in name_list:
                self.kinds[name] = kind

    def error(self, message: str, offset: int | None = None) -> TdError:
        """An error at the format string; at the offending token when `offset` is known (and
        the format is written on the line of its field)."""
        if offset is None and self.pos < len(self.offsets) and self.tokens:
            offset = self.offsets[max(self.pos - 1, 0)]
        return TdError(f"in the assembly format of '{self.op.record.name}': {message}",
                       _string_loc(self.loc, self.op.assembly_format or "", offset))

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None:
            raise self.error(f"expected '{expected}' but the format ended" if expected
                             else "unexpected end of the format")
        if expected is not None and token != expected:
            raise self.error(f"expected '{expected}' but found '{token}'")
        self.pos += 1
        return token

    def parse(self) -> list[Element]:
        elements = []
        while self.peek() is not None:
            elements.append(self.element(top=True))
        return elements

    def element(self, top: bool = False) -> Element:
        token = self.take()
        if token.startswith("`"):
            text = token[1:-1].replace("\\`", "`")
            if text in ("", " ", "\\n"):
                raise self.error("space and newline literals are not supported")
            return Literal(text)
        if token.startswith("$"):
            return self.anchored(self.var(token[1:]))
        if token == "(":
            return self.group()
        if token in _UNSUPPORTED:
            raise self.error(f"the '{token}' directive is not supported")
        if token not in _DIRECTIVES:
            raise self.error(f"unknown directive '{token}'")
        if token in ("attr-dict", "attr-dict-with-keyword"):
            return AttrDict(token == "attr-dict-with-keyword")
        if token == "operands":
            return Operands()
        if token == "regions":
            return Regions()
        if token == "successors":
            return Successors()
        if token == "results":
            raise self.error("'results' may only appear inside 'type(...)' or "
                             "'functional-type(...)'")
        if token == "qualified":
            self.take("(")
            inner = self.element()
            self.take(")")
            return inner
        if token == "type":
            self.take("(")
            arg = self.type_arg()
            self.take(")")
            return self.anchored(TypeOf(arg))
        self.take("(")
        inputs = self.type_arg()
        self.take(",")
        outputs = self.type_arg()
        self.take(")")
        return FunctionalType(inputs, outputs)

    def anchored(self, element: Var | TypeOf) -> Var | TypeOf:
        if self.peek() == "^":
            self.take()
            element.anchor = True
        return element

    def var(self, name: str) -> Var:
        kind = self.kinds.get(name)
        if kind is None:
            raise self.error(f"'${name}' is not an operand, attribute, region, successor or "
                             "result of the op")
        return Var(name, kind)

    def type_arg(self) -> Var | Operands | Results:
        token = self.take()
        if token == "operands":
            return Operands()
        if token == "results":
            return Results()
        if token.startswith("$"):
            var = self.var(token[1:])
            if var.kind not in ("operand", "result"):
                raise self.error(f"'type(${var.name})' needs an operand or a result")
            return var
        raise self.error(f"expected an operand, a result, 'operands' or 'results', not "
                         f"'{token}'")

    def group(self) -> Group:
        elements = []
        while self.peek() not in (")", None):
            elements.append(self.element())
        self.take(")")
        else_elements = []
        if self.peek() == ":":
            self.take()
            self.take("(")
            while self.peek() not in (")", None):
                else_elements.append(self.element())
            self.take(")")
        self.take("?")
        group = Group(elements, else_elements)
        if not elements:
            raise self.error("an optional group cannot be empty")
        if group.anchor() is None:
            raise self.error("an optional group needs an anchor ('^') on one of its elements")
        return group


def _string_loc(loc, text: str, offset: int | None):
    """The location of character `offset` of the string value of a field set at `loc`."""
    from ..diagnostics import SourceLoc, read_source

    source = read_source(loc.file) if loc is not None else None
    if source is None or offset is None:
        return loc
    lines = source.splitlines()
    if not 1 <= loc.line <= len(lines):
        return loc
    line = lines[loc.line - 1]
    start = line.find('"', loc.col - 1)
    if start < 0 or line[start + 1:start + 1 + len(text)] != text:
        return loc
    return SourceLoc(loc.file, loc.line, start + 2 + offset)


def walk(elements: list) -> list:
    out = []
    for element in elements:
        out.append(element)
        if isinstance(element, Group):
            out += walk(element.elements) + walk(element.else_elements)
        elif isinstance(element, TypeOf):
            out.append(element.arg)
        elif isinstance(element, FunctionalType):
            out += [element.inputs, element.outputs]
    return out
