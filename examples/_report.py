"""What the examples print: where a kernel ran and how far its result is from numpy's."""

from __future__ import annotations

import os

import numpy as np


def where_it_ran(kernel) -> str:
    """How tilecraft ran ``kernel`` on this machine."""
    from tilecraft.runtime.compiler import selected_backend

    if kernel.interpret or selected_backend() == "interpret":
        return "interpreted on the CPU with numpy"
    from tilecraft.backends.cpu.engine import host_target
    from tilecraft.runtime.cpu_driver import thread_count

    compiled = list(kernel._binaries.values())[-1]
    host = host_target()
    return (f"compiled for the CPU ({host.cpu}) through LLVM: {len(compiled.asm['llir'])} "
            f"chars of LLVM IR, run on {thread_count()} threads "
            "(no GPU backend yet)")


def relative_error(actual, expected) -> float:
    actual = np.asarray(actual, np.float64)
    expected = np.asarray(expected, np.float64)
    return float(np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), 1e-30))


def report(name: str, kernel, error: float, tolerance: float) -> None:
    status = "ok" if error <= tolerance else "MISMATCH"
    print(f"{name}: {where_it_ran(kernel)}")
    print(f"{name}: max relative error vs numpy {error:.2e} (tolerance {tolerance:.0e}): "
          f"{status}")
    if error > tolerance:
        raise SystemExit(1)


def show_ir(kernel, *args, **kwargs) -> None:
    """Prints the tt IR when the script runs with --ir."""
    import sys

    if "--ir" in sys.argv:
        print(kernel.ttir(*args, **kwargs))
