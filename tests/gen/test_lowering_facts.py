"""Per-op LLVM lowerings (`llvmLowering`, `llvmLoweringCost`, `llvmExactResult`,
`mathFunction`): generated into generated/lowering.py, and checked with errors at their `.td`
field."""

from __future__ import annotations

from pathlib import Path

from .test_gen_errors import HEADER, gen_error
from .test_language_facts import OP
from .util import run_gen


def test_lowering_is_generated(project: Path) -> None:
    (project / "defs" / "t.td").write_text(HEADER + OP.format(lets='''  let llvmLowering = [
    FastMathInstruction<"fadd", "", ["f32"]>, Intrinsic<"llvm.maxnum", "cuda">,
    Intrinsic<"llvm.maximumnum", "cpu", [], ["nsz"]>,
    Libm<"hypot">, Libdevice<"hypot">, Call<"twice_f64", "cpu">,
    FunctionHook<"twice", "cpu">, OpHook<"twice">];
  let llvmLoweringCost = 3;
  let llvmExactResult = 1;'''))
    assert run_gen(project) == 0
    lowering = (project / "generated" / "lowering.py").read_text()
    assert """    't.twice': OpLowering((
        Rule('instruction', 'fadd', '', ('f32',), True),
        Rule('intrinsic', 'llvm.maxnum', 'cuda', (), False),
        Rule('intrinsic', 'llvm.maximumnum', 'cpu', (), False, ('nsz',)),
        Rule('call', 'hypotf', 'cpu', ('f32',), False),
        Rule('call', 'hypot', 'cpu', ('f64',), False),
        Rule('call', '__nv_hypotf', 'cuda', ('f32',), False),
        Rule('call', '__nv_hypot', 'cuda', ('f64',), False),
        Rule('call', 'twice_f64', 'cpu', (), False),
        Rule('function_hook', 'twice', 'cpu', (), False),
        Rule('op_hook', 'twice', '', (), False),
    ), 2, 3, True, 'defs/t.td:7:7'),""" in lowering
    assert "'t.twice'" not in lowering.split("MATH_FUNCTIONS: ")[1]
    assert "    'exp': 'math.exp',\n" in lowering


def test_instruction_must_take_the_operands(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='  let llvmLowering = [Instruction<"fneg">];'), capsys)
    assert "t.td:7:7: error: Instruction<\"fneg\"> in the llvmLowering of 'T_TwiceOp': not an " \
        "LLVM instruction of 2 operand(s) (one of: add, sub," in err
    err = gen_error(project, OP.format(lets='  let llvmLowering = [CastInstruction<"zext">];'),
                    capsys)
    assert "not an LLVM conversion of one operand" in err


def test_backends_and_types_are_known(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='  let llvmLowering = [Instruction<"fadd", "rocm">];'),
                    capsys)
    assert "t.td:7:7: error: Instruction<\"fadd\"> in the llvmLowering of 'T_TwiceOp' names the " \
        "backend 'rocm'; expected \"\", \"cpu\" or \"cuda\"" in err
    err = gen_error(project, OP.format(
        lets='  let llvmLowering = [Instruction<"fadd", "", ["f16"]>];'), capsys)
    assert "names the register type 'f16'; expected one of f32, f64, i1, i8, i16, i32, i64" in err
    err = gen_error(project, OP.format(
        lets='  let llvmLowering = [Intrinsic<"llvm.maxnum", "", [], ["fast"]>];'), capsys)
    assert "t.td:7:7: error: Intrinsic<\"llvm.maxnum\"> in the llvmLowering of 'T_TwiceOp' " \
        "names the fast-math flag 'fast'; expected one of nnan, ninf, nsz," in err
    err = gen_error(project, OP.format(lets='  let llvmLowering = [Intrinsic<"sqrt">];'), capsys)
    assert "Intrinsic<\"sqrt\"> in the llvmLowering of 'T_TwiceOp': an intrinsic's name is " \
        "'llvm.<name>'" in err


def test_lowering_needs_an_elementwise_op(project: Path, capsys) -> None:
    err = gen_error(project, """def T_PairOp : Op<T_Dialect, "pair", [Pure]> {
  let arguments = (ins F32:$x);
  let results = (outs F32:$a, F32:$b);
  let llvmLowering = [Instruction<"fneg">];
}
""", capsys)
    assert "t.td:6:7: error: op 'T_PairOp' declares an 'llvmLowering' but is not an " \
        "element-wise op of single operands (or one variadic operand) and one result (trait " \
        "'Elementwise')" in err


VARIADIC = """def T_CallOp : Op<T_Dialect, "call", [Pure, Elementwise]> {{
  let arguments = (ins Variadic<F32>:$srcs);
  let results = (outs F32:$result);
{lets}
}}
"""


def test_an_op_of_one_variadic_operand_has_no_fixed_arity(project: Path, capsys) -> None:
    (project / "defs" / "t.td").write_text(HEADER + VARIADIC.format(
        lets='  let llvmLowering = [Call<"f", "cpu">, OpHook<"call">];'))
    assert run_gen(project) == 0
    assert """    't.call': OpLowering((
        Rule('call', 'f', 'cpu', (), False),
        Rule('op_hook', 'call', '', (), False),
    ), None, 1, False, 'defs/t.td:6:7'),""" in (project / "generated" / "lowering.py").read_text()


def test_a_variadic_op_has_no_instruction_and_is_no_math_function(project: Path,
                                                                   capsys) -> None:
    err = gen_error(project, VARIADIC.format(lets='  let llvmLowering = [Instruction<"fadd">];'),
                    capsys)
    assert "t.td:6:7: error: Instruction<\"fadd\"> in the llvmLowering of 'T_CallOp': an " \
        "instruction takes a fixed number of operands, but the op's operand is variadic" in err
    err = gen_error(project, VARIADIC.format(lets='  let llvmLowering = [Call<"f">];\n'
                                                  '  let mathFunction = 1;'), capsys)
    assert "t.td:7:7: error: op 'T_CallOp' is a math function, which takes a fixed number of " \
        "operands, but its operand is variadic" in err


def test_math_functions_are_functions_of_registers(project: Path, capsys) -> None:
    err = gen_error(project, OP.format(lets='''  let llvmLowering = [OpHook<"twice">];
  let mathFunction = 1;'''), capsys)
    assert "t.td:8:7: error: op 'T_TwiceOp' is a math function, which the backends call with " \
        "registers alone, but its lowering has the op_hook rule 'twice'" in err
    err = gen_error(project, OP.format(lets='  let mathFunction = 1;'), capsys)
    assert "t.td:7:7: error: op 'T_TwiceOp' sets 'mathFunction' but no 'llvmLowering'" in err


def test_math_function_names_are_unique(project: Path, capsys) -> None:
    err = gen_error(project, """def T_ExpOp : Op<T_Dialect, "exp", [Pure, Elementwise]> {
  let arguments = (ins F32:$x);
  let results = (outs F32:$y);
  let llvmLowering = [Intrinsic<"llvm.exp">];
  let mathFunction = 1;
}
""", capsys)
    assert "t.td:7:7: error: mathFunction 'exp' of 'T_ExpOp' is already that of 'Math_ExpOp'" \
        in err
    assert "note: first declared here" in err
