"""What moving a tensor from one distributed layout to another costs, computed from the maps.

All functions take layouts with the input dims ``register``, ``lane``, ``warp`` (and optionally
``block``) and compare them element by element: an input dim one layout lacks counts as size 1
(every thread of that dim holds the same thing), and a dim with fewer bits in one layout is
padded with zero bases (its extra hardware threads hold copies).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from tilecraft.layouts.linear import LinearLayout, _Solver

__all__ = ["ConversionPlan", "contiguous_registers", "conversion_plan", "register_map"]

_THREAD_DIMS = ("lane", "warp", "block")

ConversionKind = Literal["none", "register", "shuffle", "shared"]


def contiguous_registers(layout: LinearLayout, dim: int | str) -> int:
    """The widest per-thread vector along output `dim` (an index into ``out_dim_names`` or a
    name): the largest power of two ``v`` such that registers ``0 .. v-1`` hold the elements
    ``0 .. v-1`` along `dim` (relative to register 0's element) and 0 along the other dims.
    """
    k = layout.out_dim_names.index(dim) if isinstance(dim, str) else dim
    rank = len(layout.out_dim_names)
    bits = 0
    for bit in range(layout.in_dim_bits("register")):
        want = tuple((1 << bit) if j == k else 0 for j in range(rank))
        if layout.basis("register", bit) != want:
            break
        bits += 1
    return 1 << bits


class ConversionPlan(NamedTuple):
    """How to convert a tensor from layout `src` to layout `dst`.

    ``kind`` is the cheapest mechanism that suffices:
      * ``"none"``: the layouts are the same map;
      * ``"register"``: each thread already holds every element it needs, at a register index
        that does not depend on the thread: ``register_map[r]`` is the src register that
        holds dst register ``r``;
      * ``"shuffle"``: every element a warp needs is held by the same warp (and block) in src:
        lane shuffles suffice;
      * ``"shared"``: otherwise (a round trip through shared memory).
    """

    kind: ConversionKind
    register_map: tuple[int, ...] | None = None


def _padded(layout: LinearLayout, in_dim: str, bits: int) -> list[int]:
    """The packed bases of `in_dim` padded with zeros to `bits` entries."""
    packed = list(layout._packed.get(in_dim, ()))
    return packed + [0] * (bits - len(packed))


def _project(dst: LinearLayout, src: LinearLayout) -> LinearLayout:
    """`dst` with its coordinates reduced to `src`'s shape: along a dim where src is smaller
    (broadcast), dst's coordinate ``c`` is taken as ``c mod src_size``."""
    if set(dst.out_dim_names) != set(src.out_dim_names):
        raise ValueError(
            f"layouts have different output dims: {src.out_dim_names} and {dst.out_dim_names}"
        )
    names = src.out_dim_names
    bases = {}
    for in_dim, vectors in dst.bases.items():
        bases[in_dim] = []
        for vec in vectors:
            coords = dict(zip(dst.out_dim_names, vec))
            bases[in_dim].append(tuple(coords[n] & (src.out_dim_size(n) - 1) for n in names))
    for n in names:
        if dst.out_dim_size(n) < src.out_dim_size(n):
            raise ValueError(f"dim {n!r}: dst size {dst.out_dim_size(n)} is smaller than "
                             f"src size {src.out_dim_size(n)}")
    return LinearLayout(bases, src.out_dims)


def registers_by_coordinate(layout: LinearLayout) -> dict[tuple[int, ...], int]:
    """For each coordinate that thread 0 (lane 0, warp 0) holds, its first register; other
    threads hold the same registers at these coordinates xor their lane and warp parts."""
    index: dict[tuple[int, ...], int] = {}
    for register in range(layout.in_dim_size("register")):
        index.setdefault(layout.apply(register=register), register)
    return index


def register_map(src: LinearLayout, dst: LinearLayout) -> list[int] | None:
    """For each dst register, the src register of the same thread holding dst's element, when
    that needs no communication and does not depend on the thread; else None.

    `src` and `dst` have the same output dim names; where src is smaller along a dim (the
    operand of a broadcast), dst's element ``c`` along it is src's ``c mod src_size``. For
    ``expand_dims`` or a slice, bring both to the same output dims first (a size-1 dim is
    harmless). When several src registers hold the element, the lowest-ranked one (see
    ``LinearLayout.free_variable_masks``) is chosen.
    """
    projected = _project(dst, src)
    for in_dim in _THREAD_DIMS:
        bits = max(src.in_dim_bits(in_dim), projected.in_dim_bits(in_dim))
        if _padded(src, in_dim, bits) != _padded(projected, in_dim, bits):
            return None
    solver = _Solver(src._packed.get("register", ()))
    per_bit = []
    for vec in projected._packed.get("register", ()):
        combo = solver.solve(vec)
        if combo is None:
            return None
        per_bit.append(combo)
    result = []
    for r in range(projected.in_dim_size("register")):
        index = 0
        for bit, combo in enumerate(per_bit):
            if r >> bit & 1:
                index ^= combo
        result.append(index)
    return result


def _same_map(a: LinearLayout, b: LinearLayout) -> bool:
    if a.out_dims != b.out_dims or a.out_dim_names != b.out_dim_names:
        return False
    for in_dim in set(a.in_dims) | set(b.in_dims):
        bits = max(a.in_dim_bits(in_dim), b.in_dim_bits(in_dim))
        if in_dim == "register" and a.in_dim_bits(in_dim) != b.in_dim_bits(in_dim):
            return False
        if _padded(a, in_dim, bits) != _padded(b, in_dim, bits):
            return False
    return True


def _warp_local(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether every element a dst warp needs is held somewhere in the same src warp."""
    solver = _Solver([*src._packed.get("register", ()), *src._packed.get("lane", ())])
    for in_dim in ("register", "lane"):
        if any(solver.solve(v) is None for v in dst._packed.get(in_dim, ())):
            return False
    for in_dim in ("warp", "block"):
        bits = max(src.in_dim_bits(in_dim), dst.in_dim_bits(in_dim))
        for s, d in zip(_padded(src, in_dim, bits), _padded(dst, in_dim, bits)):
            if solver.solve(s ^ d) is None:
                return False
    return True


def conversion_plan(src: LinearLayout, dst: LinearLayout) -> ConversionPlan:
    """The cheapest way to convert a tensor from `src` to `dst` (same output dims and sizes)."""
    if src.out_dims != dst.out_dims:
        raise ValueError(f"conversion_plan: output dims differ: {src.out_dims} vs {dst.out_dims}")
    dst = dst.transpose_outs(src.out_dim_names)
    if _same_map(src, dst):
        return ConversionPlan("none")
    regs = register_map(src, dst)
    if regs is not None:
        return ConversionPlan("register", tuple(regs))
    if _warp_local(src, dst):
        return ConversionPlan("shuffle")
    return ConversionPlan("shared")
