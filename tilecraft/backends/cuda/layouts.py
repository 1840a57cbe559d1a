"""The linear layout of a tensor type (`tilecraft.dialects.ttg_layouts`), with an error for
types the GPU lowering cannot map."""

from __future__ import annotations

from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.ir import RankedTensorType
from tilecraft.layouts.linear import LinearLayout


class LayoutError(ValueError):
    """A tensor type without an encoding the GPU lowering can map."""


def layout_of(t: RankedTensorType, num_warps: int | None = None) -> LinearLayout:
    """The layout of the tensor type ``t`` (``num_warps`` is only checked against it)."""
    if t.encoding is None:
        raise LayoutError(f"the tensor type {t} has no layout encoding: run "
                          "convert-triton-to-tritongpu first")
    layout = encoding_layout(t.encoding, tuple(t.shape))
    if layout is None:
        raise LayoutError(f"the CUDA backend has no lowering for the layout {t.encoding}")
    if num_warps is not None and layout.in_dim_size("warp") != num_warps:
        raise LayoutError(f"the layout of {t} is for {layout.in_dim_size('warp')} warps, "
                          f"the kernel has {num_warps}")
    return layout
