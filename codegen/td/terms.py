"""Expressions that cannot be evaluated yet, and how they get evaluated later.

Inside a class, template arguments are unknown and references to fields are late-bound (they see
the field's final value in each def), so values there may be `Term`s: a `Ref` to a name, or an
`Op` (a bang operator or a literal) over other values. A `Resolver` substitutes names with values;
an `Op` whose operands become known folds into a plain value. This mirrors TableGen's ``Init``
resolution, using Python values (see `tilecraft.codegen.td.values`) for everything concrete.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Hashable, Iterator, Protocol

from ..diagnostics import SourceLoc
from .errors import TdError
from .tdtypes import (ANY, DAG, INT, STRING, BitsType, ListType, RecordType, TdType, common_type,
                    is_compatible)
from .values import Code, DagValue, Record, TdList, Unset


class FoldContext(Protocol):
    """What folding needs from the evaluator: defs by name, and anonymous instantiation."""

    @property
    def final(self) -> bool:
        """False while a class is being built: a def that is missing may still be defined
        later."""

    def lookup_def(self, name: str) -> Record | None:
        """The def called ``name``, if it is defined (yet)."""

    def being_built(self, name: str) -> bool:
        """Whether the def called ``name`` is being built (a reference to it waits for the
        def's final resolution)."""

    def lookup_class(self, name: str) -> Record | None:
        """The class called ``name``, if any."""

    def class_isa(self, name: str, parent: str) -> bool:
        """Whether class ``name`` is or derives from class ``parent``."""

    def class_parents(self, name: str) -> list[str]:
        """The direct superclasses of class ``name``."""

    def instantiate(self, cls: Record, keys: tuple[int | str, ...], args: tuple[Any, ...],
                    loc: SourceLoc) -> Record:
        """The anonymous def ``cls<args>``; ``keys`` tell which argument each of ``args`` is
        (a position, or a qualified name)."""


class Term:
    """A value that is not known yet; ``type`` is its static type."""

    __slots__ = ("type",)
    type: TdType

    def resolve(self, resolver: Resolver) -> Any:
        """This term with the names ``resolver`` knows substituted (and folded if possible)."""
        raise NotImplementedError


class Ref(Term):
    """A reference to a field (``key`` is its name), a class template argument (``key`` is
    ``Class:arg``) or a variable bound by ``!foreach``-like operators (``key`` is an int)."""

    __slots__ = ("key", "name")

    def __init__(self, key: Hashable, name: str, type_: TdType) -> None:
        self.key = key
        self.name = name
        self.type = type_

    def resolve(self, resolver: Resolver) -> Any:
        value = resolver.lookup(self.key)
        return self if value is None else value

    def __str__(self) -> str:
        return self.name


_binder_ids = itertools.count()


def binder(name: str, type_: TdType) -> Ref:
    """A fresh variable for the bound name of ``!foreach``, ``!foldl`` or ``!filter``."""
    return Ref(next(_binder_ids), name, type_)


class OpSpec:
    """How one operator is typed, folded and printed.

    ``check(op, ctx)`` returns the result type or raises `TdError`; ``fold(op, ctx)`` returns the
    value (or a simpler term) or None when it cannot fold yet. ``fold`` is only called once every
    operand is concrete, unless ``lazy`` (``!if``, ``!cond``, the binding operators).
    ``short_circuit(op, resolver)``, when given, may resolve the op without resolving all of
    its operands (``!if`` with a known condition resolves only the branch it takes), returning
    None to resolve as usual.
    """

    __slots__ = ("name", "check", "fold", "format", "lazy", "short_circuit")

    def __init__(self, name: str, check: Callable[[Op, FoldContext], TdType],
                 fold: Callable[[Op, FoldContext], Any], format: Callable[[Op], str],
                 lazy: bool = False,
                 short_circuit: Callable[[Op, Resolver], Any] | None = None) -> None:
        self.name = name
        self.check = check
        self.fold = fold
        self.format = format
        self.lazy = lazy
        self.short_circuit = short_circuit


class Op(Term):
    """An operator applied to values: ``args`` are its operands (their source positions in
    ``locs``), ``param`` its extra parameter (the ``<type>`` of ``!cast``, a field name, ...)."""

    __slots__ = ("spec", "args", "locs", "loc", "param")

    def __init__(self, spec: OpSpec, args: tuple[Any, ...], locs: tuple[SourceLoc, ...],
                 loc: SourceLoc, param: Any) -> None:
        self.spec = spec
        self.args = args
        self.locs = locs
        self.loc = loc
        self.param = param
        self.type = ANY

    def resolve(self, resolver: Resolver) -> Any:
        if self.spec.short_circuit is not None:
            value = self.spec.short_circuit(self, resolver)
            if value is not None:
                return value
        args = tuple(arg.resolve(resolver) if isinstance(arg, Term) else arg
                     for arg in self.args)
        unchanged = all(new is old for new, old in zip(args, self.args))
        if unchanged and any(isinstance(arg, Term) for arg in args):
            return self
        return make_op(self.spec, args, self.locs, self.loc, self.param, resolver.ctx)

    def __str__(self) -> str:
        return self.spec.format(self)


def make_op(spec: OpSpec, args: tuple[Any, ...], locs: tuple[SourceLoc, ...], loc: SourceLoc,
            param: Any, ctx: FoldContext) -> Any:
    """Type-check ``spec`` applied to ``args`` and fold it if possible, else return an `Op`."""
    op = Op(spec, args, locs, loc, param)
    op.type = spec.check(op, ctx)
    if spec.lazy or not any(isinstance(arg, Term) for arg in args):
        value = spec.fold(op, ctx)
        if value is not None:
            if isinstance(value, TdList) and value.element is None:
                value.element = getattr(op.type, "element", None)
            return value
    return op


def resolve(value: Any, resolver: Resolver) -> Any:
    """``value`` with the references ``resolver`` knows substituted."""
    return value.resolve(resolver) if isinstance(value, Term) else value


class Resolver:
    """Maps reference keys to values; `lookup` returns None for names it does not know."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: FoldContext) -> None:
        self.ctx = ctx

    def lookup(self, key: Hashable) -> Any:
        """The value of reference ``key``, or None to leave the reference as it is."""
        raise NotImplementedError


class MapResolver(Resolver):
    """Substitutes the names of a dict: template arguments, or bound variables."""

    __slots__ = ("values",)

    def __init__(self, values: dict[Any, Any], ctx: FoldContext) -> None:
        super().__init__(ctx)
        self.values = values

    def lookup(self, key: Hashable) -> Any:
        return self.values.get(key)


class RecordResolver(Resolver):
    """Late binding: resolves references to fields of ``record`` to their final values.

    A reference to an unset field resolves to `Unset`; a field whose value depends on itself is
    an error.
    """

    __slots__ = ("record", "cache", "stack")

    def __init__(self, record: Record, ctx: FoldContext) -> None:
        super().__init__(ctx)
        self.record = record
        self.cache: dict[str, Any] = {}
        self.stack: list[str] = []

    def lookup(self, key: Hashable) -> Any:
        if not isinstance(key, str):
            return None
        if key in self.cache:
            return self.cache[key]
        field = self.record.fields.get(key)
        if field is None:
            return None
        if key in self.stack:
            cycle = " -> ".join(self.stack[self.stack.index(key):] + [key])
            raise TdError(f"field '{key}' of '{self.record.name}' depends on itself: {cycle}",
                          field.loc)
        self.stack.append(key)
        value = resolve(field.value, self)
        self.stack.pop()
        self.cache[key] = value
        return value


# --- Types and conversion of concrete values ---------------------------------------------------

def type_of(value: Any) -> TdType:
    """The static type of a value or term (`ANY` for ``?``)."""
    if isinstance(value, Term):
        return value.type
    if isinstance(value, str):
        return STRING
    if isinstance(value, int):
        return INT
    if isinstance(value, Record):
        # TableGen types a record by its direct superclasses, sorted by name.
        return RecordType(tuple(sorted(set(value.parents))))
    if isinstance(value, TdList):
        element: TdType = ANY
        for item in value:
            element = common_type(element, type_of(item)) or ANY
        return ListType(element)
    if isinstance(value, DagValue):
        return DAG
    if isinstance(value, tuple):
        return BitsType(len(value))
    return ANY


class _Incompatible:
    __slots__ = ()


INCOMPATIBLE: Any = _Incompatible()
"""What `convert` returns for a value that does not fit the type."""


def convert(value: Any, type_: TdType, isa: Callable[[str, str], bool]) -> Any:
    """``value`` converted to ``type_`` (bits are masked, lists converted element-wise), or
    `INCOMPATIBLE`. Terms are checked against their static type only."""
    if type_ is ANY or value is Unset:
        return value
    if isinstance(value, Term):
        return value if is_compatible(value.type, type_, isa) else INCOMPATIBLE
    if type_ is INT or type_ is STRING or type_ is DAG:
        return value if isinstance(value, _PYTHON_TYPES[type_]) else _from_bits(value, type_)
    if isinstance(type_, BitsType):
        return _to_bits(value, type_.width)
    if isinstance(type_, ListType):
        if not isinstance(value, TdList):
            return INCOMPATIBLE
        items = [convert(item, type_.element, isa) for item in value]
        if any(item is INCOMPATIBLE for item in items):
            return INCOMPATIBLE
        return value if all(a is b for a, b in zip(items, value)) else TdList(items,
                                                                              type_.element)
    if isinstance(type_, RecordType):
        ok = isinstance(value, Record) and all(value.isa(c) for c in type_.classes)
        return value if ok else INCOMPATIBLE
    # bit
    if isinstance(value, int) and value in (0, 1):
        return value
    return value[0] if isinstance(value, tuple) and len(value) == 1 else INCOMPATIBLE


_PYTHON_TYPES: dict[TdType, type] = {INT: int, STRING: str, DAG: DagValue}


def _from_bits(value: Any, type_: TdType) -> Any:
    if type_ is INT and isinstance(value, tuple) and Unset not in value:
        return int("".join(map(str, value)), 2)
    return INCOMPATIBLE


def _to_bits(value: Any, width: int) -> Any:
    if isinstance(value, tuple):
        return value if len(value) == width else INCOMPATIBLE
    if not isinstance(value, int) or not -(1 << (width - 1)) <= value < (1 << width):
        return INCOMPATIBLE
    return value & ((1 << width) - 1)


def bits_of(value: int, width: int) -> list[int]:
    """The ``width`` low bits of ``value``, most significant first."""
    return [(value >> i) & 1 for i in reversed(range(width))]


# --- Printing ----------------------------------------------------------------------------------

LATEST_TBLGEN = 19
"""The newest ``llvm-tblgen`` major version whose ``--print-records`` format is known here."""

_tblgen_version: ContextVar[int] = ContextVar("tblgen_version", default=LATEST_TBLGEN)


def tblgen_version() -> int:
    """The ``llvm-tblgen`` major version whose format values are printed in (see
    `tblgen_format`)."""
    return _tblgen_version.get()


@contextmanager
def tblgen_format(version: int) -> Iterator[None]:
    """Print values as ``llvm-tblgen`` ``version`` does inside the ``with`` block (the formats
    differ in small ways, such as ``Class<0: arg>`` in LLVM 19 for ``Class<arg>`` in LLVM 15)."""
    token = _tblgen_version.set(version)
    try:
        yield
    finally:
        _tblgen_version.reset(token)


def format_value(value: Any) -> str:
    """``value`` in TableGen syntax, as ``--print-records`` writes it."""
    if isinstance(value, Term):
        return str(value)
    if value is Unset:
        return "?"
    if isinstance(value, Code):
        return "[{" + value + "}]"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Record):
        return value.name
    if isinstance(value, list):
        return "[" + ", ".join(map(format_value, value)) + "]"
    if isinstance(value, DagValue):
        return format_dag(value.op, value.op_name, value.args)
    return "{ " + ", ".join(map(format_value, value)) + " }"


def describe(value: Any) -> str:
    """A short description of a value for error messages: ``"abc" of type 'string'``."""
    text = format_value(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} of type '{type_of(value)}'"


def format_dag(op: Any, op_name: str | None, args: list[tuple[Any, str | None]]) -> str:
    """A dag in TableGen syntax: ``(op a:$x, ?:$y)``."""
    text = "(" + format_value(op) + (":" + op_name if op_name else "")
    parts = [format_value(v) + (":$" + n if n is not None else "") for v, n in args]
    return text + (" " + ", ".join(parts) if parts else "") + ")"
