"""Runs the RUN lines of every tests/lit/**/*.mlir file under pytest, as lit would.

Each RUN line (``\\`` continues it) gets the tool substitutions of `litsupport` and ``%s``,
``%S``/``%p`` (the file's folder) and ``%t`` (a temporary path); the lines run in order in bash
with pipefail, and ``not CMD`` succeeds when CMD fails, as in lit's shell.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tilecraft.transforms.lit_files import run_lines

from .litsupport import HERE, tool_substitutions

FILES = sorted(p for p in HERE.rglob("*.mlir") if "Inputs" not in p.parts)
_PRELUDE = "set -eo pipefail\nnot() { ! \"$@\"; }\n"


def substitute(command: str, path: Path, tmp: Path) -> str:
    for pattern, replacement in tool_substitutions():
        command = re.sub(pattern, lambda _m, r=replacement: r, command)
    for key, value in (("%s", path), ("%S", path.parent), ("%p", path.parent), ("%t", tmp)):
        command = command.replace(key, str(value))
    return command


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE)))
def test_lit_file(path: Path, tmp_path: Path):
    commands = run_lines(path.read_text(encoding="utf-8"))
    assert commands, f"{path} has no RUN line"
    script = _PRELUDE + "\n".join(substitute(c, path, tmp_path / "t") for c in commands)
    env = {k: v for k, v in os.environ.items()
           if k not in ("TILECRAFT_DUMP_IR", "TILECRAFT_REPRODUCER_PATH", "TILECRAFT_DEBUG")}
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, (
        f"RUN lines of {path} failed\n--- script\n{script}\n--- stdout\n{done.stdout}\n"
        f"--- stderr\n{done.stderr}")
