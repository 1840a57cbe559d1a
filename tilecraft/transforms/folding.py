"""Folding: the ``fold`` hook of ops, constant values and the materialization of constants.

The fold protocol. An op whose `.td` def sets ``hasFolder`` lists ``"fold"`` in its class's
``HOOKS``, and its dialect's hooks module implements it (``@implements(Op)``)::

    def fold(self, operand_constants: list[Attribute | None]) -> list[Attribute | Value] | None

``operand_constants[i]`` is the constant value of operand ``i`` when a ``ConstantLike`` op
defines it, else None. ``fold`` returns None when it cannot fold (changing nothing); a list
with one entry per result, each an existing `Value` or an `Attribute` (a constant); or an empty
list after changing the op in place (e.g. swapping operands). It never creates or erases ops.

Constants. The value of a ``ConstantLike`` op is what its ``fold([])`` returns when it has a
``fold`` hook, else its ``value`` attribute. To turn an `Attribute` that ``fold`` returned into
IR, the driver calls the ``materialize_constant`` function of the hooks module that defines
the op's ``fold`` (the dialect's hooks module, e.g. ``tilecraft.dialects.arith``)::

    def materialize_constant(attr: Attribute, type: Type, location: Location) -> Operation | None

which returns a new, detached ``ConstantLike`` op with one result of ``type`` (an
``arith.constant`` usually), or None when it cannot express ``attr``; the fold is then
abandoned.
"""

from __future__ import annotations

import sys
from typing import Callable

from tilecraft.ir import Attribute, Block, Location, Operation, Type, Value
from tilecraft.ir.traits import ConstantLike, IsolatedFromAbove, Terminator
from tilecraft.ir.values import OpResult

from .effects import is_memory_effect_free
from .rewriter import PatternRewriter

__all__ = [
    "fold_hook", "is_constant_like", "constant_attr", "constant_attr_of", "materializer",
    "is_trivially_dead", "ConstantScopes",
]

Materializer = Callable[[Attribute, Type, Location], "Operation | None"]

_FOLD: dict[type, Callable | None] = {}
_CONSTANT: dict[type, bool] = {}
_TERMINATOR: dict[type, bool] = {}
_ISOLATED: dict[type, bool] = {}


def fold_hook(cls: type[Operation]) -> Callable | None:
    """The ``fold`` of an op class that declares the hook, else None."""
    try:
        return _FOLD[cls]
    except KeyError:
        hook = cls.fold if "fold" in cls.HOOKS else None
        _FOLD[cls] = hook
        return hook


def _has(cache: dict[type, bool], cls: type[Operation], trait: type) -> bool:
    try:
        return cache[cls]
    except KeyError:
        cache[cls] = found = cls.has_trait(trait)
        return found


def is_constant_like(op: Operation) -> bool:
    """Whether ``op``'s class has the ``ConstantLike`` trait."""
    return _has(_CONSTANT, type(op), ConstantLike)


def constant_attr_of(op: Operation) -> Attribute | None:
    """The value of a ``ConstantLike`` op (None for other ops)."""
    cls = type(op)
    if not _has(_CONSTANT, cls, ConstantLike):
        return None
    hook = fold_hook(cls)
    if hook is None:
        return op.get_attr("value")
    folded = hook(op, [])
    return folded[0] if folded and isinstance(folded[0], Attribute) else None


def constant_attr(value: Value) -> Attribute | None:
    """The constant ``value`` holds when a ``ConstantLike`` op defines it, else None."""
    return constant_attr_of(value.owner) if type(value) is OpResult else None


def materializer(cls: type[Operation]) -> Materializer:
    """The ``materialize_constant`` of the hooks module defining ``cls.fold``."""
    module_name = fold_hook(cls).__module__
    function = getattr(sys.modules.get(module_name), "materialize_constant", None)
    if function is None:
        raise ValueError(f"'{cls.OPERATION_NAME}' folded to a constant, but its hooks module "
                         f"{module_name} defines no materialize_constant(attr, type, location)")
    return function


def is_trivially_dead(op: Operation) -> bool:
    """Whether ``op`` can go: no result is used, it is no terminator, it has no memory effects
    (`effects.is_memory_effect_free`: pure inline assembly and external calls have none)."""
    for result in op.results:
        if not result.use_empty():
            return False
    return not _has(_TERMINATOR, type(op), Terminator) and is_memory_effect_free(op)


class ConstantScopes:
    """Constants kept unique and at the top of their scope, as MLIR's OperationFolder does.

    The scope of an op is the entry block of the region it sits in below the closest
    ``IsolatedFromAbove`` (or unregistered) ancestor, or below ``root``. Each scope holds at
    most one constant per (dialect, value, type); they form a run at the start of the block,
    in the order they were first seen.
    """

    __slots__ = ("root", "rewriter", "_constants", "_keys", "_last")

    def __init__(self, root: Operation, rewriter: PatternRewriter) -> None:
        self.root = root
        self.rewriter = rewriter
        self._constants: dict[tuple, Operation] = {}
        self._keys: dict[Operation, tuple] = {}
        self._last: dict[Block, Operation] = {}

    def scope_of(self, op: Operation) -> Block:
        region = op.parent.parent
        while True:
            owner = region.parent
            if (owner is self.root or owner is None or owner.parent is None
                    or not owner.is_registered or _has(_ISOLATED, type(owner), IsolatedFromAbove)):
                return region.blocks[0]
            region = owner.parent.parent

    def insert_known(self, op: Operation) -> bool:
        """Take in the constant ``op`` found in the IR: move it into the run at the top of its
        scope, or, when the scope has an equal constant, replace ``op`` with it. Returns whether
        ``op`` is still there."""
        value = constant_attr_of(op)
        if value is None or op.num_results != 1:
            return True
        scope = self.scope_of(op)
        key = (scope, op.name.partition(".")[0], value, op.results[0].type)
        existing = self._constants.get(key)
        if existing is op:
            return True
        if existing is not None:
            self.rewriter.replace_op(op, existing.results)
            return False
        self._add(key, op, scope)
        return True

    def lookup(self, dialect: str, value: Attribute, type_: Type, at: Operation) -> Value | None:
        """The result of the scope's constant (dialect, value, type) for use at ``at``."""
        found = self._constants.get((self.scope_of(at), dialect, value, type_))
        return found.results[0] if found is not None else None

    def insert_new(self, op: Operation, dialect: str, value: Attribute, at: Operation) -> None:
        """Put the new detached constant ``op`` (materialized for ``dialect``) at the top of
        the scope of ``at``."""
        scope = self.scope_of(at)
        self._add((scope, dialect, value, op.results[0].type), op, scope)

    def _add(self, key: tuple, op: Operation, scope: Block) -> None:
        last = self._last.get(scope)
        if op.parent is None:
            if last is None:
                scope.prepend(op)
            else:
                scope.insert_after(last, op)
            self.rewriter.listener.notify_op_inserted(op)
        elif last is None:
            if scope.first_op is not op:
                self.rewriter.move_op_before(op, scope.first_op)
        elif last.next_op is not op:
            self.rewriter.move_op_after(op, last)
        self._last[scope] = op
        self._constants[key] = op
        self._keys[op] = key

    def forget(self, op: Operation) -> None:
        """``op`` is about to be erased or changed: it no longer stands for its key."""
        key = self._keys.pop(op, None)
        if key is None:
            return
        del self._constants[key]
        scope = key[0]
        if self._last.get(scope) is op:
            previous = op.prev_op
            if previous is not None and previous in self._keys:
                self._last[scope] = previous
            else:
                del self._last[scope]
