"""Matrix multiplication through tensor descriptors: the operands and the result are
`tc.TensorDescriptor`s, so each program loads and stores whole blocks (with the tensor memory
accelerator on Hopper GPUs; as masked pointer loads elsewhere). Grouped ordering as in
04_matmul.py; blocks past the edges read zeros and are not written.

    python examples/07_matmul_descriptors.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty, report, relative_error, show_ir


@tc.jit
def matmul_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                  BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = a_desc.load([pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K])
        b = b_desc.load([k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N])
        accumulator = tl.dot(a, b, accumulator)
    c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], accumulator.to(c_desc.dtype))


def matmul(a, b, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8):
    M, K = a.shape
    N = b.shape[1]
    c = empty((M, N), np.float16)
    a_desc = tc.TensorDescriptor.from_tensor(a, [BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tc.TensorDescriptor.from_tensor(b, [BLOCK_SIZE_K, BLOCK_SIZE_N])
    c_desc = tc.TensorDescriptor.from_tensor(c, [BLOCK_SIZE_M, BLOCK_SIZE_N])
    grid = (tc.cdiv(M, BLOCK_SIZE_M) * tc.cdiv(N, BLOCK_SIZE_N), )
    matmul_kernel[grid](a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N,
                        BLOCK_SIZE_K, GROUP_SIZE_M, num_warps=4, num_stages=3)
    return c, (a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K,
               GROUP_SIZE_M)


if __name__ == "__main__":
    rng = np.random.default_rng()
    # descriptors need rows of a multiple of 16 bytes: 8 fp16 elements
    a_np = rng.standard_normal((200, 152)).astype(np.float16)
    b_np = rng.standard_normal((152, 184)).astype(np.float16)
    a, b = device_array(a_np), device_array(b_np)
    c, args = matmul(a, b)
    show_ir(matmul_kernel, *args)
    ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
    report("matmul through tensor descriptors", matmul_kernel, relative_error(c, ref), 2e-3)
