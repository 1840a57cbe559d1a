"""tilecraft types as the CPU lowering holds them: in registers and in memory.

Scalars keep their width; ``i1`` is a byte in memory. fp16 and bf16 are their 16 bits in memory
and, in registers, an ``f32`` holding a value exactly representable in the narrow format (each op
on them rounds its result back, so results match a real fp16 unit); the conversions are
emulated with integer operations, except fp16's on a host with F16C. Pointers
are LLVM's opaque ``ptr``. fp8 is emulated the same way (see `fp8`); tf32 has no CPU form.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import llvmlite.ir as ir

from tilecraft.generated.tt import PointerType
from tilecraft.ir import FloatType, IndexType, IntegerType, RankedTensorType, Type

from . import fp8, mathlib

if TYPE_CHECKING:
    from .lowering import FunctionLowering

F32 = ir.FloatType()
F64 = ir.DoubleType()
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()

HALF_KINDS = ("f16", "bf16")
FP8_KINDS = tuple(fp8.FORMATS)


class UnsupportedType(TypeError):
    """A type the CPU target cannot hold (tf32)."""


def element_type(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def is_half(t: Type) -> bool:
    t = element_type(t)
    return isinstance(t, FloatType) and t.kind in HALF_KINDS


def is_narrow(t: Type) -> bool:
    """fp16, bf16 or fp8: held in f32 registers, rounded after each op."""
    t = element_type(t)
    return isinstance(t, FloatType) and (t.kind in HALF_KINDS or t.kind in FP8_KINDS)


def reg_type(t: Type) -> ir.Type:
    """The LLVM type of a scalar (or of a tensor's elements) in registers."""
    t = element_type(t)
    if isinstance(t, IntegerType):
        return ir.IntType(t.width)
    if isinstance(t, IndexType):
        return I64
    if isinstance(t, FloatType):
        if t.kind in ("f32", "f16", "bf16") or t.kind in FP8_KINDS:
            return F32
        if t.kind == "f64":
            return F64
        raise UnsupportedType(f"the CPU backend does not support the float type {t.kind}")
    if isinstance(t, PointerType):
        return PTR
    raise UnsupportedType(f"the CPU backend does not support the type {t}")


def mem_type(t: Type) -> ir.Type:
    """The LLVM type of a scalar as user memory stores it."""
    t = element_type(t)
    if isinstance(t, IntegerType) and t.width == 1:
        return I8
    if is_half(t):
        return I16
    if isinstance(t, FloatType) and t.kind in FP8_KINDS:
        return I8
    return reg_type(t)


def buffer_type(t: Type) -> ir.Type:
    """The LLVM type of an element in the lowering's own buffers (registers, but bytes for i1)."""
    ty = reg_type(t)
    return I8 if ty == I1 else ty


class BFloatType(ir.types._BaseFloatType):
    """LLVM's ``bfloat``, which llvmlite's IR builder lacks (used where the target converts
    bf16 natively)."""

    null = "0.0"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"


BFloatType._create_instance()
BF16 = BFloatType()


def native_half_type(t: Type) -> ir.Type:
    """LLVM's own type for f16 or bf16 ``t``."""
    return ir.HalfType() if element_type(t).kind == "f16" else BF16


def _native(fl: FunctionLowering, t: Type) -> bool:
    """Whether fp16 or bf16 ``t`` converts with LLVM's own instructions: where the target says
    so (the GPU), and fp16 on a CPU with F16C (``vcvtph2ps``/``vcvtps2ph``, exactly rounded like
    the emulation). bf16 stays emulated on the CPU: its widening is a shift either way, and the
    native narrowing (``vcvtneps2bf16``) flushes subnormals."""
    if fl.native_half:
        return True
    return t.kind == "f16" and host_has_f16c()


def is_x86() -> bool:
    """Whether the host is an x86-64 one."""
    from .engine import host_target

    return host_target().triple.startswith("x86_64")


def vector_unit() -> tuple[int, int]:
    """The host's vector registers: (bytes in one, how many there are)."""
    from .engine import host_target

    target = host_target()
    features = set(target.features.split(","))
    if "+avx512f" in features:
        return 64, 32
    if "+avx" in features:
        return 32, 16
    if target.triple.startswith(("aarch64", "arm64")):
        return 16, 32
    return 16, 16


@functools.cache
def host_has_f16c() -> bool:
    """Whether the host CPU converts fp16 in hardware."""
    from .engine import host_target

    return "+f16c" in host_target().features.split(",")


def from_memory(fl: FunctionLowering, raw: ir.Value, t: Type) -> ir.Value:
    """A value loaded as `mem_type` turned into its register form."""
    t = element_type(t)
    b = fl.builder
    if isinstance(t, IntegerType) and t.width == 1:
        return b.icmp_unsigned("!=", raw, ir.Constant(I8, 0))
    if is_half(t):
        if _native(fl, t):
            return b.fpext(b.bitcast(raw, native_half_type(t)), F32)
        convert = mathlib.f16_to_f32 if t.kind == "f16" else mathlib.bf16_to_f32
        return convert(b, raw)
    if isinstance(t, FloatType) and t.kind in FP8_KINDS:
        return fp8.from_bits(b, raw, fp8.FORMATS[t.kind])
    return raw


def to_memory(fl: FunctionLowering, value: ir.Value, t: Type) -> ir.Value:
    """A register value turned into what `mem_type` stores."""
    t = element_type(t)
    b = fl.builder
    if isinstance(t, IntegerType) and t.width == 1:
        return b.zext(value, I8)
    if is_half(t):
        if _native(fl, t):
            return b.bitcast(b.fptrunc(value, native_half_type(t)), I16)
        convert = mathlib.f32_to_f16 if t.kind == "f16" else mathlib.f32_to_bf16
        return convert(b, value)
    if isinstance(t, FloatType) and t.kind in FP8_KINDS:
        return fp8.to_bits(b, value, fp8.FORMATS[t.kind])
    return value


def to_buffer(fl: FunctionLowering, value: ir.Value) -> ir.Value:
    return fl.builder.zext(value, I8) if value.type == I1 else value


def from_buffer(fl: FunctionLowering, raw: ir.Value, ty: ir.Type) -> ir.Value:
    return fl.builder.trunc(raw, I1) if ty == I1 else raw


def round_narrow(fl: FunctionLowering, value: ir.Value, t: Type) -> ir.Value:
    """``value`` (f32) rounded to the precision of ``t`` when ``t`` is fp16, bf16 or fp8."""
    t = element_type(t)
    if isinstance(t, FloatType) and t.kind in FP8_KINDS:
        return fp8.round_to_grid(fl.builder, value, fp8.FORMATS[t.kind])
    if not is_half(t):
        return value
    if _native(fl, t):
        return fl.builder.fpext(fl.builder.fptrunc(value, native_half_type(t)), F32)
    rounding = mathlib.round_f32_to_f16 if t.kind == "f16" else mathlib.round_f32_to_bf16
    return rounding(fl.builder, value)


def is_block_pointer(t: Type) -> bool:
    """``!tt.ptr<tensor<...>>``, made by `tt.make_tensor_ptr`."""
    return isinstance(t, PointerType) and isinstance(t.pointee_type, RankedTensorType)


def block_pointer_layout(t: Type) -> tuple[ir.Type, ...]:
    """A block pointer in registers: base, then per dimension the shape (i64), the strides
    (i64) and the offsets (i32)."""
    rank = len(t.pointee_type.shape)
    return (PTR,) + (I64,) * rank + (I64,) * rank + (I32,) * rank


def placeholder(t: Type):
    """A stand-in with the lowered form of a value of type ``t`` (a tile for tensors, a tuple
    for block pointers, an undefined scalar otherwise), to shape storage before the value
    exists."""
    from .tiles import BufferTile

    if isinstance(t, RankedTensorType):
        return BufferTile(None, t.shape, reg_type(t))
    if is_block_pointer(t):
        return tuple(ir.Constant(ty, None) for ty in block_pointer_layout(t))
    return ir.Constant(reg_type(t), None)


def byte_size(ty: ir.Type) -> int:
    if isinstance(ty, ir.IntType):
        return max(1, ty.width // 8)
    if isinstance(ty, ir.FloatType):
        return 4
    return 8


def value_kind(t: Type) -> str:
    """The runtime's name of a scalar type (Triton's signature names: ``fp32``, ``i32``,
    ``ptr``, ...), as the print callback describes values."""
    t = element_type(t)
    if isinstance(t, FloatType):
        names = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64",
                 "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5", "f8E4M3B11FNUZ": "fp8e4b15",
                 "f8E4M3FNUZ": "fp8e4b8", "f8E5M2FNUZ": "fp8e5b16"}
        if t.kind not in names:
            raise UnsupportedType(f"the CPU backend does not support the float type {t.kind}")
        return names[t.kind]
    if isinstance(t, PointerType):
        return "ptr"
    return f"i{t.width}"


def arg_kind(t: Type) -> str:
    """How the launcher packs a kernel argument of type ``t`` into its 8-byte slot."""
    if isinstance(t, PointerType):
        return "ptr"
    if isinstance(t, IntegerType):
        return f"i{t.width}"
    if isinstance(t, FloatType) and t.kind in ("f32", "f64"):
        return "fp32" if t.kind == "f32" else "fp64"
    if is_narrow(t):
        return "fp32"
    raise UnsupportedType(f"the CPU backend cannot pass an argument of type {t}")
