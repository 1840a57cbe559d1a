"""Input nobody here wrote: any character in a `.td` string reaches generated Python intact, and
mutated `defs/` files get valid output or an error at file:line:col with a caret."""

from __future__ import annotations

import shutil
from pathlib import Path

from tilecraft.codegen.fuzz import run

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
