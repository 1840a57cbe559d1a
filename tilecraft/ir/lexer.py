"""Tokens of MLIR text, and where they are.

The whole text is split at once with one compiled regular expression (`token_re().findall`), which
yields the tokens as plain strings: the parser classifies a token by its first character. Token
positions are only needed for diagnostics and locations, so `Source` computes them on first
demand, with a second pass of the same expression.
"""

from __future__ import annotations

import bisect
import functools
import re
from array import array
from itertools import accumulate, repeat

from tilecraft.codegen.diagnostics import SourceLoc
from tilecraft.ir.location import FileLineColLoc

_STRING = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_TOKEN = "|".join([
    r"::|->|\.\.\.|[()\[\]{}<>,:=*?+]",   # punctuation, the most frequent tokens, first
    r"%[A-Za-z0-9_$.\-]+(?:#\d+)?",       # SSA value use or definition, with its result number
    _STRING,
    r"\^[A-Za-z0-9_$.\-]+",               # block label
    rf"@(?:[A-Za-z_][\w$.]*|{_STRING})",  # symbol reference
    r"[#!][A-Za-z_][\w$.\-]*",            # attribute / type alias or dialect name
    r"0x[0-9A-Fa-f]+",                    # hexadecimal integer (or float bits)
    r"-?\d+(?:\.\d*(?:[eE][+-]?\d+)?)?",  # integer or float
    r"(?<=[0-9?])x",                      # the 'x' of a dimension list: 4x?x8xf32
    r"[A-Za-z_][\w$.]*",                  # bare identifier or keyword
    r"\S",                                # anything else: the parser rejects it
])


@functools.cache
def token_re() -> re.Pattern[str]:
    """The tokens' regular expression, compiled when IR is first read (about a millisecond: a
    compile that parses no IR text does not pay it). The empty match at the end (``\\Z``) lets
    the text end in comments; `Source.tokenize` drops it."""
    return re.compile(r"\s*+(?://[^\n]*+\s*+)*+(" + _TOKEN + r"|\Z)")


EOF = "\0"  # the token after the last one


#: How deeply brackets (``( [ { <``: regions, types, attributes) may nest: far more than real IR
#: needs (Triton's tests reach 11), and little enough that the recursive parser, verifier,
#: printer and passes stay well within Python's recursion limit.
MAX_NESTING = 64
_NESTING = {"(": 1, "[": 1, "{": 1, "<": 1, ")": -1, "]": -1, "}": -1, ">": -1}


def describe(token: str) -> str:
    """How an error message names ``token``."""
    return "end of file" if token == EOF else f"'{token}'"


class Source:
    """A text being parsed: its tokens' offsets, lines and columns, computed when first needed.

    ``splices`` records where the parser split one token into several (``0xf32`` in a
    dimension list is ``0`` ``x`` ``f32``), so that later token numbers still map to the text.
    """

    __slots__ = ("text", "filename", "splices", "_starts", "_line_starts")

    def __init__(self, text: str, filename: str | None) -> None:
        self.text = text
        self.filename = filename
        self.splices: list[tuple[int, int]] = []
        self._starts: array | None = None
        self._line_starts: array | None = None

    def tokenize(self) -> list[str]:
        tokens = token_re().findall(self.text)
        while tokens and tokens[-1] == "":
            tokens.pop()
        tokens.append(EOF)
        return tokens

    @staticmethod
    def check(tokens: list[str]) -> tuple[int, str] | None:
        """The first of ``tokens`` (as `tokenize` gives them) that the text may not hold, and
        why: a character that is not ASCII outside a string (as in MLIR; a digit such as ``²``
        would pass for a number), a NUL character (it would read as the end of the text), or a
        bracket nested more than `MAX_NESTING` deep; None when there is none."""
        found: list[tuple[int, str]] = []
        nul = tokens.index(EOF)
        if nul < len(tokens) - 1:
            found.append((nul, "unexpected NUL character"))
        for index, token in enumerate(() if all(map(str.isascii, tokens)) else tokens):
            if not token.isascii() and '"' not in token[:2]:
                char = next(c for c in token if not c.isascii())
                found.append((index, f"unexpected character {char!r} (U+{ord(char):04X})"))
                break
        if max(accumulate(map(_NESTING.get, tokens, repeat(0))), default=0) > MAX_NESTING:
            depth = 0
            for index, token in enumerate(tokens):
                depth += _NESTING.get(token, 0)
                if depth > MAX_NESTING:
                    found.append((index, f"brackets nested more than {MAX_NESTING} deep"))
                    break
        return min(found, default=None)

    def offset(self, index: int) -> int:
        """The character offset where token ``index`` starts."""
        if self._starts is None:
            self._starts = array("q", [m.start(1) for m in token_re().finditer(self.text)])
            self._starts.append(len(self.text))
        for at, extra in self.splices:
            if index > at:
                index = at if index <= at + extra else index - extra
        return self._starts[min(index, len(self._starts) - 1)]

    def line_col(self, index: int) -> tuple[int, int]:
        """The 1-based line and column of token ``index``."""
        offset = self.offset(index)
        if self._line_starts is None:
            self._line_starts = array("q", [0] + [m.end() for m in re.finditer("\n", self.text)])
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def source_loc(self, index: int) -> SourceLoc:
        line, col = self.line_col(index)
        return SourceLoc(self.filename, line, col)


class TokenLoc(FileLineColLoc):
    """The `FileLineColLoc` of a token in parsed text, resolved to a line and column on first
    use: the default location of a parsed op, as MLIR gives it."""

    __slots__ = ("_source", "_token")

    @property
    def file(self) -> str:
        return self._source.filename or ""

    @property
    def line(self) -> int:
        return self._source.line_col(self._token)[0]

    @property
    def col(self) -> int:
        return self._source.line_col(self._token)[1]

    end_line = None
    end_col = None

    def diagnostic_position(self) -> tuple[SourceLoc, str]:
        return self._source.source_loc(self._token), self._source.text


_set_source = TokenLoc._source.__set__
_set_token = TokenLoc._token.__set__


def token_loc(source: Source, index: int) -> TokenLoc:
    """The location of token ``index`` of ``source``."""
    loc = object.__new__(TokenLoc)
    _set_source(loc, source)
    _set_token(loc, index)
    return loc
