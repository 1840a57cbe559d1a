"""The internal operators behind literals and suffixes whose parts are not known yet: lists,
bits, dags, ``a.b``, ``a[i]`` and ``Class<args>``."""

from __future__ import annotations

from typing import Any

from .errors import TdError
from .operands import as_int, element_type, int_like, list_like, record_like, typed
from .terms import (INCOMPATIBLE, FoldContext, Op, OpSpec, Term, convert, describe, format_dag,
                    format_value, make_op, tblgen_version, type_of)
from .tdtypes import ANY, BIT, DAG, BitsType, ListType, RecordType, TdType, common_type
from .values import DagValue, Record, TdList, Unset


def _list_check(op: Op, ctx: FoldContext) -> TdType:
    element, written = op.param
    if written:
        for index, item in enumerate(op.args):
            if convert(item, element, ctx.class_isa) is INCOMPATIBLE:
                raise TdError(f"list element {describe(item)} does not fit in "
                              f"'list<{element}>'", op.locs[index])
    return ListType(element)


def _deduce_element(items: list[Any], locs: tuple[Any, ...], ctx: FoldContext) -> TdType:
    element: TdType = ANY
    for index, item in enumerate(items):
        merged = common_type(element, type_of(item), (ctx.class_parents, ctx.class_isa))
        if merged is None:
            raise TdError(f"list elements have incompatible types '{element}' and "
                          f"'{type_of(item)}'", locs[index])
        element = merged
    return element


def _list_fold(op: Op, ctx: FoldContext) -> Any:
    element, written = op.param
    if not written:
        return TdList(op.args, element)
    return TdList((convert(item, element, ctx.class_isa) for item in op.args), element)


LIST = OpSpec("list", _list_check, _list_fold,
              lambda op: "[" + ", ".join(map(format_value, op.args)) + "]")
"""``[items]``: ``param`` is the element type and whether it was written (``[...]<type>``,
items converted to it) or deduced from the items when the list was read. It stays when the
items are resolved later, as TableGen keeps a list's type."""


def make_list(items: list[Any], locs: tuple[Any, ...], loc: Any, element: TdType | None,
              ctx: FoldContext) -> Any:
    """A list value (or a term, if some items are unknown) of ``items``: of ``element``s, or
    of the common type of ``items`` when ``element`` is None."""
    written = element is not None
    if element is None:
        element = _deduce_element(items, locs, ctx)
    return make_op(LIST, tuple(items), tuple(locs), loc, (element, written), ctx)


def _bits_fold(op: Op, ctx: FoldContext) -> Any:
    for index, bit in enumerate(op.args):
        if bit is not Unset and as_int(bit) not in (0, 1):
            raise TdError(f"a bit must be 0, 1 or ?; got {describe(bit)}", op.locs[index])
    bits = tuple(bit if bit is Unset else as_int(bit) for bit in op.args)
    return int("".join(map(str, bits)), 2) if Unset not in bits else bits


BITS = OpSpec("bits", typed([int_like], lambda op: BitsType(len(op.args)), variadic=True),
              _bits_fold, lambda op: "{ " + ", ".join(map(format_value, op.args)) + " }")
"""``{a, b, c}``: bits, most significant first."""


def _bit_fold(op: Op, ctx: FoldContext) -> Any:
    value, index = op.args[0], op.param
    if isinstance(value, tuple):
        return value[len(value) - 1 - index]
    number = as_int(value)
    return None if number is None else (number >> index) & 1


BIT_OF = OpSpec("bit", lambda op, ctx: BIT, _bit_fold,
                lambda op: f"{format_value(op.args[0])}{{{op.param}}}")
"""``value{index}``: one bit of a bits value; ``param`` is the index (0 is the lowest bit)."""


def split_bits(value: Term, width: int, loc: Any, ctx: FoldContext) -> Any:
    """An unknown value stored in a ``bits<width>`` field: TableGen keeps it as its bits,
    ``{ value{width-1}, ..., value{0} }``, each resolved on its own later."""
    bits = tuple(make_op(BIT_OF, (value,), (loc,), loc, index, ctx)
                 for index in reversed(range(width)))
    return make_op(BITS, bits, (loc,) * width, loc, None, ctx)


def _dag_check(op: Op, ctx: FoldContext) -> TdType:
    if not record_like(type_of(op.args[0])):
        raise TdError(f"a dag operator must be a record; got {describe(op.args[0])}", op.locs[0])
    return DAG


DAG_LITERAL = OpSpec(
    "dag", _dag_check,
    lambda op, ctx: DagValue(op.args[0], TdList(zip(op.args[1:], op.param[1])), op.param[0]),
    lambda op: format_dag(op.args[0], op.param[0], list(zip(op.args[1:], op.param[1]))))
"""``(op args...)``: ``param`` is ``(operator name, argument names)``."""


def _field_check(op: Op, ctx: FoldContext) -> TdType:
    base, name = op.args[0], op.param
    if isinstance(base, Record):
        if name not in base.fields:
            raise TdError(f"record '{base.name}' has no field '{name}'", op.loc)
        return base.fields[name].type
    kind = type_of(base)
    if kind is ANY:
        return ANY
    if not isinstance(kind, RecordType):
        raise TdError(f"cannot access field '{name}' of {describe(base)}", op.loc)
    classes = [ctx.lookup_class(c) for c in kind.classes]
    for cls in classes:
        if cls is not None and name in cls.fields:
            return cls.fields[name].type
    if kind.classes:
        raise TdError(f"class '{kind}' has no field '{name}'", op.loc)
    return ANY


def _field_fold(op: Op, ctx: FoldContext) -> Any:
    base = op.args[0]
    if not isinstance(base, Record):
        return None
    value = base.fields[op.param].value
    return None if isinstance(value, Term) else value


FIELD = OpSpec("field", _field_check, _field_fold,
               lambda op: f"{format_value(op.args[0])}.{op.param}")
"""``value.field``: ``param`` is the field name."""


def _index_fold(op: Op, ctx: FoldContext) -> Any:
    """``list[index]``; an index out of range stays unresolved, as in TableGen (it may sit in
    the branch of an ``!if`` that is not taken), and is an error only where a def must be
    fully resolved."""
    items, index = op.args[0], as_int(op.args[1])
    if not isinstance(items, TdList) or index is None or not 0 <= index < len(items):
        return None
    return items[index]


INDEX = OpSpec("index", typed([list_like, int_like],
                             lambda op: element_type(type_of(op.args[0]))), _index_fold,
               lambda op: f"{format_value(op.args[0])}[{format_value(op.args[1])}]")
"""``list[index]``."""


def _anon_format(op: Op) -> str:
    cls, keys = op.param
    if tblgen_version() < 19:
        args = map(format_value, op.args)
    else:
        args = (f"{key}: {format_value(value)}" if isinstance(key, int)
                else f'"{key}": {format_value(value)}' for key, value in zip(keys, op.args))
    return f"{cls.name}<" + ", ".join(args) + ">"


ANON = OpSpec("anonymous record", lambda op, ctx: RecordType((op.param[0].name,)),
              lambda op, ctx: ctx.instantiate(*op.param, op.args, op.loc), _anon_format)
"""``Class<args>``: ``param`` is the class and how each of ``args`` was given (a position, or
the qualified name of a named argument); ``args`` are the values written."""
