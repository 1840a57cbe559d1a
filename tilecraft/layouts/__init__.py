"""Linear layouts: hardware indices (register, lane, warp, offset) -> tensor coordinates, as
GF(2)-linear maps (DESIGN.md principle 3). Pure Python; nothing here depends on the rest of
tilecraft.

`linear` holds the `LinearLayout` class and its algebra, `distributed` the layouts of Triton's
encodings (blocked, slice, FMA and mma dot operands, swizzled shared), `shared` the shared
layouts over CTAs and with padding, `conversion` what a layout
conversion needs (vector widths, register maps, the kind of data movement).
"""

from __future__ import annotations

from tilecraft.layouts.conversion import (
    ConversionPlan,
    contiguous_registers,
    conversion_plan,
    register_map,
    registers_by_coordinate,
)
from tilecraft.layouts.distributed import (
    Blocked,
    blocked_layout,
    fma_dot_operand_layout,
    insert_out_dim,
    nvidia_mma_v2_dot_operand_layout,
    nvidia_mma_v2_layout,
    slice_layout,
    standard_out_dims,
    swizzled_shared_layout,
    unjoin_registers,
)
from tilecraft.layouts.shared import (
    basis_order,
    identity_bases,
    padded_offset,
    padded_size,
    per_cta_shape,
    with_cta_layout,
)
from tilecraft.layouts.linear import LinearLayout, identity_1d, identity_nd, zeros_1d

__all__ = [
    "Blocked",
    "ConversionPlan",
    "LinearLayout",
    "basis_order",
    "blocked_layout",
    "contiguous_registers",
    "conversion_plan",
    "fma_dot_operand_layout",
    "identity_1d",
    "identity_bases",
    "identity_nd",
    "insert_out_dim",
    "nvidia_mma_v2_dot_operand_layout",
    "nvidia_mma_v2_layout",
    "padded_offset",
    "padded_size",
    "per_cta_shape",
    "register_map",
    "registers_by_coordinate",
    "slice_layout",
    "standard_out_dims",
    "swizzled_shared_layout",
    "unjoin_registers",
    "with_cta_layout",
    "zeros_1d",
]
