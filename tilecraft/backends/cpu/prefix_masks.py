"""Masks that hold for a prefix of one dimension, as ``offs < n`` does: stored by a loop that
runs over the prefix only.

A mask ``a < b`` (or ``a <= b``, ``b > a``, ``b >= a``) whose ``a`` runs over consecutive
integers along one dimension ``d`` and whose ``b`` is uniform, both constant along every other
dimension, holds for the first ``count`` indices of ``d`` and for no other (as does a
broadcast of it, the form the tile passes give ``offs[None, :] < n``):
``count = clamp(b - a[0], 0, size)`` (one more for ``<=``). A masked store of such a mask is one
loop over those indices with no mask at all, where the mask-based form was a check of every
element, an unmasked copy of the loop for programs whose mask holds everywhere, and a loop of
per-element branches for the others; LLVM vectorizes the one loop (with a vectorized and a
scalar remainder) in less time than the three.

In that loop ``a[0] + i`` stays below ``b`` and never wraps, so `PrefixMask.enter` gives ``a``'s
elements the ``nsw`` flag, which spares LLVM a run-time overflow check and a copy of the loop.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation, Value

from . import types as T
from .lowering import FunctionLowering, is_tensor
from .tiles import ZERO, ExprTile, MappedTile, Tile

_MIRRORED = {"sgt": "slt", "sge": "sle"}  # b > a is a < b


class PrefixMask:
    """A mask that holds for the first ``count`` (an i32 value in ``[0, size]``) indices of
    dim ``dim`` of its shape, and nowhere else; ``limit`` is `FunctionLowering.loop_nest`'s."""

    __slots__ = ("dim", "count", "_below", "_first", "_spread")

    def __init__(self, dim: int, count: ir.Value, below: Tile, first: ir.Value,
                 spread: frozenset[int]) -> None:
        self.dim = dim
        self.count = count
        self._below = below  # the integers compared, before the mask's broadcast
        self._first = first
        self._spread = spread  # the dims along which the mask is their broadcast

    @property
    def limit(self) -> tuple[int, ir.Value]:
        return self.dim, self.count

    def enter(self, fl: FunctionLowering, idx: tuple) -> None:
        """Call it first in the loop body at ``idx`` (inside the prefix): the mask's integers
        there are ``a[0] + i`` with no signed wrap, as their expression will give them."""
        b = fl.builder
        step = idx[self.dim]
        if self._first.type != step.type:
            step = b.zext(step, self._first.type)
        value = b.add(self._first, step, flags=("nsw",))
        tile, at = self._below, tuple(ZERO if d in self._spread else i for d, i in enumerate(idx))
        while isinstance(tile, MappedTile):  # broadcasts and expand_dims of the integers
            at, tile = tile.remap(fl, at), tile.source
        if isinstance(tile, ExprTile):
            tile.know(fl, at, value)


def prefix_mask(fl: FunctionLowering, mask: Value, shape: tuple) -> PrefixMask | None:
    """The `PrefixMask` of the mask tensor ``mask`` of a load or store of ``shape`` (at most two
    dims larger than 1), or None where it is not of that form (see the module docstring).
    Emits ``count`` here."""
    if fl.axis_info is None or not is_tensor(mask) or tuple(mask.type.shape) != tuple(shape) \
            or sum(size != 1 for size in shape) > 2:
        return None
    op = getattr(mask, "owner", None)
    while isinstance(op, Operation) and op.name == "tt.broadcast":
        op = getattr(op.operands[0], "owner", None)
    if not isinstance(op, Operation) or op.name != "arith.cmpi":
        return None
    compared = tuple(op.results[0].type.shape)
    spread = frozenset(d for d, (size, full) in enumerate(zip(compared, shape)) if size != full)
    shape = compared
    predicate = op.predicate.keyword
    below, above = op.operands
    if predicate in _MIRRORED:
        predicate, below, above = _MIRRORED[predicate], above, below
    if predicate not in ("slt", "sle"):
        return None
    below_info, above_info = fl.axis_info.get(below), fl.axis_info.get(above)
    uniform = [d for d, size in enumerate(shape) if below_info.constancy[d] % size == 0]
    if len(uniform) != len(shape) - 1 or \
            any(c % size for c, size in zip(above_info.constancy, shape)):
        return None
    dim = next(d for d in range(len(shape)) if d not in uniform)
    if below_info.contiguity[dim] % shape[dim] != 0:
        return None
    zero = (ir.Constant(T.I32, 0),) * len(shape)
    below_tile = fl.as_tile(below)
    first, bound = below_tile.emit(fl, zero), fl.as_tile(above).emit(fl, zero)
    count = _count_below(fl.builder, first, bound, predicate == "sle", shape[dim])
    return PrefixMask(dim, count, below_tile, first, spread)


def _count_below(b: ir.IRBuilder, first: ir.Value, bound: ir.Value, inclusive: bool,
                 size: int) -> ir.Value:
    """How many of ``first, first + 1, ..., first + size - 1`` are below ``bound`` (or equal
    to it where ``inclusive``), as i32, exactly for every signed ``first`` and ``bound``: zero
    unless ``first`` is, else their unsigned distance (plus one where inclusive), at most
    ``size``."""
    ty = first.type
    distance = b.sub(bound, first)
    most = ir.Constant(ty, size - 1 if inclusive else size)
    count = b.select(b.icmp_unsigned("<", distance, most), distance, most)
    if inclusive:
        count = b.add(count, ir.Constant(ty, 1))
    count = b.select(b.icmp_signed("<=" if inclusive else "<", first, bound), count,
                     ir.Constant(ty, 0))
    if ty.width == 32:
        return count
    return b.trunc(count, T.I32) if ty.width > 32 else b.zext(count, T.I32)
