"""tilecraft.transforms.filecheck: CHECK-NOT ranges end at the start of the next match, as in
LLVM FileCheck, and every excluded string in that range still fails the check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tilecraft.transforms import filecheck

INPUT = """\
func @f
  %0 = arith.addi %a, %b
  %1 = ttg.convert_layout %0
  tt.return %1
"""


def check(tmp_path: Path, checks: str, text: str = INPUT) -> tuple[int, str]:
    path = tmp_path / "checks.txt"
    path.write_text(checks, encoding="utf-8")
    return filecheck.run([str(path)], text)


@pytest.mark.parametrize("checks", [
    "CHECK: arith.addi\nCHECK-NOT: ttg.convert_layout\nCHECK: ttg.convert_layout\n",
    "CHECK: arith.addi\nCHECK-NOT: convert_layout\nCHECK-NEXT: %1 = ttg.convert_layout\n",
    "CHECK: %1 =\nCHECK-NOT: convert_layout\nCHECK-SAME: ttg.convert_layout %0\n",
    "CHECK: @f\nCHECK-NOT: ttg.convert_layout\nCHECK-COUNT-1: %1 = ttg.convert_layout\n",
    "CHECK: @f\nCHECK-NOT: %1\nCHECK: arith.addi\n",
])
def test_excluded_string_inside_the_next_match_is_allowed(tmp_path: Path, checks: str):
    status, messages = check(tmp_path, checks)
    assert status == 0, messages


@pytest.mark.parametrize("checks", [
    "CHECK: @f\nCHECK-NOT: ttg.convert_layout\nCHECK: tt.return\n",
    "CHECK: @f\nCHECK-NOT: %0\nCHECK-NEXT: arith.addi\n",
    "CHECK: %0\nCHECK-NOT: arith\nCHECK-SAME: %a\n",
    "CHECK: %0\nCHECK-NOT: %1\nCHECK-LABEL: tt.return\n",
    "CHECK: arith.addi\nCHECK-NOT: tt.return\n",
    "CHECK-NOT: arith.addi\nCHECK-DAG: ttg.convert_layout\nCHECK-DAG: tt.return\n",
])
def test_excluded_string_before_the_next_match_fails(tmp_path: Path, checks: str):
    status, messages = check(tmp_path, checks)
    assert status == 1
    assert "excluded string found" in messages


@pytest.mark.parametrize(("checks", "message"), [
    ("CHECK: @f\nCHECK-NEXT: ttg.convert_layout\n", "not on the line after"),
    ("CHECK: @f\nCHECK-NEXT: scf.for\n", "Couldn't match"),
])
def test_check_next_must_match_on_the_next_line(tmp_path: Path, checks: str, message: str):
    status, messages = check(tmp_path, checks)
    assert status == 1
    assert message in messages


def test_check_next_takes_the_first_match_of_the_line(tmp_path: Path):
    status, messages = check(tmp_path, "CHECK: arith.addi\nCHECK-NEXT: [[V:%[0-9]+]]\n"
                             "CHECK-NEXT: tt.return [[V]]\n")
    assert status == 0, messages  # [[V]] is %1, the line's first value, not its last (%0)


def test_command_line_reads_stdin(tmp_path: Path):
    path = tmp_path / "checks.txt"
    path.write_text("CHECK-NOT: ttg.convert_layout\nCHECK: ttg.convert_layout %0\n",
                    encoding="utf-8")
    command = [sys.executable, "-m", "tilecraft.transforms.filecheck", str(path)]
    passed = subprocess.run(command, input=INPUT, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stderr
    failed = subprocess.run(command, input="ttg.convert_layout %1\nttg.convert_layout %0\n",
                            capture_output=True, text=True)
    assert failed.returncode == 1
