"""FileCheck for the IR tests: the ``filecheck`` package with LLVM FileCheck's CHECK-NOT range.

LLVM FileCheck checks the patterns of a run of ``CHECK-NOT`` lines between the end of the
previous match and the *start* of the next positive match. The ``filecheck`` package (1.0.x)
searches up to the *end* of that next match, so

    // CHECK-NOT: ttg.convert_layout
    // CHECK: %1 = ttg.convert_layout %0

always fails there: the excluded string is found inside the very line the next CHECK matches.
`Matcher` keeps the package's matching and ends the CHECK-NOT range where LLVM ends it: at the
start of the first match of the next ``CHECK``, ``CHECK-NEXT``, ``CHECK-SAME`` or
``CHECK-COUNT`` (``CHECK-DAG``, ``CHECK-LABEL`` and ``CHECK-EMPTY`` keep the package's ranges,
which already are LLVM's). ``CHECK-NEXT`` matches as in LLVM too, so that its match starts
where the pattern does.

``python -m tilecraft.transforms.filecheck CHECK_FILE [options]`` runs it on stdin, as
``FileCheck`` is run in RUN lines; `run` does the same in process.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from dataclasses import replace
from re import Match

from filecheck.compiler import compile_uops
from filecheck.error import CheckError
from filecheck.finput import InputRange
from filecheck.matcher import Matcher as PackageMatcher
from filecheck.ops import CheckOp
from filecheck.options import Options, parse_argv_options

__all__ = ["Matcher", "run", "main"]

#: The directives whose match ends the range of the CHECK-NOTs before them at its start.
_ENDS_NOT_RANGE_AT_MATCH_START = ("CHECK", "NEXT", "SAME", "COUNT")


class Matcher(PackageMatcher):
    """The package's matcher with CHECK-NOT ranges ending at the next match's start."""

    #: Start of the first match of the positive directive being checked (None before it).
    _match_start: int | None = None

    @classmethod
    def from_opts(cls, opts: Options) -> Matcher:
        """A matcher of this class for the check file and input that ``opts`` name."""
        base = PackageMatcher.from_opts(opts)
        return cls(opts, base.file, base.operations)

    def match_immediately(self, op: CheckOp) -> None:
        """``CHECK-NEXT`` as LLVM checks it: the pattern's first match after the previous
        match, which must lie on the next line. (The package matches ``[^\\n]*`` and the
        pattern from the end of the previous line, so its match starts at that line's end.)"""
        pattern, capture = compile_uops(replace(op, name="CHECK"), self.ctx.live_variables,
                                        self.opts)
        match = self.file.find(pattern)
        if match is None:
            raise CheckError(f'Couldn\'t match "{op.arg}".', op)
        if self.file.content.count("\n", self.file.range.start, match.start()) != 1:
            raise CheckError(f"{op.check_name}: is not on the line after the previous match",
                             op)
        self.file.move_to(match.end())
        self.capture_results(match, capture, op)

    def capture_results(self, match: Match[str],
                        capture: dict[str, tuple[int, Callable[[str], int | str]]],
                        op: CheckOp) -> None:
        """Record where the directive's first match starts (every positive match of the
        package's matcher comes through here), then bind its variables."""
        if self._match_start is None:
            self._match_start = match.start()
        super().capture_results(match, capture, op)

    def _post_check(self, op: CheckOp) -> None:
        """Check the pending CHECK-NOTs up to the start of ``op``'s match, then the rest of
        the package's post-check (full-line matching)."""
        start, self._match_start = self._match_start, None
        pending = self.ctx.negative_matches_start
        if op.name in _ENDS_NOT_RANGE_AT_MATCH_START and pending is not None \
                and start is not None and not self.file.is_discontigous():
            search_range = InputRange(pending, start)
            for check in self.ctx.negative_matches_stack:
                self.check_not(check, search_range)
            self.ctx.negative_matches_start = None
            self.ctx.negative_matches_stack = []
        super()._post_check(op)


def run(argv: list[str], input_text: str) -> tuple[int, str]:
    """Run FileCheck with the command-line arguments ``argv`` (check file first or anywhere,
    options as FileCheck's) on ``input_text``: (exit status, its messages). What the package
    prints on stdout (a trace of its CHECK-DAG ranges) is dropped."""
    messages = io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(input_text)
    try:
        with contextlib.redirect_stderr(messages), contextlib.redirect_stdout(io.StringIO()):
            status = Matcher.from_opts(parse_argv_options(["filecheck", *argv])).run()
    finally:
        sys.stdin = old_stdin
    return status, messages.getvalue()


def main(argv: list[str] | None = None) -> int:
    """The command line: check stdin against the check file; returns the exit status (the
    package's trace on stdout is dropped, as in `run`)."""
    args = sys.argv[1:] if argv is None else argv
    if not args or "--help" in args:
        print("usage: python -m tilecraft.transforms.filecheck CHECK_FILE [FileCheck options]"
              " < input", file=sys.stderr)
        return 2
    with contextlib.redirect_stdout(io.StringIO()):
        return Matcher.from_opts(parse_argv_options(["filecheck", *args])).run()


if __name__ == "__main__":
    sys.exit(main())
