"""The classic kernels, the examples and torch tensors on the CPU backend: the interpreter's
suites (tests/interpreter) run again here with every launch compiled for the host (and, where
ptxas is, for sm_80 and sm_90a)."""

from __future__ import annotations

import runpy
import sys

import numpy as np
import pytest

from ...interpreter.test_classic_kernels import (  # noqa: F401  (collected again here)
    rng, test_dropout, test_early_return, test_fused_softmax, test_layer_norm_forward,
    test_matmul, test_nested_calls, test_reduce_with_custom_combine, test_vector_add,
    test_while_loop,
)
from ...interpreter.test_examples import EXAMPLES


pytestmark = pytest.mark.usefixtures("cpu_backend")


@pytest.fixture
def launch():
    """Runs each classic kernel on the CPU and compiles the same specialization for sm_80 and
    sm_90a when ptxas is here."""
    from ..cuda.gpu_compile import compile_specializations_for_gpus, have_ptxas

    def run(kernel, grid, *args, **kwargs):
        compiled = kernel[grid](*args, **kwargs)
        assert set(compiled.asm) == {"ttir", "llir", "asm"}
        if have_ptxas():
            assert compile_specializations_for_gpus([kernel]) > 0

    return run


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(script, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(script.parent))
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.delitem(sys.modules, "_report", raising=False)
    namespace = runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "compiled for the CPU" in out
    assert "MISMATCH" not in out and ": ok" in out
    from ..cuda.gpu_compile import (compile_specializations_for_gpus, have_ptxas,
                                    jit_functions)

    if have_ptxas():  # the same kernels, with the same arguments, compile for the GPU
        assert compile_specializations_for_gpus(jit_functions(namespace)) > 0


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    from ...frontend import classic_kernels as k

    x, y = torch.randn(300), torch.randn(300)
    out = torch.full((300,), float("nan"))
    k.add_kernel[(3,)](x, y, out, 300, BLOCK_SIZE=128)
    np.testing.assert_array_equal(out.numpy(), (x + y).numpy())
    halves = torch.randn(100, dtype=torch.bfloat16)
    doubled = torch.empty_like(halves)
    k.add_kernel[(1,)](halves, halves, doubled, 100, BLOCK_SIZE=128)
    assert torch.equal(doubled, halves + halves)
