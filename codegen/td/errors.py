"""`TdError`: every error the `.td` front end reports, rendered with its line and a caret."""

from __future__ import annotations

from ..diagnostics import Diagnostic, SourceLoc


class TdError(Diagnostic):
    """A syntax or semantic error in a `.td` file.

    ``str()`` renders ``file:line:col: error: message`` followed by the source line, a caret under
    the column, and any notes (such as where a duplicate was first defined). Characters of the
    message that are not printable are escaped, so it stays on one line.
    """

    def __init__(self, message: str, loc: SourceLoc | None = None, source: str | None = None,
                 notes: list[tuple[SourceLoc | None, str]] | None = None) -> None:
        super().__init__(printable(message), loc, source, notes)


def printable(text: str) -> str:
    """``text`` with the characters that are not printable escaped (``\\n``, ``\\x00``,
    ``\\u2028``), so that a message quoting a `.td` value stays on its line."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
