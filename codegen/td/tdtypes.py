"""The types of TableGen fields and values: ``bit``, ``bits<n>``, ``int``, ``string``, ``dag``,
``list<T>`` and class types.

``code`` is an alias of ``string`` (as in modern TableGen); values written as ``[{ }]`` keep their
format through the `Code` value class instead. `ANY` is the type of ``?`` and of expressions whose
type is only known once they are evaluated; it is compatible with everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


class TdType:
    """Base class of field types; ``str(t)`` gives the TableGen spelling."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class _Simple(TdType):
    spelling: str

    def __str__(self) -> str:
        return self.spelling


@dataclass(frozen=True, slots=True)
class BitsType(TdType):
    """``bits<width>``."""

    width: int

    def __str__(self) -> str:
        return f"bits<{self.width}>"


@dataclass(frozen=True, slots=True)
class ListType(TdType):
    """``list<element>``."""

    element: TdType

    def __str__(self) -> str:
        return f"list<{self.element}>"


@dataclass(frozen=True, slots=True)
class RecordType(TdType):
    """A class type: values are defs deriving from every class in ``classes``.

    A field declared with a class type has one class; the type of an expression may be the
    intersection of several (or none: any record), as in TableGen.
    """

    classes: tuple[str, ...]

    def __str__(self) -> str:
        if len(self.classes) == 1:
            return self.classes[0]
        return "{" + ", ".join(self.classes) + "}"


BIT = _Simple("bit")
INT = _Simple("int")
STRING = _Simple("string")
DAG = _Simple("dag")
ANY = _Simple("?")


def is_integral(t: TdType) -> bool:
    """Whether values of ``t`` are integers (``bit``, ``bits<n>`` or ``int``)."""
    return t is BIT or t is INT or isinstance(t, BitsType)


def is_compatible(src: TdType, dst: TdType, isa: Callable[[str, str], bool]) -> bool:
    """Whether a value statically typed ``src`` may be stored where ``dst`` is expected.

    ``isa(a, b)`` tells whether class ``a`` derives from class ``b`` (or is ``b``); it decides
    whether one class type converts to another. An empty class set (any record) converts to any
    class type: the value is checked once known.
    """
    if src is ANY or dst is ANY or src == dst:
        return True
    if is_integral(dst):
        return is_integral(src)
    if isinstance(dst, ListType):
        return isinstance(src, ListType) and is_compatible(src.element, dst.element, isa)
    if isinstance(dst, RecordType):
        if not isinstance(src, RecordType):
            return False
        return not src.classes or all(any(isa(have, want) for have in src.classes)
                                      for want in dst.classes)
    return False


def common_type(a: TdType, b: TdType,
                hierarchy: tuple[Callable[[str], list[str]], Callable[[str, str], bool]] | None
                = None) -> TdType | None:
    """The type of a value that may be either ``a`` or ``b`` (``!if`` arms, list elements).

    With ``hierarchy`` (the direct superclasses of a class, and whether a class derives from
    another), two record types have TableGen's common type: the nearest classes of ``a`` that
    ``b`` derives from; without it, the classes they share.
    """
    if a == b or b is ANY:
        return a
    if a is ANY:
        return b
    if is_integral(a) and is_integral(b):
        return INT
    if isinstance(a, ListType) and isinstance(b, ListType):
        element = common_type(a.element, b.element, hierarchy)
        return None if element is None else ListType(element)
    if isinstance(a, RecordType) and isinstance(b, RecordType):
        if hierarchy is None:
            return RecordType(tuple(c for c in a.classes if c in b.classes))
        parents, isa = hierarchy
        common: set[str] = set()
        stack = list(a.classes)
        while stack:
            name = stack.pop()
            if any(isa(have, name) for have in b.classes):
                common.add(name)
            else:
                stack += parents(name)
        return RecordType(tuple(sorted(common)))
    return None
