"""The functions of the kernel language (``tl.load``, ``tl.arange``, ``tl.dot``, ...).

Each unwraps its constexpr arguments and calls the typing rules of `semantic.py`; the builder
in use does the rest. Functions that also are tensor methods (``x.to(...)``, ``x.sum()``) are
attached to `tensor` here.
"""

from __future__ import annotations

import builtins
import sys

from . import semantic
from .core import (
    PropagateNan, _tensor_member_fn, _unwrap, _unwrap_shape, builtin, constexpr,
    current_generator, dtype, is_interpreting, tensor, tensor_descriptor,
)


def _t(x) -> tensor:
    return semantic.to_tensor(_unwrap(x))


def _shape_args(shape) -> tuple:
    """``f(x, 2, 3)``, ``f(x, (2, 3))`` and ``f(x, [2, 3])`` all give (2, 3)."""
    if len(shape) == 1 and isinstance(_unwrap(shape[0]), (tuple, list)):
        shape = _unwrap(shape[0])
    return _unwrap_shape(shape)


# -- programs ------------------------------------------------------------------------------------


def _axis(axis) -> int:
    axis = _unwrap(axis)
    if axis not in (0, 1, 2):
        raise ValueError(f"program_id axis must be 0, 1, or 2 but got {axis!r}")
    return axis


@builtin
def program_id(axis) -> tensor:
    """The id of the running program along ``axis`` (0, 1 or 2) of the launch grid."""
    from . import core

    return tensor(semantic._b().program_id(_axis(axis)), core.int32)


@builtin
def num_programs(axis) -> tensor:
    """The number of programs along ``axis`` of the launch grid."""
    from . import core

    return tensor(semantic._b().num_programs(_axis(axis)), core.int32)


# -- creation ------------------------------------------------------------------------------------


@builtin
def arange(start, end) -> tensor:
    """The int32 tensor start, start + 1, ..., end - 1 (end - start a power of two)."""
    return semantic.arange(start, end)


@builtin
def full(shape, value, dtype) -> tensor:  # noqa: A002
    """A tensor of ``shape`` with every element equal to ``value``."""
    return semantic.full(shape, value, dtype)


@builtin
def zeros(shape, dtype) -> tensor:  # noqa: A002
    return semantic.full(shape, 0, dtype)


@builtin
def zeros_like(input) -> tensor:  # noqa: A002
    input = _t(input)
    return semantic.full(input.shape, 0, input.dtype)


@builtin
@_tensor_member_fn
def cast(input, dtype, fp_downcast_rounding=None, bitcast=False) -> tensor:  # noqa: A002
    """``input`` converted to ``dtype`` (``bitcast=True`` reinterprets its bits)."""
    input = _t(input)
    if _unwrap(bitcast):
        return semantic.bitcast(input, _unwrap(dtype))
    return semantic.cast(input, _unwrap(dtype), _unwrap(fp_downcast_rounding))


@builtin
@_tensor_member_fn
def item(input) -> tensor:  # noqa: A002
    """The element of a tensor with exactly one element, as a scalar."""
    return semantic.item(_t(input))


# -- memory --------------------------------------------------------------------------------------


@builtin
def load(pointer, mask=None, other=None, boundary_check=(), padding_option="",
         cache_modifier="", eviction_policy="", volatile=False) -> tensor:
    """Loads through a pointer, a tensor of pointers or a block pointer; lanes whose ``mask`` is
    false are not read and take ``other``."""
    return semantic.load(pointer, mask, other, boundary_check, padding_option, cache_modifier,
                         eviction_policy, volatile)


@builtin
def store(pointer, value, mask=None, boundary_check=(), cache_modifier="",
          eviction_policy="") -> None:
    """Stores ``value`` (cast to the pointee type) where ``mask`` holds."""
    return semantic.store(pointer, value, mask, boundary_check, cache_modifier, eviction_policy)


@builtin
def make_block_ptr(base, shape, strides, offsets, block_shape, order) -> tensor:
    return semantic.make_block_ptr(base, shape, strides, offsets, block_shape, order)


@builtin
def advance(base, offsets) -> tensor:
    return semantic.advance(base, offsets)


tensor.advance = advance


@builtin
def make_tensor_descriptor(base, shape, strides, block_shape,
                           padding_option="zero") -> tensor_descriptor:
    """A descriptor of ``block_shape`` blocks of the tensor at ``base`` with ``shape`` and
    ``strides`` (the last stride must be 1); ``desc.load(offsets)`` and
    ``desc.store(offsets, value)`` move whole blocks, reading ``padding_option`` ("zero" or
    "nan") outside the tensor."""
    return semantic.make_tensor_descriptor(base, shape, strides, block_shape, padding_option)


@builtin
def load_tensor_descriptor(desc, offsets) -> tensor:
    """``desc.load(offsets)``."""
    return semantic.descriptor_load(_unwrap(desc), offsets)


@builtin
def store_tensor_descriptor(desc, offsets, value) -> None:
    """``desc.store(offsets, value)``."""
    return semantic.descriptor_store(_unwrap(desc), offsets, value)


# -- shapes --------------------------------------------------------------------------------------


@builtin
@_tensor_member_fn
def broadcast(input, other):  # noqa: A002
    """``input`` and ``other`` broadcast to a common shape."""
    return semantic.broadcast_impl_value(_t(input), _t(other))


@builtin
@_tensor_member_fn
def broadcast_to(input, *shape) -> tensor:  # noqa: A002
    return semantic.broadcast_impl_shape(_t(input), _shape_args(shape))


@builtin
@_tensor_member_fn
def reshape(input, *shape, can_reorder=False) -> tensor:  # noqa: A002
    return semantic.reshape(_t(input), _shape_args(shape), bool(_unwrap(can_reorder)))


@builtin
@_tensor_member_fn
def view(input, *shape) -> tensor:  # noqa: A002
    """A reshape that may reorder the elements (deprecated in Triton; kept for ports)."""
    return semantic.reshape(_t(input), _shape_args(shape), True)


@builtin
@_tensor_member_fn
def expand_dims(input, axis) -> tensor:  # noqa: A002
    """New length-1 axes at ``axis`` (an int or a sequence), indices of the result's axes."""
    input = _t(input)
    axis = _unwrap(axis)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    rank = len(input.shape) + len(axes)
    axes = [semantic.wrap_axis(_unwrap(a), rank) for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"expand_dims received duplicate axes, normalized axes = {axes}")
    for a in sorted(axes):
        input = semantic.expand_dims(input, a)
    return input


@builtin
@_tensor_member_fn
def trans(input, *dims) -> tensor:  # noqa: A002
    return semantic.trans(_t(input), *[_unwrap(d) for d in dims])


@builtin
@_tensor_member_fn
def permute(input, *dims) -> tensor:  # noqa: A002
    return semantic.permute(_t(input), _shape_args(dims))


@builtin
def cat(input, other, can_reorder=False, dim=0) -> tensor:  # noqa: A002
    """Concatenates ``input`` and ``other`` along ``dim``; ``can_reorder=True`` lets the
    compiler order the elements as it likes (1-D tensors only)."""
    return semantic.cat(_t(input), _t(other), can_reorder, dim)


@builtin
def join(a, b) -> tensor:
    return semantic.join(_unwrap(a), _unwrap(b))


@builtin
@_tensor_member_fn
def split(a):
    return semantic.split(_t(a))


@builtin
def interleave(a, b) -> tensor:
    """Interleaves the last dimensions of ``a`` and ``b``: [a0, b0, a1, b1, ...]."""
    c = semantic.join(_unwrap(a), _unwrap(b))
    if len(c.shape) == 1:
        return c
    return semantic.reshape(c, c.shape[:-2] + (2 * c.shape[-2],), False)


@builtin
@_tensor_member_fn
def ravel(x) -> tensor:
    x = _t(x)
    return semantic.reshape(x, [x.numel], True)


@builtin
def where(condition, x, y) -> tensor:
    return semantic.where(condition, x, y)


# -- arithmetic ----------------------------------------------------------------------------------


@builtin
def maximum(x, y, propagate_nan=PropagateNan.NONE) -> tensor:
    return semantic.maximum(_unwrap(x), _unwrap(y), propagate_nan)


@builtin
def minimum(x, y, propagate_nan=PropagateNan.NONE) -> tensor:
    return semantic.minimum(_unwrap(x), _unwrap(y), propagate_nan)


@builtin
def clamp(x, min, max, propagate_nan=PropagateNan.NONE) -> tensor:  # noqa: A002
    return semantic.clamp(_unwrap(x), _unwrap(min), _unwrap(max), propagate_nan)


@builtin
def fdiv(x, y, ieee_rounding=False) -> tensor:
    """``x / y`` of floats; ``ieee_rounding=True`` rounds an fp32 quotient correctly
    (``div_rn``), otherwise the GPU divides within 2 ulp (div.full), as Triton."""
    return semantic.fdiv(_unwrap(x), _unwrap(y), _unwrap(ieee_rounding))


@builtin
def div_rn(x, y) -> tensor:
    """Division rounded to nearest (fp32)."""
    x, y = semantic.binary_op_type_checking_impl(_unwrap(x), _unwrap(y))
    if x.dtype.name != "fp32":
        raise ValueError(f"expected dtype ['fp32'] but got {x.dtype.name}")
    return semantic._binary("precise_divf", x, y)


@builtin
def umulhi(x, y) -> tensor:
    """The high half of the double-width product of two integers."""
    x, y = semantic.binary_op_type_checking_impl(_unwrap(x), _unwrap(y))
    if x.dtype.name not in ("int32", "int64", "uint32", "uint64"):
        raise ValueError(f"expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got "
                         f"{x.dtype.name}")
    return semantic._binary("mulhiui", x, y)


@builtin
def fma(x, y, z) -> tensor:
    x, y = semantic.binary_op_type_checking_impl(_unwrap(x), _unwrap(y))
    z, x = semantic.binary_op_type_checking_impl(_unwrap(z), x)
    z, y = semantic.binary_op_type_checking_impl(z, y)
    if not x.dtype.is_floating():
        raise ValueError(f"fma expects floating-point operands, got {x.dtype}")
    return tensor(semantic._b().fma(x.handle, y.handle, z.handle, x.type), x.type)


@builtin
@_tensor_member_fn
def abs(x) -> tensor:  # noqa: A001
    return semantic.abs(_unwrap(x))


# -- linear algebra ------------------------------------------------------------------------------


@builtin
def dot(input, other, acc=None, input_precision=None, allow_tf32=None,  # noqa: A002
        max_num_imprecise_acc=None, out_dtype=None) -> tensor:
    """``input @ other + acc`` for 2-D (or batched 3-D) blocks; fp16/bf16/fp8 products
    accumulate in ``out_dtype`` (fp32 by default)."""
    from . import core

    out_dtype = _unwrap(out_dtype)
    if out_dtype is None:
        out_dtype = core.float32
    return semantic.dot(input, other, acc, input_precision, max_num_imprecise_acc, out_dtype,
                        allow_tf32)


# -- reductions and scans ------------------------------------------------------------------------


def call_combine(fn, args):
    """Calls a combine function: a @jit function (a `tt.call` while compiling) or a plain
    Python function over tensors."""
    fn = _unwrap(fn)
    generator = current_generator()
    if getattr(fn, "__tilecraft_jit__", False):
        if generator is not None and not is_interpreting():
            return generator.call_jit_function(fn, list(args), {})
        return fn(*args)
    return fn(*args)


def _as_inputs(input):
    input = _unwrap(input)
    if isinstance(input, (tuple, list)):
        return list(input), True
    return [input], False


@builtin
@_tensor_member_fn
def reduce(input, axis, combine_fn, keep_dims=False):  # noqa: A002
    """Reduces ``input`` (a tensor or a tuple of tensors) along ``axis`` with ``combine_fn``,
    a @jit function taking two elements of each input and returning one per input."""
    inputs, is_tuple = _as_inputs(input)
    results = semantic.reduction(inputs, axis, lambda args: call_combine(combine_fn, args),
                                 keep_dims)
    return tuple(results) if is_tuple else results[0]


@builtin
@_tensor_member_fn
def associative_scan(input, axis, combine_fn, reverse=False):  # noqa: A002
    """An inclusive scan of ``input`` along ``axis`` with the associative ``combine_fn``."""
    inputs, is_tuple = _as_inputs(input)
    results = semantic.associative_scan(inputs, axis,
                                        lambda args: call_combine(combine_fn, args), reverse)
    return tuple(results) if is_tuple else results[0]


@builtin
@_tensor_member_fn
def histogram(input, num_bins, mask=None) -> tensor:  # noqa: A002
    return semantic.histogram(input, num_bins, mask)


@builtin
@_tensor_member_fn
def gather(src, index, axis) -> tensor:
    """``out[i][j] = src[index[i][j]][j]`` for ``axis=0`` (and alike for other axes): the
    result has the shape of ``index``, which matches ``src`` off ``axis``."""
    return semantic.gather(_t(src), _t(index), _unwrap(axis))


# -- atomics -------------------------------------------------------------------------------------


def _atomic(name: str):
    impl = getattr(semantic, name)

    def fn(pointer, val, mask=None, sem=None, scope=None) -> tensor:
        return impl(pointer, val, mask, _unwrap(sem), _unwrap(scope))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}: applied atomically element by element; returns the old values."
    return builtin(fn)


atomic_add = _atomic("atomic_add")
atomic_max = _atomic("atomic_max")
atomic_min = _atomic("atomic_min")
atomic_and = _atomic("atomic_and")
atomic_or = _atomic("atomic_or")
atomic_xor = _atomic("atomic_xor")
atomic_xchg = _atomic("atomic_xchg")


@builtin
def atomic_cas(pointer, cmp, val, sem=None, scope=None) -> tensor:
    """Atomic compare-and-swap; returns the old values."""
    return semantic.atomic_cas(pointer, cmp, val, _unwrap(sem), _unwrap(scope))


# -- hints ---------------------------------------------------------------------------------------


@builtin
def multiple_of(input, values) -> tensor:  # noqa: A002
    return semantic.multiple_of(input, values)


@builtin
def max_contiguous(input, values) -> tensor:  # noqa: A002
    return semantic.max_contiguous(input, values)


@builtin
def max_constancy(input, values) -> tensor:  # noqa: A002
    return semantic.max_constancy(input, values)


@builtin
def assume(cond) -> None:
    return semantic.assume(cond)


# -- debugging -----------------------------------------------------------------------------------


@builtin
def static_print(*values, sep: str = " ", end: str = "\n", file=None, flush: bool = False):
    """Prints at compile time (once per program in the interpreter)."""
    builtins.print(*[_unwrap(v) for v in values], sep=sep, end=end,
                   file=file if file is not None else sys.stdout, flush=flush)


@builtin
def static_assert(cond, msg: str = "") -> None:
    """Fails the compilation when the compile-time condition ``cond`` is false."""
    cond = _unwrap(cond)
    if isinstance(cond, tensor):
        raise TypeError("static_assert needs a compile-time condition, got a tensor")
    if not cond:
        raise AssertionError(f"static_assert failed: {_unwrap(msg)}" if msg
                             else "static_assert failed")


@builtin
def device_print(prefix, *args, hex=False) -> None:  # noqa: A002
    """Prints ``prefix`` and the values of ``args`` (per element) from every program."""
    return semantic.device_print(_unwrap(prefix), [_unwrap(a) for a in args], hex)


@builtin
def device_assert(cond, msg="", mask=None) -> None:
    """Fails the kernel when ``cond`` is false for an element (where ``mask`` holds)."""
    return semantic.device_assert(cond, msg, mask)


@builtin
def debug_barrier() -> None:
    """A barrier between all threads of a program."""
    return semantic.debug_barrier()


# -- loops ---------------------------------------------------------------------------------------


class range:  # noqa: A001 - Triton's name
    """``for i in tl.range(start, end, step, num_stages=..., loop_unroll_factor=...)``: a loop
    the compiler keeps as `scf.for`, with pipelining and unrolling hints (Triton's options;
    each becomes an attribute of the `scf.for`)."""

    __tilecraft_iterator__ = True

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None,
                 disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False,
                 disable_licm=False) -> None:
        if step is None:
            step = 1
        if arg2 is None:
            start, end = 0, arg1
        else:
            start, end = arg1, arg2
        self.start, self.end, self.step = _unwrap(start), _unwrap(end), _unwrap(step)
        self.num_stages = _unwrap(num_stages)
        self.loop_unroll_factor = _unwrap(loop_unroll_factor)
        self.disallow_acc_multi_buffer = _unwrap(disallow_acc_multi_buffer)
        self.flatten = _unwrap(flatten)
        self.warp_specialize = _unwrap(warp_specialize)
        self.disable_licm = _unwrap(disable_licm)

    def __iter__(self):
        # only the interpreter iterates (the compiler reads the fields): the index is an i32
        # tensor (i64 when a bound is), as in compiled code
        from . import core

        bounds = [self.start, self.end, self.step]
        wide = any(isinstance(b, tensor) and b.dtype.int_bitwidth == 64 for b in bounds) or \
            any(not isinstance(b, tensor) and not -2**31 <= int(b) < 2**31 for b in bounds)
        index_type = core.int64 if wide else core.int32
        for value in builtins.range(int(self.start), int(self.end), int(self.step)):
            yield semantic.scalar_constant(value, index_type)


class static_range:
    """``for i in tl.static_range(...)``: a loop unrolled at compile time (constexpr bounds)."""

    __tilecraft_iterator__ = True

    def __init__(self, arg1, arg2=None, step=None) -> None:
        if step is None:
            step = 1
        if arg2 is None:
            start, end = 0, arg1
        else:
            start, end = arg1, arg2
        self.start, self.end, self.step = _unwrap(start), _unwrap(end), _unwrap(step)
        for value, what in ((self.start, "start"), (self.end, "end"), (self.step, "step")):
            if isinstance(value, tensor) or not isinstance(value, int):
                raise TypeError(f"static_range's {what} must be a constexpr integer, got "
                                f"{value!r}")

    def __iter__(self):
        return iter(builtins.range(self.start, self.end, self.step))


_ = (constexpr, dtype)
