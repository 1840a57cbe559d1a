"""The kernel language's core: dtypes, `constexpr`, the `tensor` class and the builder context.

Every `tl.*` function is written once, in `semantic.py`, over the small builder interface of
`builder.py`; the builder in use is whichever was entered last with `use_builder`: the IR builder
of the code generator (`tilecraft.frontend`) while compiling, the numpy builder of the interpreter
(`tilecraft.runtime.interpreter`) while interpreting. A `tensor` holds the builder's handle (an IR
`Value`, or a numpy array) and its language type; all typing rules are applied to the language
types, so both builders see the same sequence of calls.
"""

from __future__ import annotations

import builtins
import threading
from enum import IntEnum
from typing import Any

# -- the builder in use --------------------------------------------------------------------------


class _State(threading.local):
    def __init__(self) -> None:
        self.builders: list = []
        self.generators: list = []


_state = _State()


def current_builder():
    """The builder of the kernel being compiled or interpreted."""
    if not _state.builders:
        raise RuntimeError("tilecraft.language functions can only be used inside a "
                           "@tilecraft.jit function (compiled or interpreted)")
    return _state.builders[-1]


def current_generator():
    """The code generator compiling the current kernel, or None (interpreter)."""
    return _state.generators[-1] if _state.generators else None


def is_interpreting() -> bool:
    return bool(_state.builders) and getattr(_state.builders[-1], "is_interpreter", False)


class use_builder:
    """``with use_builder(builder, generator): ...`` makes ``builder`` the one `tl.*` uses."""

    def __init__(self, builder, generator=None) -> None:
        self.builder = builder
        self.generator = generator

    def __enter__(self):
        _state.builders.append(self.builder)
        _state.generators.append(self.generator)
        return self.builder

    def __exit__(self, *exc) -> None:
        _state.builders.pop()
        _state.generators.pop()


# -- constexpr -----------------------------------------------------------------------------------


class constexpr:
    """A compile-time value. As an annotation (``BLOCK: tl.constexpr``) it marks a kernel
    parameter whose value is part of the kernel's specialization; as a global
    (``N = tl.constexpr(4)``) it is a constant that kernels may read."""

    def __init__(self, value: Any) -> None:
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __index__(self) -> int:
        return self.value.__index__()

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __hash__(self) -> int:
        return hash(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, name: str):
        if name == "value":
            raise AttributeError(name)
        return getattr(self.value, name)


def _make_constexpr_op(name: str):
    def op(self, *others):
        import operator

        args = [_unwrap(o) for o in others]
        if any(isinstance(a, tensor) for a in args):
            return NotImplemented
        return constexpr(getattr(operator, name)(self.value, *args))

    return op


def _make_constexpr_rop(name: str):
    def op(self, other):
        import operator

        other = _unwrap(other)
        if isinstance(other, tensor):
            return NotImplemented
        return constexpr(getattr(operator, name)(other, self.value))

    return op


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift", "lt", "le", "gt", "ge", "eq", "ne"):
    setattr(constexpr, f"__{_name}__", _make_constexpr_op(_name))
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift"):
    setattr(constexpr, f"__r{_name}__", _make_constexpr_rop(_name))
for _name in ("neg", "pos", "invert", "not_"):
    setattr(constexpr, f"__{_name.rstrip('_')}__", _make_constexpr_op(_name))
del _name


def _unwrap(value):
    """The Python value of a constexpr (anything else unchanged)."""
    return value.value if isinstance(value, constexpr) else value


def _unwrap_shape(shape) -> tuple[int, ...]:
    shape = _unwrap(shape)
    if isinstance(shape, (int, tensor)):
        shape = (shape,)
    result = []
    for dim in shape:
        dim = _unwrap(dim)
        if isinstance(dim, tensor):
            raise TypeError("shapes must be tl.constexpr integers, not tensors")
        result.append(int(dim))
    return tuple(result)


def is_constexpr_annotation(annotation) -> bool:
    """Whether a parameter annotation marks a constexpr (also as a string, for modules using
    ``from __future__ import annotations``)."""
    if annotation is constexpr:
        return True
    return isinstance(annotation, str) and "constexpr" in annotation


# -- dtypes --------------------------------------------------------------------------------------


class dtype:
    """A scalar type of the kernel language (``tl.float32``, ``tl.uint8``, ...)."""

    SINT_TYPES = ("int8", "int16", "int32", "int64")
    UINT_TYPES = ("int1", "uint8", "uint16", "uint32", "uint64")
    FP8_TYPES = ("fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16")
    STANDARD_FP_TYPES = ("fp16", "bf16", "fp32", "fp64")
    FP_TYPES = (*FP8_TYPES, *STANDARD_FP_TYPES)
    OTHER_TYPES = ("void",)
    # (exponent bits, mantissa bits, exponent bias)
    FP_FORMATS = {"fp8e4nv": (4, 3, 7), "fp8e5": (5, 2, 15), "fp8e4b15": (4, 3, 15),
                  "fp8e4b8": (4, 3, 8), "fp8e5b16": (5, 2, 16), "fp16": (5, 10, 15),
                  "bf16": (8, 7, 127), "fp32": (8, 23, 127), "fp64": (11, 52, 1023)}

    class KIND(IntEnum):
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    shape: tuple = ()
    numel: int = 1

    def __init__(self, name: str) -> None:
        name = _unwrap(name)
        self.name = name
        if name in dtype.SINT_TYPES:
            self.int_signedness = "signed"
            self.int_bitwidth = int(name[3:])
            self.primitive_bitwidth = self.int_bitwidth
        elif name in dtype.UINT_TYPES:
            self.int_signedness = "unsigned"
            self.int_bitwidth = 1 if name == "int1" else int(name[4:])
            self.primitive_bitwidth = self.int_bitwidth
        elif name in dtype.FP_TYPES:
            exponent, mantissa, bias = dtype.FP_FORMATS[name]
            self.fp_exponent_width = exponent
            self.fp_mantissa_width = mantissa
            self.exponent_bias = bias
            self.primitive_bitwidth = 1 + exponent + mantissa
        elif name == "void":
            self.primitive_bitwidth = 0
        else:
            raise ValueError(f"unknown dtype {name!r}")

    # predicates (Triton's names)
    def is_fp8(self) -> bool:
        return self.name in dtype.FP8_TYPES

    def is_fp8e4nv(self) -> bool:
        return self.name == "fp8e4nv"

    def is_fp8e5(self) -> bool:
        return self.name == "fp8e5"

    def is_fp8e4b15(self) -> bool:
        return self.name == "fp8e4b15"

    def is_fp8e4b8(self) -> bool:
        return self.name == "fp8e4b8"

    def is_fp8e5b16(self) -> bool:
        return self.name == "fp8e5b16"

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_floating(self) -> bool:
        return self.name in dtype.FP_TYPES

    def is_standard_floating(self) -> bool:
        return self.name in dtype.STANDARD_FP_TYPES

    def is_int_signed(self) -> bool:
        return self.name in dtype.SINT_TYPES

    def is_int_unsigned(self) -> bool:
        return self.name in dtype.UINT_TYPES

    def is_int(self) -> bool:
        return self.name in dtype.SINT_TYPES or self.name in dtype.UINT_TYPES

    is_integer_type = is_int

    def is_bool(self) -> bool:
        return self.name == "int1"

    def is_int1(self) -> bool:
        return self.name == "int1"

    def is_void(self) -> bool:
        return self.name == "void"

    def is_ptr(self) -> bool:
        return False

    def is_block(self) -> bool:
        return False

    def is_const(self) -> bool:
        return False

    def kind(self) -> "dtype.KIND":
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        return dtype.KIND.FLOATING

    def get_int_max_value(self) -> int:
        if self.is_int_signed():
            return 2 ** (self.int_bitwidth - 1) - 1
        return 2 ** self.int_bitwidth - 1

    def get_int_min_value(self) -> int:
        if self.is_int_signed():
            return -(2 ** (self.int_bitwidth - 1))
        return 0

    @property
    def scalar(self) -> "dtype":
        return self

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        return element_ty

    def to_ir(self):
        from tilecraft import ir

        if self.is_int():
            return ir.IntegerType(self.int_bitwidth)
        kinds = {"fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64",
                 "fp8e4nv": "f8E4M3FN", "fp8e5": "f8E5M2", "fp8e4b15": "f8E4M3B11FNUZ",
                 "fp8e4b8": "f8E4M3FNUZ", "fp8e5b16": "f8E5M2FNUZ"}
        if self.name in kinds:
            return ir.FloatType(kinds[self.name])
        raise TypeError(f"{self} has no IR type")

    def mangle(self) -> str:
        return self.name

    def __eq__(self, other) -> bool:
        other = _unwrap(other)
        return type(other) is dtype and other.name == self.name

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(("dtype", self.name))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"tl.{_CANONICAL.get(self.name, self.name)}"

    def __call__(self, value):
        """``tl.float32(x)``: a cast inside kernels."""
        from . import semantic

        return semantic.cast(semantic.to_tensor(value), self)


class pointer_type(dtype):
    """The type of a pointer to ``element_ty`` values (``tl.pointer_type(tl.float32)``)."""

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False) -> None:
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type expects a dtype, got {element_ty!r}")
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = f"pointer<{element_ty}>"
        self.primitive_bitwidth = 64

    def is_ptr(self) -> bool:
        return True

    def is_int(self) -> bool:
        return False

    is_integer_type = is_int

    def is_floating(self) -> bool:
        return False

    def is_int_signed(self) -> bool:
        return False

    def is_int_unsigned(self) -> bool:
        return False

    def is_bool(self) -> bool:
        return False

    def is_fp8(self) -> bool:
        return False

    def is_standard_floating(self) -> bool:
        return False

    def is_const(self) -> bool:
        return self.const

    def kind(self):
        return None

    def to_ir(self):
        from tilecraft.generated.tt import PointerType

        return PointerType(self.element_ty.to_ir(), self.address_space)

    def mangle(self) -> str:
        return f"P{self.element_ty.mangle()}"

    def __eq__(self, other) -> bool:
        other = _unwrap(other)
        return (isinstance(other, pointer_type) and other.element_ty == self.element_ty
                and other.address_space == self.address_space)

    def __hash__(self) -> int:
        return hash(("ptr", self.element_ty, self.address_space))

    def __str__(self) -> str:
        return f"pointer<{self.element_ty}>"

    def __repr__(self) -> str:
        return f"tl.pointer_type({self.element_ty!r})"


class block_type(dtype):
    """The type of a tensor: an element type and a shape."""

    def __init__(self, element_ty: dtype, shape) -> None:
        self.element_ty = element_ty
        self.shape = tuple(int(_unwrap(d)) for d in shape)
        if not self.shape:
            raise ValueError("a block type needs a non-empty shape")
        self.numel = 1
        for d in self.shape:
            self.numel *= d
        self.name = f"<{list(self.shape)}, {element_ty}>"
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    def is_block(self) -> bool:
        return True

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    def get_block_shapes(self) -> tuple:
        return self.shape

    def with_element_ty(self, element_ty: dtype) -> "block_type":
        return block_type(element_ty, self.shape)

    def is_ptr(self) -> bool:
        return False

    def to_ir(self):
        from tilecraft.ir import RankedTensorType

        return RankedTensorType(list(self.shape), self.element_ty.to_ir())

    def mangle(self) -> str:
        return f"{self.element_ty.mangle()}S{'_'.join(map(str, self.shape))}S"

    def __eq__(self, other) -> bool:
        other = _unwrap(other)
        return (isinstance(other, block_type) and other.element_ty == self.element_ty
                and other.shape == self.shape)

    def __hash__(self) -> int:
        return hash(("block", self.element_ty, self.shape))

    def __str__(self) -> str:
        return f"{self.element_ty}[{', '.join(map(str, self.shape))}]"

    def __repr__(self) -> str:
        return f"tl.block_type({self.element_ty!r}, {list(self.shape)})"


class tensor_descriptor_type(dtype):
    """The type of a tensor descriptor: blocks of ``block_type`` (element type and block shape)
    of a tensor in global memory, as `make_tensor_descriptor` makes them or a host
    `tilecraft.TensorDescriptor` argument gives them."""

    def __init__(self, block_ty: block_type) -> None:
        self.block_type = block_ty
        self.name = f"tensordesc<{block_ty}>"
        self.primitive_bitwidth = 0

    def to_ir(self):
        from tilecraft.generated.tt import TensorDescType

        return TensorDescType(self.block_type.shape, self.block_type.element_ty.to_ir())

    def mangle(self) -> str:
        return f"D{self.block_type.mangle()}"

    def __eq__(self, other) -> bool:
        other = _unwrap(other)
        return isinstance(other, tensor_descriptor_type) and other.block_type == self.block_type

    def __hash__(self) -> int:
        return hash(("tensordesc", self.block_type))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"tl.tensor_descriptor_type({self.block_type!r})"


def type_str(type_) -> str:
    """How errors name a type: ``fp32`` or ``fp32[128, 64]``."""
    return str(type_)


void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
float8e4b15 = dtype("fp8e4b15")
float8e4b8 = dtype("fp8e4b8")
float8e5b16 = dtype("fp8e5b16")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)

_CANONICAL = {"int1": "int1", "fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
              "fp64": "float64", "fp8e4nv": "float8e4nv", "fp8e5": "float8e5",
              "fp8e4b15": "float8e4b15", "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16"}

_BY_NAME = {t.name: t for t in (int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                                float8e4nv, float8e5, float8e4b15, float8e4b8, float8e5b16,
                                float16, bfloat16, float32, float64, void)}
_ALIASES = {"i1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64, "u1": int1,
            "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64, "fp8e4nv": float8e4nv,
            "fp8e5": float8e5, "f16": float16, "fp16": float16, "bf16": bfloat16,
            "f32": float32, "fp32": float32, "f64": float64, "fp64": float64, "B": int1,
            "float16": float16, "bfloat16": bfloat16, "float32": float32, "float64": float64,
            "float8e4nv": float8e4nv, "float8e5": float8e5, "float8e4b15": float8e4b15,
            "float8e4b8": float8e4b8, "float8e5b16": float8e5b16}


def str_to_ty(name: str) -> dtype:
    """Triton's signature strings: ``"*fp32"`` (a pointer), ``"i32"``, ``"u8"``, ``"bf16"``,
    ``"tensordesc<fp16[64, 64]>"`` (a tensor descriptor)."""
    if name.startswith("*"):
        return pointer_type(str_to_ty(name[1:]))
    if name.startswith("tensordesc<") and name.endswith("]>") and "[" in name:
        element, _, shape = name[len("tensordesc<"):-2].partition("[")
        try:
            dims = [int(d) for d in shape.split(",")]
        except ValueError:
            raise ValueError(f"unknown type {name!r} in a signature") from None
        return tensor_descriptor_type(block_type(str_to_ty(element.strip()), dims))
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name in _ALIASES:
        return _ALIASES[name]
    raise ValueError(f"unknown type {name!r} in a signature")


def get_int_dtype(bitwidth: int, signed: bool) -> dtype:
    if bitwidth == 1:
        return int1
    return _BY_NAME[f"{'int' if signed else 'uint'}{bitwidth}"]


class PropagateNan(IntEnum):
    NONE = 0x0000
    ALL = 0xFFFF


# -- tensors -------------------------------------------------------------------------------------


def _sem():
    from . import semantic

    return semantic


class shape_tuple(tuple):
    """A tensor's shape: a tuple of ints that also compares equal to a list of the same sizes,
    as Triton's list-valued ``tensor.shape`` does (``tl.static_assert(x.shape == [128])``)."""

    def __eq__(self, other) -> bool:
        other = _unwrap(other)
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__


class tensor:
    """A value of the kernel language: a scalar or a block (tile), with its language type."""

    __slots__ = ("handle", "type")

    def __new__(cls, handle=None, type: dtype | None = None):  # noqa: A002 - Triton's name
        # A value of descriptor type is a `tensor_descriptor` wherever it is wrapped (function
        # arguments, loop-carried values), so that its methods are there.
        if cls is tensor and isinstance(type, tensor_descriptor_type):
            cls = tensor_descriptor
        return super().__new__(cls)

    def __init__(self, handle, type: dtype) -> None:  # noqa: A002 - Triton's name
        self.handle = handle
        self.type = type

    # -- type queries
    @property
    def dtype(self) -> dtype:
        return self.type.scalar

    @property
    def shape(self) -> shape_tuple:
        return shape_tuple(self.type.shape if self.type.is_block() else ())

    @property
    def numel(self) -> int:
        return self.type.numel if self.type.is_block() else 1

    @property
    def T(self) -> "tensor":  # noqa: N802 - Triton's name
        return trans(self)

    def __repr__(self) -> str:
        if is_interpreting():
            return f"tensor({self.handle!r}, {self.type})"
        return f"tensor<{self.type}>"

    __str__ = __repr__

    def __hash__(self) -> int:
        return id(self)

    # -- Python protocol hooks that only make sense in the interpreter
    def __bool__(self) -> bool:
        return current_builder().to_bool(self)

    def __index__(self) -> int:
        return current_builder().to_index(self)

    __int__ = __index__

    def __float__(self) -> float:
        return current_builder().to_float(self)

    def __iter__(self):
        raise TypeError("tensors are not iterable; index them with None and ':' only")

    def __len__(self) -> int:
        if not self.type.is_block():
            raise TypeError("a scalar tensor has no len()")
        return self.shape[0]

    # -- arithmetic
    def __add__(self, other):
        return _sem().add(self, other)

    def __radd__(self, other):
        return _sem().add(other, self)

    def __sub__(self, other):
        return _sem().sub(self, other)

    def __rsub__(self, other):
        return _sem().sub(other, self)

    def __mul__(self, other):
        return _sem().mul(self, other)

    def __rmul__(self, other):
        return _sem().mul(other, self)

    def __truediv__(self, other):
        return _sem().truediv(self, other)

    def __rtruediv__(self, other):
        return _sem().truediv(other, self)

    def __floordiv__(self, other):
        return _sem().floordiv(self, other)

    def __rfloordiv__(self, other):
        return _sem().floordiv(other, self)

    def __mod__(self, other):
        return _sem().mod(self, other)

    def __rmod__(self, other):
        return _sem().mod(other, self)

    def __pow__(self, other):
        return _sem().pow(self, other)

    def __rpow__(self, other):
        return _sem().pow(other, self)

    def __neg__(self):
        return _sem().minus(self)

    def __pos__(self):
        return self

    def __invert__(self):
        return _sem().invert(self)

    def __and__(self, other):
        return _sem().and_(self, other)

    def __rand__(self, other):
        return _sem().and_(other, self)

    def __or__(self, other):
        return _sem().or_(self, other)

    def __ror__(self, other):
        return _sem().or_(other, self)

    def __xor__(self, other):
        return _sem().xor_(self, other)

    def __rxor__(self, other):
        return _sem().xor_(other, self)

    def __lshift__(self, other):
        return _sem().shl(self, other)

    def __rlshift__(self, other):
        return _sem().shl(other, self)

    def __rshift__(self, other):
        return _sem().shr(self, other)

    def __rrshift__(self, other):
        return _sem().shr(other, self)

    # -- comparisons
    def __gt__(self, other):
        return _sem().greater_than(self, other)

    def __ge__(self, other):
        return _sem().greater_equal(self, other)

    def __lt__(self, other):
        return _sem().less_than(self, other)

    def __le__(self, other):
        return _sem().less_equal(self, other)

    def __eq__(self, other):  # noqa: D105
        return _sem().equal(self, other)

    def __ne__(self, other):
        return _sem().not_equal(self, other)

    def logical_and(self, other):
        return _sem().logical_and(self, _sem().to_tensor(other))

    def logical_or(self, other):
        return _sem().logical_or(self, _sem().to_tensor(other))

    def __not__(self):
        return _sem().not_(self)

    # -- indexing
    def __getitem__(self, slices):
        return _sem().getitem(self, slices)

    # -- conversions
    def to(self, dtype: dtype, fp_downcast_rounding: str | None = None,
           bitcast: bool = False) -> "tensor":
        """A cast to ``dtype`` (a reinterpretation of the bits with ``bitcast=True``)."""
        dtype = _unwrap(dtype)
        bitcast = _unwrap(bitcast)
        if bitcast:
            return _sem().bitcast(self, dtype)
        return _sem().cast(self, dtype, _unwrap(fp_downcast_rounding))


class tensor_descriptor(tensor):
    """A tensor descriptor: loads and stores whole blocks of a tensor in global memory at
    block-granular indices (on Hopper, with the tensor memory accelerator)."""

    __slots__ = ()

    @property
    def block_type(self) -> block_type:
        return self.type.block_type

    @property
    def block_shape(self) -> list[int]:
        return list(self.type.block_type.shape)

    @property
    def dtype(self) -> dtype:
        return self.type.block_type.element_ty

    def load(self, offsets) -> tensor:
        """The block whose first element is at ``offsets`` (one integer per dimension);
        elements outside the tensor read as the descriptor's padding (zero or NaN)."""
        return _sem().descriptor_load(self, offsets)

    def store(self, offsets, value) -> None:
        """Stores ``value`` (a block of the descriptor's shape) at ``offsets``; elements
        outside the tensor are not written."""
        return _sem().descriptor_store(self, offsets, value)


# -- helpers shared by the modules of the language -----------------------------------------------


def builtin(fn):
    """Marks ``fn`` as a function of the language (callable from kernels as is)."""
    fn.__tilecraft_builtin__ = True
    return fn


def is_builtin(fn) -> bool:
    return getattr(fn, "__tilecraft_builtin__", False)


def _tensor_member_fn(fn):
    """Also makes ``fn`` a method of `tensor` (``x.sum(axis=0)``)."""
    setattr(tensor, fn.__name__, fn)
    return fn


def trans(input, *dims):  # noqa: A002 - Triton's name
    from . import semantic

    return semantic.trans(input, *dims)


__all__ = [
    "builtin", "block_type", "constexpr", "current_builder", "dtype", "is_builtin",
    "pointer_type", "str_to_ty", "tensor", "tensor_descriptor", "tensor_descriptor_type",
    "use_builder", "void", "int1", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float8e4nv", "float8e5",
    "float8e4b15", "float8e4b8", "float8e5b16", "float16", "bfloat16", "float32", "float64", "pi32_t", "PropagateNan", "get_int_dtype",
]

_ = builtins
