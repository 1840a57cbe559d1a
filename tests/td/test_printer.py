"""``--print-records`` output and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.codegen.td import load_records, print_records
from tilecraft.codegen.td.cli import main, print_records_main

DATA = Path(__file__).parent / "data"


def test_print_records_golden() -> None:
    expected = (DATA / "golden.txt").read_text()
    assert print_records(load_records(DATA / "golden.td")) == expected


def test_print_records_of_classes_with_unresolved_values() -> None:
    from .util import load
    text = print_records(load("class A<list<int> xs> { int n = !size(xs); "
                              "list<int> d = !foreach(x, xs, !mul(x, 2)); }"))
    assert "class A<list<int> A:xs = ?> {\n" in text
    assert "  int n = !size(A:xs);\n" in text
    assert "  list<int> d = !foreach(x, A:xs, !mul(x, 2));\n" in text


def test_cli_prints_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "lib.td").write_text("class C { int v = 2; }\n")
    (tmp_path / "main.td").write_text('include "lib.td"\ndef X : C;\n')
    status = print_records_main(["--print-records", str(tmp_path / "main.td"),
                                 "-I", str(tmp_path / "inc")])
    assert status == 0
    assert capsys.readouterr().out.endswith("def X {\t// C\n  int v = 2;\n}\n")
    assert main([str(tmp_path / "main.td"), f"-I{tmp_path / 'inc'}"]) == 0


def test_cli_reports_errors_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.td"
    path.write_text("def X {\n  int v = \"s\";\n}\n")
    assert print_records_main(["--print-records", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"{path}:2:11: error: field 'v' of type 'int' cannot be set to "
                            f"\"s\" of type 'string'\n  int v = \"s\";\n          ^\n")
