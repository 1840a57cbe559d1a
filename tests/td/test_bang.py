"""One test per bang operator: its value, and the errors for bad operands."""

from __future__ import annotations

from typing import Any

import pytest

from tilecraft.codegen.td import Code, DagValue, Unset

from .util import assert_error, load

PRELUDE = """
class Base;
class Other;
def ins;
def outs;
def A : Base;
def B : Base;
def O : Other;
"""


def value(expr: str, type_: str) -> Any:
    return load(PRELUDE + f"def X {{ {type_} v = {expr}; }}").defs["X"]["v"]


CASES = [
    # strings
    ("string", '!strconcat("a", "b", "c")', "abc"),
    ("string", '!interleave(["a", "b", "c"], ", ")', "a, b, c"),
    ("string", '!interleave([1, 2, 3], "/")', "1/2/3"),
    ("string", '!tolower("AbC")', "abc"),
    ("string", '!toupper("AbC")', "ABC"),
    ("string", '!subst("o", "0", "foo boo")', "f00 b00"),
    ("int", '!find("banana", "na")', 2),
    ("int", '!find("banana", "na", 3)', 4),
    ("int", '!find("banana", "x")', -1),
    ("string", '!substr("abcdef", 2)', "cdef"),
    ("string", '!substr("abcdef", 1, 3)', "bcd"),
    ("string", '!repr("a")', '"a"'),
    ("string", "!repr([1, 2])", "[1, 2]"),
    ("string", "!repr(A)", "A"),
    # conditionals and comparisons
    ("int", "!if(1, 2, 3)", 2),
    ("string", '!if(!eq(1, 2), "yes", "no")', "no"),
    ("int", "!cond(0: 1, !eq(2, 2): 20, 1: 30)", 20),
    ("int", "!cond(false: 1, true: 2)", 2),
    ("bit", '!eq("a", "a")', 1),
    ("bit", "!eq(1, 2)", 0),
    ("bit", "!eq(A, A)", 1),
    ("bit", "!eq(A, B)", 0),
    ("bit", '!ne("a", "b")', 1),
    ("bit", "!ne(A, A)", 0),
    ("bit", "!lt(1, 2)", 1),
    ("bit", '!lt("b", "a")', 0),
    ("bit", "!le(2, 2)", 1),
    ("bit", "!gt(3, 2)", 1),
    ("bit", "!ge(1, 2)", 0),
    ("bit", "!not(0)", 1),
    ("bit", "!not(5)", 0),
    ("bit", "!and(1, 1, 0)", 0),
    ("int", "!and(12, 10)", 8),
    ("bit", "!or(0, 0, 1)", 1),
    ("int", "!or(12, 3)", 15),
    ("int", "!xor(12, 10)", 6),
    # arithmetic
    ("int", "!add(1, 2, 3)", 6),
    ("int", "!sub(1, 5)", -4),
    ("int", "!mul(2, 3, 4)", 24),
    ("int", "!div(7, 2)", 3),
    ("int", "!div(-7, 2)", -3),
    ("int", "!shl(1, 4)", 16),
    ("int", "!sra(-8, 1)", -4),
    ("int", "!srl(-1, 60)", 15),
    ("int", "!logtwo(1024)", 10),
    ("int", "!logtwo(1000)", 9),
    ("int", "!add(0x10, 0b11, -1)", 18),
    # lists
    ("list<int>", "!listconcat([1], [2, 3], [])", [1, 2, 3]),
    ("list<int>", "!foreach(x, [1, 2, 3], !mul(x, x))", [1, 4, 9]),
    ("list<string>", '!foreach(x, [1, 2], "n" # x)', ["n1", "n2"]),
    ("int", "!foldl(0, [1, 2, 3, 4], acc, x, !add(acc, x))", 10),
    ("string", '!foldl("", ["a", "b"], acc, s, acc # s # ".")', "a.b."),
    ("list<int>", "!filter(x, [1, 2, 3, 4, 5], !eq(!and(x, 1), 1))", [1, 3, 5]),
    ("int", "!head([7, 8, 9])", 7),
    ("list<int>", "!tail([7, 8, 9])", [8, 9]),
    ("int", "!size([1, 2, 3])", 3),
    ("int", '!size("abcd")', 4),
    ("int", "!size((ins 1, 2))", 2),
    ("bit", "!empty([])", 1),
    ("bit", '!empty("x")', 0),
    ("bit", "!empty((ins))", 1),
    ("list<int>", "!listsplat(7, 3)", [7, 7, 7]),
    ("list<int>", "!listremove([1, 2, 3, 2], [2])", [1, 3]),
    ("list<int>", "!range(3)", [0, 1, 2]),
    ("list<int>", "!range(2, 5)", [2, 3, 4]),
    ("list<int>", "!range(0, 10, 4)", [0, 4, 8]),
    ("list<int>", '!range(["a", "b"])', [0, 1]),
    ("int", "[5, 6, 7][1]", 6),
    # records and types
    ("string", "!cast<string>(42)", "42"),
    ("string", "!cast<string>(A)", "A"),
    ("Base", '!cast<Base>("B")', "B"),
    ("bit", "!isa<Base>(A)", 1),
    ("bit", "!isa<Base>(O)", 0),
    ("bit", '!isa<string>("s")', 1),
    ("bit", '!exists<Base>("A")', 1),
    ("bit", '!exists<Base>("O")', 0),
    ("bit", '!exists<Base>("Nope")', 0),
    ("bit", "!initialized(?)", 0),
    ("bit", "!initialized(3)", 1),
    ("Base", "!subst(A, B, A)", "B"),
    ("Other", "!subst(A, B, O)", "O"),
    # dags
    ("string", '!getdagname((ins 1:$a, 2:$b), 1)', "b"),
    ("int", '!getdagarg<int>((ins 1:$a, 2:$b), "b")', 2),
    ("int", "!getdagarg<int>((ins 1:$a, 2:$b), 0)", 1),
    ("Base", "!getdagop<Base>((A 1))", "A"),
    ("Base", "!getop<Base>((B 1))", "B"),
    ("Other", "!getdagop((O))", "O"),
]


@pytest.mark.parametrize(("type_", "expr", "expected"), CASES, ids=[c[1] for c in CASES])
def test_operator_value(type_: str, expr: str, expected: Any) -> None:
    result = value(expr, type_)
    if type_ in ("Base", "Other"):
        result = result.name
    assert result == expected


def test_strconcat_keeps_code_format() -> None:
    result = value('!strconcat([{a}], "b")', "code")
    assert isinstance(result, Code) and result == "ab"
    assert not isinstance(value('!strconcat("a", "b")', "code"), Code)


def test_con_and_dag_build_dags() -> None:
    con = value("!con((ins 1:$a), (ins 2:$b))", "dag")
    assert con == DagValue(con.op, [(1, "a"), (2, "b")]) and con.op.name == "ins"
    built = value('!dag(outs, [1, 2], ["x", "y"])', "dag")
    assert built.op.name == "outs" and built.args == [(1, "x"), (2, "y")]
    unnamed = value("!dag(outs, [1], ?)", "dag")
    assert unnamed.args == [(1, None)]


def test_setdag_operators_replace_parts() -> None:
    assert value("!setdagop((ins 1:$a), outs)", "dag").op.name == "outs"
    assert value("!setop((ins 1:$a), outs)", "dag").op.name == "outs"
    assert value('!setdagarg((ins 1:$a, 2:$b), "b", 5)', "dag").args == [(1, "a"), (5, "b")]
    assert value('!setdagname((ins 1:$a), 0, "z")', "dag").args == [(1, "z")]


def test_getdagarg_of_wrong_type_is_unset() -> None:
    assert value('!getdagarg<string>((ins 1:$a), "a")', "string") is Unset


def test_foreach_over_dag_maps_arguments() -> None:
    result = value("!foreach(x, (ins 1:$a, 2:$b), !add(x, 10))", "dag")
    assert result.op.name == "ins" and result.args == [(11, "a"), (12, "b")]


def test_bang_in_class_is_folded_per_def() -> None:
    rk = load("""
class Sq<list<int> xs> { list<int> squares = !foreach(x, xs, !mul(x, x));
                         int total = !foldl(0, squares, a, b, !add(a, b)); }
def S : Sq<[1, 2, 3]>;
""")
    assert rk.defs["S"]["squares"] == [1, 4, 9]
    assert rk.defs["S"]["total"] == 14


@pytest.mark.parametrize(("expr", "message", "at"), [
    ('!add(1, "a")', "operand 2 of !add must be an integer; got \"a\" of type 'string'", '"a"'),
    ("!sub(1)", "!sub expects 2 operands, got 1", "!sub"),
    ('!strconcat("a", 1)', "operand 2 of !strconcat must be a string; got 1 of type 'int'", "1"),
    ("!head(1)", "operand 1 of !head must be a list; got 1 of type 'int'", "1"),
    ('!eq(1, "a")', "operands of !eq must both be integers, strings or records; got 'int' and "
     "'string'", "!eq"),
    ('!if(1, 2, "a")', "!if branches have incompatible types 'int' and 'string'", "!if"),
    ("!cast(1)", "!cast needs a type argument, as in !cast<string>(...)", "!cast"),
    ("!add<int>(1, 2)", "!add does not take a type argument", "!add"),
    ("!div(1, 0)", "division by zero in !div", "0"),
    ("!head([])", "!head of an empty list", "[]"),
    ("!cond(0: 1)", "none of the conditions of !cond is true", "!cond"),
    ('!cast<Base>("Nope")', "!cast: there is no def named 'Nope'", '"Nope"'),
    ("!logtwo(0)", "!logtwo of non-positive value 0", "0"),
    ("!foreach(1, [1], 2)", "operand 1 of !foreach must be a variable name", "1, ["),
    ("!getdagarg((ins 1:$a), 3)",
     "!getdagarg: index 3 is out of range for a dag with 1 arguments", "3"),
])
def test_operand_errors(expr: str, message: str, at: str) -> None:
    """The error points at the operand (or the operator) named by ``at``."""
    prefix = "def X { int v = "
    assert_error(PRELUDE + prefix + expr + "; }", message, PRELUDE.count("\n") + 1,
                 len(prefix) + expr.rindex(at) + 1)


def test_unknown_bang_operator_is_reported_at_the_operator() -> None:
    assert_error("def X {\n  int v = !frobnicate(1);\n}", "unknown bang operator '!frobnicate'",
                 2, 11)


def test_cond_needs_colons() -> None:
    assert_error("def X { int v = !cond(1, 2); }",
                 "'!cond' operands must be 'condition : value'", 1, 17)
    assert_error("def X { int v = !add(1: 2); }", "unexpected ':' in operands of '!add'", 1, 22)
