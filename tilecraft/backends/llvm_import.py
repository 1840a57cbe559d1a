"""An LLVM module built with llvmlite (``llvmlite.ir``) turned into ops of the `llvm` dialect,
as MLIR's ``mlir-translate --import-llvm`` does.

The importer walks llvmlite's IR objects, not the text: every instruction is an object whose
opcode, operands, flags and types are fields, so nothing is re-parsed. The correspondence:

- each function becomes an ``llvm.func`` (a definition with its blocks, or a declaration); the
  ``ptx_kernel`` calling convention becomes ``nvvm.kernel = 1 : ui1``, the string attributes
  ``"nvvm.reqntid"="128"`` and ``"nvvm.maxnreg"="N"`` become ``nvvm.reqntid = array<i32: 128>``
  and ``nvvm.maxnreg = N : i32`` as Triton writes them, other function attributes go to
  ``passthrough`` as in MLIR;
- each global becomes an ``llvm.mlir.global``, and a use of a global or function as a value an
  ``llvm.mlir.addressof``;
- constants become ``llvm.mlir.constant`` (``undef``, ``zero``) ops at the top of the entry
  block, one per distinct constant, as MLIR's importer places them;
- a phi node becomes an argument of its block, and every branch to the block passes the phi's
  incoming value for that edge: ``llvm.br ^bb2(%v : i32)``;
- a call of an LLVM intrinsic (a function named ``llvm.*``) becomes
  ``llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32``, and its declaration is
  not kept: this one op covers every intrinsic the GPU lowering calls (special registers,
  barriers, shuffles, math), with its exact name and overloaded types, where MLIR's ``nvvm``
  ops would need one definition per intrinsic and say nothing more to a pass. Other calls
  (libdevice's ``__nv_expf``) are ``llvm.call`` of a declared ``llvm.func``; inline assembly
  becomes ``llvm.inline_asm``.

Instructions are converted in reverse post-order of the control-flow graph, so each value is
converted before its uses (a phi's incoming value from a back edge is used by the branch that
closes the loop, which its definition dominates). What the importer does not know (a switch, a
constant expression, metadata) is an `LLVMImportError` naming it.
"""

from __future__ import annotations

import numbers
import re

import llvmlite.ir as ir

from tilecraft.dialects.llvm import (
    FASTMATH_FLAGS, GEP_DYNAMIC_INDEX, OVERFLOW_FLAGS, function_type,
)
from tilecraft.generated import llvm as L
from tilecraft.ir import (
    ArrayAttr, Attribute, Block, DenseArrayAttr, DenseElementsAttr, FloatAttr, FloatType,
    IntegerAttr, IntegerType, Location, Operation, Region, StringAttr, Type, TypeAttr, UnitAttr,
    UnknownLoc, Value, VectorType, i32, i64,
)

__all__ = ["LLVMImportError", "import_module", "convert_type"]


class LLVMImportError(Exception):
    """Something in the LLVM module that the `llvm` dialect here does not model."""


_FLOATS = {ir.HalfType: FloatType("f16"), ir.FloatType: FloatType("f32"),
           ir.DoubleType: FloatType("f64")}


def convert_type(t: ir.Type) -> Type:
    """The `llvm` dialect (or builtin) type of the llvmlite type ``t``."""
    if isinstance(t, ir.IntType):
        return IntegerType(t.width)
    if type(t) in _FLOATS:
        return _FLOATS[type(t)]
    if isinstance(t, ir.PointerType):
        return L.LLVMPointerType(t.addrspace)
    if isinstance(t, ir.VoidType):
        return L.LLVMVoidType()
    if isinstance(t, ir.ArrayType):
        return L.LLVMArrayType(t.count, convert_type(t.element))
    if isinstance(t, ir.LiteralStructType):
        return L.LLVMStructType(tuple(convert_type(e) for e in t.elements), bool(t.packed))
    if isinstance(t, ir.VectorType):
        return VectorType((t.count,), convert_type(t.element))
    if isinstance(t, ir.FunctionType):
        result = None if isinstance(t.return_type, ir.VoidType) else convert_type(t.return_type)
        return function_type(result, [convert_type(a) for a in t.args], t.var_arg)
    raise LLVMImportError(f"the LLVM type {t} has no counterpart in the llvm dialect")


_OVERFLOW_OPS = {"add": L.AddOp, "sub": L.SubOp, "mul": L.MulOp, "shl": L.ShlOp}
_INT_OPS = {"udiv": L.UDivOp, "sdiv": L.SDivOp, "urem": L.URemOp, "srem": L.SRemOp,
            "and": L.AndOp, "or": L.OrOp, "xor": L.XOrOp, "lshr": L.LShrOp, "ashr": L.AShrOp}
_FLOAT_OPS = {"fadd": L.FAddOp, "fsub": L.FSubOp, "fmul": L.FMulOp, "fdiv": L.FDivOp,
              "frem": L.FRemOp}
_CASTS = {"bitcast": L.BitcastOp, "addrspacecast": L.AddrSpaceCastOp,
          "inttoptr": L.IntToPtrOp, "ptrtoint": L.PtrToIntOp, "sext": L.SExtOp,
          "zext": L.ZExtOp, "trunc": L.TruncOp, "sitofp": L.SIToFPOp, "uitofp": L.UIToFPOp,
          "fptosi": L.FPToSIOp, "fptoui": L.FPToUIOp, "fpext": L.FPExtOp,
          "fptrunc": L.FPTruncOp}
#: fcmp predicates whose enum case is not their keyword
_FCMP_NAMES = {"false": "_false", "true": "_true"}
_ORDERINGS = {case.keyword: case for case in L.AtomicOrdering}
_BIN_OPS = {case.keyword: case for case in L.AtomicBinOp}
_STRING_ATTRIBUTE = re.compile(r'"([^"]*)"(?:="([^"]*)")?')


def _fastmath(flags) -> L.LLVMFastmathFlagsAttr | None:
    flags = set(flags)
    if "fast" in flags:
        flags = set(FASTMATH_FLAGS)
    unknown = flags - set(FASTMATH_FLAGS)
    if unknown:
        raise LLVMImportError(f"unknown fast-math flags {sorted(unknown)}")
    kept = tuple(f for f in FASTMATH_FLAGS if f in flags)
    return L.LLVMFastmathFlagsAttr(kept) if kept else None


class _FunctionImporter:
    """Converts the body of one llvmlite function into the region of an ``llvm.func``."""

    def __init__(self, module: _ModuleImporter, function: ir.Function, op: Operation) -> None:
        self.module = module
        self.function = function
        self.region = op.regions[0]
        self.values: dict[int, Value] = {}
        self.blocks: dict[int, Block] = {}
        self.constants: dict[tuple, Value] = {}
        self.location = op.location
        self.entry: Block | None = None

    # -- values

    def value(self, v) -> Value:
        """The converted value of the llvmlite operand ``v`` (constants made on first use)."""
        found = self.values.get(id(v))
        if found is not None:
            return found
        if isinstance(v, (ir.Constant, ir.GlobalValue)):
            return self._constant(v)
        raise LLVMImportError(f"the value {v!r} is used before it is defined")

    def _constant(self, v) -> Value:
        key = self._constant_key(v)
        found = self.constants.get(key)
        if found is None:
            op = self._constant_op(v)
            anchor = self._first_non_constant()
            if anchor is None:
                self.entry.append(op)
            else:
                self.entry.insert_before(anchor, op)
            found = self.constants[key] = op.results[0]
        return found

    @staticmethod
    def _constant_key(v) -> tuple:
        if isinstance(v, ir.GlobalValue):
            return ("addressof", v.name, str(v.type))
        constant = v.constant
        if isinstance(constant, (list, tuple)):
            constant = tuple(_scalar_key(_element(c)) for c in constant)
        elif isinstance(constant, numbers.Real):
            constant = _scalar_key(constant)
        elif isinstance(constant, bytearray):
            constant = bytes(constant)
        elif constant is ir.Undefined:
            constant = "undef"
        return (str(v.type), type(v).__name__, constant)

    def _first_non_constant(self) -> Operation | None:
        for op in self.entry:
            if not op.name.startswith("llvm.mlir."):
                return op
        return None

    def _constant_op(self, v) -> Operation:
        if isinstance(v, ir.GlobalValue):
            return L.AddressOfOp.build(convert_type(v.type), v.name, location=self.location)
        if isinstance(v, ir.FormattedConstant) or not isinstance(v, ir.Constant):
            raise LLVMImportError(f"the constant expression {v} is not modelled")
        t = convert_type(v.type)
        constant = v.constant
        if constant is ir.Undefined:
            return L.UndefOp.build(t, location=self.location)
        if constant is None:
            return L.ZeroOp.build(t, location=self.location)
        if isinstance(v.type, ir.VectorType):
            elements = [_element(c) for c in constant]
            attr = DenseElementsAttr(t, elements)
        elif isinstance(t, IntegerType):
            attr = IntegerAttr(_signed(int(constant), t.width), t)
        elif isinstance(t, FloatType):
            attr = FloatAttr(float(constant), t)
        else:
            raise LLVMImportError(f"the aggregate constant {v} is not modelled")
        return L.ConstantOp.build(t, attr, location=self.location)

    # -- blocks and instructions

    def run(self) -> None:
        order = _reverse_post_order(self.function)
        for llvm_block in self.function.blocks:
            block = self.region.add_block(Block())
            self.blocks[id(llvm_block)] = block
            for instr in llvm_block.instructions:
                if isinstance(instr, ir.PhiInstr):
                    self.values[id(instr)] = block.add_argument(convert_type(instr.type),
                                                                self.location)
        self.entry = self.region.blocks[0]
        for arg, value in zip(self.function.args, self.entry_arguments()):
            self.values[id(arg)] = value
        reached = {id(b) for b in order}
        for llvm_block in order + [b for b in self.function.blocks if id(b) not in reached]:
            block = self.blocks[id(llvm_block)]
            for instr in llvm_block.instructions:
                if isinstance(instr, ir.PhiInstr):
                    continue
                op = self.instruction(instr)
                if op is None:
                    continue
                block.append(op)
                if op.results:
                    self.values[id(instr)] = op.results[0]

    def entry_arguments(self) -> list[Value]:
        """The function's arguments as the entry block's first arguments."""
        entry = self.entry
        if any(isinstance(i, ir.PhiInstr) for i in self.function.blocks[0].instructions):
            raise LLVMImportError("the entry block of a function has phi nodes")
        return [entry.add_argument(convert_type(a.type), self.location)
                for a in self.function.args]

    def successor_operands(self, source: ir.Block, target: ir.Block) -> list[Value]:
        operands = []
        for instr in target.instructions:
            if not isinstance(instr, ir.PhiInstr):
                break
            incoming = [value for value, block in instr.incomings if block is source]
            if not incoming:
                raise LLVMImportError(f"phi {instr.name} in block {target.name} has no value "
                                      f"for its predecessor {source.name}")
            operands.append(self.value(incoming[0]))
        return operands

    def instruction(self, instr: ir.Instruction) -> Operation | None:
        """The op of one instruction (None for a comment)."""
        if getattr(instr, "metadata", None):
            raise LLVMImportError(f"metadata on '{instr.opname}' is not modelled")
        handler = _HANDLERS.get(type(instr))
        if handler is None:
            handler = _by_opname(instr)
        return handler(self, instr)

    @staticmethod
    def result_type(instr) -> Type:
        """The type of what ``instr`` computes."""
        return convert_type(instr.type)


def _element(constant):
    """The number of one element of a vector constant (None, LLVM's zero, is 0)."""
    value = getattr(constant, "constant", constant)
    if value is None:
        return 0
    if not isinstance(value, numbers.Real):
        raise LLVMImportError(f"the vector element {constant} is not modelled")
    return value


def _scalar_key(value):
    """A key of a numeric constant that tells -0.0 from 0.0 (numpy scalars included)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    return ("float", float(value).hex())


def _signed(value: int, width: int) -> int:
    """``value`` as a two's complement integer of ``width`` bits (i1: 0 or 1)."""
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _by_opname(instr):
    name = instr.opname
    if name in _OVERFLOW_OPS:
        return _overflow_op
    if name in _INT_OPS:
        return _int_op
    if name in _FLOAT_OPS:
        return _float_op
    if name == "fneg":
        return _fneg
    raise LLVMImportError(f"the LLVM instruction '{name}' is not modelled")


def _overflow_op(fi: _FunctionImporter, instr) -> Operation:
    flags = tuple(f for f in OVERFLOW_FLAGS if f in instr.flags)
    if set(instr.flags) - set(flags):
        raise LLVMImportError(f"unknown flags {list(instr.flags)} on '{instr.opname}'")
    lhs, rhs = (fi.value(v) for v in instr.operands)
    overflow = L.LLVMIntegerOverflowFlagsAttr(flags) if flags else None
    return _OVERFLOW_OPS[instr.opname].build(lhs, rhs, fi.result_type(instr), overflow,
                                             location=fi.location)


def _int_op(fi, instr) -> Operation:
    if instr.flags:
        raise LLVMImportError(f"flags {list(instr.flags)} on '{instr.opname}' are not modelled")
    lhs, rhs = (fi.value(v) for v in instr.operands)
    return _INT_OPS[instr.opname].build(lhs, rhs, fi.result_type(instr), location=fi.location)


def _float_op(fi, instr) -> Operation:
    lhs, rhs = (fi.value(v) for v in instr.operands)
    return _FLOAT_OPS[instr.opname].build(lhs, rhs, fi.result_type(instr),
                                         _fastmath(instr.flags), location=fi.location)


def _fneg(fi, instr) -> Operation:
    return L.FNegOp.build(fi.value(instr.operands[0]), fi.result_type(instr),
                          _fastmath(instr.flags), location=fi.location)


def _icmp(fi, instr) -> Operation:
    if instr.op not in L.ICmpPredicate.__members__:
        raise LLVMImportError(f"unknown icmp predicate '{instr.op}'")
    lhs, rhs = (fi.value(v) for v in instr.operands)
    return L.ICmpOp.build(fi.result_type(instr), lhs, rhs, L.ICmpPredicate[instr.op],
                          location=fi.location)


def _fcmp(fi, instr) -> Operation:
    predicate = _FCMP_NAMES.get(instr.op, instr.op)
    if predicate not in L.FCmpPredicate.__members__:
        raise LLVMImportError(f"unknown fcmp predicate '{instr.op}'")
    lhs, rhs = (fi.value(v) for v in instr.operands)
    return L.FCmpOp.build(fi.result_type(instr), lhs, rhs, L.FCmpPredicate[predicate],
                          _fastmath(instr.flags), location=fi.location)


def _select(fi, instr) -> Operation:
    condition, lhs, rhs = (fi.value(v) for v in instr.operands)
    return L.SelectOp.build(condition, lhs, rhs, fi.result_type(instr),
                            _fastmath(instr.flags), location=fi.location)


def _cast(fi, instr) -> Operation:
    cls = _CASTS.get(instr.opname)
    if cls is None:
        raise LLVMImportError(f"the cast '{instr.opname}' is not modelled")
    return cls.build(fi.result_type(instr), fi.value(instr.operands[0]), location=fi.location)


def _alignment(instr) -> IntegerAttr | None:
    return None if instr.align is None else IntegerAttr(instr.align, i64)


def _load(fi, instr) -> Operation:
    return L.LoadOp.build(fi.result_type(instr), fi.value(instr.operands[0]),
                          alignment=_alignment(instr), location=fi.location)


def _store(fi, instr) -> Operation:
    value, pointer = (fi.value(v) for v in instr.operands)
    return L.StoreOp.build(value, pointer, alignment=_alignment(instr), location=fi.location)


def _alloca(fi, instr) -> Operation:
    count = instr.operands[0] if instr.operands else ir.Constant(ir.IntType(32), 1)
    return L.AllocaOp.build(fi.result_type(instr), fi.value(count),
                            convert_type(instr.allocated_type),
                            alignment=_alignment(instr), location=fi.location)


def _gep(fi, instr) -> Operation:
    raw, dynamic = [], []
    for index in instr.indices:
        if isinstance(index, ir.Constant) and isinstance(index.type, ir.IntType) \
                and isinstance(index.constant, int) and index.type.width == 32:
            raw.append(index.constant)
        else:
            raw.append(GEP_DYNAMIC_INDEX)
            dynamic.append(fi.value(index))
    return L.GEPOp.build(fi.result_type(instr), fi.value(instr.pointer), raw,
                         convert_type(instr.source_etype), dynamic,
                         inbounds=True if instr.inbounds else None, location=fi.location)


def _extract_value(fi, instr) -> Operation:
    return L.ExtractValueOp.build(fi.result_type(instr), fi.value(instr.aggregate),
                                  tuple(instr.indices), location=fi.location)


def _insert_value(fi, instr) -> Operation:
    container, value = (fi.value(v) for v in instr.operands)
    return L.InsertValueOp.build(container, value, tuple(instr.indices),
                                 fi.result_type(instr), location=fi.location)


def _extract_element(fi, instr) -> Operation:
    vector, index = (fi.value(v) for v in instr.operands)
    return L.ExtractElementOp.build(vector, index, fi.result_type(instr), location=fi.location)


def _insert_element(fi, instr) -> Operation:
    vector, value, index = (fi.value(v) for v in instr.operands)
    return L.InsertElementOp.build(vector, value, index, fi.result_type(instr),
                                   location=fi.location)


def _atomic_rmw(fi, instr) -> Operation:
    pointer, value = (fi.value(v) for v in instr.operands)
    return L.AtomicRMWOp.build(pointer, value, _BIN_OPS[instr.operation],
                               _ORDERINGS[instr.ordering], fi.result_type(instr),
                               location=fi.location)


def _cmpxchg(fi, instr) -> Operation:
    pointer, compare, value = (fi.value(v) for v in instr.operands)
    return L.AtomicCmpXchgOp.build(pointer, compare, value, _ORDERINGS[instr.ordering],
                                   _ORDERINGS[instr.failordering], fi.result_type(instr),
                                   location=fi.location)


def _call(fi, instr) -> Operation:
    if instr.tail or instr.attributes or instr.arg_attributes or \
            (instr.cconv and instr.cconv != "ccc"):
        raise LLVMImportError(f"call attributes of '{instr}' are not modelled")
    args = [fi.value(a) for a in instr.args]
    result = None if isinstance(instr.type, ir.VoidType) else fi.result_type(instr)
    callee = instr.callee
    if isinstance(callee, ir.InlineAsm):
        return L.InlineAsmOp.build(callee.asm, callee.constraint, result, args,
                                   True if callee.side_effect else None,
                                   asm_dialect=L.AsmDialect.AD_ATT, location=fi.location)
    if not isinstance(callee, ir.Function):
        raise LLVMImportError(f"the indirect call '{instr}' is not modelled")
    if callee.name.startswith("llvm."):
        return L.CallIntrinsicOp.build(callee.name, result, args, _fastmath(instr.fastmath),
                                       location=fi.location)
    fi.module.called.add(callee.name)
    return L.CallOp.build(callee.name, result, args, _fastmath(instr.fastmath),
                          location=fi.location)


def _branch(fi, instr) -> Operation:
    source = instr.parent
    target = instr.operands[0]
    return L.BrOp.build(fi.blocks[id(target)], fi.successor_operands(source, target),
                        location=fi.location)


def _cond_branch(fi, instr) -> Operation:
    source = instr.parent
    condition, true_target, false_target = instr.operands
    return L.CondBrOp.build(fi.value(condition), fi.blocks[id(true_target)],
                            fi.blocks[id(false_target)],
                            fi.successor_operands(source, true_target),
                            fi.successor_operands(source, false_target), location=fi.location)


def _ret(fi, instr) -> Operation:
    value = instr.return_value
    return L.ReturnOp.build(None if value is None else fi.value(value), location=fi.location)


def _unreachable(fi, instr) -> Operation:
    return L.UnreachableOp.build(location=fi.location)


def _comment(fi, instr) -> None:
    return None


_HANDLERS = {
    ir.ICMPInstr: _icmp, ir.FCMPInstr: _fcmp, ir.SelectInstr: _select, ir.CastInstr: _cast,
    ir.LoadInstr: _load, ir.StoreInstr: _store, ir.AllocaInstr: _alloca, ir.GEPInstr: _gep,
    ir.ExtractValue: _extract_value, ir.InsertValue: _insert_value,
    ir.ExtractElement: _extract_element, ir.InsertElement: _insert_element,
    ir.AtomicRMW: _atomic_rmw, ir.CmpXchg: _cmpxchg, ir.CallInstr: _call, ir.Branch: _branch,
    ir.ConditionalBranch: _cond_branch, ir.Ret: _ret, ir.Unreachable: _unreachable,
    ir.Comment: _comment,
}


def _successors(block: ir.Block) -> list[ir.Block]:
    terminator = block.terminator
    if terminator is None:
        return []
    return [op for op in terminator.operands if isinstance(op, ir.Block)]


def _reverse_post_order(function: ir.Function) -> list[ir.Block]:
    seen: set[int] = set()
    order: list[ir.Block] = []
    stack = [(function.blocks[0], iter(_successors(function.blocks[0])))]
    seen.add(id(function.blocks[0]))
    while stack:
        block, successors = stack[-1]
        for successor in successors:
            if id(successor) not in seen:
                seen.add(id(successor))
                stack.append((successor, iter(_successors(successor))))
                break
        else:
            stack.pop()
            order.append(block)
    return order[::-1]


class _ModuleImporter:
    """Converts the globals and functions of one llvmlite module."""

    def __init__(self, location: Location) -> None:
        self.location = location
        self.called: set[str] = set()

    def global_op(self, variable: ir.GlobalVariable) -> Operation:
        attrs: dict[str, Attribute] = {
            "global_type": TypeAttr(convert_type(variable.value_type)),
            "sym_name": StringAttr(variable.name),
            "linkage": L.LLVMLinkageAttr(variable.linkage or "external"),
            "addr_space": IntegerAttr(variable.addrspace, i32),
        }
        if variable.global_constant:
            attrs["constant"] = UnitAttr()
        if variable.align is not None:
            attrs["alignment"] = IntegerAttr(variable.align, i64)
        initializer = variable.initializer
        if initializer is not None:
            if isinstance(initializer, ir.Constant) and isinstance(initializer.constant,
                                                                   bytearray):
                attrs["value"] = StringAttr(bytes(initializer.constant).decode("latin-1"))
            else:
                raise LLVMImportError(f"the initializer of @{variable.name} is not modelled")
        if variable.unnamed_addr:
            raise LLVMImportError(f"unnamed_addr on @{variable.name} is not modelled")
        return L.GlobalOp.create(L.GlobalOp.OPERATION_NAME, properties=attrs,
                                 location=self.location)

    def function_op(self, function: ir.Function) -> Operation:
        attrs: dict[str, Attribute] = {
            "sym_name": StringAttr(function.name),
            "function_type": TypeAttr(convert_type(function.ftype)),
        }
        if function.linkage and function.linkage != "external":
            attrs["linkage"] = L.LLVMLinkageAttr(function.linkage)
        discardable = _function_attributes(function)
        if any(a.attributes for a in function.args):
            raise LLVMImportError(f"argument attributes of @{function.name} are not modelled")
        op = L.FuncOp.create(L.FuncOp.OPERATION_NAME, properties=attrs, attributes=discardable,
                             regions=[Region()], location=self.location)
        if function.blocks:
            _FunctionImporter(self, function, op).run()
        return op


def _function_attributes(function: ir.Function) -> dict[str, Attribute]:
    attrs: dict[str, Attribute] = {}
    if function.calling_convention == "ptx_kernel":
        attrs["nvvm.kernel"] = IntegerAttr(1, IntegerType(1, "unsigned"))
    elif function.calling_convention:
        raise LLVMImportError(f"the calling convention {function.calling_convention} of "
                              f"@{function.name} is not modelled")
    passthrough: list[Attribute] = []
    for text in sorted(function.attributes):
        match = _STRING_ATTRIBUTE.fullmatch(text)
        key, value = (match.group(1), match.group(2)) if match else (text, None)
        if key == "nvvm.reqntid" and value is not None:
            attrs[key] = DenseArrayAttr(i32, [int(v) for v in value.split(",")])
        elif key == "nvvm.maxnreg" and value is not None:
            attrs[key] = IntegerAttr(int(value), i32)
        elif value is None:
            passthrough.append(StringAttr(key))
        else:
            passthrough.append(ArrayAttr([StringAttr(key), StringAttr(value)]))
    if passthrough:
        attrs["passthrough"] = ArrayAttr(passthrough)
    return attrs


def import_module(module: ir.Module, location: Location | None = None) -> list[Operation]:
    """The ops of ``module``'s globals and functions (intrinsic declarations left out), in the
    module's order, each at ``location``. The triple and data layout are the caller's to keep
    (``llvm.target_triple``, ``llvm.data_layout`` on the enclosing module)."""
    importer = _ModuleImporter(location or UnknownLoc())
    ops = []
    for value in module.global_values:
        if isinstance(value, ir.GlobalVariable):
            ops.append(importer.global_op(value))
        elif isinstance(value, ir.Function) and not value.name.startswith("llvm."):
            ops.append(importer.function_op(value))
    return ops
