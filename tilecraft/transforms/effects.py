"""Memory effects of ops, as MLIR's MemoryEffectOpInterface answers them, for dce, cse, sccp and
canonicalize.

`memory_effects(op)` is ``"none"``, ``"read"`` (reads memory and nothing else) or ``"write"``
(writes, or anything not known). It refines the traits (`has_side_effects`) with what Triton's
ops compute from their attributes: a `tt.load` reads, and writes too when volatile;
`tt.extern_elementwise` and `tt.elementwise_inline_asm` have no effects when ``pure``. Ops with
``RecursiveMemoryEffects`` (scf.for, scf.if, ...) have the effects of the ops they hold.

`would_be_trivially_dead(op)` is MLIR's wouldOpBeTriviallyDead: an op that is no terminator and
at most reads memory may go once nothing uses its results (`is_trivially_dead`).
"""

from __future__ import annotations

from tilecraft.ir import BoolAttr, Operation
from tilecraft.ir.traits import (
    MemoryEffect, MemRead, NoMemoryEffect, RecursiveMemoryEffects, Terminator,
)

__all__ = ["memory_effects", "is_memory_effect_free", "would_be_trivially_dead",
           "is_trivially_dead"]

_ORDER = {"none": 0, "read": 1, "write": 2}
_PURE_IF_MARKED = ("tt.extern_elementwise", "tt.elementwise_inline_asm")
_CLASS_EFFECTS: dict[type, str | None] = {}  # what the traits of a class say
_TERMINATOR: dict[type, bool] = {}


def _own_effects(op: Operation) -> str | None:
    """The effects of ``op`` itself from its name, attributes and traits; None when they are
    those of its regions only (``RecursiveMemoryEffects`` without markers)."""
    if not op.is_registered:
        return "write"
    name = op.name
    if name == "tt.load":
        volatile = op.get_attr("isVolatile")
        return "write" if isinstance(volatile, BoolAttr) and volatile.value else "read"
    if name in _PURE_IF_MARKED:
        pure = op.get_attr("pure")
        return "none" if isinstance(pure, BoolAttr) and pure.value else "write"
    cls = type(op)
    try:
        return _CLASS_EFFECTS[cls]
    except KeyError:
        pass
    markers = [t for t in cls.TRAITS if issubclass(t, MemoryEffect)]
    if markers:
        found = "read" if all(issubclass(t, MemRead) for t in markers) else "write"
    elif cls.has_trait(RecursiveMemoryEffects):
        found = None
    else:
        found = "none" if cls.has_trait(NoMemoryEffect) else "write"
    _CLASS_EFFECTS[cls] = found
    return found


def memory_effects(op: Operation) -> str:
    """``"none"``, ``"read"`` or ``"write"`` for ``op`` and (recursively) what it holds."""
    own = _own_effects(op)
    if own == "write":
        return own
    worst = own or "none"
    if op.regions and (own is None or type(op).has_trait(RecursiveMemoryEffects)):
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    effect = memory_effects(child)
                    if _ORDER[effect] > _ORDER[worst]:
                        worst = effect
                        if worst == "write":
                            return worst
    return worst


def is_memory_effect_free(op: Operation) -> bool:
    """Whether ``op`` and the ops nested in it touch no memory (MLIR's isMemoryEffectFree),
    Triton's pure inline assembly and external calls included."""
    return memory_effects(op) == "none"


def would_be_trivially_dead(op: Operation) -> bool:
    """Whether ``op`` could be erased if nothing used its results: no terminator, no effects
    beyond reading memory."""
    cls = type(op)
    terminator = _TERMINATOR.get(cls)
    if terminator is None:
        terminator = _TERMINATOR[cls] = op.is_registered and cls.has_trait(Terminator)
    if terminator:
        return False
    return memory_effects(op) != "write"


def is_trivially_dead(op: Operation) -> bool:
    """No result of ``op`` is used and it `would_be_trivially_dead`."""
    for result in op.results:
        if result._uses:
            return False
    return would_be_trivially_dead(op)
