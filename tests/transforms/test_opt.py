"""tools/opt in process: exit statuses, output files, input splitting, expected diagnostics."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tilecraft.codegen.diagnostics import Diagnostic
from tilecraft.transforms.opt import main, split_input
from tilecraft.transforms.verify_diagnostics import expected_diagnostics

from ..lit import passes  # noqa: F401 - registers the test passes

ROOT = Path(__file__).resolve().parents[2]
GOOD = "tt.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  tt.return %0 : i32\n}\n"


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.mlir"
    path.write_text(GOOD)
    return path


def test_output_file_written_on_success_only(good: Path, tmp_path: Path, capsys):
    out = tmp_path / "out.mlir"
    assert main([str(good), "-o", str(out)]) == 0
    assert out.read_text().startswith("module {\n  tt.func @f(%arg0: i32) -> i32 {")
    failed = tmp_path / "failed.mlir"
    assert main([str(good), "-test-fail", "-o", str(failed)]) == 1
    assert not failed.exists()
    assert "error: 'builtin.module' op test pass failure" in capsys.readouterr().err


def test_a_crash_is_one_line_and_status_2(good: Path, capsys, monkeypatch):
    monkeypatch.delenv("TILECRAFT_DEBUG", raising=False)
    assert main([str(good), "-test-crash"]) == 2
    assert capsys.readouterr().err == (
        "tilecraft-opt: internal error: RuntimeError: the test pass crashed (while running pass "
        "'test-crash' on 'builtin.module') (TILECRAFT_DEBUG=1 shows the traceback)\n")
    monkeypatch.setenv("TILECRAFT_DEBUG", "1")
    with pytest.raises(RuntimeError, match="the test pass crashed"):
        main([str(good), "-test-crash"])


def test_usage_errors_are_status_1(good: Path, capsys):
    assert main([str(good), "--run-reproducer"]) == 1
    assert "has no reproducer trailer" in capsys.readouterr().err
    assert main(["--load-pass-plugin=/no/such/plugin.py", str(good)]) == 1
    assert "cannot load pass plugin '/no/such/plugin.py': no such file" in capsys.readouterr().err
    assert main(["--load-pass-plugin=no_such_plugin_module", str(good)]) == 1
    assert "cannot load pass plugin 'no_such_plugin_module'" in capsys.readouterr().err


def test_a_plugin_file_registers_passes(tmp_path: Path, good: Path, capsys):
    plugin = tmp_path / "myplugin.py"
    plugin.write_text(
        "from tilecraft.ir.pass_base import Pass\n"
        "from tilecraft.transforms import register_pass\n\n"
        "@register_pass\n"
        "class PluginPass(Pass):\n"
        "    ARGUMENT = 'test-plugin'\n"
        "    SUMMARY = 'From a plugin file'\n\n"
        "    def run_on_operation(self, op):\n"
        "        op.attributes.clear()\n")
    try:
        assert main([f"--load-pass-plugin={plugin}", "--list-passes"]) == 0
        assert "--test-plugin" in capsys.readouterr().out
        assert main([str(good), "-test-plugin"]) == 0
    finally:
        from tilecraft.transforms import unregister_pass

        unregister_pass("test-plugin")


def test_split_input_keeps_line_numbers():
    text = "a\n// -----\nb\nc\n  // -----  \nd\n// ----- not a marker\n"
    chunks = split_input(text)
    assert chunks == ["a\n", "\n\nb\nc\n", "\n\n\n\n\nd\n// ----- not a marker\n"]
    for chunk in chunks:
        for number, line in enumerate(chunk.splitlines(), start=1):
            if line:
                assert text.splitlines()[number - 1] == line


def test_expected_diagnostics_lines():
    text = """\
op  // expected-error {{same line}}
// expected-warning @+2 {{two down}}
// expected-note @below {{next plain line}}
op
// expected-remark @above {{last plain line}}
// expected-error @-4 {{four up}}
// expected-error @unknown {{nowhere}}
"""
    found = [(e.severity, e.message, e.line, e.loc.col) for e in expected_diagnostics(text, "f")]
    assert found == [("error", "same line", 1, 8), ("warning", "two down", 4, 4),
                     ("note", "next plain line", 4, 4), ("remark", "last plain line", 4, 4),
                     ("error", "four up", 2, 4), ("error", "nowhere", 0, 4)]
    with pytest.raises(Diagnostic, match="malformed expected diagnostic"):
        expected_diagnostics("// expected-error {{oops}\n", "f")


def test_the_console_script_and_tools_opt_agree(good: Path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "opt"), str(good),
                           "--mlir-print-op-generic"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith('"builtin.module"() ({')
    assert "tilecraft-opt = \"tilecraft.transforms.opt:main\"" in (
        ROOT / "pyproject.toml").read_text()
