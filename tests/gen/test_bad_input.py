"""Input nobody here wrote: any character in a `.td` string reaches generated Python intact, and
mutated `defs/` files get valid output or an error at file:line:col with a caret."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tilecraft.codegen.fuzz import mutate, run
from tilecraft.codegen.main import Layout, generate
from tilecraft.codegen.td import TdError

from .util import ROOT, load_generated, run_gen

# Every character a `.td` code block can hold that needs care in Python source.
AWKWARD = "".join(map(chr, [0, 1, 7, 8, 9, 11, 12, 13, 27, 127, 0x85, 0xa0, 0x2028, 0x2029,
                            0xfeff])) + "\\ \\x41 \\N{X} ' \"\"\" \" é {{ }} %s"


def test_any_character_in_td_strings_reaches_generated_python(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "defs" / "base", tmp_path / "defs" / "base")
    text = AWKWARD + '"'
    (tmp_path / "defs" / "t.td").write_text(f"""include "base/OpBase.td"
def T_Dialect : Dialect {{ let name = "t"; let summary = [{{{text}}}]; }}
def T_NopOp : Op<T_Dialect, "nop"> {{
  let summary = [{{{text}}}];
  let description = [{{{text}
second line {text}}}];
  let assemblyFormat = "attr-dict";
}}
""", encoding="utf-8")
    assert run_gen(tmp_path) == 0
    module = load_generated(tmp_path / "generated" / "t.py", "t_awkward")
    assert module.__doc__.startswith(f"The `t` dialect: {text}.")
    assert module.NopOp.__doc__.split("\n")[0] == text
    assert f"second line {text}" in module.NopOp.__doc__


def test_mutated_defs_get_output_or_a_located_error() -> None:
    """A bounded, seeded run of `tools/td_fuzz.py` (which runs thousands) on a small dialect."""
    problems = list(run(ROOT / "defs", ["math.td"], cases=40, seed=16))
    assert not problems, "\n\n".join(f"seed {p.seed}:\n{p.detail}" for p in problems[:3])


@pytest.mark.parametrize("file, damage, message", [
    # The mutants of math.td found by seeds 5289 and 5819, written out (math.td has changed
    # since, so those seeds now damage it elsewhere).
    ("math.td", ("i1_like($_self)", "i1_like($_se0xlf)"),
     "uses the placeholder '$_se0xlf', which is not available"),
    ("math.td", ("def Math_AbsFOp :", "def Math_ :"),
     "the def 'Math_' gives the class name '', which is not a Python identifier"),
    ("cf.td", 6653, "has the trait 'AttrSizedOperandSegments' but no operands"),
    ("ub.td", 6671, "the def 'UB_0xPoisonOp' gives the class name '0xPoisonOp', which is not a "
                    "Python identifier"),
    ("cf.td", 7729, "has the trait 'AttrSizedOperandSegments' but no operands"),
    # Mutants of arith.td that `tools/td_fuzz.py --cases 720 --seed 100000` found reaching
    # generated Python that does not compile, reported as an internal error without a .td
    # location: an enum case or class that is no identifier, an enum case named twice ...
    ("arith.td", ('"OEQ", 1', '"O]EQ", 1'),
     "the case 'O]EQ' of the enum 'CmpFPredicate' is not a Python identifier"),
    ("arith.td", ('"UNE", 13', '"\ufeffUNE", 13'),
     "the case '\\ufeffUNE' of the enum 'CmpFPredicate' is not a Python identifier"),
    ("arith.td", ('"OGT", 2', '"OEQ", 2'), "the enum 'CmpFPredicate' has the case 'OEQ' twice"),
    ("arith.td", ('<"CmpFPredicate"', '<"_Cmp.FPredicate"'),
     "the enum class name '_Cmp.FPredicate' of 'Arith_CmpFPredicate' is not a Python "
     "identifier"),
    # ... an interpreterImpl whose '#' comments out the rest of its generated line ...
    ("arith.td", ('"divsi";', '"divs#i";'),
     "interpreterImpl of 'Arith_DivSIOp' must be a one-line Python expression without a '#'"),
    # ... and a NativeCodeCall expression that does not compile (which was not checked).
    ("arith.td", ("\"UGT='OLE'", "\"\x01UGT='OLE'"), "cannot evaluate the expression"),
    ("arith.td", ("\"UGT='OLE', ONE", "\"UGE='OLE', ONE"), "keyword argument repeated: UGE"),
    # Pass options and statistics (passes.td, tritongpu_passes.td, same run): a name that is no
    # identifier became a broken annotation; a default that is no value of its type was
    # written into the generated Python as it was.
    ("passes.td", ('Statistic<"numFolded"', 'Statistic<"num<Folded"'),
     "the statistic name 'num<Folded' of pass 'canonicalize' is not an identifier"),
    ("passes.td", ('Option<"maxIterations", "max-iterations", "int", "10"',
                   'Option<"max Iterations", "max-iterations", "int", "10"'),
     "the option name 'max Iterations' of pass 'canonicalize' is not an identifier"),
    ("tritongpu_passes.td", ('"num-warps", "int", "4"', '"num-warps", "int", "4#"'),
     "option 'num-warps' of pass 'convert-triton-to-tritongpu' has the default '4#', which is "
     "not a valid int value"),
    ("tritongpu_passes.td", ('"enable-source-remat", "bool", "false"',
                             '"enable-source-remat", "bool", "fals"'),
     "has the default 'fals', which is not a valid bool value"),
    # Python code of attributes and parameters that was not checked (func.td, llvm.td): an
    # empty returnValue, a pyTypeName, a parameter's default (a SyntaxError traceback from the
    # generator's import scan) and a U+2028 that the check stripped but the generated line kept.
    ("func.td", ('let returnValue = "$_self.value";', 'let returnValue = "";'),
     "cannot evaluate the expression ''"),
    ("func.td", ('"type attribute of function type", "FunctionType">',
                 '"type attribute of function type", "Function Type">'),
     "cannot evaluate the expression 'Function Type'"),
    ("llvm.td", ('<IntParameter, "0">', '<IntParameter, "0 0">'),
     "cannot evaluate the expression '0 0'"),
    ("func.td", ('let returnValue = "$_self.value";', 'let returnValue = "\u2028$_self.value";'),
     "invalid non-printable character U+2028"),
    # A trait's pyTrait is Python code too (ttg.td, a CR in HasParent's op name).
    ("ttg.td", ('HasParent<"ttg.warp_specialize.partitions">',
                'HasParent<"\rttg.warp_specialize.partitions">'),
     "unterminated string literal"),
])
def test_fuzz_regressions(tmp_path: Path, file: str, damage: int | tuple[str, str],
                          message: str) -> None:
    """Mutants `tools/td_fuzz.py` found escaping as a KeyError (an unknown `$_x` placeholder)
    or as generated Python that does not compile (an empty class name, a digit-led one, an
    empty segment tuple, the cases above): each is a located .td error now. ``damage`` is the
    fuzzer's seed or the mutation itself (a text replaced once)."""
    shutil.copytree(ROOT / "defs", tmp_path / "defs")
    original = (ROOT / "defs" / file).read_bytes()
    if isinstance(damage, int):
        assert not list(run(ROOT / "defs", [file], cases=1, seed=damage))
        mutant = mutate(original, random.Random(damage))
    else:
        old, new = (text.encode() for text in damage)
        assert original.count(old) >= 1
        mutant = original.replace(old, new, 1)
    (tmp_path / "defs" / file).write_bytes(mutant)
    with pytest.raises(TdError) as info:
        generate(Layout(tmp_path))
    assert message in info.value.message
    assert info.value.loc is not None and info.value.loc.file.endswith(file)


def test_format_of_all_results_without_results(tmp_path: Path) -> None:
    """`functional-type(operands, results)` in the format of an op left without results wrote
    the tuple `(,)` (`tools/td_fuzz.py --file tt.td --seed 100474`): an op without results
    parses its empty list of result types."""
    shutil.copytree(ROOT / "defs", tmp_path / "defs")
    path = tmp_path / "defs" / "tt.td"
    text = path.read_text(encoding="utf-8")
    old = ("  let results = (outs TT_Tensor:$result);\n  let assemblyFormat = \"$src `[` $indices "
           "`]` attr-dict `:` functional-type(operands, results)\";")
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.replace("(outs TT_Tensor:$result)", "?")),
                    encoding="utf-8")
    generate(Layout(tmp_path))
