"""The attribute and type backend: classes for `AttrDef`s and `TypeDef`s with their formats.

A parameter format is a sequence of literals, `$param`, `struct($a, $b)` (or `struct(params)`),
`params`, and optional groups anchored on a defaulted parameter (printed when the value differs
from the default). Without `assemblyFormat`, parameters print as `<p0, p1>`.
"""

from __future__ import annotations

import re

from ..asmformat import punct_space_before
from ..model import AttrOrTypeModel, ParameterModel
from ..predicates import substitute
from ..td import TdError
from .ops import _docstring

_TOKEN = re.compile(r"\s*(?:(`[^`]*`)|(\$[A-Za-z_]\w*)|([A-Za-z_][\w-]*)|(\S))")


class ParamFormat:
    """A parsed parameter format: nested lists of ('lit', text), ('param', p),
    ('struct', [params]) and ('group', elements, anchor)."""

    def __init__(self, model: AttrOrTypeModel) -> None:
        self.model = model
        self.params = {p.name: p for p in model.parameters}
        if model.assembly_format is None:
            self.elements = self._default()
        else:
            self.tokens = [m.group(0).strip() for m in _TOKEN.finditer(model.assembly_format)]
            self.pos = 0
            self.elements = self._sequence(None)
            self._check()

    def error(self, message: str) -> TdError:
        rec = self.model.record
        loc = rec.field_loc("assemblyFormat") if "assemblyFormat" in rec.fields else rec.loc
        return TdError(f"in the assembly format of '{rec.name}': {message}", loc)

    def _default(self) -> list:
        if not self.model.parameters:
            return []
        out: list = [("lit", "<")]
        for i, p in enumerate(self.model.parameters):
            if i:
                out.append(("lit", ","))
            out.append(("param", p))
        return out + [("lit", ">")]

    def _take(self) -> str:
        if self.pos >= len(self.tokens):
            raise self.error("unexpected end of the format")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def _sequence(self, end: str | None) -> list:
        out = []
        while self.pos < len(self.tokens) and self.tokens[self.pos] != end:
            out.append(self._element())
        if end is not None:
            if self.pos >= len(self.tokens):
                raise self.error(f"expected '{end}'")
            self.pos += 1
        return out

    def _param(self, token: str) -> ParameterModel:
        name = token[1:]
        if name not in self.params:
            raise self.error(f"'{token}' is not a parameter")
        return self.params[name]

    def _element(self) -> tuple:
        token = self._take()
        if token.startswith("`"):
            return ("lit", token[1:-1])
        if token.startswith("$"):
            param = self._param(token)
            if self.pos < len(self.tokens) and self.tokens[self.pos] == "^":
                self.pos += 1
                return ("param", param, "anchor")
            return ("param", param)
        if token == "struct":
            if self._take() != "(":
                raise self.error("expected '(' after 'struct'")
            names = self._sequence(")")
            params = []
            for item in names:
                if item == ("lit", ","):
                    continue
                if item[0] == "params":
                    params += self.model.parameters
                elif item[0] == "param":
                    params.append(item[1])
                else:
                    raise self.error("'struct' takes parameters")
            return ("struct", params)
        if token == "params":
            return ("params",)
        if token == ",":
            return ("lit", ",")
        if token == "(":
            elements = self._sequence(")")
            if self._take() != "?":
                raise self.error("expected '?' after an optional group")
            anchors = [e[1] for e in elements if e[0] == "param" and len(e) == 3]
            if len(anchors) != 1 or anchors[0].default is None:
                raise self.error("an optional group needs one anchor ('^') on a parameter "
                                 "with a default value")
            return ("group", elements, anchors[0])
        raise self.error(f"unexpected '{token}' in a parameter format")

    def _check(self) -> None:
        seen: set[str] = set()

        def visit(elements: list) -> None:
            for element in elements:
                if element[0] == "param":
                    seen.add(element[1].name)
                elif element[0] == "struct":
                    seen.update(p.name for p in element[1])
                elif element[0] == "params":
                    seen.update(self.params)
                elif element[0] == "group":
                    visit(element[1])

        visit(self.elements)
        for name, param in self.params.items():
            if name not in seen:
                raise self.error(f"the format omits the parameter '${name}'")

    # -- code ----------------------------------------------------------------------------------

    def printer(self) -> list[str]:
        lines = ["    def print_parameters(self, printer: Printer) -> None:"]
        state = {"space": False, "punct": True}
        self._print(self.elements, lines, 2, state)
        if len(lines) == 1:
            lines.append("        pass")
        return lines

    def _print(self, elements: list, lines: list[str], depth: int, state: dict) -> None:
        pad = "    " * depth
        for element in elements:
            kind = element[0]
            if kind == "lit":
                text = element[1]
                space = state["space"] and punct_space_before(text, state["punct"])
                lines.append(f"{pad}printer.write({(' ' if space else '') + text!r})")
                state["space"] = len(text) != 1 or text not in "<({["
                state["punct"] = not (text[0] == "_" or text[0].isalpha())
                continue
            if kind == "group":
                param = element[2]
                lines.append(f"{pad}if self.{param.accessor} != {param.default}:")
                self._print(element[1], lines, depth + 1, dict(state))
                continue
            if state["space"]:
                lines.append(f'{pad}printer.write(" ")')
            state["space"], state["punct"] = True, False
            params = element[1] if kind == "struct" else (
                self.model.parameters if kind == "params" else [element[1]])
            if kind == "struct":
                self._print_struct(params, lines, pad)
                continue
            for i, param in enumerate(params):
                if i:
                    lines.append(f"{pad}printer.write(', ')")
                lines.append(f"{pad}{self._print_expr(param)}")

    @staticmethod
    def _print_expr(param: ParameterModel) -> str:
        return substitute(param.printer, {"_self": f"self.{param.accessor}", "_printer": "printer"})

    def _print_struct(self, params: list[ParameterModel], lines: list[str], pad: str) -> None:
        """`{a = 1, b = 2}`; as in MLIR, a defaulted field is left out while it holds its
        default. While no field is sure to have been printed (the first ones are defaulted),
        `sep` tracks whether a separator is due."""
        lines.append(f"{pad}printer.write('{{')")
        dynamic = 0
        while dynamic < len(params) and params[dynamic].default is not None:
            dynamic += 1
        if dynamic:
            lines.append(f"{pad}sep = ''")
        for i, param in enumerate(params):
            inner = pad
            if param.default is not None:
                lines.append(f"{pad}if self.{param.accessor} != {param.default}:")
                inner = pad + "    "
            if i <= dynamic and dynamic:
                lines.append(f"{inner}printer.write(sep + {param.name + ' = '!r})")
            else:
                lines.append(f"{inner}printer.write({(', ' if i else '') + param.name + ' = '!r})")
            lines.append(f"{inner}{self._print_expr(param)}")
            if i < dynamic:
                lines.append(f"{inner}sep = ', '")
        lines.append(f"{pad}printer.write('}}')")

    def parser(self) -> list[str]:
        cls = self.model.class_name
        lines = ["    @classmethod", f"    def parse_parameters(cls, parser: Parser) -> {cls}:",
                 "        values: dict[str, object] = {}"]
        verified = "verify" in self.model.hooks
        if verified:
            lines.append("        at = parser.i")
        self._parse(self.elements, lines, 2)
        args = ", ".join(f"{p.accessor}=values[{p.name!r}]" if p.default is None else
                         f"{p.accessor}=values.get({p.name!r}, {p.default})"
                         for p in self.model.parameters)
        if verified:
            # MLIR's getChecked: the `verify` hook returns a message for invalid parameters.
            lines += [f"        result = cls({args})",
                      "        message = result.verify()",
                      "        if message is not None:",
                      "            parser.error(message, at)",
                      "        return result"]
        else:
            lines.append(f"        return cls({args})")
        return lines

    def _parse(self, elements: list, lines: list[str], depth: int) -> None:
        pad = "    " * depth
        for index, element in enumerate(elements):
            kind = element[0]
            if kind == "lit":
                text = element[1]
                method = "parse_keyword" if re.fullmatch(r"[A-Za-z_][\w.]*", text) else "parse_punct"
                lines.append(f"{pad}parser.{method}({text!r})")
            elif kind == "param":
                lines.append(f"{pad}values[{element[1].name!r}] = {self._parse_expr(element[1])}")
            elif kind == "params":
                for i, param in enumerate(self.model.parameters):
                    if i:
                        lines.append(f"{pad}parser.parse_punct(',')")
                    lines.append(f"{pad}values[{param.name!r}] = {self._parse_expr(param)}")
            elif kind == "struct":
                table = ", ".join(f"{p.name!r}: lambda: {self._parse_expr(p)}" for p in element[1])
                required = tuple(p.name for p in element[1] if p.default is None)
                if required:
                    lines.append(f"{pad}start = parser.i")
                lines.append(f"{pad}values.update(parse_struct(parser, {{{table}}}))")
                if required:
                    lines += [f"{pad}for name in {required!r}:",
                              f"{pad}    if name not in values:",
                              f"{pad}        parser.error('struct is missing required parameter: '"
                              f" + name, start)"]
            else:
                first = element[1][0]
                if first[0] != "lit":
                    raise self.error("an optional group must start with a literal")
                method = ("parse_optional_keyword" if re.fullmatch(r"[A-Za-z_]\w*", first[1])
                          else "parse_optional_punct")
                lines.append(f"{pad}if parser.{method}({first[1]!r}):")
                self._parse(element[1][1:], lines, depth + 1)
                if len(element[1]) == 1:
                    lines.append(f"{pad}    pass")

    @staticmethod
    def _parse_expr(param: ParameterModel) -> str:
        return substitute(param.parser, {"_parser": "parser"})


def attr_or_type_class(model: AttrOrTypeModel) -> list[str]:
    """The class of an attribute or type def: constructor, accessors, format."""
    base = "DialectAttribute" if model.kind == "Attr" else "DialectType"
    register = "attribute" if model.kind == "Attr" else "type"
    lines = [f"@DIALECT.{register}", f"class {model.class_name}({base}):"]
    lines += _docstring(model.summary, model.description)
    names = "".join(f"{p.accessor!r}, " for p in model.parameters)
    lines += [
        "",
        f"    DIALECT = {model.dialect!r}",
        f"    MNEMONIC = {model.mnemonic!r}",
        f"    PARAMETERS = ({names})",
        f"    HOOKS = ({''.join(repr(h) + ', ' for h in model.hooks)})",
    ]
    if model.alias:
        lines.append(f"    ALIAS = {model.alias!r}")
    if model.shaped:
        lines.append("    IS_SHAPED = True")
    lines += ["    __slots__ = ()", ""]
    required = [p for p in model.parameters if p.default is None]
    defaulted = [p for p in model.parameters if p.default is not None]
    signature = ", ".join(["cls"] + [f"{p.accessor}: {p.py_type}" for p in required]
                          + [f"{p.accessor}: {p.py_type} = {p.default}" for p in defaulted])
    converted = ", ".join(substitute(p.converter, {"_value": p.accessor})
                          for p in model.parameters)
    lines += [
        f"    def __new__({signature}) -> {model.class_name}:",
        f"        return super().__new__(cls, {converted})",
        "",
    ]
    for index, param in enumerate(model.parameters):
        lines += ["    @property", f"    def {param.accessor}(self) -> {param.py_type}:",
                  f"        return self.parameters[{index}]", ""]
    if "parse_parameters" not in model.hooks:
        fmt = ParamFormat(model)
        lines += fmt.printer() + [""] + fmt.parser() + [""]
    while lines[-1] == "":
        lines.pop()
    return lines
