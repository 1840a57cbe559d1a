"""Each kind of error: its message, its line:col, and the caret under the source line."""

from __future__ import annotations

from pathlib import Path

from tilecraft.codegen.td import TdError, load_records

from .util import assert_error, error_of, load


def test_syntax_error_unexpected_token_lists_what_was_expected() -> None:
    assert_error("class A<int x> {\n  int y = x\n}\n", "unexpected token '}'; expected ';'", 3, 1)


def test_syntax_error_unexpected_identifier() -> None:
    assert_error("def X { int a = 1; } def Y int", "unexpected token 'int'; expected one of "
                 "'#', '.', ':', ';', '<', '[', '{'", 1, 28)


def test_trailing_comma_only_in_cond() -> None:
    assert_error("def X {\n  int a = !add(1, 2,);\n}",
                 "unexpected ',' before ')': only '!cond' takes a trailing comma", 2, 20)
    assert_error("def X { int a = !cond(true : 1,,); }", "unexpected token ','; expected one of "
                 "'(', ')', '?', '[', '{', bang operator, code block '[{...}]', identifier, "
                 "integer, string", 1, 32)


def test_syntax_error_unexpected_character() -> None:
    assert_error("def X {\n  int a = 1 @ 2;\n}", "unexpected character '@'", 2, 13)
    assert_error("class A<int x @", "unexpected character '@'; expected one of ',', '=', '>'",
                 1, 15)


def test_syntax_error_unexpected_end_of_file() -> None:
    error = assert_error("class A {\n  int x;\n", "unexpected end of file; expected one of "
                         "'assert', 'bit', 'bits', 'code', 'dag', 'defvar', 'field', 'int', "
                         "'let', 'list', 'string', '}', identifier", 2, 9)
    assert isinstance(error, TdError)


def test_unterminated_comment_code_block_and_conditional() -> None:
    assert_error("def A;\n  /* open /* nested */\ndef B;", "unterminated comment: missing '*/'",
                 2, 3)
    assert_error("def A { code c = [{ x; }", "unterminated code block: missing '}]'", 1, 18)
    assert_error("#ifndef G\n#define G\ndef A;", "unterminated conditional: missing '#endif'",
                 1, 1)
    assert_error("def A;\n  #endif", "'#endif' without a matching '#ifdef' or '#ifndef'", 2, 3)
    assert_error("#ifdef X\n#else\n#else\n#endif", "second '#else' for the same conditional",
                 3, 1)
    assert_error("#define", "malformed directive: expected '#define NAME'", 1, 1)


def test_unknown_class() -> None:
    assert_error("class Known;\ndef X : Known, Unknown;", "unknown class 'Unknown'", 2, 16)
    assert_error("def X { Missing m; }", "unknown class 'Missing'", 1, 9)
    assert_error("multiclass M { def a; }\ndef X : M;",
                 "unknown class 'M'; 'M' is a multiclass, use 'defm'", 2, 9)


def test_unknown_def_or_variable() -> None:
    assert_error("def X {\n  int a = nope;\n}", "unknown def or variable 'nope'", 2, 11)
    assert_error("class C;\ndef X { C c = C; }",
                 "'C' is a class; write 'C<...>' for an anonymous record of it", 2, 15)


def test_wrong_field_type() -> None:
    assert_error('def X {\n  int count = "three";\n}',
                 "field 'count' of type 'int' cannot be set to \"three\" of type 'string'", 2, 15)
    assert_error('def X { dag d = ["a", "b"]; }', "field 'd' of type 'dag' cannot be set to "
                 "[\"a\", \"b\"] of type 'list<string>'", 1, 17)
    assert_error("def X { bits<2> b = 9; }",
                 "field 'b' of type 'bits<2>' cannot be set to 9 of type 'int'", 1, 21)
    assert_error("class T; class U; def u : U;\ndef X { T t = u; }",
                 "field 't' of type 'T' cannot be set to u of type 'U'", 2, 15)
    assert_error("class A { int n = 0; }\ndef X : A { let n = [1]; }",
                 "field 'n' of type 'int' cannot be set to [1] of type 'list<int>'", 2, 21)


def test_wrong_type_found_after_late_resolution() -> None:
    error = assert_error("def ins;\nclass A<dag d> {\n  int first = !getdagarg(d, 0);\n}\n"
                         "def X : A<(ins \"s\")>;",
                         "field 'first' of type 'int' cannot be set to \"s\" of type 'string'",
                         3, 7)
    assert [(loc.line, text) for loc, text in error.notes] == [(5, "in record 'X'")]


def test_wrong_template_argument_type() -> None:
    assert_error('class A<int n>;\ndef X : A<"s">;',
                 "template argument 'n' of 'A' of type 'int' cannot be set to \"s\" of type "
                 "'string'", 2, 11)


def test_missing_template_argument() -> None:
    error = assert_error("class A<int x, int y>;\ndef X : A<1>;",
                         "missing value for template argument 'y' of 'A'", 2, 9)
    assert [(loc.line, loc.col, text) for loc, text in error.notes] == [(1, 20, "declared here")]


def test_too_many_template_arguments() -> None:
    assert_error("class A<int x>;\ndef X : A<1, 2, 3>;",
                 "too many template arguments for 'A': it takes 1, got 3", 2, 14)
    assert_error("class A;\ndef X { A a = A<1>; }",
                 "too many template arguments for 'A': it takes 0, got 1", 2, 17)


def test_named_template_argument_errors() -> None:
    assert_error("class A<int x>;\ndef X : A<y = 1>;", "'A' has no template argument named 'y'",
                 2, 11)
    assert_error("class A<int x>;\ndef X : A<1, x = 2>;", "template argument 'x' is given twice",
                 2, 14)
    assert_error("class A<int x, int y>;\ndef X : A<x = 1, 2>;",
                 "positional template arguments must come before named ones", 2, 18)


def test_duplicate_def() -> None:
    error = assert_error("def X;\nclass C;\ndef X : C;", "def 'X' is already defined", 3, 5)
    assert [(loc.line, text) for loc, text in error.notes] == [(1, "previous definition")]
    assert_error("foreach i = [1, 1] in def D#i;", "def 'D1' is already defined", 1, 27)


def test_duplicate_class_and_multiclass() -> None:
    assert_error("class A;\nclass A { int x; }\nclass A { int y; }",
                 "class 'A' is already defined", 3, 7)
    assert_error("multiclass M { def a; }\nmulticlass M { def b; }",
                 "multiclass 'M' is already defined", 2, 12)


def test_duplicate_field_declaration_in_one_body() -> None:
    error = assert_error("def X {\n  int a;\n  string a;\n}",
                         "field 'a' is already declared in this body", 3, 10)
    assert error.notes[0][0].line == 2


def test_redeclared_inherited_field_with_another_type() -> None:
    assert_error("class A { int a; }\ndef X : A { string a; }",
                 "field 'a' is redeclared with type 'string' but has type 'int'", 2, 20)


def test_let_of_a_field_that_does_not_exist() -> None:
    assert_error("class A { int a; }\ndef X : A {\n  let b = 1;\n}",
                 "cannot set 'b': 'X' has no such field", 3, 7)
    assert_error("class A;\nlet nope = 1 in def X : A;", "cannot set 'nope': 'X' has no such field",
                 2, 5)


def test_bit_range_let_is_rejected() -> None:
    assert_error("def X { bits<8> b; let b{7-4} = 0; }",
                 "setting a bit range ('let b{...}') is not supported", 1, 24)


def test_include_file_not_found(tmp_path: Path) -> None:
    (tmp_path / "main.td").write_text('def A;\ninclude "missing.td"\n')
    error = error_of_file(tmp_path / "main.td", [str(tmp_path / "inc")])
    assert error.message == (f"include file 'missing.td' not found (searched '{tmp_path}', "
                             f"'{tmp_path / 'inc'}')")
    assert (error.loc.line, error.loc.col) == (2, 9)
    assert str(error).splitlines()[1:] == ['include "missing.td"', "        ^"]


def error_of_file(path: Path, include_dirs: list[str]) -> TdError:
    try:
        load_records(path, include_dirs)
    except TdError as error:
        return error
    raise AssertionError("no error")


def test_recursive_include_and_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "self.td").write_text('include "self.td"\n')
    assert "includes itself" in error_of_file(tmp_path / "self.td", []).message
    error = error_of_file(tmp_path / "absent.td", [])
    assert error.loc is None and str(error).startswith("error: cannot read ")


def test_file_not_utf8_is_reported_at_its_first_bad_byte(tmp_path: Path) -> None:
    (tmp_path / "latin1.td").write_bytes(b"// caf\xc3\xa9\ndef X { string s = \"caf\xe9\"; }")
    error = error_of_file(tmp_path / "latin1.td", [])
    assert error.message == "this file is not UTF-8 text: byte 0xe9 (invalid continuation byte)"
    assert (error.loc.line, error.loc.col) == (2, 24)
    assert str(error).splitlines()[1:] == ['def X { string s = "caf\ufffd"; }', " " * 23 + "^"]


def test_files_with_guards_may_include_each_other(tmp_path: Path) -> None:
    (tmp_path / "dialect.td").write_text(
        '#ifndef DIALECT\n#define DIALECT\nclass Dialect;\ninclude "types.td"\n#endif\n')
    (tmp_path / "types.td").write_text(
        '#ifndef TYPES\n#define TYPES\ninclude "dialect.td"\ndef T : Dialect;\n#endif\n')
    assert list(load_records(tmp_path / "types.td", []).defs) == ["T"]


def test_failed_assert_reports_its_message() -> None:
    assert_error("def A;\nassert !eq(1, 2), \"numbers differ: \" # 1;",
                 "assertion failed: numbers differ: 1", 2, 1)
    error = assert_error("class Pos<int x> {\n  assert !gt(x, 0), \"x must be positive, got \" # x;"
                         "\n}\ndef P : Pos<-2>;", "assertion failed: x must be positive, got -2",
                         2, 3)
    assert error.notes[0][1] == "in record 'P'"


def test_wrong_bang_operand_type() -> None:
    assert_error('def X { string s = !strconcat("a", 2); }',
                 "operand 2 of !strconcat must be a string; got 2 of type 'int'", 1, 36)


def test_field_depending_on_itself() -> None:
    assert_error("class A { int a = 1; int b = a; }\ndef X : A { let a = !add(b, 1); }",
                 "field 'a' of 'X' depends on itself: a -> b -> a", 2, 17)
    assert_error("def X { int a = 1; let a = a; }", "field 'a' cannot be set to itself", 1, 28)


def test_value_that_cannot_be_resolved() -> None:
    assert_error('class A {\n  string s;\n  string t = !strconcat(s, "x");\n}\ndef X : A;',
                 "field 't' of 'X' could not be fully resolved: !strconcat(?, \"x\")", 3, 10)


def test_diamond_inheritance_is_rejected() -> None:
    assert_error("class A;\nclass B : A;\nclass C : A;\ndef D : B, C;",
                 "'D' already derives from 'A'", 4, 12)


def test_defm_needs_a_multiclass() -> None:
    assert_error("class C;\ndefm X : C;",
                 "'defm' needs a multiclass; use 'def' to derive from classes only", 2, 6)
    assert_error("multiclass M { def a; }\nclass C;\ndefm X : C, M;",
                 "the multiclasses of a 'defm' must come before its classes", 3, 13)


def test_errors_inside_multiclass_instances_point_into_the_multiclass() -> None:
    assert_error("multiclass M<int n> {\n  def _a { int v = !div(1, n); }\n}\ndefm X : M<0>;",
                 "division by zero in !div", 2, 28)


def test_reserved_and_duplicate_names() -> None:
    assert_error("def X { int NAME; }", "'NAME' is reserved and cannot be a field name", 1, 13)
    assert_error("class A<int x, int x>;", "template argument 'x' is declared twice", 1, 20)
    assert_error("defvar v = 1;\ndefvar v = 2;", "variable 'v' is already defined in this scope",
                 2, 8)


def test_foreach_and_if_need_known_values() -> None:
    assert_error("foreach i = 3 in def A;", "foreach needs a list; got 3 of type 'int'", 1, 13)
    assert_error("defvar s = \"x\";\nif s then def A;",
                 "an 'if' condition must be a known integer; got \"x\" of type 'string'", 2, 4)


def test_errors_render_with_a_caret_under_tabs() -> None:
    error = error_of("def X {\n\tint a = \"s\";\n}")
    assert str(error).splitlines()[1:3] == [' int a = "s";', "         ^"]


def test_brackets_nested_too_deeply_are_reported_where_they_get_too_deep() -> None:
    assert_error("def X { int v = " + "!add(1, " * 400 + "0" + ")" * 400 + "; }",
                 "brackets nest more than 200 deep here", 1, 17 + 8 * 199 + 4)


def test_no_python_traceback_for_deep_recursion() -> None:
    # Each class reads the field of an anonymous record of the one before: 3000 records deep.
    classes = "".join(f"class C{i}<int x> {{ int v = C{i - 1}<x>.v; }}\n" for i in range(1, 3000))
    error = error_of(f"class C0<int x> {{ int v = x; }}\n{classes}def X {{ int v = C2999<1>.v; }}")
    assert "nested too deeply" in error.message
    assert (error.loc.line, error.loc.col) == (3001, 5)


def test_load_does_not_leak_state_between_calls() -> None:
    load("def X;")
    assert "X" in load("def X;").defs
