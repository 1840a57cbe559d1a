"""Ops of the `llvm` dialect turned into an LLVM module (llvmlite's ``llvmlite.ir``) and its text,
as MLIR's ``mlir-translate --mlir-to-llvmir`` does; the inverse of `llvm_import`.

Constant ops (``llvm.mlir.constant``, ``undef``, ``zero``, ``poison``, ``addressof``) become
llvmlite constants used in place, as LLVM has no instructions for them; block arguments become
phi nodes at the top of their blocks, and each branch adds the incoming values of its edge.
``nvvm.kernel`` becomes the ``ptx_kernel`` calling convention, ``nvvm.reqntid``,
``nvvm.maxnreg`` and ``passthrough`` string attributes of the function, as the CUDA backend
writes them; the module's ``llvm.target_triple`` and ``llvm.data_layout`` its triple and layout.
Ops are converted in reverse post-order of the blocks, so operands exist before their uses.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.dialects.llvm import GEP_DYNAMIC_INDEX
from tilecraft.generated import llvm as L
from tilecraft.ir import (
    ArrayAttr, Block, DenseElementsAttr, FloatType, IntegerType, Operation, StringAttr, Type,
    Value, VectorType,
)

__all__ = ["LLVMExportError", "export_module", "to_llvmlite"]


class LLVMExportError(Exception):
    """An op or type that has no LLVM IR counterpart here."""


_FLOATS = {"f16": ir.HalfType, "f32": ir.FloatType, "f64": ir.DoubleType}


def convert_type(t: Type) -> ir.Type:
    """The llvmlite type of an `llvm` dialect (or builtin) type."""
    if isinstance(t, IntegerType):
        return ir.IntType(t.width)
    if isinstance(t, FloatType) and t.kind in _FLOATS:
        return _FLOATS[t.kind]()
    if isinstance(t, L.LLVMPointerType):
        return ir.PointerType(addrspace=t.address_space)
    if isinstance(t, L.LLVMVoidType):
        return ir.VoidType()
    if isinstance(t, L.LLVMArrayType):
        return ir.ArrayType(convert_type(t.element_type), t.num_elements)
    if isinstance(t, L.LLVMStructType):
        return ir.LiteralStructType([convert_type(m) for m in t.body], packed=t.packed)
    if isinstance(t, VectorType) and len(t.shape) == 1:
        return ir.VectorType(convert_type(t.element_type), t.shape[0])
    if isinstance(t, L.LLVMFunctionType):
        return ir.FunctionType(convert_type(t.return_type),
                               [convert_type(p) for p in t.params], var_arg=t.var_arg)
    raise LLVMExportError(f"the type {t} has no LLVM IR counterpart")


_ICMP = {"eq": ("signed", "=="), "ne": ("signed", "!="), "slt": ("signed", "<"),
         "sle": ("signed", "<="), "sgt": ("signed", ">"), "sge": ("signed", ">="),
         "ult": ("unsigned", "<"), "ule": ("unsigned", "<="), "ugt": ("unsigned", ">"),
         "uge": ("unsigned", ">=")}
_BINARY = {"llvm.add": "add", "llvm.sub": "sub", "llvm.mul": "mul", "llvm.shl": "shl",
           "llvm.udiv": "udiv", "llvm.sdiv": "sdiv", "llvm.urem": "urem", "llvm.srem": "srem",
           "llvm.and": "and_", "llvm.or": "or_", "llvm.xor": "xor", "llvm.lshr": "lshr",
           "llvm.ashr": "ashr", "llvm.fadd": "fadd", "llvm.fsub": "fsub", "llvm.fmul": "fmul",
           "llvm.fdiv": "fdiv", "llvm.frem": "frem"}
_CASTS = {"llvm.bitcast", "llvm.addrspacecast", "llvm.inttoptr", "llvm.ptrtoint",
          "llvm.sext", "llvm.zext", "llvm.trunc", "llvm.sitofp", "llvm.uitofp", "llvm.fptosi",
          "llvm.fptoui", "llvm.fpext", "llvm.fptrunc"}


def _flags(attr) -> tuple[str, ...]:
    return () if attr is None else tuple(attr.flags)


def _reverse_post_order(region) -> list[Block]:
    entry = region.blocks[0]
    seen, order = {id(entry)}, []
    stack = [(entry, iter(entry.successors))]
    while stack:
        block, successors = stack[-1]
        for successor in successors:
            if id(successor) not in seen:
                seen.add(id(successor))
                stack.append((successor, iter(successor.successors)))
                break
        else:
            stack.pop()
            order.append(block)
    order.reverse()
    return order + [b for b in region.blocks if id(b) not in seen]


class _FunctionExporter:
    """Fills one llvmlite function from the blocks of an ``llvm.func``."""

    def __init__(self, exporter: _ModuleExporter, op: Operation, function: ir.Function) -> None:
        self.exporter = exporter
        self.function = function
        self.values: dict[Value, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.builder = ir.IRBuilder()
        self.region = op.regions[0]

    def run(self) -> None:
        for index, block in enumerate(self.region.blocks):
            self.blocks[block] = self.function.append_basic_block(
                "entry" if index == 0 else f"bb{index}")
        entry = self.region.blocks[0]
        for arg, value in zip(entry.arguments, self.function.args):
            self.values[arg] = value
        for block in self.region.blocks[1:]:
            self.builder.position_at_end(self.blocks[block])
            for arg in block.arguments:
                self.values[arg] = self.builder.phi(convert_type(arg.type))
        for block in _reverse_post_order(self.region):
            self.builder.position_at_end(self.blocks[block])
            for op in block:
                self.op(op)

    def value(self, v: Value) -> ir.Value:
        found = self.values.get(v)
        if found is None:
            found = self.values[v] = self.constant(v)
        return found

    def constant(self, v: Value) -> ir.Value:
        """The llvmlite constant of a value defined by a constant op."""
        op = v.defining_op
        t = convert_type(v.type)
        if isinstance(op, L.ConstantOp):
            attr = op.value_attr
            if isinstance(attr, DenseElementsAttr):
                return ir.Constant(t, [ir.Constant(t.element, e) for e in attr.values])
            return ir.Constant(t, attr.value)
        if isinstance(op, L.UndefOp):
            return ir.Constant(t, ir.Undefined)
        if isinstance(op, L.ZeroOp):
            if isinstance(t, ir.IntType):
                return ir.Constant(t, 0)
            if isinstance(t, (ir.HalfType, ir.FloatType, ir.DoubleType)):
                return ir.Constant(t, 0.0)
            return ir.Constant(t, None)
        if isinstance(op, L.AddressOfOp):
            return self.exporter.module.get_global(op.global_name)
        name = "a value" if op is None else f"'{op.name}'"
        raise LLVMExportError(f"{name} is used before it is defined")

    def successor_operands(self, source: ir.Block, target: Block, values) -> None:
        for arg, value in zip(target.arguments, values):
            self.values[arg].add_incoming(self.value(value), source)

    def op(self, op: Operation) -> None:
        name = op.name
        b = self.builder
        result: ir.Value | None = None
        if name in ("llvm.mlir.constant", "llvm.mlir.undef", "llvm.mlir.zero",
                    "llvm.mlir.addressof"):
            return
        if name in _BINARY:
            lhs, rhs = self.value(op.lhs), self.value(op.rhs)
            flags = _flags(op.properties.get("overflowFlags") or
                           op.properties.get("fastmathFlags"))
            result = getattr(b, _BINARY[name])(lhs, rhs, flags=flags)
        elif name in _CASTS:
            result = getattr(b, name[5:])(self.value(op.arg), convert_type(op.res.type))
        elif name == "llvm.fneg":
            result = b.fneg(self.value(op.operand_), flags=_flags(op.fastmath_flags))
        elif name == "llvm.icmp":
            signedness, symbol = _ICMP[op.predicate.keyword]
            compare = b.icmp_signed if signedness == "signed" else b.icmp_unsigned
            result = compare(symbol, self.value(op.lhs), self.value(op.rhs))
        elif name == "llvm.fcmp":
            result = b.fcmp_ordered(op.predicate.keyword, self.value(op.lhs),
                                    self.value(op.rhs), flags=_flags(op.fastmath_flags))
        elif name == "llvm.select":
            result = b.select(self.value(op.condition), self.value(op.true_value),
                              self.value(op.false_value), flags=_flags(op.fastmath_flags))
        elif name == "llvm.load":
            result = b.load(self.value(op.addr), align=op.alignment,
                            typ=convert_type(op.res.type))
        elif name == "llvm.store":
            b.store(self.value(op.value), self.value(op.addr), align=op.alignment)
        elif name == "llvm.alloca":
            result = b.alloca(convert_type(op.elem_type), size=self.value(op.array_size))
            result.align = op.alignment
        elif name == "llvm.getelementptr":
            dynamic = iter(op.dynamic_indices)
            indices = [self.value(next(dynamic)) if raw == GEP_DYNAMIC_INDEX
                       else ir.Constant(ir.IntType(32), raw)
                       for raw in op.raw_constant_indices]
            result = b.gep(self.value(op.base), indices, inbounds=op.inbounds,
                           source_etype=convert_type(op.elem_type))
        elif name == "llvm.extractvalue":
            result = b.extract_value(self.value(op.container), list(op.position))
        elif name == "llvm.insertvalue":
            result = b.insert_value(self.value(op.container), self.value(op.value),
                                    list(op.position))
        elif name == "llvm.extractelement":
            result = b.extract_element(self.value(op.vector), self.value(op.position))
        elif name == "llvm.insertelement":
            result = b.insert_element(self.value(op.vector), self.value(op.value),
                                      self.value(op.position))
        elif name == "llvm.atomicrmw":
            result = b.atomic_rmw(op.bin_op.keyword, self.value(op.ptr), self.value(op.val),
                                  op.ordering.keyword)
        elif name == "llvm.cmpxchg":
            result = b.cmpxchg(self.value(op.ptr), self.value(op.cmp), self.value(op.val),
                               op.success_ordering.keyword, op.failure_ordering.keyword)
        elif name == "llvm.inline_asm":
            ftype = ir.FunctionType(self._result_type(op),
                                    [convert_type(v.type) for v in op.operands])
            result = b.asm(ftype, op.asm_string, op.constraints,
                           [self.value(v) for v in op.operands], op.has_side_effects)
        elif name == "llvm.call_intrinsic":
            args = [self.value(v) for v in op.args]
            callee = self.exporter.intrinsic(op.intrin, self._result_type(op),
                                             [a.type for a in args])
            result = b.call(callee, args, fastmath=_flags(op.fastmath_flags))
        elif name == "llvm.intr.assume":
            callee = self.exporter.intrinsic("llvm.assume", ir.VoidType(), [ir.IntType(1)])
            b.call(callee, [self.value(op.cond)])
        elif name == "llvm.call":
            callee = self.exporter.module.get_global(op.callee)
            result = b.call(callee, [self.value(v) for v in op.callee_operands],
                            fastmath=_flags(op.fastmath_flags))
        elif name == "llvm.br":
            source = b.block
            b.branch(self.blocks[op.dest])
            self.successor_operands(source, op.dest, op.dest_operands)
        elif name == "llvm.cond_br":
            source = b.block
            b.cbranch(self.value(op.condition), self.blocks[op.true_dest],
                      self.blocks[op.false_dest])
            self.successor_operands(source, op.true_dest, op.true_dest_operands)
            self.successor_operands(source, op.false_dest, op.false_dest_operands)
        elif name == "llvm.return":
            if op.arg is None:
                b.ret_void()
            else:
                b.ret(self.value(op.arg))
        elif name == "llvm.unreachable":
            b.unreachable()
        else:
            raise LLVMExportError(f"'{name}' has no LLVM IR counterpart here")
        if op.results and result is not None:
            self.values[op.results[0]] = result

    @staticmethod
    def _result_type(op: Operation) -> ir.Type:
        return convert_type(op.results[0].type) if op.results else ir.VoidType()


class _ModuleExporter:
    """Declares the globals and functions of one module and fills the functions."""

    def __init__(self, name: str) -> None:
        self.module = ir.Module(name=name)

    def intrinsic(self, name: str, result: ir.Type, params: list[ir.Type]) -> ir.Function:
        """The declaration of the intrinsic ``name`` with this signature (made once)."""
        try:
            return self.module.get_global(name)
        except KeyError:
            return ir.Function(self.module, ir.FunctionType(result, params), name)

    def global_variable(self, op: Operation) -> None:
        t = convert_type(op.global_type)
        variable = ir.GlobalVariable(self.module, t, op.sym_name, addrspace=op.addr_space)
        variable.linkage = "" if op.linkage.linkage == "external" and op.value_attr is not None \
            else op.linkage.linkage
        variable.global_constant = op.constant
        variable.align = op.alignment
        # llvmlite types globals with typed pointers; the dialect's pointers are opaque
        variable.type = ir.PointerType(addrspace=op.addr_space)
        value = op.value_attr
        if isinstance(value, StringAttr):
            variable.initializer = ir.Constant(t, bytearray(value.value.encode("latin-1")))
        elif value is not None:
            raise LLVMExportError(f"the initializer of @{op.sym_name} is not modelled")

    def function(self, op: Operation) -> ir.Function:
        ftype = op.function_type
        function = ir.Function(self.module, convert_type(ftype), op.sym_name)
        if op.linkage is not None:
            function.linkage = op.linkage.linkage
        attributes = op.attributes
        if "nvvm.kernel" in attributes:
            function.calling_convention = "ptx_kernel"
        # string attributes are not among llvmlite's known ones: add to the underlying set
        reqntid = attributes.get("nvvm.reqntid")
        if reqntid is not None:
            set.add(function.attributes,
                    f'"nvvm.reqntid"="{",".join(map(str, reqntid.values))}"')
        maxnreg = attributes.get("nvvm.maxnreg")
        if maxnreg is not None:
            set.add(function.attributes, f'"nvvm.maxnreg"="{maxnreg.value}"')
        for entry in attributes.get("passthrough", ()):
            if isinstance(entry, ArrayAttr):
                key, value = (item.value for item in entry)
                set.add(function.attributes, f'"{key}"="{value}"')
            else:
                set.add(function.attributes, entry.value)
        return function


def to_llvmlite(module_op: Operation) -> ir.Module:
    """The llvmlite module of the `llvm` ops in ``module_op`` (a ``builtin.module``)."""
    ops = list(module_op.regions[0].blocks[0])
    kernels = [op for op in ops if isinstance(op, L.FuncOp) and op.body.blocks]
    exporter = _ModuleExporter(kernels[0].sym_name if kernels else "module")
    module = exporter.module
    triple = module_op.attributes.get("llvm.target_triple")
    if triple is not None:
        module.triple = triple.value
    layout = module_op.attributes.get("llvm.data_layout")
    if layout is not None:
        module.data_layout = layout.value
    functions = []
    for op in ops:
        if isinstance(op, L.GlobalOp):
            exporter.global_variable(op)
        elif isinstance(op, L.FuncOp):
            functions.append((op, exporter.function(op)))
        else:
            raise LLVMExportError(f"'{op.name}' has no LLVM IR counterpart at module level")
    for op, function in functions:
        if op.body.blocks:
            _FunctionExporter(exporter, op, function).run()
    return module


def export_module(module_op: Operation) -> str:
    """The LLVM IR text of the `llvm` ops in ``module_op``."""
    return str(to_llvmlite(module_op))
