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
    and a block whose last op is not known to be a terminator (an unregistered op is not) gets
    an `scf.yield` (MLIR's ensureRegionTerminator)."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[0]
    last = block.last_op
    if last is None or not last.has_trait(Terminator):
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



# ================================================================================================
# Canonicalization patterns (MLIR's scf canonicalizations)
# ================================================================================================

from tilecraft.ir import BoolAttr, IntegerType, OpResult, Value  # noqa: E402
from tilecraft.ir.patterns import RewritePattern  # noqa: E402

from .foldutils import const_attr, splat_value, to_signed, to_unsigned  # noqa: E402


def _arith():
    from tilecraft.generated import arith

    return arith


def _constant(rewriter, attr, location) -> Value:
    return rewriter.insert(_arith().ConstantOp.build(attr, attr.type, location=location)).result_


def _defined_outside(value: Value, op) -> bool:
    """Whether ``value`` is defined outside ``op`` (so that it is visible where ``op`` is)."""
    if isinstance(value, OpResult):
        return not op.is_ancestor(value.owner)
    owner = value.owner.parent_op
    return owner is None or not op.is_ancestor(owner)


def inline_region_before(rewriter, region: Region, op) -> list[Value]:
    """Move the ops of ``region``'s only block (no arguments) before ``op``, erase its
    terminator and return the terminator's operands."""
    block = region.blocks[0]
    terminator = block.last_op
    values = list(terminator.operands)
    rewriter.inline_block_before(block, op, [])
    rewriter.erase_op(terminator)
    return values


def _replace_yield(rewriter, block: Block, values) -> None:
    """Give ``block`` a new `scf.yield` of ``values`` in place of its terminator."""
    old = block.last_op
    new = gen.YieldOp.build(list(values), location=old.location)
    block.insert_before(old, new)
    rewriter.erase_op(old)


def _move_blocks(source: Region, target: Region) -> None:
    for block in list(source.blocks):
        source.blocks.remove(block)
        block.parent = None
        target.add_block(block)


# -- scf.if --------------------------------------------------------------------------------------


class IfStaticCondition(RewritePattern):
    """scf.if on a constant condition -> the ops of the region that runs (MLIR's
    RemoveStaticCondition).

    Not a `Pat`: it inlines a region into the parent block, and the pattern language matches and
    builds operands, not regions.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        value = splat_value(const_attr(op.condition))
        if value is None:
            return False
        region = op.then_region if value else op.else_region
        if not region.blocks:
            rewriter.erase_op(op)
            return True
        values = inline_region_before(rewriter, region, op)
        rewriter.replace_op(op, values)
        return True


def remove_if_results(rewriter, op, keep: list[int]):
    """Replace the scf.if ``op`` by one with only the results at the positions ``keep`` (the
    others must be unused); returns the new op."""
    new = gen.IfOp.build([op.results[i].type for i in keep], op.condition,
                         attributes=dict(op.attributes), location=op.location)
    new.properties.update(op.properties)
    for old_region, new_region in zip(op.regions, new.regions):
        _move_blocks(old_region, new_region)
        if new_region.blocks:
            block = new_region.blocks[0]
            _replace_yield(rewriter, block, [block.last_op.operands[i] for i in keep])
    rewriter.set_insertion_point(op)
    rewriter.insert(new)
    values = [None] * op.num_results
    for index, new_result in zip(keep, new.results):
        values[index] = new_result
    rewriter.replace_op(op, values)
    return new


class IfRemoveUnusedResults(RewritePattern):
    """Drop the results of an scf.if that nothing uses.

    Not a `Pat`: the new scf.if has fewer results (variadic) and takes over the regions, whose
    yields change too.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        keep = [r.index for r in op.results if r.uses]
        if len(keep) == len(op.results):
            return False
        remove_if_results(rewriter, op, keep)
        return True


def _yields(op) -> tuple:
    return op.then_region.blocks[0].last_op, op.else_region.blocks[0].last_op


class IfYieldsToSelect(RewritePattern):
    """A used result of an scf.if whose branches yield values defined outside it becomes that
    value (when both yield the same) or an `arith.select` on the condition (MLIR's
    ConvertTrivialIfToSelect); the unused result then goes.

    Not a `Pat`: it reads the values the regions' yields return, which a source pattern (operands
    and their producers) cannot reach.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not op.results or not op.else_region.blocks:
            return False
        then_yield, else_yield = _yields(op)
        changed = False
        for result, t, f in zip(op.results, then_yield.operands, else_yield.operands):
            if not result.uses or not _defined_outside(t, op) or not _defined_outside(f, op):
                continue
            if t is f:
                value = t
            else:
                value = rewriter.insert(_arith().SelectOp.build(
                    op.condition, t, f, location=op.location)).result_
            rewriter.replace_all_uses_with(result, value)
            changed = True
        return changed


class IfYieldsCondition(RewritePattern):
    """An i1 result yielding true/false -> the condition; false/true -> its negation (MLIR's
    ReplaceIfYieldWithConditionOrValue).

    Not a `Pat`: it reads the regions' yields and rebuilds an scf.if with fewer (variadic) results.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not op.results or not op.else_region.blocks:
            return False
        then_yield, else_yield = _yields(op)
        changed = False
        for result, t, f in zip(op.results, then_yield.operands, else_yield.operands):
            if not result.uses or result.type is not IntegerType(1):
                continue
            t_value, f_value = splat_value(const_attr(t)), splat_value(const_attr(f))
            if t_value is None or f_value is None or t_value == f_value:
                continue
            if t_value:
                value = op.condition
            else:
                ones = _constant(rewriter, BoolAttr(True), op.location)
                value = rewriter.insert(_arith().XOrIOp.build(
                    op.condition, ones, location=op.location)).result_
            rewriter.replace_all_uses_with(result, value)
            changed = True
        return changed


class IfRemoveEmptyElse(RewritePattern):
    """An scf.if without results whose else block holds only its yield loses the else.

    Not a `Pat`: it looks into a region and moves the then region into the new op.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        region = op.else_region
        if op.results or not region.blocks or len(region.blocks[0]) != 1:
            return False
        rewriter.start_op_modification(op)
        block = region.blocks[0]
        rewriter.erase_op(block.last_op)
        block.erase()
        rewriter.finalize_op_modification(op)
        return True


class IfNegatedCondition(RewritePattern):
    """scf.if (xori c, true) with an else -> scf.if c with the regions swapped.

    Not a `Pat`: the new scf.if takes the old one's regions, swapped, which a result pattern cannot
    give an op.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not op.else_region.blocks:
            return False
        xor = op.condition.defining_op
        if xor is None or xor.name != "arith.xori":
            return False
        if splat_value(const_attr(xor.rhs)) != 1:
            return False
        rewriter.start_op_modification(op)
        then_blocks, else_blocks = list(op.then_region.blocks), list(op.else_region.blocks)
        op.then_region.blocks[:] = else_blocks
        op.else_region.blocks[:] = then_blocks
        for block in else_blocks:
            block.parent = op.then_region
        for block in then_blocks:
            block.parent = op.else_region
        op.set_operand(0, xor.lhs)
        rewriter.finalize_op_modification(op)
        return True


class IfConditionPropagation(RewritePattern):
    """Inside the then region the condition is true, inside the else region false (MLIR's
    ConditionPropagation).

    Not a `Pat`: it rewrites uses inside the op's regions, not the op.
    """

    ROOT = "scf.if"

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition = op.condition
        if const_attr(condition) is not None:
            return False
        changed = False
        for region, value in ((op.then_region, True), (op.else_region, False)):
            def inside(use, region=region) -> bool:
                return region.is_ancestor(use.owner.parent_region)

            if not any(inside(use) for use in condition.uses):
                continue
            constant = _constant(rewriter, BoolAttr(value), op.location)
            rewriter.replace_uses_with_if(condition, constant, inside)
            changed = True
        return changed


# -- scf.for -------------------------------------------------------------------------------------


def trip_count(op) -> int | None:
    """The number of iterations of an scf.for with constant bounds (None if unknown)."""
    if op.lower_bound is op.upper_bound:
        return 0
    lb, ub, step = (splat_value(const_attr(v)) for v in (op.lower_bound, op.upper_bound,
                                                         op.step))
    if lb is None or ub is None or step is None:
        return None
    type_ = op.lower_bound.type
    width = type_.width if isinstance(type_, IntegerType) else 64
    convert = to_unsigned if op.unsigned_cmp else to_signed
    lb, ub = convert(lb, width), convert(ub, width)
    step = to_signed(step, width)
    if step <= 0:
        return None
    if lb >= ub:
        return 0
    return -((lb - ub) // step)


class ForTrivialTrips(RewritePattern):
    """An scf.for that runs no iteration becomes its initial values; one that runs once
    becomes its body; one that runs more than once, whose body is only its yield of values
    defined outside the loop, becomes those values (MLIR's SimplifyTrivialLoops).

    Not a `Pat`: it computes the trip count from the bounds and inlines the body region.
    """

    ROOT = "scf.for"

    def match_and_rewrite(self, op, rewriter) -> bool:
        count = trip_count(op)
        if count is None:
            return False
        if count == 0:
            rewriter.replace_op(op, list(op.init_args))
            return True
        body = op.region.blocks[0]
        terminator = body.last_op
        values = list(terminator.operands)
        if count == 1:
            rewriter.inline_block_before(body, op, [op.lower_bound, *op.init_args])
            rewriter.erase_op(terminator)
            rewriter.replace_op(op, values)
            return True
        if len(body) != 1 or not all(_defined_outside(value, op) for value in values):
            return False
        rewriter.replace_op(op, values)
        return True


def remove_for_iter_args(rewriter, op, drop: list[int],
                         same_as: dict[int, int] | None = None):
    """Replace the scf.for ``op`` by one without the loop-carried values at the positions
    ``drop``: their region arguments (if still used) and results become the initial values,
    or, for a position that ``same_as`` maps to a kept one, that kept value's region argument
    and result; returns the new op."""
    same_as = same_as or {}
    body = op.region.blocks[0]
    terminator = body.last_op
    args = body.arguments[1:]
    keep = [i for i in range(len(args)) if i not in drop]
    inits = list(op.init_args)
    for index in drop:
        rewriter.replace_all_uses_with(args[index], args[same_as[index]]
                                       if index in same_as else inits[index])
    yielded = terminator.operands
    new = gen.ForOp.build([op.results[i].type for i in keep], op.lower_bound,
                          op.upper_bound, op.step, [inits[i] for i in keep],
                          attributes=dict(op.attributes), location=op.location)
    new.properties.update(op.properties)
    _replace_yield(rewriter, body, [yielded[i] for i in keep])
    for index in reversed(drop):
        body.erase_argument(index + 1)
    _move_blocks(op.region, new.region)
    rewriter.set_insertion_point(op)
    rewriter.insert(new)
    values = list(inits)
    for position, index in enumerate(keep):
        values[index] = new.results[position]
    for index, kept in same_as.items():
        values[index] = values[kept]
    rewriter.replace_op(op, values)
    return new


class ForRemoveIterArgs(RewritePattern):
    """Loop-carried values that do not vary (the body yields the region argument itself, or
    the initial value) become the initial value; loop-carried values nothing reads (neither
    the body nor the loop's users) go; a loop-carried value with the same initial value and
    the same yielded value as an earlier one is that one (MLIR's ForOpIterArgsFolder).

    Not a `Pat`: it changes the loop's region arguments, yields and number of (variadic) results.
    """

    ROOT = "scf.for"

    def match_and_rewrite(self, op, rewriter) -> bool:
        body = op.region.blocks[0]
        args = body.arguments[1:]
        yielded = body.last_op.operands
        drop: list[int] = []
        same_as: dict[int, int] = {}
        first: dict[tuple[Value, Value], int] = {}
        for index, (init, arg, value, result) in enumerate(
                zip(op.init_args, args, yielded, op.results)):
            if value is arg or value is init or (not arg.uses and not result.uses):
                drop.append(index)
            elif (init, value) in first:
                drop.append(index)
                same_as[index] = first[init, value]
            else:
                first[init, value] = index
        if not drop:
            return False
        remove_for_iter_args(rewriter, op, drop, same_as)
        return True


# -- scf.while (canonicalization) ----------------------------------------------------------------


class WhileConditionTruth(RewritePattern):
    """An argument of the after region that receives the loop condition is true there (MLIR's
    WhileConditionTruth).

    Not a `Pat`: it rewrites uses of region arguments inside the loop's regions.
    """

    ROOT = "scf.while"

    def match_and_rewrite(self, op, rewriter) -> bool:
        condition_op = op.before.blocks[0].last_op
        condition = condition_op.condition
        after_args = op.after.blocks[0].arguments
        changed = False
        for value, arg in zip(condition_op.args, after_args):
            if value is not condition or not arg.uses:
                continue
            true = _constant(rewriter, BoolAttr(True), op.location)
            rewriter.replace_all_uses_with(arg, true)
            changed = True
        return changed


def _patterns(cls, *pattern_classes):
    @implements(cls)
    @staticmethod
    def canonicalization_patterns():
        return [p() for p in pattern_classes]


_patterns(gen.IfOp, IfStaticCondition, IfRemoveUnusedResults, IfYieldsToSelect,
          IfYieldsCondition, IfRemoveEmptyElse, IfNegatedCondition, IfConditionPropagation)
_patterns(gen.ForOp, ForTrivialTrips, ForRemoveIterArgs)
_patterns(gen.WhileOp, WhileConditionTruth)
