"""The scripts in examples/ run in the interpreter, say so, and agree with numpy."""

from __future__ import annotations

import runpy
import sys
import warnings
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("0*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(script, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(script.parent))
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.delitem(sys.modules, "_report", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "interpreted on the CPU with numpy" in out
    assert "MISMATCH" not in out and ": ok" in out


def test_examples_exist():
    names = {p.stem for p in EXAMPLES}
    for part in ("vector_add", "fused_softmax", "layer_norm", "matmul", "fused_attention"):
        assert any(part in name for name in names)


def test_tests_and_benchmarks_load_the_examples_kernels(monkeypatch):
    folder = EXAMPLES[0].parent
    monkeypatch.syspath_prepend(str(folder))
    from _load import example, kernel_source

    source = kernel_source("04_matmul", "matmul_kernel")
    assert source.startswith("def matmul_kernel(") and source.rstrip().endswith("mask=c_mask)")
    assert example("04_matmul") is example("04_matmul")
    assert example("04_matmul").matmul_kernel.fn.fn.__code__.co_filename == str(
        folder / "04_matmul.py")
    with pytest.raises(LookupError, match="defines no function 'nope'"):
        kernel_source("01_vector_add", "nope")
