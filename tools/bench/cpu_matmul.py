#!/usr/bin/env python3
"""The CPU backend at the machine's speed: Triton's tutorial matmul against numpy's BLAS, and
vector add and softmax against the memory bandwidth ``numpy.copyto`` reaches, in one run.

* matmul: ``matmul_tutorial_kernel`` of ``cpu_backend.py`` (examples/04_matmul.py, Triton's
  tutorial 03, with an fp32 result: grouped ordering with GROUP_SIZE_M=8, pointer tensors
  advanced around the K loop, masks on K) at 1024^3, 2048^3 and 2048x2048x512, against
  ``np.matmul(a, b, out=c)``; goal: at most 1.25x numpy's time (the 2-core CI-like machine;
  1.5x on the 16-core GPU host). As in Triton's tutorial, the kernel is autotuned: its blocks
  are chosen per shape by ``tc.autotune`` over `FP32_BLOCKS`.
* bf16 inputs with fp32 accumulation at 2048^3 (the same kernel source), against torch's CPU
  bf16 matmul where torch is installed (else numpy's fp32 matmul of the same values); goal:
  faster. Its blocks are chosen over `BF16_BLOCKS`. Where the host runs AMX bf16 (`dot_amx`),
  larger blocks amortize the packing of a dot's operands and the loads and stores of its fp32
  result tiles over more tile products; that list leans that way.
* vector add of 2^26 fp32 and a one-row-per-program softmax of 16384x4096 fp32: their bytes
  moved per second against ``np.copyto`` of an array as large as the input (one read and one
  write per element); goal: within 10% of it.

Each autotuned case chooses on its first launch, which is not timed, with GROUP_SIZE_M=8 (each
configuration timed for `TUNING_REP_MS`, the choice not cached on disk); the table names the
blocks chosen (``--fp32-blocks``/``--bf16-blocks BMxBNxBK`` fix them instead;
``TILECRAFT_PRINT_AUTOTUNING=1`` prints every configuration's time).

Each of ``--runs`` rounds draws fresh random inputs, then times tilecraft and numpy, in turn
first (the first pass over freshly allocated arrays is the slower: on the 2-core machine a
``np.copyto`` of 2^26 floats took 28 ms first and 18.5 ms after the vector add, which took
20-26 ms after it and 31 first); the table gives medians and the ratio of medians. numpy's idle
BLAS threads spin for a while after a call (OpenBLAS), which would take cores from tilecraft's
next run: tilecraft's calls wait ``--settle`` seconds first. Every tilecraft result is checked
against a float64 reference first (relative error ``max|out - ref| / max|ref|``, outputs
poisoned with NaN).


    python tools/bench/cpu_matmul.py [--runs 7] [--threads N] [--only matmul,bf16,add,softmax]
                                     [--fp32-blocks BMxBNxBK] [--bf16-blocks BMxBNxBK]
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cpu_backend  # noqa: E402  (the kernels; their launch helpers)

import tilecraft as tc  # noqa: E402

MATMUL_SHAPES = ((1024, 1024, 1024), (2048, 2048, 2048), (2048, 2048, 512))
MATMUL_GOAL = 1.25
# (BLOCK_M, BLOCK_N, BLOCK_K) that the fp32 and the bf16 cases' autotuning choose among. For
# fp32 on the 2-core machine (Zen, AVX2), 128x128x32 ran at 1.03/1.20/1.27x numpy's time
# where 64x64x32 ran at 1.18/1.50/1.38x (1024^3, 2048x2048x512, 2048^3; same run).
FP32_BLOCKS = ((64, 64, 32), (64, 64, 64), (128, 64, 32), (128, 64, 64), (128, 128, 32),
               (256, 128, 32))
BF16_BLOCKS = ((64, 64, 32), (128, 128, 64), (128, 128, 128), (256, 128, 128), (128, 256, 128),
               (256, 256, 64), (256, 256, 128), (256, 512, 64))
BANDWIDTH_GOAL = 1.10
# how long the autotuner times each configuration (ms): at least 5 runs of the slowest case
TUNING_REP_MS = 1000


@dataclass
class Row:
    """One case: the times of each side, and what the ratio is measured against."""

    case: str
    size: str
    baseline: str
    goal: float
    tilecraft: list[float] = field(default_factory=list)
    numpy: list[float] = field(default_factory=list)
    error: float = float("nan")
    tolerance: float = 0.0
    numpy_scale: float = 1.0  # numpy's work relative to tilecraft's (bytes moved)

    @property
    def ratio(self) -> float:
        return statistics.median(self.tilecraft) / (statistics.median(self.numpy) *
                                                     self.numpy_scale)


def timed(call: Callable[[], None]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def measure(row: Row, runs: int, settle: float, prepare: Callable[[], tuple[Callable, Callable]],
            check: Callable[[], float]) -> Row:
    """``prepare()`` draws fresh inputs and returns (tilecraft call, numpy call)."""
    tilecraft_call, numpy_call = prepare()
    tilecraft_call()  # compiles
    row.error = check()
    numpy_call()
    for run in range(runs):
        tilecraft_call, numpy_call = prepare()
        calls = [(tilecraft_call, row.tilecraft), (numpy_call, row.numpy)]
        for call, times in calls[run % 2:] + calls[:run % 2]:
            if call is tilecraft_call:
                time.sleep(settle)
            times.append(timed(call))
    return row


def bench_matmul(args, rng) -> list[Row]:
    rows = []
    blocks = args.fp32_blocks or FP32_BLOCKS
    for m, n, k in MATMUL_SHAPES:
        row = Row("matmul fp32, Triton tutorial", f"{m}x{n}x{k}", "np.matmul", MATMUL_GOAL,
                  tolerance=1e-5)
        state: dict = {}

        def prepare(m=m, n=n, k=k, state=state):
            a = rng.standard_normal((m, k), dtype=np.float32)
            b = rng.standard_normal((k, n), dtype=np.float32)
            c = np.full((m, n), np.nan, np.float32)
            state.update(a=a, b=b, c=c)
            return (lambda: matmul_tuned(a, b, c, blocks), lambda: np.matmul(a, b, out=c))

        def check(row=row, state=state) -> float:
            state["c"].fill(np.nan)
            row.case += f" ({matmul_tuned(state['a'], state['b'], state['c'], blocks)} blocks)"
            return cpu_backend.relative_error(state["c"], state["a"].astype(np.float64) @
                                              state["b"])

        rows.append(measure(row, args.runs, args.settle, prepare, check))
    return rows


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """The bf16 bit patterns of fp32 ``x`` (truncated: the values are random anyway)."""
    return (x.view(np.uint32) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def blocks_option(text: str) -> tuple[tuple[int, int, int], ...]:
    """``--fp32-blocks``/``--bf16-blocks``: ``BMxBNxBK`` as the one choice of blocks."""
    sizes = text.split("x")
    if len(sizes) != 3 or not all(size.isdigit() and int(size) > 0 for size in sizes):
        raise argparse.ArgumentTypeError(f"expected BMxBNxBK, three positive integers, got "
                                         f"{text!r}")
    return (tuple(int(size) for size in sizes),)


@functools.cache
def tuned_kernel(blocks: tuple[tuple[int, int, int], ...]):
    """The tutorial kernel autotuned over ``blocks`` (per M, N, K and dtypes)."""
    configs = [tc.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk,
                          "GROUP_SIZE_M": 8}) for bm, bn, bk in blocks]
    # do_bench's default 100 ms would time a 2048^3 fp32 matmul on 2 cores (~140 ms) once; the
    # choice is made in this run, not taken from the disk cache of an earlier one
    return tc.autotune(configs=configs, key=["M", "N", "K"], warmup=100, rep=TUNING_REP_MS,
                       cache_results=False)(cpu_backend.matmul_tutorial_kernel)


def matmul_tuned(a: np.ndarray, b: np.ndarray, c: np.ndarray,
                 blocks: tuple[tuple[int, int, int], ...]) -> str:
    """The tutorial kernel on ``a`` and ``b`` (fp32, or bf16 as their uint16 bit patterns) into
    fp32 ``c``, with the best of ``blocks``; returns the blocks it ran with, as BMxBNxBK."""
    import tilecraft.language as tl

    (m, k), n = a.shape, b.shape[1]
    kernel = tuned_kernel(blocks)
    if a.dtype == np.uint16:
        a, b = tc.reinterpret(a, tl.bfloat16), tc.reinterpret(b, tl.bfloat16)
    kernel[lambda meta: (tc.cdiv(m, meta["BLOCK_SIZE_M"]) * tc.cdiv(n, meta["BLOCK_SIZE_N"]),)](
        a, b, c, m, n, k, k, 1, n, 1, n, 1)
    config = kernel.best_config.kwargs
    return "x".join(str(config[f"BLOCK_SIZE_{d}"]) for d in "MNK")


def bench_bf16(args, rng) -> Row:
    """The tutorial kernel on bf16 inputs with fp32 accumulation at 2048^3, against torch's CPU
    bf16 matmul when torch is installed, else numpy's fp32 matmul of the same values."""
    try:
        import torch
    except ImportError:
        torch = None
    m = n = k = 2048
    baseline = "torch bf16" if torch is not None else "np.matmul fp32"
    row = Row("matmul bf16 in, fp32 acc, tutorial", f"{m}x{n}x{k}", baseline, 1.0,
              tolerance=1e-5)
    state: dict = {}
    blocks = args.bf16_blocks or BF16_BLOCKS

    def prepare():
        a = bf16_bits(rng.standard_normal((m, k), dtype=np.float32))
        b = bf16_bits(rng.standard_normal((k, n), dtype=np.float32))
        c = np.full((m, n), np.nan, np.float32)
        state.update(a=a, b=b, c=c)
        if torch is not None:
            ta = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
            tb = torch.from_numpy(b.view(np.int16)).view(torch.bfloat16)
            return lambda: matmul_tuned(a, b, c, blocks), lambda: torch.matmul(ta, tb)
        a32, b32 = bf16_values(a), bf16_values(b)
        return lambda: matmul_tuned(a, b, c, blocks), lambda: np.matmul(a32, b32, out=c)

    def check() -> float:
        state["c"].fill(np.nan)
        row.case += f" ({matmul_tuned(state['a'], state['b'], state['c'], blocks)} blocks)"
        return cpu_backend.relative_error(
            state["c"], bf16_values(state["a"]).astype(np.float64) @ bf16_values(state["b"]))

    return measure(row, args.runs, args.settle, prepare, check)


def bench_add(args, rng) -> Row:
    n = 1 << 26
    row = Row("vector add fp32", "2^26", "np.copyto", BANDWIDTH_GOAL, tolerance=1e-7,
              numpy_scale=1.5)  # add moves 3 arrays' bytes, copyto 2
    state: dict = {}

    def prepare():
        x = rng.standard_normal(n, dtype=np.float32)
        y = rng.standard_normal(n, dtype=np.float32)
        out = np.full(n, np.nan, np.float32)
        state.update(x=x, y=y, out=out)
        return (lambda: cpu_backend.add(cpu_backend.add_kernel, x, y, out, args.add_block),
                lambda: np.copyto(out, x))

    def check() -> float:
        state["out"].fill(np.nan)
        cpu_backend.add(cpu_backend.add_kernel, state["x"], state["y"], state["out"],
                        args.add_block)
        return cpu_backend.relative_error(state["out"], state["x"].astype(np.float64) +
                                          state["y"])

    return measure(row, args.runs, args.settle, prepare, check)


def bench_softmax(args, rng) -> Row:
    shape = (16384, 4096)
    row = Row("softmax fp32, one row per program", "16384x4096", "np.copyto", BANDWIDTH_GOAL,
              tolerance=1e-5)
    state: dict = {}

    def prepare():
        x = rng.standard_normal(shape, dtype=np.float32)
        out = np.full(shape, np.nan, np.float32)
        state.update(x=x, out=out)
        return (lambda: cpu_backend.softmax(cpu_backend.softmax_row_kernel, x, out, None),
                lambda: np.copyto(out, x))

    def check() -> float:
        state["out"].fill(np.nan)
        cpu_backend.softmax(cpu_backend.softmax_row_kernel, state["x"], state["out"], None)
        return cpu_backend.relative_error(state["out"],
                                          cpu_backend.softmax_reference(state["x"]))

    return measure(row, args.runs, args.settle, prepare, check)


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def print_table(rows: list[Row]) -> None:
    header = ("case", "size", "tilecraft", "baseline", "baseline time", "ratio", "goal",
              "rel. error", "status")
    table = [header]
    for row in rows:
        ok = row.error <= row.tolerance
        status = "MISMATCH" if not ok else ("goal met" if row.ratio <= row.goal else
                                            "goal missed")
        table.append((row.case, row.size, fmt_time(statistics.median(row.tilecraft)),
                      row.baseline, fmt_time(statistics.median(row.numpy)),
                      f"{row.ratio:.2f}x", f"<={row.goal:g}x", f"{row.error:.1e}", status))
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for index, line in enumerate(table):
        print("  ".join(cell.ljust(w) if i in (0, 1, 3, 8) else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))).rstrip())
        if index == 0:
            print("  ".join("-" * w for w in widths))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="matmul,bf16,add,softmax")
    parser.add_argument("--threads", type=int, default=0,
                        help="TILECRAFT_CPU_THREADS (default: the environment's, else one per CPU)")
    parser.add_argument("--settle", type=float, default=0.3,
                        help="seconds to wait before each round (numpy's BLAS threads spin)")
    parser.add_argument("--add-block", type=int, default=4096)
    parser.add_argument("--fp32-blocks", default=None, type=blocks_option, metavar="BMxBNxBK",
                        help="BMxBNxBK for the fp32 cases (default: autotuned over FP32_BLOCKS)")
    parser.add_argument("--bf16-blocks", default=None, type=blocks_option, metavar="BMxBNxBK",
                        help="BMxBNxBK for the bf16 case (default: autotuned over BF16_BLOCKS)")
    args = parser.parse_args()
    if args.threads:
        os.environ["TILECRAFT_CPU_THREADS"] = str(args.threads)
    from tilecraft.runtime.compiler import selected_backend
    from tilecraft.runtime.cpu_driver import thread_count

    thread_count.cache_clear()
    if selected_backend() != "cpu":
        print(f"TILECRAFT_BACKEND selects {selected_backend()!r}: this benchmark needs 'cpu'")
        return 2
    cases = args.only.split(",")
    rng = np.random.default_rng()
    load_before = os.getloadavg()
    rows: list[Row] = []
    if "matmul" in cases:
        rows += bench_matmul(args, rng)
    if "bf16" in cases:
        rows.append(bench_bf16(args, rng))
    if "add" in cases:
        rows.append(bench_add(args, rng))
    if "softmax" in cases:
        rows.append(bench_softmax(args, rng))
    load_after = os.getloadavg()

    from tilecraft.backends.cpu.engine import host_target

    print(f"host: {host_target().cpu}, {os.cpu_count()} CPUs; tilecraft threads: "
          f"{thread_count()}; numpy {np.__version__}; tilecraft {tc.__version__}")
    print(f"load average (1 min): before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    print(f"median of {args.runs} rounds, fresh random inputs each; ratio = tilecraft / "
          "baseline (for bandwidth cases: per byte moved)")
    print()
    print_table(rows)
    return 0 if all(row.error <= row.tolerance for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
