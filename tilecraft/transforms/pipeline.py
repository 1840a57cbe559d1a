"""Textual pass pipelines, written as MLIR writes them::

    builtin.module(canonicalize, tt.func(cse, triton-loop-unroll{factor=4}), symbol-dce)

    pipeline := element (',' element)*
    element  := op-name '(' pipeline? ')'          a nested pipeline on the ops named op-name
              | pass-argument ('{' options '}')?   options as `name=value` words

A pipeline that is one nested pipeline on the manager's own anchor (``builtin.module(...)``)
fills that manager; any other (``canonicalize,cse``) is run on the manager's op as it is.
Errors are `PipelineError`s pointing at the offending character of the text with a caret.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Union

from tilecraft.codegen.diagnostics import Diagnostic, SourceLoc

from .pass_registry import create_pass, registered_passes

if TYPE_CHECKING:
    from .pass_manager import OpPassManager

__all__ = ["PipelineError", "parse_pass_pipeline"]

_NAME = re.compile(r"[A-Za-z_][\w.$-]*")


class PipelineError(Diagnostic):
    """A malformed pipeline, an unknown pass, a bad pass option or a misplaced pass."""


class _PassNode:
    __slots__ = ("argument", "options", "offset", "options_offset")

    def __init__(self, argument: str, options: str, offset: int, options_offset: int) -> None:
        self.argument = argument
        self.options = options
        self.offset = offset
        self.options_offset = options_offset


class _NestNode:
    __slots__ = ("anchor", "offset", "children")

    def __init__(self, anchor: str, offset: int) -> None:
        self.anchor = anchor
        self.offset = offset
        self.children: list[_Node] = []


_Node = Union[_PassNode, _NestNode]


def parse_pass_pipeline(text: str, into: OpPassManager, *, source_name: str = "<pass-pipeline>",
                        implicit_nesting: bool = False) -> None:
    """Add the passes of the pipeline ``text`` to ``into``. With ``implicit_nesting`` a pass
    anchored on other ops than its manager's gets nested (see `OpPassManager.add`)."""
    parser = _Parser(text, source_name)
    nodes = parser.parse()
    if len(nodes) == 1 and isinstance(nodes[0], _NestNode) and nodes[0].anchor == into.anchor:
        nodes = nodes[0].children
    parser.build(nodes, into, implicit_nesting)


class _Parser:
    __slots__ = ("text", "source_name", "pos")

    def __init__(self, text: str, source_name: str) -> None:
        self.text = text
        self.source_name = source_name
        self.pos = 0

    def error(self, message: str, offset: int) -> PipelineError:
        before = self.text[:offset]
        line = before.count("\n") + 1
        col = offset - (before.rfind("\n") + 1) + 1
        return PipelineError(message, SourceLoc(self.source_name, line, col), self.text)

    # -- syntax

    def parse(self) -> list[_Node]:
        nodes = self._elements()
        self._skip_space()
        if self.pos < len(self.text):
            raise self.error(f"expected ',' or the end of the pipeline, found "
                             f"'{self.text[self.pos]}'", self.pos)
        return nodes

    def _skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _peek(self) -> str:
        self._skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _elements(self) -> list[_Node]:
        nodes = [self._element()]
        while self._peek() == ",":
            self.pos += 1
            nodes.append(self._element())
        return nodes

    def _element(self) -> _Node:
        self._skip_space()
        match = _NAME.match(self.text, self.pos)
        if match is None:
            found = f"'{self.text[self.pos]}'" if self.pos < len(self.text) else "the end"
            raise self.error(f"expected a pass or an op name, found {found}", self.pos)
        name, start = match.group(), self.pos
        self.pos = match.end()
        following = self._peek()
        if following == "(":
            return self._nested(name, start)
        if following == "{":
            options_start = self.pos + 1
            return _PassNode(name, self._options(), start, options_start)
        return _PassNode(name, "", start, start)

    def _nested(self, anchor: str, start: int) -> _NestNode:
        if "." not in anchor and anchor != "any":
            raise self.error(f"'{anchor}' is not an op name: a nested pipeline is written "
                             f"'dialect.op(...)' (or 'any(...)')", start)
        open_paren = self.pos
        self.pos += 1
        node = _NestNode(anchor, start)
        if self._peek() != ")":
            node.children = self._elements()
        if self._peek() != ")":
            raise self.error("expected ',' or ')' closing the pipeline opened here", open_paren)
        self.pos += 1
        return node

    def _options(self) -> str:
        """The text between the braces at ``pos`` (nested braces and quotes allowed)."""
        open_brace, depth, quote = self.pos, 0, ""
        for index in range(self.pos, len(self.text)):
            char = self.text[index]
            if quote:
                if char == quote:
                    quote = ""
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    self.pos = index + 1
                    return self.text[open_brace + 1:index]
        raise self.error("unbalanced '{': the pass options are not closed", open_brace)

    # -- building the managers

    def build(self, nodes: list[_Node], into: OpPassManager, implicit_nesting: bool) -> None:
        for node in nodes:
            if isinstance(node, _NestNode):
                self.build(node.children, into.nest(node.anchor), implicit_nesting)
                continue
            pass_ = self._create(node)
            try:
                into.add(pass_, implicit_nesting=implicit_nesting)
            except PipelineError as err:
                raise self.error(err.message, node.offset) from None

    def _create(self, node: _PassNode):
        known = registered_passes()
        if node.argument not in known:
            import difflib  # only for the suggestion in an error

            close = difflib.get_close_matches(node.argument, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self.error(f"'{node.argument}' does not refer to a registered pass{hint}",
                             node.offset)
        try:
            return create_pass(node.argument, node.options)
        except Diagnostic as err:
            offset = node.options_offset if node.options else node.offset
            raise self.error(err.message, offset) from None
