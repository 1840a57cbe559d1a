"""The evaluator: one test per construct, in TableGen's semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.codegen.td import (BIT, INT, STRING, BitsType, Code, DagValue, ListType, TdError,
                                  RecordType, TdList, Term, Unset, load_records)

from .util import FILE, load


def test_class_and_def_with_template_arguments() -> None:
    rk = load("""
class Shape<string name, int sides = 4> { string label = name; int count = sides; }
def Square : Shape<"square">;
def Triangle : Shape<"triangle", 3>;
def Named : Shape<sides = 5, name = "pentagon">;
""")
    assert list(rk.classes) == ["Shape"]
    assert list(rk.defs) == ["Square", "Triangle", "Named"]
    assert (rk.defs["Square"]["label"], rk.defs["Square"]["count"]) == ("square", 4)
    assert rk.defs["Triangle"]["count"] == 3
    assert (rk.defs["Named"]["label"], rk.defs["Named"]["count"]) == ("pentagon", 5)
    shape = rk.classes["Shape"]
    assert [(a.name, a.qualified_name, a.type) for a in shape.template_args] == [
        ("name", "Shape:name", STRING), ("sides", "Shape:sides", INT)]
    assert shape.template_args[0].default is None and shape.template_args[1].default == 4


def test_template_default_may_use_earlier_arguments() -> None:
    rk = load("class A<int x, int y = !mul(x, 10)> { int v = y; }\ndef D : A<4>;")
    assert rk.defs["D"]["v"] == 40


def test_template_arguments_are_bound_through_parent_chains() -> None:
    rk = load("""
class A<int x> { int y = x; }
class B<int z> : A<!mul(z, 2)> { int w = z; }
def D : B<3>;
""")
    assert (rk.defs["D"]["y"], rk.defs["D"]["w"]) == (6, 3)


def test_superclasses_are_transitive_in_tableGen_order() -> None:
    rk = load("""
class A; class B : A; class C; class D : B, C;
def X : D;
def Y : C, B;
""")
    assert rk.defs["X"].superclasses == ["A", "B", "C", "D"]
    assert rk.defs["Y"].superclasses == ["C", "A", "B"]
    assert rk.classes["D"].superclasses == ["A", "B", "C"]
    assert rk.defs["X"].isa("A") and not rk.defs["Y"].isa("D")
    assert rk.all_derived("A") == [rk.defs["X"], rk.defs["Y"]]
    assert rk.all_derived("D") == [rk.defs["X"]]


def test_parent_default_is_overridden_by_child_let() -> None:
    rk = load("""
class Base { string kind = "base"; int size = 1; }
class Mid : Base { let kind = "mid"; }
def D : Mid { let size = 8; }
def E : Mid;
""")
    assert (rk.defs["D"]["kind"], rk.defs["D"]["size"]) == ("mid", 8)
    assert (rk.defs["E"]["kind"], rk.defs["E"]["size"]) == ("mid", 1)


def test_field_computed_from_another_field_sees_the_final_value() -> None:
    rk = load("""
class A { int width = 8; int bytes = !div(width, 8); string name = "i" # width; }
def W : A { let width = 32; }
let width = 64 in def V : A;
def U : A;
""")
    assert (rk.defs["W"]["bytes"], rk.defs["W"]["name"]) == (4, "i32")
    assert (rk.defs["V"]["bytes"], rk.defs["V"]["name"]) == (8, "i64")
    assert rk.defs["U"]["bytes"] == 1


def test_late_binding_follows_chains_of_fields() -> None:
    rk = load("""
class A { string a = "x"; string b = a # "y"; string c = b # "z"; }
def D : A { let a = "q"; }
""")
    assert rk.defs["D"]["c"] == "qyz"


def test_order_is_parents_then_top_level_let_then_body() -> None:
    rk = load("""
class A { int v = 1; int w = 1; }
class B : A { let v = 2; let w = 2; }
let v = 3, w = 3 in {
  def OnlyLet : B;
  def BodyWins : B { let w = 4; }
}
""")
    assert (rk.defs["OnlyLet"]["v"], rk.defs["OnlyLet"]["w"]) == (3, 3)
    assert (rk.defs["BodyWins"]["v"], rk.defs["BodyWins"]["w"]) == (3, 4)


def test_nested_lets_and_let_on_a_single_statement() -> None:
    rk = load("""
class A { int x = 0; int y = 0; }
let x = 1 in {
  let y = 2 in def P : A;
  def Q : A;
}
let y = 5 in
def R : A;
""")
    assert (rk.defs["P"]["x"], rk.defs["P"]["y"]) == (1, 2)
    assert (rk.defs["Q"]["x"], rk.defs["Q"]["y"]) == (1, 0)
    assert rk.defs["R"]["y"] == 5


def test_top_level_let_applies_to_classes_too() -> None:
    rk = load("class A { int x = 0; }\nlet x = 7 in class B : A;\ndef D : B;")
    assert rk.classes["B"]["x"] == 7 and rk.defs["D"]["x"] == 7


def test_field_locations_point_where_the_value_was_last_set() -> None:
    rk = load("""class A {
  int a = 1;
  int b = 2;
}
let b = 3 in
def D : A {
  let a = 4;
  int c = 5;
}""")
    d = rk.defs["D"]
    assert (d.loc.line, d.loc.col) == (6, 5)
    assert (d.field_loc("a").line, d.field_loc("a").col) == (7, 7)
    assert (d.field_loc("b").line, d.field_loc("b").col) == (5, 5)
    assert (d.field_loc("c").line, d.field_loc("c").col) == (8, 7)
    assert rk.classes["A"].field_loc("a").line == 2
    assert d.field_loc("a").file == FILE


def test_defvar_at_top_level_in_bodies_and_loops() -> None:
    rk = load("""
defvar prefix = "tc";
class A<string n> { defvar full = prefix # "." # n; string name = full; }
def D : A<"add">;
foreach i = [1, 2] in {
  defvar twice = !mul(i, 2);
  def V#i { int v = twice; }
}
""")
    assert rk.defs["D"]["name"] == "tc.add"
    assert (rk.defs["V1"]["v"], rk.defs["V2"]["v"]) == (2, 4)


def test_foreach_over_list_and_range() -> None:
    rk = load("""
class R<int n> { int num = n; }
foreach i = 0...2 in def R#i : R<i>;
foreach name = ["add", "sub"] in {
  def Op_#name { string mnemonic = name; }
}
foreach i = 3...1 in
  foreach j = [0, 1] in
    def M#i#_#j { int v = !add(!mul(i, 10), j); }
""")
    assert [rk.defs[f"R{i}"]["num"] for i in range(3)] == [0, 1, 2]
    assert rk.defs["Op_sub"]["mnemonic"] == "sub"
    assert [name for name in rk.defs if name.startswith("M")] == [
        "M3_0", "M3_1", "M2_0", "M2_1", "M1_0", "M1_1"]
    assert rk.defs["M2_1"]["v"] == 21


def test_multiclass_and_defm() -> None:
    rk = load("""
class Inst<string m, int w> { string mnemonic = m; int width = w; string full = NAME; }
class Tagged { bit tagged = 1; }
multiclass Widths<string m, int base = 8> {
  def _8 : Inst<m, base>;
  def NAME # _16 : Inst<m, !mul(base, 2)>;
  def Plain#NAME : Inst<m # "!", 0>;
}
defm ADD : Widths<"add">;
defm SUB : Widths<"sub", 4>, Tagged;
""")
    assert list(rk.defs) == ["ADD_8", "ADD_16", "PlainADD", "SUB_8", "SUB_16", "PlainSUB"]
    assert (rk.defs["ADD_16"]["mnemonic"], rk.defs["ADD_16"]["width"]) == ("add", 16)
    assert rk.defs["SUB_8"]["width"] == 4 and rk.defs["PlainSUB"]["mnemonic"] == "sub!"
    assert rk.defs["SUB_16"].superclasses == ["Inst", "Tagged"]
    assert not rk.defs["ADD_8"].isa("Tagged")
    assert rk.defs["SUB_8"]["full"] == "SUB_8"


def test_multiclass_template_defaults_use_earlier_arguments() -> None:
    rk = load("""
class V<int n> { int v = n; }
multiclass M<int a, int b = !add(a, 1)> { def _x : V<b>; }
defm P : M<1>;
defm Q : M<1, b = 7>;
""")
    assert (rk.defs["P_x"]["v"], rk.defs["Q_x"]["v"]) == (2, 7)


def test_nested_defm_lets_and_foreach_in_multiclass() -> None:
    rk = load("""
class V { int v = 0; int w = 0; }
multiclass Inner<int n> { def _in : V { let v = n; } }
multiclass Outer<int n> {
  defm _a : Inner<n>;
  let w = 9 in defm _b : Inner<!add(n, 1)>;
  foreach i = [1, 2] in def _f#i : V { let v = !add(n, i); }
}
let w = 5 in defm X : Outer<10>;
""")
    assert (rk.defs["X_a_in"]["v"], rk.defs["X_a_in"]["w"]) == (10, 5)
    assert (rk.defs["X_b_in"]["v"], rk.defs["X_b_in"]["w"]) == (11, 5)
    assert rk.defs["X_f2"]["v"] == 12


def test_paste_builds_names_and_strings() -> None:
    """Right of ``#`` and in def names, a name is its own text unless a local variable holds
    it: a top-level ``defvar`` is not seen there, as in TableGen."""
    rk = load("""
def ins;
defvar suffix = "Op";
def Arith#suffix { string s = "n" # 4 # suffix # ins; list<int> l = [1] # [2]; }
def Plain#Name;
foreach _ = [1] in { defvar local = "Op"; def Sub#local { string s = "n" # local; } }
""")
    assert rk.defs["Arithsuffix"]["s"] == "n4suffixins" and rk.defs["Arithsuffix"]["l"] == [1, 2]
    assert "PlainName" in rk.defs
    assert rk.defs["SubOp"]["s"] == "nOp"


def test_cond_selects_the_first_true_value() -> None:
    rk = load("""
class Width<int bits> {
  string name = !cond(!eq(bits, 1): "bool", !le(bits, 8): "byte", true: "wide");
}
def A : Width<1>; def B : Width<4>; def C : Width<64>;
""")
    assert [rk.defs[n]["name"] for n in "ABC"] == ["bool", "byte", "wide"]


def test_anonymous_records() -> None:
    rk = load("""
class Pred<string e> { string expr = e; }
class Holder<Pred p> { Pred pred = p; string text = p.expr; }
def : Pred<"unnamed">;
def H : Holder<Pred<"x > 0">>;
def K : Holder<Pred<"x > 0">> { string direct = Pred<"y">.expr; }
""")
    assert list(rk.defs) == ["anonymous_0", "anonymous_1", "H", "anonymous_2", "K"]
    assert rk.defs["anonymous_0"]["expr"] == "unnamed"
    h, k = rk.defs["H"], rk.defs["K"]
    assert h["pred"] is k["pred"] and h["pred"].name == "anonymous_1"
    assert h["pred"].is_anonymous and h["pred"].superclasses == ["Pred"]
    assert h["text"] == "x > 0" and k["direct"] == "y"


def test_anonymous_records_in_classes_are_built_per_argument() -> None:
    rk = load("""
class CPred<string e> { string expr = e; }
class Typed<int w> { CPred pred = CPred<"isInteger(" # w # ")">; }
def T8 : Typed<8>; def T16 : Typed<16>; def T8b : Typed<8>;
""")
    assert rk.defs["T8"]["pred"]["expr"] == "isInteger(8)"
    assert rk.defs["T16"]["pred"]["expr"] == "isInteger(16)"
    assert rk.defs["T8"]["pred"] is rk.defs["T8b"]["pred"]
    assert isinstance(rk.classes["Typed"]["pred"], Term)


def test_name_in_a_class_is_the_name_of_the_def() -> None:
    rk = load("class A { string me = NAME; string up = !toupper(NAME); }\ndef some_op : A;")
    assert (rk.defs["some_op"]["me"], rk.defs["some_op"]["up"]) == ("some_op", "SOME_OP")


def test_defset_collects_defs() -> None:
    rk = load("""
class T;
defset list<T> AllT = {
  def T1 : T;
  foreach i = [2, 3] in def T#i : T;
}
def Holder { list<T> all = AllT; }
""")
    assert [t.name for t in rk.defs["Holder"]["all"]] == ["T1", "T2", "T3"]


def test_if_then_else() -> None:
    rk = load("""
foreach i = [1, 2, 3] in {
  if !eq(i, 2) then def Two#i; else { def Other#i; }
}
""")
    assert list(rk.defs) == ["Other1", "Two2", "Other3"]


def test_assert_passes_when_true() -> None:
    rk = load("""
assert !eq(!add(1, 1), 2), "arithmetic works";
class Pos<int x> { assert !gt(x, 0), "x must be positive"; int v = x; }
def P : Pos<3>;
""")
    assert rk.defs["P"]["v"] == 3


def test_field_keyword_allows_unresolved_values() -> None:
    rk = load("class A { string missing; field string later = !strconcat(missing, \"x\"); }\n"
              "def D : A;")
    assert isinstance(rk.defs["D"]["later"], Term)
    assert rk.defs["D"].fields["later"].keyword_field


def test_forward_declared_class() -> None:
    rk = load("class Node;\nclass Holder { Node n = ?; }\nclass Node { int v = 1; }\n"
              "def N : Node;\ndef H : Holder { let n = N; }")
    assert rk.defs["H"]["n"] is rk.defs["N"]
    assert rk.classes["Node"]["v"] == 1


def test_value_types_of_fields() -> None:
    rk = load("""
def ins;
def X {
  bit flag = true;
  bits<4> nibble = 5;
  bits<4> pattern = {1, 0, 1, 1};
  bits<3> partial = {1, ?, 0};
  bits<2> unset;
  int neg = -0x10;
  string s = "a" "b" "\\t\\"q\\"";
  code c = [{ return $x; }];
  dag d = (ins 1:$a, $b, "s");
  list<list<int>> nested = [[1], [2, 3]];
  list<int> empty = []<int>;
  int nothing = ?;
}
""")
    x = rk.defs["X"]
    assert x.get_bit("flag") is True and x["nibble"] == 5 and x["pattern"] == 11
    assert x["partial"] == (1, Unset, 0) and x["unset"] is Unset
    assert x["neg"] == -16 and x["s"] == 'ab\t"q"'
    assert isinstance(x["c"], Code) and x["c"] == " return $x; "
    assert x["d"] == DagValue(rk.defs["ins"], [(1, "a"), (Unset, "b"), ("s", None)])
    assert x["d"].arg_names == ["a", "b", None] and x["d"].arg_values[0] == 1
    assert x["nested"] == [[1], [2, 3]] and x["empty"] == []
    assert x["nothing"] is Unset and x.get("nothing", "default") == "default"
    assert [x.fields[n].type for n in ("flag", "nibble", "nested")] == [
        BIT, BitsType(4), ListType(ListType(INT))]


def test_record_accessors() -> None:
    rk = load("class C; def D : C { int n = 1; list<int> l = [1]; }")
    d = rk.defs["D"]
    assert "n" in d and d.get("missing") is None
    with pytest.raises(KeyError, match="no field 'missing'"):
        d["missing"]
    with pytest.raises(TdError, match="field 'l' of 'D' must be 0 or 1 here") as info:
        d.get_bit("l")
    assert (info.value.loc.line, info.value.loc.col) == (1, 43)
    unset = load("def E { bit hasFolder = ?; }").defs["E"]
    with pytest.raises(TdError, match=r"it is unset \('\?'\)"):
        unset.get_bit("hasFolder")
    with pytest.raises(TypeError, match="immutable"):
        d["l"].append(2)
    assert isinstance(d["l"], TdList) and hash(d["l"]) == hash((1,))
    assert rk.all_derived("NoSuchClass") == []
    assert repr(rk) == "<RecordKeeper: 1 classes, 1 defs>"
    assert rk.classes["C"].isa("C") and repr(d) == "<def D>"
    assert d.fields["n"].type == INT and rk.defs["D"].superclasses == ["C"]


def test_class_typed_fields_check_the_class() -> None:
    rk = load("class T; class U : T; def u : U; def X { T t = u; list<T> ts = [u]; }")
    assert rk.defs["X"]["t"] is rk.defs["u"]
    assert rk.defs["X"].fields["t"].type == RecordType(("T",))


def test_comments_strings_and_numbers() -> None:
    rk = load("""
/* block /* nested */ still comment */
// line comment with "quote" and [{ brackets
def X { // trailing
  string s = "not // a comment";
  int a = 0b101; int b = 0xff; int c = +7; int d = 010;
  code k = [{ /* kept */ // kept }];
}
""")
    x = rk.defs["X"]
    assert x["s"] == "not // a comment"
    assert (x["a"], x["b"], x["c"], x["d"]) == (5, 255, 7, 10)
    assert x["k"] == " /* kept */ // kept "


def test_preprocessor_conditionals() -> None:
    rk = load("""
#define FEATURE
#ifdef FEATURE
def WithFeature;
#else
def WithoutFeature;
#endif
#ifndef OTHER
def NoOther;
#ifdef FEATURE
def Nested;
#endif
#endif
#ifdef OTHER
#define NEVER
#endif
#ifdef NEVER
def Never;
#endif
""")
    assert list(rk.defs) == ["WithFeature", "NoOther", "Nested"]


def test_include_searches_the_including_directory_then_include_dirs(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "main").mkdir()
    (tmp_path / "lib" / "base.td").write_text(
        "#ifndef BASE_TD\n#define BASE_TD\nclass Base { int v = 1; }\ninclude \"helper.td\"\n"
        "#endif\n")
    (tmp_path / "lib" / "helper.td").write_text("def Helper : Base;\n")
    (tmp_path / "main" / "local.td").write_text("include \"base.td\"\ndef Local : Base;\n")
    (tmp_path / "main" / "top.td").write_text(
        "include \"base.td\"\ninclude \"local.td\"\ninclude \"base.td\"\ndef Top : Base;\n")
    rk = load_records(tmp_path / "main" / "top.td", include_dirs=[str(tmp_path / "lib")])
    assert list(rk.defs) == ["Helper", "Local", "Top"]
    assert rk.defs["Helper"].loc.file == str(tmp_path / "lib" / "helper.td")
    assert rk.defs["Top"].field_loc("v").file == str(tmp_path / "lib" / "base.td")


def test_text_input_includes_from_include_dirs(tmp_path: Path) -> None:
    (tmp_path / "lib.td").write_text("class L { string from = \"lib\"; }\n")
    rk = load('include "lib.td"\ndef X : L;', include_dirs=[str(tmp_path)])
    assert rk.defs["X"]["from"] == "lib"


def test_parsed_files_are_cached_and_reloaded_identically(tmp_path: Path) -> None:
    path = tmp_path / "c.td"
    path.write_text("class A { int x = 1; }\ndef D : A;\n")
    first, second = load_records(path), load_records(path)
    assert first.defs["D"]["x"] == second.defs["D"]["x"] == 1
    assert first.defs["D"] is not second.defs["D"]
