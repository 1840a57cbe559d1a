"""Warp shuffles: the ``shfl.sync`` primitive for any scalar type, and layout conversions done
with shuffles when every element a warp needs is held by that same warp.

The plan is read off the two layout maps: ``src.invert_and_compose(dst)`` gives, for each
(register, lane, warp) of the destination, the source register and lane holding the same
element (a linear map). For destination register ``r`` in lane ``l`` the source lane is
``L(r) ^ L(l)``, and the source register ``R(r) ^ R(l)``; when ``R(l)`` takes only a few values
over the lanes, one ``shfl.sync.idx`` per possible source register, with the right one
selected, moves the element: no shared memory, no barrier.
"""

from __future__ import annotations

from typing import NamedTuple

import llvmlite.ir as ir

from tilecraft.layouts.conversion import conversion_plan
from tilecraft.layouts.linear import LinearLayout

from .lowering import I32, I64, Distributed, GPULowering

# Shuffles per destination register beyond which shared memory is cheaper.
MAX_CANDIDATES = 4


def shuffle(fl: GPULowering, mode: str, value: ir.Value, lane: ir.Value | int) -> ir.Value:
    """``shfl.sync.<mode>`` of ``value`` over the warp: ``bfly`` reads the lane whose index
    differs by ``lane`` (xor), ``idx`` reads lane ``lane``; any scalar type."""
    b = fl.builder
    ty = value.type
    if isinstance(ty, ir.PointerType):
        return b.inttoptr(shuffle(fl, mode, b.ptrtoint(value, I64), lane), ty)
    if ty == ir.DoubleType():
        return b.bitcast(shuffle(fl, mode, b.bitcast(value, I64), lane), ty)
    if isinstance(ty, ir.IntType) and ty.width == 64:
        low = shuffle(fl, mode, b.trunc(value, I32), lane)
        high = shuffle(fl, mode, b.trunc(b.lshr(value, ir.Constant(I64, 32)), I32), lane)
        return b.or_(b.zext(low, I64), b.shl(b.zext(high, I64), ir.Constant(I64, 32)))
    if isinstance(ty, ir.IntType) and ty.width < 32:
        return b.trunc(shuffle(fl, mode, b.zext(value, I32), lane), ty)
    suffix = "f32" if ty == ir.FloatType() else "i32"
    fn = fl.declare(f"llvm.nvvm.shfl.sync.{mode}.{suffix}", ty, [I32, ty, I32, I32])
    target = ir.Constant(I32, lane) if isinstance(lane, int) else lane
    return b.call(fn, [ir.Constant(I32, -1), value, target,
                       ir.Constant(I32, fl.threads_per_warp - 1)])


def shuffle_xor(fl: GPULowering, value: ir.Value, lane_mask: int) -> ir.Value:
    """``value`` of the lane whose index differs from this one's by ``lane_mask`` (xor)."""
    return shuffle(fl, "bfly", value, lane_mask)


class ShufflePlan(NamedTuple):
    """How a conversion moves within warps: ``owner`` maps each destination (register, lane,
    warp) to the source one holding its element; ``candidates[r]`` are the source registers
    that destination register ``r`` may come from, over the lanes."""

    owner: LinearLayout
    candidates: tuple[tuple[int, ...], ...]


def shuffle_plan(src: LinearLayout, dst: LinearLayout) -> ShufflePlan | None:
    """The shuffles converting ``src`` to ``dst``, or None when elements cross warps or a
    destination register would need more than `MAX_CANDIDATES` shuffles."""
    if conversion_plan(src, dst).kind != "shuffle":
        return None
    owner = src.invert_and_compose(dst)
    names = owner.out_dim_names
    reg, lane, warp = (names.index(n) if n in names else None
                       for n in ("register", "lane", "warp"))
    if reg is None or lane is None:
        return None
    for bit in range(dst.in_dim_bits("warp")):
        image = owner.basis("warp", bit)
        expected = [0] * len(names)
        if warp is None:
            return None
        expected[warp] = 1 << bit
        if list(image) != expected:
            return None
    for in_dim in ("register", "lane"):
        for bit in range(dst.in_dim_bits(in_dim)):
            if warp is not None and owner.basis(in_dim, bit)[warp]:
                return None
    span = {0}
    for bit in range(dst.in_dim_bits("lane")):
        part = owner.basis("lane", bit)[reg]
        span |= {x ^ part for x in span}
    if len(span) > MAX_CANDIDATES:
        return None
    candidates = tuple(tuple(sorted({owner.apply(register=r)[reg] ^ x for x in span}))
                       for r in range(dst.in_dim_size("register")))
    return ShufflePlan(owner, candidates)


def _lane_part(fl: GPULowering, owner: LinearLayout, out: int) -> ir.Value:
    """The part of output ``out`` of ``owner`` that this thread's lane gives (xor of bits)."""
    b = fl.prologue
    total: ir.Value = ir.Constant(I32, 0)
    for bit in range(owner.in_dim_bits("lane")):
        base = owner.basis("lane", bit)[out]
        if base:
            flag = b.and_(b.lshr(fl.lane, ir.Constant(I32, bit)), ir.Constant(I32, 1))
            total = b.xor(total, b.mul(flag, ir.Constant(I32, base)))
    return total


def convert_by_shuffles(fl: GPULowering, source: Distributed, layout: LinearLayout,
                        plan: ShufflePlan) -> list[ir.Value]:
    """The values of ``layout``'s registers, read from the lanes holding them in ``source``."""
    b = fl.builder
    names = plan.owner.out_dim_names
    reg, lane = names.index("register"), names.index("lane")
    lane_from_lane = _lane_part(fl, plan.owner, lane)
    register_from_lane = _lane_part(fl, plan.owner, reg)
    values = []
    for register, candidates in enumerate(plan.candidates):
        constant = plan.owner.apply(register=register)
        from_lane = b.xor(lane_from_lane, ir.Constant(I32, constant[lane]))
        wanted = b.xor(register_from_lane, ir.Constant(I32, constant[reg]))
        result = None
        for candidate in candidates:
            moved = shuffle(fl, "idx", source.values[candidate], from_lane)
            if result is None:
                result = moved
            else:
                pick = b.icmp_unsigned("==", wanted, ir.Constant(I32, candidate))
                result = b.select(pick, moved, result)
        values.append(result)
    return values
