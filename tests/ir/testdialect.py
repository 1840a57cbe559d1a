"""A small hand-written dialect ``tst`` for the IR core's tests.

It stands in for generated dialects: op classes with custom forms written against the
Printer/Parser API, a dialect type, and dialect attributes with and without an ``ALIAS``.
"""

from __future__ import annotations

from tilecraft.ir import (
    Argument, Commutative, ConstantLike, DialectAttribute,
    DialectType, Dialect, FunctionLike, FunctionType, HasParent, IsolatedFromAbove,
    MemRead, MemWrite, NoTerminator, Operation, Pure, RecursiveMemoryEffects, ReturnLike,
    SameOperandsAndResultType, SingleBlock, StringAttr, Symbol, Terminator, TypeAttr, index,
)

dialect = Dialect("tst", "ops for the IR core's tests")


@dialect.attribute
class LayoutAttr(DialectAttribute):
    """``#tst.layout<{order = [1, 0], warps = 4}>``, printed through the alias ``#layout``."""

    __slots__ = ()
    DIALECT = "tst"
    MNEMONIC = "layout"
    PARAMETERS = ("order", "warps")
    ALIAS = "layout"

    def print_parameters(self, printer) -> None:
        printer.write("<{order = [" + ", ".join(map(str, self.order)) + f"], warps = {self.warps}}}>")

    @classmethod
    def parse_parameters(cls, parser):
        parser.parse_punct("<")
        fields = parser.parse_attribute()
        parser.parse_punct(">")
        return cls(tuple(a.value for a in fields["order"]), fields["warps"].value)


@dialect.attribute
class SliceAttr(DialectAttribute):
    """``#tst.slice<0, #tst.layout<...>>``: the default parameter syntax, nesting an alias."""

    __slots__ = ()
    DIALECT = "tst"
    MNEMONIC = "slice"
    PARAMETERS = ("dim", "parent")


@dialect.attribute
class FlagAttr(DialectAttribute):
    """``#tst.flag``: no parameters."""

    __slots__ = ()
    DIALECT = "tst"
    MNEMONIC = "flag"


@dialect.type
class PtrType(DialectType):
    """``!tst.ptr<f32>``: default parameter syntax."""

    __slots__ = ()
    DIALECT = "tst"
    MNEMONIC = "ptr"
    PARAMETERS = ("pointee",)


@dialect.type
class TokenType(DialectType):
    """``!tst.token``."""

    __slots__ = ()
    DIALECT = "tst"
    MNEMONIC = "token"


def _parse_binary(cls, parser) -> Operation:
    lhs = parser.parse_operand()
    parser.parse_punct(",")
    rhs = parser.parse_operand()
    attributes = parser.parse_optional_attr_dict()
    result_type = parser.parse_colon_type()
    operands = parser.resolve_operands([lhs, rhs], result_type)
    return cls.create(cls.OPERATION_NAME, operands, [result_type], attributes=attributes)


@dialect.op
class AddOp(Operation):
    """``%r = tst.add %a, %b : i32``."""

    __slots__ = ()
    OPERATION_NAME = "tst.add"
    TRAITS = (Pure, Commutative, SameOperandsAndResultType)

    def print(self, printer) -> None:
        printer.write(" ")
        printer.print_operands(self.operands)
        printer.print_attr_dict(self.attributes)
        printer.write(" : ")
        printer.print_type(self.result.type)

    parse = classmethod(_parse_binary)


@dialect.op
class ConstantOp(Operation):
    """``%c = tst.constant 4 : i32`` (the value's type is the result type)."""

    __slots__ = ()
    OPERATION_NAME = "tst.constant"
    TRAITS = (Pure, ConstantLike)
    PROPERTY_NAMES = ("value",)

    def print(self, printer) -> None:
        printer.print_attr_dict(self.attributes)
        printer.write(" ")
        printer.print_attribute(self.properties["value"])

    @classmethod
    def parse(cls, parser) -> Operation:
        attributes = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        return cls.create(cls.OPERATION_NAME, (), [value.type], {"value": value}, attributes)


@dialect.op
class FuncOp(Operation):
    """``tst.func @f(%arg0: i32) -> i32 attributes {...} { ... }``."""

    __slots__ = ()
    OPERATION_NAME = "tst.func"
    TRAITS = (IsolatedFromAbove, Symbol, FunctionLike, SingleBlock)
    PROPERTY_NAMES = ("sym_name", "function_type")

    def print(self, printer) -> None:
        printer.write(" ")
        printer.print_symbol_name(self.properties["sym_name"].value)
        printer.write("(")
        for i, arg in enumerate(self.regions[0].blocks[0].arguments):
            if i:
                printer.write(", ")
            printer.print_argument(arg)
        printer.write(")")
        results = self.properties["function_type"].value.results
        if results:
            printer.write(" -> ")
            printer.print_types(results)
        printer.print_attr_dict_with_keyword(self.attributes)
        printer.write(" ")
        printer.print_region(self.regions[0], print_entry_block_args=False)

    @classmethod
    def parse(cls, parser) -> Operation:
        name = parser.parse_symbol_name()
        parser.parse_punct("(")
        arguments: list[Argument] = []
        if not parser.parse_optional_punct(")"):
            arguments.append(parser.parse_argument())
            while parser.parse_optional_punct(","):
                arguments.append(parser.parse_argument())
            parser.parse_punct(")")
        results = parser.parse_type_list() if parser.parse_optional_punct("->") else []
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region(arguments)
        function_type = FunctionType([a.type for a in arguments], results)
        properties = {"sym_name": StringAttr(name), "function_type": TypeAttr(function_type)}
        return cls.create(cls.OPERATION_NAME, (), (), properties, attributes, [region])


@dialect.op
class ReturnOp(Operation):
    """``tst.return %a, %b : i32, f32`` (``tst.return`` when empty)."""

    __slots__ = ()
    OPERATION_NAME = "tst.return"
    TRAITS = (Pure, Terminator, ReturnLike, HasParent.of("tst.func"))

    def print(self, printer) -> None:
        if self.operands:
            printer.write(" ")
            printer.print_operands(self.operands)
            printer.write(" : ")
            printer.print_types(v.type for v in self.operands)

    @classmethod
    def parse(cls, parser) -> Operation:
        operands = parser.parse_operand_list()
        types = parser.parse_type_list() if operands and parser.parse_optional_punct(":") else []
        return cls.create(cls.OPERATION_NAME, parser.resolve_operands(operands, types))


@dialect.op
class ForOp(Operation):
    """``%r = tst.for %i = %lb to %ub iter_args(%acc = %init) -> (i32) { ... }``: an scf.for-like
    loop whose body ends with ``tst.yield`` (left out of the text when it yields nothing)."""

    __slots__ = ()
    OPERATION_NAME = "tst.for"
    TRAITS = (SingleBlock, RecursiveMemoryEffects)

    def print(self, printer) -> None:
        body = self.regions[0].blocks[0]
        printer.write(" ")
        printer.print_operand(body.arguments[0])
        printer.write(" = ")
        printer.print_operand(self.operands[0])
        printer.write(" to ")
        printer.print_operand(self.operands[1])
        if len(self.operands) > 2:
            printer.write(" iter_args(")
            for i, (arg, init) in enumerate(zip(body.arguments[1:], self.operands[2:])):
                if i:
                    printer.write(", ")
                printer.print_operand(arg)
                printer.write(" = ")
                printer.print_operand(init)
            printer.write(") -> (")
            printer.print_types(r.type for r in self.results)
            printer.write(")")
        printer.write(" ")
        terminator = body.last_op
        printer.print_region(self.regions[0], print_entry_block_args=False,
                             print_block_terminators=bool(terminator and terminator.operands))
        printer.print_attr_dict(self.attributes)

    @classmethod
    def parse(cls, parser) -> Operation:
        induction = parser.parse_argument(with_type=False)
        parser.parse_punct("=")
        bounds = [parser.parse_operand()]
        parser.parse_keyword("to")
        bounds.append(parser.parse_operand())
        args, inits, types = [], [], []
        if parser.parse_optional_keyword("iter_args"):
            parser.parse_punct("(")
            while True:
                args.append(parser.parse_argument(with_type=False))
                parser.parse_punct("=")
                inits.append(parser.parse_operand())
                if not parser.parse_optional_punct(","):
                    break
            parser.parse_punct(")")
            parser.parse_punct("->")
            parser.parse_punct("(")
            types = parser.parse_type_list()
            parser.parse_punct(")")
        region = parser.parse_region([(induction.operand, index)] +
                                     [(a.operand, t) for a, t in zip(args, types)])
        body = region.blocks[0]
        if body.last_op is None or not body.last_op.has_trait(Terminator):
            body.append(YieldOp.create(YieldOp.OPERATION_NAME))
        attributes = parser.parse_optional_attr_dict()
        operands = parser.resolve_operands(bounds, index) + parser.resolve_operands(inits, types)
        return cls.create(cls.OPERATION_NAME, operands, types, attributes=attributes,
                          regions=[region])


@dialect.op
class YieldOp(Operation):
    """``tst.yield %a : i32``."""

    __slots__ = ()
    OPERATION_NAME = "tst.yield"
    TRAITS = (Pure, Terminator, ReturnLike, HasParent.of("tst.for"))
    print = ReturnOp.print
    parse = ReturnOp.__dict__["parse"]


@dialect.op
class BranchOp(Operation):
    """``tst.br ^bb1``."""

    __slots__ = ()
    OPERATION_NAME = "tst.br"
    TRAITS = (Terminator,)

    def print(self, printer) -> None:
        printer.write(" ")
        printer.print_successor(self.successors[0])

    @classmethod
    def parse(cls, parser) -> Operation:
        return cls.create(cls.OPERATION_NAME, successors=[parser.parse_successor()])


@dialect.op
class LoadOp(Operation):
    """``%v = tst.load %p : !tst.ptr<f32>``: reads memory."""

    __slots__ = ()
    OPERATION_NAME = "tst.load"
    TRAITS = (MemRead,)


@dialect.op
class StoreOp(Operation):
    """Writes memory."""

    __slots__ = ()
    OPERATION_NAME = "tst.store"
    TRAITS = (MemWrite,)


@dialect.op
class ScopeOp(Operation):
    """A region holder with no terminator requirement (generic form only)."""

    __slots__ = ()
    OPERATION_NAME = "tst.scope"
    TRAITS = (NoTerminator,)


__all__ = [
    "dialect", "LayoutAttr", "SliceAttr", "FlagAttr", "PtrType", "TokenType", "AddOp",
    "ConstantOp", "FuncOp", "ReturnOp", "ForOp", "YieldOp", "BranchOp", "LoadOp", "StoreOp",
    "ScopeOp",
]
