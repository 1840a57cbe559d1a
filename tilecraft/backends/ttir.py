"""The tile-IR stage shared by the compiled backends (Triton's ``make_ttir`` pass list), and how
the backends run their pipelines: verified once, again pass by pass only to report an error."""

from __future__ import annotations

from collections.abc import Callable

from tilecraft.ir import BoolAttr, Operation

TTIR_PIPELINE = ("builtin.module(inline, {descriptors}triton-combine, canonicalize, "
                 "triton-reorder-broadcast, cse, loop-invariant-code-motion, symbol-dce)")


def make_ttir(module: Operation, *, rewrite_descriptors: bool = True) -> Operation:
    """A copy of ``module`` (the frontend's `tt` module) after the tile passes; with
    ``rewrite_descriptors`` (targets without a tensor memory accelerator) tensor descriptors
    become pointer arithmetic first. Verified as `run_verified` says.

    ``noinline`` functions are inlined too: neither compiled backend lowers ``tt.call`` yet,
    and inlining changes nothing a kernel computes (Triton keeps them as calls)."""
    descriptors = "triton-rewrite-tensor-descriptor-to-pointer, " if rewrite_descriptors else ""
    return run_verified(TTIR_PIPELINE.format(descriptors=descriptors),
                        lambda: _inlinable(module.clone()))


def run_verified(pipeline: str, copy: Callable[[], Operation]) -> Operation:
    """``copy()`` after the passes of ``pipeline``, verified once, after the last pass; if
    anything fails, the passes run again on a new ``copy()`` verifying after each, so that the
    error names the pass that broke the IR (verifying after each pass cost most of a stage)."""
    from tilecraft.transforms.pass_manager import PassManager

    optimized = copy()
    try:
        PassManager.parse(pipeline, verify_each=False).run(optimized)
        optimized.verify()
    except Exception:  # noqa: BLE001 - the verifying run raises the error to report
        optimized = copy()
        PassManager.parse(pipeline).run(optimized)
    return optimized


def _inlinable(module: Operation) -> Operation:
    """``module`` with its functions' ``noinline`` marks cleared."""
    for func in module.regions[0].blocks[0]:
        if func.name != "tt.func":
            continue
        for table in (func.properties, func.attributes):
            if "noinline" in table:
                table["noinline"] = BoolAttr(False)
    return module
