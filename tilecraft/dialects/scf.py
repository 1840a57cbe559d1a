"""Hooks of the scf dialect: MLIR's custom formats of `scf.for`, `scf.if` and `scf.while`, and
their verifiers (loop-carried and yielded values against results, terminators, conditions).

Like MLIR, the parsers add the implicit `scf.yield` to a for or if body that lacks a
terminator, and the printers leave out yields without operands.
"""

from __future__ import annotations

from tilecraft.ir import Block, Region, Terminator, UnitAttr, i1, index
from tilecraft.ir.lexer import token_loc
from tilecraft.ir.ods import implements

from . import generated_module

gen = generated_module(__name__, "scf")


# -- helpers -------------------------------------------------------------------------------------


def ensure_terminator(region: Region, location) -> None:
    """Give ``region`` one block ending with a terminator: an empty region gets an empty block,
    and a block whose last op is a registered non-terminator gets an `scf.yield` (MLIR's
    SingleBlockImplicitTerminator)."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[0]
    last = block.last_op
    if last is None or (last.is_registered and not last.has_trait(Terminator)):
        block.append(gen.YieldOp.build(location=location))


def _edge_error(op, source: str, target: str, source_types, target_types):
    """MLIR's message for values passed along a region control-flow edge, or None if they fit."""
    source_types, target_types = list(source_types), list(target_types)
    edge = f"along control flow edge from {source} to {target}"
    if len(source_types) != len(target_types):
        return op.emit_error(f"{edge}: source has {len(source_types)} operands, but target "
                             f"successor needs {len(target_types)}")
    for number, (got, expected) in enumerate(zip(source_types, target_types)):
        if got is not expected:
            return op.emit_error(f"{edge}: source type #{number} '{got}' should match input "
                                 f"type #{number} '{expected}'")
    return None


def _terminator(op, region: Region, cls, what: str | None = None):
    """The terminator of ``region``'s block if it is a ``cls``, else MLIR's error: for a
    region named by ``what`` (scf.while), else for an implicit terminator (scf.for, scf.if)."""
    last = region.blocks[0].last_op if region.blocks else None
    if not isinstance(last, cls):
        if what is not None:
            raise op.emit_error(f"expects {what} to terminate with '{cls.OPERATION_NAME}'")
        found = "nothing" if last is None else f"'{last.name}'"
        raise op.emit_error(f"expects regions to end with '{cls.OPERATION_NAME}', found {found}")
    return last


def _check_edge(op, source: str, target: str, source_types, target_types) -> None:
    error = _edge_error(op, source, target, source_types, target_types)
    if error is not None:
        raise error


def _parse_arrow_types(parser) -> list:
    """``-> type`` or ``-> (type, ...)`` (MLIR's arrow type list)."""
    if parser.parse_optional_punct("("):
        types = parser.parse_type_list()
        parser.parse_punct(")")
        return types
    return [parser.parse_type()]


def _parse_assignments(parser) -> tuple[list, list]:
    """``(%arg = %value, ...)`` after the ``(``: the region argument names and the values."""
    names, values = [], []
    if parser.parse_optional_punct(")"):
        return names, values
    while True:
        names.append(parser.parse_operand())
        parser.parse_punct("=")
        values.append(parser.parse_operand())
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct(")")
    return names, values


def _print_assignments(printer, args, values) -> None:
    printer.write("(")
    for number, (arg, value) in enumerate(zip(args, values)):
        if number:
            printer.write(", ")
        printer.print_operand(arg)
        printer.write(" = ")
        printer.print_operand(value)
    printer.write(")")


# -- scf.for -------------------------------------------------------------------------------------


@implements(gen.ForOp)
@classmethod
def parse(cls, parser):
    """``[unsigned] %iv = %lb to %ub step %step [iter_args(%a = %init, ...) -> (types)]
    [: type] { body } [{attrs}]``."""
    start = parser.i
    attrs = {}
    if parser.parse_optional_keyword("unsigned"):
        attrs["unsignedCmp"] = UnitAttr()
    iv = parser.parse_operand()
    parser.parse_punct("=")
    lower = parser.parse_operand()
    parser.parse_keyword("to")
    upper = parser.parse_operand()
    parser.parse_keyword("step")
    step = parser.parse_operand()
    names, inits, result_types = [], [], []
    if parser.parse_optional_keyword("iter_args"):
        parser.parse_punct("(")
        names, inits = _parse_assignments(parser)
        parser.parse_punct("->")
        result_types = _parse_arrow_types(parser)
    if len(names) != len(result_types):
        parser.error("mismatch in number of loop-carried values and defined values", start)
    iv_type = parser.parse_type() if parser.parse_optional_punct(":") else index
    operands = parser.resolve_operands([lower, upper, step], iv_type)
    operands += parser.resolve_operands(inits, result_types)
    region = parser.parse_region([(iv, iv_type), *zip(names, result_types)])
    ensure_terminator(region, parser_location(parser))
    attrs.update(parser.parse_optional_attr_dict())
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=result_types,
                      properties=properties, attributes=attributes, regions=[region])


def parser_location(parser):
    """The location of the parser's current token (where an implicit terminator comes from)."""
    return token_loc(parser.source, parser.i)


@implements(gen.ForOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    block = self.region.blocks[0] if self.region.blocks else None
    printer.write(" ")
    if self.unsigned_cmp:
        printer.write("unsigned ")
    if block is not None and block.arguments:
        printer.print_operand(block.arguments[0])
    printer.write(" = ")
    printer.print_operand(self.lower_bound)
    printer.write(" to ")
    printer.print_operand(self.upper_bound)
    printer.write(" step ")
    printer.print_operand(self.step)
    inits = self.init_args
    if inits:
        printer.write(" iter_args")
        _print_assignments(printer, block.arguments[1:] if block else [], inits)
        printer.write(" -> (")
        printer.print_types([v.type for v in inits])
        printer.write(")")
    iv_type = self.lower_bound.type
    if not iv_type.is_index():
        printer.write(" : ")
        printer.print_type(iv_type)
    printer.write(" ")
    printer.print_region(self.region, print_entry_block_args=False,
                         print_block_terminators=bool(inits))
    printer.print_attr_dict(self.all_attributes(), ("unsignedCmp",))


@implements(gen.ForOp)
def custom_verify(self) -> None:
    if len(self.init_args) != len(self.results):
        raise self.emit_error("mismatch in number of loop-carried values and defined values")


@implements(gen.ForOp)
def custom_verify_regions(self) -> None:
    block = self.region.blocks[0]
    args = block.arguments
    if not args or args[0].type is not self.lower_bound.type:
        raise self.emit_error("expected induction variable to be same type as bounds and step")
    if len(args) - 1 != len(self.results):
        raise self.emit_error("mismatch in number of basic block args and defined values")
    for number, (init, arg, result) in enumerate(zip(self.init_args, args[1:], self.results)):
        if init.type is not result.type:
            raise self.emit_error(f"types mismatch between {number}th iter operand and defined "
                                  "value")
        if arg.type is not result.type:
            raise self.emit_error(f"types mismatch between {number}th iter region arg and "
                                  "defined value")
    yield_op = _terminator(self, self.region, gen.YieldOp)
    _check_edge(self, "Region #0", "parent results", [v.type for v in yield_op.operands],
                [r.type for r in self.results])


# -- scf.if --------------------------------------------------------------------------------------


@implements(gen.IfOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%cond [-> (types)] { then } [else { else }] [{attrs}]``."""
    condition = parser.resolve_operand(parser.parse_operand(), i1)
    result_types = _parse_arrow_types(parser) if parser.parse_optional_punct("->") else []
    location = parser_location(parser)
    then_region = parser.parse_region()
    ensure_terminator(then_region, location)
    else_region = Region()
    if parser.parse_optional_keyword("else"):
        location = parser_location(parser)
        else_region = parser.parse_region()
        ensure_terminator(else_region, location)
    attrs = parser.parse_optional_attr_dict()
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=[condition], result_types=result_types,
                      properties=properties, attributes=attributes,
                      regions=[then_region, else_region])


@implements(gen.IfOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.condition)
    terminators = bool(self.results)
    if terminators:
        printer.write(" -> (")
        printer.print_types([r.type for r in self.results])
        printer.write(")")
    printer.write(" ")
    printer.print_region(self.then_region, print_entry_block_args=False,
                         print_block_terminators=terminators)
    if self.else_region.blocks:
        printer.write(" else ")
        printer.print_region(self.else_region, print_entry_block_args=False,
                             print_block_terminators=terminators)
    printer.print_attr_dict(self.all_attributes())


@implements(gen.IfOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    for number, region in enumerate(self.regions):
        if region.blocks and region.blocks[0].arguments:
            raise self.emit_error(f"region #{number} should have no arguments")
    if self.results and not self.else_region.blocks:
        raise self.emit_error("must have an else block if defining values")


@implements(gen.IfOp)
def custom_verify_regions(self) -> None:  # noqa: F811 - one hook per class
    result_types = [r.type for r in self.results]
    for number, region in enumerate(self.regions):
        if not region.blocks:
            continue
        yield_op = _terminator(self, region, gen.YieldOp)
        _check_edge(self, f"Region #{number}", "parent results",
                    [v.type for v in yield_op.operands], result_types)


# -- scf.while -----------------------------------------------------------------------------------


@implements(gen.WhileOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``[(%arg = %init, ...)] : (types) -> types { before } do { after } [attributes {...}]``."""
    names, inits = [], []
    if parser.parse_optional_punct("("):
        names, inits = _parse_assignments(parser)
    parser.parse_punct(":")
    token = parser.i
    inputs, result_types = parser.parse_functional_type()
    if len(inputs) != len(inits):
        parser.error(f"expected as many input types as operands (expected {len(inits)} got "
                     f"{len(inputs)})", token)
    operands = parser.resolve_operands(inits, inputs)
    before = parser.parse_region(list(zip(names, inputs)))
    parser.parse_keyword("do")
    after = parser.parse_region()
    attrs = parser.parse_optional_attr_dict_with_keyword()
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=result_types,
                      properties=properties, attributes=attributes, regions=[before, after])


@implements(gen.WhileOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    inits = self.inits
    if inits:
        printer.write(" ")
        before = self.before.blocks[0].arguments if self.before.blocks else []
        _print_assignments(printer, before, inits)
    printer.write(" : ")
    printer.print_functional_type([v.type for v in inits], [r.type for r in self.results])
    printer.write(" ")
    printer.print_region(self.before, print_entry_block_args=False)
    printer.write(" do ")
    printer.print_region(self.after)
    printer.print_attr_dict_with_keyword(self.all_attributes())


@implements(gen.WhileOp)
def custom_verify_regions(self) -> None:  # noqa: F811 - one hook per class
    condition = _terminator(self, self.before, gen.ConditionOp, "the 'before' region")
    yield_op = _terminator(self, self.after, gen.YieldOp, "the 'after' region")
    before_args = [a.type for a in self.before.blocks[0].arguments]
    after_args = [a.type for a in self.after.blocks[0].arguments]
    passed = [v.type for v in condition.args]
    _check_edge(self, "parent operands", "Region #0", [v.type for v in self.inits], before_args)
    _check_edge(self, "Region #0", "Region #1", passed, after_args)
    _check_edge(self, "Region #0", "parent results", passed, [r.type for r in self.results])
    _check_edge(self, "Region #1", "Region #0", [v.type for v in yield_op.operands],
                before_args)

