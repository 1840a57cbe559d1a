"""Bad `.td` input: one clear error at file:line:col with a caret, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from .util import load_generated, run_gen

HEADER = """include "base/OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
"""


def gen_error(project: Path, body: str, capsys) -> str:
    (project / "defs" / "t.td").write_text(HEADER + body)
    assert run_gen(project) == 1
    assert not (project / "generated").exists(), "nothing may be written on error"
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_format_that_omits_an_operand(project, capsys):
    err = gen_error(project, """def T_AddOp : Op<T_Dialect, "add"> {
  let arguments = (ins I32:$lhs, I32:$rhs);
  let assemblyFormat = "$lhs attr-dict";
}
""", capsys)
    assert "t.td:5:25: error: in the assembly format of 'T_AddOp': the format omits the " \
        "operand '$rhs'" in err
    assert '  let assemblyFormat = "$lhs attr-dict";\n' + " " * 24 + "^" in err


def test_format_with_unknown_variable(project, capsys):
    err = gen_error(project, """def T_NegOp : Op<T_Dialect, "neg"> {
  let arguments = (ins I32:$x);
  let results = (outs I32:$y);
  let assemblyFormat = "$x $z attr-dict";
}
""", capsys)
    assert "t.td:6:28: error: in the assembly format of 'T_NegOp': '$z' is not an operand, " \
        "attribute, region, successor or result of the op" in err


def test_format_with_uninferable_type(project, capsys):
    err = gen_error(project, """def T_CastOp : Op<T_Dialect, "cast"> {
  let arguments = (ins AnyType:$x);
  let results = (outs AnyType:$y);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}
""", capsys)
    assert "the type of the result '$y' can neither be parsed nor inferred" in err


def test_predicate_that_does_not_compile(project, capsys):
    err = gen_error(project, """def Bad : Type<CPred<"$_self.is_integer(">, "bad">;
def T_UseOp : Op<T_Dialect, "use"> {
  let arguments = (ins Bad:$x);
}
""", capsys)
    assert "t.td:3:5: error: cannot evaluate the expression '($_self.is_integer()': '(' was " \
        "never closed" in err
    assert "t.td:5:7: note: used by 'T_UseOp' here" in err


def test_predicate_with_unknown_name(project, capsys):
    err = gen_error(project, """def Bad : Type<CPred<"is_wibble($_self)">, "bad">;
def T_UseOp : Op<T_Dialect, "use"> {
  let arguments = (ins Bad:$x);
}
""", capsys)
    assert "uses the unknown name 'is_wibble'" in err


COMPREHENSION = """def Positive : Type<CPred<"all(d > 0 for d in shape_of($_self))">, "positive">;
def T_UseOp : Op<T_Dialect, "use"> {
  let arguments = (ins Positive:$x);
}
"""


def test_predicate_may_bind_comprehension_variables(project, capsys):
    (project / "defs" / "t.td").write_text(HEADER + COMPREHENSION)
    assert run_gen(project) == 0, capsys.readouterr().err


def test_predicate_with_unknown_name_in_a_comprehension(project, capsys):
    err = gen_error(project, COMPREHENSION.replace("d > 0", "is_wibble(d)"), capsys)
    assert "uses the unknown name 'is_wibble'" in err


def test_two_variadic_operands_need_segments(project, capsys):
    err = gen_error(project, """def T_TwoOp : Op<T_Dialect, "two"> {
  let arguments = (ins Variadic<I32>:$a, Variadic<I32>:$b);
}
""", capsys)
    assert "t.td:3:5: error: op 'T_TwoOp' has more than one variadic or optional operand" in err


def test_duplicate_op_mnemonic(project, capsys):
    err = gen_error(project, """def T_AOp : Op<T_Dialect, "a">;
def T_BOp : Op<T_Dialect, "a">;
""", capsys)
    assert "t.td:4:5: error: op 't.a' is defined twice" in err
    assert "t.td:3:5: note: first here" in err


def test_unknown_class_in_an_op(project, capsys):
    err = gen_error(project, """def T_AOp : Op<T_Dialect, "a"> {
  let arguments = (ins NoSuchType:$x);
}
""", capsys)
    assert "t.td:4:24: error:" in err and "NoSuchType" in err


def test_argument_that_is_not_a_constraint(project, capsys):
    err = gen_error(project, """def T_AOp : Op<T_Dialect, "a"> {
  let arguments = (ins T_Dialect:$x);
}
""", capsys)
    assert "argument '$x' of 'T_AOp' is a 'T_Dialect', which is neither a type nor an " \
        "attribute constraint" in err


def test_missing_hook_is_an_error_at_generation_and_at_import(project, capsys):
    td = project / "defs" / "t.td"
    td.write_text(HEADER + """def T_VOp : Op<T_Dialect, "v"> {
  let hasVerifier = 1;
}
""")
    assert run_gen(project) == 1
    assert "t.td:4:7: error: 't.v' declares hasVerifier but there is no hooks module " \
        "'tilecraft.dialects.t' to implement VOp.custom_verify" in capsys.readouterr().err
    assert not (project / "generated").exists()
    # A module generated without the check (as a stale one would be) still fails to import.
    from tilecraft.codegen.main import Layout, generate
    from tilecraft.ir.ods import HookError

    _, outputs = generate(Layout(project))
    module = project / "generated" / "t.py"
    module.parent.mkdir()
    module.write_text(outputs[module])
    with pytest.raises(HookError) as info:
        load_generated(module, "t_generated_missing_hook")
    assert "'t.v' declares the hook 'custom_verify' in .td, but tilecraft.dialects.t does not " \
        "implement VOp.custom_verify" in str(info.value)
