"""The linear layout (`tilecraft.layouts`) of each ``ttg`` layout attribute over a shape: the
one mapping from Triton's encodings to maps that the analyses, the passes and the GPU lowering
share."""

from __future__ import annotations

import functools

from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     LinearEncodingAttr, NvidiaMmaEncodingAttr,
                                     PaddedSharedEncodingAttr, SharedLinearEncodingAttr,
                                     SliceEncodingAttr, SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute
from tilecraft.layouts.distributed import (Blocked, blocked_layout, fma_dot_operand_layout,
                                           nvidia_mma_v2_dot_operand_layout,
                                           nvidia_mma_v2_layout, slice_layout,
                                           standard_out_dims, swizzled_shared_layout)
from tilecraft.layouts.linear import LinearLayout
from tilecraft.layouts.shared import per_cta_shape, with_cta_layout

__all__ = ["blocked_parameters", "encoding_layout", "shared_layout"]


def blocked_parameters(encoding: BlockedEncodingAttr) -> Blocked:
    """A ``#ttg.blocked`` attribute's parameters for `tilecraft.layouts`."""
    return Blocked(encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta,
                   encoding.order)


@functools.lru_cache(maxsize=4096)
def encoding_layout(encoding: Attribute | None, shape: tuple[int, ...]) -> LinearLayout | None:
    """The map of ``encoding`` over ``shape``: blocked, slices of mapped parents, mma v2, dot
    operands of blocked (FMA) and mma v2 parents, and linear layouts; None for the others."""
    if isinstance(encoding, BlockedEncodingAttr):
        return blocked_layout(shape, *blocked_parameters(encoding))
    if isinstance(encoding, SliceEncodingAttr):
        dim = encoding.dim
        parent = encoding_layout(encoding.parent, shape[:dim] + (1,) + shape[dim:])
        return None if parent is None else slice_layout(parent, dim)
    if isinstance(encoding, NvidiaMmaEncodingAttr) and encoding.version_major == 2:
        return nvidia_mma_v2_layout(shape, encoding.warps_per_cta, encoding.instr_shape)
    if isinstance(encoding, DotOperandEncodingAttr):
        parent = encoding.parent
        if isinstance(parent, BlockedEncodingAttr):
            return fma_dot_operand_layout(blocked_parameters(parent), encoding.op_idx, shape)
        if isinstance(parent, NvidiaMmaEncodingAttr) and parent.version_major == 2:
            return nvidia_mma_v2_dot_operand_layout(shape, parent.warps_per_cta,
                                                    encoding.op_idx, encoding.k_width)
        return None
    if isinstance(encoding, LinearEncodingAttr):
        bases = {"register": encoding.register, "lane": encoding.lane, "warp": encoding.warp}
        return LinearLayout({k: [tuple(v) for v in vs] for k, vs in bases.items()},
                            dict(zip(standard_out_dims(len(shape)), shape)))
    return None


def shared_layout(encoding: Attribute | None, shape: tuple[int, ...]) -> LinearLayout | None:
    """The (``offset``, ``block``) map of a shared ``encoding`` over an allocation of ``shape``
    (a padded layout's map, before padding, is its own and ignores ``shape``): swizzled,
    padded and linear shared layouts; None for the others."""
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        cta = swizzled_shared_layout(per_cta_shape(encoding.cga_layout, shape), encoding.vec,
                                     encoding.per_phase, encoding.max_phase, encoding.order)
        return with_cta_layout(cta, encoding.cga_layout, shape)
    if isinstance(encoding, PaddedSharedEncodingAttr):
        bases = {"offset": encoding.offset, "block": encoding.block}
        return LinearLayout(bases, dict(zip(standard_out_dims(len(shape)), encoding.shape)))
    if isinstance(encoding, SharedLinearEncodingAttr):
        bases = {"offset": encoding.offset, "block": encoding.block}
        sizes = [1 << max((b[d] for b in (*encoding.offset, *encoding.block)), default=0).bit_length()
                 for d in range(len(shape))]
        return LinearLayout(bases, dict(zip(standard_out_dims(len(shape)), sizes)))
    return None
