"""The tile-IR stage shared by the compiled backends: Triton's ``make_ttir`` pass list."""

from __future__ import annotations

from tilecraft.ir import Operation

TTIR_PIPELINE = ("builtin.module(inline, {descriptors}triton-combine, canonicalize, "
                 "triton-reorder-broadcast, cse, loop-invariant-code-motion, symbol-dce)")


def make_ttir(module: Operation, *, rewrite_descriptors: bool = True) -> Operation:
    """A copy of ``module`` (the frontend's `tt` module) after the tile passes; with
    ``rewrite_descriptors`` (targets without a tensor memory accelerator) tensor descriptors
    become pointer arithmetic first."""
    from tilecraft.transforms.pass_manager import PassManager

    optimized = module.clone()
    descriptors = "triton-rewrite-tensor-descriptor-to-pointer, " if rewrite_descriptors else ""
    PassManager.parse(TTIR_PIPELINE.format(descriptors=descriptors)).run(optimized)
    return optimized
