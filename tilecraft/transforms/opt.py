"""`tilecraft-opt` (``tools/opt``): run passes over IR text, as ``mlir-opt``/``triton-opt`` do.

    tilecraft-opt [FILE|-] [-canonicalize] [--triton-loop-unroll{factor=4}] [-o OUT]
    tilecraft-opt FILE --pass-pipeline='builtin.module(tt.func(cse))'
    tilecraft-opt FILE --split-input-file --verify-diagnostics

Every registered pass is a flag (``-name`` or ``--name``, options in braces); the flags form
the pipeline in their order, each pass nested in its anchor op when it has one. Options of the
tool itself take one dash or two. User errors (bad IR, unknown pass, bad options, a failing
pass) print ``file:line:col: error: ...`` with a caret and exit 1; an internal error prints one
line and exits 2 (``TILECRAFT_DEBUG=1`` shows its traceback).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import importlib.util
import os
import re
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from tilecraft.codegen.diagnostics import Diagnostic, decode_utf8
from tilecraft.ir import parse_module, print_op

from . import test_passes  # noqa: F401 - links the test passes in, as triton-opt does
from .diagnostics import Report, collect_diagnostics, reports_of
from .pass_manager import PassFailure, PassManager
from .pass_registry import registered_passes
from .pipeline import parse_pass_pipeline
from .reproducer import read_reproducer
from .timing import Timer
from .verify_diagnostics import check_diagnostics, expected_diagnostics

__all__ = ["main"]

PROG = "tilecraft-opt"
SPLIT_MARKER = re.compile(r"^[ \t]*// -----[ \t]*$", re.MULTILINE)
OUTPUT_SPLIT = "// -----\n"
#: ``-name``, ``-name{opts}`` or, as MLIR's command line also takes them, ``-name=opts``.
_PASS_FLAG = re.compile(r"--?([a-z][a-z0-9-]*)(?:(\{.*\})|=(.*))?", re.DOTALL)


class UsageError(Exception):
    """A bad command line: printed as ``tilecraft-opt: error: ...``, exit 1."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):  # noqa: D102 - argparse's hook
        raise UsageError(message)


def _parser() -> _ArgumentParser:
    parser = _ArgumentParser(
        prog=PROG, allow_abbrev=False,
        description="Parse IR, run passes on it and print it, as mlir-opt does. Every "
                    "registered pass is also a flag: -name or -name{option=value ...} "
                    "(see --list-passes).")
    parser.add_argument("input", nargs="?", default="-", help="the input file (- for stdin)")
    parser.add_argument("-o", dest="output", default="-", metavar="FILE",
                        help="the output file (default: stdout); not written on failure")
    parser.add_argument("--pass-pipeline", metavar="PIPELINE",
                        help="a textual pipeline, e.g. 'builtin.module(tt.func(cse))'")
    parser.add_argument("--split-input-file", action="store_true",
                        help="process each chunk between '// -----' lines on its own")
    parser.add_argument("--verify-diagnostics", nargs="?", const="all", default=None,
                        choices=("all", "only-expected"),
                        help="check diagnostics against the expected-error/-warning/-note/"
                             "-remark comments of the input; with =only-expected, "
                             "diagnostics nobody expected are ignored")
    parser.add_argument("--allow-unregistered-dialect", action="store_true",
                        help="accept ops, types and attributes of unknown dialects")
    parser.add_argument("--mlir-print-op-generic", action="store_true",
                        help="print ops in generic form")
    parser.add_argument("--mlir-print-debuginfo", action="store_true",
                        help="print locations")
    parser.add_argument("--print-ir-before-all", "--mlir-print-ir-before-all",
                        action="store_true", help="dump the IR before each pass (to stderr)")
    parser.add_argument("--print-ir-after-all", "--mlir-print-ir-after-all",
                        action="store_true", help="dump the IR after each pass (to stderr)")
    parser.add_argument("--print-ir-after-failure", "--mlir-print-ir-after-failure",
                        action="store_true", help="dump the IR after a pass fails")
    parser.add_argument("--print-ir-module-scope", "--mlir-print-ir-module-scope",
                        action="store_true",
                        help="dumps show the whole module, not just the op the pass ran on")
    parser.add_argument("--mlir-pass-statistics", action="store_true",
                        help="print the statistics of the passes (to stderr)")
    parser.add_argument("--mlir-timing", "--pass-timing", action="store_true",
                        help="print the time of parsing, each pass and printing (to stderr)")
    parser.add_argument("--mlir-pass-pipeline-crash-reproducer", metavar="FILE",
                        help="when a pass fails, write the IR and pipeline that reproduce it")
    parser.add_argument("--dump-pass-pipeline", action="store_true",
                        help="print the pipeline (to stderr) before running it, as MLIR's "
                             "'Pass Manager with N passes:' dump")
    parser.add_argument("--run-reproducer", action="store_true",
                        help="run the pipeline written in the input's reproducer trailer")
    parser.add_argument("--load-pass-plugin", action="append", default=[],
                        metavar="FILE_OR_MODULE",
                        help="import a Python file or module that registers passes")
    parser.add_argument("--list-passes", action="store_true",
                        help="list the registered passes and their options")
    return parser


@dataclass
class _Session:
    """What one invocation processes and how."""

    args: argparse.Namespace
    pass_flags: list[str]
    filename: str
    pipeline: str | None = None
    timer: Timer | None = None
    outputs: list[str] = field(default_factory=list)

    def pass_manager(self) -> PassManager:
        pm = PassManager()
        if self.pipeline is not None:
            parse_pass_pipeline(self.pipeline, pm)
        for flag in self.pass_flags:
            parse_pass_pipeline(flag, pm, source_name="<command line>", implicit_nesting=True)
        args = self.args
        if (args.print_ir_before_all or args.print_ir_after_all or args.print_ir_after_failure):
            pm.enable_ir_printing(before_all=args.print_ir_before_all,
                                  after_all=args.print_ir_after_all,
                                  after_failure=args.print_ir_after_failure,
                                  module_scope=args.print_ir_module_scope,
                                  generic=args.mlir_print_op_generic,
                                  print_debuginfo=args.mlir_print_debuginfo)
        if self.timer is not None:
            pm.enable_timing(self.timer)
        if args.mlir_pass_pipeline_crash_reproducer:
            pm.enable_crash_reproducer(args.mlir_pass_pipeline_crash_reproducer)
        return pm

    def timed(self, name: str):
        return self.timer.time(name) if self.timer is not None else nullcontext()

    def process(self, text: str) -> bool:
        """Parse, verify, run the passes on and print one chunk; returns whether it went as
        expected (with --verify-diagnostics: whether its diagnostics were the expected ones)."""
        args = self.args
        verify = args.verify_diagnostics
        errors: list[Report] = []
        output = ""
        with collect_diagnostics() if verify else nullcontext([]) as reports:
            try:
                with self.timed("Parser"):
                    module = parse_module(text, self.filename,
                                          allow_unregistered=args.allow_unregistered_dialect)
                with self.timed("Verifier"):
                    module.verify()
                pm = self.pass_manager()
                if args.dump_pass_pipeline:
                    sys.stderr.write(pm.dump_text())
                pm.run(module)
                if args.mlir_pass_statistics:
                    sys.stderr.write(pm.statistics_report())
                with self.timed("Output"):
                    output = print_op(module, generic=args.mlir_print_op_generic,
                                      print_debuginfo=args.mlir_print_debuginfo)
            except Diagnostic as err:
                if verify:
                    errors = reports_of(err)
                else:
                    print(err, file=sys.stderr)
                if isinstance(err, PassFailure) and err.reproducer:
                    print(f"{PROG}: reproducer written to {err.reproducer}", file=sys.stderr)
                self.outputs.append("")
                if not verify:
                    return False
            else:
                self.outputs.append(output)
        if not verify:
            return True
        expected = expected_diagnostics(text, self.filename)
        problems = check_diagnostics([*reports, *errors], expected, self.filename, text,
                                     only_expected=verify == "only-expected")
        for problem in problems:
            print(problem, file=sys.stderr)
        return not problems


def split_input(text: str) -> list[str]:
    """The chunks between ``// -----`` lines, each padded with empty lines so that its line
    numbers are those of the whole file."""
    chunks, start, line = [], 0, 1
    for marker in SPLIT_MARKER.finditer(text):
        chunks.append("\n" * (line - 1) + text[start:marker.start()])
        line += text.count("\n", start, marker.end()) + 1
        start = marker.end() + 1
    chunks.append("\n" * (line - 1) + text[start:])
    return chunks


def _normalize(argv: list[str], options: set[str]) -> list[str]:
    """``-split-input-file`` → ``--split-input-file`` for the tool's long options."""
    normalized = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            if "-" + arg.partition("=")[0] in options:
                arg = "-" + arg
        normalized.append(arg)
    return normalized


def _load_plugin(spec: str) -> None:
    path = Path(spec)
    if spec.endswith(".py") or os.sep in spec:
        if not path.is_file():
            raise UsageError(f"cannot load pass plugin '{spec}': no such file")
        name = f"_tilecraft_opt_plugin_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        return
    try:
        importlib.import_module(spec)
    except ModuleNotFoundError as err:
        raise UsageError(f"cannot load pass plugin '{spec}': {err}") from None


def _split_pass_flags(argv: list[str], options: set[str]) -> tuple[list[str], list[str]]:
    """The pass flags (as pipeline elements, in order) and the other arguments."""
    passes = registered_passes()
    flags, rest = [], []
    for arg in argv:
        match = _PASS_FLAG.fullmatch(arg)
        if match and match.group(1) in passes and "--" + match.group(1) not in options:
            options = match.group(2) or (f"{{{match.group(3)}}}" if match.group(3) else "")
            flags.append(match.group(1) + options)
        else:
            rest.append(arg)
    return flags, rest


def _unknown_option(arg: str, options: set[str]) -> UsageError:
    name = _PASS_FLAG.fullmatch(arg)
    if name is None:
        return UsageError(f"unrecognized argument '{arg}'")
    candidates = {f"-{p}": p for p in registered_passes()}
    candidates.update({o: o.lstrip("-") for o in options if o.startswith("--")})
    close = difflib.get_close_matches(name.group(1), candidates.values(), n=1)
    flag = next((flag for flag, bare in candidates.items() if close and bare == close[0]), None)
    hint = f"; did you mean '{flag}'?" if flag else " (see --help and --list-passes)"
    return UsageError(f"'{arg}' is neither an option nor a registered pass{hint}")


def list_passes() -> str:
    """The registered passes with their summaries and options."""
    lines = ["Passes (flags -name, or -name{option=value ...}):"]
    for argument, cls in registered_passes().items():
        lines.append(f"  --{argument:<34} {cls.SUMMARY}".rstrip())
        for option in cls.OPTIONS:
            kind = option.type.__name__ + ("-list" if option.is_list else "")
            default = "" if option.is_list else f" (default: {option.default})"
            lines.append(f"      {option.argument + '=<' + kind + '>':<32} "
                         f"{option.description}{default}")
    return "\n".join(lines) + "\n"


def _read_stdin() -> bytes:
    """Standard input's bytes (a text stream standing in for it, as tests use, is encoded)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        return stream.read()
    return sys.stdin.read().encode("utf-8", "surrogateescape")


def _run(argv: list[str]) -> int:
    parser = _parser()
    options = {s for action in parser._actions for s in action.option_strings}
    argv = _normalize(argv, options)
    preparser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    preparser.add_argument("--load-pass-plugin", action="append", default=[])
    for plugin in preparser.parse_known_args(argv)[0].load_pass_plugin:
        _load_plugin(plugin)
    pass_flags, rest = _split_pass_flags(argv, options)
    args, unknown = parser.parse_known_args(rest)
    if unknown:
        raise _unknown_option(unknown[0], options)
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    if args.pass_pipeline is not None and pass_flags:
        raise UsageError("--pass-pipeline cannot be combined with pass flags "
                         f"(-{pass_flags[0]})")

    start = time.perf_counter()
    session = _Session(args, pass_flags, "<stdin>" if args.input == "-" else args.input,
                       args.pass_pipeline, Timer() if args.mlir_timing else None)
    session.pass_manager()
    try:
        data = _read_stdin() if args.input == "-" else Path(args.input).read_bytes()
    except OSError as err:
        raise UsageError(f"cannot read '{args.input}': {err}") from None
    text = decode_utf8(data, session.filename)
    if args.run_reproducer:
        text, pipeline = read_reproducer(text)
        if pipeline is None:
            raise UsageError(f"'{session.filename}' has no reproducer trailer "
                             "({-# external_resources: { mlir_reproducer: ... } #-})")
        if session.pipeline is not None or pass_flags:
            raise UsageError("--run-reproducer runs the reproducer's own pipeline; give no "
                             "other passes")
        session.pipeline = pipeline
        session.pass_manager()

    chunks = split_input(text) if args.split_input_file else [text]
    ok = all([session.process(chunk) for chunk in chunks])
    output = OUTPUT_SPLIT.join(session.outputs)
    if args.output == "-":
        sys.stdout.write(output)
        sys.stdout.flush()
    elif ok:
        Path(args.output).write_text(output, encoding="utf-8")
    if session.timer is not None:
        session.timer.seconds = time.perf_counter() - start
        sys.stderr.write(session.timer.report())
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    """The entry point of ``tilecraft-opt``; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _run(argv)
    except Diagnostic as err:
        print(err, file=sys.stderr)
        return 1
    except UsageError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        if os.environ.get("TILECRAFT_DEBUG", "").strip() not in ("", "0"):
            raise
        notes = "; ".join(getattr(err, "__notes__", ()))
        where = f" ({notes})" if notes else ""
        print(f"{PROG}: internal error: {type(err).__name__}: {err}{where} "
              "(TILECRAFT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
