"""tools/triton_lit.py: splitting into pieces, RUN-line parsing and per-piece verdicts on a
tiny synthetic file (no Triton checkout needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("triton_lit", ROOT / "tools" / "triton_lit.py")
triton_lit = importlib.util.module_from_spec(_SPEC)
sys.modules["triton_lit"] = triton_lit
_SPEC.loader.exec_module(triton_lit)

SYNTHETIC = """\
// RUN: triton-opt %s -split-input-file -canonicalize \\
// RUN:   | FileCheck %s --check-prefixes=CHECK --dump-input-context=10

// CHECK-LABEL: @good
tt.func @good(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  // CHECK-NEXT: tt.return %arg0
  tt.return %0 : i32
}

// -----

// CHECK-LABEL: @wrong
// CHECK: arith.muli
tt.func @wrong() {
  tt.return
}

// -----
tt.func @broken( {
}

// -----

tt.func @no_checks() {
  tt.return
}
"""


def test_run_lines_join_continuations():
    assert triton_lit.run_lines(SYNTHETIC) == [
        "triton-opt %s -split-input-file -canonicalize    "
        "| FileCheck %s --check-prefixes=CHECK --dump-input-context=10"]


def test_parse_run_line_stages_quotes_not_and_stderr():
    run = triton_lit.parse_run_line(
        "not triton-opt %s -convert-triton-to-tritongpu='target=cuda:80 num-warps=2' 2>&1 "
        "| FileCheck %s")
    opt, check = run.stages
    assert (opt.tool, opt.negate, opt.merge_stderr) == ("triton-opt", True, True)
    assert opt.args == ["%s", "-convert-triton-to-tritongpu=target=cuda:80 num-warps=2"]
    assert (check.tool, check.args, check.negate) == ("FileCheck", ["%s"], False)


def test_pieces_keep_the_file_line_numbers():
    found = triton_lit.pieces(SYNTHETIC)
    assert [line for line, _ in found] == [1, 14, 21, 26]  # first non-empty lines
    line, text = found[1]
    assert text.splitlines()[14 - 1] == "// CHECK-LABEL: @wrong"


def test_filecheck_options_are_mapped_or_dropped():
    kept, implicit, dropped = triton_lit._check_args(
        ["%s", "--check-prefixes=A,B", "-dump-input-context", "20", "--implicit-check-not",
         "foo", "-strict-whitespace"])
    assert kept == ["%s", "--check-prefixes=A,B", "--strict-whitespace"]
    assert implicit == ["foo"]
    assert dropped == ["-dump-input-context"]


def test_verdicts_per_piece(tmp_path: Path):
    commands = triton_lit.run_lines(SYNTHETIC)
    results = [triton_lit.run_piece(("t.mlir", index, line, text, commands, str(tmp_path)))
               for index, (line, text) in enumerate(triton_lit.pieces(SYNTHETIC))]
    reasons = [r.reason for r in results]
    assert reasons[0] is None
    assert reasons[1].startswith("RUN 1: check failure")
    assert reasons[2].startswith("RUN 1: parse error: 21:")
    assert reasons[3] is None  # no checks of its own: passes when tilecraft-opt succeeds


def test_unknown_pass_is_named(tmp_path: Path):
    text = "// RUN: triton-opt %s -no-such-pass\ntt.func @f() {\n  tt.return\n}\n"
    (_, piece), = triton_lit.pieces(text)
    result = triton_lit.run_piece(("u.mlir", 0, 1, piece, triton_lit.run_lines(text),
                                   str(tmp_path)))
    assert result.reason == "RUN 1: unknown pass no-such-pass"
