"""Shared memory layouts over CTAs and with padding: the (``offset``, ``block``) maps that
Triton's shared encodings describe, and where padding puts each element.

A shared layout maps ``offset`` (the element's index in the CTA's buffer, before padding) and
``block`` (the CTA) to tensor coordinates. A padded layout (``#ttg.padded_shared``) then stores
the element at offset ``i`` at ``i + sum_k (i // interval_k) * padding_k``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.layouts.distributed import fit_to_shape, standard_out_dims
from tilecraft.layouts.linear import LinearLayout

__all__ = ["basis_order", "identity_bases", "nvmma_shared_layout", "padded_offset",
           "padded_size", "per_cta_shape", "shared_vector_width", "thread_offsets_map",
           "with_cta_layout"]


def identity_bases(shape: Sequence[int], order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The ``offset`` bases of the row-major-in-``order`` identity over ``shape``: every bit of
    ``order[0]`` first, then those of ``order[1]``, ... (Triton's ``identityStandardND``)."""
    rank = len(shape)
    bases: list[tuple[int, ...]] = []
    for dim in order:
        step = 1
        while step < shape[dim]:
            bases.append(tuple(step if d == dim else 0 for d in range(rank)))
            step *= 2
    return tuple(bases)


def basis_order(bases: Sequence[Sequence[int]], rank: int) -> tuple[int, ...]:
    """The dimensions in the order the bases first move along them (zero bases skipped), then
    the dimensions they never move along, from the last to the first."""
    order: list[int] = []
    for basis in bases:
        moved = next((d for d, c in enumerate(basis) if c), None)
        if moved is not None and moved not in order:
            order.append(moved)
    order += [d for d in reversed(range(rank)) if d not in order]
    return tuple(order)


def padded_offset(offset: int, intervals: Sequence[int], paddings: Sequence[int]) -> int:
    """Where the element at unpadded ``offset`` lives once ``paddings[k]`` elements follow
    every ``intervals[k]`` elements."""
    return offset + sum((offset // interval) * padding
                        for interval, padding in zip(intervals, paddings))


def padded_size(elements: int, intervals: Sequence[int], paddings: Sequence[int]) -> int:
    """The elements a padded buffer of ``elements`` elements takes, with no padding after the
    last element (Triton's ``getPaddedSize``)."""
    size = elements
    for interval, padding in zip(intervals, paddings):
        size += (elements // interval) * padding
        if elements % interval == 0:
            size -= padding
    return size


def _fitted_cga(cga_bases: Sequence[Sequence[int]], shape: Sequence[int]) -> LinearLayout:
    """The ``block`` layout of ``cga_bases`` with the coordinates beyond ``shape`` zeroed
    (those CTAs hold copies)."""
    fitted = [tuple(c if c < size else 0 for c, size in zip(basis, shape)) for basis in cga_bases]
    sizes = [1] * len(shape)
    for basis in fitted:
        for d, coordinate in enumerate(basis):
            sizes[d] = max(sizes[d], 1 << coordinate.bit_length())
    return LinearLayout({"block": fitted}, dict(zip(standard_out_dims(len(shape)), sizes)))


def per_cta_shape(cga_bases: Sequence[Sequence[int]], shape: Sequence[int]) -> tuple[int, ...]:
    """The part of ``shape`` that each CTA holds under the ``block`` bases ``cga_bases``."""
    cga = _fitted_cga(cga_bases, shape)
    return tuple(max(1, size // cga.out_dim_size(name))
                 for name, size in zip(cga.out_dim_names, shape))


def with_cta_layout(cta_layout: LinearLayout, cga_bases: Sequence[Sequence[int]],
                    shape: Sequence[int]) -> LinearLayout:
    """The layout over a whole ``shape`` of a CTA's ``cta_layout`` (over ``offset``, any out-dim
    order) repeated over the CTAs whose ``block`` bases are ``cga_bases`` (Triton's
    ``combineCtaCgaWithShape``): CTA bases beyond ``shape`` broadcast, and the CTA's layout is
    fitted to the part of ``shape`` each CTA holds. Out dims are ``dim0``, ``dim1``, ..."""
    cta = fit_to_shape(cta_layout, per_cta_shape(cga_bases, shape), "offset")
    return (cta * _fitted_cga(cga_bases, shape)).transpose_outs(standard_out_dims(len(shape)))


def nvmma_shared_layout(shape: Sequence[int], swizzle_bytes: int, element_bits: int,
                        transposed: bool) -> LinearLayout:
    """Triton's ``#ttg.nvmma_shared`` over a rank-2 ``shape`` (one CTA): the layout that
    ``wgmma`` and TMA read. The contiguous dim is the last (dim0 when ``transposed``); a *core
    matrix* is 8 rows of ``max(swizzle_bytes, 16)`` bytes along it, where the 16-byte chunk
    ``c`` of row ``r`` is stored at chunk ``c ^ (r / per_phase % max_phase)`` (``per_phase =
    128 / swizzle_bytes``, ``max_phase = swizzle_bytes / 16``; no swizzle for 0). Core
    matrices stack along the rows first, then the next slab of columns follows."""
    if len(shape) != 2:
        raise ValueError(f"an NVMMA shared layout is built over rank 2, got {list(shape)}")
    rows, cols = (shape[1], shape[0]) if transposed else (shape[0], shape[1])
    tile_cols = max(swizzle_bytes, 16) * 8 // element_bits
    if rows < 8 or cols < tile_cols:
        raise ValueError(f"shape {list(shape)} is smaller than one {8}x{tile_cols} core matrix")
    vec = 128 // element_bits
    per_phase = 128 // swizzle_bytes if swizzle_bytes else 1
    max_phase = swizzle_bytes // 16 if swizzle_bytes else 1
    bases: list[tuple[int, int]] = [(0, 1 << i) for i in range(tile_cols.bit_length() - 1)]
    bases += [(row, vec * (row // per_phase % max_phase) % tile_cols) for row in (1, 2, 4)]
    bases += [(1 << i, 0) for i in range(3, rows.bit_length() - 1)]
    bases += [(0, 1 << i) for i in range(tile_cols.bit_length() - 1, cols.bit_length() - 1)]
    if transposed:
        bases = [(c, r) for r, c in bases]
    return LinearLayout({"offset": bases}, {"dim0": shape[0], "dim1": shape[1]})


def thread_offsets_map(shared: LinearLayout, distributed: LinearLayout) -> LinearLayout:
    """``shared⁻¹ ∘ distributed`` restricted to (register, lane, warp) -> offset: where each
    register of each thread lives in a shared buffer of layout ``shared``."""
    composed = shared.invert_and_compose(distributed)
    return composed.sublayout(("register", "lane", "warp"), ("offset",))


def shared_vector_width(shared: LinearLayout, distributed: LinearLayout, element_bytes: int,
                        max_bytes: int = 16) -> int:
    """How many consecutive registers of ``distributed`` a thread moves to or from a buffer
    of layout ``shared`` as one vector of at most ``max_bytes``: they sit at consecutive
    offsets, and every other register, lane and warp moves the offset by a multiple of the
    width (so each vector is aligned)."""
    offsets = thread_offsets_map(shared, distributed)
    registers = offsets.in_dim_size("register")
    width = 1
    while width * 2 * element_bytes <= max_bytes and width * 2 <= registers:
        bits = (width * 2).bit_length() - 1
        consecutive = all(offsets.basis("register", i) == (1 << i,) for i in range(bits))
        aligned = all(basis[0] % (width * 2) == 0
                      for dim in ("register", "lane", "warp")
                      for i, basis in enumerate(offsets.bases.get(dim, ()))
                      if not (dim == "register" and i < bits))
        if not (consecutive and aligned):
            break
        width *= 2
    return width
