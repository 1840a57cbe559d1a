"""Elements in shared memory: how each element type is stored there (fp16, bf16 and fp8 as
their bits, so a scratch buffer takes the bytes the type has; i1 as a byte; pointers as i64),
and row-major addressing of scratch buffers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import llvmlite.ir as ir

from tilecraft.generated.tt import PointerType
from tilecraft.ir import Type

from ..cpu import types as T
from .lowering import I32, I64, GPULowering, reg_type


class Storage(NamedTuple):
    """How elements of tile type ``elem`` (a scalar type, or a tensor's element type) sit in
    shared memory: `ty`, `size` bytes each."""

    elem: Type
    ty: ir.Type
    size: int

    @classmethod
    def of(cls, t: Type) -> Storage:
        elem = T.element_type(t)
        if isinstance(elem, PointerType):
            return cls(elem, I64, 8)
        ty = T.mem_type(elem)
        if isinstance(ty, ir.IntType):
            return cls(elem, ty, max(1, ty.width // 8))
        return cls(elem, ty, 8 if ty == T.F64 else 4)

    def pointer(self, fl: GPULowering, base: ir.Value, index: ir.Value) -> ir.Value:
        """The address of element ``index`` of the buffer at ``base``."""
        return fl.builder.gep(base, [index], source_etype=self.ty, inbounds=True)

    def raw(self, fl: GPULowering, value: ir.Value) -> ir.Value:
        """A register value as it is stored (`ty`)."""
        if isinstance(self.elem, PointerType):
            return fl.builder.ptrtoint(value, I64)
        return T.to_memory(fl, value, self.elem)

    def value(self, fl: GPULowering, raw: ir.Value) -> ir.Value:
        """A stored value (`ty`) in its register form."""
        if isinstance(self.elem, PointerType):
            return fl.builder.inttoptr(raw, reg_type(self.elem))
        return T.from_memory(fl, raw, self.elem)

    def store(self, fl: GPULowering, base: ir.Value, index: ir.Value, value: ir.Value) -> None:
        fl.builder.store(self.raw(fl, value), self.pointer(fl, base, index))

    def load(self, fl: GPULowering, base: ir.Value, index: ir.Value) -> ir.Value:
        return self.value(fl, fl.builder.load(self.pointer(fl, base, index), typ=self.ty))


def row_major(fl: GPULowering, coordinates: Sequence[ir.Value],
              shape: Sequence[int]) -> ir.Value:
    """The row-major index of ``coordinates`` in a buffer of ``shape``."""
    b = fl.builder
    index: ir.Value = ir.Constant(I32, 0)
    stride = 1
    for value, size in zip(reversed(list(coordinates)), reversed(list(shape))):
        term = value if stride == 1 else b.mul(value, ir.Constant(I32, stride))
        index = term if stride == 1 else b.add(index, term)
        stride *= size
    return index


def packed(sizes: Sequence[int], alignment: int = 8) -> tuple[list[int], int]:
    """Offsets of consecutive pieces of ``sizes`` bytes, each aligned, and the total."""
    offsets, total = [], 0
    for size in sizes:
        total = -(-total // alignment) * alignment
        offsets.append(total)
        total += size
    return offsets, total


def offset(fl: GPULowering, base: ir.Value, nbytes: int) -> ir.Value:
    """``base`` advanced by ``nbytes``."""
    if nbytes == 0:
        return base
    return fl.builder.gep(base, [ir.Constant(I32, nbytes)], source_etype=ir.IntType(8))
