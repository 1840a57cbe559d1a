"""Linear layouts of Triton's encodings, built from plain parameters.

Distributed layouts have the input dims ``register``, ``lane``, ``warp`` (in that order; one CTA,
so no ``block`` dim) and the output dims ``dim0 .. dim{rank-1}`` whose sizes are the tensor's
shape. Shared layouts have the single input dim ``offset`` (in elements).

Every function here follows Triton's ``toLinearLayout`` for the same encoding bit for bit, so
register ``i`` of a thread holds the same element as in Triton:

* The CTA tile is built per hardware dim, fastest tensor dim first (``order[0]`` first).
* The tile is then fitted to the shape (Triton's ``combineCtaCgaWithShape`` for one CTA): along
  a dim where the tile is smaller than the shape, register bases are appended that repeat the
  tile (dims taken in the tile's dim order: ``order`` for blocked layouts); along a dim where
  the tile is larger, the largest bases along that dim are zeroed until it fits (registers,
  lanes or warps: those then hold duplicates, see ``LinearLayout.free_variable_masks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tilecraft.layouts.linear import LinearLayout, _log2, identity_1d, zeros_1d

__all__ = [
    "Blocked",
    "amd_mfma_dot_operand_layout",
    "amd_mfma_layout",
    "blocked_layout",
    "fma_dot_operand_layout",
    "insert_out_dim",
    "nvidia_mma_v2_dot_operand_layout",
    "nvidia_mma_v2_layout",
    "slice_layout",
    "standard_out_dims",
    "swizzled_shared_layout",
]


def standard_out_dims(rank: int) -> tuple[str, ...]:
    """``("dim0", ..., "dim{rank-1}")``."""
    return tuple(f"dim{i}" for i in range(rank))


class Blocked(NamedTuple):
    """The parameters of Triton's ``#ttg.blocked`` encoding (one CTA)."""

    size_per_thread: Sequence[int]
    threads_per_warp: Sequence[int]
    warps_per_cta: Sequence[int]
    order: Sequence[int]

    def layout(self, shape: Sequence[int]) -> LinearLayout:
        """``blocked_layout(shape, *self)``."""
        return blocked_layout(shape, *self)


def _check_rank(shape: Sequence[int], **params: Sequence[int]) -> None:
    for name, values in params.items():
        if len(values) != len(shape):
            raise ValueError(f"{name} {tuple(values)} does not have rank {len(shape)}")


def _check_order(order: Sequence[int], rank: int) -> None:
    if sorted(order) != list(range(rank)):
        raise ValueError(f"order {tuple(order)} is not a permutation of 0..{rank - 1}")


def _identity_standard(in_dim: str, sizes: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """Identity from `in_dim` onto the dims, ``order[0]`` fastest; out dims in `order`'s order."""
    layout = LinearLayout({}, {})
    for d in order:
        layout = layout * identity_1d(sizes[d], in_dim, f"dim{d}")
    return layout


def fit_to_shape(layout: LinearLayout, shape: Sequence[int], repeat_dim: str) -> LinearLayout:
    """Repeat (over `repeat_dim`) or broadcast the tile `layout` to exactly `shape`; the result
    has the standard out dims in order."""
    names = standard_out_dims(len(shape))
    for d, size in enumerate(shape):
        _log2(size, f"shape[{d}]")
    wanted = dict(zip(names, shape))
    for name in layout.out_dim_names:
        have = layout.out_dim_size(name)
        if have < wanted[name]:
            layout = layout * identity_1d(wanted[name] // have, repeat_dim, name)
    out_names = layout.out_dim_names
    bases = layout.bases
    for k, name in enumerate(out_names):
        have = layout.out_dim_size(name)
        if have <= wanted[name]:
            continue
        along = [(vec[k], d, i) for d, vecs in bases.items() for i, vec in enumerate(vecs) if vec[k]]
        along.sort(key=lambda t: -t[0])
        for _, d, i in along:
            if have <= wanted[name]:
                break
            vec = list(bases[d][i])
            vec[k] = 0
            bases[d][i] = tuple(vec)
            have >>= 1
    fitted = LinearLayout(bases, {n: wanted[n] for n in out_names})
    return fitted.transpose_outs(names)


def blocked_layout(
    shape: Sequence[int],
    size_per_thread: Sequence[int],
    threads_per_warp: Sequence[int],
    warps_per_cta: Sequence[int],
    order: Sequence[int],
) -> LinearLayout:
    """Triton's ``#ttg.blocked`` over a tensor of `shape`.

    Registers, then lanes, then warps each cover their sizes along ``order[0]`` first; the tile
    is fitted to `shape` as the module docstring says (extra registers repeat the tile, fastest
    dim first; excess lanes/warps, and registers, broadcast).
    """
    _check_rank(shape, size_per_thread=size_per_thread, threads_per_warp=threads_per_warp,
                warps_per_cta=warps_per_cta, order=order)
    _check_order(order, len(shape))
    tile = (
        _identity_standard("register", size_per_thread, order)
        * _identity_standard("lane", threads_per_warp, order)
        * _identity_standard("warp", warps_per_cta, order)
    )
    return fit_to_shape(tile, shape, "register")


def slice_layout(parent: LinearLayout, dim: int) -> LinearLayout:
    """Triton's ``#ttg.slice<{dim, parent}>``: the parent's map with output `dim` dropped.

    Convention: `parent` is the parent encoding's layout for the sliced shape with `dim`
    re-inserted; Triton re-inserts it with size 1, and for blocked and mma parents any size
    gives the same result. Output dims after `dim` are renumbered (``dim{k+1}`` becomes
    ``dim{k}``); register bases that are zero afterwards are removed (so the slice has no
    duplicated registers), zero lane and warp bases are kept (those threads hold copies).
    """
    rank = len(parent.out_dim_names)
    if parent.out_dim_names != standard_out_dims(rank):
        raise ValueError(f"slice_layout: parent out dims {parent.out_dim_names} are not standard")
    if not 0 <= dim < rank:
        raise ValueError(f"slice_layout: dim {dim} is outside the parent's rank {rank}")
    keep = [k for k in range(rank) if k != dim]
    bases = {}
    for in_dim, vectors in parent.bases.items():
        projected = [tuple(v[k] for k in keep) for v in vectors]
        if in_dim == "register":
            projected = [v for v in projected if any(v)]
        bases[in_dim] = projected
    names = standard_out_dims(rank - 1)
    return LinearLayout(bases, {n: parent.out_dim_size(f"dim{k}") for n, k in zip(names, keep)})


def insert_out_dim(layout: LinearLayout, dim: int) -> LinearLayout:
    """`layout` (standard out dims) with a size-1 output dim inserted at position `dim`: the
    same elements seen through ``expand_dims(x, dim)``; later dims are renumbered up."""
    rank = len(layout.out_dim_names)
    if layout.out_dim_names != standard_out_dims(rank):
        raise ValueError(f"insert_out_dim: out dims {layout.out_dim_names} are not standard")
    if not 0 <= dim <= rank:
        raise ValueError(f"insert_out_dim: dim {dim} is outside 0..{rank}")
    bases = {d: [(*v[:dim], 0, *v[dim:]) for v in vs] for d, vs in layout.bases.items()}
    sizes = [layout.out_dim_size(n) for n in layout.out_dim_names]
    sizes.insert(dim, 1)
    return LinearLayout(bases, dict(zip(standard_out_dims(rank + 1), sizes)))


def _broadcast_standard(
    in_dim: str, sizes: Sequence[int], order: Sequence[int], zero_dim: int
) -> LinearLayout:
    """Like `_identity_standard`, but the bits along `zero_dim` broadcast (map to 0)."""
    layout = LinearLayout({}, {})
    for d in order:
        factor = zeros_1d if d == zero_dim else identity_1d
        layout = layout * factor(sizes[d], in_dim, f"dim{d}")
    return layout


def fma_dot_operand_layout(parent: Blocked, op_idx: int, shape: Sequence[int]) -> LinearLayout:
    """Triton's ``#ttg.dot_op<{opIdx, parent = #blocked}>`` (FMA dot) over `shape`.

    Operand A (`op_idx` 0, shape ``[..., M, K]``) or B (1, ``[..., K, N]``) of a dot whose
    accumulator has the blocked layout `parent`: every thread holds all of K for the rows
    (columns) of the accumulator elements it owns; lanes and warps that the parent spreads along
    the other operand's dim (N for A, M for B) broadcast. Registers run K-fastest when
    ``parent.order`` puts K first.
    """
    if op_idx not in (0, 1):
        raise ValueError(f"fma_dot_operand_layout: op_idx must be 0 or 1, got {op_idx}")
    rank = len(shape)
    _check_rank(shape, **parent._asdict())
    _check_order(parent.order, rank)
    k_dim = rank - 1 if op_idx == 0 else rank - 2
    regs = list(parent.size_per_thread)
    regs[k_dim] = shape[k_dim]
    tile = (
        _identity_standard("register", regs, parent.order)
        * _broadcast_standard("lane", parent.threads_per_warp, parent.order, k_dim)
        * _broadcast_standard("warp", parent.warps_per_cta, parent.order, k_dim)
    )
    return fit_to_shape(tile, shape, "register")


def _matrix_order(rank: int, row_major: bool) -> list[int]:
    order = list(range(rank - 1, -1, -1))
    if not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def _mma_tile(tile_shape: Sequence[int], k_width: int, order: Sequence[int]) -> LinearLayout:
    """One mma.sync tile (Triton's ``nvidiaMmaTile``): `k_width` registers and 4 lanes along
    the inner dim ``order[0]``, 8 lanes along the outer dim ``order[1]``, then register repeats
    along the outer, then the inner dim. Out dims are listed in `order`."""
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    if m % 8 or n % (4 * k_width):
        raise ValueError(f"mma tile {tuple(tile_shape)} does not fit k_width={k_width}")
    layout = _identity_standard("register", [1] * len(order), order)
    for size, in_dim, d in (
        (k_width, "register", inner),
        (4, "lane", inner),
        (8, "lane", outer),
        (m // 8, "register", outer),
        (n // (4 * k_width), "register", inner),
    ):
        layout = layout * identity_1d(size, in_dim, f"dim{d}")
    return layout


def nvidia_mma_v2_layout(
    shape: Sequence[int], warps_per_cta: Sequence[int], instr_shape: Sequence[int] = (16, 8),
    *, hopper: bool = False
) -> LinearLayout:
    """Triton's ``#ttg.nvidia_mma`` accumulator over `shape` (rank 2 or 3): version 2, or
    Hopper's version 3 with ``hopper``.

    One tile is ``instr_shape`` (the last two dims, 16x8 for mma.sync.m16n8k*; the M and N of
    Hopper's (M, N, K)): c0,c1 at row ``lane/4``, columns ``2*(lane%4)+{0,1}``; c2,c3 eight rows
    below. Warps are placed row-major (last dim fastest), column-major on Hopper; tiles repeat
    along the last dim first.
    """
    rank = len(shape)
    _check_rank(shape, warps_per_cta=warps_per_cta)
    tile_shape = [1] * (rank - 2) + list(instr_shape[:2] if hopper else instr_shape[-2:])
    order = _matrix_order(rank, row_major=True)
    tile = _mma_tile(tile_shape, 2, order)
    warps = _identity_standard("warp", warps_per_cta,
                               _matrix_order(rank, row_major=not hopper))
    return fit_to_shape(tile * warps.transpose_outs(tile.out_dim_names), shape, "register")


AMD_WAVE_SIZE = 64


def amd_mfma_layout(
    shape: Sequence[int], warps_per_cta: Sequence[int], instr_shape: Sequence[int],
    transposed: bool, tiles_per_warp: Sequence[int] = (), element_bits: int = 32,
) -> LinearLayout:
    """Triton's ``#ttg.amd_mfma`` accumulator over `shape` (rank 2 or 3, a batch dim first).

    One instruction's M x N output (``instr_shape[:2]``) is spread over a 64-lane wave: each
    lane holds 4 consecutive rows of one column (one row for 64-bit elements), lanes cover the
    N columns and then further row groups; the 4-row groups repeat down the tile in registers.
    ``transposed`` swaps the roles of M and N (a lane holds consecutive columns of one row).
    Tiles then repeat along N (``tiles_per_warp``, warps, the rest of the tensor), then along M
    (``tiles_per_warp``, warps); a batch dim takes the remaining warps.
    """
    rank = len(shape)
    _check_rank(shape, warps_per_cta=warps_per_cta)
    if rank not in (2, 3):
        raise ValueError(f"amd_mfma_layout: rank {rank} is not 2 or 3")
    m_dim, n_dim = f"dim{rank - 2}", f"dim{rank - 1}"
    m, n = instr_shape[0], instr_shape[1]
    height = 1 if element_bits == 64 else 4
    tiles = (m * n) // (AMD_WAVE_SIZE * height)
    rows, cols = (n_dim, m_dim) if transposed else (m_dim, n_dim)
    lanes_along = m if transposed else n
    layout = LinearLayout({}, {})
    for size, in_dim, out_dim in (
        (height, "register", rows),
        (lanes_along, "lane", cols),
        (AMD_WAVE_SIZE // lanes_along, "lane", rows),
        (max(tiles, 1), "register", rows),
    ):
        layout = layout * identity_1d(size, in_dim, out_dim)
    tiles_per_warp = list(tiles_per_warp) or [1] * rank
    warps_m, warps_n = warps_per_cta[rank - 2], warps_per_cta[rank - 1]
    per_warp_m, per_warp_n = tiles_per_warp[rank - 2], tiles_per_warp[rank - 1]
    for size, in_dim, out_dim in (
        (per_warp_n, "register", n_dim),
        (warps_n, "warp", n_dim),
        (max(shape[rank - 1] // (n * warps_n * per_warp_n), 1), "register", n_dim),
        (per_warp_m, "register", m_dim),
        (warps_m, "warp", m_dim),
    ):
        layout = layout * identity_1d(size, in_dim, out_dim)
    if rank == 3:
        layout = layout * identity_1d(warps_per_cta[0], "warp", "dim0")
    return fit_to_shape(layout, shape, "register")


def amd_mfma_dot_operand_layout(
    shape: Sequence[int], warps_per_cta: Sequence[int], instr_shape: Sequence[int],
    op_idx: int, k_width: int, tiles_per_warp: Sequence[int] = (),
) -> LinearLayout:
    """Triton's ``#ttg.dot_op<{opIdx, parent = #amd_mfma, kWidth}>`` over `shape` (rank 2 or 3).

    A lane holds `k_width` consecutive elements along K; lanes cover the instruction's non-K
    size (M for A, `op_idx` 0; N for B) and then further K groups; registers repeat the tile
    along K up to the operand's K, then along the non-K dim (``tiles_per_warp``). Warps are
    placed as in the accumulator (N first, then M, then batch), which broadcasts those along K.
    """
    rank = len(shape)
    _check_rank(shape, warps_per_cta=warps_per_cta)
    if rank not in (2, 3):
        raise ValueError(f"amd_mfma_dot_operand_layout: rank {rank} is not 2 or 3")
    k_index, non_k_index = (rank - 1, rank - 2) if op_idx == 0 else (rank - 2, rank - 1)
    k_dim, non_k_dim = f"dim{k_index}", f"dim{non_k_index}"
    m, n = instr_shape[0], instr_shape[1]
    non_k = m if op_idx == 0 else n
    k_tile = AMD_WAVE_SIZE // non_k * k_width
    repeats = 1
    if (m, n, op_idx) in ((64, 4, 0), (4, 64, 1)):
        repeats = 16
        k_tile *= 16
    tiles_per_warp = list(tiles_per_warp) or [1] * rank
    layout = LinearLayout({}, {})
    for size, in_dim, out_dim in (
        (k_width, "register", k_dim),
        (non_k, "lane", non_k_dim),
        (AMD_WAVE_SIZE // non_k, "lane", k_dim),
        (repeats, "register", k_dim),
        (max(shape[k_index] // k_tile, 1), "register", k_dim),
        (tiles_per_warp[non_k_index], "register", non_k_dim),
    ):
        layout = layout * identity_1d(size, in_dim, out_dim)
    if rank == 3:
        layout = layout * identity_1d(1, "register", "dim0")
    warps = _identity_standard("warp", warps_per_cta, list(range(rank - 1, -1, -1)))
    return fit_to_shape(layout * warps.transpose_outs(layout.out_dim_names), shape, "register")


def nvidia_mma_v2_dot_operand_layout(
    shape: Sequence[int], warps_per_cta: Sequence[int], op_idx: int, k_width: int,
    *, hopper: bool = False
) -> LinearLayout:
    """Triton's ``#ttg.dot_op<{opIdx, parent = #nvidia_mma, kWidth}>`` over `shape`, for a
    version 2 parent or (``hopper``) a version 3 one, which takes only A in registers.

    A (`op_idx` 0) tiles are 16 x 8*k_width, B (1) tiles 8*k_width x 8, each thread holding
    `k_width` consecutive K elements per register group; tiles repeat K-fastest. Warps follow the
    accumulator's (`warps_per_cta` of the mma parent, column-major on Hopper), broadcast along
    K.
    """
    if op_idx not in (0, 1):
        raise ValueError(f"op_idx must be 0 or 1, got {op_idx}")
    rank = len(shape)
    _check_rank(shape, warps_per_cta=warps_per_cta)
    tile_shape = [1] * rank
    if op_idx == 0:
        tile_shape[rank - 2], tile_shape[rank - 1] = 16, 8 * k_width
    else:
        tile_shape[rank - 2], tile_shape[rank - 1] = 8 * k_width, 8
    order = _matrix_order(rank, row_major=op_idx == 0)
    tile = _mma_tile(tile_shape, k_width, order)
    k_dim = rank - 1 if op_idx == 0 else rank - 2
    warps = _broadcast_standard(
        "warp", warps_per_cta, _matrix_order(rank, row_major=not hopper), k_dim
    ).transpose_outs(tile.out_dim_names)
    return fit_to_shape(tile * warps, shape, "register")


def swizzled_shared_layout(
    shape: Sequence[int], vec: int, per_phase: int, max_phase: int, order: Sequence[int]
) -> LinearLayout:
    """Triton's ``#ttg.swizzled_shared``: input dim ``offset`` (elements) -> coordinates.

    Along the two fastest dims (``order[0]`` = columns, ``order[1]`` = rows), the element at
    (row, col) lives at offset ``row * cols + (col ^ (vec * ((row // per_phase) % max_phase)) %
    cols)``; further dims follow in `order`. `vec`, `per_phase`, `max_phase` are powers of two.
    """
    for name, value in (("vec", vec), ("per_phase", per_phase), ("max_phase", max_phase)):
        _log2(value, name)
    rank = len(shape)
    _check_rank(shape, order=order)
    _check_order(order, rank)
    if rank == 1:
        return fit_to_shape(identity_1d(shape[0], "offset", "dim0"), shape, "offset")
    col_dim, row_dim = order[0], order[1]
    cols, rows = shape[col_dim], shape[row_dim]
    _log2(cols, "column count")
    _log2(rows, "row count")
    offsets = [(0, 1 << i) for i in range(cols.bit_length() - 1)]
    offsets += [
        (1 << i, (vec * (((1 << i) // per_phase) % max_phase)) % cols)
        for i in range(rows.bit_length() - 1)
    ]
    layout = LinearLayout({"offset": offsets}, {f"dim{row_dim}": rows, f"dim{col_dim}": cols})
    for d in order[2:]:
        layout = layout * identity_1d(shape[d], "offset", f"dim{d}")
    return fit_to_shape(layout, shape, "offset")


def unjoin_registers(layout: LinearLayout, dim: int) -> LinearLayout | None:
    """The layout of a tensor half as long along output dim number ``dim`` whose elements each
    hold a pair of ``layout``'s neighbours along it (Triton's backward ``tryJoinOnAxis``, as
    for unpacking fp4 pairs): a register basis stepping by 1 along ``dim`` is dropped and the
    other bases' coordinates along ``dim`` halved. None when no register holds such a pair."""
    registers = layout.bases.get("register", [])
    pair = next((i for i, basis in enumerate(registers) if basis[dim] == 1), None)
    if pair is None:
        return None
    bases = {
        in_dim: [tuple(c // 2 if k == dim else c for k, c in enumerate(basis))
                 for i, basis in enumerate(vectors) if in_dim != "register" or i != pair]
        for in_dim, vectors in layout.bases.items()
    }
    name = layout.out_dim_names[dim]
    return LinearLayout(bases, {n: s // 2 if n == name else s for n, s in layout.out_dims.items()})
