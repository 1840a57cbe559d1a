"""Run-time support for the op, attribute and type classes that tools/gen writes.

Generated modules do `from tilecraft.ir.ods import *`: `DefinedOp` (the base of generated op
classes: operand and result groups, MLIR-style constraint errors), helpers that generated
parsers call, and `finish_dialect`, which loads a dialect's hand-written hooks and checks that
every hook the `.td` declares exists.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple

from tilecraft.codegen.diagnostics import Diagnostic

from .attributes import Attribute, DenseArrayAttr
from .errors import ParseError
from .operation import Operation
from .types import IntegerType, RankedTensorType

__all__ = [
    "DefinedOp", "HookError", "all_equal", "ensure_entry_block", "i1_like", "finish_dialect", "implements", "parse_enum_keyword",
    "parse_boolean", "parse_int_list", "parse_more_types", "parse_optional", "parse_struct", "parse_successor_list",
    "parse_type_group", "split_counts", "split_groups",
]


class MissingHook(NamedTuple):
    """A hook that `.td` declares for a generated class and its hooks module does not define."""

    name: str  # the op's name (`tt.dot`) or the attribute's or type's (`ttg.blocked`)
    class_name: str
    hook: str
    hooks_module: str


class HookError(Diagnostic):
    """A hook declared in `.td` (hasVerifier, hasFolder, ...) that no one implemented."""

    def __init__(self, missing: MissingHook) -> None:
        super().__init__(f"'{missing.name}' declares the hook '{missing.hook}' in .td, but "
                         f"{missing.hooks_module} does not implement "
                         f"{missing.class_name}.{missing.hook}")
        self.missing = missing


_collected: list[MissingHook] | None = None


@contextmanager
def collecting_missing_hooks() -> Iterator[list[MissingHook]]:
    """Within the block, `finish_dialect` records missing hooks in the yielded list instead of
    raising, so that tools/gen's hook check reports every one of them at once."""
    global _collected
    outer, _collected = _collected, []
    try:
        yield _collected
    finally:
        _collected = outer


def all_equal(*items: object) -> bool:
    """True when all items are equal (types are uniqued, so this compares identities)."""
    return all(item == items[0] for item in items[1:])


def ensure_entry_block(region):
    """Give an empty region the one empty block that single-block ops without a terminator
    (`module`) always have; returns the region."""
    if not region.blocks:
        region.add_block()
    return region


def i1_like(type_):
    """i1 for a scalar; for a tensor, a tensor of i1 with its shape and encoding (cmpi's result)."""
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, IntegerType(1), type_.encoding)
    return IntegerType(1)


def _segments(kinds: Sequence[str], count: int, sizes: Sequence[int] | None,
              same_size: bool) -> list[tuple[int, int]]:
    """(start, length) of each group of values given the group kinds."""
    if sizes is not None:
        lengths = list(sizes)
    else:
        flexible = [i for i, kind in enumerate(kinds) if kind != "single"]
        singles = len(kinds) - len(flexible)
        lengths = [1] * len(kinds)
        if flexible:
            extra = count - singles
            share = extra // len(flexible) if same_size else extra
            for i in flexible:
                lengths[i] = share
    out, start = [], 0
    for length in lengths:
        out.append((start, length))
        start += length
    return out


class DefinedOp(Operation):
    """The base of op classes generated from `.td`: named groups of operands and results."""

    __slots__ = ()
    OPERAND_GROUPS: tuple[str, ...] = ()
    RESULT_GROUPS: tuple[str, ...] = ()
    # The declared results' names when the printer names them (several results, see
    # `named_result_groups`); empty when the results print as numbers.
    ASM_RESULT_NAMES: tuple[str, ...] = ()
    PROPERTY_NAMES: tuple[str, ...] = ()
    HOOKS: tuple[str, ...] = ()
    DEFAULT_VALUED: tuple[tuple[str, str, object], ...] = ()

    def _group(self, values: Sequence, kinds: tuple[str, ...], index: int, segment_attr: str,
               same_size_trait: str) -> list:
        sizes = self.properties.get(segment_attr)
        same = any(t.__name__ == same_size_trait for t in self.TRAITS)
        start, length = _segments(kinds, len(values),
                                  sizes.values if isinstance(sizes, DenseArrayAttr) else None,
                                  same)[index]
        return list(values[start:start + length])

    def operand_group(self, index: int) -> list:
        """The operands of the `index`-th declared operand (one, optional or variadic)."""
        return self._group(self.operands, self.OPERAND_GROUPS, index, "operandSegmentSizes",
                           "SameVariadicOperandSize")

    def result_group(self, index: int) -> list:
        """The results of the `index`-th declared result."""
        return self._group(self.results, self.RESULT_GROUPS, index, "resultSegmentSizes",
                           "SameVariadicResultSize")

    def named_result_groups(self) -> list[tuple[int, str]]:
        """(first result, name) of each non-empty declared result group with a name in
        `ASM_RESULT_NAMES`, as MLIR's ODS-generated ``getAsmResultNames``: the printer writes
        ``%outLHS, %outRHS = tt.split``."""
        sizes = self.properties.get("resultSegmentSizes")
        same = any(t.__name__ == "SameVariadicResultSize" for t in self.TRAITS)
        segments = _segments(self.RESULT_GROUPS, len(self.results),
                             sizes.values if isinstance(sizes, DenseArrayAttr) else None, same)
        return [(start, name) for (start, length), name in zip(segments, self.ASM_RESULT_NAMES)
                if length and name]

    def verify_groups(self) -> None:
        """Check operand and result counts against the declared groups and segment sizes."""
        for what, values, kinds, attr in (
            ("operand", self.operands, self.OPERAND_GROUPS, "operandSegmentSizes"),
            ("result", self.results, self.RESULT_GROUPS, "resultSegmentSizes"),
        ):
            sizes = self.properties.get(attr)
            singles = sum(1 for k in kinds if k == "single")
            flexible = len(kinds) - singles
            if isinstance(sizes, DenseArrayAttr):
                if len(sizes.values) != len(kinds):
                    raise self.emit_error(f"'{attr}' attribute for specifying {what} segments "
                                          f"must have {len(kinds)} elements, but got "
                                          f"{len(sizes.values)}")
                if sum(sizes.values) != len(values):
                    raise self.emit_error(f"{what} count ({len(values)}) does not match with "
                                          f"the total size ({sum(sizes.values)}) specified in "
                                          f"attribute '{attr}'")
                for kind, size in zip(kinds, sizes.values):
                    if (kind == "single" and size != 1) or (kind == "optional" and size > 1):
                        raise self.emit_error(f"'{attr}' gives a {kind} {what} group {size} "
                                              "values")
            elif flexible == 0 and len(values) != singles:
                raise self.emit_error(f"expected {singles} {what}s, but found {len(values)}")
            elif flexible and len(values) < singles:
                raise self.emit_error(f"expected {singles} or more {what}s, but found "
                                      f"{len(values)}")
            elif flexible == 1 and "optional" in kinds and len(values) > singles + 1:
                raise self.emit_error(f"expected at most {singles + 1} {what}s, but found "
                                      f"{len(values)}")

    def attributes_at_default(self) -> tuple[str, ...]:
        """Names of default-valued attributes set to their default (custom forms elide them)."""
        return tuple(name for name, accessor, default in self.DEFAULT_VALUED
                     if name in self.properties and getattr(self, accessor) == default)

    def all_attributes(self) -> dict[str, Attribute]:
        """Inherent and discardable attributes together, as a custom format's attr-dict shows."""
        return {**self.properties, **self.attributes}

    @classmethod
    def split_attributes(cls, attrs: dict[str, Attribute]) -> tuple[dict, dict]:
        """Split a parsed attribute dictionary into (properties, discardable attributes)."""
        properties = {k: v for k, v in attrs.items() if k in cls.PROPERTY_NAMES}
        others = {k: v for k, v in attrs.items() if k not in cls.PROPERTY_NAMES}
        return properties, others

    def type_error(self, what: str, value, summary: str) -> Diagnostic:
        """`'op' op operand #0 must be <summary>, but got '<type>'`."""
        values = self.operands if what == "operand" else self.results
        index = next(i for i, v in enumerate(values) if v is value)
        return self.emit_error(f"{what} #{index} must be {summary}, but got '{value.type}'")

    def attribute_error(self, name: str, summary: str) -> Diagnostic:
        return self.emit_error(f"attribute '{name}' failed to satisfy constraint: {summary}")

    def region_error(self, region, name: str, summary: str) -> Diagnostic:
        index = self.regions.index(region)
        return self.emit_error(f"region #{index} ('{name}') failed to verify constraint: "
                               f"{summary}")


# -- helpers that generated parsers call -------------------------------------------------------


def parse_type_group(parser, single: bool) -> list:
    """`type($x)`: one type for a single operand/result, else a possibly empty list."""
    if single:
        return [parser.parse_type()]
    first = parser.parse_optional_type()
    return [] if first is None else [first] + parse_more_types(parser)


def parse_more_types(parser) -> list:
    """`, type`* after a first type."""
    types = []
    while parser.parse_optional_punct(","):
        types.append(parser.parse_type())
    return types


def parse_optional(parser, parse: Callable[[], object]) -> object | None:
    """Run a custom attribute parser; when what follows is not such an attribute, rewind and
    return None (optional groups anchored on an attribute with a custom syntax)."""
    start = parser.i
    try:
        return parse()
    except ParseError:
        parser.i = start
        return None


def parse_boolean(parser) -> bool:
    """`true` or `false`."""
    token = parser.i
    word = parser.parse_optional_keyword(("true", "false"))
    if word is None:
        parser.error("expected 'true' or 'false'", token)
    return word == "true"


def parse_int_list(parser) -> tuple[int, ...]:
    """`[1, 2, 3]` (possibly empty)."""
    parser.parse_punct("[")
    values: list[int] = []
    if not parser.parse_optional_punct("]"):
        values.append(parser.parse_integer())
        while parser.parse_optional_punct(","):
            values.append(parser.parse_integer())
        parser.parse_punct("]")
    return tuple(values)


def parse_successor_list(parser) -> list:
    block = parser.parse_optional_successor()
    if block is None:
        return []
    blocks = [block]
    while parser.parse_optional_punct(","):
        blocks.append(parser.parse_successor())
    return blocks


def split_groups(items: list, kinds: Sequence[str]) -> list[list]:
    """Split values among groups: singles take one, the one flexible group the rest."""
    lengths = [length for _, length in _segments(kinds, len(items), None, False)]
    return split_counts(items, lengths)


def split_counts(items: list, counts: Sequence[int]) -> list[list]:
    out, start = [], 0
    for count in counts:
        out.append(items[start:start + count])
        start += count
    return out


def parse_enum_keyword(parser, cases: dict, enum_name: str):
    """Parse one of an enum's keywords, bare or quoted (MLIR accepts `slt` and `"slt"`)."""
    token = parser.i
    keyword = parser.parse_optional_keyword()
    if keyword is None:
        keyword = parser.parse_optional_string()
    if keyword is None or keyword not in cases:
        expected = ", ".join(f"'{k}'" for k in cases)
        parser.error(f"expected {enum_name} to be one of: {expected}", token)
    return cases[keyword]


def parse_struct(parser, fields: dict[str, Callable[[], object]]) -> dict[str, object]:
    """`{name = value, ...}` with each field at most once, in any order."""
    values: dict[str, object] = {}
    parser.parse_punct("{")
    if parser.parse_optional_punct("}"):
        return values
    while True:
        token = parser.i
        name = parser.parse_optional_keyword()
        if name is None or name not in fields:
            parser.error(f"expected one of the fields {', '.join(fields)}", token)
        if name in values:
            parser.error(f"duplicate field '{name}'", token)
        parser.parse_punct("=")
        values[name] = fields[name]()
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct("}")
    return values


def finish_dialect(dialect, hooks_module: str) -> None:
    """Import the dialect's hooks module if any class declares hooks, then check them all:
    a HookError for the first one missing (see `collecting_missing_hooks`)."""
    classes = [*dialect.ops.values(), *dialect.types.values(), *dialect.attributes.values()]
    declared = [(cls, hook) for cls in classes for hook in getattr(cls, "HOOKS", ())]
    if not declared:
        return
    try:
        importlib.import_module(hooks_module)
    except ModuleNotFoundError as err:
        if err.name != hooks_module and not hooks_module.startswith(f"{err.name}."):
            raise
    for cls, hook in declared:
        if hook not in cls.__dict__:
            name = getattr(cls, "OPERATION_NAME", None) or f"{dialect.name}.{cls.MNEMONIC}"
            missing = MissingHook(name, cls.__name__, hook, hooks_module)
            if _collected is None:
                raise HookError(missing)
            _collected.append(missing)


def implements(cls: type) -> Callable:
    """Decorator for hooks modules: attach the decorated function to `cls` under its name.

    ``@implements(CmpIOp)`` above ``def custom_verify(self): ...`` supplies the verifier that
    `hasVerifier` declares; it also takes classmethods (``parse``) and staticmethods.
    """

    def attach(function):
        name = getattr(function, "__func__", function).__name__
        setattr(cls, name, function)
        return function

    return attach
