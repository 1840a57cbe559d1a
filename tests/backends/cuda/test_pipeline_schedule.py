"""Triton's three pipeliner passes (tritongpu-assign-latencies, tritongpu-schedule-loops,
tritongpu-pipeline honouring the schedule) in place of the CUDA pass list's tritongpu-pipeline:
the aligned fp16 matmul lowers and assembles for sm_80 and sm_90a, with Triton's buffer counts
(one buffer fewer on sm_80, where the copies come after the reads; a single buffer with two
stages)."""

from __future__ import annotations

import pytest

import tilecraft as tc
from tilecraft.backends.cuda import compiler

from .test_kernels import SIGNATURES, needs_ptxas


_PASS_LIST = compiler.ttgir_pipeline


def _with_schedule_passes(options) -> str:
    """The CUDA pass list with Triton's three pipeliner passes."""
    stages = options.num_stages
    return _PASS_LIST(options).replace(
        f"tritongpu-pipeline{{num-stages={stages}}}",
        f"tritongpu-assign-latencies{{num-stages={stages}}}, tritongpu-schedule-loops, "
        f"tritongpu-pipeline{{num-stages={stages}}}")


@needs_ptxas
@pytest.mark.parametrize("capability, stages, buffers", [
    (80, 2, 1), (80, 3, 2), (90, 2, 2), (90, 3, 3)])
def test_matmul_pipelined_by_its_schedule(monkeypatch: pytest.MonkeyPatch, capability: int,
                                          stages: int, buffers: int) -> None:
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    monkeypatch.setattr(compiler, "ttgir_pipeline", _with_schedule_passes)
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {name: "i32:16" if kind == "i32" else kind for name, kind in signature.items()}
    kernel = tc.compile(tc.ASTSource(fn, signature, constexprs),
                        target=tc.GPUTarget("cuda", capability, 32),
                        options={"num_stages": stages})
    ttgir = kernel.asm["ttgir"]
    assert f"!ttg.memdesc<{buffers}x64x32xf16" in ttgir
    assert f"!ttg.memdesc<{buffers}x32x64xf16" in ttgir
    assert "loop.stage" not in ttgir and "tt.scheduled_max_stage" not in ttgir
    ptx = kernel.asm["ptx"]
    assert ptx.count("cp.async.cg.shared.global") == 4 * stages  # 2 loads, prologue + loop
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
