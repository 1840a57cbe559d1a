"""The linear layout (`tilecraft.layouts`) of each ``ttg`` layout attribute over a shape: the
one mapping from Triton's encodings to maps that the analyses, the passes and the GPU lowering
share."""

from __future__ import annotations

import functools

from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, BlockedEncodingAttr,
                                     DotOperandEncodingAttr,
                                     LinearEncodingAttr, NVMMASharedEncodingAttr,
                                     NvidiaMmaEncodingAttr,
                                     PaddedSharedEncodingAttr, SharedLinearEncodingAttr,
                                     SliceEncodingAttr, SwizzledSharedEncodingAttr)
from tilecraft.ir import Attribute
from tilecraft.layouts.distributed import (Blocked, amd_mfma_dot_operand_layout,
                                           amd_mfma_layout, blocked_layout,
                                           fma_dot_operand_layout,
                                           nvidia_mma_v2_dot_operand_layout,
                                           nvidia_mma_v2_layout, slice_layout,
                                           standard_out_dims, swizzled_shared_layout)
from tilecraft.layouts.linear import LinearLayout
from tilecraft.layouts.shared import nvmma_shared_layout, per_cta_shape, with_cta_layout

__all__ = ["blocked_parameters", "encoding_layout", "shared_layout"]


def blocked_parameters(encoding: BlockedEncodingAttr) -> Blocked:
    """A ``#ttg.blocked`` attribute's parameters for `tilecraft.layouts`."""
    return Blocked(encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta,
                   encoding.order)


@functools.lru_cache(maxsize=4096)
def encoding_layout(encoding: Attribute | None, shape: tuple[int, ...]) -> LinearLayout | None:
    """The map of ``encoding`` over ``shape``: blocked, slices of mapped parents, NVIDIA mma v2
    and v3, AMD mfma, dot operands of blocked (FMA), mma v2 and v3 and mfma parents, and linear
    layouts; None for the others."""
    if isinstance(encoding, BlockedEncodingAttr):
        return blocked_layout(shape, *blocked_parameters(encoding))
    if isinstance(encoding, SliceEncodingAttr):
        dim = encoding.dim
        parent = encoding_layout(encoding.parent, shape[:dim] + (1,) + shape[dim:])
        return None if parent is None else slice_layout(parent, dim)
    if isinstance(encoding, NvidiaMmaEncodingAttr) and encoding.version_major in (2, 3):
        return nvidia_mma_v2_layout(shape, encoding.warps_per_cta, encoding.instr_shape,
                                    hopper=encoding.version_major == 3)
    if isinstance(encoding, AMDMfmaEncodingAttr):
        return amd_mfma_layout(shape, encoding.warps_per_cta, encoding.instr_shape,
                               encoding.is_transposed, encoding.tiles_per_warp,
                               encoding.element_bit_width)
    if isinstance(encoding, DotOperandEncodingAttr):
        parent = encoding.parent
        if isinstance(parent, BlockedEncodingAttr):
            return fma_dot_operand_layout(blocked_parameters(parent), encoding.op_idx, shape)
        if isinstance(parent, NvidiaMmaEncodingAttr) and (
                parent.version_major == 2 or parent.version_major == 3 and encoding.op_idx == 0):
            return nvidia_mma_v2_dot_operand_layout(shape, parent.warps_per_cta,
                                                    encoding.op_idx, encoding.k_width,
                                                    hopper=parent.version_major == 3)
        if isinstance(parent, AMDMfmaEncodingAttr):
            return amd_mfma_dot_operand_layout(shape, parent.warps_per_cta, parent.instr_shape,
                                               encoding.op_idx, encoding.k_width,
                                               parent.tiles_per_warp)
        return None
    if isinstance(encoding, LinearEncodingAttr):
        return _linear_encoding_layout(encoding, shape)
    return None


def _linear_encoding_layout(encoding: LinearEncodingAttr, shape: tuple[int, ...]) -> LinearLayout:
    """Triton's ``LinearEncodingAttr::toLinearLayout``: the attribute's map fitted to ``shape``.
    A dimension it does not cover gets more register bases (dimensions in the order the
    registers move along, then the last first); coordinates beyond the shape become 0 (they
    broadcast), and register bases that became 0 that way are dropped."""
    rank = len(shape)
    bases = {"register": [tuple(v) for v in encoding.register],
             "lane": [tuple(v) for v in encoding.lane],
             "warp": [tuple(v) for v in encoding.warp]}
    every = [b for vs in bases.values() for b in vs]
    sizes = [1 << max((b[d] for b in every), default=0).bit_length() for d in range(rank)]
    order = [d for d in dict.fromkeys(
        next(d for d in range(rank) if b[d]) for b in bases["register"] if any(b))]
    order += [d for d in reversed(range(rank)) if d not in order]
    for d in order:
        while sizes[d] < shape[d]:
            bases["register"].append(tuple(sizes[d] if i == d else 0 for i in range(rank)))
            sizes[d] *= 2
    fitted: dict[str, list[tuple[int, ...]]] = {}
    for name, vectors in bases.items():
        kept = []
        for vector in vectors:
            clipped = tuple(c if c < shape[i] else 0 for i, c in enumerate(vector))
            if name != "register" or any(clipped) or not any(vector):
                kept.append(clipped)
        fitted[name] = kept
    return LinearLayout(fitted, dict(zip(standard_out_dims(rank), shape)))


def shared_layout(encoding: Attribute | None, shape: tuple[int, ...]) -> LinearLayout | None:
    """The (``offset``, ``block``) map of a shared ``encoding`` over an allocation of ``shape``
    (a padded layout's map, before padding, is its own and ignores ``shape``): swizzled,
    padded, linear and rank-2 NVMMA shared layouts (not fp4-padded); None for the others."""
    if (isinstance(encoding, NVMMASharedEncodingAttr) and len(shape) == 2
            and not encoding.fp4_padded):
        cta = nvmma_shared_layout(per_cta_shape(encoding.cga_layout, shape),
                                  encoding.swizzling_byte_width, encoding.element_bit_width,
                                  encoding.transposed)
        return with_cta_layout(cta, encoding.cga_layout, shape)
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
