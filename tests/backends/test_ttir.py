"""make_ttir: the tile passes verify the result once, and an invalid result is reported with
the pass that made it, as when verifying after every pass."""

from __future__ import annotations

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.ttir import make_ttir
from tilecraft.transforms.cse import CSE
from tilecraft.transforms.pass_manager import PassManager, PassVerificationError


@tc.jit
def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))


def _module():
    return copy_kernel.ir(x_ptr="*fp32", out_ptr="*fp32", BLOCK=tl.constexpr(16))


def test_the_passes_verify_once(monkeypatch):
    verifications = []
    original = PassManager._run_pass

    def run_pass(self, pass_, op, anchors, timer):
        verifications.append(self.verify_each)
        return original(self, pass_, op, anchors, timer)

    monkeypatch.setattr(PassManager, "_run_pass", run_pass)
    module = _module()
    optimized = make_ttir(module)
    assert optimized is not module and "tt.load" in str(optimized)
    assert verifications and not any(verifications)


def test_invalid_ir_names_the_pass_that_made_it(monkeypatch):
    def breaks_the_ir(self, op):
        func = next(o for o in op.regions[0].blocks[0] if o.name == "tt.func")
        func.regions[0].blocks[0].last_op.detach()  # the tt.return

    monkeypatch.setattr(CSE, "run_on_operation", breaks_the_ir)
    with pytest.raises(PassVerificationError, match="after pass 'cse'"):
        make_ttir(_module())
