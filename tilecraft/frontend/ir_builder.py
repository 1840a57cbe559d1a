"""The IR builder: the builder interface of `tilecraft.language.builder` emitting `tt`, `arith`,
`math` ops through the generated op builders, each at the current source location."""

from __future__ import annotations

import importlib
from contextlib import contextmanager

from tilecraft.frontend.errors import UnsupportedOpError
from tilecraft.generated import arith, tt
from tilecraft.generated.language import OPS, LanguageOp
from tilecraft.ir import (
    Block, DenseElementsAttr, FloatAttr, IntegerAttr, Operation, RankedTensorType, UnknownLoc,
    i32,
)
from tilecraft.language.builder import Builder

# ttg.barrier's address spaces: local, global_read, global_write, tensor_read, tensor_write
BARRIER_ALL = 0b11111

def language_op(kind: str, name: str) -> LanguageOp:
    """What the language's `kind` ("binary", "unary", "cast") op `name` builds, as `.td`
    declares it (`languageName`, `languageKind`: generated/language.py); an
    `UnsupportedOpError` naming the op and what to declare when there is none."""
    entry = OPS.get(name)
    if entry is None:
        raise UnsupportedOpError(
            f"the frontend has no {kind} op '{name}' (declare languageName = \"{name}\" and "
            f"languageKind = \"{kind}\" on its op in defs/)")
    if entry.kind != kind:
        raise UnsupportedOpError(
            f"the language builds '{entry.op}' as a {kind} op, but {entry.td_file} declares "
            f"languageKind = \"{entry.kind}\"")
    return entry


def language_op_name(kind: str, name: str) -> str | None:
    """The IR name (`math.atan2`) of the language's `kind` op `name`, None if unknown."""
    entry = OPS.get(name)
    return entry.op if entry is not None and entry.kind == kind else None


def _op_class(entry: LanguageOp) -> type:
    """The generated class of ``entry``'s op."""
    return getattr(importlib.import_module(f"tilecraft.generated.{entry.dialect}"),
                   entry.class_name)


_CACHE = {c.keyword: c for c in tt.CacheModifier}
_EVICT = {c.keyword: c for c in tt.EvictionPolicy}
_SEM = {c.keyword: c for c in tt.MemSemantic}
_SCOPE = {c.keyword: c for c in tt.MemSyncScope}
_RMW = {c.keyword: c for c in tt.RMWOp}
_PRECISION = {c.keyword: c for c in tt.InputPrecision}
_PADDING = {c.keyword: c for c in tt.PaddingOption}
_CMPF = {c.keyword: c for c in arith.CmpFPredicate}


def _width(ir_type) -> int:
    element = ir_type.element_type if isinstance(ir_type, RankedTensorType) else ir_type
    return element.width


class IRBuilder(Builder):
    """Emits ops at an insertion point (the end of ``block``, or before ``anchor``)."""

    def __init__(self) -> None:
        self.block: Block | None = None
        self.anchor: Operation | None = None
        self.loc = UnknownLoc()
        self.dropped: list[str] = []

    # -- insertion
    def insert(self, op: Operation) -> Operation:
        if self.anchor is not None:
            self.block.insert_before(self.anchor, op)
        else:
            self.block.append(op)
        return op

    @contextmanager
    def at_end(self, block: Block):
        saved = self.block, self.anchor
        self.block, self.anchor = block, None
        try:
            yield block
        finally:
            self.block, self.anchor = saved

    def _op(self, cls, *args, **kwargs):
        return self.insert(cls.build(*args, location=self.loc, **kwargs))

    def _value(self, cls, *args, **kwargs):
        return self._op(cls, *args, **kwargs).results[0]

    # -- values
    def _attr(self, value, element):
        if element.is_float():
            return FloatAttr(float(value), element)
        return IntegerAttr(int(value), element)

    def constant(self, value, ty):
        ir_type = ty.to_ir()
        if isinstance(ir_type, RankedTensorType):
            element = ir_type.element_type
            value = float(value) if element.is_float() else int(value)
            attr = DenseElementsAttr(ir_type, value)
        else:
            attr = self._attr(value, ir_type)
        return self._value(arith.ConstantOp, value=attr)

    def make_range(self, start, end, ty):
        return self._value(tt.MakeRangeOp, result_type=ty.to_ir(), start=start, end=end)

    def program_id(self, axis):
        return self._value(tt.GetProgramIdOp, axis=tt.ProgramIDDim(axis))

    def num_programs(self, axis):
        return self._value(tt.GetNumProgramsOp, axis=tt.ProgramIDDim(axis))

    # -- shapes
    @staticmethod
    def _constant_value(x):
        """The scalar of a constant (or of a splat constant), else None."""
        op = x.defining_op if hasattr(x, "defining_op") else None
        if not isinstance(op, arith.ConstantOp):
            return None
        attr = op.value
        if isinstance(attr, DenseElementsAttr):
            return attr.splat_value if attr.is_splat else None
        return getattr(attr, "value", None)

    def splat(self, x, ty):
        value = self._constant_value(x)
        if value is not None:
            return self.constant(value, ty)
        return self._value(tt.SplatOp, result_type=ty.to_ir(), src=x)

    def broadcast(self, x, ty):
        value = self._constant_value(x)
        if value is not None:
            return self.constant(value, ty)
        return self._value(tt.BroadcastOp, result_type=ty.to_ir(), src=x)

    def expand_dims(self, x, axis, ty):
        return self._value(tt.ExpandDimsOp, result_type=ty.to_ir(), src=x, axis=axis)

    def reshape(self, x, ty, can_reorder):
        return self._value(tt.ReshapeOp, result_type=ty.to_ir(), src=x,
                           allow_reorder=True if can_reorder else None)

    def trans(self, x, order, ty):
        return self._value(tt.TransOp, result_type=ty.to_ir(), src=x, order=tuple(order))

    def cat(self, a, b, ty):
        return self._value(tt.CatOp, result_type=ty.to_ir(), lhs=a, rhs=b)

    def join(self, a, b, ty):
        return self._value(tt.JoinOp, result_type=ty.to_ir(), lhs=a, rhs=b)

    def split(self, x, ty):
        op = self._op(tt.SplitOp, out_lhs_type=ty.to_ir(), out_rhs_type=ty.to_ir(), src=x)
        return op.results[0], op.results[1]

    # -- element-wise
    def binary(self, op, a, b, ty):
        return self._language_value(language_op("binary", op), (a, b), ty)

    def unary(self, op, x, ty):
        return self._language_value(language_op("unary", op), (x,), ty)

    def _language_value(self, entry: LanguageOp, operands: tuple, ty):
        """The result of ``entry``'s op on ``operands``, of the language type ``ty`` where its
        `build` does not infer the result type."""
        kwargs = dict(zip(entry.operands, operands))
        if entry.result_type is not None:
            kwargs[entry.result_type] = ty.to_ir()
        return self._value(_op_class(entry), **kwargs)

    def fma(self, a, b, c, ty):
        from tilecraft.generated.math import FmaOp  # (the math dialect loads when first used)

        return self._value(FmaOp, a=a, b=b, c=c)

    def cmpi(self, predicate, a, b, ty):
        return self._value(arith.CmpIOp, lhs=a, rhs=b,
                           predicate=arith.CmpIPredicate[predicate])

    def cmpf(self, predicate, a, b, ty):
        return self._value(arith.CmpFOp, lhs=a, rhs=b, predicate=_CMPF[predicate])

    def select(self, cond, a, b, ty):
        return self._value(arith.SelectOp, condition=cond, true_value=a, false_value=b)

    def clampf(self, x, lo, hi, propagate_nan, ty):
        return self._value(tt.ClampFOp, x=x, min=lo, max=hi,
                           propagate_nan=tt.PropagateNan(propagate_nan))

    def cast(self, op, x, src_ty, ty, rounding=None):
        dst = ty.to_ir()
        folded = self._fold_cast(op, x, src_ty, ty, rounding)
        if folded is not None:
            return folded
        if op in ("int_cast_signed", "int_cast_unsigned"):
            src_width, dst_width = _width(x.type), _width(dst)
            if src_width == dst_width:
                return x
            if dst_width > src_width:
                cls = arith.ExtSIOp if op == "int_cast_signed" else arith.ExtUIOp
                return self._value(cls, out_type=dst, in_=x)
            return self._value(arith.TruncIOp, out_type=dst, in_=x)
        if op == "fp_to_fp":
            mode = None if rounding is None else tt.RoundingMode[rounding.upper()]
            return self._value(tt.FpToFpOp, result_type=dst, src=x, rounding=mode)
        if op == "bitcast":
            return self._value(tt.BitcastOp, result_type=dst, src=x)
        if op == "int_to_ptr":
            return self._value(tt.IntToPtrOp, result_type=dst, src=x)
        if op == "ptr_to_int":
            return self._value(tt.PtrToIntOp, result_type=dst, src=x)
        return self._language_value(language_op("cast", op), (x,), ty)

    def _fold_cast(self, op, x, src_ty, ty, rounding):
        """A constant for a cast of a constant (as Triton's canonicalizer would make it)."""
        value = self._constant_value(x)
        if value is None or isinstance(value, bool) and op not in ("int_cast_unsigned",):
            return None
        src, dst = src_ty.scalar, ty.scalar
        if op in ("extf", "truncf") or (op == "fp_to_fp" and rounding in (None, "rtne")):
            if dst.is_fp8() or src.is_fp8():
                return None
            return self.constant(float(value), ty)
        if op in ("int_cast_signed", "int_cast_unsigned"):
            value = int(value)
            if op == "int_cast_unsigned" or src.is_int_unsigned():
                value &= (1 << src.int_bitwidth) - 1
            return self.constant(value, ty)
        if op in ("sitofp", "uitofp") and not dst.is_fp8():
            value = int(value)
            if op == "uitofp":
                value &= (1 << src.int_bitwidth) - 1
            return self.constant(float(value), ty)
        return None

    # -- memory
    def addptr(self, ptr, offset, ty):
        return self._value(tt.AddPtrOp, result_type=ty.to_ir(), ptr=ptr, offset=offset)

    def _hints(self, cache, evict):
        hints = {}
        if cache != "none":
            hints["cache"] = _CACHE[cache]
        if evict != "evict_normal":
            hints["evict"] = _EVICT[evict]
        return hints

    def load(self, ptr, mask, other, ty, cache, evict, is_volatile):
        return self._value(tt.LoadOp, ptr=ptr, mask=mask, other=other,
                           is_volatile=True if is_volatile else None,
                           **self._hints(cache, evict))

    def store(self, ptr, value, mask, ty, cache, evict):
        self._op(tt.StoreOp, ptr=ptr, value=value, mask=mask, **self._hints(cache, evict))

    def make_block_ptr(self, base, shape, strides, offsets, order, ty):
        return self._value(tt.MakeTensorPtrOp, result_type=ty.to_ir(), base=base, order=tuple(order),
                           shape=shape,
                           strides=strides, offsets=offsets)

    def advance(self, ptr, offsets, ty):
        return self._value(tt.AdvanceOp, result_type=ty.to_ir(), ptr=ptr, offsets=offsets)

    def load_block(self, ptr, boundary_check, padding, ty, cache, evict, is_volatile):
        return self._value(tt.LoadOp, ptr=ptr,
                           boundary_check=tuple(boundary_check) if boundary_check else None,
                           padding=None if padding is None else _PADDING[padding],
                           is_volatile=True if is_volatile else None,
                           **self._hints(cache, evict))

    def store_block(self, ptr, value, boundary_check, cache, evict):
        self._op(tt.StoreOp, ptr=ptr, value=value,
                 boundary_check=tuple(boundary_check) if boundary_check else None,
                 **self._hints(cache, evict))

    def make_tensor_descriptor(self, base, shape, strides, padding, ty):
        return self._value(tt.MakeTensorDescOp, result_type=ty.to_ir(), base=base, shape=shape,
                           strides=strides, padding=_PADDING[padding])

    def descriptor_load(self, desc, indices, ty):
        return self._value(tt.DescriptorLoadOp, result_type=ty.to_ir(), desc=desc,
                           indices=indices)

    def descriptor_store(self, desc, value, indices):
        self._op(tt.DescriptorStoreOp, desc=desc, src=value, indices=indices)

    def atomic_rmw(self, kind, ptr, val, mask, sem, scope, ty):
        return self._value(tt.AtomicRMWOp, result_type=ty.to_ir(), ptr=ptr, val=val,
                           atomic_rmw_op=_RMW[kind], sem=_SEM[sem], scope=_SCOPE[scope],
                           mask=mask)

    def atomic_cas(self, ptr, cmp, val, sem, scope, ty):
        return self._value(tt.AtomicCASOp, result_type=ty.to_ir(), ptr=ptr, cmp=cmp, val=val,
                           sem=_SEM[sem], scope=_SCOPE[scope])

    # -- compute
    def dot(self, a, b, c, input_precision, max_num_imprecise_acc, ty):
        return self._value(tt.DotOp, d_type=ty.to_ir(), a=a, b=b, c=c,
                           input_precision=_PRECISION[input_precision],
                           max_num_imprecise_acc=max_num_imprecise_acc or None)

    def _combine_region(self, op, elem_types, region, return_cls):
        ir_types = [t.to_ir() for t in elem_types]
        block = Block(ir_types + ir_types)
        op.regions[0].add_block(block)
        with self.at_end(block):
            results = region(list(block.arguments), list(elem_types) * 2, elem_types)
            self._op(return_cls, result_=results)

    def reduce(self, srcs, axis, region, ret_types, elem_types):
        op = self._op(tt.ReduceOp, result_types=[t.to_ir() for t in ret_types], axis=axis,
                      srcs=srcs)
        self._combine_region(op, elem_types, region, tt.ReduceReturnOp)
        return list(op.results)

    def scan(self, srcs, axis, reverse, region, types, elem_types):
        op = self._op(tt.ScanOp, result_types=[t.to_ir() for t in types], axis=axis,
                      reverse=bool(reverse), srcs=srcs)
        self._combine_region(op, elem_types, region, tt.ScanReturnOp)
        return list(op.results)

    def histogram(self, x, ty):
        return self._value(tt.HistogramOp, result_type=ty.to_ir(), src=x)

    def gather(self, src, index, axis, ty):
        return self._value(tt.GatherOp, result_type=ty.to_ir(), src=src, indices=index, axis=axis)

    # -- hints and debugging
    def set_hint(self, x, name, values):
        op = getattr(x, "defining_op", None)
        if op is None:
            return
        op.attributes[name] = DenseElementsAttr(RankedTensorType([len(values)], i32),
                                                list(values))

    def print(self, prefix, hex, args, types, is_signed):  # noqa: A002
        self._op(tt.PrintOp, prefix=prefix, hex=bool(hex), is_signed=tuple(is_signed), args=args)

    def assert_(self, cond, message, ty):
        self._op(tt.AssertOp, condition=cond, message=message)

    def assume(self, cond, ty):
        if ty.is_block():  # llvm.intr.assume takes one i1
            self.dropped.append("assume")
            return
        if not ty.is_bool():
            raise ValueError(f"tl.assume needs a boolean condition, got {ty}")
        from tilecraft.generated import llvm

        self._op(llvm.AssumeOp, cond=cond)

    def barrier(self):
        # Triton emits gpu.barrier: every thread of the program waits, and its shared and
        # global memory accesses before are seen by the others after
        from tilecraft.generated import ttg

        self._op(ttg.BarrierOp, addr_space=BARRIER_ALL)
