"""Triton's typing rules: dtypes, promotion of tensors and Python scalars, indexing, and the
tensor's Python-facing attributes (checked at compile time with tl.static_assert)."""

from __future__ import annotations

import operator

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.language import semantic


@tc.jit
def promote_kernel(a_ptr, b_ptr, OP: tl.constexpr, SCALAR: tl.constexpr,
                   EXPECTED: tl.constexpr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    if SCALAR is None:
        c = OP(a, tl.load(b_ptr + offs))
    else:
        c = OP(a, SCALAR)
    tl.static_assert(c.dtype == EXPECTED, f"got {c.dtype}")


def _ptr(dtype):
    return tl.pointer_type(dtype)


TENSOR_TENSOR = [
    (tl.int8, tl.int16, operator.add, tl.int16),
    (tl.int32, tl.uint32, operator.add, tl.uint32),
    (tl.uint8, tl.int32, operator.mul, tl.int32),
    (tl.int64, tl.uint32, operator.sub, tl.int64),
    (tl.int1, tl.int32, operator.add, tl.int32),
    (tl.float16, tl.float32, operator.add, tl.float32),
    (tl.float16, tl.bfloat16, operator.add, tl.float16),  # Triton's order: fp16 first
    (tl.bfloat16, tl.int32, operator.add, tl.float32),
    (tl.bfloat16, tl.bfloat16, operator.add, tl.bfloat16),
    (tl.float16, tl.float16, operator.truediv, tl.float32),
    (tl.bfloat16, tl.bfloat16, operator.truediv, tl.float32),
    (tl.float16, tl.int64, operator.add, tl.float16),
    (tl.float64, tl.float32, operator.mul, tl.float64),
    (tl.int32, tl.int32, operator.truediv, tl.float32),
    (tl.float8e4nv, tl.float8e5, operator.add, tl.float16),
    (tl.int32, tl.int64, operator.lt, tl.int1),
    (tl.uint8, tl.uint16, operator.and_, tl.uint16),
]


@pytest.mark.parametrize("a,b,op,expected", TENSOR_TENSOR)
def test_tensor_tensor_promotion(a, b, op, expected):
    promote_kernel.ttir(_ptr(a), _ptr(b), OP=op, SCALAR=None, EXPECTED=expected)


TENSOR_SCALAR = [
    (tl.int8, 1, operator.add, tl.int8),  # a Python int does not widen an integer tensor
    (tl.uint8, 3, operator.mul, tl.uint8),
    (tl.float16, 1.5, operator.add, tl.float16),  # nor a Python float a float tensor
    (tl.bfloat16, 2.0, operator.mul, tl.bfloat16),
    (tl.int32, 1.5, operator.add, tl.float32),  # a float scalar makes an int tensor float
    (tl.int1, 2, operator.add, tl.int32),
    (tl.float16, 2, operator.truediv, tl.float32),
    (tl.int64, 2**40, operator.add, tl.int64),
]


@pytest.mark.parametrize("a,scalar,op,expected", TENSOR_SCALAR)
def test_tensor_scalar_promotion(a, scalar, op, expected):
    promote_kernel.ttir(_ptr(a), _ptr(a), OP=op, SCALAR=scalar, EXPECTED=expected)


def test_scalar_out_of_range_for_the_tensor_type():
    with pytest.raises(tc.CompilationError, match="scalar 300 is out of range for type int8"):
        promote_kernel.ttir(_ptr(tl.int8), _ptr(tl.int8), OP=operator.add, SCALAR=300,
                            EXPECTED=tl.int8)
    with pytest.raises(tc.CompilationError, match="scalar 1099511627776 is out of range"):
        promote_kernel.ttir(_ptr(tl.int32), _ptr(tl.int32), OP=operator.add, SCALAR=2**40,
                            EXPECTED=tl.int64)
    with pytest.raises(tc.CompilationError, match="unsigned tensor with a negative scalar"):
        promote_kernel.ttir(_ptr(tl.uint8), _ptr(tl.uint8), OP=operator.add, SCALAR=-1,
                            EXPECTED=tl.uint8)


def test_division_of_different_signedness_is_an_error():
    with pytest.raises(tc.CompilationError, match="different signedness"):
        promote_kernel.ttir(_ptr(tl.int32), _ptr(tl.uint32), OP=operator.floordiv,
                            SCALAR=None, EXPECTED=tl.int32)


def test_python_scalar_types():
    assert semantic.to_tensor_type(True) == tl.int1
    assert semantic.to_tensor_type(7) == tl.int32
    assert semantic.to_tensor_type(2**31) == tl.uint32
    assert semantic.to_tensor_type(-2**31 - 1) == tl.int64
    assert semantic.to_tensor_type(2**63) == tl.uint64
    assert semantic.to_tensor_type(1.5) == tl.float32
    assert semantic.to_tensor_type(1e300) == tl.float64


def test_dtypes():
    assert str(tl.float32) == "fp32" and repr(tl.bfloat16) == "tl.bfloat16"
    assert tl.int8.is_int_signed() and tl.uint8.is_int_unsigned() and tl.int1.is_bool()
    assert tl.float8e4nv.is_fp8() and tl.float8e4nv.primitive_bitwidth == 8
    assert tl.pointer_type(tl.float16) == tl.pointer_type(tl.float16)
    assert tl.pointer_type(tl.float16) != tl.pointer_type(tl.float32)
    assert tl.block_type(tl.int32, [4, 8]).numel == 32
    assert str(tl.float8e5.to_ir()) == "f8E5M2"
    assert str(tl.pointer_type(tl.bfloat16).to_ir()) == "!tt.ptr<bf16>"
    assert str(tl.block_type(tl.uint16, [2, 4]).to_ir()) == "tensor<2x4xi16>"
    assert tl.str_to_ty("*fp32") == tl.pointer_type(tl.float32)


@tc.jit
def attributes_kernel(x_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.static_assert(x.shape == (M, N))
    tl.static_assert(x.dtype == tl.float16)
    tl.static_assert(x.T.shape == (N, M))
    tl.static_assert(x[None, :, :].shape == (1, M, N))
    tl.static_assert(x[:, None, :].shape == (M, 1, N))
    tl.static_assert(x.numel == M * N)
    tl.static_assert(tl.expand_dims(rows, (0, 2)).shape == (1, M, 1))
    tl.static_assert(x.to(tl.float32).dtype == tl.float32)
    tl.static_assert(x.to(tl.int16, bitcast=True).dtype == tl.int16)
    y: tl.constexpr = M * 2
    tl.static_assert(y == 2 * M)
    z = (x + 1) ** 2
    tl.static_assert(z.dtype == tl.float16)
    tl.static_assert(tl.program_id(0).dtype == tl.int32)
    tl.static_print("shape", x.shape)


def test_tensor_attributes_and_indexing(capsys):
    attributes_kernel.ttir("*fp16", M=4, N=8)
    assert "shape (4, 8)" in capsys.readouterr().out
