"""Op traits: marker classes listed in an op class's ``TRAITS``, each with a ``verify(op)`` check.

A trait's `verify` raises ``op.emit_error(...)`` (a `VerificationError`) with MLIR's wording when
the op breaks it; marker traits (Pure, Commutative, memory effects, ...) check nothing and are
queried with ``op.has_trait(T)``, which also matches traits derived from ``T`` (``Pure`` implies
``NoMemoryEffect`` and ``AlwaysSpeculatable``). Shape and encoding checks treat scalars as
shapeless: they compare only tensor (shaped) types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilecraft.ir.attributes import DenseArrayAttr, StringAttr, TypeAttr
from tilecraft.ir.errors import VerificationError
from tilecraft.ir.types import DYNAMIC, FunctionType, element_type_of, encoding_of, i32, shape_of

if TYPE_CHECKING:
    from tilecraft.ir.operation import Operation


class Trait:
    """Base of traits; subclasses override `verify` when the trait constrains the op."""

    __slots__ = ()

    @staticmethod
    def verify(op: Operation) -> None:
        """Raise a `VerificationError` when ``op`` breaks this trait."""


# -- markers


class NoMemoryEffect(Trait):
    """The op reads and writes no memory."""


class AlwaysSpeculatable(Trait):
    """The op may be executed speculatively (it cannot trap)."""


class Pure(NoMemoryEffect, AlwaysSpeculatable):
    """No memory effects and always speculatable: removable when unused, hoistable."""


class Commutative(Trait):
    """The op's operands may be reordered (its value does not depend on their order)."""


class ConstantLike(Trait):
    """The op materializes a constant: no operands and one result."""

    @staticmethod
    def verify(op: Operation) -> None:
        if op.num_operands:
            raise op.emit_error("requires zero operands")
        if op.num_results != 1:
            raise op.emit_error("requires one result")


class ReturnLike(Trait):
    """A terminator that returns its operands to the parent op (or function)."""


class OpAsmOpInterface(Trait):
    """The op names its results in printed IR (MLIR's ``getAsmResultNames``): its class defines
    ``asm_result_name(self) -> str | None``, the name the printer gives the op's results before
    making it unique (``cst`` prints ``%cst``, then ``%cst_0``, ...); None keeps the number."""


class RecursiveMemoryEffects(Trait):
    """The op's memory effects are those of the ops in its regions (plus its own markers)."""


class MemoryEffect(Trait):
    """Base of the memory effect markers."""


class MemRead(MemoryEffect):
    """The op reads memory."""


class MemWrite(MemoryEffect):
    """The op writes memory."""


class MemAlloc(MemoryEffect):
    """The op allocates memory."""


class MemFree(MemoryEffect):
    """The op frees memory."""


class SameVariadicOperandSize(Trait):
    """All variadic operand groups have the same length (the accessors split operands evenly)."""


class SameVariadicResultSize(Trait):
    """All variadic result groups have the same length."""


class NoTerminator(Trait):
    """The op's regions' blocks need no terminator."""


def has_side_effects(op: Operation) -> bool:
    """Whether ``op`` may touch memory: False for ``Pure``/``NoMemoryEffect`` ops and for
    ``RecursiveMemoryEffects`` ops whose nested ops have none; True for unregistered ops and ops
    that declare no effects at all (the conservative answer)."""
    if not op.is_registered:
        return True
    if op.has_trait(RecursiveMemoryEffects):
        if op.has_trait(MemoryEffect):
            return True
        return any(has_side_effects(child) for region in op.regions for block in region.blocks
                   for child in block)
    if op.has_trait(MemoryEffect):
        return True
    return not op.has_trait(NoMemoryEffect)


# -- structure


class Terminator(Trait):
    """The op ends its block (branches, returns, yields)."""

    @staticmethod
    def verify(op: Operation) -> None:
        if op.parent is not None and op.parent.last_op is not op:
            raise op.emit_error("must be the last operation in the parent block")


class SingleBlock(Trait):
    """Each region of the op has at most one block."""

    @staticmethod
    def verify(op: Operation) -> None:
        for number, region in enumerate(op.regions):
            if not region.blocks:
                continue
            if len(region.blocks) != 1:
                raise op.emit_error(f"expects region #{number} to have 0 or 1 blocks")
            if not op.has_trait(NoTerminator) and region.blocks[0].first_op is None:
                raise op.emit_error("expects a non-empty block")


class IsolatedFromAbove(Trait):
    """The op's regions use no value defined outside the op."""

    @staticmethod
    def verify(op: Operation) -> None:
        for region in op.regions:
            for nested in region.walk():
                for number, value in enumerate(nested.operands):
                    owner = _region_owner(value)
                    if not op.is_ancestor(owner):
                        error = nested.emit_error("using value defined outside the region")
                        error.notes.append(
                            (op.location.diagnostic_position()[0],
                             "required by region isolation constraints"))
                        raise error


def _region_owner(value) -> Operation | None:
    region = value.parent_region
    return region.parent if region is not None else None


class HasParent(Trait):
    """The op must be directly inside one of ``PARENT_NAMES``; build with `HasParent.of`."""

    PARENT_NAMES: tuple[str, ...] = ()
    _made: dict[tuple[str, ...], type[HasParent]] = {}

    @classmethod
    def of(cls, *names: str) -> type[HasParent]:
        """The trait class requiring a parent op named one of ``names`` (one class per list)."""
        trait = cls._made.get(names)
        if trait is None:
            label = "_".join(n.replace(".", "_") for n in names)
            trait = type(f"HasParent_{label}", (HasParent,), {"PARENT_NAMES": names,
                                                               "__slots__": ()})
            cls._made[names] = trait
        return trait

    @classmethod
    def verify(cls, op: Operation) -> None:
        parent = op.parent_op
        if parent is not None and parent.name in cls.PARENT_NAMES:
            return
        names = ", ".join(cls.PARENT_NAMES)
        if len(cls.PARENT_NAMES) == 1:
            raise op.emit_error(f"expects parent op '{names}'")
        raise op.emit_error(f"expects parent op to be one of '{names}'")


def _verify_segments(op: Operation, attr_name: str, group: str, expected: int) -> None:
    sizes = op.get_attr(attr_name)
    if not isinstance(sizes, DenseArrayAttr) or sizes.element_type is not i32:
        raise op.emit_error(f"requires dense i32 array attribute '{attr_name}'")
    if any(size < 0 for size in sizes):
        raise op.emit_error(f"'{attr_name}' attribute cannot have negative elements")
    total = sum(sizes)
    if total != expected:
        raise op.emit_error(
            f"{group} count ({expected}) does not match with the total size ({total}) specified "
            f"in attribute '{attr_name}'")


class AttrSizedOperandSegments(Trait):
    """The ``operandSegmentSizes`` property (``array<i32: ...>``) splits the operands."""

    @staticmethod
    def verify(op: Operation) -> None:
        _verify_segments(op, "operandSegmentSizes", "operand", op.num_operands)


class AttrSizedResultSegments(Trait):
    """The ``resultSegmentSizes`` property (``array<i32: ...>``) splits the results."""

    @staticmethod
    def verify(op: Operation) -> None:
        _verify_segments(op, "resultSegmentSizes", "result", op.num_results)


# -- symbols and functions

_VISIBILITIES = ("public", "private", "nested")


class Symbol(Trait):
    """The op defines a symbol named by its ``sym_name`` string attribute."""

    @staticmethod
    def verify(op: Operation) -> None:
        if not isinstance(op.get_attr("sym_name"), StringAttr):
            raise op.emit_error("requires string attribute 'sym_name'")
        visibility = op.get_attr("sym_visibility")
        if visibility is not None and (not isinstance(visibility, StringAttr)
                                       or visibility.value not in _VISIBILITIES):
            raise op.emit_error(
                'visibility expected to be one of ["public", "private", "nested"], but got '
                f"{visibility}")


class SymbolTable(Trait):
    """The op's single-block region holds uniquely named symbols."""

    @staticmethod
    def verify(op: Operation) -> None:
        if len(op.regions) != 1:
            raise op.emit_error("Operations with a 'SymbolTable' must have exactly one region")
        if len(op.regions[0].blocks) != 1:
            raise op.emit_error("Operations with a 'SymbolTable' must have exactly one block")
        seen: dict[str, Operation] = {}
        for child in op.regions[0].blocks[0]:
            name = child.get_attr("sym_name")
            if not isinstance(name, StringAttr):
                continue
            first = seen.setdefault(name.value, child)
            if first is not child:
                loc, source = child.location.diagnostic_position()
                note = (first.location.diagnostic_position()[0],
                        "see existing symbol definition here")
                raise VerificationError(f"redefinition of symbol named '{name.value}'", loc, source,
                                        [note], op=child)

    @staticmethod
    def lookup(op: Operation, name: str) -> Operation | None:
        """The op named ``name`` directly in the symbol table ``op``, or None."""
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    sym = child.get_attr("sym_name")
                    if isinstance(sym, StringAttr) and sym.value == name:
                        return child
        return None


class FunctionLike(Trait):
    """A function: a ``function_type`` attribute and, when it has a body, an entry block whose
    arguments match the inputs."""

    @staticmethod
    def verify(op: Operation) -> None:
        attr = op.get_attr("function_type")
        if not isinstance(attr, TypeAttr) or not isinstance(attr.value, FunctionType):
            raise op.emit_error("requires a 'function_type' attribute of function type")
        if not op.regions or not op.regions[0].blocks:
            return
        inputs = attr.value.inputs
        args = op.regions[0].blocks[0].arguments
        if len(args) != len(inputs):
            raise op.emit_error(
                f"entry block must have {len(inputs)} arguments to match function signature")
        for number, (arg, expected) in enumerate(zip(args, inputs)):
            if arg.type is not expected:
                raise op.emit_error(
                    f"type of entry block argument #{number}({arg.type}) must match the type of "
                    f"the corresponding argument in function signature({expected})")


class CallOpInterface(Trait):
    """The op calls a function (MLIR's ``CallOpInterface``): by the symbol reference in its
    ``callee`` attribute, or, without one, through its first operand (a value of function type);
    the other operands are the call's arguments and its results the function's."""


class DefaultDialect(Trait):
    """Ops directly in the op's regions may leave out the prefix of ``DIALECT`` (MLIR's
    ``OpAsmOpInterface::getDefaultDialect``): in a ``func.func``, ``return`` is ``func.return``,
    and the printer leaves the prefix out there too; build with `DefaultDialect.of`."""

    DIALECT: str = ""
    _made: dict[str, type[DefaultDialect]] = {}

    @classmethod
    def of(cls, dialect: str) -> type[DefaultDialect]:
        """The trait class making ``dialect`` the default (one class per dialect)."""
        trait = cls._made.get(dialect)
        if trait is None:
            trait = type(f"DefaultDialect_{dialect}", (DefaultDialect,),
                         {"DIALECT": dialect, "__slots__": ()})
            cls._made[dialect] = trait
        return trait


def default_dialect(op_class: type) -> str:
    """The default dialect of the regions of ``op_class``'s ops ("" for none)."""
    for trait in getattr(op_class, "TRAITS", ()):
        if issubclass(trait, DefaultDialect):
            return trait.DIALECT
    return ""


# -- types of operands and results


def _all_types(op: Operation) -> list:
    return [v.type for v in op.operands] + [r.type for r in op.results]


def _require_operands_and_results(op: Operation) -> None:
    if not op.num_operands:
        raise op.emit_error("expected 1 or more operands, but found 0")
    if not op.num_results:
        raise op.emit_error("expected 1 or more results, but found 0")


def _compatible_shapes(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(x == y or DYNAMIC in (x, y) for x, y in zip(a, b))


class SameOperandsAndResultType(Trait):
    """All operands and results have one type."""

    @staticmethod
    def verify(op: Operation) -> None:
        _require_operands_and_results(op)
        types = _all_types(op)
        if any(t is not types[0] for t in types):
            raise op.emit_error("requires the same type for all operands and results")


class SameTypeOperands(Trait):
    """All operands have one type."""

    @staticmethod
    def verify(op: Operation) -> None:
        types = [v.type for v in op.operands]
        if any(t is not types[0] for t in types):
            raise op.emit_error("requires all operands to have the same type")


def _verify_same_shape(op: Operation, types: list, message: str) -> None:
    shapes = [shape_of(t) for t in types]
    if any(not _compatible_shapes(s, shapes[0]) for s in shapes):
        raise op.emit_error(message)


class SameOperandsShape(Trait):
    """All operands have one shape (or are all scalars)."""

    @staticmethod
    def verify(op: Operation) -> None:
        if not op.num_operands:
            raise op.emit_error("expected 1 or more operands, but found 0")
        _verify_same_shape(op, [v.type for v in op.operands],
                           "requires the same shape for all operands")


class SameOperandsAndResultShape(Trait):
    """All operands and results have one shape (or are all scalars)."""

    @staticmethod
    def verify(op: Operation) -> None:
        _require_operands_and_results(op)
        _verify_same_shape(op, _all_types(op),
                           "requires the same shape for all operands and results")


class SameOperandsElementType(Trait):
    """All operands have one element type (a scalar is its own element type)."""

    @staticmethod
    def verify(op: Operation) -> None:
        if not op.num_operands:
            raise op.emit_error("expected 1 or more operands, but found 0")
        elements = [element_type_of(v.type) for v in op.operands]
        if any(e is not elements[0] for e in elements):
            raise op.emit_error("requires the same element type for all operands")


class SameOperandsAndResultElementType(Trait):
    """All operands and results have one element type (a scalar is its own element type)."""

    @staticmethod
    def verify(op: Operation) -> None:
        _require_operands_and_results(op)
        elements = [element_type_of(t) for t in _all_types(op)]
        if any(e is not elements[0] for e in elements):
            raise op.emit_error("requires the same element type for all operands and results")


def _verify_same_encoding(op: Operation, types: list, message: str) -> None:
    encodings = [e for e in map(encoding_of, types) if e is not None]
    if any(e is not encodings[0] for e in encodings):
        raise op.emit_error(message)


class SameOperandsEncoding(Trait):
    """The operands that are tensors with an encoding share it (Triton's trait)."""

    @staticmethod
    def verify(op: Operation) -> None:
        _verify_same_encoding(op, [v.type for v in op.operands],
                              "requires the same encoding for all operands")


class SameOperandsAndResultEncoding(Trait):
    """The operands and results that are tensors with an encoding share it (Triton's trait;
    an op without operands passes)."""

    @staticmethod
    def verify(op: Operation) -> None:
        _verify_same_encoding(op, _all_types(op),
                              "requires the same encoding for all operands and results")


class Elementwise(Trait):
    """The op applies element by element: its tensor operands and results share one shape and
    kind of type, and scalars mix only with scalars on the result side."""

    @staticmethod
    def verify(op: Operation) -> None:
        results = [r.type for r in op.results if r.type.IS_SHAPED]
        operands = [v.type for v in op.operands if v.type.IS_SHAPED]
        if not results and not operands:
            return
        if not operands:
            raise op.emit_error(
                "if a result is non-scalar, then at least one operand must be non-scalar")
        if not results:
            raise op.emit_error(
                "if an operand is non-scalar, then there must be at least one non-scalar result")
        if len(results) != op.num_results:
            raise op.emit_error("if an operand is non-scalar, then all results must be non-scalar")
        shaped = operands + results
        if any(type(t) is not type(shaped[0]) or not _compatible_shapes(t.shape, shaped[0].shape)
               for t in shaped):
            raise op.emit_error(
                "all non-scalar operands/results must have the same shape and base type")


__all__ = [
    "Trait", "NoMemoryEffect", "AlwaysSpeculatable", "Pure", "Commutative", "ConstantLike",
    "ReturnLike", "OpAsmOpInterface", "RecursiveMemoryEffects", "MemoryEffect", "MemRead", "MemWrite", "MemAlloc",
    "MemFree", "SameVariadicOperandSize", "SameVariadicResultSize", "NoTerminator", "Terminator",
    "SingleBlock", "IsolatedFromAbove", "HasParent", "AttrSizedOperandSegments",
    "AttrSizedResultSegments", "Symbol", "SymbolTable", "FunctionLike", "CallOpInterface",
    "DefaultDialect", "default_dialect",
    "SameOperandsAndResultType", "SameTypeOperands", "SameOperandsShape",
    "SameOperandsAndResultShape", "SameOperandsElementType", "SameOperandsAndResultElementType",
    "SameOperandsEncoding", "SameOperandsAndResultEncoding", "Elementwise", "has_side_effects",
]
