"""tools/gen's hook check: every hook a `.td` file declares is implemented by its hooks module.

A def that sets ``hasFolder``, ``hasVerifier``, ``hasCanonicalizer``, ... promises a
hand-written function in the dialect's hooks module. Before anything is written, the rendered
files are put in a temporary folder and a child Python (`tilecraft.dialects.hook_check`, so that
this package imports nothing of the compiler) imports every dialect from there with its hooks.
A hook nobody implemented becomes a `TdError` at the `.td` field that declared it, naming the
op, the declaring field and the function that is missing; a hooks module that fails to import is
reported at its own line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, SourceLoc
from .model import Model
from .td import Record, TdError

# The `.td` bit that declares each hook of an op, and of an attribute or a type.
OP_HOOK_FIELDS = {
    "custom_verify": "hasVerifier",
    "custom_verify_regions": "hasRegionVerifier",
    "fold": "hasFolder",
    "canonicalization_patterns": "hasCanonicalizer",
    "canonicalize": "hasCanonicalizeMethod",
    "parse": "hasCustomAssemblyFormat",
    "print": "hasCustomAssemblyFormat",
}
ATTR_HOOK_FIELDS = {
    "parse_parameters": "hasCustomAssemblyFormat",
    "print_parameters": "hasCustomAssemblyFormat",
    "verify": "genVerifyDecl",
}


@dataclass(frozen=True)
class DeclaredHook:
    """A generated class's hook as `.td` declares it: the def and the field that asked for it."""

    record: Record
    field: str


def declared_hooks(model: Model) -> dict[tuple[str, str, str], DeclaredHook]:
    """(dialect, class name, hook) -> where `.td` declares it, for every generated class."""
    out: dict[tuple[str, str, str], DeclaredHook] = {}
    for dialect in model.dialects.values():
        for op in dialect.ops:
            for hook in op.hooks:
                out[dialect.name, op.class_name, hook] = DeclaredHook(
                    op.record, OP_HOOK_FIELDS[hook])
        for item in [*dialect.attrs, *dialect.types]:
            for hook in item.hooks:
                out[dialect.name, item.class_name, hook] = DeclaredHook(
                    item.record, ATTR_HOOK_FIELDS[hook])
    return out


def check_hooks(model: Model, outputs: dict[Path, str], gen_dir: Path, root: Path) -> None:
    """Import the rendered dialects (`outputs`, files under `gen_dir`) in a child Python with
    their hooks modules; a `Diagnostic` listing every missing hook or failed import."""
    dialects = [name for name, d in model.dialects.items()
                if any(op.hooks for op in d.ops)
                or any(item.hooks for item in [*d.attrs, *d.types])]
    if not dialects:
        return
    with tempfile.TemporaryDirectory(prefix="tilecraft-gen-") as tmp:
        folder = Path(tmp) / "generated"
        for path, text in outputs.items():
            if path.is_relative_to(gen_dir):
                target = folder / path.relative_to(gen_dir)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        request = {"sys_path": sys.path, "generated": str(folder), "dialects": dialects}
        proc = subprocess.run(
            [sys.executable, "-m", "tilecraft.dialects.hook_check"],
            input=json.dumps(request), capture_output=True, text=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False)
    if proc.returncode != 0:
        detail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise Diagnostic(f"internal error: the hook check could not run: {detail[0]}")
    report = json.loads(proc.stdout)
    errors = _missing_errors(report["missing"], declared_hooks(model), model, root)
    errors += _failure_errors(report["failures"], root)
    if errors:
        raise HookCheckError(errors)


class HookCheckError(Diagnostic):
    """Several located errors of the hook check, printed one after another."""

    def __init__(self, errors: list[Diagnostic]) -> None:
        super().__init__(errors[0].message, errors[0].loc)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(err) for err in self.errors)


def _display_path(file: str, module: str, root: Path) -> str:
    """The hooks module's file: relative to the project root when it is inside it, else the
    module's dotted name as a path (`tilecraft/dialects/tt.py`)."""
    path = Path(file).resolve()
    if path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    suffix = "/__init__.py" if path.name == "__init__.py" else ".py"
    return module.replace(".", "/") + suffix


def _missing_errors(missing: list[dict], declared: dict[tuple[str, str, str], DeclaredHook],
                    model: Model, root: Path) -> list[Diagnostic]:
    errors: list[Diagnostic] = []
    for item in missing:
        name = str(item["name"])
        dialect = name.split(".", 1)[0]
        where = declared.get((dialect, item["class_name"], item["hook"]))
        if where is None:  # not declared by these defs: a class the hooks module made itself
            continue
        function = f"{item['class_name']}.{item['hook']}"
        if item["file"] is None:
            message = (f"'{name}' declares {where.field} but there is no hooks module "
                       f"'{item['hooks_module']}' to implement {function}")
        else:
            module = _display_path(item["file"], item["hooks_module"], root)
            message = f"'{name}' declares {where.field} but {module} implements no {function}"
        errors.append(TdError(message, where.record.field_loc(where.field)))
    return errors


def _failure_errors(failures: list[dict], root: Path) -> list[Diagnostic]:
    errors: list[Diagnostic] = []
    seen: set[tuple[object, ...]] = set()
    for item in failures:
        key = (item["file"], item["line"], item["message"])
        if key in seen:
            continue
        seen.add(key)
        message = (f"the dialect '{item['dialect']}' does not import with its hooks: "
                   f"{item['message']}")
        if not item["file"]:
            errors.append(Diagnostic(message))
            continue
        path = Path(item["file"]).resolve()
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        loc = SourceLoc(shown, int(item["line"]), max(int(item["col"]), 1))
        errors.append(Diagnostic(message, loc, source=_read(path)))
    return errors


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
