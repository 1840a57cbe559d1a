"""Behaviours Triton's own language tests (test_core.py, run through tools/triton_core.py) check,
each on every backend: Triton's error wording, its shift and promotion rules, and the surface
it accepts (``tensor.cast``, ``tensor.item``, ordered ``tl.cat``, ``tl.trans`` without dims on
N-D tensors, N-D dots, ``isinstance`` on tensors, list-valued shapes in ``static_assert``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl


@tc.jit
def shift_kernel(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(z_ptr + offs, tl.load(x_ptr + offs) >> tl.load(y_ptr + offs))


def test_signed_right_shift_by_unsigned_is_arithmetic(run):
    """``int8 >> uint16``: the int8 is sign-extended to uint16 and shifted arithmetically."""
    x = np.array([-17, -128, 5, -1] * 4, np.int8)
    y = np.array([14, 3, 1, 15] * 4, np.uint16)
    z = np.zeros(16, np.uint16)
    run(shift_kernel, (1,), x, y, z, BLOCK=16)
    np.testing.assert_array_equal(z, (x.astype(np.int32) >> y.astype(np.int32)).astype(np.uint16))
    assert z[0] == 65535


@tc.jit
def or_kernel(x_ptr, y_ptr, z_ptr):
    tl.store(z_ptr, tl.load(x_ptr) | tl.load(y_ptr))


@tc.jit
def floordiv_kernel(x_ptr, y_ptr, z_ptr):
    tl.store(z_ptr, tl.load(x_ptr) // tl.load(y_ptr))


@tc.jit
def mod_kernel(x_ptr, y_ptr, z_ptr):
    tl.store(z_ptr, tl.load(x_ptr) % tl.load(y_ptr))


@pytest.mark.parametrize("kernel,x_dtype,y_dtype,message", [
    (or_kernel, np.float32, np.int32, "invalid operands of type fp32 and fp32"),
    (floordiv_kernel, np.int32, np.uint32, "Cannot use /, #, or % with int32 and uint32 because "
     "they have different signedness"),
    (mod_kernel, np.uint8, np.int16, "Cannot use /, #, or % with uint8 and int16 because they "
     "have different signedness"),
], ids=["bitwise-float", "floordiv-signedness", "mod-signedness"])
def test_invalid_operand_messages(run, kernel, x_dtype, y_dtype, message):
    """Triton's wording, which its tests and users match on."""
    x, y, z = np.ones(1, x_dtype), np.ones(1, y_dtype), np.ones(1, np.float32)
    with pytest.raises(tc.CompilationError, match=re.escape(message)):
        run(kernel, (1,), x, y, z)


@tc.jit
def surface_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.shape == [BLOCK])
    tl.static_assert(isinstance(x, tl.tensor) and hasattr(x, "dtype"))
    first = tl.load(x_ptr + tl.arange(0, 1))
    if first > 100:  # a one-element block as a condition, as in Triton
        x = x + 1000
    y = x.cast(tl.float32) + first.item().to(tl.float32)
    tl.store(out_ptr + offs, y)


@pytest.mark.filterwarnings("ignore:If conditional called with multidimensional Tensor")
def test_tensor_cast_item_and_list_shapes(run):
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, np.float32)
    run(surface_kernel, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x.astype(np.float32))


@tc.jit
def cat_kernel(x_ptr, y_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    z = tl.cat(tl.load(x_ptr + offs), tl.load(y_ptr + offs), dim=DIM)
    if DIM == 0:
        tl.store(z_ptr + tl.arange(0, 2 * M)[:, None] * N + tl.arange(0, N)[None, :], z)
    else:
        tl.store(z_ptr + tl.arange(0, M)[:, None] * 2 * N + tl.arange(0, 2 * N)[None, :], z)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_keeps_order_along_dim(run, dim):
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    y = -np.arange(32, dtype=np.float32).reshape(4, 8) - 1
    z = np.zeros((8, 8) if dim == 0 else (4, 16), np.float32)
    run(cat_kernel, (1,), x, y, z, M=4, N=8, DIM=dim)
    np.testing.assert_array_equal(z, np.concatenate([x, y], axis=dim))


@tc.jit
def batched_dot_kernel(x_ptr, y_ptr, z_ptr, M: tl.constexpr, TRANS: tl.constexpr):
    offs = tl.arange(0, 2 * 2 * M * M)
    x = tl.load(x_ptr + offs).reshape(2, 2, M, M)
    y = tl.load(y_ptr + offs).reshape(2, 2, M, M)
    if TRANS:
        y = tl.trans(y)  # swaps the last two axes
    tl.store(z_ptr + offs, tl.dot(x, y, input_precision="ieee").reshape(2 * 2 * M * M))


@pytest.mark.parametrize("trans", [False, True])
def test_four_d_dot_and_trans_without_dims(run, trans):
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 4, (2, 2, 16, 16)).astype(np.float32)
    y = rng.integers(-3, 4, (2, 2, 16, 16)).astype(np.float32)
    z = np.zeros_like(x)
    run(batched_dot_kernel, (1,), x, y, z, M=16, TRANS=trans)
    np.testing.assert_array_equal(z, x @ (np.swapaxes(y, -1, -2) if trans else y))


def test_small_dots_in_the_interpreter(monkeypatch):
    """The interpreter computes dots below 16 in M, N or K, as Triton's does."""
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
    x = np.arange(2 * 2 * 4 * 4, dtype=np.float32).reshape(2, 2, 4, 4)
    z = np.zeros_like(x)
    batched_dot_kernel[(1,)](x, x, z, M=4, TRANS=False)
    np.testing.assert_array_equal(z, x @ x)


def test_fp8_dtypes_of_other_targets():
    """Triton's fp8 variants exist with their formats, as its tests parametrize over them."""
    assert (tl.float8e4b15.fp_mantissa_width, tl.float8e4b15.exponent_bias) == (3, 15)
    assert (tl.float8e4b8.fp_mantissa_width, tl.float8e4b8.exponent_bias) == (3, 8)
    assert (tl.float8e5b16.fp_mantissa_width, tl.float8e5b16.exponent_bias) == (2, 16)
    assert tl.float8e4b15.is_fp8() and tl.float8e4b15.primitive_bitwidth == 8
    assert "fp16" in tl.dtype.STANDARD_FP_TYPES


@tc.jit
def expand_dims_kernel(out_ptr, AXES: tl.constexpr):
    x = tl.expand_dims(tl.arange(0, 4), AXES)
    tl.store(out_ptr + tl.arange(0, 4), tl.reshape(x, 4))


@tc.jit
def program_id_kernel(out_ptr, AXIS: tl.constexpr):
    tl.store(out_ptr, tl.program_id(AXIS))


@tc.jit
def small_descriptor_kernel(ptr):
    desc = tl.make_tensor_descriptor(ptr, [16, 16], [16, 1], [2, 2])
    desc.store([0, 0], desc.load([0, 0]) + 1)


@pytest.mark.parametrize("kernel,constexprs,array,message", [
    (expand_dims_kernel, {"AXES": -3}, np.zeros(4, np.int32),
     "invalid axis -3. Expected -2 <= axis < 2"),
    (expand_dims_kernel, {"AXES": (0, -3)}, np.zeros(4, np.int32),
     "expand_dims received duplicate axes, normalized axes = [0, 0]"),
    (program_id_kernel, {"AXIS": 20}, np.zeros(1, np.int32),
     "program_id axis must be 0, 1, or 2 but got 20"),
    (small_descriptor_kernel, {}, np.zeros((16, 16), np.int32),
     "Descriptor block shape must have at least 16 bytes in the last dimension, but got "
     "2 * 4 = 8 bytes"),
], ids=["expand-dims-axis", "expand-dims-duplicate", "program-id-axis", "descriptor-block"])
def test_errors_keep_the_language_error_as_their_cause(run, kernel, constexprs, array, message):
    """The located error says Triton's words, and its ``__cause__`` is the language's own
    ValueError (Triton's tests read ``exc.__cause__``), neither carrying compiler frames."""
    with pytest.raises(tc.CompilationError) as info:
        run(kernel, (1,), array, **constexprs)
    assert message in info.value.message
    cause = info.value.__cause__
    assert isinstance(cause, ValueError) and message in str(cause)
    assert cause.__traceback__ is None and cause.__cause__ is None


def _fp8_value(code: int, mantissa: int, bias: int, flavor: str) -> float:
    """The value of an fp8 byte, written from the format's definition."""
    exponent_bits = 7 - mantissa
    sign = -1.0 if code & 0x80 else 1.0
    exponent = (code >> mantissa) & ((1 << exponent_bits) - 1)
    fraction = code & ((1 << mantissa) - 1)
    top = (1 << exponent_bits) - 1
    if flavor == "fnuz" and code == 0x80:
        return float("nan")
    if flavor == "fn" and exponent == top and fraction == (1 << mantissa) - 1:
        return float("nan")
    if flavor == "ieee" and exponent == top:
        return sign * float("inf") if fraction == 0 else float("nan")
    if exponent == 0:
        return sign * fraction * 2.0 ** (1 - bias - mantissa)
    return sign * (1 + fraction / (1 << mantissa)) * 2.0 ** (exponent - bias)


FP8_FORMATS = {"float8e4nv": (3, 7, "fn"), "float8e5": (2, 15, "ieee"),
               "float8e4b15": (3, 15, "fn"), "float8e4b8": (3, 8, "fnuz"),
               "float8e5b16": (2, 16, "fnuz")}


@tc.jit
def fp8_round_trip_kernel(codes_ptr, values_ptr, back_ptr):
    offs = tl.arange(0, 256)
    x = tl.load(codes_ptr + offs)
    tl.store(values_ptr + offs, x.to(tl.float32))
    tl.store(back_ptr + offs, x)


@pytest.mark.parametrize("name", list(FP8_FORMATS))
def test_fp8_formats_read_and_write_every_code(run, name):
    """Every fp8 format Triton's tests use reads each of its 256 bytes as its value and writes
    it back unchanged (NaN as the format's NaN)."""
    mantissa, bias, flavor = FP8_FORMATS[name]
    dtype = getattr(tl, name)
    codes = np.arange(256, dtype=np.uint8)
    values = np.zeros(256, np.float32)
    back = np.zeros(256, np.uint8)
    run(fp8_round_trip_kernel, (1,), tc.reinterpret(codes, dtype), values,
        tc.reinterpret(back, dtype))
    expected = np.array([_fp8_value(c, mantissa, bias, flavor) for c in range(256)], np.float32)
    np.testing.assert_array_equal(values, expected)
    finite = np.isfinite(expected) | np.isinf(expected)
    np.testing.assert_array_equal(back[finite], codes[finite])
    assert np.isnan([_fp8_value(int(c), mantissa, bias, flavor) for c in back[~finite]]).all()


@tc.jit
def fp8_dot_kernel(a_ptr, b_ptr, out_ptr, DTYPE: tl.constexpr):
    offs = tl.arange(0, 16)
    grid = offs[:, None] * 16 + offs[None, :]
    a = tl.load(a_ptr + grid).to(DTYPE)
    b = tl.load(b_ptr + grid).to(DTYPE)
    tl.store(out_ptr + grid, tl.dot(a, b, out_dtype=tl.float32))


@pytest.mark.parametrize("name", list(FP8_FORMATS))
def test_fp8_dots(run, name):
    """Dots of fp8 operands accumulate their exact products in fp32."""
    rng = np.random.default_rng(5)
    grid = np.array([-1.5, -1.0, -0.5, -0.25, 0.25, 0.5, 1.0, 1.5], np.float32)
    a = rng.choice(grid, (16, 16)).astype(np.float32)
    b = rng.choice(grid, (16, 16)).astype(np.float32)
    out = np.full((16, 16), np.nan, np.float32)
    run(fp8_dot_kernel, (1,), a, b, out, DTYPE=getattr(tl, name))
    np.testing.assert_array_equal(out, a @ b)


@tc.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  K: tl.constexpr, AXIS: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    if AXIS == 0:
        offs = tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :]
    else:
        offs = tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]
    tl.store(out_ptr + offs, tl.gather(src, tl.load(idx_ptr + offs), AXIS))


@pytest.mark.parametrize("axis,shape", [(0, (32, 16)), (1, (8, 4)), (-1, (8, 32))])
def test_gather(run, axis, shape):
    """``tl.gather`` reads the source at the indices along one axis (as torch.gather)."""
    rng = np.random.default_rng(7)
    src = rng.standard_normal((8, 16)).astype(np.float32)
    idx = rng.integers(0, src.shape[axis], shape).astype(np.int16)
    out = np.full(shape, np.nan, np.float32)
    run(gather_kernel, (1,), src, idx, out, M=8, N=16, K=shape[axis], AXIS=axis)
    np.testing.assert_array_equal(out, np.take_along_axis(src, idx.astype(np.int64), axis))


@tc.jit
def bad_gather_kernel(src_ptr, out_ptr):
    src = tl.load(src_ptr + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])
    idx = tl.zeros([4, 4], tl.int32)
    tl.store(out_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :],
             tl.gather(src, idx, 0))


def test_gather_checks_the_other_dims(run):
    with pytest.raises(tc.CompilationError, match="index dim 0 must match the corresponding "
                                                  "source dim"):
        run(bad_gather_kernel, (1,), np.zeros((8, 8), np.float32), np.zeros((4, 4), np.float32))


@tc.jit(noinline=True)
def scaled_sum(x, y, factor):
    return (x + y) * factor


@tc.jit(noinline=True)
def noinline_store(out_ptr, x, y):
    tl.store(out_ptr, scaled_sum(x, y, 2) + 1)


@tc.jit
def noinline_kernel(x_ptr, y_ptr, out_ptr):
    noinline_store(out_ptr, tl.load(x_ptr), tl.load(y_ptr))


def test_noinline_functions_compute_as_inlined_ones(run):
    """``@jit(noinline=True)`` callees of scalars (which the CPU backend inlines anyway)."""
    out = np.zeros(1, np.float32)
    run(noinline_kernel, (1,), np.array([1.5], np.float32), np.array([2.0], np.float32), out)
    assert out[0] == (1.5 + 2.0) * 2 + 1


@tc.jit
def noinline_block_kernel(x_ptr):
    offs = tl.arange(0, 16)
    tl.store(x_ptr + offs, scaled_sum(tl.load(x_ptr + offs), 1.0, 2.0))


def test_noinline_functions_take_scalars_only():
    with pytest.raises(tc.CompilationError, match=re.escape(
            "Function scaled_sum is marked noinline, but was called with non-scalar argument x")):
        noinline_block_kernel.ttir(np.zeros(16, np.float32))


@tc.jit
def either_return(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@tc.jit
def early_return(x, pid):
    if pid == 1:
        return x * 10
    return x + 100


@tc.jit
def returns_in_if_kernel(out_ptr):
    pid = tl.program_id(0)
    o = tl.load(out_ptr + pid)
    if pid < 3:
        o = either_return(o, pid) + early_return(o, pid)
    tl.store(out_ptr + pid, o)


def test_functions_with_returns_called_in_an_if(run):
    """A function returning from both branches of an ``if`` (or early) called inside an
    ``if`` of the kernel (Triton's test_if_call ``jit_if``)."""
    out = np.arange(4, dtype=np.int32)
    run(returns_in_if_kernel, (4,), out)
    np.testing.assert_array_equal(out, [0 + 1 + 100, 1 + 2 + 10, 2 + 2 + 102, 3])


@tc.jit
def assume_kernel(out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    size = N - tl.program_id(0) * BLOCK
    tl.assume(size >= BLOCK)
    tl.store(out_ptr + tl.program_id(0), size)


def test_assume_is_kept_as_llvm_assume(run):
    """``tl.assume`` is Triton's ``llvm.intr.assume`` in the tt IR (LLVM's ``llvm.assume``)."""
    out = np.zeros(4, np.int32)
    run(assume_kernel, (4,), out, N=512, BLOCK=128)
    np.testing.assert_array_equal(out, [512, 384, 256, 128])
    assert "llvm.intr.assume %" in assume_kernel.ttir(out, N=512, BLOCK=128)
