"""Builtin types: integers, index, floats, none, ranked tensors, vectors and functions.

Types are interned (see `uniqued`): ``IntegerType(32) is i32``. ``str(t)`` gives the MLIR text.
Scalars are shapeless: `shape_of` returns None for them, `element_type_of` the type itself.
"""

from __future__ import annotations

from typing import ClassVar, Iterable

from tilecraft.ir.floats import FORMATS
from tilecraft.ir.uniqued import Uniqued, intern, lookup

SIGNLESS = "signless"
SIGNED = "signed"
UNSIGNED = "unsigned"
DYNAMIC = -1  # a dynamic dimension, printed '?'


class Type(Uniqued):
    """Base of all types. The ``is_*`` predicates are what `.td` type constraints call.

    ``IS_SHAPED`` marks types with a ``shape`` tuple and an ``element_type`` (tensors, and any
    dialect type that sets it), which `shape_of`/`element_type_of` then look through.
    """

    __slots__ = ()
    IS_SHAPED: ClassVar[bool] = False
    ALIAS: ClassVar[str | None] = None  # see DialectType

    def is_integer(self, width: int | None = None) -> bool:
        """An integer type of any signedness (of ``width`` bits when given)."""
        return False

    def is_signless_integer(self, width: int | None = None) -> bool:
        """A signless integer type such as ``i32`` (of ``width`` bits when given)."""
        return False

    def is_signed_integer(self, width: int | None = None) -> bool:
        """A signed integer type such as ``si32``."""
        return False

    def is_unsigned_integer(self, width: int | None = None) -> bool:
        """An unsigned integer type such as ``ui8``."""
        return False

    def is_float(self, width: int | None = None) -> bool:
        """A floating-point type (of ``width`` bits when given)."""
        return False

    def is_index(self) -> bool:
        return False

    def is_tensor(self) -> bool:
        return False

    def __str__(self) -> str:
        from tilecraft.ir.printer import Printer

        return Printer().type_to_string(self)

    def _print(self, printer) -> None:
        """Write the type's text through ``printer`` (nested types/attributes via its methods)."""
        raise NotImplementedError

    def _sub_elements(self) -> Iterable:
        """The types and attributes this type is built from (for alias collection)."""
        return ()


#: The widest integer type, as in MLIR (``IntegerType::kMaxWidth``).
MAX_INTEGER_WIDTH = (1 << 24) - 1


class IntegerType(Type):
    """``iN`` (signless), ``siN`` (signed) or ``uiN`` (unsigned) of ``width`` bits (at most
    `MAX_INTEGER_WIDTH`)."""

    __slots__ = ("width", "signedness")

    def __new__(cls, width: int, signedness: str = SIGNLESS) -> IntegerType:
        key = (cls, width, signedness)
        obj = lookup(key)
        if obj is None:
            if signedness not in (SIGNLESS, SIGNED, UNSIGNED):
                raise ValueError(f"invalid signedness {signedness!r}")
            if not isinstance(width, int) or not 0 < width <= MAX_INTEGER_WIDTH:
                raise ValueError(f"invalid integer width {width!r}")
            obj = intern(key, cls, width=width, signedness=signedness)
        return obj

    def _constructor_args(self) -> tuple:
        return (self.width, self.signedness)

    def is_integer(self, width: int | None = None) -> bool:
        return width is None or width == self.width

    def is_signless_integer(self, width: int | None = None) -> bool:
        return self.signedness == SIGNLESS and (width is None or width == self.width)

    def is_signed_integer(self, width: int | None = None) -> bool:
        return self.signedness == SIGNED and (width is None or width == self.width)

    def is_unsigned_integer(self, width: int | None = None) -> bool:
        return self.signedness == UNSIGNED and (width is None or width == self.width)

    def value_range(self) -> tuple[int, int]:
        """The inclusive range of values an integer attribute of this type holds (signless
        integers hold two's complement values, normalized to the signed range; i1 holds 0/1)."""
        if self.signedness == UNSIGNED or self.width == 1 and self.signedness == SIGNLESS:
            return 0, (1 << self.width) - 1
        return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1

    def _print(self, printer) -> None:
        prefix = "i" if self.signedness == SIGNLESS else "si" if self.signedness == SIGNED else "ui"
        printer.write(f"{prefix}{self.width}")


class IndexType(Type):
    """``index``: the target's pointer-sized integer for sizes and offsets."""

    __slots__ = ()

    def __new__(cls) -> IndexType:
        return intern((cls,), cls)

    def _constructor_args(self) -> tuple:
        return ()

    def is_index(self) -> bool:
        return True

    def _print(self, printer) -> None:
        printer.write("index")


class NoneType(Type):
    """``none``: the unit type."""

    __slots__ = ()

    def __new__(cls) -> NoneType:
        return intern((cls,), cls)

    def _constructor_args(self) -> tuple:
        return ()

    def _print(self, printer) -> None:
        printer.write("none")


class FloatType(Type):
    """A floating-point type named by ``kind``: one of `FLOAT_KINDS` (``f32``, ``bf16``,
    ``f8E4M3FN``, ...). ``format`` describes its bits; ``width`` is its bit width (19 for tf32)."""

    __slots__ = ("kind", "format")

    def __new__(cls, kind: str) -> FloatType:
        key = (cls, kind)
        obj = lookup(key)
        if obj is None:
            fmt = FORMATS.get(kind)
            if fmt is None:
                raise ValueError(f"unknown float kind {kind!r}")
            obj = intern(key, cls, kind=kind, format=fmt)
        return obj

    @property
    def width(self) -> int:
        return self.format.width

    def _constructor_args(self) -> tuple:
        return (self.kind,)

    def is_float(self, width: int | None = None) -> bool:
        return width is None or width == self.format.width

    def _print(self, printer) -> None:
        printer.write(self.kind)


class RankedTensorType(Type):
    """``tensor<4x?x8xf32, #enc>``: ``shape`` (a tuple, `DYNAMIC` for ``?``), ``element_type``
    and an optional ``encoding`` attribute (a layout in the GPU dialects)."""

    __slots__ = ("shape", "element_type", "encoding")
    IS_SHAPED = True

    def __new__(cls, shape: Iterable[int], element_type: Type, encoding=None) -> RankedTensorType:
        shape = tuple(DYNAMIC if d is None else d for d in shape)
        key = (cls, shape, element_type, encoding)
        obj = lookup(key)
        if obj is None:
            if not isinstance(element_type, Type):
                raise TypeError(f"tensor element type must be a Type, got {element_type!r}")
            if any(not isinstance(d, int) or d < DYNAMIC for d in shape):
                raise ValueError(f"invalid tensor shape {shape!r}")
            obj = intern(key, cls, shape=shape, element_type=element_type, encoding=encoding)
        return obj

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        """The number of elements (the shape must be static)."""
        count = 1
        for dim in self.shape:
            if dim == DYNAMIC:
                raise ValueError(f"{self} has a dynamic shape")
            count *= dim
        return count

    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    def _constructor_args(self) -> tuple:
        return (self.shape, self.element_type, self.encoding)

    def is_tensor(self) -> bool:
        return True

    def _print(self, printer) -> None:
        dims = "".join("?x" if d == DYNAMIC else f"{d}x" for d in self.shape)
        printer.write(f"tensor<{dims}")
        printer.print_type(self.element_type)
        if self.encoding is not None:
            printer.write(", ")
            printer.print_attribute(self.encoding)
        printer.write(">")

    def _sub_elements(self) -> Iterable:
        yield self.element_type
        if self.encoding is not None:
            yield self.encoding


class VectorType(Type):
    """``vector<4xf32>``: a fixed number of scalars held in registers as one value (the LLVM
    dialect's vectors). ``shape`` is a tuple of static dimensions; it is shaped like a tensor
    (`shape_of`, `element_type_of`) but never is one."""

    __slots__ = ("shape", "element_type")
    IS_SHAPED = True

    def __new__(cls, shape: Iterable[int], element_type: Type) -> VectorType:
        shape = tuple(shape)
        key = (cls, shape, element_type)
        obj = lookup(key)
        if obj is None:
            if not isinstance(element_type, Type):
                raise TypeError(f"vector element type must be a Type, got {element_type!r}")
            if not shape or any(not isinstance(d, int) or d < 1 for d in shape):
                raise ValueError(f"invalid vector shape {shape!r}")
            obj = intern(key, cls, shape=shape, element_type=element_type)
        return obj

    @property
    def num_elements(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count

    def has_static_shape(self) -> bool:
        return True

    def _constructor_args(self) -> tuple:
        return (self.shape, self.element_type)

    def _print(self, printer) -> None:
        printer.write("vector<" + "".join(f"{d}x" for d in self.shape))
        printer.print_type(self.element_type)
        printer.write(">")

    def _sub_elements(self) -> Iterable:
        yield self.element_type


class FunctionType(Type):
    """``(i32, f32) -> i32``: the ``inputs`` and ``results`` tuples of a function or an op."""

    __slots__ = ("inputs", "results")

    def __new__(cls, inputs: Iterable[Type], results: Iterable[Type]) -> FunctionType:
        inputs, results = tuple(inputs), tuple(results)
        key = (cls, inputs, results)
        obj = lookup(key)
        if obj is None:
            if not all(isinstance(t, Type) for t in inputs + results):
                raise TypeError("function type inputs and results must be Types")
            obj = intern(key, cls, inputs=inputs, results=results)
        return obj

    def _constructor_args(self) -> tuple:
        return (self.inputs, self.results)

    def _print(self, printer) -> None:
        printer.print_functional_type(self.inputs, self.results)

    def _sub_elements(self) -> Iterable:
        return self.inputs + self.results


class OpaqueType(Type):
    """A type of a dialect that is not registered, kept as text: ``!dialect.mnemonic<...>``.

    Only produced by a parser that allows unregistered dialects; ``body`` is the text after
    ``!dialect.``, as written.
    """

    __slots__ = ("dialect", "body")

    def __new__(cls, dialect: str, body: str) -> OpaqueType:
        return intern((cls, dialect, body), cls, dialect=dialect, body=body)

    def _constructor_args(self) -> tuple:
        return (self.dialect, self.body)

    def _print(self, printer) -> None:
        printer.write(f"!{self.dialect}.{self.body}")


def element_type_of(t: Type) -> Type:
    """The element type of a shaped type, or ``t`` itself for a scalar."""
    return t.element_type if t.IS_SHAPED else t


def shape_of(t: Type) -> tuple[int, ...] | None:
    """The shape of a shaped type, or None for a scalar (scalars are shapeless)."""
    return t.shape if t.IS_SHAPED else None


def encoding_of(t: Type):
    """The encoding attribute of a tensor type, or None (scalars and plain tensors)."""
    return t.encoding if type(t) is RankedTensorType else None


i1 = IntegerType(1)
i8 = IntegerType(8)
i16 = IntegerType(16)
i32 = IntegerType(32)
i64 = IntegerType(64)
f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")
index = IndexType()
FLOAT_KINDS: tuple[str, ...] = tuple(FORMATS)

__all__ = [
    "Type", "IntegerType", "IndexType", "NoneType", "FloatType", "RankedTensorType",
    "VectorType", "FunctionType", "OpaqueType", "element_type_of", "shape_of", "encoding_of",
    "SIGNLESS", "SIGNED", "UNSIGNED", "DYNAMIC", "FLOAT_KINDS",
    "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "index",
]
