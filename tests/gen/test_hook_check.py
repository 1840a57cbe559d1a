"""tools/gen imports the hooks modules: a declared hook that nobody implemented is a `.td` error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .util import ROOT, run_gen

FANCY_TD = """\
include "base/OpBase.td"
include "base/AttrTypeBase.td"

def Fancy_Dialect : Dialect {
  let name = "fancy";
  let hooksModule = "fancy_hooks";
}

def Fancy_ModeAttr : AttrDef<Fancy_Dialect, "Mode"> {
  let mnemonic = "mode";
  let parameters = (ins "unsigned":$value);
  let assemblyFormat = "`<` $value `>`";
  let genVerifyDecl = 1;
}

def Fancy_AddOp : Op<Fancy_Dialect, "add", [Pure, SameOperandsAndResultType]> {
  let arguments = (ins I32:$lhs, I32:$rhs);
  let results = (outs I32:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Fancy_OddOp : Op<Fancy_Dialect, "odd"> {
  let arguments = (ins I32:$value);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}
"""

ALL_HOOKS = """\
from tilecraft.generated import fancy
from tilecraft.ir.ods import implements


@implements(fancy.ModeAttr)
def verify(self):
    pass


@implements(fancy.AddOp)
def fold(self, operands):
    return None


@implements(fancy.AddOp)
@staticmethod
def canonicalization_patterns():
    return []


@implements(fancy.OddOp)
def custom_verify(self):
    pass


@implements(fancy.OddOp)
@classmethod
def parse(cls, parser):
    raise NotImplementedError


@implements(fancy.OddOp)
def print(self, printer):
    pass
"""


@pytest.fixture
def fancy_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of defs/ plus `defs/fancy.td`, with an empty `fancy_hooks` module importable."""
    (project / "defs" / "fancy.td").write_text(FANCY_TD)
    hooks = project / "hooks"
    hooks.mkdir()
    (hooks / "fancy_hooks.py").write_text("from tilecraft.generated import fancy\n")
    monkeypatch.syspath_prepend(str(hooks))
    yield project
    for name in ("fancy_hooks", "tilecraft.generated.fancy"):
        sys.modules.pop(name, None)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("check", [False, True])
def test_every_missing_hook_is_reported_at_its_field(fancy_project: Path, capsys, check: bool):
    assert run_gen(fancy_project, *(["--check"] if check else [])) == 1
    err = capsys.readouterr().err
    td = f"{fancy_project / 'defs' / 'fancy.td'}"
    module = "hooks/fancy_hooks.py"
    for needle, message in [
        ("genVerifyDecl", f"'fancy.mode' declares genVerifyDecl but {module} implements no "
                          "ModeAttr.verify"),
        ("hasFolder", f"'fancy.add' declares hasFolder but {module} implements no AddOp.fold"),
        ("hasCanonicalizer", f"'fancy.add' declares hasCanonicalizer but {module} implements "
                             "no AddOp.canonicalization_patterns"),
        ("hasVerifier", f"'fancy.odd' declares hasVerifier but {module} implements no "
                        "OddOp.custom_verify"),
        ("hasCustomAssemblyFormat", f"'fancy.odd' declares hasCustomAssemblyFormat but "
                                    f"{module} implements no OddOp.parse"),
    ]:
        line = _line_of(FANCY_TD, needle)
        assert f"{td}:{line}:7: error: {message}\n" in err, err
    assert "Traceback" not in err
    assert not (fancy_project / "generated").exists(), "nothing is written on an error"


def test_implemented_hooks_pass(fancy_project: Path, capsys):
    (fancy_project / "hooks" / "fancy_hooks.py").write_text(ALL_HOOKS)
    assert run_gen(fancy_project) == 0, capsys.readouterr().err
    assert (fancy_project / "generated" / "fancy.py").exists()


def test_missing_hooks_module(fancy_project: Path, capsys):
    (fancy_project / "hooks" / "fancy_hooks.py").unlink()
    assert run_gen(fancy_project) == 1
    err = capsys.readouterr().err
    assert ("error: 'fancy.add' declares hasFolder but there is no hooks module 'fancy_hooks' "
            "to implement AddOp.fold") in err


def test_hooks_module_that_fails_to_import_is_reported_at_its_line(fancy_project: Path, capsys):
    (fancy_project / "hooks" / "fancy_hooks.py").write_text(
        "from tilecraft.generated import fancy\n\nX = fancy.NoSuchOp\n")
    assert run_gen(fancy_project) == 1
    err = capsys.readouterr().err
    assert ("hooks/fancy_hooks.py:3:5: error: the dialect 'fancy' does not import with its "
            "hooks: AttributeError:") in err, err
    assert "X = fancy.NoSuchOp\n    ^" in err
    assert "Traceback" not in err


def test_new_tt_op_with_an_unimplemented_folder(project: Path):
    """The issue's case: `tt.fancy_add` declares hasFolder; tools/gen (a fresh process) names
    the field, the op, the hooks file and the missing function."""
    td = project / "defs" / "tt.td"
    anchor = "def TT_LoadOp : TT_Op<"
    td.write_text(td.read_text().replace(anchor, (
        'def TT_FancyAddOp : TT_Op<"fancy_add", [Pure, Elementwise, SameOperandsAndResultType]> {\n'
        "  let arguments = (ins TT_FloatLike:$lhs, TT_FloatLike:$rhs);\n"
        "  let results = (outs TT_FloatLike:$result);\n"
        '  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";\n'
        "  let hasFolder = 1;\n"
        "}\n\n") + anchor, 1))
    line = _line_of(td.read_text(), "fancy_add") + 4
    for args in ([], ["--check"]):
        proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen"), "--root",
                               str(project), *args], capture_output=True, text=True)
        assert proc.returncode == 1
        assert proc.stderr.startswith(
            f"{td}:{line}:7: error: 'tt.fancy_add' declares hasFolder but "
            "tilecraft/dialects/tt.py implements no FancyAddOp.fold\n"), proc.stderr
        assert "Traceback" not in proc.stderr
    assert not (project / "generated").exists()
