#!/usr/bin/env python3
"""The tensor cores' throughput ceiling of each instruction family on this GPU: a kernel that
loads one A and one B block per program and then runs ``tl.dot`` on them ``ITERS`` times into
one accumulator (no global memory traffic in the loop), compiled by tilecraft and Triton for
their default target (wgmma on Hopper) and for sm_80 (``arch="sm80"``: mma.sync), fp16 and bf16
inputs with fp32 accumulation; beside them the instruction's own ceiling, a hand-written PTX
loop of independent ``mma.sync.m16n8k16`` (`raw_ptx`: no shared memory, no address arithmetic),
and cuBLAS's matmul at 8192^3 (``torch.matmul``), all in one run.

The compiled loops need not reach the instruction's ceiling: in their SASS (H200, 128x256x32
on 8 warps) Triton's sm_80 code reloads both operands with ldmatrix on every trip, and
tilecraft's staged them through shared memory on every trip (stores, four barriers, ldmatrix)
until `triton-licm` ran before the pipeliner; its loop now holds the 64 HMMA alone. Every
output is checked (ITERS times A @ B; the PTX loop's sums) before it is timed.

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


# The PTX loop: each warp runs RAW_CHAINS independent m16n8k16 MMAs per trip on fixed operands
# (every element 1.0) into accumulators that start at the thread's index, then stores their sum.
# 8 warps, 4 blocks per SM: the fastest of a sweep over 4-16 chains, 4-8 warps and 1-4 blocks.
RAW_CHAINS, RAW_WARPS, RAW_BLOCKS_PER_SM = 16, 8, 4


def raw_ptx(kind: str) -> str:
    """The PTX of the hand-written loop for ``kind`` (``f16``/``bf16``)."""
    instruction = f"mma.sync.aligned.m16n8k16.row.col.f32.{kind}.{kind}.f32"
    registers = 4 * RAW_CHAINS
    lines = [".version 8.0", ".target sm_80", ".address_size 64",
             ".visible .entry mma_ptx(.param .u64 out, .param .u32 trips)", "{",
             ".reg .b32 a<4>, b<2>, i, n, t, s;", f".reg .f32 c<{registers}>, start;",
             ".reg .pred p;", ".reg .u64 o, offset;",
             "ld.param.u64 o, [out];", "ld.param.u32 n, [trips];", "mov.u32 t, %tid.x;",
             "cvt.rn.f32.u32 start, t;"]
    one = "0x3f803f80" if kind == "bf16" else "0x3c003c00"  # a pair of 1.0s
    lines += [f"mov.b32 {name}, {one};" for name in ("a0", "a1", "a2", "a3", "b0", "b1")]
    lines += [f"mov.f32 c{k}, start;" for k in range(registers)]
    lines += ["mov.u32 i, 0;", "TRIP:"]
    for chain in range(RAW_CHAINS):
        c = ",".join(f"c{4 * chain + q}" for q in range(4))
        lines.append(f"{instruction} {{{c}}}, {{a0,a1,a2,a3}}, {{b0,b1}}, {{{c}}};")
    lines += ["add.u32 i, i, 1;", "setp.lt.u32 p, i, n;", "@p bra TRIP;"]
    lines += [f"add.f32 c0, c0, c{k};" for k in range(1, registers)]
    lines += ["mov.u32 s, %ctaid.x;", "mov.u32 i, %ntid.x;", "mad.lo.u32 s, s, i, t;",
              "mul.wide.u32 offset, s, 4;", "add.u64 o, o, offset;", "st.global.f32 [o], c0;",
              "ret;", "}", ""]
    return "\n".join(lines)


def raw_peak(device: gpu.CudaDevice, row: gpu.Row, kind: str, trips: int) -> None:
    """The PTX loop's TFLOP/s in ``row``'s ``ptx`` column (assembled by tilecraft's toolchain,
    launched through its driver)."""
    from tilecraft.backends.cuda.driver import CudaFunction
    from tilecraft.backends.cuda.toolchain import ptx_to_cubin

    torch = device.torch
    properties = torch.cuda.get_device_properties(0)
    blocks = RAW_BLOCKS_PER_SM * properties.multi_processor_count
    # the sm_80 PTX assembled for this GPU, as ``arch="sm80"`` kernels are
    capability = 10 * properties.major + properties.minor
    cubin = ptx_to_cubin(raw_ptx(kind), capability, name="mma_ptx").cubin
    function = CudaFunction(cubin, "mma_ptx", 0, RAW_WARPS, ("ptr", "i32"),
                            arg_names=("out", "trips"))
    threads = 32 * RAW_WARPS
    out = torch.empty(blocks * threads, device="cuda")
    # each MMA adds 16 (k products of 1.0) to every accumulator: small integers, exact in fp32
    index = torch.arange(threads, device="cuda", dtype=torch.float32).repeat(blocks)
    expected = 4 * RAW_CHAINS * (index + 16 * trips)

    def launch() -> Any:
        function.launch((blocks, 1, 1), (out, trips), None)
        return out

    def check(result: Any) -> None:
        torch.cuda.synchronize()
        if not torch.equal(result, expected):
            raise AssertionError("wrong sums")

    def figure(ms: float) -> float:
        return 2 * 16 * 8 * 16 * RAW_CHAINS * trips * blocks * RAW_WARPS / (ms * 1e-3) / 1e12

    gpu.measure(row, "ptx", launch, check, figure, device)


def cublas(device: gpu.CudaDevice, row: gpu.Row, dtype_name: str, size: int = 8192) -> None:
    """torch.matmul's TFLOP/s at ``size``^3 in ``row``'s ``cublas`` column."""
    torch = device.torch
    a, b = (torch.randn(size, size, device="cuda", dtype=getattr(torch, dtype_name))
            for _ in range(2))
    reference = a[:64].float() @ b.float()

    def check(result: Any) -> None:
        torch.testing.assert_close(result[:64].float(), reference, rtol=2e-2, atol=1.0)

    gpu.measure(row, "cublas", lambda: a @ b, check,
                lambda ms: 2 * size ** 3 / (ms * 1e-3) / 1e12, device)


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
    for row, (kind, dtype_name) in zip(rows, (("f16", "float16"), ("bf16", "bfloat16"))):
        raw_peak(device, row, kind, 8 * args.iters)
        cublas(device, row, dtype_name)
    heading = (f"tensor-core ceiling (dot loop, no memory traffic) on {device.describe()}; "
               f"{programs} programs, {NUM_WARPS} warps, {args.iters} dots each; ptx: "
               f"{RAW_CHAINS} MMA chains per warp, {RAW_WARPS} warps, {RAW_BLOCKS_PER_SM} "
               f"blocks per SM; cublas: 8192^3; "
               f"{time.perf_counter() - start:.0f} s")
    columns = ["tilecraft", "triton", "tilecraft-sm80", "triton-sm80", "ptx", "cublas"]
    table = gpu.format_table(rows, columns, heading)
    print(table, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "mma_peak.txt").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
