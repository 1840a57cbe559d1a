"""The tile-IR stage shared by the compiled backends: Triton's ``make_ttir`` pass list."""

from __future__ import annotations

from tilecraft.ir import Operation

TTIR_PIPELINE = ("builtin.module(inline, triton-combine, canonicalize, "
                 "triton-reorder-broadcast, cse, loop-invariant-code-motion, symbol-dce)")


def make_ttir(module: Operation) -> Operation:
    """A copy of ``module`` (the frontend's `tt` module) after the tile passes."""
    from tilecraft.transforms.pass_manager import PassManager

    optimized = module.clone()
    PassManager.parse(TTIR_PIPELINE).run(optimized)
    return optimized
