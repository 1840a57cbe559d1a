"""``--verify-diagnostics``: check the diagnostics of an input against those it expects.

Expected diagnostics are comments in the input, as mlir-opt reads them::

    %0 = arith.addi %a, %b : i32  // expected-error {{requires the same type}}
    // expected-error @+1 {{...}}      the next line (@-2: two lines up)
    // expected-warning @below {{...}} the next line without an expected-... comment
    // expected-note @above {{...}}    the last line above without one
    // expected-remark @unknown {{...}} a diagnostic without a location

Severities are ``error``, ``warning``, ``note`` and ``remark``. A diagnostic matches the first
expected one of its severity on its line whose text it contains, as in MLIR even when that one
was matched already (``{{type}}`` takes every error on its line that mentions a type). Unmatched diagnostics are reported as
``unexpected error: ...`` at their location (not with ``--verify-diagnostics=only-expected``),
unmatched expectations as ``expected error "..." was not produced`` at the comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tilecraft.codegen.diagnostics import Diagnostic, SourceLoc, render_diagnostic

from .diagnostics import Report

__all__ = ["Expected", "expected_diagnostics", "check_diagnostics"]

_DESIGNATOR = re.compile(
    r"expected-(error|warning|note|remark)\s*(?:@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}")
_ANY_DESIGNATOR = re.compile(r"//\s*expected-(error|warning|note|remark)\b")


@dataclass(slots=True)
class Expected:
    """One expected diagnostic: ``line`` is 0 for ``@unknown``; ``loc`` is the comment's."""

    severity: str
    message: str
    line: int
    loc: SourceLoc
    matched: bool = False


def expected_diagnostics(text: str, filename: str) -> list[Expected]:
    """The expected diagnostics written in ``text``; a malformed one is a `Diagnostic`."""
    found: list[Expected] = []
    below: list[Expected] = []
    last_plain_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        designators = list(_DESIGNATOR.finditer(line))
        if not designators:
            malformed = _ANY_DESIGNATOR.search(line)
            if malformed:
                raise Diagnostic("malformed expected diagnostic: write 'expected-<severity> "
                                 "[@+N|@-N|@above|@below|@unknown] {{message}}'",
                                 SourceLoc(filename, number, malformed.start() + 1), text)
            for pending in below:
                pending.line = number
            below.clear()
            last_plain_line = number
            continue
        for match in designators:
            severity, where, message = match.groups()
            expected = Expected(severity, message, number,
                                SourceLoc(filename, number, match.start() + 1))
            if where == "above":
                expected.line = last_plain_line
            elif where == "below":
                below.append(expected)
            elif where == "unknown":
                expected.line = 0
            elif where:
                expected.line = number + int(where)
            found.append(expected)
    return found


def check_diagnostics(reports: list[Report], expected: list[Expected], filename: str,
                      source: str, *, only_expected: bool = False) -> list[str]:
    """The rendered errors about unexpected and missing diagnostics (empty when all match).
    With ``only_expected`` (``--verify-diagnostics=only-expected``) diagnostics that match no
    expectation are ignored; missing expected ones are still errors."""
    problems: list[str] = []
    for report in reports:
        line = _line_in(report, filename)
        for candidate in expected:
            if (candidate.severity == report.severity and candidate.line == line
                    and candidate.message in report.message):
                candidate.matched = True
                break
        else:
            if only_expected:
                continue
            own_source = source if line else report.source
            problems.append(render_diagnostic(
                report.loc, f"unexpected {report.severity}: {report.message}", own_source))
    for candidate in expected:
        if not candidate.matched:
            problems.append(render_diagnostic(
                candidate.loc, f'expected {candidate.severity} "{candidate.message}" was not '
                "produced", source))
    return problems


def _line_in(report: Report, filename: str) -> int | None:
    """The report's line when it points into ``filename``, 0 when it has no location, else
    None (a line in another file matches nothing)."""
    if report.loc is None:
        return 0
    return report.loc.line if report.loc.file == filename else None
