"""Every declarative rewrite pattern (`Pat` in defs/) has a lit case that needs it.

The patterns are found from the generated model: the classes of `tilecraft.generated.patterns`,
each reached through what applies it (its root op's `get_canonicalization_patterns` for
`appliedBy = "canonicalize"`, a pass's `declared_patterns()` otherwise). The lit files whose
RUN lines run that pass are run in process while the pattern's successes are recorded; a
pattern that never fires fails the test. Then the first RUN line where it fired is run again with
the pattern switched off, and its FileCheck must fail: deleting any `Pat` turns a test red.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tilecraft.generated import DIALECTS
from tilecraft.generated import patterns as generated_patterns
from tilecraft.generated.passes import PASSES
from tilecraft.ir import get_dialect
from tilecraft.transforms.lit_files import run_lines
from tilecraft.transforms.opt import main as opt_main

from .test_lit import FILES


@dataclass(frozen=True)
class OptRun:
    """One `tilecraft-opt %s ARGS | filecheck %s FCARGS` RUN line of a lit file."""

    path: Path
    opt_args: tuple[str, ...]
    check_args: tuple[str, ...]

    def output(self) -> str:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = opt_main([str(self.path), *self.opt_args])
        assert status == 0, err.getvalue()
        return out.getvalue()

    def checks(self) -> bool:
        """Whether FileCheck accepts the output."""
        done = subprocess.run([sys.executable, "-m", "tilecraft.transforms.filecheck",
                               str(self.path), *self.check_args], input=self.output(),
                              capture_output=True, text=True)
        return done.returncode == 0

    def __str__(self) -> str:
        return f"{self.path.name}: tilecraft-opt {' '.join(self.opt_args)}"


def opt_runs(path: Path) -> list[OptRun]:
    """The file's RUN lines of the plain `tilecraft-opt %s ... | filecheck %s ...` form."""
    runs = []
    for command in run_lines(path.read_text(encoding="utf-8")):
        words = shlex.split(command)
        if "|" not in words or words.count("|") != 1:
            continue
        bar = words.index("|")
        opt, check = words[:bar], words[bar + 1:]
        if opt[:2] != ["tilecraft-opt", "%s"] or check[:2] != ["filecheck", "%s"]:
            continue
        if any(w.startswith(("2>", ">")) for w in [*opt, *check]):
            continue
        runs.append(OptRun(path, tuple(opt[2:]), tuple(check[2:])))
    return runs


def declared_patterns() -> dict[type, str]:
    """Each generated pattern class -> the pass argument that applies it."""
    applied: dict[type, str] = {}
    for name in DIALECTS:
        for op in get_dialect(name).ops.values():
            if "get_canonicalization_patterns" in op.HOOKS:
                for pattern in op.get_canonicalization_patterns():
                    applied[type(pattern)] = "canonicalize"
    for argument, base in PASSES.items():
        if hasattr(base, "declared_patterns"):
            for pattern in base.declared_patterns():
                applied[type(pattern)] = argument
    generated = {}
    for info in pkgutil.iter_modules(generated_patterns.__path__):
        module = importlib.import_module(f"{generated_patterns.__name__}.{info.name}")
        for cls in module.PATTERNS:
            generated[cls] = applied.get(cls)
    return generated


PATTERNS = declared_patterns()


def test_every_generated_pattern_is_applied_by_a_pass():
    unapplied = sorted(cls.__name__ for cls, argument in PATTERNS.items() if argument is None)
    assert not unapplied, f"patterns that no pass applies: {unapplied}"


def _runs_of(argument: str) -> list[OptRun]:
    return [run for path in FILES for run in opt_runs(path)
            if any(arg == f"-{argument}" or arg.startswith(f"-{argument}{{")
                   for arg in run.opt_args)]


@pytest.fixture(scope="module")
def fired() -> dict[type, OptRun]:
    """Each pattern -> the first RUN line (of the lit files running its pass) where it fired."""
    found: dict[type, OptRun] = {}
    originals = {cls: cls.match_and_rewrite for cls in PATTERNS}
    current: list[OptRun] = []

    def recording(cls):
        def match_and_rewrite(self, op, rewriter) -> bool:
            done = originals[cls](self, op, rewriter)
            if done:
                found.setdefault(cls, current[0])
            return done
        return match_and_rewrite

    try:
        for cls in PATTERNS:
            cls.match_and_rewrite = recording(cls)
        for argument in sorted(set(filter(None, PATTERNS.values()))):
            for run in _runs_of(argument):
                current[:] = [run]
                run.output()
    finally:
        for cls, method in originals.items():
            cls.match_and_rewrite = method
    return found


@pytest.mark.parametrize("cls", sorted(PATTERNS, key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_pattern_has_a_lit_case_that_needs_it(cls: type, fired: dict[type, OptRun],
                                              monkeypatch: pytest.MonkeyPatch):
    run = fired.get(cls)
    assert run is not None, (
        f"no lit case running -{PATTERNS[cls]} applies the pattern {cls.__name__} "
        f"({cls.__doc__}): add one")
    assert run.checks(), f"{run} fails with every pattern on"
    monkeypatch.setattr(cls, "match_and_rewrite", lambda self, op, rewriter: False)
    assert not run.checks(), (
        f"{run} still passes with {cls.__name__} switched off: its CHECK lines do not need it")
