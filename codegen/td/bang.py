"""TableGen's bang operators (``!add``, ``!foreach``, ...).

Each is an `OpSpec`: a type check, run as soon as the expression is read (so that ``!add(1, "a")``
is reported where it is written), and a fold, run once the operands are known.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import TdError
from .literals import LIST, make_list
from .operands import (MASK64, WHAT, Check, Fold, anything, as_int, bad_operand, check_arity,
                       check_type_param, concat_type, dag_like, element_type, i64,
                       int_like, ints, list_like, pastable, record_like, string_like, typed)
from .terms import (INCOMPATIBLE, FoldContext, MapResolver, Op, OpSpec, Resolver, Term,
                    convert, describe, format_value, make_op, resolve, type_of)
from .tdtypes import (ANY, BIT, DAG, INT, STRING, ListType, RecordType, TdType, common_type,
                    is_compatible, is_integral)
from .values import Code, DagValue, Record, TdList, Unset


def _format_bang(op: Op) -> str:
    param = f"<{op.param}>" if isinstance(op.param, TdType) else ""
    return f"{op.spec.name}{param}(" + ", ".join(map(format_value, op.args)) + ")"


OPERATORS: dict[str, OpSpec] = {}
"""The bang operators by name (without the ``!``)."""


def _bang(name: str, check: Check, fold: Fold, lazy: bool = False) -> None:
    OPERATORS[name] = OpSpec("!" + name, check, fold, _format_bang, lazy)


# --- Arithmetic and logic ----------------------------------------------------------------------

def _arith(name: str, count: int, compute: Callable[[Op, list[int]], int],
           variadic: bool = False, result: TdType | Callable[[Op], TdType] = INT) -> None:
    def fold(op: Op, ctx: FoldContext) -> Any:
        values = ints(op.args)
        return None if values is None else compute(op, values)
    _bang(name, typed([int_like] * count, result, variadic=variadic), fold)


def _product(op: Op, values: list[int]) -> int:
    result = 1
    for value in values:
        result = i64(result * value)
    return result


def _divide(op: Op, values: list[int]) -> int:
    a, b = values
    if b == 0:
        raise TdError("division by zero in !div", op.locs[1])
    quotient = abs(a) // abs(b)
    return i64(-quotient if (a < 0) != (b < 0) else quotient)


def _shift(compute: Callable[[int, int], int]) -> Callable[[Op, list[int]], int]:
    def shift(op: Op, values: list[int]) -> int:
        value, amount = values
        if not 0 <= amount < 64:
            raise TdError(f"shift amount {amount} of {op.spec.name} is out of range [0, 63]",
                          op.locs[1])
        return i64(compute(value, amount))
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


_arith("add", 2, lambda op, v: i64(sum(v)), variadic=True)
_arith("mul", 2, _product, variadic=True)
_arith("sub", 2, lambda op, v: i64(v[0] - v[1]))
_arith("div", 2, _divide)
_arith("shl", 2, _shift(lambda a, b: a << b))
_arith("sra", 2, _shift(lambda a, b: a >> b))
_arith("srl", 2, _shift(lambda a, b: (a & MASK64) >> b))
_arith("and", 2, _bitwise(lambda a, b: a & b), variadic=True, result=_logic_type)
_arith("or", 2, _bitwise(lambda a, b: a | b), variadic=True, result=_logic_type)
_arith("xor", 2, _bitwise(lambda a, b: a ^ b), variadic=True, result=_logic_type)
# !not, !empty, !isa and !exists are ints in TableGen: a bit field holding one that is not
# resolved yet prints it as !cast<bit>(...).
_arith("not", 1, lambda op, v: int(v[0] == 0), result=INT)
_arith("logtwo", 1, _logtwo)


# --- Comparisons -------------------------------------------------------------------------------

def _comparison(name: str, compare: Callable[[Any, Any], bool], records: bool) -> None:
    kinds = "integers, strings or records" if records else "integers or strings"

    def check(op: Op, ctx: FoldContext) -> TdType:
        check_type_param(op, None)
        check_arity(op, 2, 2)
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
        a, b = as_int(a), as_int(b)
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
    """``text`` as code if ``original`` was written as code (!substr keeps the format; !subst,
    !tolower and !toupper give strings)."""
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
    # As TableGen does: code when an item after the first is code, whatever the separator.
    text = str(separator).join(map(str, items))
    return Code(text) if any(isinstance(item, Code) for item in items[1:]) else text


def _interleave_check(op: Op, ctx: FoldContext) -> TdType:
    typed([list_like, string_like], STRING)(op, ctx)
    element = element_type(type_of(op.args[0]))
    if not (string_like(element) or is_integral(element)):
        raise bad_operand(op, 0, "a list of strings or integers")
    return STRING


def _substr(op: Op, ctx: FoldContext) -> Any:
    text, start, *rest = op.args
    start = as_int(start)
    length = as_int(rest[0]) if rest else len(text)
    if not isinstance(text, str) or start is None or length is None:
        return None
    if start < 0 or length < 0:
        raise TdError(f"!substr start and length must not be negative; got {start} and "
                      f"{length}", op.loc)
    return _like(text, text[start:start + length])


def _find(op: Op, ctx: FoldContext) -> Any:
    text, pattern, *rest = op.args
    start = as_int(rest[0]) if rest else 0
    if not isinstance(text, str) or not isinstance(pattern, str) or start is None:
        return None
    return text.find(pattern, start)


def _case(convert_case: Callable[[str], str]) -> Fold:
    def fold(op: Op, ctx: FoldContext) -> Any:
        text = op.args[0]
        return convert_case(str(text)) if isinstance(text, str) else None
    return fold


def _subst_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    check_arity(op, 3, 3)
    kinds = [type_of(arg) for arg in op.args]
    if all(string_like(t) for t in kinds) or all(record_like(t) for t in kinds):
        return kinds[2]
    raise TdError("operands of !subst must all be strings or all be records; got "
                  + ", ".join(f"'{t}'" for t in kinds), op.loc)


def _subst(op: Op, ctx: FoldContext) -> Any:
    target, replacement, value = op.args
    if isinstance(value, str) and isinstance(target, str) and isinstance(replacement, str):
        return str(value).replace(target, replacement)
    if isinstance(value, Record):
        return replacement if value is target else value
    return None


_bang("strconcat", typed([string_like], STRING, variadic=True), _strconcat)
_bang("interleave", _interleave_check, _interleave)
_bang("substr", typed([string_like, int_like, int_like], STRING, optional=1), _substr)
_bang("find", typed([string_like, string_like, int_like], INT, optional=1), _find)
_bang("tolower", typed([string_like], STRING), _case(str.lower))
_bang("toupper", typed([string_like], STRING), _case(str.upper))
_bang("subst", _subst_check, _subst)
_bang("repr", typed([anything], STRING), lambda op, ctx: format_value(op.args[0]))


# --- Lists -------------------------------------------------------------------------------------

def _listsplat(op: Op, ctx: FoldContext) -> Any:
    value, count = op.args[0], as_int(op.args[1])
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
    return list_like(t) or dag_like(t) or string_like(t)


WHAT[_sized] = "a list, a dag or a string"


def _size(op: Op, ctx: FoldContext) -> Any:
    value = op.args[0]
    if isinstance(value, DagValue):
        return len(value.args)
    return len(value) if isinstance(value, (str, TdList)) else None


def _empty(op: Op, ctx: FoldContext) -> Any:
    size = _size(op, ctx)
    return None if size is None else int(size == 0)


def _range_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    check_arity(op, 1, 3)
    first = type_of(op.args[0])
    if len(op.args) == 1 and not (int_like(first) or isinstance(first, ListType)):
        raise bad_operand(op, 0, "an integer or a list")
    for index, arg in enumerate(op.args[1:] if len(op.args) > 1 else ()):
        if not int_like(type_of(arg)):
            raise bad_operand(op, index + 1, "an integer")
    if len(op.args) > 1 and not int_like(first):
        raise bad_operand(op, 0, "an integer")
    return ListType(INT)


def _range(op: Op, ctx: FoldContext) -> Any:
    values = ints(op.args)
    if values is None:
        return None
    if len(values) == 3 and values[2] == 0:
        raise TdError("!range step must not be zero", op.locs[2])
    return TdList(range(*values))


def _listconcat(op: Op, ctx: FoldContext) -> Any:
    """Concatenates list values and list literals, even literals with unknown elements (as
    TableGen does), so ``[a] # [1]`` in a class is ``[a, 1]``."""
    items: list[Any] = []
    locs: list[Any] = []
    for arg, loc in zip(op.args, op.locs):
        if isinstance(arg, TdList):
            items += arg
            locs += [loc] * len(arg)
        elif isinstance(arg, Op) and arg.spec is LIST and not arg.param[1]:
            items += arg.args
            locs += arg.locs
        else:
            return None
    first = op.args[0]
    element = first.element if isinstance(first, TdList) else first.param[0]
    if element is None:
        return make_list(items, tuple(locs), op.loc, None, ctx)
    # The result has the element type of the first list, and its items are not converted.
    return make_op(LIST, tuple(items), tuple(locs), op.loc, (element, False), ctx)


_bang("listconcat", concat_type, _listconcat, lazy=True)
_bang("listsplat", typed([anything, int_like], lambda op: ListType(type_of(op.args[0]))),
      _listsplat)
_bang("listremove", typed([list_like, list_like], lambda op: type_of(op.args[0])), _listremove)
_bang("head", typed([list_like], lambda op: element_type(type_of(op.args[0]))), _head_tail(True))
_bang("tail", typed([list_like], lambda op: type_of(op.args[0])), _head_tail(False))
_bang("size", typed([_sized], INT), _size)
_bang("empty", typed([_sized], INT), _empty)
_bang("range", _range_check, _range)


# --- Binding operators: !foreach, !foldl, !filter ----------------------------------------------
# Their variable is a `binder` Ref among the operands; folding substitutes each element for it.

def _foreach_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    check_arity(op, 3, 3)
    sequence = type_of(op.args[1])
    if not (list_like(sequence) or sequence is DAG):
        raise bad_operand(op, 1, "a list or a dag")
    return DAG if sequence is DAG else ListType(type_of(op.args[2]))


def _list_items(value: Any) -> list[Any] | None:
    """The items of a list value or of a list literal with unknown items (which TableGen's
    !foreach and !foldl go through as well), else None."""
    if isinstance(value, TdList):
        return value
    if isinstance(value, Op) and value.spec is LIST:
        return list(value.args)
    return None


def _foreach(op: Op, ctx: FoldContext) -> Any:
    var, sequence, body = op.args

    def apply(item: Any) -> Any:
        return resolve(body, MapResolver({var.key: item}, ctx))
    if isinstance(sequence, DagValue):
        args = TdList((apply(value), name) for value, name in sequence.args)
        return DagValue(sequence.op, args, sequence.op_name)
    items = _list_items(sequence)
    if items is None:
        return None
    # The list has the static type of the body, whatever the values (as in TableGen).
    return make_op(LIST, tuple(apply(item) for item in items), (op.locs[2],) * len(items),
                   op.loc, (op.type.element, False), ctx)  # type: ignore[attr-defined]


def _foldl_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    check_arity(op, 5, 5)
    if not list_like(type_of(op.args[1])):
        raise bad_operand(op, 1, "a list")
    result = common_type(type_of(op.args[0]), type_of(op.args[4]))
    if result is None:
        raise TdError(f"!foldl start value of type '{type_of(op.args[0])}' and expression of "
                      f"type '{type_of(op.args[4])}' are incompatible", op.loc)
    return result


def _foldl(op: Op, ctx: FoldContext) -> Any:
    accumulated, sequence, acc, var, body = op.args
    items = _list_items(sequence)
    if items is None:
        return None
    for item in items:
        accumulated = resolve(body, MapResolver({acc.key: accumulated, var.key: item}, ctx))
    return accumulated


def _filter_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    check_arity(op, 3, 3)
    if not list_like(type_of(op.args[1])):
        raise bad_operand(op, 1, "a list")
    if not int_like(type_of(op.args[2])):
        raise bad_operand(op, 2, "an integer condition")
    return type_of(op.args[1])


def _filter(op: Op, ctx: FoldContext) -> Any:
    var, sequence, predicate = op.args
    if not isinstance(sequence, TdList):
        return None
    kept = []
    for item in sequence:
        keep = as_int(resolve(predicate, MapResolver({var.key: item}, ctx)))
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
    typed([int_like, anything, anything], ANY)(op, ctx)
    result = common_type(type_of(op.args[1]), type_of(op.args[2]))
    if result is None:
        raise TdError(f"!if branches have incompatible types '{type_of(op.args[1])}' and "
                      f"'{type_of(op.args[2])}'", op.loc)
    return result


def _if(op: Op, ctx: FoldContext) -> Any:
    condition = as_int(op.args[0])
    return None if condition is None else op.args[1] if condition else op.args[2]


def _if_short_circuit(op: Op, resolver: Resolver) -> Any:
    """Only the branch taken is resolved: the other may not fold (``!substr(s, 0, -1)``)."""
    condition = as_int(resolve(op.args[0], resolver))
    if condition is None:
        return None
    return resolve(op.args[1] if condition else op.args[2], resolver)


def _cond_check(op: Op, ctx: FoldContext) -> TdType:
    check_type_param(op, None)
    if not op.args:
        raise TdError("!cond expects at least one 'condition : value' pair", op.loc)
    result: TdType = ANY
    for index in range(0, len(op.args), 2):
        if not int_like(type_of(op.args[index])):
            raise bad_operand(op, index, "an integer condition")
        merged = common_type(result, type_of(op.args[index + 1]))
        if merged is None:
            raise TdError(f"!cond values have incompatible types '{result}' and "
                          f"'{type_of(op.args[index + 1])}'", op.locs[index + 1])
        result = merged
    return result


def _cond(op: Op, ctx: FoldContext) -> Any:
    for index in range(0, len(op.args), 2):
        condition = as_int(op.args[index])
        if condition is None:
            return None
        if condition:
            return op.args[index + 1]
    raise TdError("none of the conditions of !cond is true", op.loc)


def _format_cond(op: Op) -> str:
    pairs = (f"{format_value(op.args[i])}: {format_value(op.args[i + 1])}"
             for i in range(0, len(op.args), 2))
    return "!cond(" + ", ".join(pairs) + ")"


OPERATORS["if"] = OpSpec("!if", _if_check, _if, _format_bang, lazy=True,
                         short_circuit=_if_short_circuit)
OPERATORS["cond"] = OpSpec("!cond", _cond_check, _cond, _format_cond, lazy=True)


# --- Types and records: !cast, !isa, !exists, !initialized -------------------------------------

def _cast_check(op: Op, ctx: FoldContext) -> TdType:
    typed([anything], ANY, type_param="required")(op, ctx)
    target, source = op.param, type_of(op.args[0])
    if target is STRING:
        ok = pastable(source)
    elif isinstance(target, RecordType):
        ok = string_like(source) or isinstance(source, RecordType)
    else:
        ok = common_type(source, target) is not None
    if not ok:
        raise TdError(f"cannot cast {describe(op.args[0])} to '{target}'", op.locs[0])
    return target


def _cast(op: Op, ctx: FoldContext) -> Any:
    target, value = op.param, op.args[0]
    if isinstance(value, Term):
        # A cast to the type an unknown value already has is the value itself.
        return value if value.type == target else None
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
            if not ctx.final or ctx.being_built(value):
                return None
            raise TdError(f"!cast: there is no def named '{value}'", op.locs[0])
        value = record
    result = convert(value, target, ctx.class_isa)
    if result is INCOMPATIBLE:
        raise TdError(f"cannot cast {describe(value)} to '{target}'", op.locs[0])
    return result


def _isa(op: Op, ctx: FoldContext) -> Any:
    """``!isa<T>(value)`` decided by the static type of ``value``, as TableGen does: true when
    that type converts to ``T``; false when ``T`` is no class type, when ``value`` is a def, or
    when no subclass of the value's type is a ``T``; unknown otherwise."""
    value, target = op.args[0], op.param
    source = type_of(value)
    if value is Unset or source is ANY or (isinstance(source, RecordType)
                                           and not source.classes):
        return None
    if is_compatible(source, target, ctx.class_isa):
        return 1
    if (not isinstance(target, RecordType) or isinstance(value, Record)
            or not is_compatible(target, source, ctx.class_isa)):
        return 0
    return None


def _exists(op: Op, ctx: FoldContext) -> Any:
    name = op.args[0]
    if not isinstance(name, str):
        return None
    record = ctx.lookup_def(name)
    if record is None:
        return 0 if ctx.final and not ctx.being_built(name) else None
    return int(convert(record, op.param, ctx.class_isa) is not INCOMPATIBLE)


_bang("cast", _cast_check, _cast, lazy=True)
_bang("isa", typed([anything], INT, type_param="required"), _isa, lazy=True)
_bang("exists", typed([string_like], INT, type_param="required"), _exists)
_bang("initialized", typed([anything], BIT),
      lambda op, ctx: int(op.args[0] is not Unset))


# --- Dags --------------------------------------------------------------------------------------

def _dag_index(op: Op, dag: DagValue, key: Any, key_loc: Any) -> int | None:
    """The position of argument ``key`` (an index or a name) in ``dag``."""
    if isinstance(key, str):
        for position, (_, name) in enumerate(dag.args):
            if name == key:
                return position
        raise TdError(f"{op.spec.name}: the dag has no argument named '{key}'", key_loc)
    index = as_int(key)
    if index is not None and not 0 <= index < len(dag.args):
        raise TdError(f"{op.spec.name}: index {index} is out of range for a dag with "
                      f"{len(dag.args)} arguments", key_loc)
    return index


def _index_or_name(t: TdType) -> bool:
    return int_like(t) or t is STRING


WHAT[_index_or_name] = "an integer index or a string name"


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
    arg_names = list(names) if isinstance(names, TdList) else [Unset] * len(values)
    if len(arg_names) != len(values):
        raise TdError(f"!dag: {len(values)} arguments but {len(arg_names)} names", op.loc)
    if not all(name is Unset or isinstance(name, str) for name in arg_names):
        return None
    return DagValue(operator, TdList((value, None if name is Unset else name)
                                     for value, name in zip(values, arg_names)))


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


_bang("con", typed([dag_like], DAG, variadic=True), _con)
_bang("dag", typed([record_like, list_like, list_like], DAG), _dag_from_lists)
_bang("getdagop", typed([dag_like], lambda op: op.param or RecordType(()), type_param="optional"),
      _getdagop)
_bang("setdagop", typed([dag_like, record_like], DAG),
      lambda op, ctx: DagValue(op.args[1], op.args[0].args, op.args[0].op_name)
      if isinstance(op.args[0], DagValue) else None)
_bang("getdagarg", typed([dag_like, _index_or_name], lambda op: op.param or ANY,
                         type_param="optional"), _getdagarg)
_bang("getdagname", typed([dag_like, int_like], STRING), _getdagname)
_bang("setdagarg", typed([dag_like, _index_or_name, anything], DAG), _setdag(0))
_bang("setdagname", typed([dag_like, _index_or_name, string_like], DAG), _setdag(1))
OPERATORS["getop"] = OPERATORS["getdagop"]
OPERATORS["setop"] = OPERATORS["setdagop"]

BANG_OPERATORS = frozenset(OPERATORS)
"""The names of the supported bang operators, without the ``!``."""
