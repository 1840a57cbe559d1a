"""`DialectType` and `DialectAttribute`: the bases of the types and attributes that dialects define.

A subclass names its ``DIALECT``, ``MNEMONIC`` and ``PARAMETERS`` (the parameter names); an
instance stores the parameter values in a tuple, is interned by ``(class, values)``, and exposes
each parameter as a read-only property. Its text is ``!dialect.mnemonic`` or
``#dialect.mnemonic`` followed, when it has parameters, by what `print_parameters` writes (the
``<...>`` part, brackets included) and `parse_parameters` reads back.

An attribute class may set ``ALIAS`` (e.g. ``"blocked"``): the module printer then defines
``#blocked = #ttg.blocked<...>`` (``#blocked1``, ... for further values) at the top of the text
and prints the alias at each use, as Triton's dumps do. Types may set ``ALIAS`` likewise (``!``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Iterable

from tilecraft.ir.attributes import (
    _default_typed, ArrayAttr, Attribute, BoolAttr, FloatAttr, IntegerAttr, StringAttr, TypeAttr,
)
from tilecraft.ir.types import Type, f64, i64
from tilecraft.ir.uniqued import intern, lookup

_alias_classes: list[type] = []


def alias_classes_exist() -> bool:
    """Whether any dialect type or attribute class defines an ``ALIAS`` (printers then look for
    aliases; otherwise they skip that walk)."""
    return bool(_alias_classes)


class _Parametric:
    """What `DialectType` and `DialectAttribute` share: parameters, interning, default syntax."""

    __slots__ = ()
    DIALECT: ClassVar[str] = ""
    MNEMONIC: ClassVar[str] = ""
    PARAMETERS: ClassVar[tuple[str, ...]] = ()
    _params: tuple
    _SIGIL: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for position, name in enumerate(cls.PARAMETERS):
            if name not in cls.__dict__:
                setattr(cls, name, property(lambda self, _i=position: self._params[_i],
                                            doc=f"The {name!r} parameter."))
        if cls.__dict__.get("ALIAS"):
            _alias_classes.append(cls)

    def __new__(cls, *args: Any, **kwargs: Any):
        params = _freeze(_bind(cls, args, kwargs))
        key = (cls, params)
        obj = lookup(key)
        if obj is None:
            obj = intern(key, cls, _params=params)
        return obj

    @property
    def parameters(self) -> tuple:
        """The parameter values, in ``PARAMETERS`` order."""
        return self._params

    def replace(self, **changes: Any):
        """A copy with some parameters changed (by name)."""
        values = dict(zip(self.PARAMETERS, self._params))
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no parameter {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)

    def _constructor_args(self) -> tuple:
        return self._params

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write(f"{self._SIGIL}{self.DIALECT}.{self.MNEMONIC}")
        if self.PARAMETERS:
            self.print_parameters(printer)

    def print_parameters(self, printer) -> None:
        """Write ``<...>`` after the name. The default writes the values in order, separated by
        commas, as attributes: types, attributes, and ints/strs/bools/tuples of them. Dialects
        whose parameters are anything else (or ``TypeAttr``/i64 ``IntegerAttr``, which read back
        as types and ints) override this and `parse_parameters`."""
        printer.write("<")
        for position, value in enumerate(self._params):
            if position:
                printer.write(", ")
            attr = _to_attribute(value)
            if _default_typed(attr):
                attr._print(printer, elide_type=True)
            else:
                printer.print_attribute(attr)
        printer.write(">")

    @classmethod
    def parse_parameters(cls, parser):
        """Read what `print_parameters` wrote (the parser is at ``<``) and return the instance."""
        parser.parse_punct("<")
        values = []
        for position in range(len(cls.PARAMETERS)):
            if position:
                parser.parse_punct(",")
            values.append(_from_attribute(parser.parse_attribute()))
        parser.parse_punct(">")
        return cls(*values)

    def _sub_elements(self) -> Iterable:
        return _nested_elements(self._params)


def _bind(cls: type, args: tuple, kwargs: dict) -> tuple:
    names = cls.PARAMETERS
    if not kwargs and len(args) == len(names):
        return args
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} parameters, got {len(args)}")
    values = dict(zip(names, args))
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"{cls.__name__}() has no parameter {name!r}")
        if name in values:
            raise TypeError(f"{cls.__name__}() got parameter {name!r} twice")
        values[name] = value
    missing = [name for name in names if name not in values]
    if missing:
        raise TypeError(f"{cls.__name__}() missing parameter {missing[0]!r}")
    return tuple(values[name] for name in names)


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _nested_elements(values: Iterable) -> Iterable:
    for value in values:
        if isinstance(value, (Type, Attribute)):
            yield value
        elif isinstance(value, tuple):
            yield from _nested_elements(value)


def _to_attribute(value: Any) -> Attribute:
    if isinstance(value, Attribute):
        return value
    if isinstance(value, Type):
        return TypeAttr(value)
    if isinstance(value, bool):
        return BoolAttr(value)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr(value, f64)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, tuple):
        return ArrayAttr(_to_attribute(v) for v in value)
    raise TypeError(f"the default parameter syntax cannot print {value!r}: define print_parameters")


def _from_attribute(attr: Attribute) -> Any:
    kind = type(attr)
    if kind is TypeAttr:
        return attr.value
    if kind is BoolAttr or kind is IntegerAttr and attr.type is i64:
        return attr.value
    if kind is FloatAttr and attr.type is f64 or kind is StringAttr:
        return attr.value
    if kind is ArrayAttr:
        return tuple(_from_attribute(a) for a in attr.elements)
    return attr


class DialectType(_Parametric, Type):
    """Base of the types a dialect defines (``TypeDef``s): ``!dialect.mnemonic<...>``."""

    __slots__ = ("_params",)
    _SIGIL = "!"


class DialectAttribute(_Parametric, Attribute):
    """Base of the attributes a dialect defines (``AttrDef``s, enum attributes):
    ``#dialect.mnemonic<...>``."""

    __slots__ = ("_params",)
    _SIGIL = "#"


__all__ = ["DialectType", "DialectAttribute"]
