"""Passes declared in `.td` (generated into a temporary project, never defs/) and found through
their implementation module; passes registered from Python."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tilecraft.ir import parse_module
from tilecraft.ir.pass_base import Pass
from tilecraft.transforms import (
    PassManager, PassRegistryError, create_pass, pass_class, register_pass, registered_passes,
    unregister_pass,
)
from tilecraft.transforms.pass_registry import pass_name

from ..gen.util import ROOT, load_generated, run_gen

TD = """\
include "base/PassBase.td"

def Test_Declared : Pass<"test-declared", "builtin.module"> {
  let summary = "A pass declared in .td";
  let implModule = "declared_impl";
  let options = [Option<"factor", "factor", "int", "2", "a factor">];
  let statistics = [Statistic<"numRuns", "num-runs", "times run">];
}

def Test_Unimplemented : Pass<"test-unimplemented"> {
  let implModule = "declared_impl";
}

def Test_Twice : Pass<"test-twice"> {
  let implModule = "declared_impl";
}

def Test_Nowhere : Pass<"test-nowhere"> {
  let implModule = "no_such_module_anywhere";
}
"""

IMPL = """\
from declared_passes import DeclaredPassBase, TwicePassBase

from tilecraft.ir import IntegerAttr


class DeclaredPass(DeclaredPassBase):
    def run_on_operation(self, op):
        self.num_runs += 1
        op.attributes["test.factor"] = IntegerAttr(self.factor)


class TwiceA(TwicePassBase):
    def run_on_operation(self, op):
        pass


class TwiceB(TwicePassBase):
    def run_on_operation(self, op):
        pass
"""


@pytest.fixture
def declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    shutil.copytree(ROOT / "defs" / "base", tmp_path / "defs" / "base")
    (tmp_path / "defs" / "testpasses.td").write_text(TD)
    assert run_gen(tmp_path) == 0
    passes = load_generated(tmp_path / "generated" / "passes.py", "declared_passes")
    (tmp_path / "declared_impl.py").write_text(IMPL)
    monkeypatch.syspath_prepend(str(tmp_path))
    for base in passes.PASSES.values():
        register_pass(base)
    yield passes
    for argument in passes.PASSES:
        unregister_pass(argument)
    for name in ("declared_passes", "declared_impl"):
        sys.modules.pop(name, None)


def test_a_declared_pass_runs_its_implementation(declared):
    impl = pass_class("test-declared")
    assert impl.__name__ == "DeclaredPass" and issubclass(impl, declared.DeclaredPassBase)
    assert pass_name(impl) == "Declared" and pass_name(declared.DeclaredPassBase) == "Declared"
    pm = PassManager.parse("test-declared{factor=5}")
    m = parse_module("module {}")
    pm.run(m)
    assert m.attributes["test.factor"].value == 5
    assert "(S) 1 num-runs - times run" in pm.statistics_report()
    assert registered_passes()["test-declared"] is declared.DeclaredPassBase


def test_a_declared_pass_without_implementation_is_an_error(declared):
    with pytest.raises(PassRegistryError, match=r"pass 'test-unimplemented' has no "
                       r"implementation: define a subclass of UnimplementedPassBase with "
                       r"run_on_operation in declared_impl"):
        create_pass("test-unimplemented")
    with pytest.raises(Exception, match=r"<pass-pipeline>:1:16: error: pass "
                                        r"'test-unimplemented' has no implementation"):
        PassManager.parse("builtin.module(test-unimplemented)")


def test_two_implementations_or_no_module_are_errors(declared):
    with pytest.raises(PassRegistryError, match=r"'test-twice' has several implementations: "
                       r"declared_impl.TwiceA, declared_impl.TwiceB"):
        pass_class("test-twice")
    with pytest.raises(PassRegistryError, match=r"'test-nowhere' is implemented in "
                       r"'no_such_module_anywhere', which does not exist"):
        pass_class("test-nowhere")


def test_python_passes_register_once():
    class Local(Pass):
        ARGUMENT = "test-local"

        def run_on_operation(self, op):
            pass

    class Impostor(Local):
        pass

    register_pass(Local)
    try:
        assert register_pass(Local) is Local
        assert pass_class("test-local") is Local and pass_name(Local) == "Local"
        with pytest.raises(ValueError, match="'test-local' is already registered"):
            register_pass(Impostor)
    finally:
        unregister_pass("test-local")
    with pytest.raises(PassRegistryError, match="'test-local' does not refer to a registered"):
        pass_class("test-local")
