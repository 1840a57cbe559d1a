"""Fused row softmax (Triton's tutorial 02, with tilecraft's imports).

    python examples/02_fused_softmax.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty_like, report, relative_error, show_ir, stride


@tc.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = tc.next_power_of_2(n_cols)
    y = empty_like(x)
    num_programs = min(8, n_rows)
    softmax_kernel[(num_programs, 1, 1)](y, x, stride(x, 0), stride(y, 0), n_rows, n_cols,
                                         BLOCK_SIZE=BLOCK_SIZE, num_stages=2)
    return y


if __name__ == "__main__":
    rng = np.random.default_rng()
    x_np = rng.standard_normal((123, 781)).astype(np.float32)
    x = device_array(x_np)
    y = softmax(x)
    show_ir(softmax_kernel, y, x, x.shape[1], x.shape[1], *x.shape, BLOCK_SIZE=1024,
            num_stages=2)
    wide = x_np.astype(np.float64)
    ref = np.exp(wide - wide.max(1, keepdims=True))
    ref /= ref.sum(1, keepdims=True)
    report("fused softmax", softmax_kernel, relative_error(y, ref), 1e-5)
