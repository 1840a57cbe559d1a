"""A temporary copy of the project that Python imports as `tilecraft`, for tests that edit
`defs/`, run `tools/gen` and use the result as a user would, without touching the checkout.

The copy holds the source folders (`tilecraft/`, `codegen/`, `generated/`, `runtime/`,
`defs/`, `tools/`, `examples/`, `docs/`) and maps the top-level folders into the package as the
build does (`tilecraft/codegen` -> `codegen/`, ...) with symbolic links, so that
`PYTHONPATH=<copy>` imports the copy ahead of the installed package. Commands run in a child
Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tilecraft", "codegen", "generated", "runtime", "defs", "tools", "examples",
           "docs")
# pyproject's mapping of top-level folders into the tilecraft namespace.
MAPPED = {"codegen": "codegen", "generated": "generated", "runtime": "runtime"}


@dataclass(frozen=True)
class ProjectCopy:
    """A copy of the project at ``root``; `run` runs a command with the copy importable."""

    root: Path

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of commands in the copy: its root first on the import path."""
        env = {**os.environ, "PYTHONPATH": str(self.root), "PYTHONDONTWRITEBYTECODE": "1"}
        for name in ("TILECRAFT_CACHE_DISABLE", "TILECRAFT_INTERPRET", "TILECRAFT_ALWAYS_COMPILE"):
            env.pop(name, None)
        env.update(extra)
        return env

    def run(self, *args: str, stdin: str | None = None, check: bool = True,
            **env: str) -> subprocess.CompletedProcess[str]:
        """``python *args`` in the copy's root; fails the test with its output when ``check``
        and the command fails."""
        proc = subprocess.run([sys.executable, *args], cwd=self.root, input=stdin,
                              capture_output=True, text=True, env=self.env(**env), check=False)
        if check and proc.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed ({proc.returncode}):\n"
                                 f"{proc.stdout}\n{proc.stderr}")
        return proc

    def edit(self, relative: str, old: str, new: str) -> None:
        """Replace the one occurrence of ``old`` in the copy's file ``relative``."""
        path = self.root / relative
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not once in {relative}"
        path.write_text(text.replace(old, new), encoding="utf-8")


def copy_project(destination: Path) -> ProjectCopy:
    """Copy the project's source folders to ``destination`` (created) and map them into the
    copy's `tilecraft` package."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, destination / folder, ignore=ignore)
    for name, folder in MAPPED.items():
        (destination / "tilecraft" / name).symlink_to(destination / folder,
                                                      target_is_directory=True)
    return ProjectCopy(destination)
