"""Per-op facts for the kernel language and the interpreter (`languageName`, `languageKind`,
`interpreterImpl`, `tl*`): generated into generated/language.py and generated/interpreter.py,
and checked with errors at their `.td` field."""

from __future__ import annotations

from pathlib import Path

from .test_gen_errors import HEADER, gen_error
from .util import run_gen

OP = """def T_TwiceOp : Op<T_Dialect, "twice", [Pure, Elementwise, SameOperandsAndResultType]> {{
  let summary = "Twice x plus y";
  let arguments = (ins F32:$x, F32:$y);
  let results = (outs F32:$result);
{lets}
}}
"""


def test_facts_are_generated(project: Path) -> None:
    (project / "defs" / "t.td").write_text(HEADER + OP.format(lets='''  let languageName = "twice";
  let languageKind = "binary";
  let interpreterImpl = "lambda x, y: 2 * x + y";
  let tlName = "twice";
  let tlTopLevel = 1;
  let tlSignature = "float_binary";
  let tlDtypes = ["fp32"];'''))
    assert run_gen(project) == 0
    language = (project / "generated" / "language.py").read_text()
    assert ("'twice': LanguageOp('t.twice', 't', 'TwiceOp', 'binary', ('x', 'y'), None, "
            "'defs/t.td'),") in language
    assert "TlFunction('twice', 'twice', 'float_binary', ('fp32',), True, 'Twice x plus y')," \
        in language
    assert "'atan2': LanguageOp('math.atan2', 'math', 'Atan2Op', 'binary'," in language
    interpreter = (project / "generated" / "interpreter.py").read_text()
    assert "    'twice': lambda x, y: 2 * x + y,  # t.twice\n" in interpreter


def test_kind_must_match_the_operands(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='''  let languageName = "twice";
  let languageKind = "unary";'''), capsys)
    assert "t.td:8:7: error: op 'T_TwiceOp' is a unary op of the language but has 2 operand(s) " \
        "and 1 result(s); it needs 1 and 1, none optional or variadic" in err


def test_unknown_kind_and_signature(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='''  let languageName = "twice";
  let languageKind = "ternary";'''), capsys)
    assert "error: op 'T_TwiceOp' has languageKind 'ternary'; expected one of 'unary', " \
        "'binary', 'cast'" in err
    err = gen_error(project, OP.format(lets='''  let languageName = "twice";
  let languageKind = "binary";
  let tlName = "twice";
  let tlSignature = "float_unary";'''), capsys)
    assert "t.td:10:7: error: op 'T_TwiceOp' has tlSignature 'float_unary'; a binary op takes " \
        "one of 'float_binary'" in err


def test_facts_need_a_language_name(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='  let interpreterImpl = "np.add";'), capsys)
    assert "t.td:7:7: error: op 'T_TwiceOp' sets 'interpreterImpl' but no 'languageName'" in err


def test_interpreter_impl_is_an_expression(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='''  let languageName = "twice";
  let languageKind = "binary";
  let interpreterImpl = "lambda x y: x";'''), capsys)
    assert "t.td:9:7: error: interpreterImpl of 'T_TwiceOp' is not a Python expression" in err


def test_language_names_are_unique(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='''  let languageName = "addf";
  let languageKind = "binary";'''), capsys)
    assert "t.td:7:7: error: languageName 'addf' of 'T_TwiceOp' is already that of " \
        "'Arith_AddFOp'" in err
    assert "note: first declared here" in err
