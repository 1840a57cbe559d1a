"""Source locations and error messages that point at them.

Shared by the `.td` front end and the IR parser: every user-facing error is rendered as
``file:line:col: error: message`` followed by the offending source line and a caret under the
column, the way compilers print diagnostics. This module imports nothing heavy so that the IR
core can use it without pulling in the `.td` machinery.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar


# (Records made when a first compile imports their module are named tuples, not dataclasses,
# whose code generation costs about a millisecond per class.)
class SourceLoc(NamedTuple):
    """A position in a source text: 1-based line and column, and the file's name if any."""

    file: str | None
    line: int
    col: int

    def __str__(self) -> str:
        prefix = f"{self.file}:" if self.file else ""
        return f"{prefix}{self.line}:{self.col}"


def render_diagnostic(
    loc: SourceLoc | None, message: str, source: str | None = None, severity: str = "error"
) -> str:
    """Return ``loc: severity: message`` plus the source line and a caret when ``source`` is known."""
    head = f"{loc}: {severity}: {message}" if loc else f"{severity}: {message}"
    if loc is None:
        return head
    if source is None:
        source = read_source(loc.file)
        if source is None:
            return head
    # Lines end at "\n" only, as the parsers count them (str.splitlines also splits at
    # U+2028, form feeds and others, which would show the wrong line).
    lines = source.split("\n")
    if not 1 <= loc.line <= len(lines):
        return head
    text = lines[loc.line - 1].removesuffix("\r").expandtabs(1)
    caret = " " * max(loc.col - 1, 0) + "^"
    return f"{head}\n{text}\n{caret}"


def read_source(file: str | None) -> str | None:
    if not file:
        return None
    try:
        with open(file, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


class Diagnostic(Exception):
    """A user-facing error with a location; ``str()`` gives the rendered message with a caret.

    Tools catch this at their top level, print it and exit non-zero: it never escapes as a
    traceback.
    """

    def __init__(
        self, message: str, loc: SourceLoc | None = None, source: str | None = None,
        notes: list[tuple[SourceLoc | None, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.source = source
        self.notes = notes or []

    def __str__(self) -> str:
        parts = [render_diagnostic(self.loc, self.message, self.source)]
        parts += [render_diagnostic(loc, text, None, "note") for loc, text in self.notes]
        return "\n".join(parts)


_D = TypeVar("_D", bound=Diagnostic)


def decode_utf8(data: bytes, file: str, error_type: type[_D] = Diagnostic) -> str:
    """``data`` (the contents of ``file``) as text; raises ``error_type`` at the line and column
    of the first byte that is not UTF-8, with the line shown (bad bytes replaced) and a caret."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start].decode("utf-8")
        line_start = before.rfind("\n") + 1
        loc = SourceLoc(file, before.count("\n") + 1, len(before) - line_start + 1)
        raise error_type(f"this file is not UTF-8 text: byte 0x{data[error.start]:02x} "
                         f"({error.reason})", loc, data.decode("utf-8", "replace")) from None
