"""Textual pipelines: parsing, printing back, and errors with a caret."""

from __future__ import annotations

import pytest

from tilecraft.transforms import OpPassManager, PassManager, PipelineError, parse_pass_pipeline

from ..lit import passes  # noqa: F401 - registers the test passes


def parsed(text: str, anchor: str = "builtin.module") -> str:
    return str(PassManager.parse(text, anchor))


@pytest.mark.parametrize("text, expected", [
    ("builtin.module(test-options,test-crash)",
     "builtin.module(test-options{factor=1 label= flag=false sizes=},test-crash)"),
    ("test-crash", "builtin.module(test-crash)"),
    (" builtin.module( tt.func( test-func , test-crash ) ) ",
     "builtin.module(tt.func(test-func,test-crash))"),
    ("tt.func(test-func),any(test-crash)", "builtin.module(tt.func(test-func),any(test-crash))"),
    ("builtin.module()", "builtin.module()"),
    ("builtin.module(builtin.module(test-crash))",
     "builtin.module(builtin.module(test-crash))"),
    ("test-options{factor=4 label=\"a {b} c\" sizes=1,2}",
     "builtin.module(test-options{factor=4 label='a {b} c' flag=false sizes=1,2})"),
])
def test_pipelines_print_back(text, expected):
    assert parsed(text) == expected
    assert parsed(expected) == expected


def test_the_manager_holds_the_passes_with_their_options():
    pm = PassManager.parse("builtin.module(tt.func(test-func),test-options{factor=9 flag})")
    nested, options = pm.elements
    assert isinstance(nested, OpPassManager) and nested.anchor == "tt.func"
    assert [p.ARGUMENT for p in pm.passes()] == ["test-func", "test-options"]
    assert options.factor == 9 and options.flag is True and options.label == ""


def test_implicit_nesting_reuses_the_last_nested_manager():
    pm = PassManager()
    for flag in ("test-func", "test-func", "test-crash", "test-func"):
        parse_pass_pipeline(flag, pm, implicit_nesting=True)
    assert str(pm) == ("builtin.module(tt.func(test-func,test-func),test-crash,"
                       "tt.func(test-func))")


def test_a_pipeline_for_another_anchor():
    assert parsed("tt.func(test-func)", "tt.func") == "tt.func(test-func)"
    assert parsed("test-func", "tt.func") == "tt.func(test-func)"


@pytest.mark.parametrize("text, column, message", [
    ("builtin.module(nosuch)", 16, "'nosuch' does not refer to a registered pass"),
    ("test-option", 1, "'test-option' does not refer to a registered pass; did you mean "
                       "'test-options'?"),
    ("builtin.module(test-crash", 15, "expected ',' or ')' closing the pipeline opened here"),
    ("builtin.module(test-crash))", 27, "expected ',' or the end of the pipeline, found ')'"),
    ("builtin.module(,)", 16, "expected a pass or an op name, found ','"),
    ("test-crash,", 12, "expected a pass or an op name, found the end"),
    ("test-options{factor=1", 13, "unbalanced '{': the pass options are not closed"),
    ("test-options{factor=x}", 14, "invalid value 'x' for option 'factor' of pass "
                                   "'test-options': expected int"),
    ("test-options{nosuch=1}", 14, "pass 'test-options' has no option 'nosuch' (options: "
                                   "factor, label, flag, sizes)"),
    ("test-options{label=\"a}", 13, "unbalanced '{'"),
    ("test-func", 1, "pass 'test-func' runs on 'tt.func' ops, not on 'builtin.module': nest "
                     "it as 'tt.func(test-func)'"),
    ("canonical(test-func)", 1, "'canonical' is not an op name"),
])
def test_errors_point_at_the_text(text, column, message):
    with pytest.raises(PipelineError) as caught:
        PassManager.parse(text)
    error = caught.value
    assert error.loc.line == 1 and error.loc.col == column
    assert error.message.startswith(message)
    rendered = str(error).splitlines()
    assert rendered[0] == f"<pass-pipeline>:1:{column}: error: {error.message}"
    assert rendered[1:] == [text, " " * (column - 1) + "^"]


def test_multi_line_pipelines_have_lines():
    with pytest.raises(PipelineError) as caught:
        PassManager.parse("builtin.module(\n  test-crash,\n  nosuch)")
    assert (caught.value.loc.line, caught.value.loc.col) == (3, 3)
