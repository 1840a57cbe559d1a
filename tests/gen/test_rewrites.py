"""Declarative rewrite patterns (`Pat` in .td) generated into RewritePattern classes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tilecraft.ir import parse_module

from .util import HERE, load_generated, run_gen


class OneShotRewriter:
    """The smallest rewriter the generated patterns need: insert before the root, replace."""

    def __init__(self, root) -> None:
        self.root = root

    def insert(self, op):
        return self.root.parent.insert_before(self.root, op)

    def replace_op(self, op, values) -> None:
        for result, value in zip(op.results, values):
            result.replace_all_uses_with(value)
        op.erase()

    def erase_op(self, op) -> None:
        op.erase()


@pytest.fixture
def rewrites(project: Path):
    shutil.copy(HERE / "defs" / "rewrites.td", project / "defs" / "rewrites.td")
    assert run_gen(project) == 0
    return load_generated(project / "generated" / "patterns" / "rewrites.py", "rewrites_gen")


def apply(pattern_cls, text: str) -> tuple[bool, str]:
    module = parse_module(text, allow_unregistered=True)
    pattern = pattern_cls()
    changed = False
    for op in list(module.walk()):
        if op.name == pattern.ROOT and op.parent is not None:
            changed |= pattern.match_and_rewrite(op, OneShotRewriter(op))
    module.verify()
    return changed, str(module)


def body(lines: str) -> str:
    return ('module {\n  %a = "test.source"() : () -> i32\n  %b = "test.source"() : () -> i32\n'
            + lines + '  "test.sink"(%r) : (i32) -> ()\n}\n')


def test_pattern_registry_and_benefits(rewrites):
    names = [p.__name__ for p in rewrites.PATTERNS]
    assert names == ["AddZero", "Distribute", "SubSelf", "ExtOfI32", "Unmask", "DropStore"]
    assert rewrites.Distribute.ROOT == "arith.muli"
    assert rewrites.Distribute.BENEFIT == 4, "two source ops plus addBenefit 2"


def test_nested_match_with_attribute_constraint(rewrites):
    changed, text = apply(rewrites.AddZero, body("  %z = arith.constant 0 : i32\n"
                                                 "  %r = arith.addi %a, %z : i32\n"))
    assert changed and '"test.sink"(%0)' in text and "arith.addi" not in text
    changed, text = apply(rewrites.AddZero, body("  %z = arith.constant 1 : i32\n"
                                                 "  %r = arith.addi %a, %z : i32\n"))
    assert not changed and "arith.addi" in text


def test_nested_result_ops_and_location(rewrites):
    text = body("  %s = arith.addi %a, %b : i32\n  %r = arith.muli %s, %b : i32 loc(\"k.py\":7:3)\n")
    changed, out = apply(rewrites.Distribute, text)
    assert changed
    assert "%3 = arith.muli %0, %1 : i32\n  %4 = arith.muli %1, %1 : i32\n" \
        "  %5 = arith.addi %3, %4 : i32" in out
    module = parse_module(out, allow_unregistered=True)
    assert module is not None


def test_same_name_twice_must_be_the_same_value(rewrites):
    changed, text = apply(rewrites.SubSelf, body("  %r = arith.subi %a, %a : i32\n"))
    assert changed and "arith.xori %0, %0 : i32" in text
    changed, text = apply(rewrites.SubSelf, body("  %r = arith.subi %a, %b : i32\n"))
    assert not changed


def test_type_constraint_in_source_and_result_type_from_root(rewrites):
    text = ('module {\n  %a = "test.source"() : () -> i32\n  %c = "test.source"() : () -> i16\n'
            "  %r = arith.extsi %a : i32 to i64\n  %s = arith.extsi %c : i16 to i64\n"
            '  "test.sink"(%r, %s) : (i64, i64) -> ()\n}\n')
    changed, out = apply(rewrites.ExtOfI32, text)
    assert changed and "arith.extui %0 : i32 to i64" in out and "arith.extsi %1 : i16 to i64" in out


def test_optional_operands_matched_and_left_out(rewrites):
    text = ('module {\n  %p = "test.source"() : () -> !tt.ptr<f32>\n'
            '  %m = "test.source"() : () -> i1\n  %o = "test.source"() : () -> f32\n'
            "  %true = arith.constant true\n"
            "  %r = tt.load %p, %true, %o cacheModifier = ca : !tt.ptr<f32>\n"
            "  %s = tt.load %p : !tt.ptr<f32>\n"
            "  %t = tt.load %p, %m : !tt.ptr<f32>\n"
            '  "test.sink"(%r, %s, %t) : (f32, f32, f32) -> ()\n}\n')
    changed, out = apply(rewrites.Unmask, text)
    assert changed
    assert out.count("tt.load %0 cacheModifier = ca : !tt.ptr<f32>") == 1
    assert out.count("tt.load %0 : !tt.ptr<f32>") == 1, "a load without a mask stays"
    assert out.count("tt.load %0, %1 : !tt.ptr<f32>") == 1, "a mask that is no constant stays"


def test_pattern_without_results_erases_its_root(rewrites):
    text = ('module {\n  %p = "test.source"() : () -> !tt.ptr<f32>\n'
            '  %v = "test.source"() : () -> f32\n'
            "  tt.store %p, %v evictionPolicy = evict_first : !tt.ptr<f32>\n"
            "  tt.store %p, %v : !tt.ptr<f32>\n}\n")
    changed, out = apply(rewrites.DropStore, text)
    assert changed and "evict_first" not in out and out.count("tt.store %0, %1 : !tt.ptr<f32>") == 1


@pytest.mark.parametrize("pattern, message", [
    ("def P : Pat<(Arith_AddIOp $x), (replaceWithValue $x)>;",
     "'arith.addi' takes 2 arguments, the source pattern gives 1"),
    ("def P : Pat<(Arith_AddIOp $x, $y), (replaceWithValue $z)>;",
     "'$z' is not bound by the source pattern"),
    ("def P : Pat<(Arith_AddIOp $x, $y), (Arith_ExtSIOp (Arith_TruncIOp $x))>;",
     "the type of result 'out' of 'arith.trunci' cannot be inferred in a nested result pattern"),
    ("def P : Pat<(Arith_AddIOp $x, $y), (Arith_AddIOp $x, $y, (location $nope))>;",
     "'(location $nope)' needs an op bound in the source pattern"),
    ("def P : Pat<(I32 $x, $y), (replaceWithValue $x)>;",
     "'I32' in the source pattern is not an op"),
    ("def P : Pattern<(Arith_AddIOp $x, $y), []>;",
     "a pattern without result patterns erases its root op, but 'arith.addi' has results"),
])
def test_pattern_errors(project: Path, capsys, pattern: str, message: str):
    (project / "defs" / "bad.td").write_text(
        'include "base/PatternBase.td"\ninclude "arith.td"\nlet appliedBy = "canonicalize" in {\n'
        + pattern + "\n}\n")
    assert run_gen(project) == 1
    err = capsys.readouterr().err
    assert f"bad.td:4:5: error: in pattern 'P': {message}" in err
    assert not (project / "generated").exists()


@pytest.mark.parametrize("applied_by, message", [
    ("", "pattern 'P' is applied by nothing: set 'appliedBy' to \"canonicalize\" (a "
         "canonicalization of its root op) or to the argument of the pass that applies it"),
    ("let appliedBy = \"no-such-pass\";", "pattern 'P' is applied by 'no-such-pass', which is "
                                          "not a pass (\"canonicalize\" or one of: "),
])
def test_pattern_that_nothing_applies(project: Path, capsys, applied_by: str, message: str):
    (project / "defs" / "bad.td").write_text(
        'include "base/PatternBase.td"\ninclude "arith.td"\n'
        f"def P : Pat<(Arith_AddIOp $x, $x), (replaceWithValue $x)> {{ {applied_by} }}\n")
    assert run_gen(project) == 1
    err = capsys.readouterr().err
    line, col = (3, 5) if not applied_by else (3, 65)
    assert f"bad.td:{line}:{col}: error: {message}" in err, err
    assert "Traceback" not in err
    assert not (project / "generated").exists()


def test_patterns_are_wired_to_what_applies_them():
    """`appliedBy = "canonicalize"` adds a `Pat` to its root op's canonicalization patterns
    (before those of the op's hook), a pass argument to that pass's `declared_patterns()`."""
    from tilecraft.generated import tt
    from tilecraft.generated.passes import TritonCombinePassBase

    names = lambda patterns: [type(p).__name__ for p in patterns]  # noqa: E731
    assert names(tt.BroadcastOp.get_canonicalization_patterns()) == [
        "BroadcastOfSplat", "BroadcastOfBroadcast"]
    assert names(tt.ExpandDimsOp.get_canonicalization_patterns()) == [
        "ExpandDimsOfSplat", "ExpandDimsOfBroadcast"]
    assert "get_canonicalization_patterns" in tt.BroadcastOp.HOOKS
    # a pattern of another main file (defs/ttg.td) rooted at a tt op is wired to it too
    assert names(tt.TransOp.get_canonicalization_patterns()) == [
        "TransOfSplat", "TransOfTransIsIdentity", "TransOfTransIsConvert", "TransOfTrans"]
    assert names(TritonCombinePassBase.declared_patterns()) == [
        "CombineDotAddI", "CombineDotAddIRev", "CombineDotAddF", "CombineDotAddFRev",
        "CombineDotScaledAddF", "CombineDotScaledAddFRev", "CombineAddPtr"]


MATMUL = """module {
  %a = "test.source"() : () -> tensor<16x16xf16>
  %b = "test.source"() : () -> tensor<16x16xf16>
  %acc = "test.source"() : () -> tensor<16x16xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = arith.addf %acc, %d : tensor<16x16xf32>
  "test.sink"(%r) : (tensor<16x16xf32>) -> ()
}
"""


def test_triton_combine_dot_add_pattern():
    from tilecraft.generated.patterns import combine

    changed, out = apply(combine.CombineDotAddF, MATMUL)
    assert changed
    assert "tt.dot %0, %1, %2 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>" in out
    assert "arith.addf" not in out
    twice = MATMUL.replace('"test.sink"(%r)', '"test.sink"(%r, %d)').replace(
        "(tensor<16x16xf32>) -> ()", "(tensor<16x16xf32>, tensor<16x16xf32>) -> ()")
    changed, _ = apply(combine.CombineDotAddF, twice)
    assert not changed, "the dot has another use"


def test_triton_combine_addptr_pattern():
    from tilecraft.generated.patterns import combine

    text = """module {
  %p = "test.source"() : () -> !tt.ptr<f32>
  %i = "test.source"() : () -> i32
  %j = "test.source"() : () -> i32
  %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
  %r = tt.addptr %q, %j : !tt.ptr<f32>, i32
  "test.sink"(%r) : (!tt.ptr<f32>) -> ()
}
"""
    changed, out = apply(combine.CombineAddPtr, text)
    assert changed
    assert "%4 = arith.addi %1, %2 : i32\n  %5 = tt.addptr %0, %4 : !tt.ptr<f32>, i32" in out
