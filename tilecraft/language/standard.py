"""The standard library of the kernel language, written with the language itself: reductions
(``sum``, ``max``, ``argmax``, ...), scans (``cumsum``, ``cumprod``), ``sort``, ``flip``,
``softmax``, ``sigmoid``, ``cdiv`` and ``swizzle2d``.

These are plain Python functions over tensors, so the compiler and the interpreter run the same
code; their combine functions become the combine regions of `tt.reduce`/`tt.scan`.
"""

from __future__ import annotations

from . import core, semantic
from .core import _tensor_member_fn, _unwrap, builtin, tensor
from .elementwise import exp  # declared in defs/math.td
from .functions import fdiv, maximum, minimum, reduce, where


def _t(x) -> tensor:
    return semantic.to_tensor(_unwrap(x))


@builtin
def cdiv(x, div):
    """Ceiling division ``(x + div - 1) // div`` (on Python ints too)."""
    x, div = _unwrap(x), _unwrap(div)
    return (x + div - 1) // div


@builtin
@_tensor_member_fn
def sigmoid(x) -> tensor:
    x = _t(x)
    return 1 / (1 + exp(-x))


@builtin
@_tensor_member_fn
def softmax(x, ieee_rounding=False) -> tensor:
    x = _t(x)
    z = x - max(x, 0)
    num = exp(z)
    den = sum(num, 0)
    return fdiv(num, den, ieee_rounding)


@builtin
def swizzle2d(i, j, size_i, size_j, size_g):
    """Maps the row-major indices (i, j) of a size_i x size_j grid to an order where groups of
    size_g rows are traversed column by column (better L2 reuse in matmuls)."""
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = minimum(size_i - off_i, size_g)
    new_i = off_i + (ij % size_g)
    new_j = (ij % size_gj) // size_g
    return new_i, new_j


def _promote_bf16(x: tensor) -> tensor:
    return x.to(core.float32) if x.dtype.is_bf16() else x


# -- combine functions ---------------------------------------------------------------------------


def _sum_combine(a, b):
    return a + b


def _prod_combine(a, b):
    return a * b


def _xor_combine(a, b):
    return a ^ b


def _max_combine(a, b):
    return maximum(a, b)


def _min_combine(a, b):
    return minimum(a, b)


def _arg_combine(value1, index1, value2, index2, better, tie_break_left: bool):
    if tie_break_left:
        tie = semantic.logical_and(value1 == value2, index1 < index2)
        choose_first = semantic.logical_or(better(value1, value2), tie)
    else:
        choose_first = better(value1, value2)
    return where(choose_first, value1, value2), where(choose_first, index1, index2)


def _argmax_left(v1, i1, v2, i2):
    return _arg_combine(v1, i1, v2, i2, lambda a, b: a > b, True)


def _argmax_fast(v1, i1, v2, i2):
    return _arg_combine(v1, i1, v2, i2, lambda a, b: a > b, False)


def _argmin_left(v1, i1, v2, i2):
    return _arg_combine(v1, i1, v2, i2, lambda a, b: a < b, True)


def _argmin_fast(v1, i1, v2, i2):
    return _arg_combine(v1, i1, v2, i2, lambda a, b: a < b, False)


def _reduce_with_indices(input, axis, combine_fn, keep_dims=False):
    axis = _unwrap(axis)
    n = input.shape[axis] if axis is not None else input.numel
    index = core_arange(n)
    if axis is not None and len(input.shape) > 1:
        rank = len(input.shape)
        for dim in range(rank):
            if dim != axis:
                index = semantic.expand_dims(index, dim)
        index = semantic.broadcast_impl_shape(index, input.shape)
    elif axis is None and len(input.shape) > 1:
        index = semantic.reshape(index, input.shape)
    value, index = reduce((input, index), axis, combine_fn, keep_dims=keep_dims)
    return value, index


def core_arange(n: int) -> tensor:
    return semantic.arange(0, n)


# -- reductions ----------------------------------------------------------------------------------


def _small_to_32(x: tensor) -> tensor:
    if x.dtype.primitive_bitwidth < 32:
        if x.dtype.is_floating():
            return x.to(core.float32)
        return x.to(core.int32)
    return x


@builtin
@_tensor_member_fn
def max(input, axis=None, return_indices=False,  # noqa: A001
        return_indices_tie_break_left=True, keep_dims=False):
    """The maximum along ``axis`` (all axes when None); with ``return_indices`` also the index
    of the maximum (the first one on ties unless ``return_indices_tie_break_left=False``)."""
    input = _promote_bf16(_t(input))
    if _unwrap(return_indices):
        fn = _argmax_left if _unwrap(return_indices_tie_break_left) else _argmax_fast
        return _reduce_with_indices(input, axis, fn, keep_dims)
    return reduce(_small_to_32(input), axis, _max_combine, keep_dims=keep_dims)


@builtin
@_tensor_member_fn
def min(input, axis=None, return_indices=False,  # noqa: A001
        return_indices_tie_break_left=True, keep_dims=False):
    """The minimum along ``axis``; see `max`."""
    input = _promote_bf16(_t(input))
    if _unwrap(return_indices):
        fn = _argmin_left if _unwrap(return_indices_tie_break_left) else _argmin_fast
        return _reduce_with_indices(input, axis, fn, keep_dims)
    return reduce(_small_to_32(input), axis, _min_combine, keep_dims=keep_dims)


@builtin
@_tensor_member_fn
def argmax(input, axis, tie_break_left=True, keep_dims=False) -> tensor:
    _, index = max(input, axis, return_indices=True,
                   return_indices_tie_break_left=tie_break_left, keep_dims=keep_dims)
    return index


@builtin
@_tensor_member_fn
def argmin(input, axis, tie_break_left=True, keep_dims=False) -> tensor:
    _, index = min(input, axis, return_indices=True,
                   return_indices_tie_break_left=tie_break_left, keep_dims=keep_dims)
    return index


def _pick_sum_dtype(in_dtype, dtype):
    dtype = _unwrap(dtype)
    if dtype is not None:
        return dtype
    if in_dtype.is_bool():
        return core.int32
    if in_dtype.is_int_signed() and in_dtype.int_bitwidth < 32:
        return core.int32
    if in_dtype.is_int_unsigned() and in_dtype.int_bitwidth < 32:
        return core.uint32
    if in_dtype.is_bf16():
        return core.float32
    return None


@builtin
@_tensor_member_fn
def sum(input, axis=None, keep_dims=False, dtype=None):  # noqa: A001
    """The sum along ``axis`` (all axes when None); small integers sum in 32 bits and bf16 in
    fp32 unless ``dtype`` says otherwise."""
    input = _t(input)
    out_dtype = _pick_sum_dtype(input.dtype, dtype)
    if out_dtype is not None:
        input = input.to(out_dtype)
    return reduce(input, axis, _sum_combine, keep_dims=keep_dims)


@builtin
@_tensor_member_fn
def xor_sum(input, axis=None, keep_dims=False):
    input = _t(input)
    if not input.dtype.is_int():
        raise ValueError("xor_sum is only supported for integers")
    return reduce(input, axis, _xor_combine, keep_dims=keep_dims)


# -- scans ---------------------------------------------------------------------------------------


@builtin
@_tensor_member_fn
def cumsum(input, axis=0, reverse=False):
    input = _promote_bf16(_t(input))
    out_dtype = _pick_sum_dtype(input.dtype, None)
    if out_dtype is not None:
        input = input.to(out_dtype)
    return _scan(input, axis, _sum_combine, reverse)


@builtin
@_tensor_member_fn
def cumprod(input, axis=0, reverse=False):
    input = _promote_bf16(_t(input))
    return _scan(input, axis, _prod_combine, reverse)


def _scan(input, axis, combine, reverse):
    return semantic.associative_scan([input], axis, lambda args: combine(*args), reverse)[0]


# -- sort and flip -------------------------------------------------------------------------------


def _log2(n: int) -> int:
    result = 0
    while n > 1:
        n >>= 1
        result += 1
    return result


def _indicator(n_dims: int, idx: int, pos: int) -> tensor:
    """A tensor with 2 elements along dimension n_dims-1-idx (and size 1 elsewhere) that is 1
    at position ``pos``."""
    y = semantic.arange(0, 2)
    if pos == 0:
        y = 1 - y
    for n in range(n_dims):
        if n != n_dims - 1 - idx:
            y = semantic.expand_dims(y, n)
    return y


def _cast_to_int(x: tensor) -> tensor:
    if x.dtype.is_floating():
        width = x.dtype.primitive_bitwidth
        return x.to(core.get_int_dtype(width, True), bitcast=True)
    return x


def _take_slice(x: tensor, n_dims: int, idx: int, pos: int) -> tensor:
    y = sum(x * _indicator(n_dims, idx, pos).to(x.dtype), n_dims - 1 - idx, dtype=x.dtype)
    return semantic.expand_dims(y, n_dims - 1 - idx)


def _compare_and_swap(x: tensor, desc_mask, n_dims: int, idx: int) -> tensor:
    x_int = _cast_to_int(x)
    l_int = _take_slice(x_int, n_dims, idx, 0)
    r_int = _take_slice(x_int, n_dims, idx, 1)
    left = l_int.to(x.dtype, bitcast=True)
    right = r_int.to(x.dtype, bitcast=True)
    if isinstance(desc_mask, tensor):
        desc_mask = desc_mask.to(core.int1)
    else:
        desc_mask = bool(desc_mask)
    zero = semantic.full(x_int.shape, 0, x_int.dtype)
    swap = (left > right) ^ desc_mask
    y = x_int ^ where(swap, l_int ^ r_int, zero)
    return y.to(x.dtype, bitcast=True)


def _bitonic_merge(x: tensor, n_dims: int, active_dims: int, order_type: int) -> tensor:
    """order_type 0: ascending, 1: descending, 2: alternating."""
    if order_type == 2:
        desc_mask = _indicator(n_dims, active_dims, 1)
    else:
        desc_mask = order_type
    for i in range(active_dims):
        x = _compare_and_swap(x, desc_mask, n_dims, active_dims - 1 - i)
    return x


@builtin
@_tensor_member_fn
def sort(x, dim=None, descending=0) -> tensor:
    """Sorts along the last dimension (a power of two) with a bitonic network."""
    x = _t(x)
    dim = _unwrap(dim)
    descending = int(bool(_unwrap(descending)))
    if dim is None:
        dim = len(x.shape) - 1
    if dim not in (len(x.shape) - 1, -1):
        raise ValueError("sort only supports the last dimension")
    n = x.shape[-1]
    n_dims = _log2(x.numel)
    log_n = _log2(n)
    if n_dims == 0 or log_n == 0:
        return x
    y = semantic.reshape(x, [2] * n_dims)
    for i in range(1, log_n + 1):
        y = _bitonic_merge(y, n_dims, i, descending if i == log_n else 2)
    return semantic.reshape(y, x.shape)


@builtin
@_tensor_member_fn
def flip(x, dim=None) -> tensor:
    """Reverses the last dimension (a power of two)."""
    x = _t(x)
    dim = _unwrap(dim)
    if dim is None:
        dim = len(x.shape) - 1
    if dim not in (len(x.shape) - 1, -1):
        raise ValueError("flip only supports the last dimension")
    steps = _log2(x.numel)
    start = steps - _log2(x.shape[-1])
    if steps == start:
        return x
    y = semantic.reshape(x, [2] * steps)
    y = semantic.expand_dims(y, start)
    flip2d = semantic.arange(0, 2)[:, None] == 1 - semantic.arange(0, 2)
    for i in range(start, steps):
        mask = flip2d
        for j in range(steps + 1):
            if j != i and j != i + 1:
                mask = semantic.expand_dims(mask, j)
        y = sum(where(mask, y, semantic.full(y.shape, 0, y.dtype)), i + 1, keep_dims=True,
                dtype=y.dtype)
    return semantic.reshape(y, x.shape)
