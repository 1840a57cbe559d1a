#!/usr/bin/env python3
"""Run Triton's lit tests through ``tilecraft-opt`` and the ``filecheck`` package, piece by piece.

    python tools/triton_lit.py /tmp/triton/test/Analysis/test-alignment.mlir [...] [--verbose]

Each file is split on ``// -----`` lines as ``-split-input-file`` splits it; every piece is
written (padded with empty lines, so line numbers are the file's) to a scratch folder and each
RUN line of the file runs with ``%s`` naming the piece: ``triton-opt`` is ``tilecraft-opt`` and
``FileCheck`` the ``filecheck`` package with LLVM's CHECK-NOT range
(`tilecraft.transforms.filecheck`), both in this process (a pool of ``--jobs`` processes
shares the pieces). A piece passes when all RUN lines succeed on it; a piece without check lines
of a RUN line's prefixes passes that line when ``tilecraft-opt`` succeeded, as it would inside
the whole file. Triton itself runs FileCheck once over the whole file's output; the pieces are
the ``// -----`` cases of that run.

Per file this prints ``passed/total`` and, for each failing piece, its first line and a short
reason for the first failing RUN line: an unknown pass, a parse error, a diagnostic mismatch, a
check failure, an unsupported tool. ``--verbose`` adds the failing command's output.

Nothing of Triton is copied into this repository: the files are read from the given paths.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import re
import shlex
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tilecraft.codegen.diagnostics import Diagnostic  # noqa: E402
from tilecraft.ir import parse_module  # noqa: E402
from tilecraft.transforms import filecheck  # noqa: E402
from tilecraft.transforms.opt import main as opt_main  # noqa: E402
from tilecraft.transforms.opt import split_input  # noqa: E402
from tilecraft.transforms.lit_files import run_lines  # noqa: E402

__all__ = ["Stage", "RunLine", "PieceResult", "run_lines", "parse_run_line", "pieces",
           "run_piece", "main"]

_OPT_TOOLS = ("triton-opt", "tilecraft-opt")
_CHECK_TOOLS = ("FileCheck", "filecheck")
#: FileCheck options the ``filecheck`` package has (value options take the next word).
_CHECK_VALUE_OPTIONS = ("check-prefix", "check-prefixes", "comment-prefixes", "input-file",
                        "dump-input")
_CHECK_FLAGS = ("strict-whitespace", "enable-var-scope", "match-full-lines", "allow-empty",
                "reject-empty-vars")
#: FileCheck options without effect on the verdict (only on how a failure is shown).
_CHECK_IGNORED = ("dump-input-context", "dump-input-filter", "color", "vv", "v")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
PIECE_TIMEOUT_S = 120


@dataclass
class Stage:
    """One command of a RUN line's pipeline: ``tool`` and its arguments (``%s`` unsubstituted);
    ``negate`` for ``not CMD``; ``merge_stderr`` for ``2>&1``."""

    tool: str
    args: list[str]
    negate: bool = False
    merge_stderr: bool = False
    environment: dict[str, str] = field(default_factory=dict)


@dataclass
class RunLine:
    """A RUN line (continuations joined) as the pipeline it runs."""

    text: str
    stages: list[Stage]


@dataclass
class PieceResult:
    """The verdict on one piece: ``reason`` (None when it passed) and ``details``."""

    file: str
    index: int
    line: int
    reason: str | None = None
    details: str = ""
    seconds: float = 0.0


def parse_run_line(command: str) -> RunLine:
    """Split a RUN command into its pipeline stages as a POSIX shell would (quotes kept
    together, ``|`` separating stages, ``not`` and ``2>&1`` noted)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|")
    lexer.whitespace_split = True
    words = list(lexer)
    stages, current = [], []
    for word in [*words, "|"]:
        if word != "|":
            current.append(word)
            continue
        if not current:
            raise ValueError(f"empty pipeline stage in RUN line: {command}")
        negate = current[0] == "not"
        if negate:
            current = current[1:]
        merge = "2>&1" in current
        current = [w for w in current if w != "2>&1"]
        environment = {}
        if current[0] == "env":  # env NAME=VALUE ... TOOL ARGS
            current = current[1:]
            while current and re.fullmatch(r"[A-Za-z_]\w*=.*", current[0]):
                name, _, value = current.pop(0).partition("=")
                environment[name] = value
        stages.append(Stage(current[0], current[1:], negate, merge, environment))
        current = []
    return RunLine(command, stages)


def pieces(text: str) -> list[tuple[int, str]]:
    """The ``// -----`` pieces of ``text`` with the line of each one's first non-empty line,
    padded with empty lines so that line numbers are those of the whole file."""
    found = []
    for chunk in split_input(text):
        padding = len(chunk) - len(chunk.lstrip("\n"))
        found.append((padding + 1, chunk))
    return found


# -- running one piece


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    raise _Timeout


@contextlib.contextmanager
def _captured(stdin_text: str, merge_stderr: bool):
    """Run a block with stdin from ``stdin_text`` and stdout/stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin_text)
    try:
        with contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(out if merge_stderr else err):
            yield out, err
    finally:
        sys.stdin = old_stdin


def _run_opt(args: list[str], stdin_text: str, merge: bool) -> tuple[int, str, str]:
    with _captured(stdin_text, merge) as (out, err):
        status = opt_main(args)
    return status, out.getvalue(), err.getvalue()


def _check_args(args: list[str]) -> tuple[list[str], list[str], list[str]]:
    """The ``filecheck`` arguments, the ``--implicit-check-not`` patterns and the dropped
    options."""
    kept, implicit, dropped = [], [], []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if not arg.startswith("-"):
            kept.append(arg)
            continue
        name, has_value, value = arg.lstrip("-").partition("=")
        if name in _CHECK_VALUE_OPTIONS or name == "implicit-check-not":
            if not has_value and index < len(args):
                value = args[index]
                index += 1
            if name == "implicit-check-not":
                implicit.append(value)
            else:
                kept.append(f"--{name}={value}")
        elif name in _CHECK_FLAGS:
            kept.append(f"--{name}")
        else:
            if name in _CHECK_IGNORED and not has_value and index < len(args) and \
                    args[index].isdigit():
                index += 1
            dropped.append(arg)
    return kept, implicit, dropped


def _prefixes(args: list[str]) -> list[str]:
    found = []
    for arg in args:
        name, _, value = arg.lstrip("-").partition("=")
        if name in ("check-prefix", "check-prefixes"):
            found += [p for p in value.split(",") if p]
    return found or ["CHECK"]


def _with_implicit_not(check_text: str, prefixes: list[str], patterns: list[str]) -> str:
    """``check_text`` with ``<prefix>-NOT: pattern`` lines before each plain or LABEL check
    and after the last check, as ``--implicit-check-not`` forbids the patterns between
    matches."""
    prefix = prefixes[0]
    directive = re.compile(rf"\b({'|'.join(map(re.escape, prefixes))})(-LABEL)?:")
    nots = "".join(f"// {prefix}-NOT: {p}\n" for p in patterns)
    lines = []
    for line in check_text.splitlines(keepends=True):
        if directive.search(line):
            lines.append(nots)
        lines.append(line)
    lines.append(nots)
    return "".join(lines)


def _run_filecheck(args: list[str], stdin_text: str, scratch: Path) -> tuple[int, str, str]:
    kept, implicit, dropped = _check_args(args)
    note = f"(ignored FileCheck options: {' '.join(dropped)})\n" if dropped else ""
    check_files = [a for a in kept if not a.startswith("-")]
    if implicit and check_files:
        path = Path(check_files[-1])
        rewritten = scratch / (path.name + ".implicit")
        rewritten.write_text(_with_implicit_not(path.read_text("utf-8"), _prefixes(kept),
                                                implicit), encoding="utf-8")
        kept[kept.index(check_files[-1])] = str(rewritten)
    try:
        status, messages = filecheck.run(kept, stdin_text)
    except (RuntimeError, ValueError, OSError) as exc:
        status, messages = 2, f"filecheck: {exc}\n"
    stderr = _ANSI.sub("", messages)
    if status == 2 and "No check strings found" in stderr:
        status = 0  # a piece without checks of these prefixes
    return status, "", note + stderr


def _substitute(words: list[str], piece_path: Path) -> list[str]:
    return [w.replace("%s", str(piece_path)) for w in words]


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "no output"


def _opt_reason(stderr: str, piece_text: str, piece_path: Path, allow_unregistered: bool) -> str:
    if stderr.startswith("tilecraft-opt: error:") and "registered pass" not in stderr:
        return "command line: " + stderr.split("error:", 1)[1].strip().splitlines()[0]
    if "registered pass" in stderr:
        match = re.search(r"'(-*[\w-]+)[^']*' (?:is neither|does not refer)", stderr)
        return f"unknown pass {match.group(1).lstrip('-')}" if match else \
            f"unknown pass: {_first_error(stderr)}"
    if "internal error:" in stderr:
        return "internal error: " + stderr.split("internal error:", 1)[1].strip().splitlines()[0]
    try:
        parse_module(piece_text, str(piece_path), allow_unregistered=allow_unregistered)
    except Diagnostic as err:
        where = f"{err.loc.line}:{err.loc.col}: " if err.loc is not None else ""
        return f"parse error: {where}{err.message}"
    except Exception as err:  # noqa: BLE001 - a crash of the parser is a finding too
        return f"parse crash: {type(err).__name__}: {err}"
    if "was not produced" in stderr or "unexpected " in stderr:
        return "diagnostics: " + _first_error(stderr)
    return "error: " + _first_error(stderr)


@contextlib.contextmanager
def _environment(variables: dict[str, str]):
    """``os.environ`` with ``variables`` set, as ``env NAME=VALUE`` runs a command."""
    saved = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run_line_on_piece(run: RunLine, piece_text: str, piece_path: Path,
                       scratch: Path) -> tuple[str | None, str]:
    """Run one RUN line on a piece: (reason, details); reason None when it passed."""
    data = ""
    for stage in run.stages:
        args = _substitute(stage.args, piece_path)
        if stage.tool in _OPT_TOOLS:
            with _environment(stage.environment):
                status, out, err = _run_opt(args, data, stage.merge_stderr)
            failed = (status != 0) != stage.negate
            if failed:
                if stage.negate:
                    return "expected tilecraft-opt to fail, it succeeded", out + err
                allow = any(a.lstrip("-") == "allow-unregistered-dialect" for a in args)
                return _opt_reason(err or out, piece_text, piece_path, allow), out + err
        elif stage.tool in _CHECK_TOOLS:
            status, out, err = _run_filecheck(args, data, scratch)
            if (status != 0) != stage.negate:
                return "check failure: " + _first_error(err).replace(str(scratch) + "/", ""), \
                    err
        else:
            return f"unsupported tool {stage.tool}", ""
        data = out
    return None, ""


def run_piece(task: tuple[str, int, int, str, list[str], str]) -> PieceResult:
    """Run every RUN line on one piece; ``task`` is (file, index, first line, text, RUN
    commands, scratch folder)."""
    name, index, line, text, commands, scratch_dir = task
    scratch = Path(scratch_dir)
    piece_path = scratch / f"{Path(name).stem}.{index}.mlir"
    piece_path.write_text(text, encoding="utf-8")
    result = PieceResult(name, index, line)
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(PIECE_TIMEOUT_S)
    try:
        for number, command in enumerate(commands, start=1):
            reason, details = _run_line_on_piece(parse_run_line(command), text, piece_path,
                                                 scratch)
            if reason is not None:
                result.reason = f"RUN {number}: {reason}"
                result.details = details
                break
    except _Timeout:
        result.reason = f"timeout after {PIECE_TIMEOUT_S} s"
    except Exception as err:  # noqa: BLE001 - one broken piece must not stop the others
        result.reason = f"harness error: {type(err).__name__}: {err}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    result.seconds = time.perf_counter() - start
    return result


# -- the command line


@dataclass
class _FileReport:
    name: str
    results: list[PieceResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.reason is None for r in self.results)


def main(argv: list[str] | None = None) -> int:
    """Run the given files; returns 0 when every piece passed, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="Triton .mlir lit test files")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="show the output of each failing command")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--pieces", type=str, default=None,
                        help="only these piece indices (comma-separated, from 0)")
    args = parser.parse_args(argv)
    only = {int(i) for i in args.pieces.split(",")} if args.pieces else None

    with tempfile.TemporaryDirectory(prefix="triton-lit-") as scratch:
        reports, tasks = [], []
        for path in args.files:
            text = path.read_text(encoding="utf-8")
            commands = run_lines(text)
            reports.append(_FileReport(str(path)))
            for index, (line, piece) in enumerate(pieces(text)):
                if only is None or index in only:
                    tasks.append((str(path), index, line, piece, commands, scratch))
        start = time.perf_counter()
        if args.jobs > 1 and len(tasks) > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                results = pool.map(run_piece, tasks, chunksize=1)
        else:
            results = [run_piece(task) for task in tasks]
        elapsed = time.perf_counter() - start

    by_file = {report.name: report for report in reports}
    for result in results:
        by_file[result.file].results.append(result)
    total_passed = total = 0
    for report in reports:
        total_passed += report.passed
        total += len(report.results)
        print(f"{report.name}: {report.passed}/{len(report.results)} pieces pass")
        for result in report.results:
            if result.reason is None:
                continue
            print(f"  piece {result.index} (line {result.line}): {result.reason}")
            if args.verbose and result.details:
                for line in result.details.rstrip().splitlines()[:60]:
                    print(f"    | {line}")
    print(f"total: {total_passed}/{total} pieces pass ({elapsed:.1f} s)")
    return 0 if total_passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
