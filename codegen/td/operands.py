"""Checks and helpers shared by the operators of `bang` and `literals`.

Predicates such as `int_like` test a static type and accept `ANY` (not known yet); `typed` builds
the usual check of an operator from them.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import TdError
from .terms import FoldContext, Op, describe, type_of
from .tdtypes import ANY, DAG, STRING, ListType, RecordType, TdType, common_type, is_integral
from .values import Unset

MASK64 = (1 << 64) - 1


def i64(value: int) -> int:
    """``value`` wrapped to a signed 64-bit integer, as TableGen computes."""
    value &= MASK64
    return value - (1 << 64) if value >> 63 else value


def as_int(value: Any) -> int | None:
    """``value`` as an int (bits whose every bit is set count), or None."""
    if isinstance(value, int):
        return value
    if isinstance(value, tuple) and Unset not in value:
        return int("".join(map(str, value)), 2)
    return None


def ints(args: tuple[Any, ...]) -> list[int] | None:
    """All of ``args`` as ints, or None if one is not an integer."""
    values = [as_int(arg) for arg in args]
    return None if None in values else values  # type: ignore[return-value]


def bad_operand(op: Op, index: int, what: str) -> TdError:
    """The error for operand ``index`` of ``op``, which should have been ``what``."""
    return TdError(f"operand {index + 1} of {op.spec.name} must be {what}; got "
                   f"{describe(op.args[index])}", op.locs[index])


# --- Static type predicates: does a value of this type fit (ANY, not known yet, always does)? --

def int_like(t: TdType) -> bool:
    return t is ANY or is_integral(t)


def string_like(t: TdType) -> bool:
    return t is ANY or t is STRING


def list_like(t: TdType) -> bool:
    return t is ANY or isinstance(t, ListType)


def dag_like(t: TdType) -> bool:
    return t is ANY or t is DAG


def record_like(t: TdType) -> bool:
    return t is ANY or isinstance(t, RecordType)


def anything(t: TdType) -> bool:
    return True


def element_type(t: TdType) -> TdType:
    """The element type of a list type (ANY when not known)."""
    return t.element if isinstance(t, ListType) else ANY


WHAT: dict[Callable[[TdType], bool], str] = {
    int_like: "an integer", string_like: "a string", list_like: "a list", dag_like: "a dag",
    record_like: "a record", anything: "a value"}
"""How error messages name what each predicate wants."""

Check = Callable[[Op, FoldContext], TdType]
Fold = Callable[[Op, FoldContext], Any]


def check_arity(op: Op, low: int, high: int | None) -> None:
    """``op`` has between ``low`` and ``high`` (None: any number of) operands."""
    count = len(op.args)
    if low <= count and (high is None or count <= high):
        return
    if high == low:
        expected = f"{low} operand{'s' if low != 1 else ''}"
    elif high is None:
        expected = f"at least {low} operands"
    else:
        expected = f"{low} to {high} operands"
    raise TdError(f"{op.spec.name} expects {expected}, got {count}", op.loc)


def check_type_param(op: Op, allowed: str | None) -> None:
    """Check the ``<type>`` argument: ``allowed`` is None (none), "optional" or "required"."""
    if op.param is not None and allowed is None:
        raise TdError(f"{op.spec.name} does not take a type argument", op.loc)
    if op.param is None and allowed == "required":
        raise TdError(f"{op.spec.name} needs a type argument, as in {op.spec.name}<string>(...)",
                      op.loc)


def typed(operands: list[Callable[[TdType], bool]], result: TdType | Callable[[Op], TdType],
          optional: int = 0, variadic: bool = False, type_param: str | None = None) -> Check:
    """A check: operand i must satisfy ``operands[i]`` (the last repeats when ``variadic``);
    the last ``optional`` operands may be left out; ``type_param`` as in `check_type_param`."""
    def check(op: Op, ctx: FoldContext) -> TdType:
        check_type_param(op, type_param)
        check_arity(op, len(operands) - optional, None if variadic else len(operands))
        for index, arg in enumerate(op.args):
            predicate = operands[min(index, len(operands) - 1)]
            if not predicate(type_of(arg)):
                raise bad_operand(op, index, WHAT[predicate])
        return result(op) if callable(result) else result
    return check


def pastable(t: TdType) -> bool:
    return string_like(t) or is_integral(t) or isinstance(t, RecordType)


WHAT[pastable] = "a string, an integer or a record"


def concat_type(op: Op, ctx: FoldContext) -> TdType:
    """The check of ``!listconcat`` (and of ``#`` between lists)."""
    typed([list_like], ANY, variadic=True)(op, ctx)
    result: TdType = ANY
    for arg in op.args:
        merged = common_type(result, type_of(arg))
        if merged is None:
            raise TdError(f"operands of !listconcat have incompatible types '{result}' and "
                          f"'{type_of(arg)}'", op.loc)
        result = merged
    return result if isinstance(result, ListType) else ListType(ANY)
