"""Turns `.td` text into the syntax tree of `tilecraft.codegen.td.ast`.

Two steps: `preprocess` removes comments and evaluates ``#ifdef``-style directives (blanking
characters so that lines and columns stay put), then a Lark LALR parser builds the tree directly
through an inline transformer. The parser is built once, lazily; parsed files are cached by name
and preprocessed text for the life of the process.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..diagnostics import SourceLoc
from . import ast
from .bang import BANG_OPERATORS
from .errors import TdError

# --- Preprocessing -----------------------------------------------------------------------------

_SCAN = re.compile(
    r"""(?P<line>//[^\n]*)
      | (?P<block>/\*)
      | (?P<string>"(?:[^"\\\n]|\\.)*")
      | (?P<code>\[\{)
      | (?P<directive>^[ \t]*\#(?:ifdef|ifndef|define|else|endif)\b[^\n]*)""",
    re.MULTILINE | re.VERBOSE)
_COMMENT_DELIMITER = re.compile(r"/\*|\*/")
_NOT_NEWLINE = re.compile(r"[^\n]")
_DIRECTIVE = re.compile(r"[ \t]*#(\w+)[ \t]*(\w*)[ \t]*(.*?)[ \t]*(?://.*|/\*.*?\*/)?$")


def _blank(text: str) -> str:
    return _NOT_NEWLINE.sub(" ", text)


def _loc_at(text: str, pos: int, filename: str) -> SourceLoc:
    line_start = text.rfind("\n", 0, pos) + 1
    return SourceLoc(filename, text.count("\n", 0, pos) + 1, pos - line_start + 1)


class _Conditional:
    """One open ``#ifdef``/``#ifndef``: whether its enclosing region and its test hold."""

    __slots__ = ("outer_active", "condition", "in_else", "loc")

    def __init__(self, outer_active: bool, condition: bool, loc: SourceLoc) -> None:
        self.outer_active = outer_active
        self.condition = condition
        self.in_else = False
        self.loc = loc


def preprocess(text: str, filename: str, macros: set[str]) -> str:
    """Blank out comments, directives and inactive ``#ifdef`` regions of ``text``.

    ``macros`` holds the names defined so far (by this or earlier files); ``#define`` adds to it.
    Every character that is not kept becomes a space, so positions do not move.
    """
    out: list[str] = []
    stack: list[_Conditional] = []
    active = True
    pos = 0
    while True:
        match = _SCAN.search(text, pos)
        gap = text[pos:match.start() if match else len(text)]
        out.append(gap if active else _blank(gap))
        if match is None:
            break
        kind, start, pos = match.lastgroup, match.start(), match.end()
        if kind == "block":
            pos = _end_of_comment(text, start, filename)
        elif kind == "code":
            end = text.find("}]", pos)
            if end < 0:
                raise TdError("unterminated code block: missing '}]'",
                              _loc_at(text, start, filename), text)
            pos = end + 2
        elif kind == "directive":
            active = _directive(match.group(), stack, active, macros,
                                _loc_at(text, text.index("#", start), filename), text)
        keep = active and kind in ("string", "code")
        out.append(text[start:pos] if keep else _blank(text[start:pos]))
    if stack:
        raise TdError("unterminated conditional: missing '#endif'", stack[-1].loc, text)
    return "".join(out)


def _end_of_comment(text: str, start: int, filename: str) -> int:
    depth = 0
    for delimiter in _COMMENT_DELIMITER.finditer(text, start):
        depth += 1 if delimiter.group() == "/*" else -1
        if depth == 0:
            return delimiter.end()
    raise TdError("unterminated comment: missing '*/'", _loc_at(text, start, filename), text)


def _directive(line: str, stack: list[_Conditional], active: bool, macros: set[str],
               loc: SourceLoc, text: str) -> bool:
    """Apply one directive line; returns whether the text after it is active."""
    directive, name, rest = _DIRECTIVE.match(line).groups()  # type: ignore[union-attr]
    needs_name = directive in ("ifdef", "ifndef", "define")
    if needs_name != bool(name) or rest:
        expected = f"'#{directive} NAME'" if needs_name else f"'#{directive}' alone"
        raise TdError(f"malformed directive: expected {expected}", loc, text)
    if directive == "define":
        if active:
            macros.add(name)
        return active
    if directive in ("ifdef", "ifndef"):
        condition = (name in macros) == (directive == "ifdef")
        stack.append(_Conditional(active, condition, loc))
        return active and condition
    if not stack:
        raise TdError(f"'#{directive}' without a matching '#ifdef' or '#ifndef'", loc, text)
    if directive == "else":
        top = stack[-1]
        if top.in_else:
            raise TdError("second '#else' for the same conditional", loc, text)
        top.in_else = True
        return top.outer_active and not top.condition
    return stack.pop().outer_active


# --- Nesting -----------------------------------------------------------------------------------

MAX_NESTING = 200
"""How deeply brackets may nest: enough for any real file, and far from Python's recursion limit
in the evaluator and the generator."""

_BRACKET = re.compile(r'"(?:[^"\\\n]|\\.)*"|\[\{.*?\}\]|[\[({<]|[\])}>]', re.DOTALL)


def check_nesting(clean: str, filename: str, text: str) -> None:
    """Raise `TdError` at the first bracket of ``clean`` (preprocessed text) nested deeper than
    `MAX_NESTING`; strings and code blocks are skipped."""
    depth = 0
    for match in _BRACKET.finditer(clean):
        token = match.group()
        if len(token) > 1:
            continue
        if token in "[({<":
            depth += 1
            if depth > MAX_NESTING:
                raise TdError(f"brackets nest more than {MAX_NESTING} deep here",
                              _loc_at(clean, match.start(), filename), text)
        else:
            depth = max(depth - 1, 0)


# --- Syntax errors -----------------------------------------------------------------------------

_TERMINAL_WORDS = {
    "ID": "identifier", "INT": "integer", "STRING": "string", "CODE": "code block '[{...}]'",
    "VARNAME": "'$name'", "BANG": "bang operator", "$END": "end of file",
}


def _describe_terminal(name: str, parser: Lark) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    pattern = parser.get_terminal(name).pattern
    return f"'{pattern.value}'" if pattern.type == "str" else name


def _syntax_error(error: UnexpectedInput, parser: Lark, filename: str, text: str) -> TdError:
    """A `TdError` for a Lark error: what was found, and (when short enough to help) what the
    grammar expected there."""
    loc = SourceLoc(filename, error.line, error.column)
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            found = "end of file"
            loc = _loc_at(text, len(text.rstrip()), filename)
        else:
            found = f"{_TERMINAL_WORDS.get(token.type, 'token')} '{token.value}'"
        expected = error.expected
    else:
        assert isinstance(error, UnexpectedCharacters)
        found, expected = f"character '{error.char}'", error.allowed or set()
    words = sorted({_describe_terminal(name, parser) for name in expected})
    message = f"unexpected {found}"
    if len(words) == 1:
        message += f"; expected {words[0]}"
    elif 1 < len(words) <= _MAX_EXPECTED:
        message += f"; expected one of {', '.join(words)}"
    return TdError(message, loc, text)


_MAX_EXPECTED = 16
"""Longer lists of expected tokens are left out of syntax errors: they do not help."""


# --- Tree building -----------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
_ESCAPE = re.compile(r"\\(.)")


def _unescape(literal: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), literal[1:-1])


def _parse_int(text: str) -> int:
    digits = text.lstrip("+-")
    base = 16 if digits[:2] in ("0x", "0X") else 2 if digits[:2] in ("0b", "0B") else 10
    value = int(digits[2:] if base != 10 else digits, base)
    return -value if text.startswith("-") else value


class _TreeBuilder(Transformer):
    """Inline Lark callbacks building `ast` nodes; ``file`` is set before each parse."""

    def __init__(self) -> None:
        super().__init__()
        self.file = "<string>"

    def _loc(self, token: Token) -> SourceLoc:
        return SourceLoc(self.file, token.line, token.column)  # type: ignore[arg-type]

    # Statements
    def start(self, items: list[Any]) -> list[ast.Stmt]:
        return items

    def block(self, items: list[Any]) -> list[ast.Stmt]:
        return items

    def include(self, items: list[Any]) -> ast.Include:
        return ast.Include(_unescape(items[0]), self._loc(items[0]))

    def class_def(self, items: list[Any]) -> ast.ClassDef:
        name, targs, parents, body = items
        return ast.ClassDef(str(name), targs or [], parents or [], body, self._loc(name))

    def template_decls(self, items: list[Any]) -> list[ast.TemplateDecl]:
        return items

    def template_decl(self, items: list[Any]) -> ast.TemplateDecl:
        type_, name, default = items
        return ast.TemplateDecl(type_, str(name), default, self._loc(name))

    def def_stmt(self, items: list[Any]) -> ast.DefStmt:
        keyword, name, parents, body = items
        loc = name.loc if name is not None else self._loc(keyword)
        return ast.DefStmt(name, parents or [], body or [], loc)

    def defm(self, items: list[Any]) -> ast.Defm:
        keyword, name, parents = items
        return ast.Defm(name, parents, name.loc if name is not None else self._loc(keyword))

    def def_name(self, items: list[Any]) -> ast.Expr:
        name = items[-1]
        for part in reversed(items[:-1]):
            name = ast.Paste(part, name, part.loc)
        return name

    def parent_list(self, items: list[Any]) -> list[ast.ParentRef]:
        return items

    def parent(self, items: list[Any]) -> ast.ParentRef:
        return ast.ParentRef(str(items[0]), [a for a in items[1:] if a is not None],
                             self._loc(items[0]))

    def arg(self, items: list[Any]) -> ast.Arg:
        return ast.Arg(None, items[0], items[0].loc)

    def named_arg(self, items: list[Any]) -> ast.Arg:
        return ast.Arg(str(items[0]), items[1], self._loc(items[0]))

    def no_body(self, items: list[Any]) -> None:
        return None

    def body(self, items: list[Any]) -> list[ast.BodyItem]:
        return items

    def field_decl(self, items: list[Any]) -> ast.FieldDecl:
        keyword, type_, name, value = items
        return ast.FieldDecl(type_, str(name), value, keyword is not None, self._loc(name))

    def body_let(self, items: list[Any]) -> ast.LetItem:
        return items[0]

    def defvar(self, items: list[Any]) -> ast.Defvar:
        return ast.Defvar(str(items[0]), items[1], self._loc(items[0]))

    def let_stmt(self, items: list[Any]) -> ast.LetStmt:
        return ast.LetStmt(items[:-1], items[-1], items[0].loc)

    def let_item(self, items: list[Any]) -> ast.LetItem:
        name, bit_range, value = items
        return ast.LetItem(str(name), value, bit_range is not None, self._loc(name))

    def bit_range(self, items: list[Any]) -> bool:
        return True

    def range_piece(self, items: list[Any]) -> None:
        return None

    def foreach(self, items: list[Any]) -> ast.Foreach:
        var, (iterable, start, end), body = items
        return ast.Foreach(str(var), iterable, start, end, body, self._loc(var))

    def foreach_range(self, items: list[Any]) -> tuple[Any, Any, Any]:
        return items[0], None, None

    def int_range(self, items: list[Any]) -> tuple[Any, Any, Any]:
        return None, items[0], items[1]

    def multiclass(self, items: list[Any]) -> ast.Multiclass:
        """A multiclass; its parent multiclasses become ``defm NAME : Parents;`` at the start of
        its body, which is what TableGen's multiclass inheritance does."""
        name, template_args, parents, *body = items
        loc = self._loc(name)
        if parents:
            body.insert(0, ast.Defm(ast.Id("NAME", loc), parents, loc))
        return ast.Multiclass(str(name), template_args or [], body, loc)

    def assert_stmt(self, items: list[Any]) -> ast.AssertStmt:
        return ast.AssertStmt(items[1], items[2], self._loc(items[0]))

    def defset(self, items: list[Any]) -> ast.Defset:
        return ast.Defset(items[0], str(items[1]), items[2:], self._loc(items[1]))

    def if_stmt(self, items: list[Any]) -> ast.IfStmt:
        condition, then_body, else_body = items
        return ast.IfStmt(condition, then_body, else_body or [], condition.loc)

    # Types
    def simple_type(self, items: list[Any]) -> ast.TypeNode:
        return ast.TypeNode(str(items[0]), None, self._loc(items[0]))

    def bits_type(self, items: list[Any]) -> ast.TypeNode:
        return ast.TypeNode("bits", _parse_int(items[1]), self._loc(items[0]))

    def list_type(self, items: list[Any]) -> ast.TypeNode:
        return ast.TypeNode("list", items[1], self._loc(items[0]))

    def class_type(self, items: list[Any]) -> ast.TypeNode:
        return ast.TypeNode(str(items[0]), None, self._loc(items[0]))

    # Values
    def paste(self, items: list[Any]) -> ast.Paste:
        return ast.Paste(items[0], items[1], items[0].loc)

    def field_access(self, items: list[Any]) -> ast.FieldAccess:
        return ast.FieldAccess(items[0], str(items[1]), self._loc(items[1]))

    def index(self, items: list[Any]) -> ast.Index:
        return ast.Index(items[0], items[2], self._loc(items[1]))

    def integer(self, items: list[Any]) -> ast.IntLit:
        return ast.IntLit(_parse_int(items[0]), self._loc(items[0]))

    def true(self, items: list[Any]) -> ast.IntLit:
        return ast.IntLit(1, self._loc(items[0]))

    def false(self, items: list[Any]) -> ast.IntLit:
        return ast.IntLit(0, self._loc(items[0]))

    def string(self, items: list[Any]) -> ast.StrLit:
        return ast.StrLit("".join(_unescape(s) for s in items), False, self._loc(items[0]))

    def code(self, items: list[Any]) -> ast.StrLit:
        return ast.StrLit(items[0][2:-2], True, self._loc(items[0]))

    def unset(self, items: list[Any]) -> ast.UnsetLit:
        return ast.UnsetLit(self._loc(items[0]))

    def identifier(self, items: list[Any]) -> ast.Id:
        return ast.Id(str(items[0]), self._loc(items[0]))

    def anon(self, items: list[Any]) -> ast.AnonInst:
        return ast.AnonInst(str(items[0]), [a for a in items[1:] if a is not None],
                            self._loc(items[0]))

    def list_value(self, items: list[Any]) -> ast.ListLit:
        elements = [e for e in items[1:-1] if e is not None]
        return ast.ListLit(elements, items[-1], self._loc(items[0]))

    def bits(self, items: list[Any]) -> ast.BitsLit:
        return ast.BitsLit(items, items[0].loc)

    def dag(self, items: list[Any]) -> ast.DagLit:
        (op, op_name), args = items[0], [a for a in items[1:] if a is not None]
        return ast.DagLit(op, op_name, args, op.loc)

    def dag_op(self, items: list[Any]) -> tuple[ast.Expr, str | None]:
        return items[0], items[1][1:] if items[1] is not None else None

    def dag_arg(self, items: list[Any]) -> tuple[ast.Expr | None, str | None]:
        return items[0], items[1][1:] if items[1] is not None else None

    def dag_name_only(self, items: list[Any]) -> tuple[ast.Expr | None, str | None]:
        return None, items[0][1:]

    def bang(self, items: list[Any]) -> ast.Bang:
        token, type_arg = items[0], items[1]
        loc = self._loc(token)
        op = token[1:]
        if op not in BANG_OPERATORS:
            raise TdError(f"unknown bang operator '!{op}'", loc)
        args = [a for a in items[2:] if a is not None and not isinstance(a, Token)]
        trailing = items[-1]
        if isinstance(trailing, Token) and op != "cond":
            raise TdError("unexpected ',' before ')': only '!cond' takes a trailing comma",
                          self._loc(trailing))
        for arg in args:
            if isinstance(arg, ast.CondArg) != (op == "cond"):
                where = arg.loc if isinstance(arg, ast.CondArg) else loc
                raise TdError("'!cond' operands must be 'condition : value'" if op == "cond"
                              else f"unexpected ':' in operands of '!{op}'", where)
        return ast.Bang(op, type_arg, args, loc)

    def bang_arg(self, items: list[Any]) -> ast.Expr:
        if items[1] is None:
            return items[0]
        return ast.CondArg(items[0], items[1], items[0].loc)


_builder = _TreeBuilder()
_parser: Lark | None = None
_cache: dict[tuple[str, str], list[ast.Stmt]] = {}


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        grammar = Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8")
        _parser = Lark(grammar, parser="lalr", transformer=_builder, cache=True)
    return _parser


def parse(text: str, filename: str, macros: set[str]) -> list[ast.Stmt]:
    """Preprocess and parse ``text`` (the contents of ``filename``) into statements.

    ``macros`` is updated by the file's ``#define`` directives. Raises `TdError` on any error.
    """
    clean = preprocess(text, filename, macros)
    key = (filename, clean)
    if key not in _cache:
        check_nesting(clean, filename, text)
        parser = _get_parser()
        _builder.file = filename
        try:
            _cache[key] = cast("list[ast.Stmt]", parser.parse(clean))
        except UnexpectedInput as error:
            raise _syntax_error(error, parser, filename, text) from None
        except TdError as error:
            error.source = text
            raise
    return _cache[key]
