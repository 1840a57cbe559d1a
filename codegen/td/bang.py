"""The operators: TableGen's bang operators (``!add``, ``!foreach``, ...) and the internal ones
behind literals and suffixes (lists, dags, bits, ``a.b``, ``a[i]``, ``a # b``, ``Class<args>``).

Each is an `OpSpec`: a type check, run as soon as the expression is read (so that ``!add(1, "a")``
is reported where it is written), and a fold, run once the operands are known.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import TdError
from .terms import (INCOMPATIBLE, FoldContext, MapResolver, Op, OpSpec, Term, convert, describe,
                    format_dag, format_value, make_op, resolve, type_of)
from .types import (ANY, BIT, DAG, INT, STRING, BitsType, ListType, RecordType, TdType,
                    common_type, is_integral)
from .values import Code, DagValue, Record, TdList, Unset

_MASK64 = (1 << 64) - 1


def _i64(value: int) -> int:
    """``value`` wrapped to a signed 64-bit integer, as TableGen computes."""
    value &= _MASK64
    return value - (1 << 64) if value >> 63 else value


def _as_int(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, tuple) and Unset not in value:
        return int("".join(map(str, value)), 2)
    return None


def _ints(args: tuple[Any, ...]) -> list[int] | None:
    values = [_as_int(arg) for arg in args]
    return None if None in values else values  # type: ignore[return-value]


def _bad_operand(op: Op, index: int, what: str) -> TdError:
    return TdError(f"operand {index + 1} of {op.spec.name} must be {what}; got "
                   f"{describe(op.args[index])}", op.locs[index])


# --- Static type predicates --------------------------------------------------------------------

def _integral(t: TdType) -> bool:
    return t is ANY or is_integral(t)


def _string(t: TdType) -> bool:
    return t is ANY or t is STRING


def _list(t: TdType) -> bool:
    return t is ANY or isinstance(t, ListType)


def _dag(t: TdType) -> bool:
    return t is ANY or t is DAG


def _record(t: TdType) -> bool:
    return t is ANY or isinstance(t, RecordType)


def _any(t: TdType) -> bool:
    return True


def _element(t: TdType) -> TdType:
    return t.element if isinstance(t, ListType) else ANY


_WHAT = {_integral: "an integer", _string: "a string", _list: "a list", _dag: "a dag",
         _record: "a record", _any: "a value"}

Check = Callable[[Op, FoldContext], TdType]
Fold = Callable[[Op, FoldContext], Any]


def _arity(op: Op, low: int, high: int | None) -> None:
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


def _type_param(op: Op, allowed: str | None) -> None:
    """Check the ``<type>`` argument: ``allowed`` is None (none), "optional" or "required"."""
    if op.param is not None and allowed is None:
        raise TdError(f"{op.spec.name} does not take a type argument", op.loc)
    if op.param is None and allowed == "required":
        raise TdError(f"{op.spec.name} needs a type argument, as in {op.spec.name}<string>(...)",
                      op.loc)


def _typed(operands: list[Callable[[TdType], bool]], result: TdType | Callable[[Op], TdType],
           optional: int = 0, variadic: bool = False, type_param: str | None = None) -> Check:
    """A check: operand i must satisfy ``operands[i]`` (the last repeats when ``variadic``);
    the last ``optional`` operands may be left out; ``type_param`` as in `_type_param`."""
    def check(op: Op, ctx: FoldContext) -> TdType:
        _type_param(op, type_param)
        _arity(op, len(operands) - optional, None if variadic else len(operands))
        for index, arg in enumerate(op.args):
            predicate = operands[min(index, len(operands) - 1)]
            if not predicate(type_of(arg)):
                raise _bad_operand(op, index, _WHAT[predicate])
        return result(op) if callable(result) else result
    return check


def _format_bang(op: Op) -> str:
    param = f"<{op.param}>" if isinstance(op.param, TdType) else ""
    return f"{op.spec.name}{param}(" + ", ".join(map(format_value, op.args)) + ")"


OPERATORS: dict[str, OpSpec] = {}


def _bang(name: str, check: Check, fold: Fold, lazy: bool = False) -> None:
    OPERATORS[name] = OpSpec("!" + name, check, fold, _format_bang, lazy)


# --- Arithmetic and logic ----------------------------------------------------------------------

def _arith(name: str, count: int, compute: Callable[[Op, list[int]], int],
           variadic: bool = False, result: TdType | Callable[[Op], TdType] = INT) -> None:
    def fold(op: Op, ctx: FoldContext) -> Any:
        values = _ints(op.args)
        return None if values is None else compute(op, values)
    _bang(name, _typed([_integral] * count, result, variadic=variadic), fold)


def _product(op: Op, values: list[int]) -> int:
    result = 1
    for value in values:
        result = _i64(result * value)
    return result


def _divide(op: Op, values: list[int]) -> int:
    a, b = values
    if b == 0:
        raise TdError("division by zero in !div", op.locs[1])
    quotient = abs(a) // abs(b)
    return _i64(-quotient if (a < 0) != (b < 0) else quotient)


def _shift(compute: Callable[[int, int], int]) -> Callable[[Op, list[int]], int]:
    def shift(op: Op, values: list[int]) -> int:
        value, amount = values
        if not 0 <= amount < 64:
            raise TdError(f"shift amount {amount} of {op.spec.name} is out of range [0, 63]",
                          op.locs[1])
        return _i64(compute(value, amount))
    return shift


def _bitwise(compute: Callable[[int, int], int]) -> Callable[[Op, list[int]], int]:
    def fold(op: Op, values: list[int]) -> int:
        result = values[0]
        for value in values[1:]:
            result = compute(result, value)
        return result
    return fold


def _logic_type(op: Op) -> TdType:
    return BIT if all(type_of(arg) is BIT for arg in op.args) else INT


def _logtwo(op: Op, values: list[int]) -> int:
    if values[0] <= 0:
        raise TdError(f"!logtwo of non-positive value {values[0]}", op.locs[0])
    return values[0].bit_length() - 1


_arith("add", 2, lambda op, v: _i64(sum(v)), variadic=True)
_arith("mul", 2, _product, variadic=True)
_arith("sub", 2, lambda op, v: _i64(v[0] - v[1]))
_arith("div", 2, _divide)
_arith("shl", 2, _shift(lambda a, b: a << b))
_arith("sra", 2, _shift(lambda a, b: a >> b))
_arith("srl", 2, _shift(lambda a, b: (a & _MASK64) >> b))
_arith("and", 2, _bitwise(lambda a, b: a & b), variadic=True, result=_logic_type)
_arith("or", 2, _bitwise(lambda a, b: a | b), variadic=True, result=_logic_type)
_arith("xor", 2, _bitwise(lambda a, b: a ^ b), variadic=True, result=_logic_type)
_arith("not", 1, lambda op, v: int(v[0] == 0), result=BIT)
_arith("logtwo", 1, _logtwo)


# --- Comparisons -------------------------------------------------------------------------------

def _comparison(name: str, compare: Callable[[Any, Any], bool], records: bool) -> None:
    kinds = "integers, strings or records" if records else "integers or strings"

    def check(op: Op, ctx: FoldContext) -> TdType:
        _type_param(op, None)
        _arity(op, 2, 2)
        a, b = (type_of(arg) for arg in op.args)
        if a is ANY or b is ANY or (is_integral(a) and is_integral(b)) or a == b == STRING or (
                records and isinstance(a, RecordType) and isinstance(b, RecordType)):
            return BIT
        raise TdError(f"operands of {op.spec.name} must both be {kinds}; got '{a}' and '{b}'",
                      op.loc)

    def fold(op: Op, ctx: FoldContext) -> Any:
        a, b = op.args
        if isinstance(a, (str, Record)) and isinstance(b, (str, Record)):
            return int(compare(a, b))
        a, b = _as_int(a), _as_int(b)
        return None if a is None or b is None else int(compare(a, b))
    _bang(name, check, fold)


_comparison("eq", lambda a, b: a is b if isinstance(a, Record) else a == b, records=True)
_comparison("ne", lambda a, b: a is not b if isinstance(a, Record) else a != b, records=True)
_comparison("lt", lambda a, b: a < b, records=False)
_comparison("le", lambda a, b: a <= b, records=False)
_comparison("gt", lambda a, b: a > b, records=False)
_comparison("ge", lambda a, b: a >= b, records=False)


# --- Strings -----------------------------------------------------------------------------------

def _like(original: str, text: str) -> str:
    """``text`` as code if ``original`` was written as code."""
    return Code(text) if isinstance(original, Code) else text


def _strconcat(op: Op, ctx: FoldContext) -> Any:
    if not all(isinstance(arg, str) for arg in op.args):
        return None
    text = "".join(op.args)
    return Code(text) if any(isinstance(arg, Code) for arg in op.args) else text


def _interleave(op: Op, ctx: FoldContext) -> Any:
    items, separator = op.args
    if not isinstance(items, TdList) or not isinstance(separator, str):
        return None
    if not all(isinstance(item, (str, int)) for item in items):
        return None
    return separator.join(map(str, items))


def _interleave_check(op: Op, ctx: FoldContext) -> TdType:
    _typed([_list, _string], STRING)(op, ctx)
    element = _element(type_of(op.args[0]))
    if not (_string(element) or is_integral(element)):
        raise _bad_operand(op, 0, "a list of strings or integers")
    return STRING


def _substr(op: Op, ctx: FoldContext) -> Any:
    text, start, *rest = op.args
    start = _as_int(start)
    length = _as_int(rest[0]) if rest else len(text)
    if not isinstance(text, str) or start is None or length is None:
        return None
    if start < 0 or length < 0:
        raise TdError(f"!substr start and length must not be negative; got {start} and "
                      f"{length}", op.loc)
    return _like(text, text[start:start + length])


def _find(op: Op, ctx: FoldContext) -> Any:
    text, pattern, *rest = op.args
    start = _as_int(rest[0]) if rest else 0
    if not isinstance(text, str) or not isinstance(pattern, str) or start is None:
        return None
    return text.find(pattern, start)


def _case(convert_case: Callable[[str], str]) -> Fold:
    def fold(op: Op, ctx: FoldContext) -> Any:
        text = op.args[0]
        return _like(text, convert_case(text)) if isinstance(text, str) else None
    return fold


def _subst_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    _arity(op, 3, 3)
    kinds = [type_of(arg) for arg in op.args]
    if all(_string(t) for t in kinds) or all(_record(t) for t in kinds):
        return kinds[2]
    raise TdError("operands of !subst must all be strings or all be records; got "
                  + ", ".join(f"'{t}'" for t in kinds), op.loc)


def _subst(op: Op, ctx: FoldContext) -> Any:
    target, replacement, value = op.args
    if isinstance(value, str) and isinstance(target, str) and isinstance(replacement, str):
        return _like(value, value.replace(target, replacement))
    if isinstance(value, Record):
        return replacement if value is target else value
    return None


_bang("strconcat", _typed([_string], STRING, variadic=True), _strconcat)
_bang("interleave", _interleave_check, _interleave)
_bang("substr", _typed([_string, _integral, _integral], STRING, optional=1), _substr)
_bang("find", _typed([_string, _string, _integral], INT, optional=1), _find)
_bang("tolower", _typed([_string], STRING), _case(str.lower))
_bang("toupper", _typed([_string], STRING), _case(str.upper))
_bang("subst", _subst_check, _subst)
_bang("repr", _typed([_any], STRING), lambda op, ctx: format_value(op.args[0]))


# --- Lists -------------------------------------------------------------------------------------

def _listconcat_check(op: Op, ctx: FoldContext) -> TdType:
    _typed([_list], ANY, variadic=True)(op, ctx)
    result: TdType = ANY
    for arg in op.args:
        merged = common_type(result, type_of(arg))
        if merged is None:
            raise TdError(f"operands of !listconcat have incompatible types '{result}' and "
                          f"'{type_of(arg)}'", op.loc)
        result = merged
    return result if isinstance(result, ListType) else ListType(ANY)


def _listconcat(op: Op, ctx: FoldContext) -> Any:
    if not all(isinstance(arg, TdList) for arg in op.args):
        return None
    return TdList(item for arg in op.args for item in arg)


def _listsplat(op: Op, ctx: FoldContext) -> Any:
    value, count = op.args[0], _as_int(op.args[1])
    if count is None:
        return None
    if count < 0:
        raise TdError(f"!listsplat count must not be negative; got {count}", op.locs[1])
    return TdList([value] * count)


def _listremove(op: Op, ctx: FoldContext) -> Any:
    items, removed = op.args
    if not isinstance(items, TdList) or not isinstance(removed, TdList):
        return None
    return TdList(item for item in items if item not in removed)


def _head_tail(head: bool) -> Fold:
    def fold(op: Op, ctx: FoldContext) -> Any:
        items = op.args[0]
        if not isinstance(items, TdList):
            return None
        if not items:
            raise TdError(f"{op.spec.name} of an empty list", op.locs[0])
        return items[0] if head else TdList(items[1:])
    return fold


def _sized(t: TdType) -> bool:
    return _list(t) or _dag(t) or _string(t)


_WHAT[_sized] = "a list, a dag or a string"


def _size(op: Op, ctx: FoldContext) -> Any:
    value = op.args[0]
    if isinstance(value, DagValue):
        return len(value.args)
    return len(value) if isinstance(value, (str, TdList)) else None


def _empty(op: Op, ctx: FoldContext) -> Any:
    size = _size(op, ctx)
    return None if size is None else int(size == 0)


def _range_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    _arity(op, 1, 3)
    first = type_of(op.args[0])
    if len(op.args) == 1 and not (_integral(first) or isinstance(first, ListType)):
        raise _bad_operand(op, 0, "an integer or a list")
    for index, arg in enumerate(op.args[1:] if len(op.args) > 1 else ()):
        if not _integral(type_of(arg)):
            raise _bad_operand(op, index + 1, "an integer")
    if len(op.args) > 1 and not _integral(first):
        raise _bad_operand(op, 0, "an integer")
    return ListType(INT)


def _range(op: Op, ctx: FoldContext) -> Any:
    if len(op.args) == 1 and isinstance(op.args[0], TdList):
        return TdList(range(len(op.args[0])))
    values = _ints(op.args)
    if values is None:
        return None
    if len(values) == 1:
        values = [0, values[0]]
    if len(values) == 3 and values[2] == 0:
        raise TdError("!range step must not be zero", op.locs[2])
    return TdList(range(*values))


_bang("listconcat", _listconcat_check, _listconcat)
_bang("listsplat", _typed([_any, _integral], lambda op: ListType(type_of(op.args[0]))),
      _listsplat)
_bang("listremove", _typed([_list, _list], lambda op: type_of(op.args[0])), _listremove)
_bang("head", _typed([_list], lambda op: _element(type_of(op.args[0]))), _head_tail(True))
_bang("tail", _typed([_list], lambda op: type_of(op.args[0])), _head_tail(False))
_bang("size", _typed([_sized], INT), _size)
_bang("empty", _typed([_sized], BIT), _empty)
_bang("range", _range_check, _range)


# --- Binding operators: !foreach, !foldl, !filter ----------------------------------------------
# Their variable is a `binder` Ref among the operands; folding substitutes each element for it.

def _foreach_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    _arity(op, 3, 3)
    sequence = type_of(op.args[1])
    if not (_list(sequence) or sequence is DAG):
        raise _bad_operand(op, 1, "a list or a dag")
    return DAG if sequence is DAG else ListType(type_of(op.args[2]))


def _foreach(op: Op, ctx: FoldContext) -> Any:
    var, sequence, body = op.args

    def apply(item: Any) -> Any:
        return resolve(body, MapResolver({var.key: item}, ctx))
    if isinstance(sequence, DagValue):
        args = TdList((apply(value), name) for value, name in sequence.args)
        return DagValue(sequence.op, args, sequence.op_name)
    if not isinstance(sequence, TdList):
        return None
    return make_list([apply(item) for item in sequence], (op.locs[2],) * len(sequence), op.loc,
                     None, ctx)


def _foldl_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    _arity(op, 5, 5)
    if not _list(type_of(op.args[1])):
        raise _bad_operand(op, 1, "a list")
    result = common_type(type_of(op.args[0]), type_of(op.args[4]))
    if result is None:
        raise TdError(f"!foldl start value of type '{type_of(op.args[0])}' and expression of "
                      f"type '{type_of(op.args[4])}' are incompatible", op.loc)
    return result


def _foldl(op: Op, ctx: FoldContext) -> Any:
    accumulated, sequence, acc, var, body = op.args
    if not isinstance(sequence, TdList):
        return None
    for item in sequence:
        accumulated = resolve(body, MapResolver({acc.key: accumulated, var.key: item}, ctx))
    return accumulated


def _filter_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    _arity(op, 3, 3)
    if not _list(type_of(op.args[1])):
        raise _bad_operand(op, 1, "a list")
    if not _integral(type_of(op.args[2])):
        raise _bad_operand(op, 2, "an integer condition")
    return type_of(op.args[1])


def _filter(op: Op, ctx: FoldContext) -> Any:
    var, sequence, predicate = op.args
    if not isinstance(sequence, TdList):
        return None
    kept = []
    for item in sequence:
        keep = _as_int(resolve(predicate, MapResolver({var.key: item}, ctx)))
        if keep is None:
            return None
        if keep:
            kept.append(item)
    return TdList(kept)


_bang("foreach", _foreach_check, _foreach, lazy=True)
_bang("foldl", _foldl_check, _foldl, lazy=True)
_bang("filter", _filter_check, _filter, lazy=True)


# --- Conditionals ------------------------------------------------------------------------------

def _if_check(op: Op, ctx: FoldContext) -> TdType:
    _typed([_integral, _any, _any], ANY)(op, ctx)
    result = common_type(type_of(op.args[1]), type_of(op.args[2]))
    if result is None:
        raise TdError(f"!if branches have incompatible types '{type_of(op.args[1])}' and "
                      f"'{type_of(op.args[2])}'", op.loc)
    return result


def _if(op: Op, ctx: FoldContext) -> Any:
    condition = _as_int(op.args[0])
    return None if condition is None else op.args[1] if condition else op.args[2]


def _cond_check(op: Op, ctx: FoldContext) -> TdType:
    _type_param(op, None)
    if not op.args:
        raise TdError("!cond expects at least one 'condition : value' pair", op.loc)
    result: TdType = ANY
    for index in range(0, len(op.args), 2):
        if not _integral(type_of(op.args[index])):
            raise _bad_operand(op, index, "an integer condition")
        merged = common_type(result, type_of(op.args[index + 1]))
        if merged is None:
            raise TdError(f"!cond values have incompatible types '{result}' and "
                          f"'{type_of(op.args[index + 1])}'", op.locs[index + 1])
        result = merged
    return result


def _cond(op: Op, ctx: FoldContext) -> Any:
    for index in range(0, len(op.args), 2):
        condition = _as_int(op.args[index])
        if condition is None:
            return None
        if condition:
            return op.args[index + 1]
    raise TdError("none of the conditions of !cond is true", op.loc)


def _format_cond(op: Op) -> str:
    pairs = (f"{format_value(op.args[i])}: {format_value(op.args[i + 1])}"
             for i in range(0, len(op.args), 2))
    return "!cond(" + ", ".join(pairs) + ")"


_bang("if", _if_check, _if, lazy=True)
OPERATORS["cond"] = OpSpec("!cond", _cond_check, _cond, _format_cond, lazy=True)


# --- Types and records: !cast, !isa, !exists, !initialized -------------------------------------

def _cast_check(op: Op, ctx: FoldContext) -> TdType:
    _typed([_any], ANY, type_param="required")(op, ctx)
    target, source = op.param, type_of(op.args[0])
    if target is STRING:
        ok = _pastable(source)
    elif isinstance(target, RecordType):
        ok = _string(source) or isinstance(source, RecordType)
    else:
        ok = common_type(source, target) is not None
    if not ok:
        raise TdError(f"cannot cast {describe(op.args[0])} to '{target}'", op.locs[0])
    return target


def _cast(op: Op, ctx: FoldContext) -> Any:
    target, value = op.param, op.args[0]
    if value is Unset:
        return None
    if target is STRING:
        if isinstance(value, Record):
            return value.name
        return str(value) if isinstance(value, int) else value if isinstance(value, str) \
            else None
    if isinstance(target, RecordType) and isinstance(value, str):
        record = ctx.lookup_def(value)
        if record is None:
            if not ctx.final:
                return None
            raise TdError(f"!cast: there is no def named '{value}'", op.locs[0])
        value = record
    result = convert(value, target, ctx.class_isa)
    if result is INCOMPATIBLE:
        raise TdError(f"cannot cast {describe(value)} to '{target}'", op.locs[0])
    return result


def _isa(op: Op, ctx: FoldContext) -> Any:
    value = op.args[0]
    if value is Unset:
        return None
    return int(convert(value, op.param, ctx.class_isa) is not INCOMPATIBLE)


def _exists(op: Op, ctx: FoldContext) -> Any:
    name = op.args[0]
    if not isinstance(name, str):
        return None
    record = ctx.lookup_def(name)
    if record is None:
        return 0 if ctx.final else None
    return int(convert(record, op.param, ctx.class_isa) is not INCOMPATIBLE)


_bang("cast", _cast_check, _cast)
_bang("isa", _typed([_any], BIT, type_param="required"), _isa)
_bang("exists", _typed([_string], BIT, type_param="required"), _exists)
_bang("initialized", _typed([_any], BIT),
      lambda op, ctx: int(op.args[0] is not Unset))


# --- Dags --------------------------------------------------------------------------------------

def _dag_index(op: Op, dag: DagValue, key: Any, key_loc: Any) -> int | None:
    """The position of argument ``key`` (an index or a name) in ``dag``."""
    if isinstance(key, str):
        for index, (_, name) in enumerate(dag.args):
            if name == key:
                return index
        raise TdError(f"{op.spec.name}: the dag has no argument named '{key}'", key_loc)
    index = _as_int(key)
    if index is not None and not 0 <= index < len(dag.args):
        raise TdError(f"{op.spec.name}: index {index} is out of range for a dag with "
                      f"{len(dag.args)} arguments", key_loc)
    return index


def _index_or_name(t: TdType) -> bool:
    return _integral(t) or t is STRING


_WHAT[_index_or_name] = "an integer index or a string name"


def _con(op: Op, ctx: FoldContext) -> Any:
    if not all(isinstance(arg, DagValue) for arg in op.args):
        return None
    operator: Any = Unset
    for arg in op.args:
        if arg.op is not Unset and operator is not Unset and arg.op is not operator:
            raise TdError(f"!con: dag operators differ: '{format_value(operator)}' and "
                          f"'{format_value(arg.op)}'", op.loc)
        operator = arg.op if arg.op is not Unset else operator
    return DagValue(operator, TdList(pair for arg in op.args for pair in arg.args))


def _dag_from_lists(op: Op, ctx: FoldContext) -> Any:
    operator, values, names = op.args
    if not isinstance(values, TdList) or not (names is Unset or isinstance(names, TdList)):
        return None
    names = [Unset] * len(values) if names is Unset else names
    if len(names) != len(values):
        raise TdError(f"!dag: {len(values)} arguments but {len(names)} names", op.loc)
    if not all(name is Unset or isinstance(name, str) for name in names):
        return None
    return DagValue(operator, TdList((value, None if name is Unset else name)
                                     for value, name in zip(values, names)))


def _getdagop(op: Op, ctx: FoldContext) -> Any:
    dag = op.args[0]
    if not isinstance(dag, DagValue):
        return None
    if op.param is not None and convert(dag.op, op.param, ctx.class_isa) is INCOMPATIBLE:
        raise TdError(f"!getdagop: operator {describe(dag.op)} is not a '{op.param}'", op.loc)
    return dag.op


def _getdagarg(op: Op, ctx: FoldContext) -> Any:
    dag, key = op.args
    if not isinstance(dag, DagValue):
        return None
    index = _dag_index(op, dag, key, op.locs[1])
    if index is None:
        return None
    value = dag.args[index][0]
    if op.param is None:
        return value
    value = convert(value, op.param, ctx.class_isa)
    return Unset if value is INCOMPATIBLE else value


def _getdagname(op: Op, ctx: FoldContext) -> Any:
    dag, key = op.args
    if not isinstance(dag, DagValue):
        return None
    index = _dag_index(op, dag, key, op.locs[1])
    if index is None:
        return None
    name = dag.args[index][1]
    return Unset if name is None else name


def _setdag(part: int) -> Fold:
    """Fold of !setdagarg (``part`` 0: the value) and !setdagname (1: the name)."""
    def fold(op: Op, ctx: FoldContext) -> Any:
        dag, key, new = op.args
        if not isinstance(dag, DagValue):
            return None
        index = _dag_index(op, dag, key, op.locs[1])
        if index is None:
            return None
        args = [list(pair) for pair in dag.args]
        args[index][part] = new
        return DagValue(dag.op, TdList(map(tuple, args)), dag.op_name)
    return fold


_bang("con", _typed([_dag], DAG, variadic=True), _con)
_bang("dag", _typed([_record, _list, _list], DAG), _dag_from_lists)
_bang("getdagop", _typed([_dag], lambda op: op.param or RecordType(()), type_param="optional"),
      _getdagop)
_bang("setdagop", _typed([_dag, _record], DAG),
      lambda op, ctx: DagValue(op.args[1], op.args[0].args, op.args[0].op_name)
      if isinstance(op.args[0], DagValue) else None)
_bang("getdagarg", _typed([_dag, _index_or_name], lambda op: op.param or ANY,
                         type_param="optional"), _getdagarg)
_bang("getdagname", _typed([_dag, _integral], STRING), _getdagname)
_bang("setdagarg", _typed([_dag, _index_or_name, _any], DAG), _setdag(0))
_bang("setdagname", _typed([_dag, _index_or_name, _string], DAG), _setdag(1))
OPERATORS["getop"] = OPERATORS["getdagop"]
OPERATORS["setop"] = OPERATORS["setdagop"]

BANG_OPERATORS = frozenset(OPERATORS)
"""The names of the supported bang operators, without the ``!``."""


# --- Internal operators: literals and suffixes with unknown parts ------------------------------

def _list_check(op: Op, ctx: FoldContext) -> TdType:
    if op.param is not None:
        for index, item in enumerate(op.args):
            if convert(item, op.param, ctx.class_isa) is INCOMPATIBLE:
                raise TdError(f"list element {describe(item)} does not fit in "
                              f"'list<{op.param}>'", op.locs[index])
        return ListType(op.param)
    element: TdType = ANY
    for index, item in enumerate(op.args):
        merged = common_type(element, type_of(item))
        if merged is None:
            raise TdError(f"list elements have incompatible types '{element}' and "
                          f"'{type_of(item)}'", op.locs[index])
        element = merged
    return ListType(element)


def _list_fold(op: Op, ctx: FoldContext) -> Any:
    if op.param is None:
        return TdList(op.args)
    return TdList(convert(item, op.param, ctx.class_isa) for item in op.args)


LIST = OpSpec("list", _list_check, _list_fold,
              lambda op: "[" + ", ".join(map(format_value, op.args)) + "]")


def make_list(items: list[Any], locs: tuple[Any, ...], loc: Any, element: TdType | None,
              ctx: FoldContext) -> Any:
    """A list value (or a term, if some items are unknown) of ``items``."""
    return make_op(LIST, tuple(items), tuple(locs), loc, element, ctx)


def _bits_fold(op: Op, ctx: FoldContext) -> Any:
    for index, bit in enumerate(op.args):
        if bit is not Unset and _as_int(bit) not in (0, 1):
            raise TdError(f"a bit must be 0, 1 or ?; got {describe(bit)}", op.locs[index])
    bits = tuple(bit if bit is Unset else _as_int(bit) for bit in op.args)
    return int("".join(map(str, bits)), 2) if Unset not in bits else bits


BITS = OpSpec("bits", _typed([_integral], lambda op: BitsType(len(op.args)), variadic=True),
              _bits_fold, lambda op: "{ " + ", ".join(map(format_value, op.args)) + " }")


def _dag_check(op: Op, ctx: FoldContext) -> TdType:
    if not _record(type_of(op.args[0])):
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
    items, index = op.args[0], _as_int(op.args[1])
    if not isinstance(items, TdList) or index is None:
        return None
    if not 0 <= index < len(items):
        raise TdError(f"index {index} is out of range for a list of {len(items)} elements",
                      op.locs[1])
    return items[index]


INDEX = OpSpec("index", _typed([_list, _integral], lambda op: _element(type_of(op.args[0]))),
               _index_fold, lambda op: f"{format_value(op.args[0])}[{format_value(op.args[1])}]")


def _pastable(t: TdType) -> bool:
    return _string(t) or is_integral(t) or isinstance(t, RecordType)


_WHAT[_pastable] = "a string, an integer or a record"


def _paste_check(op: Op, ctx: FoldContext) -> TdType:
    left = type_of(op.args[0])
    if isinstance(left, ListType):
        return _listconcat_check(op, ctx)
    return _typed([_pastable], STRING, variadic=True)(op, ctx)


def _paste_string(value: Any) -> str | None:
    if isinstance(value, Record):
        return value.name
    if isinstance(value, (str, int)):
        return str(value) if not isinstance(value, str) else value
    return None


def _paste_fold(op: Op, ctx: FoldContext) -> Any:
    if isinstance(op.args[0], TdList):
        return _listconcat(op, ctx)
    parts = [_paste_string(arg) for arg in op.args]
    if None in parts:
        return None
    text = "".join(parts)  # type: ignore[arg-type]
    return Code(text) if any(isinstance(arg, Code) for arg in op.args) else text


def _paste_format(op: Op) -> str:
    if isinstance(op.type, ListType):
        return "!listconcat(" + ", ".join(map(format_value, op.args)) + ")"
    parts = [format_value(arg) if type_of(arg) in (STRING, ANY) else
             f"!cast<string>({format_value(arg)})" for arg in op.args]
    return "!strconcat(" + ", ".join(parts) + ")"


PASTE = OpSpec("#", _paste_check, _paste_fold, _paste_format)


def _anon_format(op: Op) -> str:
    return f"{op.param.name}<" + ", ".join(map(format_value, op.args)) + ">"


ANON = OpSpec("anonymous record", lambda op, ctx: RecordType((op.param.name,)),
              lambda op, ctx: ctx.instantiate(op.param, op.args, op.loc), _anon_format)
"""``Class<args>``: ``param`` is the class, ``args`` all its template argument values."""
