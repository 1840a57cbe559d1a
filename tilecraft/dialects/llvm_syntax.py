"""The custom assembly formats of llvm ops, as MLIR 19 prints them:

- ``llvm.func [linkage] @f(%arg0: !llvm.ptr<1>) [-> i32] [attributes {...}] [{ body }]``, a
  declaration with types only: ``llvm.func @g(f32) -> f32``;
- ``llvm.mlir.global <linkage> [constant] @g([value]) {attrs} [: type]`` (the type is left out
  after a string initializer: an array of i8 of its length);
- ``llvm.add %a, %b overflow<nsw, nuw> : i32`` (also sub, mul, shl);
- ``llvm.icmp "slt" %a, %b : i32`` and ``llvm.fcmp "olt" %a, %b : f32``;
- ``llvm.alloca %n x f32 {alignment = 4 : i64} : (i32) -> !llvm.ptr``;
- ``llvm.getelementptr [inbounds] %p[%i, 0] : (!llvm.ptr, i64) -> !llvm.ptr, f32``;
- ``llvm.extractvalue %s[0] : !llvm.struct<(i32, f32)>`` and
  ``llvm.insertvalue %v, %s[0] : !llvm.struct<(i32, f32)>``.
"""

from __future__ import annotations

from tilecraft.ir import (
    DenseArrayAttr, IntegerAttr, IntegerType, StringAttr, TypeAttr, UnitAttr, VectorType, i1, i32,
    i64,
)
from tilecraft.ir.ods import implements

from .functions import parse_function
from .llvm import (
    GEP_DYNAMIC_INDEX, LINKAGES, function_result, function_type, gen, member_type,
)

#: What the function syntax spells itself (never repeated in ``attributes {...}``).
_FUNCTION_SYNTAX = ("sym_name", "function_type", "linkage", "arg_attrs", "res_attrs")
_GLOBAL_SYNTAX = ("sym_name", "global_type", "constant", "value", "linkage")


def _create(cls, attrs: dict, operands=(), result_types=(), **parts):
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=result_types,
                      properties=properties, attributes=attributes, **parts)


# -- llvm.func ------------------------------------------------------------------------------------


@implements(gen.FuncOp)
@classmethod
def parse(cls, parser):
    """See the module docstring; the signature is read as `func.func`'s, without results for
    ``void``."""
    linkage = parser.parse_optional_keyword(LINKAGES)
    token = parser.i
    op = parse_function(cls, parser)
    signature = op.properties["function_type"].value
    if len(signature.results) > 1:
        parser.error("an LLVM function returns at most one value", token)
    result = signature.results[0] if signature.results else None
    op.properties["function_type"] = TypeAttr(function_type(result, signature.inputs))
    if linkage is not None and linkage != "external":
        op.properties["linkage"] = gen.LLVMLinkageAttr(linkage)
    return op


@implements(gen.FuncOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    printer.write(" ")
    if self.linkage is not None and self.linkage.linkage != "external":
        printer.write(self.linkage.linkage + " ")
    printer.print_symbol_name(self.sym_name)
    ftype = self.function_type
    blocks = self.body.blocks
    arg_attrs = self.properties.get("arg_attrs")
    printer.write("(")
    for index, type_ in enumerate(ftype.params):
        if index:
            printer.write(", ")
        attrs = dict(arg_attrs[index].items()) if arg_attrs is not None else {}
        if blocks:
            printer.print_argument(blocks[0].arguments[index], attrs)
        else:
            printer.print_type(type_)
            printer.print_attr_dict(attrs)
    printer.write(")")
    result = function_result(ftype)
    if result is not None:
        printer.write(" -> ")
        printer.print_type(result)
        res_attrs = self.properties.get("res_attrs")
        if res_attrs is not None:
            printer.print_attr_dict(dict(res_attrs[0].items()))
    printer.print_attr_dict_with_keyword(self.all_attributes(), _FUNCTION_SYNTAX)
    if blocks:
        printer.write(" ")
        printer.print_region(self.body, print_entry_block_args=False)


# -- llvm.mlir.global -----------------------------------------------------------------------------


@implements(gen.GlobalOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    token = parser.i
    linkage = gen.LLVMLinkageAttr(parser.parse_keyword())
    message = linkage.verify()
    if message is not None:
        parser.error(message, token)
    attrs = {"linkage": linkage}
    if parser.parse_optional_keyword("constant") is not None:
        attrs["constant"] = UnitAttr()
    attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
    parser.parse_punct("(")
    if not parser.parse_optional_punct(")"):
        attrs["value"] = parser.parse_attribute()
        parser.parse_punct(")")
    attrs.update(parser.parse_optional_attr_dict())
    value = attrs.get("value")
    if isinstance(value, StringAttr) and parser.toks[parser.i] != ":":
        global_type = gen.LLVMArrayType(len(value.value.encode("latin-1")), IntegerType(8))
    else:
        global_type = parser.parse_colon_type()
    attrs["global_type"] = TypeAttr(global_type)
    return _create(cls, attrs)


@implements(gen.GlobalOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(f" {self.linkage.linkage} ")
    if self.constant:
        printer.write("constant ")
    printer.print_symbol_name(self.sym_name)
    printer.write("(")
    value = self.properties.get("value")
    if value is not None:
        printer.print_attribute(value)
    printer.write(")")
    printer.print_attr_dict(self.all_attributes(), _GLOBAL_SYNTAX)
    if not isinstance(value, StringAttr):
        printer.write(" : ")
        printer.print_type(self.global_type)


# -- integer arithmetic with overflow flags -------------------------------------------------------


@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    lhs = parser.parse_operand()
    parser.parse_punct(",")
    rhs = parser.parse_operand()
    attrs = {}
    if parser.parse_optional_keyword("overflow") is not None:
        attrs["overflowFlags"] = gen.LLVMIntegerOverflowFlagsAttr.parse_parameters(parser)
    attrs.update(parser.parse_optional_attr_dict())
    type_ = parser.parse_colon_type()
    return _create(cls, attrs, parser.resolve_operands([lhs, rhs], [type_, type_]),
                   [type_])


def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operands([self.lhs, self.rhs])
    flags = self.overflow_flags
    if flags is not None and flags.flags:
        printer.write(" overflow")
        flags.print_parameters(printer)
    printer.print_attr_dict(self.all_attributes(), ("overflowFlags",))
    printer.write(" : ")
    printer.print_type(self.res.type)


for _op in (gen.AddOp, gen.SubOp, gen.MulOp, gen.ShlOp):
    implements(_op)(parse)
    implements(_op)(print)


# -- comparisons ----------------------------------------------------------------------------------


def _compare_parser(enum):
    @classmethod
    def parse(cls, parser):
        token = parser.i
        name = parser.parse_string()
        cases = {case.keyword: case for case in enum}
        if name not in cases:
            parser.error(f"unknown predicate \"{name}\"; expected one of "
                         f"{', '.join(cases)}", token)
        lhs = parser.parse_operand()
        parser.parse_punct(",")
        rhs = parser.parse_operand()
        attrs = {"predicate": IntegerAttr(int(cases[name]), i64)}
        attrs.update(parser.parse_optional_attr_dict())
        type_ = parser.parse_colon_type()
        operands = parser.resolve_operands([lhs, rhs], [type_, type_])
        result = VectorType(type_.shape, i1) if isinstance(type_, VectorType) else i1
        return _create(cls, attrs, operands, [result])
    return parse


def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_string(self.predicate.keyword)
    printer.write(" ")
    printer.print_operands([self.lhs, self.rhs])
    printer.print_attr_dict(self.all_attributes(), ("predicate",))
    printer.write(" : ")
    printer.print_type(self.lhs.type)


for _op, _enum in ((gen.ICmpOp, gen.ICmpPredicate), (gen.FCmpOp, gen.FCmpPredicate)):
    implements(_op)(_compare_parser(_enum))
    implements(_op)(print)


# -- llvm.alloca ----------------------------------------------------------------------------------


@implements(gen.AllocaOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    size = parser.parse_operand()
    parser.parse_keyword("x")
    attrs = {"elem_type": TypeAttr(parser.parse_type())}
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    token = parser.i
    inputs, results = parser.parse_functional_type()
    if len(inputs) != 1 or len(results) != 1:
        parser.error("expected '(size type) -> pointer type'", token)
    return _create(cls, attrs, parser.resolve_operands([size], inputs), results)


@implements(gen.AllocaOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.array_size)
    printer.write(" x ")
    printer.print_type(self.elem_type)
    printer.print_attr_dict(self.all_attributes(), ("elem_type",))
    printer.write(" : ")
    printer.print_functional_type([self.array_size.type], [self.res.type])


# -- llvm.getelementptr ---------------------------------------------------------------------------


@implements(gen.GEPOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    attrs = {}
    if parser.parse_optional_keyword("inbounds") is not None:
        attrs["inbounds"] = UnitAttr()
    base = parser.parse_operand()
    parser.parse_punct("[")
    raw, dynamic = [], []
    if not parser.parse_optional_punct("]"):
        while True:
            token = parser.i
            constant = parser.parse_optional_integer()
            if constant is None:
                dynamic.append(parser.parse_operand())
                raw.append(GEP_DYNAMIC_INDEX)
            elif not GEP_DYNAMIC_INDEX < constant < 1 << 31:
                parser.error(f"constant index {constant} does not fit in 32 bits", token)
            else:
                raw.append(constant)
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct("]")
    attrs["rawConstantIndices"] = DenseArrayAttr(i32, raw)
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    token = parser.i
    inputs, results = parser.parse_functional_type()
    if len(inputs) != 1 + len(dynamic) or len(results) != 1:
        parser.error(f"expected the types of the base and of {len(dynamic)} dynamic indices, "
                     "and one result type", token)
    parser.parse_punct(",")
    attrs["elem_type"] = TypeAttr(parser.parse_type())
    operands = parser.resolve_operands([base, *dynamic], inputs)
    return _create(cls, attrs, operands, results)


@implements(gen.GEPOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" inbounds " if self.inbounds else " ")
    printer.print_operand(self.base)
    printer.write("[")
    dynamic = iter(self.dynamic_indices)
    for index, raw in enumerate(self.raw_constant_indices):
        if index:
            printer.write(", ")
        if raw == GEP_DYNAMIC_INDEX:
            printer.print_operand(next(dynamic))
        else:
            printer.write(str(raw))
    printer.write("]")
    printer.print_attr_dict(self.all_attributes(),
                            ("inbounds", "rawConstantIndices", "elem_type"))
    printer.write(" : ")
    printer.print_functional_type([v.type for v in self.operands], [self.res.type])
    printer.write(", ")
    printer.print_type(self.elem_type)


# -- llvm.extractvalue and llvm.insertvalue -------------------------------------------------------


def _bounded_integer(parser, low: int, high: int, what: str) -> int:
    """An integer literal in ``[low, high)``; an error at the literal otherwise."""
    token = parser.i
    value = parser.parse_integer()
    if not low <= value < high:
        parser.error(f"{what} {value} is out of range [{low}, {high})", token)
    return value


def _parse_position(parser) -> list[int]:
    parser.parse_punct("[")
    position = [_bounded_integer(parser, 0, 1 << 63, "position")]
    while parser.parse_optional_punct(","):
        position.append(_bounded_integer(parser, 0, 1 << 63, "position"))
    parser.parse_punct("]")
    return position


def _print_position(printer, position) -> None:
    printer.write("[" + ", ".join(map(str, position)) + "]")


def _parse_position_and_types(parser):
    """``[p0, p1] {attrs} : container-type`` of extractvalue and insertvalue: (attributes,
    the container's type, the type of the member at the position)."""
    token = parser.i
    position = _parse_position(parser)
    attrs = {"position": DenseArrayAttr(i64, position)}
    attrs.update(parser.parse_optional_attr_dict())
    container_type = parser.parse_colon_type()

    def report(message):
        parser.error(message, token)
    return attrs, container_type, member_type(container_type, position, report)


@implements(gen.ExtractValueOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    container = parser.parse_operand()
    attrs, container_type, member = _parse_position_and_types(parser)
    return _create(cls, attrs, parser.resolve_operands([container], [container_type]),
                   [member])


@implements(gen.ExtractValueOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.container)
    _print_position(printer, self.position)
    printer.print_attr_dict(self.all_attributes(), ("position",))
    printer.write(" : ")
    printer.print_type(self.container.type)


@implements(gen.InsertValueOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    value = parser.parse_operand()
    parser.parse_punct(",")
    container = parser.parse_operand()
    attrs, container_type, member = _parse_position_and_types(parser)
    operands = parser.resolve_operands([container, value], [container_type, member])
    return _create(cls, attrs, operands, [container_type])


@implements(gen.InsertValueOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.value)
    printer.write(", ")
    printer.print_operand(self.container)
    _print_position(printer, self.position)
    printer.print_attr_dict(self.all_attributes(), ("position",))
    printer.write(" : ")
    printer.print_type(self.container.type)
