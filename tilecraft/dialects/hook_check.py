"""The child side of tools/gen's hook check: import freshly generated dialects with their hooks.

tools/gen (`tilecraft.codegen.hooks`) renders generated/ into a temporary folder and runs
``python -m tilecraft.dialects.hook_check`` with a JSON request on stdin:
``{"sys_path": [...], "generated": "<folder>", "dialects": ["arith", ...]}``. This module makes
that folder the package `tilecraft.generated` (so hooks modules meet the new classes, not the
ones on disk), imports every dialect while `finish_dialect` collects the hooks nobody
implemented, and writes a JSON report on stdout: ``{"missing": [...], "failures": [...]}``.
Only the standard library is imported before the folder is in place.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import traceback
from pathlib import Path


def _install_generated(folder: Path) -> None:
    """Make ``folder`` the package `tilecraft.generated` of this process."""
    import tilecraft

    spec = importlib.util.spec_from_file_location(
        "tilecraft.generated", folder / "__init__.py", submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["tilecraft.generated"] = package
    spec.loader.exec_module(package)
    tilecraft.generated = package  # type: ignore[attr-defined]


def _module_file(module: str) -> str | None:
    """The source file of the module ``module`` without running it, or None."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None


def _failure(dialect: str, err: BaseException, generated: Path) -> dict[str, object]:
    """Where importing a dialect went wrong: the innermost frame outside the generated folder
    and Python's own import machinery (a hooks module's line, usually)."""
    file, line, col = None, 0, 0
    if isinstance(err, SyntaxError) and err.filename:
        file, line, col = err.filename, err.lineno or 0, err.offset or 0
    else:
        for frame in reversed(traceback.extract_tb(err.__traceback__)):
            if frame.filename.startswith("<") or Path(frame.filename).parent == generated:
                continue
            file, line, col = frame.filename, frame.lineno or 0, (frame.colno or 0) + 1
            break
    message = f"{type(err).__name__}: {err}".strip()
    return {"dialect": dialect, "message": message, "file": file, "line": line, "col": col}


def check(request: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    """Import each requested dialect from the request's generated folder; the report."""
    generated = Path(str(request["generated"])).resolve()
    _install_generated(generated)
    from tilecraft.ir.ods import collecting_missing_hooks

    missing: list[dict[str, object]] = []
    failures: list[dict[str, object]] = []
    with collecting_missing_hooks() as found:
        for dialect in request["dialects"]:  # type: ignore[attr-defined]
            try:
                importlib.import_module(f"tilecraft.generated.{dialect}")
            except Exception as err:  # reported with its location, as tools/gen reports errors
                failures.append(_failure(str(dialect), err, generated))
    for hook in dict.fromkeys(found):
        missing.append({"name": hook.name, "class_name": hook.class_name, "hook": hook.hook,
                        "hooks_module": hook.hooks_module,
                        "file": _module_file(hook.hooks_module)})
    return {"missing": missing, "failures": failures}


def main() -> int:
    """Read the request on stdin, write the report on stdout."""
    request = json.load(sys.stdin)
    sys.path[:] = [str(entry) for entry in request["sys_path"]]
    json.dump(check(request), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
