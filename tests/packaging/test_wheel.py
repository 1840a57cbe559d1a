"""A plain (non-editable) install: everything lands under `tilecraft/`, data files included."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (path,) = out.glob("tilecraft-*.whl")
    return path


def test_wheel_installs_only_under_the_tilecraft_namespace(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"tilecraft"}
    for needed in ("tilecraft/codegen/td/grammar.lark", "tilecraft/codegen/templates/dialect.py.j2",
                   "tilecraft/generated/builtin.py", "tilecraft/generated/arith.py",
                   "tilecraft/runtime/__init__.py", "tilecraft/ir/parser.py",
                   "tilecraft/backends/launchers/module.c",
                   "tilecraft/backends/launchers/common.h"):
        assert needed in names


def test_plain_install_imports_and_parses(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    script = (
        "import tilecraft, tilecraft.codegen.main, tilecraft.generated, tilecraft.runtime\n"
        "from tilecraft.ir import parse_module\n"
        "m = parse_module('module {\\n  %0 = arith.constant 1 : i32\\n}\\n')\n"
        "print(tilecraft.__file__)\n"
        "print(m)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    first, *rest = proc.stdout.splitlines()
    assert first.startswith(str(target))
    assert "%c1_i32 = arith.constant 1 : i32" in "\n".join(rest)
