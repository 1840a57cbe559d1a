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


@pytest.mark.parametrize("file, seed, message", [
    ("math.td", 5289, "uses the placeholder '$_se0xlf', which is not available"),
    ("math.td", 5819, "the def 'Math_' gives the class name '', which is not a Python identifier"),
    ("cf.td", 6653, "has the trait 'AttrSizedOperandSegments' but no operands"),
    ("ub.td", 6671, "the def 'UB_0xPoisonOp' gives the class name '0xPoisonOp', which is not a "
                    "Python identifier"),
    ("cf.td", 7729, "has the trait 'AttrSizedOperandSegments' but no operands"),
])
def test_fuzz_regressions(tmp_path: Path, file: str, seed: int, message: str) -> None:
    """Mutants `tools/td_fuzz.py --file math.td --file ub.td --file cf.td --cases 3400
    --seed 5000` found escaping as a KeyError (an unknown `$_x` placeholder) or as generated
    Python that does not parse (an empty class name, a digit-led one, an empty segment tuple):
    each is a located .td error now."""
    assert not list(run(ROOT / "defs", [file], cases=1, seed=seed))
    shutil.copytree(ROOT / "defs", tmp_path / "defs")
    original = (ROOT / "defs" / file).read_bytes()
    (tmp_path / "defs" / file).write_bytes(mutate(original, random.Random(seed)))
    with pytest.raises(TdError) as info:
        generate(Layout(tmp_path))
    assert message in info.value.message
    assert info.value.loc is not None and info.value.loc.file.endswith(file)
