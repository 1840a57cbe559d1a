"""make_ttir and CUDA's make_ttgir: the passes verify the result once, and an invalid result is
reported with the pass that made it, as when verifying after every pass."""

from __future__ import annotations

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda.compiler import CUDAOptions, make_ttgir
from tilecraft.backends.ttir import make_ttir
from tilecraft.transforms.cse import CSE
from tilecraft.transforms.pass_manager import PassManager, PassVerificationError


@tc.jit
def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))


def _module():
    return copy_kernel.ir(x_ptr="*fp32", out_ptr="*fp32", BLOCK=tl.constexpr(16))


def _ttgir(ttir):
    return make_ttgir(ttir, CUDAOptions(capability=90))


# (what a stage starts from, made before the test patches a pass; the stage)
STAGES = pytest.mark.parametrize("stage", [(_module, make_ttir),
                                           (lambda: make_ttir(_module()), _ttgir)],
                                 ids=["ttir", "ttgir"])


@STAGES
def test_the_passes_verify_once(monkeypatch, stage):
    verifications = []
    original = PassManager._run_pass

    def run_pass(self, pass_, op, anchors, timer):
        verifications.append(self.verify_each)
        return original(self, pass_, op, anchors, timer)

    start, run = stage
    module = start()
    monkeypatch.setattr(PassManager, "_run_pass", run_pass)
    optimized = run(module)
    assert optimized is not module and "tt.load" in str(optimized)
    assert verifications and not any(verifications)


@STAGES
def test_invalid_ir_names_the_pass_that_made_it(monkeypatch, stage):
    def breaks_the_ir(self, op):
        func = next(o for o in op.regions[0].blocks[0] if o.name == "tt.func")
        func.regions[0].blocks[0].last_op.detach()  # the tt.return

    start, run = stage
    module = start()
    monkeypatch.setattr(CSE, "run_on_operation", breaks_the_ir)
    with pytest.raises(PassVerificationError, match="after pass 'cse'"):
        run(module)
