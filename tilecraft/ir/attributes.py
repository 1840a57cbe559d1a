"""Builtin attributes: the constant data attached to operations.

Attributes are interned (see `uniqued`), so ``IntegerAttr(4, i32) is IntegerAttr(4, i32)``.
``str(a)`` gives the MLIR text: ``4 : i32``, ``4 : i64`` (a bare ``4`` in an array), ``true``,
``1.000000e+00 : f32``, ``"s"``, ``[a, b]``, ``{k = v}``, ``dense<...> : tensor<...>``,
``array<i32: 1, 2>``, ``unit``, ``@sym::@nested`` and types as attributes.
"""

from __future__ import annotations

import math
from typing import ClassVar, Iterable, Iterator, Mapping

from tilecraft.ir.floats import format_float
from tilecraft.ir.syntax import keyword_or_string, quote_string
from tilecraft.ir.types import (
    SIGNLESS, FloatType, IndexType, IntegerType, RankedTensorType, Type, VectorType, f64, i1, i64,
)
from tilecraft.ir.uniqued import Uniqued, intern, lookup


class Attribute(Uniqued):
    """Base of all attributes."""

    __slots__ = ()
    ALIAS: ClassVar[str | None] = None  # see DialectAttribute

    def __str__(self) -> str:
        from tilecraft.ir.printer import Printer

        return Printer().attribute_to_string(self)

    def _print(self, printer, elide_type: bool = False) -> None:
        """Write the attribute's text through ``printer``; ``elide_type`` drops a ``: type``."""
        raise NotImplementedError

    def _sub_elements(self) -> Iterable:
        """The types and attributes this attribute is built from (for alias collection)."""
        return ()


def _normalize_int(value: int, type_: Type) -> int:
    """``value`` as an attribute of ``type_`` holds it, or ValueError when out of range."""
    if isinstance(type_, IntegerType):
        lo, hi = type_.value_range()
        if type_.signedness == SIGNLESS and type_.width > 1 and hi < value < 1 << type_.width:
            value -= 1 << type_.width
    elif isinstance(type_, IndexType):
        lo, hi = -(1 << 63), (1 << 63) - 1
    else:
        raise TypeError(f"integer attribute needs an integer or index type, got {type_}")
    if not lo <= value <= hi:
        raise ValueError(f"integer constant {value} out of range for type {type_}")
    return value


class IntegerAttr(Attribute):
    """An integer constant ``value`` of integer or index ``type`` (default i64).

    Signless values are stored in two's complement signed form (``IntegerAttr(255, i8)`` is
    ``-1 : i8``); an ``i1`` attribute is a `BoolAttr`.
    """

    __slots__ = ("value", "type")

    def __new__(cls, value: int, type: Type = i64) -> IntegerAttr:
        if type is i1:
            return BoolAttr(value)
        obj = lookup((IntegerAttr, value, type))
        if obj is None:
            value = _normalize_int(_coerce_int(value), type)
            obj = intern((IntegerAttr, value, type), IntegerAttr, value=value, type=type)
        return obj

    def _constructor_args(self) -> tuple:
        return (self.value, self.type)

    def _print(self, printer, elide_type: bool = False) -> None:
        if elide_type:
            printer.write(str(self.value))
        else:
            printer.write(f"{self.value} : ")
            printer.print_type(self.type)


def _coerce_int(value) -> int:
    """``value`` as a plain int (bools and numpy integers included), TypeError otherwise."""
    if hasattr(value, "__index__"):
        return int(value.__index__())
    raise TypeError(f"expected an integer, got {value!r}")


def _default_typed(attr: Attribute) -> bool:
    """An i64 integer or an f64 float (not in hex): array elements print these without a type,
    as MLIR does, since a bare number reads back with that type."""
    kind = type(attr)
    if kind is IntegerAttr:
        return attr.type is i64
    if kind is FloatAttr:
        return attr.type is f64 and not format_float(attr.value, f64.format).startswith("0x")
    return False


class BoolAttr(IntegerAttr):
    """An ``i1`` integer attribute, printed ``true``/``false``; ``value`` is a bool."""

    __slots__ = ()

    def __new__(cls, value: bool) -> BoolAttr:
        value = bool(_coerce_int(value))
        return intern((BoolAttr, value), BoolAttr, value=value, type=i1)

    def _constructor_args(self) -> tuple:
        return (self.value,)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("true" if self.value else "false")


class FloatAttr(Attribute):
    """A float constant of float ``type`` (default f64); ``value`` is rounded to the type.

    The type is elided from the text for f64, except after a hexadecimal (inf, NaN) value."""

    __slots__ = ("value", "type")

    def __new__(cls, value: float, type: Type = f64) -> FloatAttr:
        if not isinstance(type, FloatType):
            raise TypeError(f"float attribute needs a float type, got {type}")
        value = type.format.round(float(value))
        bits = type.format.to_bits(value)
        return intern((cls, bits, type), cls, value=value, type=type)

    @classmethod
    def from_bits(cls, bits: int, type: FloatType) -> FloatAttr:
        """The float whose bit pattern in ``type``'s format is ``bits``."""
        if not 0 <= bits < 1 << type.format.width:
            raise ValueError(f"bit pattern 0x{bits:X} out of range for {type}")
        return cls(type.format.from_bits(bits), type)

    def _constructor_args(self) -> tuple:
        return (self.value, self.type)

    def _print(self, printer, elide_type: bool = False) -> None:
        text = format_float(self.value, self.type.format)
        printer.write(text)
        if not elide_type:
            printer.write(" : ")
            printer.print_type(self.type)


class StringAttr(Attribute):
    """A string constant, printed quoted with MLIR's escapes."""

    __slots__ = ("value",)

    def __new__(cls, value: str) -> StringAttr:
        if not isinstance(value, str):
            raise TypeError(f"expected a str, got {value!r}")
        return intern((cls, value), cls, value=value)

    def _constructor_args(self) -> tuple:
        return (self.value,)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write(quote_string(self.value))


class ArrayAttr(Attribute):
    """A list of attributes: ``[a, b]``. Iterable and indexable like a tuple."""

    __slots__ = ("elements",)

    def __new__(cls, elements: Iterable[Attribute]) -> ArrayAttr:
        elements = tuple(elements)
        key = (cls, elements)
        obj = lookup(key)
        if obj is None:
            _check_attributes(elements)
            obj = intern(key, cls, elements=elements)
        return obj

    def __len__(self) -> int:
        return len(self.elements)

    def __iter__(self) -> Iterator[Attribute]:
        return iter(self.elements)

    def __getitem__(self, index):
        return self.elements[index]

    def _constructor_args(self) -> tuple:
        return (self.elements,)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("[")
        for i, element in enumerate(self.elements):
            if i:
                printer.write(", ")
            if _default_typed(element):
                element._print(printer, elide_type=True)
            else:
                printer.print_attribute(element)
        printer.write("]")

    def _sub_elements(self) -> Iterable:
        return self.elements


def _check_attributes(values: Iterable) -> None:
    for value in values:
        if not isinstance(value, Attribute):
            raise TypeError(f"expected an Attribute, got {value!r}")


class DictionaryAttr(Attribute):
    """A mapping from names to attributes, kept sorted by name: ``{a = 1 : i32, b}``.

    Supports the read-only mapping protocol (``d["a"]``, ``d.get``, ``in``, ``items()``...).
    """

    __slots__ = ("_items", "_dict")

    def __new__(cls, mapping: Mapping[str, Attribute] | Iterable[tuple[str, Attribute]] = ()):
        items = tuple(sorted(dict(mapping).items()))
        key = (cls, items)
        obj = lookup(key)
        if obj is None:
            _check_attributes(value for _, value in items)
            obj = intern(key, cls, _items=items, _dict=dict(items))
        return obj

    def __getitem__(self, name: str) -> Attribute:
        return self._dict[name]

    def get(self, name: str, default=None):
        return self._dict.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._dict

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict)

    def keys(self):
        return self._dict.keys()

    def values(self):
        return self._dict.values()

    def items(self):
        return self._dict.items()

    def _constructor_args(self) -> tuple:
        return (self._items,)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.print_named_attributes(self._items)

    def _sub_elements(self) -> Iterable:
        return self._dict.values()


def _element_normalizer(element_type: Type):
    """A function turning a Python number into the value an element of ``element_type`` holds."""
    if element_type is i1:
        return lambda v: bool(_coerce_int(v))
    if isinstance(element_type, (IntegerType, IndexType)):
        return lambda v: _normalize_int(_coerce_int(v), element_type)
    if isinstance(element_type, FloatType):
        fmt = element_type.format
        return lambda v: fmt.round(float(v))
    raise TypeError(f"unsupported element type {element_type}")


def _element_text(value, element_type: Type) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format_float(value, element_type.format)
    return str(value)


def _flatten(values) -> list:
    if hasattr(values, "tolist"):
        values = values.tolist()
    if not isinstance(values, (list, tuple)):
        return [values]
    flat: list = []
    for value in values:
        if isinstance(value, (list, tuple)):
            flat.extend(_flatten(value))
        else:
            flat.append(value)
    return flat


def _float_key(value):
    """A hashable key telling apart -0.0 and 0.0 and making NaN equal to itself."""
    if isinstance(value, float):
        return (math.copysign(1.0, value), value) if not math.isnan(value) else "nan"
    return value


class DenseElementsAttr(Attribute):
    """A constant tensor: ``dense<[1, 2]> : tensor<2xi32>``, or a splat ``dense<0.0> : ...``.

    ``values`` may be one scalar (a splat), a flat sequence or nested lists (or a numpy array);
    an all-equal list is stored as a splat. ``values`` gives the flat tuple of all elements.
    """

    __slots__ = ("type", "_data")

    def __new__(cls, type: RankedTensorType | VectorType, values) -> DenseElementsAttr:
        if not isinstance(type, (RankedTensorType, VectorType)) or not type.has_static_shape():
            raise TypeError(f"dense elements need a statically shaped tensor or vector type, "
                            f"got {type}")
        normalize = _element_normalizer(type.element_type)
        data = tuple(normalize(v) for v in _flatten(values))
        count = type.num_elements
        if len(data) != count and len(data) != 1:
            raise ValueError(f"{len(data)} values given for {type} ({count} elements)")
        if len(data) > 1 and len({_float_key(v) for v in data}) == 1:
            data = data[:1]
        return intern((cls, type, tuple(_float_key(v) for v in data)), cls, type=type, _data=data)

    @property
    def is_splat(self) -> bool:
        return len(self._data) == 1

    @property
    def splat_value(self):
        """The single value of a splat (ValueError when not a splat)."""
        if len(self._data) != 1:
            raise ValueError("not a splat")
        return self._data[0]

    @property
    def values(self) -> tuple:
        """All elements, flat, in row-major order."""
        return self._data * self.type.num_elements if len(self._data) == 1 else self._data

    def _constructor_args(self) -> tuple:
        return (self.type, self._data)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("dense<")
        element_type = self.type.element_type
        if len(self._data) == 1:
            printer.write(_element_text(self._data[0], element_type))
        elif self._data:
            texts = [_element_text(v, element_type) for v in self.values]
            printer.write(_nest(texts, self.type.shape))
        printer.write(">")
        if not elide_type:
            printer.write(" : ")
            printer.print_type(self.type)

    def _sub_elements(self) -> Iterable:
        return (self.type,)


def _nest(texts: list[str], shape: tuple[int, ...]) -> str:
    """Nested-list text of row-major ``texts`` for ``shape``."""
    if len(shape) == 1:
        return "[" + ", ".join(texts) + "]"
    stride = len(texts) // shape[0]
    parts = [_nest(texts[i * stride:(i + 1) * stride], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(parts) + "]"


class DenseArrayAttr(Attribute):
    """A 1-D array of integers, bools or floats: ``array<i32: 1, 2>`` (``array<i32>`` if empty)."""

    __slots__ = ("element_type", "values")

    def __new__(cls, element_type: Type, values: Iterable) -> DenseArrayAttr:
        values = tuple(values)
        key = (cls, element_type, values)
        obj = lookup(key)
        if obj is None:
            normalize = _element_normalizer(element_type)
            values = tuple(normalize(v) for v in values)
            obj = intern((cls, element_type, tuple(_float_key(v) for v in values)), cls,
                         element_type=element_type, values=values)
        return obj

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator:
        return iter(self.values)

    def __getitem__(self, index):
        return self.values[index]

    def _constructor_args(self) -> tuple:
        return (self.element_type, self.values)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("array<")
        printer.print_type(self.element_type)
        if self.values:
            printer.write(": ")
            printer.write(", ".join(_element_text(v, self.element_type) for v in self.values))
        printer.write(">")


class UnitAttr(Attribute):
    """``unit``: a flag whose presence is the information (printed as just its name in a dict)."""

    __slots__ = ()

    def __new__(cls) -> UnitAttr:
        return intern((cls,), cls)

    def _constructor_args(self) -> tuple:
        return ()

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("unit")


class SymbolRefAttr(Attribute):
    """A reference to a symbol: ``@root`` or ``@root::@a::@b`` (``nested`` = ("a", "b"))."""

    __slots__ = ("root", "nested")

    def __new__(cls, root: str, nested: Iterable[str] = ()) -> SymbolRefAttr:
        nested = tuple(nested)
        return intern((cls, root, nested), cls, root=root, nested=nested)

    @property
    def leaf(self) -> str:
        """The innermost name: the last nested one, or the root."""
        return self.nested[-1] if self.nested else self.root

    def _constructor_args(self) -> tuple:
        return (self.root, self.nested)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write("::".join("@" + keyword_or_string(n) for n in (self.root, *self.nested)))


class TypeAttr(Attribute):
    """A type used as an attribute (e.g. a function's ``function_type``); ``value`` is the type."""

    __slots__ = ("value",)

    def __new__(cls, value: Type) -> TypeAttr:
        key = (cls, value)
        obj = lookup(key)
        if obj is None:
            if not isinstance(value, Type):
                raise TypeError(f"expected a Type, got {value!r}")
            obj = intern(key, cls, value=value)
        return obj

    def _constructor_args(self) -> tuple:
        return (self.value,)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.print_type(self.value)

    def _sub_elements(self) -> Iterable:
        return (self.value,)


class OpaqueAttr(Attribute):
    """An attribute of a dialect that is not registered, kept as text: ``#dialect.mnemonic<...>``.

    Only produced by a parser that allows unregistered dialects; ``body`` is the text after
    ``#dialect.``, as written.
    """

    __slots__ = ("dialect", "body")

    def __new__(cls, dialect: str, body: str) -> OpaqueAttr:
        return intern((cls, dialect, body), cls, dialect=dialect, body=body)

    def _constructor_args(self) -> tuple:
        return (self.dialect, self.body)

    def _print(self, printer, elide_type: bool = False) -> None:
        printer.write(f"#{self.dialect}.{self.body}")


__all__ = [
    "Attribute", "IntegerAttr", "BoolAttr", "FloatAttr", "StringAttr", "ArrayAttr",
    "DictionaryAttr", "DenseElementsAttr", "DenseArrayAttr", "UnitAttr", "SymbolRefAttr",
    "TypeAttr", "OpaqueAttr",
]
