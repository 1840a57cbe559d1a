"""The error a kernel author sees: one `CompilationError` quoting the kernel's line with a
caret, ``file:line:col: error: message``."""

from __future__ import annotations

import os

from tilecraft.codegen.diagnostics import Diagnostic, SourceLoc


def debug_enabled() -> bool:
    """``TILECRAFT_DEBUG=1`` keeps the compiler's traceback on errors."""
    return os.environ.get("TILECRAFT_DEBUG", "") not in ("", "0")


class CompilationError(Diagnostic):
    """An error in a kernel: its location in the user's source, the message and the quoted
    line; ``notes`` say through which calls the failing function was reached."""

    def __init__(self, message: str, loc: SourceLoc | None = None, source: str | None = None,
                 notes: list | None = None) -> None:
        super().__init__(message, loc, source, notes)

    def __reduce__(self):
        return (type(self), (self.message, self.loc, self.source, self.notes))


class UnsupportedLanguageConstruct(CompilationError):
    """Python syntax that kernels do not support (``break``, ``try``, ``for ... else``, ...)."""


class InterpreterError(CompilationError):
    """An error raised while interpreting a kernel, at the kernel's line that caused it."""


class UnsupportedOpError(NotImplementedError):
    """An op that a table of the frontend, the interpreter or a backend has no entry for. The
    message names the op and the table to extend; the kernel's line is added where it is caught
    (a `NotImplementedError`, so both the code generator and the interpreter locate it)."""


def without_traceback(error: BaseException) -> BaseException:
    """``error`` stripped of the compiler's frames, as a user sees it. Its ``__cause__`` (the
    language's own exception, which Triton's tests read) is kept, stripped too and the end of
    the chain; re-raise it with ``raise without_traceback(e) from e.__cause__``."""
    cause = error.__cause__
    if cause is not None:
        cause.__cause__ = None
        cause.__suppress_context__ = True
        cause.with_traceback(None)
    error.__suppress_context__ = True
    return error.with_traceback(None)
