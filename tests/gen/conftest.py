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


DEMO_HOOKS = """\
from tilecraft.generated import demo
from tilecraft.ir.ods import implements


@implements(demo.CheckedOp)
def custom_verify(self):
    if self.width % 2:
        raise self.emit_error('width must be even')
"""


def _demo_hooks(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo dialect's hooks module (`demo_hooks`, which tools/gen imports to check that
    every declared hook exists), importable from `root/hooks`."""
    hooks = root / "hooks"
    hooks.mkdir()
    (hooks / "demo_hooks.py").write_text(DEMO_HOOKS)
    monkeypatch.syspath_prepend(str(hooks))


@pytest.fixture
def demo_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(HERE / "defs" / "demo.td", project / "defs" / "demo.td")
    _demo_hooks(project, monkeypatch)
    return project


@pytest.fixture
def demo_only_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the base library and the demo dialect only (stable golden outputs)."""
    shutil.copytree(ROOT / "defs" / "base", tmp_path / "defs" / "base")
    shutil.copy(HERE / "defs" / "demo.td", tmp_path / "defs" / "demo.td")
    _demo_hooks(tmp_path, monkeypatch)
    return tmp_path


@pytest.fixture
def demo(demo_project: Path):
    """The generated demo dialect module (as `tilecraft.generated.demo`) with its hooks."""
    assert run_gen(demo_project) == 0
    module = load_generated(demo_project / "generated" / "demo.py", "tilecraft.generated.demo")
    yield module
    sys.modules.pop("tilecraft.generated.demo", None)
    sys.modules.pop("demo_hooks", None)
