"""Analyses over the IR, built on networkx graphs.

- `defuse`: the def-use graph of ops and values (`DefUseGraph`).
- `cfg`: block control-flow graphs per region (`RegionCFG`) and region-structure helpers.
- `dominance`: region-aware dominance and post-dominance (`DominanceInfo`, `PostDominanceInfo`).
- `callgraph`: functions and calls (`CallGraph`: post-order for inlining, recursion).
- `liveness`: live-in/live-out per block and program-order live ranges (`Liveness`).
- `axisinfo`: contiguity/divisibility/constancy of integer and pointer tensors
  (`AxisInfoAnalysis`), which decides vector widths of loads and stores.

Analyses are snapshots of the IR when they were built: rebuild them after changing it.
"""

from tilecraft.analysis.axisinfo import MAX_DIVISOR, AxisInfo, AxisInfoAnalysis
from tilecraft.analysis.callgraph import UNKNOWN, CallGraph
from tilecraft.analysis.cfg import RegionCFG, region_cfg, successor_operands
from tilecraft.analysis.defuse import DefUseGraph
from tilecraft.analysis.dominance import DominanceInfo, PostDominanceInfo
from tilecraft.analysis.liveness import LiveRange, Liveness

__all__ = [
    "AxisInfo", "AxisInfoAnalysis", "MAX_DIVISOR", "CallGraph", "UNKNOWN", "RegionCFG",
    "region_cfg", "successor_operands", "DefUseGraph", "DominanceInfo", "PostDominanceInfo",
    "Liveness", "LiveRange",
]
