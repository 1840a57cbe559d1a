"""The IR core's user-facing errors: `Diagnostic`s rendered with file:line:col and a caret."""

from __future__ import annotations

from tilecraft.codegen.diagnostics import Diagnostic


class ParseError(Diagnostic):
    """Malformed IR text: raised by the parser at the offending token."""


class VerificationError(Diagnostic):
    """IR that breaks an invariant: raised by `Operation.verify` naming the op and its location.

    ``op`` is the operation that failed (None when the error is not about one op).
    """

    def __init__(self, message, loc=None, source=None, notes=None, op=None) -> None:
        super().__init__(message, loc, source, notes)
        self.op = op
