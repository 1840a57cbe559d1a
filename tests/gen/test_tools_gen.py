"""tools/gen as a command: --check, only-changed writes, determinism, errors without output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .util import ROOT, run_gen


def test_repository_generated_files_are_fresh(capsys):
    assert run_gen(ROOT, "--check") == 0, capsys.readouterr().err


def test_check_lists_stale_and_extra_files(project: Path, capsys):
    assert run_gen(project, "--check") == 1
    err = capsys.readouterr().err
    assert "generated/builtin.py (out of date)" in err
    assert run_gen(project) == 0
    assert run_gen(project, "--check") == 0
    (project / "generated" / "old_dialect.py").write_text("# left over\n")
    (project / "generated" / "builtin.py").write_text("# edited by hand\n")
    assert run_gen(project, "--check") == 1
    err = capsys.readouterr().err
    assert "generated/old_dialect.py (no longer generated)" in err
    assert "generated/builtin.py (out of date)" in err


def test_writes_only_changed_files(demo_project: Path):
    assert run_gen(demo_project) == 0
    builtin = demo_project / "generated" / "builtin.py"
    demo = demo_project / "generated" / "demo.py"
    before = builtin.stat().st_mtime_ns
    text = (demo_project / "defs" / "demo.td").read_text()
    (demo_project / "defs" / "demo.td").write_text(text.replace("Adds two integers", "Adds"))
    assert run_gen(demo_project) == 0
    assert builtin.stat().st_mtime_ns == before
    assert '"""Adds"""' in demo.read_text()


def test_output_is_deterministic(demo_project: Path, tmp_path: Path):
    assert run_gen(demo_project) == 0
    files = lambda: sorted(p for p in (demo_project / "generated").rglob("*.py"))  # noqa: E731
    first = {p: p.read_bytes() for p in files()}
    for p in files():
        p.unlink()
    assert run_gen(demo_project) == 0
    second = {p: p.read_bytes() for p in files()}
    assert first == second and len(first) > 3


def test_docs_are_generated(demo_project: Path):
    assert run_gen(demo_project) == 0
    doc = (demo_project / "docs" / "dialects" / "demo.md").read_text()
    assert "### `demo.add` (AddOp)" in doc
    assert "_Adds two integers_" in doc
    assert "| `mode` |" in doc
    passes = (demo_project / "docs" / "dialects" / "passes.md").read_text()
    assert "## `-demo-fuse`" in passes and "| `factor` |" in passes


def test_list_prints_dialects(demo_project: Path, capsys):
    assert run_gen(demo_project, "--list") == 0
    out = capsys.readouterr().out
    assert "dialect demo" in out and "demo.add" in out and "-demo-fuse" in out


def test_command_line_tool_runs_without_traceback(project: Path):
    (project / "defs" / "broken.td").write_text("def X : NoSuchClass;\n")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen"), "--root", str(project)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "broken.td:1:9: error:" in proc.stderr
    assert not (project / "generated").exists()


def test_error_leaves_existing_generated_files_untouched(demo_project: Path, capsys):
    assert run_gen(demo_project) == 0
    before = {p: p.read_bytes() for p in (demo_project / "generated").rglob("*.py")}
    demo_td = demo_project / "defs" / "demo.td"
    demo_td.write_text(demo_td.read_text().replace('"Adds two integers"', '"Adds"') +
                       "\ndef Broken : Demo_Op<\"broken\"> { let arguments = (ins I32); }\n")
    assert run_gen(demo_project) == 1
    assert "every entry of 'arguments' needs a name" in capsys.readouterr().err
    after = {p: p.read_bytes() for p in (demo_project / "generated").rglob("*.py")}
    assert after == before
