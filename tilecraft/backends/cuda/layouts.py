"""The linear layout of a tensor type's encoding (`tilecraft.layouts`), cached per (encoding,
shape): ``#ttg.blocked``, ``#ttg.slice`` of any of them, ``#ttg.dot_op`` of a blocked parent
(FMA dots) and ``#ttg.linear``."""

from __future__ import annotations

import functools

from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     LinearEncodingAttr, SliceEncodingAttr)
from tilecraft.ir import RankedTensorType
from tilecraft.layouts.distributed import (Blocked, blocked_layout, fma_dot_operand_layout,
                                           slice_layout, standard_out_dims)
from tilecraft.layouts.linear import LinearLayout


class LayoutError(ValueError):
    """A tensor type without an encoding the GPU lowering can map."""


def layout_of(t: RankedTensorType, num_warps: int | None = None) -> LinearLayout:
    """The layout of the tensor type ``t`` (``num_warps`` is only checked against it)."""
    if t.encoding is None:
        raise LayoutError(f"the tensor type {t} has no layout encoding: run "
                          "convert-triton-to-tritongpu first")
    layout = encoding_layout(t.encoding, tuple(t.shape))
    if num_warps is not None and layout.in_dim_size("warp") != num_warps:
        raise LayoutError(f"the layout of {t} is for {layout.in_dim_size('warp')} warps, "
                          f"the kernel has {num_warps}")
    return layout


def blocked_parameters(encoding: BlockedEncodingAttr) -> Blocked:
    return Blocked(encoding.size_per_thread, encoding.threads_per_warp,
                   encoding.warps_per_cta, encoding.order)


@functools.lru_cache(maxsize=4096)
def encoding_layout(encoding, shape: tuple[int, ...]) -> LinearLayout:
    """The layout of ``encoding`` over ``shape``."""
    if isinstance(encoding, BlockedEncodingAttr):
        return blocked_layout(shape, *blocked_parameters(encoding))
    if isinstance(encoding, SliceEncodingAttr):
        dim = encoding.dim
        parent_shape = shape[:dim] + (1,) + shape[dim:]
        return slice_layout(encoding_layout(encoding.parent, parent_shape), dim)
    if isinstance(encoding, DotOperandEncodingAttr) and \
            isinstance(encoding.parent, BlockedEncodingAttr):
        return fma_dot_operand_layout(blocked_parameters(encoding.parent), encoding.op_idx,
                                      shape)
    if isinstance(encoding, LinearEncodingAttr):
        bases = {"register": encoding.register, "lane": encoding.lane, "warp": encoding.warp}
        return LinearLayout({k: [tuple(v) for v in vs] for k, vs in bases.items()},
                            dict(zip(standard_out_dims(len(shape)), shape)))
    raise LayoutError(f"the CUDA backend has no lowering for the layout {encoding}")
