"""Interning of immutable IR objects (types and attributes).

Every type and attribute is created through its class's ``__new__``, which normalizes the
parameters into a hashable key and returns the one object stored for that key, so that two equal
types are the same object: equality and hashing are by identity, which keeps them O(1).
"""

from __future__ import annotations

from typing import Any

_INTERNED: dict[tuple, Any] = {}


class Uniqued:
    """Base of interned immutable objects; subclasses build instances only through `intern`."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (type(self), self._constructor_args())

    def _constructor_args(self) -> tuple:
        """The arguments that rebuild this object through its class (used for pickling)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}<{self}>"


def lookup(key: tuple) -> Any:
    """The object interned under ``key`` (a tuple starting with the class), or None."""
    return _INTERNED.get(key)


def intern(key: tuple, cls: type, **fields: Any) -> Any:
    """Return the object interned under ``key``, creating a ``cls`` with ``fields`` if missing."""
    obj = _INTERNED.get(key)
    if obj is None:
        obj = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(obj, name, value)
        obj = _INTERNED.setdefault(key, obj)
    return obj
