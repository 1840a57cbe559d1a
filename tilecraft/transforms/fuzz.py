"""Mutation testing of ``tilecraft-opt``: a mutated IR file gets output or a located error.

`targets` reads lit files (``*.mlir`` with ``RUN:`` lines) into pieces, each with the
``tilecraft-opt`` arguments its RUN lines give it (``--split-input-file`` pieces one by one), so
that mutants run through the passes their file tests, not only through the parser. `mutate`
damages a piece the way typing and tools do: tokens deleted, doubled, swapped or replaced by
another token of the same kind (which keeps many mutants valid IR, for the passes to see), odd
numbers, stray punctuation (a bare ``@``, ``%``, ``#``, ``!``, ``<``, ``{``), NUL and other
control characters, bytes that are not UTF-8, nesting thousands deep, truncation.
`check_mutant` runs ``tilecraft-opt`` in process on a mutant and sorts the result: output (which
must parse again), a diagnostic (which must have ``file:line:col`` and a caret), or a problem:
an internal error, a traceback, an error without a location, output that does not parse, or a
run past the time limit. `run` does this for many seeded mutants (``tools/ir_fuzz.py``; a
bounded run is part of the tests).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import shlex
import signal
import tempfile
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tilecraft.codegen.diagnostics import Diagnostic
from tilecraft.ir import parse_module

from .opt import main as opt_main
from .opt import split_input
from .lit_files import run_lines

__all__ = ["Target", "Result", "targets", "mutate", "check_mutant", "run"]

_OPT_TOOLS = ("triton-opt", "tilecraft-opt")
#: Arguments of a RUN line's ``tilecraft-opt`` that name files or the split, which the fuzzer
#: handles itself (each piece is its own input; nothing is written besides it).
_DROPPED_FLAGS = ("--split-input-file", "-split-input-file", "--load-pass-plugin",
                  "-load-pass-plugin", "--mlir-pass-pipeline-crash-reproducer",
                  "-mlir-pass-pipeline-crash-reproducer", "--mlir-timing", "-mlir-timing",
                  "--run-reproducer", "-run-reproducer", "--list-passes", "-list-passes")
#: The first line of a diagnostic: ``file:line:col: severity: message``.
_HEAD = re.compile(r"^(.+):(\d+):(\d+): (?:error|warning|note|remark): ", re.MULTILINE)
#: The caret line under it (after the message, which may span lines, and the source line).
_CARET = re.compile(r"\n *\^$", re.MULTILINE)
_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'                      # a string
    r"|[%@#!^][\w$.\-]*"                        # a value, symbol, alias, type or block name
    r"|0x[0-9A-Fa-f]+|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"  # a number
    r"|(?<=[\d?])x"                              # the x of a shape: 128x64xf32
    r"|[A-Za-z_][\w$.]*"                        # a keyword or op name
    r"|//[^\n]*"                                # a comment (RUN, CHECK, expected-error)
    r"|->|::|\.\.\."
    r"|\S")                                     # punctuation
_NUMBERS = ["0", "1", "-1", "2", "3", "7", "16", "31", "32", "33", "63", "64", "65", "127", "128",
            "255", "256", "1024", "65535", "65536", "2147483647", "2147483648", "-2147483648",
            "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "18446744073709551616", "99999999999999999999999999999",
            "1" + "0" * 400, "9" * 5000, "0x7fffffff", "0xFFFFFFFFFFFFFFFFFF", "0.0", "-0.0", "1.5", "1e400",
            "-1e400", "1e-400", "nan", "inf", "0x7FC00000", "00", "01", "1x", "0x"]
_INSERTED = ["@", "%", "#", "!", "^", "<", ">", "{", "}", "(", ")", "[", "]", ":", ",", "=",
             "->", "\"", "?", "*", "x", "-", "+", ".", "...", "loc(", "#loc", "0", "9",
             "99999999999999999999", "-1", "%0", "@0", "#0", "!0", "%arg0", "i1", "f32",
             "tensor<", "!tt.ptr<", "dense<", "{{", "}}", "// -----", "\n", " ", "\t", "\\",
             "'", "\0", "\x01", "\x7f", "\u00e9", "\u2028", "\ufeff", "\U0001F600",
             "\u00b2", "\u0663", "\uff11", "\u212a", "\u0130", "\ufb01"]
#: Bytes that are not UTF-8 on their own (a continuation byte, a lone lead byte, 0xff).
_BAD_BYTES = [0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf8, 0xfe, 0xff]
_DEEP = [("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("tensor<", "x1xf32>"),
         ("!tt.ptr<", ">"), ("dense<[", "]>"), ("[", "]"), ("loc(", ")"),
         ("scf.execute_region -> i32 {", "}"), ("\"test.op\"() ({", "}) : () -> ()")]


@dataclass(frozen=True, slots=True)
class Target:
    """A piece of a lit file (``line`` is its first line there) and the ``tilecraft-opt``
    arguments (besides the input) that one of the file's RUN lines gives it."""

    file: Path
    line: int
    text: str
    args: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """What ``tilecraft-opt`` made of one mutant: ``kind`` is ``"output"``, ``"diagnostic"`` or
    ``"problem"`` (``detail`` says which); ``seed`` made the mutant from ``target``."""

    kind: str
    target: Target
    seed: int
    mutant: bytes = b""
    args: tuple[str, ...] = ()
    detail: str = ""


def _opt_args(command: str) -> tuple[str, ...] | None:
    """The arguments of the first ``tilecraft-opt``/``triton-opt`` in a RUN command (``%s``,
    ``-o FILE`` and the flags of `_DROPPED_FLAGS` left out); None when it runs no such tool or
    names other files."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars="|")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return None
    stage: list[str] = []
    for word in [*words, "|"]:
        if word != "|":
            stage.append(word)
            continue
        while stage and (stage[0] in ("not", "env") or "=" in stage[0]):
            stage.pop(0)
        if stage and stage[0] in _OPT_TOOLS:
            args = [w for w in stage[1:] if w not in ("%s", "2>&1")]
            if "-o" in args:
                del args[args.index("-o"):args.index("-o") + 2]
            if any("%" in w or "<" == w or ">" in w for w in args):
                return None
            return tuple(w for w in args if w.partition("=")[0] not in _DROPPED_FLAGS)
        stage = []
    return None


def targets(paths: Sequence[Path]) -> list[Target]:
    """The pieces of the ``*.mlir`` files under ``paths`` (files or folders), one target per
    piece and distinct ``tilecraft-opt`` argument list of its file's RUN lines (a file without
    one is parsed, verified and printed)."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("*.mlir")) if path.is_dir() else [path]
    found: list[Target] = []
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        commands = run_lines(text)
        arg_lists = list(dict.fromkeys(
            args for args in map(_opt_args, commands) if args is not None)) or [()]
        pieces = (split_input(text) if any("split-input-file" in cmd for cmd in commands)
                  else [text])
        for args in arg_lists:
            for piece in pieces:
                first = len(piece) - len(piece.lstrip("\n"))
                body = piece[first:]
                if body.strip():
                    found.append(Target(file, first + 1, body, args))
    return found


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _kind(token: str) -> str:
    """The kind of a token, for replacing it by another of its kind."""
    head = token[0]
    if head in '"%@#!^':
        return head
    if head.isdigit() or head == "-" and token[1:2].isdigit():
        return "number"
    if head.isalpha() or head == "_":
        return "word"
    return "punctuation"


def _delete_token(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    token = rng.choice(tokens)
    return text[:token.start()] + text[token.end():]


def _double_token(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    token = rng.choice(tokens)
    return text[:token.end()] + " " + token.group() + text[token.end():]


def _swap_tokens(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    if len(tokens) < 2:
        return _delete_token(text, rng, tokens)
    i = rng.randrange(len(tokens) - 1)
    j = i + 1 if rng.random() < 0.7 else rng.randrange(i + 1, len(tokens))
    a, b = tokens[i], tokens[j]
    return (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group()
            + text[b.end():])


def _same_kind(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """A token replaced by another token of its kind from the piece (``f32`` by ``i64``,
    ``%0`` by ``%arg1``): mutants that often still parse, for the verifier and the passes."""
    token = rng.choice(tokens)
    kind = _kind(token.group())
    others = [t.group() for t in tokens if _kind(t.group()) == kind and t.group() != token.group()]
    if not others:
        return _delete_token(text, rng, tokens)
    return text[:token.start()] + rng.choice(others) + text[token.end():]


def _rename_all(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """Every occurrence of a token replaced by another of its kind (or, for a number, by an odd
    number): ``f32`` by ``i64`` or ``128`` by ``1`` throughout, which keeps the IR consistent
    and often valid, so that the passes see shapes, types and layouts nobody wrote."""
    numbers = [t for t in tokens if _kind(t.group()) == "number"]
    token = rng.choice(numbers if numbers and rng.random() < 0.5 else tokens).group()
    kind = _kind(token)
    others = [t.group() for t in tokens if _kind(t.group()) == kind and t.group() != token]
    if kind == "number" and (not others or rng.random() < 0.5):
        others = _NUMBERS[:22]
    if not others:
        return _delete_token(text, rng, tokens)
    return _replace_all(text, tokens, token, rng.choice(others))


def _replace_all(text: str, tokens: list[re.Match[str]], old: str, new: str) -> str:
    """``text`` with each token equal to ``old`` replaced by ``new``."""
    parts, at = [], 0
    for token in tokens:
        if token.group() == old:
            parts += [text[at:token.start()], new]
            at = token.end()
    return "".join(parts) + text[at:]


def _odd_number(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """A number (a shape's dimension too; where there is none, a token) replaced by zero, a
    negative or huge number, an out-of-range float, ..."""
    numbers = [t for t in tokens if _kind(t.group()) == "number"] or tokens
    token = rng.choice(numbers)
    return text[:token.start()] + rng.choice(_NUMBERS) + text[token.end():]


def _insert_text(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """Punctuation, a number, a keyword or an odd character at a token's edge."""
    token = rng.choice(tokens)
    at = token.start() if rng.random() < 0.5 else token.end()
    return text[:at] + rng.choice(_INSERTED) + text[at:]


def _replace_char(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    at = rng.randrange(len(text))
    char = rng.choice(_INSERTED) if rng.random() < 0.5 else chr(rng.randrange(0x20, 0x7f))
    return text[:at] + char + text[at + 1:]


def _truncate(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    return text[:rng.randrange(len(text))]


def _lines(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """A line deleted, doubled, or moved elsewhere."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    line = lines.pop(i)
    choice = rng.random()
    if choice < 0.4:
        return "\n".join(lines)
    lines.insert(i if choice < 0.7 else rng.randrange(len(lines) + 1), line)
    if choice < 0.7:
        lines.insert(i, line)
    return "\n".join(lines)


def _deep(text: str, rng: random.Random, tokens: list[re.Match[str]]) -> str:
    """Brackets, types, attributes or regions nested hundreds or thousands deep at a token."""
    opener, closer = rng.choice(_DEEP)
    depth = rng.choice([100, 1000, 5000, 20000])
    token = rng.choice(tokens)
    inner = token.group() if rng.random() < 0.5 else "1"
    nested = opener * depth + inner + (closer * depth if rng.random() < 0.8 else "")
    return text[:token.start()] + nested + text[token.end():]


_MUTATORS: tuple[Callable[[str, random.Random, list[re.Match[str]]], str], ...] = (
    _delete_token, _delete_token, _double_token, _swap_tokens, _same_kind, _same_kind,
    _same_kind, _rename_all, _rename_all, _rename_all, _rename_all, _odd_number, _odd_number,
    _insert_text, _insert_text, _insert_text, _replace_char, _truncate, _lines, _deep)


def mutate(text: str, rng: random.Random) -> bytes:
    """``text`` with one to three random mutations, as bytes (one in twenty gets a byte that is
    not UTF-8)."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        tokens = _tokens(text)
        text = rng.choice(_MUTATORS)(text, rng, tokens) if tokens else "\0"
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.05:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes([rng.choice(_BAD_BYTES)]) + data[at:]
    return data


class _Timeout(BaseException):
    """Raised in the fuzzed run by the interval timer (a BaseException, so that no handler of
    the tool takes it for an error of the input)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _opt(path: Path, args: Sequence[str], timeout_s: float) -> tuple[int, str, str]:
    """Run ``tilecraft-opt`` in process on ``path``: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = opt_main([str(path), *args])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return status, out.getvalue(), err.getvalue()


def check_mutant(path: Path, args: Sequence[str], timeout_s: float = 20.0) -> tuple[str, str]:
    """Run ``tilecraft-opt path *args`` in process; (kind, detail) as `Result` has them."""
    try:
        status, stdout, stderr = _opt(path, args, timeout_s)
    except _Timeout:
        return "problem", f"still running after {timeout_s:g} s"
    except BaseException:  # noqa: BLE001 - anything escaping the tool is what this looks for
        return "problem", "escaped tilecraft-opt:\n" + traceback.format_exc(limit=-8)
    if "internal error" in stderr or "Traceback" in stderr or status not in (0, 1):
        return "problem", f"status {status}:\n{stderr}"
    if status == 1:
        if not _located(stderr, path):
            return "problem", f"no file:line:col and caret:\n{stderr}"
        return "diagnostic", stderr
    if stdout.strip() and "--verify-diagnostics" not in args and "-verify-diagnostics" not in args:
        try:
            unregistered = bool({"--allow-unregistered-dialect",
                                 "-allow-unregistered-dialect"} & set(args))
            parse_module(stdout, "<output>", allow_unregistered=unregistered)
        except Diagnostic as error:
            return "problem", f"the output does not parse:\n{error}\n--- output:\n{stdout}"
        except Exception:  # noqa: BLE001 - as above
            return "problem", ("parsing the output failed:\n" + traceback.format_exc(limit=-8)
                               + f"--- output:\n{stdout}")
    return "output", ""


def _located(stderr: str, path: Path) -> bool:
    """Whether ``stderr`` holds a diagnostic with ``file:line:col`` and, where it points into
    the input ``path``, a caret under the column. A diagnostic at ``path:0:0`` (where MLIR and
    tilecraft place the implicit top-level module) or in another file (a ``loc("f.py":3:1)``
    that the input gave an op) has no line here to show."""
    head = _HEAD.search(stderr)
    if head is None:
        return False
    if head.group(1) != str(path) or head.group(2) == "0":
        return True
    return _CARET.search(stderr, head.end()) is not None


@dataclass
class _Scratch:
    """Where mutants are written (under their file's name) and which targets' arguments were
    replaced by none (their passes are not registered here)."""

    root: Path
    fallback: dict[Target, tuple[str, ...]] = field(default_factory=dict)

    def args(self, target: Target, timeout_s: float) -> tuple[str, ...]:
        """The target's arguments, or none when the unmutated piece fails with them and no
        located error: they are not a valid command line here (a pass this project lacks, a
        pass option the RUN line leaves out on purpose)."""
        if target not in self.fallback:
            path = self.write(target, target.text.encode("utf-8"))
            kind, detail = check_mutant(path, target.args, timeout_s)
            command_line = kind == "problem" and detail.startswith("no file:line:col")
            self.fallback[target] = () if command_line else target.args
        return self.fallback[target]

    def write(self, target: Target, data: bytes) -> Path:
        path = self.root / target.file.name
        path.write_bytes(data)
        return path


def run(found: Sequence[Target], cases: int, seed: int,
        timeout_s: float = 20.0) -> Iterator[Result]:
    """``cases`` mutants, seeds from ``seed`` on; the seed picks the target and the mutation."""
    with tempfile.TemporaryDirectory(prefix="tilecraft-ir-fuzz-") as scratch:
        place = _Scratch(Path(scratch))
        for case in range(seed, seed + cases):
            rng = random.Random(case)
            target = rng.choice(found)
            args = place.args(target, timeout_s)
            mutant = mutate(target.text, rng)
            kind, detail = check_mutant(place.write(target, mutant), args, timeout_s)
            yield Result(kind, target, case, mutant, args, detail)
