"""The typing rules of the kernel language, written once over the builder interface.

Each function here takes `tensor`s (or Python numbers and constexprs), applies Triton's rules
(type promotion, broadcasting, casts, mask and `other` handling, ...), and asks the current
builder (`core.current_builder()`) for the operations. The code generator's IR builder turns those
calls into `tt`/`arith`/`math` ops; the interpreter's builder evaluates them on numpy arrays. User
mistakes raise `TypeError`/`ValueError` with the message the user sees; the code generator adds
the source location.
"""

from __future__ import annotations

import builtins
import numbers
from typing import Sequence

from . import core as tl
from .core import _unwrap, block_type, dtype, pointer_type, tensor


def _b():
    return tl.current_builder()


# -- conversions of Python values ----------------------------------------------------------------


def _python_number(x):
    """A Python bool/int/float for a Python or numpy number; None for anything else."""
    x = _unwrap(x)
    if isinstance(x, bool):
        return x
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        return float(x)
    type_name = type(x).__module__
    if type_name == "numpy" and hasattr(x, "item"):
        return _python_number(x.item())
    return None


def _is_number(x) -> bool:
    return not isinstance(x, tensor) and _python_number(x) is not None


def to_tensor_type(x) -> dtype:
    """The type a Python scalar gets: int1, int32 (then uint32, int64, uint64 as needed) or fp32
    (fp64 when fp32 cannot represent its magnitude)."""
    x = _python_number(x)
    if isinstance(x, bool):
        return tl.int1
    if isinstance(x, int):
        if -2**31 <= x < 2**31:
            return tl.int32
        if 2**31 <= x < 2**32:
            return tl.uint32
        if -2**63 <= x < 2**63:
            return tl.int64
        if 2**63 <= x < 2**64:
            return tl.uint64
        raise ValueError(f"integer {x} does not fit in 64 bits")
    if isinstance(x, float):
        magnitude = builtins.abs(x)
        if (magnitude == float("inf") or magnitude == 0.0 or x != x
                or 2.0**-126 <= magnitude <= (2 - 2**-23) * 2.0**127):
            return tl.float32
        return tl.float64
    raise TypeError(f"cannot convert {x!r} to a tensor")


def scalar_constant(value, dtype_: dtype) -> tensor:
    value = _python_number(value)
    if dtype_.is_int() and not isinstance(value, bool) and isinstance(value, int):
        if not dtype_.get_int_min_value() <= value <= dtype_.get_int_max_value():
            raise ValueError(f"scalar {value} is out of range for type {dtype_}")
    return tensor(_b().constant(value, dtype_), dtype_)


def to_tensor(x, check_type: bool = True) -> tensor:
    """``x`` as a tensor: Python numbers become constants of their natural type."""
    if isinstance(x, tensor):
        return x
    x = _unwrap(x)
    if isinstance(x, tensor):
        return x
    number = _python_number(x)
    if number is not None:
        return scalar_constant(number, to_tensor_type(number))
    if check_type:
        raise TypeError(f"cannot convert {x!r} of type {type(x).__name__} to a tensor")
    return x


# -- implicit casts ------------------------------------------------------------------------------


def integer_promote_impl(a_ty: dtype, b_ty: dtype) -> dtype:
    """C's usual arithmetic conversions for two integer types."""
    a_rank, b_rank = a_ty.int_bitwidth, b_ty.int_bitwidth
    a_sn, b_sn = a_ty.int_signedness, b_ty.int_signedness
    if a_sn == b_sn:
        return a_ty if a_rank > b_rank else b_ty
    if a_sn == "unsigned":
        return a_ty if a_rank >= b_rank else b_ty
    return b_ty if b_rank >= a_rank else a_ty


def computation_type_impl(a_ty: dtype, a_is_scalar: bool, b_ty: dtype, b_is_scalar: bool,
                          div_or_mod: bool) -> dtype:
    """Triton's promotion: a Python scalar of the same or a lower kind (bool < int < float) does
    not widen a tensor; fp64 > fp32 > fp16 > bf16 (bf16 only with bf16, else
    fp32); `/` and `%` of fp16/bf16 compute in fp32; two integer types follow C."""
    if a_is_scalar != b_is_scalar:
        scalar_ty, tensor_ty = (a_ty, b_ty) if a_is_scalar else (b_ty, a_ty)
        if scalar_ty.kind() <= tensor_ty.kind():
            if div_or_mod and tensor_ty in (tl.float16, tl.bfloat16):
                return tl.float32
            return tensor_ty
    if a_ty.is_fp64() or b_ty.is_fp64():
        return tl.float64
    if a_ty.is_fp32() or b_ty.is_fp32():
        return tl.float32
    if a_ty.is_fp16() or b_ty.is_fp16():
        return tl.float32 if div_or_mod else tl.float16
    if a_ty.is_bf16() and b_ty.is_bf16():
        return tl.float32 if div_or_mod else tl.bfloat16
    if a_ty.is_bf16() or b_ty.is_bf16():
        return tl.float32
    if a_ty.is_fp8() and b_ty.is_fp8():
        return a_ty if a_ty == b_ty else tl.float16
    if a_ty.is_fp8() or b_ty.is_fp8():
        return a_ty if a_ty.is_fp8() else b_ty
    if not a_ty.is_int() or not b_ty.is_int():
        raise TypeError(f"unexpected types {a_ty} and {b_ty}")
    if div_or_mod and a_ty.int_signedness != b_ty.int_signedness:
        raise TypeError(f"Cannot use /, #, or % with {a_ty} and {b_ty} because they have "
                        "different signedness;this is unlikely to result in a useful answer. "
                        "Cast them to the same signedness.")
    return integer_promote_impl(a_ty, b_ty)


def _check_ptr_type(type_a: dtype, type_b: dtype, allow_ptr_a: bool) -> None:
    if type_a.is_ptr():
        if not allow_ptr_a:
            raise TypeError(f"invalid operands of type {type_a} and {type_b}")
        if type_b.is_ptr() and type_a != type_b:
            raise TypeError(f"invalid operands of type {type_a} and {type_b}")
        if type_b.is_floating():
            raise TypeError(f"invalid operands of type {type_a} and {type_b}")


def binary_op_type_checking_impl(lhs, rhs, allow_lhs_ptr=False, allow_rhs_ptr=False,
                                 arithmetic_check=True, div_or_mod=False):
    lhs_is_scalar = _is_number(lhs)
    rhs_is_scalar = _is_number(rhs)
    lhs_scalar = _python_number(lhs) if lhs_is_scalar else None
    rhs_scalar = _python_number(rhs) if rhs_is_scalar else None
    lhs_ty = to_tensor_type(lhs_scalar) if lhs_is_scalar else _as_tensor(lhs).type.scalar
    rhs_ty = to_tensor_type(rhs_scalar) if rhs_is_scalar else _as_tensor(rhs).type.scalar
    _check_ptr_type(lhs_ty, rhs_ty, allow_lhs_ptr)
    _check_ptr_type(rhs_ty, lhs_ty, allow_rhs_ptr)
    if arithmetic_check and not lhs_ty.is_ptr() and not rhs_ty.is_ptr():
        ret_ty = computation_type_impl(lhs_ty, lhs_is_scalar, rhs_ty, rhs_is_scalar, div_or_mod)
        for is_scalar, value in ((lhs_is_scalar, lhs_scalar), (rhs_is_scalar, rhs_scalar)):
            if not is_scalar:
                continue
            if ret_ty.is_int_unsigned() and not ret_ty.is_bool() and value < 0:
                raise ValueError("cannot combine an unsigned tensor with a negative scalar; "
                                 "cast one of them explicitly")
            if ret_ty.is_int() and not isinstance(value, bool) and isinstance(value, int):
                if not ret_ty.get_int_min_value() <= value <= ret_ty.get_int_max_value():
                    raise ValueError(f"scalar {value} is out of range for type {ret_ty}")
        lhs = scalar_constant(lhs_scalar, ret_ty) if lhs_is_scalar else cast(lhs, ret_ty)
        rhs = scalar_constant(rhs_scalar, ret_ty) if rhs_is_scalar else cast(rhs, ret_ty)
    else:
        lhs = to_tensor(lhs)
        rhs = to_tensor(rhs)
    return broadcast_impl_value(lhs, rhs)


def _as_tensor(x) -> tensor:
    if isinstance(x, tensor):
        return x
    return to_tensor(x)


# -- binary arithmetic ---------------------------------------------------------------------------


def add(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other, True, True)
    a_ty, b_ty = input.type.scalar, other.type.scalar
    if a_ty.is_ptr() and b_ty.is_ptr():
        raise TypeError("cannot add pointers together")
    if b_ty.is_ptr() and not a_ty.is_ptr():
        input, other = other, input
        a_ty, b_ty = b_ty, a_ty
    if a_ty.is_ptr():
        if not b_ty.is_int():
            raise TypeError(f"cannot add {b_ty} to a pointer")
        if b_ty.is_int_unsigned() and b_ty.int_bitwidth < 64:
            other = cast(other, tl.int64 if not b_ty.is_bool() else tl.int32)
        return tensor(_b().addptr(input.handle, other.handle, input.type), input.type)
    if a_ty.is_floating():
        return _binary("addf", input, other)
    if a_ty.is_int():
        return _binary("addi", input, other)
    raise TypeError(f"unexpected type {a_ty}")


def sub(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other, True, False)
    scalar_ty = input.type.scalar
    if scalar_ty.is_ptr():
        return add(input, minus(other))
    if scalar_ty.is_floating():
        return _binary("subf", input, other)
    if scalar_ty.is_int():
        return _binary("subi", input, other)
    raise TypeError(f"unexpected type {scalar_ty}")


def mul(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other)
    scalar_ty = input.type.scalar
    if scalar_ty.is_floating():
        return _binary("mulf", input, other)
    if scalar_ty.is_int():
        return _binary("muli", input, other)
    raise TypeError(f"unexpected type {scalar_ty}")


def truediv(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other, False, False, True, True)
    a_ty, b_ty = input.type.scalar, other.type.scalar
    if a_ty.is_floating() and b_ty.is_int():
        other = cast(other, a_ty)
    elif a_ty.is_int() and b_ty.is_floating():
        input = cast(input, b_ty)
    elif a_ty.is_int() and b_ty.is_int():
        input = cast(input, tl.float32)
        other = cast(other, tl.float32)
    elif a_ty.is_floating() and b_ty.is_floating():
        if a_ty.fp_mantissa_width > b_ty.fp_mantissa_width:
            other = cast(other, a_ty)
        else:
            input = cast(input, b_ty)
    else:
        raise TypeError(f"unexpected type {a_ty}")
    return _binary("divf", input, other)


def floordiv(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other, False, False, True, True)
    a_ty, b_ty = input.type.scalar, other.type.scalar
    if a_ty.is_int() and b_ty.is_int():
        ret_ty = integer_promote_impl(a_ty, b_ty)
        input, other = cast(input, ret_ty), cast(other, ret_ty)
        return _binary("divsi" if ret_ty.is_int_signed() else "divui", input, other)
    raise TypeError(f"unexpected type {a_ty} for // (integers only)")


def fdiv(input, other, ieee_rounding=False) -> tensor:  # noqa: A002
    input, other = to_tensor(input), to_tensor(other)
    if not input.type.scalar.is_floating() or not other.type.scalar.is_floating():
        raise TypeError("both operands of fdiv must have floating-point type")
    input, other = binary_op_type_checking_impl(input, other, False, False, False, True)
    if ieee_rounding and input.type.scalar.name == "fp32":
        # correctly rounded, as its documentation says (Triton's ignores the flag, and its f32
        # division, like ours on CUDA, is div.full within 2 ulp)
        return _binary("precise_divf", input, other)
    return _binary("divf", input, other)


def mod(input, other) -> tensor:  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other, False, False, True, True)
    scalar_ty = input.type.scalar
    if scalar_ty.is_floating():
        return _binary("remf", input, other)
    if scalar_ty.is_int():
        return _binary("remsi" if scalar_ty.is_int_signed() else "remui", input, other)
    raise TypeError(f"unexpected type {scalar_ty}")


def pow(input, other) -> tensor:  # noqa: A001,A002
    input, other = binary_op_type_checking_impl(input, other)
    scalar_ty = input.type.scalar
    if scalar_ty.is_floating():
        if scalar_ty.is_fp8():
            raise TypeError("** is not supported for fp8")
        return _binary("powf", input, other)
    if scalar_ty.is_int():
        return _binary("ipowi", input, other)
    raise TypeError(f"unexpected type {scalar_ty} for **")


def _binary(op: str, a: tensor, b: tensor) -> tensor:
    return tensor(_b().binary(op, a.handle, b.handle, a.type), a.type)


def minimum(x, y, propagate_nan=tl.PropagateNan.NONE) -> tensor:
    x, y = binary_op_type_checking_impl(x, y)
    dt = x.dtype
    propagate_nan = _unwrap(propagate_nan)
    if dt.is_floating():
        return _binary("minimumf" if propagate_nan == tl.PropagateNan.ALL else "minnumf", x, y)
    if dt.is_int_signed():
        return _binary("minsi", x, y)
    if dt.is_int_unsigned():
        return _binary("minui", x, y)
    raise TypeError(f"unexpected dtype {dt}")


def maximum(x, y, propagate_nan=tl.PropagateNan.NONE) -> tensor:
    x, y = binary_op_type_checking_impl(x, y)
    dt = x.dtype
    propagate_nan = _unwrap(propagate_nan)
    if dt.is_floating():
        return _binary("maximumf" if propagate_nan == tl.PropagateNan.ALL else "maxnumf", x, y)
    if dt.is_int_signed():
        return _binary("maxsi", x, y)
    if dt.is_int_unsigned():
        return _binary("maxui", x, y)
    raise TypeError(f"unexpected dtype {dt}")


def clamp(x, min, max, propagate_nan=tl.PropagateNan.NONE) -> tensor:  # noqa: A002
    min, max = binary_op_type_checking_impl(min, max)
    x, min = binary_op_type_checking_impl(x, min)
    x, max = binary_op_type_checking_impl(x, max)
    min, max = broadcast_impl_shape_like(min, x), broadcast_impl_shape_like(max, x)
    if not x.dtype.is_floating():
        raise TypeError(f"unexpected dtype {x.dtype}: only floating-point clamp is supported")
    handle = _b().clampf(x.handle, min.handle, max.handle, int(_unwrap(propagate_nan)), x.type)
    return tensor(handle, x.type)


def broadcast_impl_shape_like(value: tensor, like: tensor) -> tensor:
    if like.type.is_block():
        return broadcast_impl_shape(value, like.shape)
    return value


# -- bitwise -------------------------------------------------------------------------------------


def bitwise_op_type_checking_impl(input, other):  # noqa: A002
    input, other = binary_op_type_checking_impl(input, other)
    a_ty, b_ty = input.type.scalar, other.type.scalar
    if not a_ty.is_int() or not b_ty.is_int():
        raise TypeError(f"invalid operands of type {a_ty} and {b_ty}")
    ret_ty = integer_promote_impl(a_ty, b_ty)
    if ret_ty != a_ty:
        input = cast(input, ret_ty)
    if ret_ty != b_ty:
        other = cast(other, ret_ty)
    return input, other


def and_(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("andi", input, other)


def or_(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("ori", input, other)


def xor_(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("xori", input, other)


def logical_and(input, other) -> tensor:  # noqa: A002
    input, other = to_tensor(input), to_tensor(other)
    if not input.type.scalar.is_bool():
        input = cast(input, tl.int1)
    if not other.type.scalar.is_bool():
        other = cast(other, tl.int1)
    return and_(input, other)


def logical_or(input, other) -> tensor:  # noqa: A002
    input, other = to_tensor(input), to_tensor(other)
    if not input.type.scalar.is_bool():
        input = cast(input, tl.int1)
    if not other.type.scalar.is_bool():
        other = cast(other, tl.int1)
    return or_(input, other)


def not_(input) -> tensor:  # noqa: A002
    input = to_tensor(input)
    if not input.type.scalar.is_bool():
        input = cast(input, tl.int1)
    return invert(input)


def shl(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("shli", input, other)


def shr(input, other) -> tensor:  # noqa: A002
    """``>>``: arithmetic when the left operand is a signed integer, logical otherwise, as
    Triton: the signedness of the left operand as written decides, before both operands are
    promoted (``int8 >> uint16`` sign-extends to uint16 and shifts arithmetically)."""
    signed = not _is_number(input) and _as_tensor(input).type.scalar.is_int_signed()
    return ashr(input, other) if signed else lshr(input, other)


def lshr(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("shrui", input, other)


def ashr(input, other) -> tensor:  # noqa: A002
    input, other = bitwise_op_type_checking_impl(input, other)
    return _binary("shrsi", input, other)


# -- unary ---------------------------------------------------------------------------------------


def minus(input) -> tensor:  # noqa: A002
    input = to_tensor(input)
    scalar_ty = input.type.scalar
    if scalar_ty.is_ptr():
        raise TypeError(f"wrong type argument to unary minus ({scalar_ty})")
    if scalar_ty.is_floating():
        return tensor(_b().unary("negf", input.handle, input.type), input.type)
    return sub(scalar_constant(0, scalar_ty), input)


def invert(input) -> tensor:  # noqa: A002
    input = to_tensor(input)
    scalar_ty = input.type.scalar
    if scalar_ty.is_ptr() or scalar_ty.is_floating():
        raise TypeError(f"wrong type argument to unary invert ({scalar_ty})")
    ones = scalar_constant(True if scalar_ty.is_bool() else _all_ones(scalar_ty), scalar_ty)
    return xor_(input, ones)


def _all_ones(scalar_ty: dtype) -> int:
    return -1 if scalar_ty.is_int_signed() else scalar_ty.get_int_max_value()


def unary_math(op: str, x, allowed: Sequence[str] | None = None) -> tensor:
    """A `math` op on a floating-point tensor (integers are rejected, as in Triton)."""
    x = to_tensor(x)
    if allowed is not None and x.dtype.name not in allowed:
        raise ValueError(f"expected dtype {list(allowed)} but got {x.dtype.name}")
    if not x.dtype.is_floating():
        raise ValueError(f"{op} expects a floating-point tensor, got {x.dtype}")
    return tensor(_b().unary(op, x.handle, x.type), x.type)


def abs(x) -> tensor:  # noqa: A001
    x = to_tensor(x)
    dt = x.dtype
    if dt.is_floating():
        return tensor(_b().unary("absf", x.handle, x.type), x.type)
    if dt.is_int_signed():
        return tensor(_b().unary("absi", x.handle, x.type), x.type)
    if dt.is_int_unsigned():
        return x
    raise TypeError(f"unexpected dtype {dt} for abs")


# -- comparisons ---------------------------------------------------------------------------------


def _bool_like(x: tensor) -> dtype:
    return x.type.with_element_ty(tl.int1) if x.type.is_block() else tl.int1


def _compare(input, other, fpred: str, spred: str, upred: str) -> tensor:
    input, other = binary_op_type_checking_impl(input, other)
    scalar_ty = input.type.scalar
    ret = _bool_like(input)
    if scalar_ty.is_floating():
        return tensor(_b().cmpf(fpred, input.handle, other.handle, ret), ret)
    if scalar_ty.is_int():
        pred = spred if scalar_ty.is_int_signed() else upred
        return tensor(_b().cmpi(pred, input.handle, other.handle, ret), ret)
    if scalar_ty.is_ptr():
        a, b = cast(input, tl.int64), cast(other, tl.int64)
        return tensor(_b().cmpi(upred, a.handle, b.handle, ret), ret)
    raise TypeError(f"unexpected type {scalar_ty}")


def greater_than(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "ogt", "sgt", "ugt")


def greater_equal(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "oge", "sge", "uge")


def less_than(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "olt", "slt", "ult")


def less_equal(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "ole", "sle", "ule")


def equal(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "oeq", "eq", "eq")


def not_equal(input, other) -> tensor:  # noqa: A002
    return _compare(input, other, "une", "ne", "ne")


# -- creation ------------------------------------------------------------------------------------


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def validate_block_shape(shape) -> tuple[int, ...]:
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int):
            raise TypeError(f"shape element {i} must have type `constexpr[int]`, got "
                            f"{type(d).__name__}")
        if not _is_power_of_two(d):
            raise ValueError(f"shape element {i} must be a power of 2, got {d}")
        numel *= d
    if numel > 1 << 20:
        raise ValueError(f"a tensor may have at most {1 << 20} elements, got {numel}")
    return tuple(shape)


def arange(start, end) -> tensor:
    start, end = _unwrap(start), _unwrap(end)
    if isinstance(start, tensor) or isinstance(end, tensor) or not isinstance(start, int) \
            or not isinstance(end, int):
        raise ValueError("arange's arguments must be of type tl.constexpr")
    if start >> 32 or end >> 32:
        raise ValueError("arange must fit in int32")
    if end <= start:
        raise ValueError("arange's end argument must be greater than the start argument")
    size = end - start
    if not _is_power_of_two(size):
        raise ValueError(f"arange's range must be a power of 2, got {size} "
                         f"(arange({start}, {end}))")
    ret_ty = block_type(tl.int32, [size])
    return tensor(_b().make_range(start, end, ret_ty), ret_ty)


def full(shape, value, dtype_) -> tensor:
    shape = validate_block_shape(tl._unwrap_shape(shape))
    dtype_ = _unwrap(dtype_)
    if not isinstance(dtype_, dtype):
        raise TypeError(f"full expects a dtype, got {dtype_!r}")
    value = _unwrap(value)
    if isinstance(value, tensor):
        if value.type.is_block():
            if value.numel != 1:
                raise ValueError("full's value must be a scalar")
            value = to_scalar(reshape(value, [1]))
        scalar = cast(value, dtype_)
    else:
        scalar = scalar_constant(value, dtype_)
    if not shape:
        return scalar
    return splat(scalar, shape)


def splat(value: tensor, shape) -> tensor:
    if value.type.is_block():
        raise ValueError("cannot splat a block tensor")
    if not shape:
        return value
    ret_ty = block_type(value.dtype, shape)
    return tensor(_b().splat(value.handle, ret_ty), ret_ty)


# -- shapes --------------------------------------------------------------------------------------


def reshape(input: tensor, dst_shape, can_reorder: bool = False) -> tensor:
    dst_shape = tl._unwrap_shape(dst_shape)
    numel = 1
    for s in dst_shape:
        numel *= s
    if input.numel != numel:
        raise ValueError(f"reshape cannot change the number of elements: {list(input.shape)} "
                         f"has {input.numel}, {list(dst_shape)} has {numel}")
    if not dst_shape:
        if not input.type.is_block():
            return input
        raise ValueError("reshape to a scalar is not supported; use tl.sum or indexing")
    if not input.type.is_block():
        return splat(input, dst_shape)
    ret_ty = block_type(input.type.scalar, dst_shape)
    if ret_ty == input.type:
        return input
    return tensor(_b().reshape(input.handle, ret_ty, bool(_unwrap(can_reorder))), ret_ty)


def wrap_axis(axis: int, rank: int) -> int:
    """``axis`` of a tensor of ``rank`` counted from 0 (a negative one from the end)."""
    if not -rank <= axis < rank:
        raise ValueError(f"invalid axis {axis}. Expected {-rank} <= axis < {rank}")
    return axis + rank if axis < 0 else axis


def expand_dims(input: tensor, axis: int) -> tensor:
    input = to_tensor(input)
    axis = wrap_axis(_unwrap(axis), len(input.shape) + 1)
    dst_shape = list(input.shape)
    dst_shape.insert(axis, 1)
    if not input.type.is_block():
        return splat(input, dst_shape)
    ret_ty = block_type(input.type.scalar, dst_shape)
    return tensor(_b().expand_dims(input.handle, axis, ret_ty), ret_ty)


def cat(lhs: tensor, rhs: tensor, can_reorder: bool, dim=0) -> tensor:
    """``tl.cat``: with ``can_reorder=True`` the two 1-D tensors in any order (``tt.cat``);
    otherwise ``lhs`` then ``rhs`` along ``dim``, as a join, a permute and a reshape."""
    if _unwrap(can_reorder):
        if len(lhs.shape) != 1 or lhs.type != rhs.type:
            raise ValueError("cat needs two 1-D tensors of the same type")
        ret_ty = block_type(lhs.type.scalar, [lhs.shape[0] + rhs.shape[0]])
        return tensor(_b().cat(lhs.handle, rhs.handle, ret_ty), ret_ty)
    rank = len(lhs.shape)
    if rank != len(rhs.shape):
        raise ValueError(f"tensors must have the same rank, got {rank} and {len(rhs.shape)}")
    dim = _unwrap(dim)
    if not -rank <= dim < rank:
        raise ValueError(f"invalid axis {dim}. Expected {-rank} <= axis < {rank}")
    dim %= rank
    if any(lhs.shape[i] != rhs.shape[i] for i in builtins.range(rank) if i != dim):
        raise ValueError(f"tensor dims must match except in the concat dimension {dim}, got "
                         f"{list(lhs.shape)} and {list(rhs.shape)}")
    order = list(builtins.range(rank))
    order.insert(dim, rank)
    joined = permute(join(lhs, rhs), order)
    shape = list(lhs.shape)
    shape[dim] += rhs.shape[dim]
    return reshape(joined, shape)


def join(a, b) -> tensor:
    a, b = broadcast_impl_value(to_tensor(a), to_tensor(b))
    if a.type != b.type:
        raise TypeError(f"join needs tensors of the same type, got {a.type} and {b.type}")
    was_scalar = not a.type.is_block()
    if was_scalar:
        a, b = expand_dims(a, 0), expand_dims(b, 0)
    ret_ty = block_type(a.type.scalar, [*a.shape, 2])
    ret = tensor(_b().join(a.handle, b.handle, ret_ty), ret_ty)
    if was_scalar:
        ret = reshape(ret, [2])
    return ret


def split(a: tensor) -> tuple[tensor, tensor]:
    if not a.type.is_block() or a.shape[-1] != 2:
        raise ValueError(f"split needs a tensor whose last dimension is 2, got "
                         f"{list(a.shape)}")
    was_rank_1 = len(a.shape) == 1
    if was_rank_1:
        a = expand_dims(a, 0)
    new_shape = a.shape[:-1]
    ret_ty = block_type(a.type.scalar, new_shape)
    lhs, rhs = _b().split(a.handle, ret_ty)
    out = (tensor(lhs, ret_ty), tensor(rhs, ret_ty))
    if was_rank_1:
        out = tuple(to_scalar(t) for t in out)
    return out


def to_scalar(t: tensor) -> tensor:
    """The element of a one-element 1-D tensor, as a scalar (a reduction that keeps its first
    operand: the dialect has no unsplat op)."""
    if not t.type.is_block():
        return t
    if t.shape != (1,):
        raise ValueError(f"expected a tensor of shape [1], got {list(t.shape)}")
    return reduction([t], 0, lambda args: [args[0]])[0]


def item(input: tensor) -> tensor:  # noqa: A002
    """The element of a tensor with exactly one element, as a scalar (Triton's unsplat)."""
    if not input.type.is_block():
        return input
    if input.numel != 1:
        raise ValueError(f"item() needs a tensor with exactly one element, got shape "
                         f"{list(input.shape)}")
    return to_scalar(reshape(input, [1]))


def permute(input: tensor, dims) -> tensor:
    dims = tuple(_unwrap(d) for d in dims)
    if len(input.shape) != len(dims):
        raise ValueError("permute dims must have the same length as the input shape")
    if sorted(dims) != list(range(len(dims))):
        raise ValueError(f"permute dims must be a permutation of 0, 1, ..., n-1, but were "
                         f"{list(dims)}")
    if dims == tuple(range(len(dims))):
        return input
    ret_ty = block_type(input.type.scalar, [input.shape[d] for d in dims])
    return tensor(_b().trans(input.handle, dims, ret_ty), ret_ty)


def trans(input: tensor, *dims) -> tensor:  # noqa: A002
    if len(dims) == 1 and isinstance(_unwrap(dims[0]), (tuple, list)):
        dims = tuple(_unwrap(dims[0]))
    if not dims:  # swaps the last two axes (a batched 2-D transpose), as Triton
        rank = len(input.shape)
        if rank < 2:
            raise ValueError("trans without dims needs a tensor of rank 2 or more")
        dims = (*builtins.range(rank - 2), rank - 1, rank - 2)
    return permute(input, dims)


def broadcast_impl_shape(input: tensor, shape) -> tensor:
    shape = tuple(shape)
    if not input.type.is_block():
        return splat(input, shape)
    src_shape = input.shape
    if len(src_shape) != len(shape):
        raise ValueError(f"cannot broadcast, rank mismatch: {list(src_shape)}, {list(shape)}")
    if shape == src_shape:
        return input
    for i, item in enumerate(src_shape):
        if shape[i] != item and item != 1:
            raise ValueError(f"cannot broadcast shape {list(src_shape)} to {list(shape)}: "
                             f"dimension {i} has size {item}, expected 1 or {shape[i]}")
    ret_ty = block_type(input.type.scalar, shape)
    return tensor(_b().broadcast(input.handle, ret_ty), ret_ty)


def broadcast_impl_value(lhs: tensor, rhs: tensor) -> tuple[tensor, tensor]:
    lhs_ty, rhs_ty = lhs.type, rhs.type
    if lhs_ty.is_block() and not rhs_ty.is_block():
        rhs = splat(rhs, lhs.shape)
    elif not lhs_ty.is_block() and rhs_ty.is_block():
        lhs = splat(lhs, rhs.shape)
    elif lhs_ty.is_block() and rhs_ty.is_block():
        lhs_shape, rhs_shape = lhs.shape, rhs.shape
        original = (list(lhs_shape), list(rhs_shape))
        while len(lhs_shape) < len(rhs_shape):
            lhs = expand_dims(lhs, 0)
            lhs_shape = lhs.shape
        while len(rhs_shape) < len(lhs_shape):
            rhs = expand_dims(rhs, 0)
            rhs_shape = rhs.shape
        ret_shape = []
        for left, right in zip(lhs_shape, rhs_shape):
            if left == 1:
                ret_shape.append(right)
            elif right == 1 or right == left:
                ret_shape.append(left)
            else:
                raise ValueError(f"cannot broadcast shapes {original[0]} and {original[1]}")
        ret_shape = tuple(ret_shape)
        if lhs_shape != ret_shape:
            lhs = broadcast_impl_shape(lhs, ret_shape)
        if rhs_shape != ret_shape:
            rhs = broadcast_impl_shape(rhs, ret_shape)
    return lhs, rhs


def broadcast_tensors(*inputs: tensor) -> tuple[tensor, ...]:
    if not inputs:
        return ()
    head, *tail = inputs
    for i in range(len(tail)):
        head, tail[i] = broadcast_impl_value(head, tail[i])
    for i in range(len(tail)):
        head, tail[i] = broadcast_impl_value(head, tail[i])
    return (head, *tail)


def getitem(input: tensor, slices) -> tensor:  # noqa: A002
    """``x[None, :]``: only ``None`` (a new dimension of size 1) and ``:`` are supported; as in
    Triton, a ``:`` past the last dimension is ignored (``scalar[None, None, :]`` is [1, 1])."""
    if not isinstance(slices, tuple):
        slices = (slices,)
    slices = tuple(_unwrap(s) for s in slices)
    ret = input
    dim = 0
    for s in slices:
        if s is None:
            ret = expand_dims(ret, dim)
            dim += 1
        elif isinstance(s, slice) and s.start is None and s.stop is None and s.step is None:
            dim += 1
        else:
            raise ValueError(f"unsupported tensor index {s!r}: only None and ':' are supported")
    return ret


# -- casts ---------------------------------------------------------------------------------------

_ROUNDING = ("rtne", "rtz")


def bitcast(input, dst_ty: dtype) -> tensor:  # noqa: A002
    input = to_tensor(input)
    dst_ty = _unwrap(dst_ty)
    src_ty = input.type
    dst_full = src_ty.with_element_ty(dst_ty.scalar) if src_ty.is_block() else dst_ty
    if src_ty == dst_full:
        return input
    src_sca, dst_sca = src_ty.scalar, dst_ty.scalar
    if src_sca.is_ptr() or dst_sca.is_ptr():
        return cast(input, dst_ty)
    if src_sca.primitive_bitwidth != dst_sca.primitive_bitwidth:
        raise ValueError(f"cannot bitcast data-type of size {src_sca.primitive_bitwidth} to "
                         f"data-type of size {dst_sca.primitive_bitwidth}")
    return tensor(_b().cast("bitcast", input.handle, input.type, dst_full), dst_full)


def cast(input, dst_ty: dtype, fp_downcast_rounding: str | None = None) -> tensor:  # noqa: A002
    input = to_tensor(input)
    dst_ty = _unwrap(dst_ty)
    if not isinstance(dst_ty, dtype):
        raise TypeError(f"cannot cast to {dst_ty!r}: not a dtype")
    src_ty = input.type
    src_sca, dst_sca = src_ty.scalar, dst_ty.scalar
    if src_sca == dst_sca:
        return input
    if src_ty.is_block():
        dst_ty = src_ty.with_element_ty(dst_sca)
    else:
        dst_ty = dst_sca
    b = _b()
    rounding = _unwrap(fp_downcast_rounding)
    use_custom_rounding = False
    if dst_sca.is_floating() and src_sca.is_floating() and \
            dst_sca.primitive_bitwidth < src_sca.primitive_bitwidth:
        if rounding is None:
            rounding = "rtne"
        elif rounding not in _ROUNDING:
            raise ValueError(f"invalid rounding mode {rounding!r}: use 'rtne' or 'rtz'")
        elif rounding != "rtne":
            use_custom_rounding = True
    elif rounding is not None:
        raise ValueError("fp_downcast_rounding should be set only for truncating fp "
                         f"conversions; the source type is {src_sca} and the destination type "
                         f"is {dst_sca}")

    if (src_sca.is_fp8() and dst_sca.is_floating()) or \
            (src_sca.is_floating() and dst_sca.is_fp8()) or use_custom_rounding:
        downcast = dst_sca.primitive_bitwidth < src_sca.primitive_bitwidth
        return tensor(b.cast("fp_to_fp", input.handle, input.type, dst_ty, rounding if downcast else None),
                      dst_ty)
    if (src_sca.is_fp16() and not dst_sca.is_fp32()) or \
            (src_sca.is_bf16() and not dst_sca.is_fp32()):
        return cast(cast(input, tl.float32), dst_sca)
    if src_sca.is_floating() and dst_sca.is_floating():
        if src_sca.primitive_bitwidth > dst_sca.primitive_bitwidth:
            return tensor(b.cast("truncf", input.handle, input.type, dst_ty), dst_ty)
        return tensor(b.cast("extf", input.handle, input.type, dst_ty), dst_ty)
    if src_sca.is_int() and dst_sca.is_int():
        if dst_sca.is_bool():
            return not_equal(input, scalar_constant(0, src_sca))
        sign_extend = src_sca.is_int_signed() and not src_sca.is_bool()
        op = "int_cast_signed" if sign_extend else "int_cast_unsigned"
        return tensor(b.cast(op, input.handle, input.type, dst_ty), dst_ty)
    if src_sca.is_standard_floating() and dst_sca.is_int():
        if dst_sca.is_bool():
            return not_equal(input, scalar_constant(0.0, src_sca))
        op = "fptosi" if dst_sca.is_int_signed() else "fptoui"
        return tensor(b.cast(op, input.handle, input.type, dst_ty), dst_ty)
    if src_sca.is_int() and dst_sca.is_standard_floating():
        op = "uitofp" if src_sca.is_bool() or not src_sca.is_int_signed() else "sitofp"
        return tensor(b.cast(op, input.handle, input.type, dst_ty), dst_ty)
    if src_sca.is_ptr() and dst_sca.is_int():
        if dst_sca.int_bitwidth == 64:
            return tensor(b.cast("ptr_to_int", input.handle, input.type, dst_ty), dst_ty)
        if dst_sca.is_bool():
            return not_equal(cast(input, tl.int64), scalar_constant(0, tl.int64))
        return cast(cast(input, tl.int64), dst_sca)
    if src_sca.is_int() and dst_sca.is_ptr():
        if src_sca != tl.int64:
            input = cast(input, tl.int64 if not src_sca.is_int_unsigned() else tl.uint64)
        return tensor(b.cast("int_to_ptr", input.handle, input.type, dst_ty), dst_ty)
    if src_sca.is_ptr() and dst_sca.is_ptr():
        return tensor(b.cast("bitcast", input.handle, input.type, dst_ty), dst_ty)
    raise TypeError(f"cannot cast {src_ty} to {dst_sca}")


# -- memory --------------------------------------------------------------------------------------

_LOAD_CACHE = {"": "none", None: "none", ".ca": "ca", ".cg": "cg", ".cv": "cv"}
_STORE_CACHE = {"": "none", None: "none", ".wb": "wb", ".cg": "cg", ".cs": "cs", ".wt": "wt"}
_EVICTION = {"": "evict_normal", None: "evict_normal", "evict_normal": "evict_normal",
             "evict_first": "evict_first", "evict_last": "evict_last"}
_SEM = {None: "acq_rel", "": "acq_rel", "acquire": "acquire", "release": "release",
        "acq_rel": "acq_rel", "relaxed": "relaxed"}
_SCOPE = {None: "gpu", "": "gpu", "gpu": "gpu", "cta": "cta", "sys": "sys"}


def _option(table: dict, value, what: str) -> str:
    value = _unwrap(value)
    if value not in table:
        choices = ", ".join(repr(k) for k in table if k)
        raise ValueError(f"{what} {value!r} is not supported (use one of {choices})")
    return table[value]


def _canonicalize_boundary_check(boundary_check, block_shape) -> tuple[int, ...]:
    boundary_check = _unwrap(boundary_check)
    if not boundary_check:
        return ()
    if not isinstance(boundary_check, (tuple, list)):
        boundary_check = [boundary_check]
    dims = [_unwrap(d) for d in boundary_check]
    for dim in dims:
        if not isinstance(dim, int) or not 0 <= dim < len(block_shape):
            raise ValueError(f"boundary_check dimension {dim!r} is out of range for a block of "
                             f"rank {len(block_shape)}")
    if len(dims) != len(set(dims)):
        raise ValueError("duplicate dimension in boundary_check")
    return tuple(sorted(dims))


def _is_block_pointer(ptr: tensor) -> bool:
    return ptr.type.is_ptr() and ptr.type.element_ty.is_block()


def load(ptr, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False) -> tensor:
    ptr = _unwrap(ptr)
    if not isinstance(ptr, tensor):
        raise TypeError(f"load expects a pointer tensor, got {ptr!r}")
    mask, other = _unwrap(mask), _unwrap(other)
    cache = _option(_LOAD_CACHE, cache_modifier, "cache modifier")
    eviction = _option(_EVICTION, eviction_policy, "eviction policy")
    padding = _unwrap(padding_option) or None
    if padding not in (None, "zero", "nan"):
        raise ValueError(f"padding option {padding!r} is not supported (use 'zero' or 'nan')")
    volatile = bool(_unwrap(volatile))
    b = _b()
    if _is_block_pointer(ptr):
        if mask is not None or other is not None:
            raise ValueError("`mask` and `other` cannot be given when loading through a block "
                             "pointer; use boundary_check and padding_option")
        dst_ty = ptr.type.element_ty
        if dst_ty.scalar.is_int() and padding == "nan":
            raise ValueError("padding option `nan` is not supported for integer block pointers")
        checks = _canonicalize_boundary_check(boundary_check, dst_ty.shape)
        handle = b.load_block(ptr.handle, checks, padding, dst_ty, cache, eviction, volatile)
        return tensor(handle, dst_ty)
    if not ptr.type.scalar.is_ptr():
        raise TypeError(f"unsupported pointer type {ptr.type} in tl.load")
    if mask is None and other is not None:
        raise ValueError("`other` cannot be given without `mask`")
    if padding or _unwrap(boundary_check):
        raise ValueError("`padding_option` and `boundary_check` are only supported when "
                         "loading through a block pointer (tl.make_block_ptr)")
    if mask is not None:
        mask = to_tensor(mask)
    if other is not None:
        other = to_tensor(other)
    if not ptr.type.is_block():
        if mask is not None and mask.type.is_block():
            raise ValueError("mask cannot be a block when the pointer is a scalar")
        if other is not None and other.type.is_block():
            raise ValueError("other cannot be a block when the pointer is a scalar")
    if ptr.type.is_block():
        if mask is not None:
            ptr, mask = broadcast_impl_value(ptr, mask)
        if other is not None:
            ptr, other = broadcast_impl_value(ptr, other)
            if mask is not None:
                ptr, mask = broadcast_impl_value(ptr, mask)
    if mask is not None and not mask.type.scalar.is_bool():
        raise ValueError(f"mask must have boolean type, got {mask.type.scalar}")
    ptr_ty = ptr.type.scalar
    elt_ty = ptr_ty.element_ty
    is_bool = elt_ty == tl.int1
    if is_bool:
        elt_ty = tl.int8
        ptr = cast(ptr, pointer_type(elt_ty, ptr_ty.address_space))
    if other is not None:
        other = cast(other, elt_ty)
    dst_ty = ptr.type.with_element_ty(elt_ty) if ptr.type.is_block() else elt_ty
    handle = b.load(ptr.handle, None if mask is None else mask.handle,
                    None if other is None else other.handle, dst_ty, cache, eviction, volatile)
    ret = tensor(handle, dst_ty)
    if is_bool:
        ret = cast(ret, tl.int1)
    return ret


def store(ptr, val, mask=None, boundary_check=None, cache_modifier="", eviction_policy=""):
    ptr = _unwrap(ptr)
    if not isinstance(ptr, tensor):
        raise TypeError(f"store expects a pointer tensor, got {ptr!r}")
    val = to_tensor(_unwrap(val))
    mask = _unwrap(mask)
    cache = _option(_STORE_CACHE, cache_modifier, "cache modifier")
    eviction = _option(_EVICTION, eviction_policy, "eviction policy")
    b = _b()
    if ptr.type.is_const() or ptr.type.scalar.is_const():
        raise ValueError("cannot store to a constant pointer")
    if _is_block_pointer(ptr):
        if mask is not None:
            raise ValueError("`mask` cannot be given when storing through a block pointer; use "
                             "boundary_check")
        block_ty = ptr.type.element_ty
        if not val.type.is_block():
            val = broadcast_impl_shape(val, block_ty.shape)
        if val.shape != block_ty.shape:
            raise ValueError(f"block shape {list(block_ty.shape)} and value shape "
                             f"{list(val.shape)} mismatch")
        val = cast(val, block_ty.scalar)
        checks = _canonicalize_boundary_check(boundary_check, block_ty.shape)
        b.store_block(ptr.handle, val.handle, checks, cache, eviction)
        return None
    if not ptr.type.scalar.is_ptr():
        raise TypeError(f"unsupported pointer type {ptr.type} in tl.store")
    if _unwrap(boundary_check):
        raise ValueError("`boundary_check` is only supported when storing through a block "
                         "pointer (tl.make_block_ptr)")
    if mask is not None:
        mask = to_tensor(mask)
    if not ptr.type.is_block():
        if val.type.is_block():
            raise ValueError("the value cannot be a block when the pointer is a scalar")
        if mask is not None and mask.type.is_block():
            raise ValueError("mask cannot be a block when the pointer is a scalar")
    if ptr.type.is_block():
        ptr_shape = ptr.shape
        if mask is None:
            ptr, val = broadcast_impl_value(ptr, val)
        else:
            ptr, val, mask = broadcast_tensors(ptr, val, mask)
        if ptr.shape != ptr_shape:
            raise ValueError(f"cannot store a value of shape {list(val.shape)} through "
                             f"pointers of shape {list(ptr_shape)}")
    if mask is not None and not mask.type.scalar.is_bool():
        raise ValueError(f"mask must have boolean type, got {mask.type.scalar}")
    ptr_ty = ptr.type.scalar
    elt_ty = ptr_ty.element_ty
    if elt_ty == tl.int1:
        elt_ty = tl.int8
        ptr = cast(ptr, pointer_type(elt_ty, ptr_ty.address_space))
    val = cast(val, elt_ty)
    b.store(ptr.handle, val.handle, None if mask is None else mask.handle, val.type, cache,
            eviction)
    return None


def make_block_ptr(base, shape, strides, offsets, block_shape, order) -> tensor:
    base = _unwrap(base)
    if not isinstance(base, tensor) or not base.type.is_ptr() or \
            base.type.element_ty.is_block():
        raise ValueError("make_block_ptr expects a scalar pointer as its base")
    shape, strides, offsets = (tuple(_unwrap(shape)), tuple(_unwrap(strides)),
                               tuple(_unwrap(offsets)))
    block_shape = tl._unwrap_shape(block_shape)
    order = tuple(_unwrap(o) for o in _unwrap(order))
    if not (len(shape) == len(strides) == len(offsets) == len(block_shape) == len(order)):
        raise ValueError("make_block_ptr: shape, strides, offsets, block_shape and order must "
                         "have the same length")
    if sorted(order) != list(range(len(order))):
        raise ValueError("make_block_ptr: order must be a permutation of 0, ..., rank - 1")
    validate_block_shape(block_shape)
    elt_ty = base.type.element_ty
    if elt_ty == tl.int1:
        elt_ty = tl.int8
        base = cast(base, pointer_type(elt_ty, base.type.address_space))
    shape_h = [_index_value(s, tl.int64).handle for s in shape]
    strides_h = [_index_value(s, tl.int64).handle for s in strides]
    offsets_h = [_index_value(s, tl.int32).handle for s in offsets]
    ret_ty = pointer_type(block_type(elt_ty, block_shape), base.type.address_space)
    handle = _b().make_block_ptr(base.handle, shape_h, strides_h, offsets_h, order, ret_ty)
    return tensor(handle, ret_ty)


def _index_value(value, dst: dtype) -> tensor:
    value = _unwrap(value)
    if isinstance(value, tensor):
        if value.type.is_block() or not value.dtype.is_int():
            raise ValueError("block pointer shapes, strides and offsets must be integer scalars")
        return cast(value, dst)
    number = _python_number(value)
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return scalar_constant(number, dst)


def advance(base: tensor, offsets) -> tensor:
    if not isinstance(base, tensor) or not _is_block_pointer(base):
        raise ValueError("advance expects a block pointer (from tl.make_block_ptr)")
    offsets = tuple(_unwrap(offsets))
    if len(offsets) != len(base.type.element_ty.shape):
        raise ValueError("advance needs one offset per dimension of the block")
    handles = [_index_value(o, tl.int32).handle for o in offsets]
    return tensor(_b().advance(base.handle, handles, base.type), base.type)


# -- tensor descriptors --------------------------------------------------------------------------


def make_tensor_descriptor(base, shape, strides, block_shape,
                           padding_option="zero") -> tl.tensor_descriptor:
    """A descriptor of ``block_shape`` blocks of the tensor at ``base`` (Triton's rules: rank 1
    to 5, the last stride the constant 1, at least 16 bytes per block row)."""
    base = _unwrap(base)
    if not isinstance(base, tensor) or not base.type.is_ptr() or \
            base.type.element_ty.is_block():
        raise ValueError("make_tensor_descriptor expects a scalar pointer as its base")
    shape, strides = list(_unwrap(shape)), list(_unwrap(strides))
    block_shape = list(tl._unwrap_shape(block_shape))
    rank = len(block_shape)
    if not 1 <= rank <= 5:
        raise ValueError(f"a tensor descriptor has rank 1 to 5, got {rank}")
    if not len(shape) == len(strides) == rank:
        raise ValueError(f"make_tensor_descriptor: {len(shape)} sizes and {len(strides)} "
                         f"strides for a block of rank {rank}")
    last_stride = _unwrap(strides[-1])
    if isinstance(last_stride, tensor) or last_stride != 1:
        raise ValueError("a tensor descriptor's last stride must be the constant 1")
    validate_block_shape(block_shape)
    element = base.type.element_ty
    if element == tl.int1 or element.is_ptr():
        raise ValueError(f"a tensor descriptor cannot hold {element} elements")
    if block_shape[-1] * element.primitive_bitwidth // 8 < 16:
        size = element.primitive_bitwidth // 8
        raise ValueError(f"Descriptor block shape must have at least 16 bytes in the last "
                         f"dimension, but got {block_shape[-1]} * {size} = "
                         f"{block_shape[-1] * size} bytes")
    padding = _unwrap(padding_option)
    if padding not in ("zero", "nan"):
        raise ValueError(f"padding option {padding!r} is not supported (use 'zero' or 'nan')")
    if padding == "nan" and not element.is_floating():
        raise ValueError("padding option 'nan' needs a floating-point element type")
    ty = tl.tensor_descriptor_type(block_type(element, block_shape))
    handle = _b().make_tensor_descriptor(base.handle,
                                         [_index_value(s, tl.int32).handle for s in shape],
                                         [_index_value(s, tl.int64).handle for s in strides],
                                         padding, ty)
    return tensor(handle, ty)


def _descriptor_indices(desc, offsets) -> list:
    if not isinstance(desc, tl.tensor_descriptor):
        raise TypeError(f"expected a tensor descriptor, got {desc!r}")
    offsets = _unwrap(offsets)
    offsets = list(offsets) if isinstance(offsets, (list, tuple)) else [offsets]
    if len(offsets) != len(desc.block_shape):
        raise ValueError(f"a descriptor of rank {len(desc.block_shape)} takes "
                         f"{len(desc.block_shape)} offsets, got {len(offsets)}")
    return [_index_value(o, tl.int32).handle for o in offsets]


def descriptor_load(desc, offsets) -> tensor:
    indices = _descriptor_indices(desc, offsets)
    ty = desc.block_type
    return tensor(_b().descriptor_load(desc.handle, indices, ty), ty)


def descriptor_store(desc, offsets, value) -> None:
    indices = _descriptor_indices(desc, offsets)
    ty = desc.block_type
    value = to_tensor(_unwrap(value))
    if not value.type.is_block():
        value = broadcast_impl_shape(value, ty.shape)
    if value.shape != ty.shape:
        raise ValueError(f"a descriptor of block shape {list(ty.shape)} cannot store a value of "
                         f"shape {list(value.shape)}")
    value = cast(value, ty.element_ty)
    _b().descriptor_store(desc.handle, value.handle, indices)


# -- atomics -------------------------------------------------------------------------------------


def _atom_red_typechecking_impl(ptr, val, mask, op: str):
    ptr = _unwrap(ptr)
    if not isinstance(ptr, tensor) or not ptr.type.scalar.is_ptr():
        raise ValueError(f"the pointer argument of atomic_{op} must be a pointer, got {ptr!r}")
    if ptr.type.is_const() or ptr.type.scalar.is_const():
        raise ValueError("cannot store to a constant pointer")
    element_ty = ptr.type.scalar.element_ty
    if element_ty in (tl.float16, tl.bfloat16) and op != "add":
        raise ValueError(f"atomic_{op} does not support {element_ty}")
    if element_ty in (tl.int16, tl.uint16) or element_ty.primitive_bitwidth < 16:
        raise ValueError(f"atomic_{op} does not support {element_ty}")
    val = to_tensor(_unwrap(val))
    mask = _unwrap(mask)
    if mask is not None:
        mask = to_tensor(mask)
    if ptr.type.is_block():
        if mask is not None:
            mask = broadcast_impl_shape(mask, ptr.shape)
        val = broadcast_impl_shape(val, ptr.shape)
    elif val.type.is_block() or (mask is not None and mask.type.is_block()):
        raise ValueError("the value and mask of an atomic on a scalar pointer must be scalars")
    val = cast(val, element_ty)
    if mask is None:
        mask = scalar_constant(True, tl.int1)
        if ptr.type.is_block():
            mask = splat(mask, ptr.shape)
    elif not mask.type.scalar.is_bool():
        raise ValueError(f"mask must have boolean type, got {mask.type.scalar}")
    return ptr, val, mask


def _rmw(kind: str, ptr: tensor, val: tensor, mask: tensor, sem: str, scope: str) -> tensor:
    handle = _b().atomic_rmw(kind, ptr.handle, val.handle, mask.handle, sem, scope, val.type)
    return tensor(handle, val.type)


def _signbit(x: tensor) -> tensor:
    bitwidth = x.dtype.primitive_bitwidth
    ix = bitcast(x, tl.get_int_dtype(bitwidth, False))
    return cast(lshr(ix, bitwidth - 1), tl.int1)


def _atomic_minmax(ptr, val, mask, sem, scope, is_max: bool) -> tensor:
    name = "max" if is_max else "min"
    ptr, val, mask = _atom_red_typechecking_impl(ptr, val, mask, name)
    sem = _option(_SEM, sem, "memory semantic")
    scope = _option(_SCOPE, scope, "memory scope")
    sca_ty = val.type.scalar
    if sca_ty.is_int():
        kind = name if sca_ty.is_int_signed() else "u" + name
        return _rmw(kind, ptr, val, mask, sem, scope)
    if sca_ty not in (tl.float32, tl.float64):
        raise TypeError(f"atomic_{name} is not supported for dtype {sca_ty}")
    # floats: a signed integer max/min where the value is non-negative, an unsigned min/max of
    # the bits where it is negative (IEEE order matches the integer order of the bits)
    i_type = tl.int32 if sca_ty == tl.float32 else tl.int64
    ui_type = tl.uint32 if sca_ty == tl.float32 else tl.uint64
    i_val, ui_val = bitcast(val, i_type), bitcast(val, ui_type)
    i_ptr = bitcast(ptr, pointer_type(i_type, 1))
    ui_ptr = bitcast(ptr, pointer_type(ui_type, 1))
    neg = _signbit(val)
    pos = not_(neg)
    pos_ret = _rmw(name, i_ptr, i_val, and_(mask, pos), sem, scope)
    neg_ret = _rmw("umin" if is_max else "umax", ui_ptr, ui_val, and_(mask, neg), sem, scope)
    ret = where(pos, pos_ret, neg_ret)
    return bitcast(ret, sca_ty)


def atomic_max(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_minmax(ptr, val, mask, sem, scope, True)


def atomic_min(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_minmax(ptr, val, mask, sem, scope, False)


def _atomic_simple(op: str, kind_int: str, kind_float: str | None, ptr, val, mask, sem, scope):
    ptr, val, mask = _atom_red_typechecking_impl(ptr, val, mask, op)
    sem = _option(_SEM, sem, "memory semantic")
    scope = _option(_SCOPE, scope, "memory scope")
    sca_ty = val.type.scalar
    if sca_ty.is_floating():
        if kind_float is None:
            raise TypeError(f"atomic_{op} is not supported for dtype {sca_ty}")
        return _rmw(kind_float, ptr, val, mask, sem, scope)
    return _rmw(kind_int, ptr, val, mask, sem, scope)


def atomic_add(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_simple("add", "add", "fadd", ptr, val, mask, sem, scope)


def atomic_and(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_simple("and", "and", None, ptr, val, mask, sem, scope)


def atomic_or(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_simple("or", "or", None, ptr, val, mask, sem, scope)


def atomic_xor(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_simple("xor", "xor", None, ptr, val, mask, sem, scope)


def atomic_xchg(ptr, val, mask=None, sem=None, scope=None) -> tensor:
    return _atomic_simple("xchg", "exch", "exch", ptr, val, mask, sem, scope)


def atomic_cas(ptr, cmp, val, sem=None, scope=None) -> tensor:
    ptr = _unwrap(ptr)
    if not isinstance(ptr, tensor) or not ptr.type.scalar.is_ptr():
        raise ValueError("the pointer argument of atomic_cas must be a pointer")
    sem = _option(_SEM, sem, "memory semantic")
    scope = _option(_SCOPE, scope, "memory scope")
    element_ty = ptr.type.scalar.element_ty
    if element_ty.primitive_bitwidth not in (16, 32, 64):
        raise ValueError("atomic_cas only supports elements with width {16, 32, 64}")
    cmp, val = to_tensor(_unwrap(cmp)), to_tensor(_unwrap(val))
    if ptr.type.is_block():
        cmp = broadcast_impl_shape(cmp, ptr.shape)
        val = broadcast_impl_shape(val, ptr.shape)
    cmp, val = cast(cmp, element_ty), cast(val, element_ty)
    handle = _b().atomic_cas(ptr.handle, cmp.handle, val.handle, sem, scope, val.type)
    return tensor(handle, val.type)


# -- linear algebra ------------------------------------------------------------------------------

_PRECISIONS = {"tf32": "tf32", "tf32x3": "tf32x3", "ieee": "ieee", "bf16x3": "bf16x3",
               "bf16x6": "bf16x6"}
DEFAULT_DOT_INPUT_PRECISION = "tf32"


#: ``max_num_imprecise_acc`` of an fp8 dot that does not give it (Triton's sm_90 default).
MAX_NUM_IMPRECISE_ACC_DEFAULT = 2 ** 30


def dot(lhs, rhs, acc=None, input_precision=None, max_num_imprecise_acc=None,
        out_dtype=tl.float32, allow_tf32=None) -> tensor:
    lhs, rhs, acc = _unwrap(lhs), _unwrap(rhs), _unwrap(acc)
    out_dtype = _unwrap(out_dtype)
    if not isinstance(lhs, tensor) or not isinstance(rhs, tensor) or \
            not lhs.type.is_block() or not rhs.type.is_block():
        raise ValueError("dot expects two block tensors")
    input_precision = _unwrap(input_precision)
    allow_tf32 = _unwrap(allow_tf32)
    if allow_tf32 is not None:
        if input_precision is not None:
            raise ValueError("only one of input_precision and allow_tf32 can be given")
        input_precision = "tf32" if allow_tf32 else "ieee"
    if input_precision is None:
        input_precision = DEFAULT_DOT_INPUT_PRECISION
    if str(input_precision).lower() not in _PRECISIONS:
        raise ValueError(f"input_precision must be one of {list(_PRECISIONS)}, got "
                         f"{input_precision!r}")
    input_precision = _PRECISIONS[str(input_precision).lower()]
    if not (lhs.dtype.is_fp8() and rhs.dtype.is_fp8()):
        allowed = (tl.int8, tl.uint8, tl.float16, tl.bfloat16, tl.float32, tl.float64)
        if lhs.dtype not in allowed:
            raise TypeError(f"unsupported lhs dtype {lhs.dtype} for dot")
        if rhs.dtype not in allowed:
            raise TypeError(f"unsupported rhs dtype {rhs.dtype} for dot")
        if lhs.dtype != rhs.dtype:
            raise TypeError(f"both operands of dot must have the same dtype, got {lhs.dtype} "
                            f"and {rhs.dtype}")
    lhs_rank, rhs_rank = len(lhs.shape), len(rhs.shape)
    if lhs_rank == rhs_rank >= 4 and lhs.shape[:-2] == rhs.shape[:-2]:
        return _batched_dot(lhs, rhs, acc, input_precision, max_num_imprecise_acc, out_dtype)
    if not (lhs_rank == rhs_rank == 2 or lhs_rank == rhs_rank == 3):
        raise ValueError(f"both inputs of dot must be 2-D or 3-D, got {list(lhs.shape)} and "
                         f"{list(rhs.shape)}")
    if lhs.shape[-1] != rhs.shape[-2]:
        raise ValueError(f"dot shapes {list(lhs.shape)} and {list(rhs.shape)} are not "
                         f"compatible: {lhs.shape[-1]} != {rhs.shape[-2]}")
    # the interpreter computes dots of any size, as Triton's; the compiled targets need 16
    minimum = 1 if tl.is_interpreting() else 16
    if lhs.shape[-2] < minimum or lhs.shape[-1] < minimum or rhs.shape[-1] < minimum:
        raise ValueError(f"dot needs M, N and K of at least {minimum}, got M={lhs.shape[-2]}, "
                         f"N={rhs.shape[-1]}, K={lhs.shape[-1]}")
    if lhs_rank == 3 and lhs.shape[0] != rhs.shape[0]:
        raise ValueError("batched dot needs operands with the same batch size")
    if lhs.dtype.is_int():
        if lhs.dtype != tl.int8:
            raise TypeError("only int8 integer dot is supported")
        ret_scalar = tl.int32
    elif out_dtype == tl.bfloat16:
        raise ValueError("out_dtype=bfloat16 is unsupported; use out_dtype=float32/float16 and "
                         "cast with .to(tl.bfloat16)")
    elif lhs.dtype.is_fp32() or lhs.dtype.is_bf16():
        ret_scalar = tl.float32
    elif lhs.dtype.is_fp64():
        ret_scalar = tl.float64
    else:
        ret_scalar = out_dtype
    m, n, k = lhs.shape[-2], rhs.shape[-1], lhs.shape[-1]
    ret_ty = block_type(ret_scalar, [lhs.shape[0], m, n] if lhs_rank == 3 else [m, n])
    if acc is None:
        acc = full(ret_ty.shape, 0, ret_scalar)
    else:
        acc = to_tensor(acc)
        if acc.type != ret_ty:
            raise TypeError(f"dot accumulator has type {acc.type}, expected {ret_ty}")
    max_num_imprecise_acc = _unwrap(max_num_imprecise_acc)
    fp8 = lhs.dtype.is_fp8() and rhs.dtype.is_fp8()
    if max_num_imprecise_acc is None:
        # Triton's default on sm_90, the one target where it matters (fp8 wgmma accumulates
        # with fewer bits unless told to add into f32 every max_num_imprecise_acc products)
        max_num_imprecise_acc = MAX_NUM_IMPRECISE_ACC_DEFAULT if fp8 else 0
    elif fp8 and max_num_imprecise_acc > k:
        raise ValueError(f"max_num_imprecise_acc ({max_num_imprecise_acc}) must be <= K ({k})")
    handle = _b().dot(lhs.handle, rhs.handle, acc.handle, input_precision,
                      int(max_num_imprecise_acc), ret_ty)
    return tensor(handle, ret_ty)


def _batched_dot(lhs: tensor, rhs: tensor, acc, input_precision, max_num_imprecise_acc,
                 out_dtype) -> tensor:
    """A dot of rank 4 or more: the batch dimensions flattened into one, a 3-D dot, and its
    result reshaped back, as Triton does."""
    batch = lhs.shape[:-2]
    size = 1
    for d in batch:
        size *= d
    lhs = reshape(lhs, [size, *lhs.shape[-2:]])
    rhs = reshape(rhs, [size, *rhs.shape[-2:]])
    if acc is not None:
        acc = to_tensor(acc)
        acc = reshape(acc, [size, *acc.shape[-2:]])
    out = dot(lhs, rhs, acc, input_precision, max_num_imprecise_acc, out_dtype)
    return reshape(out, [*batch, *out.shape[-2:]])


# -- where ---------------------------------------------------------------------------------------


def where(condition, x, y) -> tensor:
    condition = to_tensor(_unwrap(condition))
    if condition.dtype != tl.int1:
        condition = cast(condition, tl.int1)
    x, y = binary_op_type_checking_impl(_unwrap(x), _unwrap(y), True, True)
    condition, x, y = broadcast_tensors(condition, x, y)
    if x.type != y.type:
        raise TypeError(f"where: operands have different types {x.type} and {y.type}")
    return tensor(_b().select(condition.handle, x.handle, y.handle, x.type), x.type)


# -- reductions and scans ------------------------------------------------------------------------


def _wrap_region(combine_fn, n: int):
    """The function the builders call inside a combine region: it gets the builder's handles
    and types (2n arguments), calls ``combine_fn`` on tensors, and returns n handles of the
    element types."""

    def region(handles, types, elem_types):
        args = [tensor(h, t) for h, t in zip(handles, types)]
        results = combine_fn(args)
        if isinstance(results, tensor) or not isinstance(results, (tuple, list)):
            results = [results]
        results = list(results)
        if len(results) != n:
            raise ValueError(f"the combine function returned {len(results)} values, expected "
                             f"{n}")
        out = []
        for index, (value, elem_ty) in enumerate(zip(results, elem_types)):
            value = to_tensor(value)
            if value.dtype != elem_ty:
                raise TypeError(f"the combine function's result {index} has type "
                                f"{value.dtype}, expected {elem_ty} (the element type of "
                                "the input)")
            out.append(value.handle)
        return out

    return region


def reduction(inputs: Sequence[tensor], axis, combine_fn, keep_dims: bool = False):
    """Reduces ``inputs`` (tensors of one shape) along ``axis`` (all axes when None) with
    ``combine_fn(list of 2n scalar tensors) -> n tensors``."""
    inputs = [to_tensor(t) for t in inputs]
    axis = _unwrap(axis)
    keep_dims = bool(_unwrap(keep_dims))
    for t in inputs:
        if not t.type.is_block():
            raise ValueError("reductions need block tensors, got a scalar")
    original_shape = inputs[0].shape
    axis_was_none = axis is None
    if axis is None:
        inputs = [reshape(t, [t.numel], can_reorder=True) if len(t.shape) > 1 else t
                  for t in inputs]
        axis = 0
    shape = inputs[0].shape
    rank = len(shape)
    if not -rank <= axis < rank:
        raise ValueError(f"reduction axis {axis} is out of range for a tensor of rank {rank}")
    if axis < 0:
        axis += rank
    for t in inputs:
        if t.shape != shape:
            raise ValueError("all reduction inputs must have the same shape")
    ret_shape = [s for i, s in enumerate(shape) if i != axis]
    elem_types = [t.dtype for t in inputs]
    ret_types = [block_type(e, ret_shape) if ret_shape else e for e in elem_types]
    region = _wrap_region(combine_fn, len(inputs))
    handles = _b().reduce([t.handle for t in inputs], axis, region, ret_types, elem_types)
    results = [tensor(h, t) for h, t in zip(handles, ret_types)]
    if keep_dims:
        if axis_was_none:
            results = [reshape(splat(r, [1]), [1] * len(original_shape)) for r in results]
        else:
            results = [expand_dims(r, axis) for r in results]
    return results


def associative_scan(inputs: Sequence[tensor], axis, combine_fn, reverse: bool = False):
    inputs = [to_tensor(t) for t in inputs]
    axis = _unwrap(axis)
    reverse = bool(_unwrap(reverse))
    shape = inputs[0].shape
    rank = len(shape)
    if not inputs[0].type.is_block():
        raise ValueError("scans need block tensors, got a scalar")
    if not -rank <= axis < rank:
        raise ValueError(f"scan axis {axis} is out of range for a tensor of rank {rank}")
    if axis < 0:
        axis += rank
    for t in inputs:
        if t.shape != shape:
            raise ValueError("all scan inputs must have the same shape")
    elem_types = [t.dtype for t in inputs]
    types = [t.type for t in inputs]
    region = _wrap_region(combine_fn, len(inputs))
    handles = _b().scan([t.handle for t in inputs], axis, reverse, region, types, elem_types)
    return [tensor(h, t) for h, t in zip(handles, types)]


def gather(src: tensor, index: tensor, axis: int) -> tensor:
    """``tl.gather`` (Triton's checks and wording)."""
    if not index.dtype.is_int():
        raise ValueError("index must be an integer tensor")
    rank = len(src.shape)
    if len(index.shape) != rank:
        raise ValueError("source and index tensors must have the same rank")
    if not -rank <= axis < rank:
        raise ValueError(f"gather axis {axis} must be < source rank ({rank})")
    axis = axis + rank if axis < 0 else axis
    for d in range(rank):
        if d != axis and index.shape[d] != src.shape[d]:
            raise ValueError(f"index dim {axis} must match the corresponding source dim")
    ret_ty = block_type(src.type.scalar, list(index.shape))
    return tensor(_b().gather(src.handle, index.handle, axis, ret_ty), ret_ty)


def histogram(input, num_bins, mask=None) -> tensor:  # noqa: A002
    input = to_tensor(_unwrap(input))
    num_bins = _unwrap(num_bins)
    if len(input.shape) != 1:
        raise ValueError("histogram only supports 1-D input")
    if not input.dtype.is_int():
        raise ValueError("histogram only supports integer input")
    if not isinstance(num_bins, int) or not _is_power_of_two(num_bins):
        raise ValueError("histogram's num_bins must be a power-of-two constexpr")
    ret_ty = block_type(tl.int32, [num_bins])
    mask = _unwrap(mask)
    if mask is None:
        return tensor(_b().histogram(input.handle, ret_ty), ret_ty)
    # Lanes whose mask is false are left out (Triton's `mask=`). tt.histogram has no mask
    # operand yet, so they are counted as 0 and taken back out of bin 0.
    mask = to_tensor(mask)
    if mask.dtype != tl.int1:
        mask = cast(mask, tl.int1)
    mask = broadcast_impl_shape(mask, input.shape)
    kept = where(mask, input, 0)
    counts = tensor(_b().histogram(kept.handle, ret_ty), ret_ty)
    dropped = reduction([cast(not_(mask), tl.int32)], 0, lambda a: [add(a[0], a[1])])[0]
    first_bin = equal(arange(0, num_bins), 0)
    return sub(counts, where(first_bin, dropped, 0))


# -- hints and debugging -------------------------------------------------------------------------


def _hint(x: tensor, values, name: str) -> tensor:
    values = _unwrap(values)
    if isinstance(values, int):
        values = [values]
    values = [int(_unwrap(v)) for v in values]
    if max(1, len(x.shape)) != len(values):
        raise ValueError(f"the shape of the input of {name} does not match the number of values")
    _b().set_hint(x.handle, name, values)
    return x


def multiple_of(x, values) -> tensor:
    return _hint(to_tensor(x), values, "tt.divisibility")


def max_contiguous(x, values) -> tensor:
    return _hint(to_tensor(x), values, "tt.contiguity")


def max_constancy(x, values) -> tensor:
    return _hint(to_tensor(x), values, "tt.constancy")


def device_print(prefix: str, args, hex: bool = False) -> None:  # noqa: A002
    prefix = str(_unwrap(prefix))
    if not prefix.endswith(" ") and args:
        prefix += " "
    if not prefix.endswith(": ") and args:
        prefix = prefix[:-1] + ": "
    if len(prefix) > 2 and not prefix.startswith(" "):
        prefix = " " + prefix
    args = [to_tensor(a) for a in args]
    is_signed = [int(a.dtype.is_int_signed()) for a in args]
    _b().print(prefix, bool(_unwrap(hex)), [a.handle for a in args], [a.type for a in args],
               is_signed)


def device_assert(cond, msg: str = "", mask=None) -> None:
    cond = to_tensor(_unwrap(cond))
    if not cond.dtype.is_bool():
        cond = cast(cond, tl.int1)
    mask = _unwrap(mask)
    if mask is not None:
        cond = or_(cond, not_(to_tensor(mask)))
    _b().assert_(cond.handle, str(_unwrap(msg)), cond.type)


def assume(cond) -> None:
    cond = to_tensor(_unwrap(cond))
    _b().assume(cond.handle, cond.type)


def debug_barrier() -> None:
    _b().barrier()
