"""Every hook that `.td` declares (hasFolder, hasCanonicalizer, hasVerifier, a custom assembly
format, ...) does something in some lit case.

The hooks are found from the generated model: each generated op, attribute and type class of
`tilecraft.generated`'s dialects lists its hand-written hooks in ``HOOKS`` (those of
`tilecraft.codegen.hooks`; ``get_canonicalization_patterns`` is generated, not a hook). Each one
is wrapped while every tilecraft-opt command of every RUN line under tests/lit runs in process
(the pipes fed as the shell would feed them), and a hook counts as exercised only when it does
its job once:

- a folder (``fold``) returns a fold result;
- ``canonicalization_patterns``: one of the patterns it returns rewrites something;
- ``canonicalize`` (hasCanonicalizeMethod) reports a change;
- a verifier (``custom_verify``, ``custom_verify_regions``, an attribute's ``verify``) rejects
  something (a lit case shows the error it exists for);
- a parser or a printer of a custom assembly format runs (parsing returns, printing is called).

A hook that no lit case exercises fails the test, named with its op and the field that declared
it, unless `ALLOWED` lists it with the reason why no lit case can.
"""

from __future__ import annotations

import contextlib
import functools
import io
import shlex
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tilecraft.codegen.hooks import ATTR_HOOK_FIELDS, OP_HOOK_FIELDS
from tilecraft.generated import DIALECTS
from tilecraft.ir import get_dialect
from tilecraft.transforms import folding
from tilecraft.transforms.lit_files import run_lines
from tilecraft.transforms.opt import main as opt_main

from .litsupport import HERE
from .test_lit import FILES

HOOK_FIELDS = {**OP_HOOK_FIELDS, **ATTR_HOOK_FIELDS}
VERIFIERS = {"custom_verify", "custom_verify_regions", "verify"}
ASSEMBLY = {"parse", "print", "parse_parameters", "print_parameters"}
PLUGIN = HERE / "passes.py"
PLUGIN_MODULE = f"_tilecraft_opt_plugin_{PLUGIN.stem}"

# "dialect.Class.hook" -> why no lit case exercises it: hooks that can reject nothing
# (`test_allowed_hooks_are_still_unexercised` says when one is exercised after all).
_NO_TENSORS = ("the custom_verify every tt op gets (Triton's TensorSizeTrait and "
               "VerifyTensorLayoutsTrait) looks only at ranked-tensor operands and results, and "
               "this op's are scalars, pointers or a !tt.tensordesc; Triton declares no verifier "
               "of its own for it: there is nothing it could reject")
ALLOWED: dict[str, str] = {
    "tt.GetProgramIdOp.custom_verify": _NO_TENSORS,
    "tt.GetNumProgramsOp.custom_verify": _NO_TENSORS,
    "tt.MakeTensorDescOp.custom_verify": _NO_TENSORS,
}


def _name(cls: type) -> str:
    return getattr(cls, "OPERATION_NAME", None) or cls.__name__


def declared_hooks() -> dict[str, tuple[type, str]]:
    """"dialect.Class.hook" -> (class, hook) for every hand-written hook `.td` declares."""
    out = {}
    for dialect in DIALECTS:
        d = get_dialect(dialect)
        for cls in [*d.ops.values(), *d.types.values(), *d.attributes.values()]:
            for hook in getattr(cls, "HOOKS", ()):
                if hook in HOOK_FIELDS:
                    out[f"{dialect}.{cls.__name__}.{hook}"] = (cls, hook)
    return out


HOOKS = declared_hooks()


# -- running the RUN lines in process ---------------------------------------------------------

def _segments(words: list[str]) -> list[list[str]]:
    """The commands of a RUN line's pipes and `&&` lists, in order."""
    out, current = [], []
    for word in words:
        if word in ("|", "&&"):
            out.append(current)
            current = []
        else:
            current.append(word)
    out.append(current)
    return out


def _run_line(command: str, path: Path, tmp: Path) -> None:
    """Run the tilecraft-opt commands of one RUN line in this process, each fed the previous
    one's standard output (or the file named by `<`) as its standard input."""
    command = command.replace("%s", str(path)).replace("%t", str(tmp / "t"))
    command = command.replace("%S", str(path.parent)).replace("%p", str(path.parent))
    piped: str | None = None
    for words in _segments(shlex.split(command)):
        while words and (words[0] == "not" or words[0] == "env" or "=" in words[0]):
            words = words[1:]
        if not words or words[0] != "tilecraft-opt":
            piped = None
            continue
        argv, stdin = [], piped
        words = iter(words[1:])
        for word in words:
            if word == "<":
                stdin = Path(next(words)).read_text(encoding="utf-8")
            elif word in ("2>&1", ">/dev/null", "2>/dev/null") or word.startswith(">"):
                continue
            else:
                argv.append(word)
        if PLUGIN_MODULE not in sys.modules:
            argv.insert(0, f"--load-pass-plugin={PLUGIN}")
        out = io.StringIO()
        old_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin or "")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                opt_main(argv)
        finally:
            sys.stdin = old_stdin
        piped = out.getvalue()


# -- instrumenting the hooks ------------------------------------------------------------------

def _wrap(cls: type, hook: str, record):
    """Replace ``cls.hook`` by a wrapper calling ``record(result, raised)`` after each call;
    returns the original attribute (a function, classmethod or staticmethod)."""
    original = cls.__dict__[hook]
    if isinstance(original, (classmethod, staticmethod)):
        function = original.__func__
    else:
        function = original

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            result = function(*args, **kwargs)
        except Exception:
            record(None, True)
            raise
        record(result, False)
        return result

    setattr(cls, hook, type(original)(wrapper) if function is not original else wrapper)
    return original


@pytest.fixture(scope="module")
def exercised(tmp_path_factory) -> set[str]:
    done: set[str] = set()
    originals: list[tuple[type, str, object]] = []
    pattern_hooks: dict[type, list[str]] = defaultdict(list)

    def recorder(key: str, hook: str):
        def record(result, raised: bool) -> None:
            if hook in VERIFIERS:  # rejected: raised, or (attribute/type verify) a message
                hit = raised or result is not None
            elif hook in ASSEMBLY:
                hit = not raised
            elif hook == "fold":
                hit = not raised and result is not None
            elif hook == "canonicalize":
                hit = not raised and bool(result)
            else:
                hit = False
            if hit:
                done.add(key)
        return record

    for key, (cls, hook) in HOOKS.items():
        if hook == "canonicalization_patterns":
            for pattern in cls.canonicalization_patterns():
                pattern_hooks[type(pattern)].append(key)
        else:
            originals.append((cls, hook, _wrap(cls, hook, recorder(key, hook))))

    def fired(keys: list[str]):
        def record(result, raised: bool) -> None:
            if result and not raised:
                done.update(keys)
        return record

    for pattern_cls, keys in pattern_hooks.items():
        owner = next(c for c in pattern_cls.__mro__ if "match_and_rewrite" in c.__dict__)
        if owner is not pattern_cls:  # wrap on the class itself, not a shared base
            pattern_cls.match_and_rewrite = owner.__dict__["match_and_rewrite"]
            originals.append((pattern_cls, "match_and_rewrite", None))
            _wrap(pattern_cls, "match_and_rewrite", fired(keys))
        else:
            originals.append((pattern_cls, "match_and_rewrite",
                              _wrap(pattern_cls, "match_and_rewrite", fired(keys))))
    # the folder keeps each class's fold once looked up: forget them so the wrappers are seen
    folding._FOLD.clear()
    try:
        tmp = tmp_path_factory.mktemp("hooks")
        for path in FILES:
            for command in run_lines(path.read_text(encoding="utf-8")):
                _run_line(command, path, tmp)
    finally:
        for cls, hook, original in reversed(originals):
            if original is None:
                delattr(cls, hook)
            else:
                setattr(cls, hook, original)
        folding._FOLD.clear()
    return done


def test_allow_list_names_declared_hooks():
    stale = sorted(set(ALLOWED) - set(HOOKS))
    assert not stale, f"ALLOWED names hooks that no def declares: {stale}"


def test_every_declared_hook_is_exercised_by_a_lit_case(exercised: set[str]):
    missing = [key for key in HOOKS if key not in exercised and key not in ALLOWED]
    lines = [f"{_name(HOOKS[key][0])}: {HOOK_FIELDS[HOOKS[key][1]]} ({key})" for key in missing]
    assert not missing, (
        f"{len(missing)} declared hooks that no lit case under tests/lit exercises (add one, "
        "or list it in ALLOWED with the reason):\n  " + "\n  ".join(lines))


def test_allowed_hooks_are_still_unexercised(exercised: set[str]):
    covered = sorted(key for key in ALLOWED if key in exercised)
    assert not covered, f"ALLOWED hooks that a lit case now exercises (drop them): {covered}"
