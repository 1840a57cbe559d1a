"""What `tt.func` and `func.func` share: MLIR's function syntax and the checks of functions,
returns and direct calls (MLIR's ``FunctionOpInterface`` and ``CallOpInterface`` verifiers, with
MLIR's wording).

The syntax is ``<name> [visibility] @sym(args) [-> results] [attributes {...}] [{ body }]``,
each argument ``%name: type {attrs}`` (``type {attrs}`` in a declaration), each result
``type {attrs}``; a single result without attributes is printed without parentheses.
"""

from __future__ import annotations

from tilecraft.ir import (
    ArrayAttr, DictionaryAttr, FunctionType, Operation, Region, StringAttr, SymbolTable, TypeAttr,
    VerificationError,
)

__all__ = ["parse_function", "print_function", "verify_function_attrs", "verify_return",
           "verify_direct_call", "lookup_symbol"]

VISIBILITIES = ("public", "private", "nested")
#: The attributes that the function syntax spells (never printed in ``attributes {...}``).
FUNCTION_INHERENT = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


def _dict_list(attrs: list[dict]) -> ArrayAttr | None:
    """The `arg_attrs`/`res_attrs` array, or None when every dictionary is empty."""
    if not any(attrs):
        return None
    return ArrayAttr([DictionaryAttr(a) for a in attrs])


def _dicts(array, count: int) -> list[dict]:
    if array is None:
        return [{}] * count
    return [dict(d.items()) for d in array]


def _parse_arguments(parser) -> tuple[list, list, list[dict]]:
    """``(%a: t {attrs}, ...)`` or ``(t {attrs}, ...)``: the named arguments (empty for a
    declaration), the input types and the argument attributes."""
    arguments, inputs, arg_attrs = [], [], []
    parser.parse_punct("(")
    if parser.parse_optional_punct(")"):
        return arguments, inputs, arg_attrs
    while True:
        token = parser.i
        if parser.toks[token].startswith("%"):
            if inputs and not arguments:
                parser.error("expected type instead of SSA identifier", token)
            arg = parser.parse_argument(with_type=True, with_attributes=True)
            arguments.append(arg)
            inputs.append(arg.type)
            arg_attrs.append(arg.attributes)
        else:
            if arguments:
                parser.error("expected SSA identifier", token)
            inputs.append(parser.parse_type())
            arg_attrs.append(parser.parse_optional_attr_dict())
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct(")")
    return arguments, inputs, arg_attrs


def _parse_results(parser) -> tuple[list, list[dict]]:
    results, res_attrs = [], []
    if not parser.parse_optional_punct("->"):
        return results, res_attrs
    if not parser.parse_optional_punct("("):
        return [parser.parse_type()], [{}]
    if not parser.parse_optional_punct(")"):
        while True:
            results.append(parser.parse_type())
            res_attrs.append(parser.parse_optional_attr_dict())
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct(")")
    return results, res_attrs


def parse_function(cls, parser) -> Operation:
    """Parse the function op ``cls`` after its name (see the module docstring)."""
    attrs = {}
    visibility = parser.parse_optional_keyword(VISIBILITIES)
    if visibility is not None:
        attrs["sym_visibility"] = StringAttr(visibility)
    attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
    arguments, inputs, arg_attrs = _parse_arguments(parser)
    results, res_attrs = _parse_results(parser)
    attrs["function_type"] = TypeAttr(FunctionType(inputs, results))
    for name, dicts in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
        array = _dict_list(dicts)
        if array is not None:
            attrs[name] = array
    token = parser.i
    extra = parser.parse_optional_attr_dict_with_keyword()
    for key in extra:
        if key in FUNCTION_INHERENT:
            parser.error(f"'{key}' is part of the function's syntax, not of its attributes",
                         token)
    attrs.update(extra)
    if parser.toks[parser.i] == "{":
        if inputs and not arguments:
            parser.error("expected named arguments (%name: type) for a function with a body")
        region = parser.parse_region(arguments)
    else:
        region = Region()
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, properties=properties, attributes=attributes,
                      regions=[region])


def print_function(op: Operation, printer) -> None:
    """Print the function ``op`` after its name (see the module docstring)."""
    printer.write(" ")
    if op.sym_visibility is not None:
        printer.write(op.sym_visibility + " ")
    printer.print_symbol_name(op.sym_name)
    ftype = op.function_type
    arg_attrs = _dicts(op.properties.get("arg_attrs"), len(ftype.inputs))
    res_attrs = _dicts(op.properties.get("res_attrs"), len(ftype.results))
    blocks = op.regions[0].blocks
    printer.write("(")
    for index, type_ in enumerate(ftype.inputs):
        if index:
            printer.write(", ")
        if blocks:
            printer.print_argument(blocks[0].arguments[index], arg_attrs[index])
        else:
            printer.print_type(type_)
            printer.print_attr_dict(arg_attrs[index])
    printer.write(")")
    if ftype.results:
        printer.write(" -> ")
        single = (len(ftype.results) == 1 and not res_attrs[0]
                  and not isinstance(ftype.results[0], FunctionType))
        if single:
            printer.print_type(ftype.results[0])
        else:
            printer.write("(")
            for index, type_ in enumerate(ftype.results):
                if index:
                    printer.write(", ")
                printer.print_type(type_)
                printer.print_attr_dict(res_attrs[index])
            printer.write(")")
    printer.print_attr_dict_with_keyword(op.all_attributes(), FUNCTION_INHERENT)
    if blocks:
        printer.write(" ")
        printer.print_region(op.regions[0], print_entry_block_args=False)


def verify_function_attrs(op: Operation) -> None:
    """The argument and result attribute arrays have one dictionary per argument (result)."""
    ftype = op.function_type
    for name, count, what in (("arg_attrs", len(ftype.inputs), "argument"),
                              ("res_attrs", len(ftype.results), "result")):
        attrs = op.properties.get(name)
        if attrs is None:
            continue
        if len(attrs) != count:
            raise op.emit_error(f"expects {what} attribute array to have the same number of "
                                f"elements as the number of function {what}s, got {len(attrs)}, "
                                f"but expected {count}")


def verify_return(op: Operation, function: Operation, values, *, op_prefix: bool) -> None:
    """The returned ``values`` match the results of ``function``; a type mismatch is reported
    with the ``'name' op`` prefix when ``op_prefix`` (tt.return) and without it (func.return, as
    MLIR's ``emitError``) otherwise."""
    results = function.function_type.results
    if len(values) != len(results):
        raise op.emit_error(f"has {len(values)} operands, but enclosing function "
                            f"(@{function.sym_name}) returns {len(results)}")
    for index, (value, expected) in enumerate(zip(values, results)):
        if value.type is not expected:
            message = (f"type of return operand {index} ({value.type}) doesn't match function "
                       f"result type ({expected}) in function @{function.sym_name}")
            if op_prefix:
                raise op.emit_error(message)
            loc, source = op.location.diagnostic_position()
            raise VerificationError(message, loc, source, op=op)


def lookup_symbol(op: Operation, name: str) -> Operation | None:
    """The symbol ``name`` in the nearest symbol table around ``op`` that defines it."""
    scope = op.parent_op
    while scope is not None:
        if scope.has_trait(SymbolTable):
            found = SymbolTable.lookup(scope, name)
            if found is not None:
                return found
        scope = scope.parent_op
    return None


def verify_direct_call(op: Operation, function_class: type, operands, results) -> None:
    """MLIR's checks of a call by symbol: ``callee`` names a ``function_class`` op whose inputs
    and results the call's ``operands`` and ``results`` match."""
    callee = op.callee
    function = lookup_symbol(op, callee)
    if not isinstance(function, function_class):
        raise op.emit_error(f"'{callee}' does not reference a valid function")
    ftype = function.function_type
    if len(ftype.inputs) != len(operands):
        raise op.emit_error("incorrect number of operands for callee")
    for index, (value, expected) in enumerate(zip(operands, ftype.inputs)):
        if value.type is not expected:
            raise op.emit_error(f"operand type mismatch: expected operand type {expected}, but "
                                f"provided {value.type} for operand number {index}")
    if len(ftype.results) != len(results):
        raise op.emit_error("incorrect number of results for callee")
    for index, (result, expected) in enumerate(zip(results, ftype.results)):
        if result.type is not expected:
            raise op.emit_error(f"result type mismatch at index {index}")
