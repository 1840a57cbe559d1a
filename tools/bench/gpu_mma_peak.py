#!/usr/bin/env python3
"""The tensor cores' throughput ceiling of each instruction family on this GPU, as compilers
reach it: a kernel that loads one A and one B block per program and then runs ``tl.dot`` on
them ``ITERS`` times into one accumulator (no memory traffic in the loop), compiled by tilecraft
and Triton for their default target (wgmma on Hopper) and for sm_80 (``arch="sm80"``: mma.sync),
fp16 and bf16 inputs with fp32 accumulation. Its TFLOP/s bounds what a matmul can reach with
that instruction family; a matmul's ratio to cuBLAS is bounded by this ceiling's ratio to it.
Every output is checked (ITERS times A @ B) before it is timed.

    python tools/bench/gpu_mma_peak.py [--out DIR] [--iters 512]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu  # noqa: E402  (tools/bench/gpu.py: headers, rows, timing, the table)

MMA_LOOP = '''
@jit
def mma_loop(a_ptr, b_ptr, c_ptr, ITERS: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + pid * BLOCK_M * BLOCK_K + rm[:, None] * BLOCK_K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BLOCK_N + rn[None, :])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(ITERS):
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + pid * BLOCK_M * BLOCK_N + rm[:, None] * BLOCK_N + rn[None, :], acc)
'''

# 128x256x32 on 8 warps: the sm_80 code keeps A, B and the accumulator in registers unspilled
BLOCK_M, BLOCK_N, BLOCK_K, NUM_WARPS = 128, 256, 32, 8


def peak(device: gpu.CudaDevice, modules: dict[str, Any], dtype_name: str, iters: int,
         programs: int) -> gpu.Row:
    torch = device.torch
    dtype = getattr(torch, dtype_name)
    row = gpu.Row(f"dot loop {dtype_name} {BLOCK_M}x{BLOCK_N}x{BLOCK_K}", "TFLOP/s", True)
    # small integers: every product and sum is exact in fp32, so the check is exact
    a = torch.randint(-2, 3, (programs * BLOCK_M, BLOCK_K), device="cuda").to(dtype)
    b = torch.randint(-2, 3, (BLOCK_K, BLOCK_N), device="cuda").to(dtype)
    expected = (a.float().view(programs, BLOCK_M, BLOCK_K) @ b.float()) * iters

    def figure(ms: float) -> float:
        return 2 * programs * BLOCK_M * BLOCK_N * BLOCK_K * iters / (ms * 1e-3) / 1e12

    def check(out: Any) -> None:
        torch.cuda.synchronize()
        if not torch.equal(out.view(programs, BLOCK_M, BLOCK_N), expected):
            raise AssertionError("wrong result")

    for compiler, module in modules.items():
        for column, options in ((compiler, {}), (f"{compiler}-sm80", {"arch": "sm80"})):
            c = torch.full((programs * BLOCK_M, BLOCK_N), float("nan"), device="cuda")

            def launch(module: Any = module, c: Any = c, options: dict = options) -> Any:
                module.mma_loop[(programs, )](a, b, c, ITERS=iters, BLOCK_M=BLOCK_M,
                                              BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                              num_warps=NUM_WARPS, **options)
                return c

            gpu.measure(row, column, launch, check, figure, device)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder for mma_peak.txt")
    parser.add_argument("--iters", type=int, default=512, help="dots per program")
    args = parser.parse_args()
    os.environ["TILECRAFT_BACKEND"] = "cuda"
    start = time.perf_counter()
    device = gpu.CudaDevice(gpu.import_triton())
    programs = 8 * device.torch.cuda.get_device_properties(0).multi_processor_count
    with tempfile.TemporaryDirectory(prefix="bench-mma-") as folder_name:
        modules = gpu.kernel_modules(Path(folder_name), "mma_loop", MMA_LOOP)
        rows = [peak(device, modules, name, args.iters, programs)
                for name in ("float16", "bfloat16")]
    heading = (f"tensor-core ceiling (dot loop, no memory traffic) on {device.describe()}; "
               f"{programs} programs, {NUM_WARPS} warps, {args.iters} dots each; "
               f"{time.perf_counter() - start:.0f} s")
    table = gpu.format_table(rows, ["tilecraft", "triton", "tilecraft-sm80", "triton-sm80"],
                             heading)
    print(table, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "mma_peak.txt").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
