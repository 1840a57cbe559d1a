"""Hooks of the llvm dialect: the syntax of its types and attributes as MLIR prints them
(members of a literal structure or array, and the result and parameters of a function type,
print without the ``!llvm.`` prefix when they are LLVM types: ``!llvm.struct<(ptr, i32)>``), and
MLIR's verifiers of its ops. The custom assembly formats of the ops are in `llvm_syntax`."""

from __future__ import annotations

from tilecraft.ir import (
    DenseElementsAttr, FloatAttr, IntegerAttr, Type, VectorType, element_type_of, i1,
)
from tilecraft.ir.ods import implements

from . import generated_module
from .cf import verify_successor_operands
from .functions import lookup_symbol

gen = generated_module(__name__, "llvm")

#: LLVM's fast-math flags in MLIR's printing order; ``fast`` stands for all of them.
FASTMATH_FLAGS = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
#: The no-wrap flags of integer add, sub, mul and shl, in MLIR's printing order.
OVERFLOW_FLAGS = ("nsw", "nuw")
LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common",
            "appending", "extern_weak", "linkonce_odr", "weak_odr", "external")
#: The value of `GEPOp.raw_constant_indices` that stands for the next dynamic index.
GEP_DYNAMIC_INDEX = -(1 << 31)


# -- types ----------------------------------------------------------------------------------------


def print_member(printer, type_: Type) -> None:
    """An LLVM type by its mnemonic and parameters; any other type as usual."""
    if getattr(type_, "DIALECT", None) == "llvm":
        printer.write(type_.MNEMONIC)
        if type_.PARAMETERS:
            type_.print_parameters(printer)
    else:
        printer.print_type(type_)


def parse_member(parser) -> Type:
    """An LLVM type written with or without ``!llvm.``, or any other type."""
    mnemonic = parser.parse_optional_keyword(tuple(gen.DIALECT.types))
    if mnemonic is None:
        return parser.parse_type()
    cls = gen.DIALECT.types[mnemonic]
    return cls.parse_parameters(parser) if cls.PARAMETERS else cls()


@implements(gen.LLVMStructType)
def print_parameters(self, printer) -> None:
    """``<(i32, f32)>``, or ``<packed (i8, i32)>``."""
    printer.write("<packed (" if self.packed else "<(")
    for index, member in enumerate(self.body):
        if index:
            printer.write(", ")
        print_member(printer, member)
    printer.write(")>")


@implements(gen.LLVMStructType)
@classmethod
def parse_parameters(cls, parser):
    """Read what `print_parameters` writes."""
    parser.parse_punct("<")
    packed = parser.parse_optional_keyword("packed") is not None
    parser.parse_punct("(")
    body = []
    if not parser.parse_optional_punct(")"):
        body.append(parse_member(parser))
        while parser.parse_optional_punct(","):
            body.append(parse_member(parser))
        parser.parse_punct(")")
    parser.parse_punct(">")
    return cls(body, packed)


@implements(gen.LLVMArrayType)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<4 x i32>``, as MLIR prints it."""
    printer.write(f"<{self.num_elements} x ")
    print_member(printer, self.element_type)
    printer.write(">")


@implements(gen.LLVMArrayType)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """``<4 x i32>`` (or ``<4xi32>``): a count, ``x`` and the element type."""
    parser.parse_punct("<")
    token = parser.i
    dims = parser.parse_dimension_list()
    if len(dims) != 1:
        parser.error("expected one dimension: the number of elements", token)
    element_type = parse_member(parser)
    parser.parse_punct(">")
    return cls(dims[0], element_type)


@implements(gen.LLVMFunctionType)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<void (i32, ptr)>``, ``<i32 (ptr, ...)>`` for a variadic function."""
    printer.write("<")
    print_member(printer, self.return_type)
    printer.write(" (")
    for index, param in enumerate(self.params):
        if index:
            printer.write(", ")
        print_member(printer, param)
    if self.var_arg:
        printer.write(", ..." if self.params else "...")
    printer.write(")>")


@implements(gen.LLVMFunctionType)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """Read what `print_parameters` writes."""
    parser.parse_punct("<")
    result = parse_member(parser)
    parser.parse_punct("(")
    params, var_arg = [], False
    if not parser.parse_optional_punct(")"):
        while True:
            if parser.parse_optional_punct("..."):
                var_arg = True
                break
            params.append(parse_member(parser))
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct(")")
    parser.parse_punct(">")
    return cls(result, params, var_arg)


def function_type(result: Type | None, params, var_arg: bool = False):
    """The `LLVMFunctionType` of a function returning ``result`` (None: ``void``)."""
    return gen.LLVMFunctionType(result or gen.LLVMVoidType(), tuple(params), var_arg)


def function_result(ftype) -> Type | None:
    """The result type of an `LLVMFunctionType`, None for ``void``."""
    result = ftype.return_type
    return None if isinstance(result, gen.LLVMVoidType) else result


# -- attributes -----------------------------------------------------------------------------------


def _print_flags(printer, flags: tuple[str, ...], all_flags: tuple[str, ...] = ()) -> None:
    if all_flags and len(flags) == len(all_flags):
        printer.write("<fast>")
    else:
        printer.write("<" + (", ".join(flags) or "none") + ">")


def _parse_flags(parser, known: tuple[str, ...], fast: bool) -> tuple[str, ...]:
    """``<a, b>`` or ``<none>`` (``<fast>`` for every flag when ``fast``): the flags in
    ``known``'s order, then any unknown ones (which the attribute's verifier rejects)."""
    parser.parse_punct("<")
    words: list[str] = []
    while True:
        word = parser.parse_keyword()
        if word == "fast" and fast:
            words.extend(known)
        elif word != "none":
            words.append(word)
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct(">")
    return (tuple(flag for flag in known if flag in words)
            + tuple(dict.fromkeys(w for w in words if w not in known)))


def _verified(attr, parser, token: int):
    """``attr``, or an error at ``token`` with what its verifier says."""
    message = attr.verify()
    if message is not None:
        parser.error(message, token)
    return attr


def _flags_message(flags, known: tuple[str, ...]) -> str | None:
    unknown = [flag for flag in flags if flag not in known]
    if unknown:
        return f"unknown flag '{unknown[0]}'; expected one of {', '.join(known)}"
    if list(flags) != [flag for flag in known if flag in flags]:
        return f"flags must be distinct and in the order {', '.join(known)}"
    return None


@implements(gen.LLVMFastmathFlagsAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<contract, reassoc>``, ``<fast>`` or ``<none>``."""
    _print_flags(printer, self.flags, FASTMATH_FLAGS)


@implements(gen.LLVMFastmathFlagsAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    token = parser.i
    return _verified(cls(_parse_flags(parser, FASTMATH_FLAGS, fast=True)), parser, token)


@implements(gen.LLVMFastmathFlagsAttr)
def verify(self) -> str | None:
    return _flags_message(self.flags, FASTMATH_FLAGS)


@implements(gen.LLVMIntegerOverflowFlagsAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<nsw, nuw>`` or ``<none>``."""
    _print_flags(printer, self.flags)


@implements(gen.LLVMIntegerOverflowFlagsAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    token = parser.i
    return _verified(cls(_parse_flags(parser, OVERFLOW_FLAGS, fast=False)), parser, token)


@implements(gen.LLVMIntegerOverflowFlagsAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    return _flags_message(self.flags, OVERFLOW_FLAGS)


@implements(gen.LLVMLinkageAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``<internal>``."""
    printer.write(f"<{self.linkage}>")


@implements(gen.LLVMLinkageAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    token = parser.i
    parser.parse_punct("<")
    linkage = parser.parse_keyword()
    parser.parse_punct(">")
    return _verified(cls(linkage), parser, token)


@implements(gen.LLVMLinkageAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    return None if self.linkage in LINKAGES else f"unknown linkage '{self.linkage}'"


# -- verifiers ------------------------------------------------------------------------------------


@implements(gen.FuncOp)
def custom_verify(self) -> None:
    ftype = self.function_type
    blocks = self.body.blocks
    if not blocks:
        return
    arguments = [arg.type for arg in blocks[0].arguments]
    if arguments != list(ftype.params):
        raise self.emit_error("entry block arguments do not match the function's parameters "
                              f"({', '.join(map(str, ftype.params))})")


@implements(gen.ConstantOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    value, result = self.value_attr, self.res.type
    if isinstance(value, (IntegerAttr, FloatAttr, DenseElementsAttr)):
        if value.type is not result:
            raise self.emit_error(f"value of type {value.type} does not match the result type "
                                  f"{result}")
    else:
        raise self.emit_error("expected an integer, float or dense elements attribute as the "
                              "value")


def _bool_like(t: Type) -> Type:
    """i1, or a vector of i1 shaped as the vector ``t``."""
    return VectorType(t.shape, i1) if isinstance(t, VectorType) else i1


def _verify_compare(op) -> None:
    if op.lhs.type is not op.rhs.type:
        raise op.emit_error("operands must have the same type")
    if op.res.type is not _bool_like(op.lhs.type):
        raise op.emit_error(f"result must be {_bool_like(op.lhs.type)}")


@implements(gen.ICmpOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    element = element_type_of(self.lhs.type)
    if not (element.is_signless_integer() or isinstance(element, gen.LLVMPointerType)):
        raise self.emit_error("operands must be integers or pointers (or vectors of them)")
    _verify_compare(self)


@implements(gen.FCmpOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    _verify_compare(self)


@implements(gen.GEPOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    dynamic = sum(1 for index in self.raw_constant_indices if index == GEP_DYNAMIC_INDEX)
    if dynamic != len(self.dynamic_indices):
        raise self.emit_error(f"expected {dynamic} dynamic indices, got "
                              f"{len(self.dynamic_indices)}")


def member_type(container: Type, position, report) -> Type:
    """The type at ``position`` in the aggregate ``container``; ``report(message)`` returns the
    exception to raise for a bad position."""
    current = container
    for index in position:
        if isinstance(current, gen.LLVMStructType):
            if not 0 <= index < len(current.body):
                raise report(f"position {index} is out of bounds of {current}")
            current = current.body[index]
        elif isinstance(current, gen.LLVMArrayType):
            if not 0 <= index < current.num_elements:
                raise report(f"position {index} is out of bounds of {current}")
            current = current.element_type
        else:
            raise report(f"position {list(position)} goes into {current}, which is not an "
                         "aggregate")
    return current


@implements(gen.ExtractValueOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    member = member_type(self.container.type, self.position, self.emit_error)
    if member is not self.res.type:
        raise self.emit_error(f"result type {self.res.type} does not match the member type "
                              f"{member}")


@implements(gen.InsertValueOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    member = member_type(self.container.type, self.position, self.emit_error)
    if member is not self.value.type:
        raise self.emit_error(f"value type {self.value.type} does not match the member type "
                              f"{member}")


@implements(gen.CallOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    function = lookup_symbol(self, self.callee)
    if not isinstance(function, gen.FuncOp):
        raise self.emit_error(f"'{self.callee}' does not reference a valid LLVM function")
    ftype = function.function_type
    operands = [v.type for v in self.callee_operands]
    fixed = list(ftype.params)
    if operands[:len(fixed)] != fixed or (len(operands) != len(fixed) and not ftype.var_arg):
        raise self.emit_error(f"operand types ({', '.join(map(str, operands))}) do not match "
                              f"the callee's type {ftype}")
    results = [r.type for r in self.results]
    expected = function_result(ftype)
    if results != ([] if expected is None else [expected]):
        raise self.emit_error(f"result types do not match the callee's type {ftype}")


@implements(gen.CallIntrinsicOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    if not self.intrin.startswith("llvm."):
        raise self.emit_error(f"intrinsic name must start with 'llvm.', got '{self.intrin}'")


@implements(gen.BrOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    verify_successor_operands(self, 0, self.dest_operands)


@implements(gen.CondBrOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    verify_successor_operands(self, 0, self.true_dest_operands)
    verify_successor_operands(self, 1, self.false_dest_operands)


@implements(gen.ReturnOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    function = self.parent_op
    expected = function_result(function.function_type)
    returned = None if self.arg is None else self.arg.type
    if returned is not expected:
        raise self.emit_error(f"returns {returned or 'nothing'}, but the enclosing function "
                              f"@{function.sym_name} returns {expected or 'void'}")


from . import llvm_debuginfo, llvm_syntax  # noqa: E402,F401 - their hooks, once ``gen`` exists
