"""The Python values of evaluated `.td` fields, and the records that hold them.

A field's value is one of: ``int`` (``int``, ``bit`` as 0/1, ``bits<n>`` when every bit is
set), ``str`` (``string``), `Code` (a ``str`` written as ``[{ }]``), `TdList` (``list<T>``, an
immutable ``list``), `DagValue` (``dag``), `Record` (a reference to a def, including anonymous
``Class<args>`` instances), `Unset` (``?``), and, rarely, a ``tuple`` of 0/1/`Unset` (MSB first)
for a ``bits<n>`` with only some bits set. Class records may also hold a
`tilecraft.codegen.td.terms.Term`: an expression over template arguments or other fields that is
only evaluated in the defs deriving from the class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..diagnostics import SourceLoc
from .errors import TdError
from .tdtypes import TdType


class _UnsetType:
    """The type of `Unset`, TableGen's ``?``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Unset"

    def __bool__(self) -> bool:
        return False


Unset = _UnsetType()
"""The uninitialized value ``?``; compare with ``is Unset``."""


class Code(str):
    """A string written as a ``[{ ... }]`` code block; otherwise an ordinary ``str``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Code({str.__repr__(self)})"


class TdList(list):
    """An immutable, hashable ``list``: the value of a ``list<T>`` field.

    ``element`` is the element type the list was made with (None where not known), as TableGen
    keeps it: a literal's type is deduced from what is written in it and a conversion that leaves
    every element as it is keeps the list, so ``[I1]`` written in a def and ``[t]`` resolved to
    ``[I1]`` are different lists, and ``Class<[I1]>`` of each are different anonymous records.
    """

    __slots__ = ("element",)

    def __init__(self, items: Any = (), element: Any = None) -> None:
        super().__init__(items)
        self.element = element

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("TableGen list values are immutable")

    append = extend = insert = pop = remove = clear = sort = reverse = _immutable
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _immutable

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))


@dataclass(frozen=True, slots=True)
class DagValue:
    """A ``dag`` value ``(op arg:$name, ...)``.

    ``args`` holds ``(value, name)`` pairs where ``name`` is the ``$name`` without the ``$``, or
    None; an argument written as a bare ``$name`` has the value `Unset`. ``op_name`` is the
    rarely used name of the operator itself, as in ``(op:$n ...)``.
    """

    op: Any
    args: TdList
    op_name: str | None = None

    @property
    def arg_names(self) -> list[str | None]:
        """The names of the arguments, in order."""
        return [name for _, name in self.args]

    @property
    def arg_values(self) -> list[Any]:
        """The values of the arguments, in order."""
        return [value for value, _ in self.args]


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a record: its declared type, value, and where the value was last set.

    ``keyword_field`` marks fields declared with the ``field`` keyword, which TableGen allows to
    stay unresolved in defs (such a field may then hold a `Term`).
    """

    name: str
    type: TdType
    value: Any
    loc: SourceLoc
    keyword_field: bool = False


@dataclass(frozen=True, slots=True)
class TemplateArg:
    """A template argument of a class: ``default`` is None when the argument is required."""

    name: str
    qualified_name: str
    type: TdType
    default: Any
    loc: SourceLoc


class Record:
    """A class or a def: its fields and its superclasses, all of them, in TableGen's order;
    ``parents`` are the direct ones (those it was derived from by name).

    Defs are fully resolved: field values are the Python values described in this module.
    """

    __slots__ = ("name", "loc", "is_class", "is_anonymous", "template_args", "superclasses",
                 "fields", "assertions", "parents", "_isa")

    def __init__(self, name: str, loc: SourceLoc, *, is_class: bool = False,
                 is_anonymous: bool = False) -> None:
        self.name = name
        self.loc = loc
        self.is_class = is_class
        self.is_anonymous = is_anonymous
        self.template_args: list[TemplateArg] = []
        self.superclasses: list[str] = []
        self.fields: dict[str, Field] = {}
        self.assertions: list[Assertion] = []
        self.parents: list[str] = []
        self._isa: set[str] = {name} if is_class else set()

    def add_superclass(self, name: str) -> None:
        """Append ``name`` to the superclass list (used while the record is being built)."""
        self.superclasses.append(name)
        self._isa.add(name)

    def isa(self, class_name: str) -> bool:
        """Whether the record derives from ``class_name`` (a class also derives from itself)."""
        return class_name in self._isa

    def __getitem__(self, name: str) -> Any:
        try:
            return self.fields[name].value
        except KeyError:
            raise KeyError(f"record '{self.name}' has no field '{name}'") from None

    def __contains__(self, name: str) -> bool:
        return name in self.fields

    def get(self, name: str, default: Any = None) -> Any:
        """The value of field ``name``, or ``default`` when it is missing or unset (``?``)."""
        entry = self.fields.get(name)
        if entry is None or entry.value is Unset:
            return default
        return entry.value

    def get_bit(self, name: str) -> bool:
        """The value of a ``bit`` field as a bool; a `TdError` at the field's `.td` location
        (where it was last set) when it is not 0 or 1, such as an unset ``?``."""
        value = self[name]
        if value not in (0, 1) or not isinstance(value, int):
            shown = "unset ('?')" if value is Unset else repr(value)
            raise TdError(f"field '{name}' of '{self.name}' must be 0 or 1 here; it is {shown}",
                          self.fields[name].loc)
        return bool(value)

    def field_loc(self, name: str) -> SourceLoc:
        """Where field ``name`` was declared or last set."""
        try:
            return self.fields[name].loc
        except KeyError:
            raise KeyError(f"record '{self.name}' has no field '{name}'") from None

    def __repr__(self) -> str:
        return f"<{'class' if self.is_class else 'def'} {self.name}>"


@dataclass(frozen=True, slots=True)
class Assertion:
    """An ``assert cond, message;`` of a record body, checked when a def is completed."""

    condition: Any
    message: Any
    loc: SourceLoc


@dataclass(slots=True, repr=False)
class RecordKeeper:
    """All classes and defs of a loaded `.td` file and its includes, in definition order."""

    classes: dict[str, Record] = field(default_factory=dict)
    defs: dict[str, Record] = field(default_factory=dict)

    def all_derived(self, class_name: str) -> list[Record]:
        """The defs that derive from ``class_name``, in definition order (none if there is no
        such class)."""
        return [rec for rec in self.defs.values() if rec.isa(class_name)]

    def __repr__(self) -> str:
        return f"<RecordKeeper: {len(self.classes)} classes, {len(self.defs)} defs>"
