"""How many bytes of shared memory each op's GPU lowering uses as scratch space: the sizes the
shared-memory allocation (`tilecraft.analysis.allocation`) places for this backend, so that each
op finds its buffer at its own offset and barriers go only where buffers are reused
(`tilecraft.analysis.membar`). Every rule follows the lowering of its op; the lowering checks
that it never asks for more than was placed (`GPULowering.shared_base`).
"""

from __future__ import annotations

from tilecraft.ir import Operation, RankedTensorType
from tilecraft.transforms.tma_lowering import TENSORMAP_BYTES

from .layouts import layout_of
from .reductions import axis_bits
from .scratch import Storage, packed
from .shapes import PROJECTIONS, register_selection, reshape_keeps_registers
from .shuffles import shuffle_plan

# the ops that move their elements through shared memory, with their buffer's numel
_THROUGH_SHARED = {
    "tt.reshape": lambda op: _numel(op.operands[0].type),
    "tt.join": lambda op: 2 * _numel(op.operands[0].type),
    "tt.split": lambda op: _numel(op.operands[0].type),
    "tt.cat": lambda op: _numel(op.results[0].type),
    "tt.gather": lambda op: _numel(op.operands[0].type),
}


def _numel(t: RankedTensorType) -> int:
    count = 1
    for size in t.shape:
        count *= size
    return count


def scratch_bytes(op: Operation) -> int:
    """The scratch bytes the lowering of ``op`` uses (0: none)."""
    name = op.name
    if name in PROJECTIONS:
        source, result = op.operands[0].type, op.results[0].type
        src_layout, dst_layout = layout_of(source), layout_of(result)
        if register_selection(src_layout, dst_layout, PROJECTIONS[name](op)) is not None:
            return 0
        if name == "ttg.convert_layout" and shuffle_plan(src_layout, dst_layout) is not None:
            return 0
        return _numel(source if name == "tt.broadcast" else result) * Storage.of(result).size
    if name == "tt.reshape" and reshape_keeps_registers(op):
        return 0
    if name in _THROUGH_SHARED:
        return _THROUGH_SHARED[name](op) * Storage.of(op.results[0].type).size
    if name == "tt.reduce":
        return _reduce_bytes(op)
    if name == "tt.scan":
        numel = _numel(op.operands[0].type)
        return packed([numel * Storage.of(v.type).size for v in op.operands])[1]
    if name in ("tt.atomic_rmw", "tt.atomic_cas"):
        return _atomic_bytes(op)
    if name == "tt.histogram":
        return 4 * op.results[0].type.shape[0]
    if name == "ttng.tensormap_create":
        return TENSORMAP_BYTES  # the map is built here before it is copied to global memory
    return 0


def _reduce_bytes(op: Operation) -> int:
    """Partials of the warps along the axis, for every element off the axis."""
    axis = int(op.axis)
    layout = layout_of(op.operands[0].type)
    try:
        warps = 1 << len(axis_bits(layout, "warp", axis))
    except ValueError:
        return 0  # refused by the lowering with its own message
    if warps == 1:
        return 0
    shape = list(op.operands[0].type.shape)
    shape[axis] = 1
    numel = 1
    for size in shape:
        numel *= size
    return packed([warps * numel * Storage.of(v.type).size for v in op.operands])[1]


def _atomic_bytes(op: Operation) -> int:
    """A scalar atomic broadcasts thread 0's old value; a tensor atomic whose elements several
    threads hold gives its copies the representative's old values."""
    result = op.results[0]
    if not isinstance(result.type, RankedTensorType):
        return Storage.of(result.type).size
    masks = layout_of(result.type).free_variable_masks()
    if not (masks.get("lane") or masks.get("warp")) or result.use_empty():
        return 0
    return _numel(result.type) * Storage.of(result.type).size


__all__ = ["scratch_bytes"]
