"""Analyses over the IR, built on networkx graphs.

- `defuse`: the def-use graph of ops and values (`DefUseGraph`).
- `cfg`: block control-flow graphs per region (`RegionCFG`) and region-structure helpers.
- `dominance`: region-aware dominance and post-dominance (`DominanceInfo`, `PostDominanceInfo`).
- `callgraph`: functions and calls (`CallGraph`: post-order for inlining, recursion).
- `liveness`: live-in/live-out per block and program-order live ranges (`Liveness`).
- `axisinfo`: contiguity/divisibility/constancy of integer and pointer tensors
  (`AxisInfoAnalysis`), which decides vector widths of loads and stores.

Analyses are snapshots of the IR when they were built: rebuild them after changing it. The
names below are loaded from their modules on first use, so that importing one analysis (the CPU
backend's `axisinfo`) loads no other.
"""

from __future__ import annotations

import importlib

# name -> the module of this package that defines it
_LAZY = {
    "AxisInfo": "axisinfo", "AxisInfoAnalysis": "axisinfo", "MAX_DIVISOR": "axisinfo",
    "CallGraph": "callgraph", "UNKNOWN": "callgraph",
    "RegionCFG": "cfg", "region_cfg": "cfg", "successor_operands": "cfg",
    "DefUseGraph": "defuse",
    "DominanceInfo": "dominance", "PostDominanceInfo": "dominance",
    "LiveRange": "liveness", "Liveness": "liveness",
}

__all__ = [
    "AxisInfo", "AxisInfoAnalysis", "MAX_DIVISOR", "CallGraph", "UNKNOWN", "RegionCFG",
    "region_cfg", "successor_operands", "DefUseGraph", "DominanceInfo", "PostDominanceInfo",
    "Liveness", "LiveRange",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
