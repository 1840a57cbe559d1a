#!/usr/bin/env python3
"""Matmul on the GPU, tilecraft against Triton and torch (cuBLAS) in one run: TFLOP/s of
Triton's tutorial matmul kernel (grouped ordering, masked K loop) compiled by both compilers
with the same blocks, warps and stages, fp16 and bf16 inputs with fp32 accumulation, at
4096^3 and 8192^3, against ``torch.matmul``; the mma.sync code of both (their sm_80 target,
launch option ``arch="sm80"``, run on this GPU: ``tilecraft-sm80``, ``triton-sm80``), and the
same kernel through tensor
descriptors (examples/07_matmul_descriptors.py: TMA copies on Hopper) compiled by both
(``tilecraft-tma``, ``triton-tma``). Every output is checked against
torch before it is timed. The columns are timed in ``--rounds`` rounds that alternate between
them (``triton.testing.do_bench`` medians, then the median of the rounds), since the GPU's
clocks drift over seconds.

``--sustained SECONDS`` then runs each column back to back for that long and prints a second
table: its TFLOP/s over the second half of the run, with the median SM clock and board power
there (`gpu_clocks`). These matmuls run at the board's power cap, where the clock the cap
leaves differs by kernel: a ratio of sustained TFLOP/s is also one of energy per FLOP.

    python tools/bench/gpu_matmul.py [--out DIR] [--sizes 4096,8192] [--stages 3] [--rounds 3]
                                     [--sustained 2]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu  # noqa: E402  (tools/bench/gpu.py: headers, rows, timing, the table)
from gpu_clocks import ClockLog  # noqa: E402

# examples/04_matmul.py's kernel (Triton's tutorial 03-matrix-multiplication.py, MIT license,
# without its activation).
MATMUL = "@jit\n" + gpu.kernel_source("04_matmul", "matmul_kernel")
# examples/07_matmul_descriptors.py's kernel: the same through tensor descriptors (TMA).
MATMUL_TMA = "@jit\n" + gpu.kernel_source("07_matmul_descriptors", "matmul_kernel")

# Triton's tutorial configuration for fp16 on Hopper-class GPUs (its first autotune config).
CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}
NUM_WARPS, NUM_STAGES = 8, 3


def _descriptor_class(compiler: str) -> Any:
    """The host tensor-descriptor class of ``compiler``."""
    if compiler == "tilecraft":
        import tilecraft

        return tilecraft.TensorDescriptor
    from triton.tools.tensor_descriptor import TensorDescriptor

    return TensorDescriptor


def matmul(device: gpu.CudaDevice, modules: dict[str, ModuleType],
           tma_modules: dict[str, ModuleType], size: int, dtype_name: str,
           stages: int, rounds: int, seconds: float,
           clocks: ClockLog | None) -> tuple[gpu.Row, dict[str, float] | None]:
    """The case's row of TFLOP/s, and with ``seconds`` its sustained runs (`sustained`)."""
    torch = device.torch
    dtype = getattr(torch, dtype_name)
    row = gpu.Row(f"matmul {dtype_name} {size}^3", "TFLOP/s", True)
    a = device.randn(size, size).to(dtype)
    b = device.randn(size, size).to(dtype)
    expected = torch.matmul(a, b)

    def figure(ms: float) -> float:
        return 2 * size ** 3 / (ms * 1e-3) / 1e12

    def check(out: Any) -> None:
        torch.cuda.synchronize()
        scale = expected.float().abs().max().item()
        worst = (out.float() - expected.float()).abs().max().item()
        if not worst <= 2e-2 * scale:
            raise AssertionError(f"wrong result: max |difference| {worst:.3g} (scale {scale:.3g})")

    launches: dict[str, Any] = {device.peer: lambda: torch.matmul(a, b)}
    for compiler, module in modules.items():
        c = torch.empty((size, size), dtype=dtype, device="cuda")
        grid = (math.ceil(size / CONFIG["BLOCK_SIZE_M"])
                * math.ceil(size / CONFIG["BLOCK_SIZE_N"]), )

        def launch(module: ModuleType = module, c: Any = c, **options: Any) -> Any:
            module.matmul_kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                       b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                       num_warps=NUM_WARPS, num_stages=stages, **options,
                                       **CONFIG)
            return c

        launches[compiler] = launch
        # the mma.sync code of each compiler (its sm_80 target run on this GPU)
        launches[f"{compiler}-sm80"] = lambda launch=launch: launch(arch="sm80")
    blocks = (CONFIG["BLOCK_SIZE_M"], CONFIG["BLOCK_SIZE_N"], CONFIG["BLOCK_SIZE_K"])
    for compiler, module in tma_modules.items():
        c = torch.empty((size, size), dtype=dtype, device="cuda")
        descriptor = _descriptor_class(compiler)
        descs = (descriptor.from_tensor(a, [blocks[0], blocks[2]]),
                 descriptor.from_tensor(b, [blocks[2], blocks[1]]),
                 descriptor.from_tensor(c, [blocks[0], blocks[1]]))
        grid = (math.ceil(size / blocks[0]) * math.ceil(size / blocks[1]), )

        def launch_tma(module: ModuleType = module, c: Any = c, descs: tuple = descs) -> Any:
            module.matmul_kernel[grid](*descs, size, size, size, num_warps=NUM_WARPS,
                                       num_stages=stages, **CONFIG)
            return c

        launches[f"{compiler}-tma"] = launch_tma
    gpu.measure_alternating(row, launches, check, figure, device, rounds)
    if not seconds or clocks is None:
        return row, None
    return row, sustained(device, row, launches, seconds, clocks, 2 * size ** 3)


def sustained(device: gpu.CudaDevice, row: gpu.Row, launches: dict[str, Any],
              seconds: float, clocks: ClockLog, flops: int) -> dict[str, float]:
    """Each column that `measure_alternating` timed, launched back to back for ``seconds``:
    its TFLOP/s over the second half (the first lets the clock settle at the power cap), whose
    time is ``clocks``'s span `_span_label`."""
    torch = device.torch
    result: dict[str, float] = {}
    for column, launch in launches.items():
        if row.values.get(column) is None:
            continue
        label = _span_label(row.case, column)
        settle = time.perf_counter() + seconds / 2
        while time.perf_counter() < settle:
            launch()
            torch.cuda.synchronize()
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        launched, stop = 0, time.perf_counter() + seconds / 2
        with clocks.span(label):
            start.record()
            while time.perf_counter() < stop:
                launch()
                launched += 1
                if launched % 4 == 0:
                    torch.cuda.synchronize()
            end.record()
            end.synchronize()
        result[column] = flops * launched / (start.elapsed_time(end) * 1e-3) / 1e12
    return result


def _span_label(case: str, column: str) -> str:
    """The `ClockLog` span of ``column``'s sustained run in ``case``."""
    return f"{case}|{column}"


def sustained_table(rows: list[tuple[str, dict[str, float]]], columns: list[str],
                    clocks: ClockLog, seconds: float) -> str:
    """The sustained runs' table: per case and column, TFLOP/s, SM clock (MHz) and power (W)
    (once ``clocks`` is closed: all its samples read)."""
    width = max(len(case) for case, _ in rows)
    widths = [max(14, len(column) + 1) for column in columns]
    why = f" ({clocks.unavailable})" if clocks.unavailable else ""
    lines = [f"sustained: each column back to back for {seconds:g} s; over the second half, "
             f"TFLOP/s, median SM clock (MHz) and board power (W){why}", "",
             f"{'case':<{width}}  " + "".join(f"{c:>{w}}" for c, w in zip(columns, widths))]
    for case, figures in rows:
        cells = []
        for column, w in zip(columns, widths):
            summary = clocks.summary(_span_label(case, column))
            text = "n/a" if column not in figures else f"{figures[column]:.0f}" + (
                "" if summary is None else f" {summary[0]:.0f} {summary[1]:.0f}")
            cells.append(f"{text:>{w}}")
        lines.append(f"{case:<{width}}  " + "".join(cells))
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder for matmul.txt")
    parser.add_argument("--sizes", default="4096,8192", help="comma-separated cube sizes")
    parser.add_argument("--stages", type=int, default=NUM_STAGES, help="num_stages of both")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timing rounds that alternate between the columns (medians)")
    parser.add_argument("--sustained", type=float, default=0.0, metavar="SECONDS",
                        help="then run each column back to back this long: TFLOP/s, SM clock "
                             "and power at the power cap (0: no)")
    args = parser.parse_args()
    os.environ["TILECRAFT_BACKEND"] = "cuda"
    start = time.perf_counter()
    device = gpu.CudaDevice(gpu.import_triton())
    rows, sustained_rows = [], []
    clocks = ClockLog(device.torch.cuda.current_device()) if args.sustained else None
    with tempfile.TemporaryDirectory(prefix="bench-matmul-") as folder_name:
        modules = gpu.kernel_modules(Path(folder_name), "matmul", MATMUL)
        tma_modules = gpu.kernel_modules(Path(folder_name), "matmul_tma", MATMUL_TMA)
        for size in (int(s) for s in args.sizes.split(",")):
            for dtype_name in ("float16", "bfloat16"):
                row, steady = matmul(device, modules, tma_modules, size, dtype_name,
                                     args.stages, args.rounds, args.sustained, clocks)
                rows.append(row)
                if steady is not None:
                    sustained_rows.append((row.case, steady))
    heading = (f"matmul: tilecraft vs Triton vs torch (cuBLAS) on {device.describe()}; "
               f"blocks {CONFIG}, num_warps={NUM_WARPS}, num_stages={args.stages}; medians "
               f"of {args.rounds} rounds alternating between the columns; "
               f"{time.perf_counter() - start:.0f} s")
    columns = ["tilecraft", "triton", "tilecraft-tma", "triton-tma", "tilecraft-sm80",
               "triton-sm80", device.peer]
    table = gpu.format_table(rows, columns, heading)
    if clocks is not None:
        clocks.close()
        table += "\n" + sustained_table(sustained_rows, columns, clocks, args.sustained)
    print(table, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "matmul.txt").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
