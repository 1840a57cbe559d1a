"""Warnings and remarks that passes report without failing, and where they go.

Errors stop a pass: it raises a `Diagnostic` (``raise op.emit_error("...")``); an error that
comes before the one raised is reported with `emit_error(op, msg)`. To tell the user
something and go on, a pass calls `emit_warning(op, msg)` or `emit_remark(op, msg)`; by default
the report is printed to stderr as ``file:line:col: warning: msg`` with the source line and a
caret, and inside ``with collect_diagnostics() as reports:`` it is appended to ``reports``
instead (``tools/opt --verify-diagnostics`` checks them against the expected ones).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Iterator, NamedTuple

from tilecraft.codegen.diagnostics import Diagnostic, SourceLoc, render_diagnostic

if TYPE_CHECKING:
    from tilecraft.ir import Operation

__all__ = ["Report", "emit_error", "emit_warning", "emit_remark", "collect_diagnostics",
           "reports_of"]


class Report(NamedTuple):
    """One diagnostic as reported: ``severity`` is "error", "warning", "remark" or "note"."""

    severity: str
    message: str
    loc: SourceLoc | None
    source: str | None = None

    def render(self) -> str:
        """``file:line:col: severity: message``, the source line and a caret."""
        return render_diagnostic(self.loc, self.message, self.source, self.severity)


_COLLECTOR: ContextVar[list[Report] | None] = ContextVar("tilecraft_reports", default=None)


def emit_error(op: Operation, message: str) -> None:
    """Report an error at ``op``'s location without raising: what a check reports before the
    error its caller then raises (MLIR's ``emitOptionalError`` in a type inference, followed
    by the op's "failed to infer returned types")."""
    _emit("error", op, message)


def emit_warning(op: Operation, message: str) -> None:
    """Report a warning at ``op``'s location; the pass goes on."""
    _emit("warning", op, message)


def emit_remark(op: Operation, message: str) -> None:
    """Report a remark (information, e.g. about a decision a pass took) at ``op``'s location."""
    _emit("remark", op, message)


def _emit(severity: str, op: Operation, message: str) -> None:
    loc, source = op.location.diagnostic_position()
    report = Report(severity, message, loc, source)
    collector = _COLLECTOR.get()
    if collector is None:
        print(report.render(), file=sys.stderr)
    else:
        collector.append(report)


@contextmanager
def collect_diagnostics() -> Iterator[list[Report]]:
    """Within the block, warnings and remarks are appended to the yielded list, not printed."""
    reports: list[Report] = []
    token = _COLLECTOR.set(reports)
    try:
        yield reports
    finally:
        _COLLECTOR.reset(token)


def reports_of(error: Diagnostic) -> list[Report]:
    """A raised diagnostic as reports: the error, then each of its notes."""
    reports = [Report("error", error.message, error.loc, error.source)]
    reports += [Report("note", text, loc, None) for loc, text in error.notes]
    return reports
