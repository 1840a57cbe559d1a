"""``convert-arith-to-llvm`` and ``convert-index-to-llvm``: MLIR's ArithToLLVM and IndexToLLVM.

``convert-arith-to-llvm`` replaces each `arith` op whose operands and results are scalars or
vectors (not tensors) by the llvm op of the same meaning:

- ``arith.constant`` → ``llvm.mlir.constant``; ``addi``/``subi``/``muli``/``shli`` → ``llvm.add``
  ... (without overflow flags, as arith has none here), the divisions, remainders, bitwise ops
  and shifts → ``llvm.sdiv``, ``llvm.urem``, ``llvm.and``, ``llvm.ashr``, ...; float arithmetic
  → ``llvm.fadd`` ...; ``negf`` → ``llvm.fneg``;
- ``maxsi``/``minsi``/``maxui``/``minui``/``maximumf``/``minimumf``/``maxnumf``/``minnumf`` →
  the intrinsics ``llvm.smax``, ``llvm.umin``, ``llvm.maximum``, ``llvm.maxnum`` ... (as
  ``llvm.call_intrinsic`` with the overloaded name, ``llvm.smax.i32``);
- ``cmpi``/``cmpf`` → ``llvm.icmp``/``llvm.fcmp`` with the same predicate, ``select`` →
  ``llvm.select``; the casts → ``llvm.sext``, ``zext``, ``trunc``, ``fpext``, ``fptrunc``,
  ``sitofp``, ``uitofp``, ``fptosi``, ``fptoui``, ``bitcast``; ``index_cast`` → ``sext`` or
  ``trunc`` (or nothing) between the index width and the integer's.

An ``index`` is an integer of ``index-bitwidth`` bits (0: 64, the default data layout's). Where
a converted op meets a value that stays ``index`` (a block argument, an unconverted op), a
``builtin.unrealized_conversion_cast`` joins them, as MLIR's conversion framework does; casts
left without uses are erased. ``arith.ceildivsi`` and ``floordivsi`` stay (MLIR expands them
first, with ``arith-expand``), as do ops on tensors.

tilecraft has no ``index`` dialect, so ``convert-index-to-llvm`` (which lowers that dialect's
ops) finds nothing to convert; it checks its option as the other does.
"""

from __future__ import annotations

from tilecraft.generated import arith as A
from tilecraft.generated import llvm as L
from tilecraft.generated.builtin import UnrealizedConversionCastOp
from tilecraft.generated.passes import ConvertArithToLLVMPassBase, ConvertIndexToLLVMPassBase
from tilecraft.ir import (
    FloatType, IntegerAttr, IntegerType, Operation, Type, Value, VectorType,
)

__all__ = ["ConvertArithToLLVM", "ConvertIndexToLLVM", "index_bitwidth"]

_BINARY = {
    A.AddIOp: L.AddOp, A.SubIOp: L.SubOp, A.MulIOp: L.MulOp, A.DivSIOp: L.SDivOp,
    A.DivUIOp: L.UDivOp, A.RemSIOp: L.SRemOp, A.RemUIOp: L.URemOp, A.AndIOp: L.AndOp,
    A.OrIOp: L.OrOp, A.XOrIOp: L.XOrOp, A.ShLIOp: L.ShlOp, A.ShRSIOp: L.AShrOp,
    A.ShRUIOp: L.LShrOp, A.AddFOp: L.FAddOp, A.SubFOp: L.FSubOp, A.MulFOp: L.FMulOp,
    A.DivFOp: L.FDivOp, A.RemFOp: L.FRemOp,
}
_INTRINSICS = {
    A.MaxSIOp: "llvm.smax", A.MinSIOp: "llvm.smin", A.MaxUIOp: "llvm.umax",
    A.MinUIOp: "llvm.umin", A.MaximumFOp: "llvm.maximum", A.MinimumFOp: "llvm.minimum",
    A.MaxNumFOp: "llvm.maxnum", A.MinNumFOp: "llvm.minnum",
}
_CASTS = {
    A.ExtSIOp: L.SExtOp, A.ExtUIOp: L.ZExtOp, A.TruncIOp: L.TruncOp, A.ExtFOp: L.FPExtOp,
    A.TruncFOp: L.FPTruncOp, A.SIToFPOp: L.SIToFPOp, A.UIToFPOp: L.UIToFPOp,
    A.FPToSIOp: L.FPToSIOp, A.FPToUIOp: L.FPToUIOp, A.BitcastOp: L.BitcastOp,
}


def index_bitwidth(pass_, op: Operation) -> int:
    """The ``index-bitwidth`` option's width (0: 64), or an error at ``op`` for a bad one."""
    width = pass_.index_bitwidth
    if width < 0:
        raise op.emit_error(f"{pass_.ARGUMENT}: index-bitwidth must be 0 (from the data "
                            f"layout) or a positive width, got {width}")
    return width or 64


def _is_scalar(t: Type) -> bool:
    element = t.element_type if isinstance(t, VectorType) else t
    return isinstance(element, (IntegerType, FloatType)) or element.is_index()


def _intrinsic_suffix(t: Type) -> str:
    """LLVM's overload suffix of a type: ``i32``, ``f32``, ``v4f16``."""
    if isinstance(t, VectorType):
        return f"v{t.num_elements}{_intrinsic_suffix(t.element_type)}"
    if isinstance(t, IntegerType):
        return f"i{t.width}"
    return t.kind


class _Converter:
    """Replaces arith ops one by one, joining index values with unrealized casts."""

    def __init__(self, width: int) -> None:
        self.index = IntegerType(width)

    def convert_type(self, t: Type) -> Type:
        if t.is_index():
            return self.index
        if isinstance(t, VectorType) and t.element_type.is_index():
            return VectorType(t.shape, self.index)
        return t

    def operand(self, op: Operation, value: Value) -> Value:
        """``value`` in its converted type, cast before ``op`` when it is an index."""
        target = self.convert_type(value.type)
        if target is value.type:
            return value
        source = value.defining_op
        if isinstance(source, UnrealizedConversionCastOp) and len(source.operands) == 1 \
                and source.operands[0].type is target:
            return source.operands[0]
        cast = UnrealizedConversionCastOp.build([target], [value], location=op.location)
        op.parent.insert_before(op, cast)
        return cast.results[0]

    def replace(self, op: Operation, new: Operation | None, value: Value | None = None) -> None:
        """Put ``new`` (or, without it, ``value``) in place of ``op``'s one result."""
        if new is not None:
            op.parent.insert_before(op, new)
            value = new.results[0]
        old = op.results[0]
        if value.type is not old.type:
            cast = UnrealizedConversionCastOp.build([old.type], [value], location=op.location)
            op.parent.insert_before(op, cast)
            value = cast.results[0]
        old.replace_all_uses_with(value)
        op.erase()

    def convert(self, op: Operation) -> None:
        cls = type(op)
        loc = op.location
        operands = [self.operand(op, v) for v in op.operands]
        result = self.convert_type(op.results[0].type)
        if cls is A.ConstantOp:
            value = op.value_attr
            if isinstance(value, IntegerAttr) and value.type.is_index():
                value = IntegerAttr(value.value, self.index)
            self.replace(op, L.ConstantOp.build(result, value, location=loc))
        elif cls in _BINARY:
            self.replace(op, _BINARY[cls].build(*operands, result, location=loc))
        elif cls in _INTRINSICS:
            name = f"{_INTRINSICS[cls]}.{_intrinsic_suffix(result)}"
            self.replace(op, L.CallIntrinsicOp.build(name, result, operands, location=loc))
        elif cls is A.NegFOp:
            self.replace(op, L.FNegOp.build(operands[0], result, location=loc))
        elif cls is A.CmpIOp:
            predicate = L.ICmpPredicate[op.predicate.keyword]
            self.replace(op, L.ICmpOp.build(result, *operands, predicate, location=loc))
        elif cls is A.CmpFOp:
            predicate = L.FCmpPredicate(op.predicate.value)
            self.replace(op, L.FCmpOp.build(result, *operands, predicate, location=loc))
        elif cls is A.SelectOp:
            self.replace(op, L.SelectOp.build(*operands, result, location=loc))
        elif cls in _CASTS:
            self.replace(op, _CASTS[cls].build(result, operands[0], location=loc))
        elif cls is A.IndexCastOp:
            source = operands[0]
            source_width = (source.type.element_type if isinstance(source.type, VectorType)
                            else source.type).width
            target_width = (result.element_type if isinstance(result, VectorType)
                            else result).width
            if source_width == target_width:
                self.replace(op, None, source)
            else:
                cast = L.SExtOp if source_width < target_width else L.TruncOp
                self.replace(op, cast.build(result, source, location=loc))

    def convertible(self, op: Operation) -> bool:
        cls = type(op)
        if cls not in _BINARY and cls not in _INTRINSICS and cls not in _CASTS and cls not in (
                A.ConstantOp, A.NegFOp, A.CmpIOp, A.CmpFOp, A.SelectOp, A.IndexCastOp):
            return False
        return all(_is_scalar(v.type) for v in (*op.operands, *op.results))


class ConvertArithToLLVM(ConvertArithToLLVMPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        converter = _Converter(index_bitwidth(self, op))
        for candidate in [o for o in op.walk() if o.name.startswith("arith.")]:
            if converter.convertible(candidate):
                converter.convert(candidate)
        for cast in [o for o in op.walk() if isinstance(o, UnrealizedConversionCastOp)]:
            if not any(r.uses for r in cast.results):
                cast.erase()


class ConvertIndexToLLVM(ConvertIndexToLLVMPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        index_bitwidth(self, op)
