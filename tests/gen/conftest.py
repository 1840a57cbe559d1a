"""Fixtures for generator tests: a temporary project with a copy of defs/ and the demo dialect."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from .util import HERE, ROOT, load_generated, run_gen


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project root with a copy of defs/ (generated/ and docs/ start empty)."""
    shutil.copytree(ROOT / "defs", tmp_path / "defs")
    return tmp_path


@pytest.fixture
def demo_project(project: Path) -> Path:
    shutil.copy(HERE / "defs" / "demo.td", project / "defs" / "demo.td")
    return project


@pytest.fixture
def demo_only_project(tmp_path: Path) -> Path:
    """A project with the base library and the demo dialect only (stable golden outputs)."""
    shutil.copytree(ROOT / "defs" / "base", tmp_path / "defs" / "base")
    shutil.copy(HERE / "defs" / "demo.td", tmp_path / "defs" / "demo.td")
    return tmp_path
@pytest.fixture
def demo(demo_project: Path, monkeypatch: pytest.MonkeyPatch):
    """The generated demo dialect module, with its hooks module importable."""
    assert run_gen(demo_project) == 0
    hooks = demo_project / "hooks"
    hooks.mkdir()
    (hooks / "demo_hooks.py").write_text(
        "from tilecraft.ir.ods import implements\n"
        "import demo_generated as demo\n\n"
        "@implements(demo.CheckedOp)\n"
        "def custom_verify(self):\n"
        "    if self.width % 2:\n"
        "        raise self.emit_error('width must be even')\n"
    )
    monkeypatch.syspath_prepend(str(hooks))
    module = load_generated(demo_project / "generated" / "demo.py", "demo_generated")
    yield module
    sys.modules.pop("demo_generated", None)
    sys.modules.pop("demo_hooks", None)
