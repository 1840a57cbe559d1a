"""Vector addition (Triton's tutorial 01, with tilecraft's imports).

    python examples/01_vector_add.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty_like, report, relative_error, show_ir


@tc.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y):
    output = empty_like(x)
    n_elements = output.shape[0]
    grid = lambda meta: (tc.cdiv(n_elements, meta['BLOCK_SIZE']), )  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    rng = np.random.default_rng()
    size = 98432
    x_np = rng.random(size, dtype=np.float32)
    y_np = rng.random(size, dtype=np.float32)
    x, y = device_array(x_np), device_array(y_np)
    output = add(x, y)
    show_ir(add_kernel, x, y, output, size, BLOCK_SIZE=1024)
    report("vector add", add_kernel, relative_error(output, x_np.astype(np.float64) + y_np), 1e-7)
