"""The classic kernels: Triton's tutorials as examples/ writes them (imported from there, not
copied) and smaller kernels of the language's control flow; the golden IR tests compile them,
the interpreter tests run them against numpy."""

from __future__ import annotations

import sys
from pathlib import Path

import tilecraft as tc
import tilecraft.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from _load import example  # noqa: E402  (examples/_load.py)


# The tutorial kernels, from examples/ (the autotuned matmul without its autotuner).
add_kernel = example("01_vector_add").add_kernel
softmax_kernel = example("02_fused_softmax").softmax_kernel
layer_norm_fwd = example("03_layer_norm")._layer_norm_fwd_fused
matmul_kernel = example("04_matmul").matmul_kernel.fn
dropout_kernel = example("06_dropout")._seeded_dropout


@tc.jit
def while_kernel(x_ptr, out_ptr, n, limit, BLOCK: tl.constexpr):
    """Sums blocks of x until the running total reaches ``limit`` or the data ends."""
    total = 0.0
    start = 0
    while (start < n) and (total < limit):
        offs = start + tl.arange(0, BLOCK)
        total += tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0))
        start += BLOCK
    tl.store(out_ptr, total)
    tl.store(out_ptr + 1, start.to(tl.float32))


@tc.jit
def scale(x, factor):
    return x * factor


@tc.jit
def add_sub_scaled(x, y, factor: tl.constexpr):
    return scale(x + y, factor), scale(x - y, factor)


@tc.jit
def nested_call_kernel(x_ptr, y_ptr, sum_ptr, diff_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    s, d = add_sub_scaled(x, y, 2.0)
    tl.store(sum_ptr + offs, s, mask=mask)
    tl.store(diff_ptr + offs, d, mask=mask)


@tc.jit
def max_abs_combine(a, b):
    return tl.where(tl.abs(a) > tl.abs(b), a, b)


@tc.jit
def max_abs_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.reduce(x, 0, max_abs_combine))


@tc.jit
def early_exit_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if pid == 0:
        x = x * 2
    else:
        x = x + 1
    tl.store(out_ptr + offs, x, mask=offs < n)
