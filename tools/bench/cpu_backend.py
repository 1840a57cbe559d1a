#!/usr/bin/env python3
"""Benchmark the CPU backend against numpy and the interpreter: vector add, row softmax, matmul.

Every case is compiled and checked first (fresh random inputs, outputs poisoned with NaN, the
relative error ``max|out - ref| / max|ref|`` against a float64 reference), then timed: the
median (and best) wall time of ``--runs`` calls each of the compiled kernel (``kernel[grid]``
on the CPU backend, run over the grid by the runtime's thread pool) and of numpy (numpy's BLAS
for matmul; for softmax a max/subtract/exp/sum/divide sequence over preallocated buffers).
``ratio`` is tilecraft's median over numpy's; ``goal`` is the issue's target for it (vector add
and softmax within 2x of numpy, matmul within 10x of numpy's BLAS at 512^3).

The interpreter (``TILECRAFT_BACKEND=interpret``) is slow, so it runs the same kernel on a
smaller problem (named in the table) and its time is scaled to the case's size by elements
(flops for matmul). Other processes on the machine skew wall times: the load average
(``os.getloadavg()``) is printed before and after, and ``--clock cpu`` measures the CPU time
of the process's threads instead (what the work cost, whoever else held the cores).

    python tools/bench/cpu_backend.py [--runs 11] [--only add,softmax,matmul] [--no-interpreter]
                                      [--clock wall|cpu] [--threads N] [--matmul-blocks 64x64x32]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import cpu_driver

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                "examples"))

from _load import example  # noqa: E402  (examples/_load.py: the tutorial kernels)

# -- kernels --------------------------------------------------------------------------------------


# examples/01_vector_add.py's kernel (Triton's tutorial 01).
add_kernel = example("01_vector_add").add_kernel


@tc.jit
def softmax_persistent_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
                              BLOCK: tl.constexpr):
    """Triton's tutorial 02: each program loops over rows pid, pid + programs, ..."""
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_row_stride + cols, num / tl.sum(num, axis=0), mask=mask)


@tc.jit
def softmax_row_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                       BLOCK: tl.constexpr):
    """One row per program."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * out_row_stride + cols, num / tl.sum(num, axis=0), mask=mask)


@tc.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, EVEN: tl.constexpr):
    """A matmul written for the CPU: offsets recomputed from ``k`` each step (no pointer
    tensors carried around the loop, no ``% M`` wrap), so the loads of A's and B's blocks are
    contiguous; masks only when the sizes are not multiples of the blocks (``EVEN``)."""
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a_ptrs = a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak
        b_ptrs = b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn
        if EVEN:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
            b = tl.load(b_ptrs, mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    if EVEN:
        tl.store(c_ptrs, acc)
    else:
        tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# examples/04_matmul.py's kernel (Triton's tutorial 03), without its autotuner: its result takes
# c's element type, fp32 here.
matmul_tutorial_kernel = example("04_matmul").matmul_kernel.fn


def interpreted(kernel):
    """The same kernel, run by the numpy interpreter."""
    return tc.jit(kernel.fn, interpret=True)


# -- launches ------------------------------------------------------------------------------------


def add(kernel, x, y, out, block: int) -> None:
    n = x.size
    kernel[(tc.cdiv(n, block),)](x, y, out, n, BLOCK_SIZE=block)


def softmax(kernel, x, out, programs: int | None) -> None:
    """``programs`` is None for one row per program, else the persistent kernel's grid."""
    rows, cols = x.shape
    block = tc.next_power_of_2(cols)
    if programs is None:
        kernel[(rows,)](out, x, x.strides[0] // 4, out.strides[0] // 4, cols, BLOCK=block)
    else:
        kernel[(min(programs, rows),)](out, x, x.strides[0] // 4, out.strides[0] // 4, rows,
                                       cols, BLOCK=block)


def matmul(kernel, a, b, c, blocks: tuple[int, int, int], tutorial: bool = False) -> None:
    (m, k), n = a.shape, b.shape[1]
    bm, bn, bk = blocks
    grid = (tc.cdiv(m, bm) * tc.cdiv(n, bn),)
    args = (a, b, c, m, n, k, a.strides[0] // 4, a.strides[1] // 4, b.strides[0] // 4,
            b.strides[1] // 4, c.strides[0] // 4, c.strides[1] // 4)
    if tutorial:
        kernel[grid](*args, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                     GROUP_SIZE_M=8)
    else:
        kernel[grid](*args, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                     EVEN=m % bm == 0 and n % bn == 0 and k % bk == 0)


def numpy_softmax(x, out) -> None:
    """Row softmax in numpy without temporaries the size of ``x``."""
    np.subtract(x, x.max(axis=1, keepdims=True), out=out)
    np.exp(out, out=out)
    out /= out.sum(axis=1, keepdims=True)


def softmax_reference(x) -> np.ndarray:
    wide = x.astype(np.float64)
    wide = np.exp(wide - wide.max(axis=1, keepdims=True))
    return wide / wide.sum(axis=1, keepdims=True)


# -- measuring -----------------------------------------------------------------------------------


# What a run is measured with: wall time, or (``--clock cpu``) the CPU time of all the
# process's threads, which other processes competing for the cores inflate far less.
CLOCK = time.perf_counter


def timed(fn: Callable[[], None], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        gc.collect()
        start = CLOCK()
        fn()
        times.append(CLOCK() - start)
    return times


def relative_error(actual, expected) -> float:
    actual = np.asarray(actual, np.float64)
    expected = np.asarray(expected, np.float64)
    if not np.all(np.isfinite(actual)):
        return float("inf")
    return float(np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), 1e-30))


@dataclass
class Row:
    name: str
    size: str
    goal: float | None
    tilecraft: list[float] = field(default_factory=list)
    numpy: list[float] = field(default_factory=list)
    interpreter: float | None = None  # seconds, scaled to the case's size
    interpreter_size: str = ""
    error: float | None = None
    tolerance: float = 0.0
    failure: str = ""
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if not self.tilecraft or not self.numpy:
            return None
        return statistics.median(self.tilecraft) / statistics.median(self.numpy)

    @property
    def status(self) -> str:
        if self.failure:
            return "FAILED"
        if self.error is None or not self.error <= self.tolerance:
            return "MISMATCH"
        if self.goal is None or self.ratio is None:
            return "ok"
        return "ok, goal met" if self.ratio <= self.goal else "ok, goal missed"


def run_case(row: Row, runs: int, tilecraft_call: Callable[[], None],
             numpy_call: Callable[[], None], check: Callable[[], float],
             interpreter_call: Callable[[], None] | None, interpreter_scale: float,
             blas: BlasThreads | None = None) -> Row:
    """Compiles (the first call) and checks, then times tilecraft and numpy in alternation
    (so that a change of the machine's load hits both), then the interpreter. With ``blas``,
    numpy runs on one BLAS thread and on its default count, and the faster (by median) is
    kept."""
    try:
        row.error = check()
        if not row.error <= row.tolerance:
            return row
        cpu_driver.optimize_quick_builds()  # (as a kernel launched this often would be)
        counts = blas.candidates() if blas is not None else [None]
        calls = [(None, tilecraft_call)] + [(count, numpy_call) for count in counts]
        for count, call in calls:  # warm: the thread pool, a program's measured cost, BLAS
            if count is not None:
                blas.set(count)
            call()
        times: list[list[float]] = [[] for _ in calls]
        for _ in range(runs):
            for (count, call), samples in zip(calls, times):
                if count is not None:
                    blas.set(count)
                gc.collect()
                start = CLOCK()
                call()
                samples.append(CLOCK() - start)
        if blas is not None:
            blas.set(blas.default)
        row.tilecraft = times[0]
        row.numpy = min(times[1:], key=statistics.median)
        if blas is not None and len(counts) > 1:
            count = counts[times[1:].index(row.numpy)]
            row.note = (f"numpy's BLAS on {count} thread{'s' * (count > 1)} (the faster of "
                        f"{' and '.join(map(str, counts))})")
        if interpreter_call is not None:
            interpreter_call()  # the interpreter's warm-up (parsing the kernel)
            row.interpreter = min(timed(interpreter_call, 2)) * interpreter_scale
    except Exception as error:  # noqa: BLE001 - one case failing does not stop the others
        row.failure = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    return row


class BlasThreads:
    """The thread count of numpy's OpenBLAS, set through the library's own functions (found
    among the libraries the process has loaded)."""

    NAMES = (("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
             ("scipy_openblas_get_num_threads", "scipy_openblas_set_num_threads"),
             ("openblas_get_num_threads", "openblas_set_num_threads"))

    def __init__(self, get, set_) -> None:
        self._get, self._set = get, set_
        self.default = int(get())

    @classmethod
    def find(cls) -> BlasThreads | None:
        import ctypes

        try:
            with open("/proc/self/maps") as maps:
                paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
        except OSError:
            return None
        for path in sorted(paths):
            try:
                library = ctypes.CDLL(path)
            except OSError:
                continue
            for get, set_ in cls.NAMES:
                if hasattr(library, get) and hasattr(library, set_):
                    return cls(getattr(library, get), getattr(library, set_))
        return None

    def candidates(self) -> list[int]:
        return sorted({1, self.default})

    def set(self, count: int) -> None:
        self._set(count)


def bench_add(args, rng) -> list[Row]:
    n = args.add_size
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    out = np.empty_like(x)
    row = Row("vector add fp32", f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n),
              goal=2.0, tolerance=1e-7)

    def check() -> float:
        out.fill(np.nan)
        add(add_kernel, x, y, out, args.add_block)
        return relative_error(out, x.astype(np.float64) + y)

    small = min(n, 1 << 16)
    xs, ys, outs = x[:small], y[:small], np.empty(small, np.float32)
    interp = None
    if args.interpreter:
        interp_kernel = interpreted(add_kernel)
        row.interpreter_size = f"2^{small.bit_length() - 1}"

        def interp() -> None:
            add(interp_kernel, xs, ys, outs, args.add_block)

    return [run_case(row, args.runs, lambda: add(add_kernel, x, y, out, args.add_block),
                     lambda: np.add(x, y, out=out), check, interp, n / small)]


def bench_softmax(args, rng) -> list[Row]:
    from tilecraft.runtime.cpu_driver import thread_count

    rows = []
    for shape in args.softmax_shapes:
        x = rng.standard_normal(shape, dtype=np.float32)
        out = np.empty_like(x)
        ref = softmax_reference(x)
        small_rows = min(shape[0], 64)
        xs, outs = x[:small_rows], np.empty((small_rows, shape[1]), np.float32)
        programs = args.softmax_programs or 4 * thread_count()
        for label, kernel, grid in (
                (f"softmax fp32, persistent ({programs} programs)", softmax_persistent_kernel,
                 programs),
                ("softmax fp32, one row per program", softmax_row_kernel, None)):
            row = Row(label, f"{shape[0]}x{shape[1]}", goal=2.0, tolerance=1e-5)

            def check(kernel=kernel, grid=grid) -> float:
                out.fill(np.nan)
                softmax(kernel, x, out, grid)
                return relative_error(out, ref)

            interp = None
            if args.interpreter:
                interp_kernel = interpreted(kernel)
                row.interpreter_size = f"{small_rows}x{shape[1]}"

                def interp(interp_kernel=interp_kernel, grid=grid) -> None:
                    softmax(interp_kernel, xs, outs, grid)

            rows.append(run_case(row, args.runs,
                                 lambda kernel=kernel, grid=grid: softmax(kernel, x, out, grid),
                                 lambda: numpy_softmax(x, out), check, interp,
                                 shape[0] / small_rows))
    return rows


def bench_matmul(args, rng) -> list[Row]:
    rows = []
    cases = [(size, matmul_kernel, False) for size in args.matmul_sizes]
    if args.tutorial:
        cases.append((max(args.matmul_sizes), matmul_tutorial_kernel, True))
    for size, kernel, tutorial in cases:
        a = rng.standard_normal((size, size), dtype=np.float32)
        b = rng.standard_normal((size, size), dtype=np.float32)
        c = np.empty((size, size), np.float32)
        ref = a.astype(np.float64) @ b.astype(np.float64)
        blocks = args.matmul_blocks
        name = "matmul fp32" + (", tutorial kernel" if tutorial else "")
        row = Row(f"{name} ({'x'.join(map(str, blocks))} blocks)", f"{size}^3",
                  goal=10.0 if size >= 512 else None, tolerance=1e-5)

        def check(kernel=kernel, tutorial=tutorial, a=a, b=b, c=c, ref=ref) -> float:
            c.fill(np.nan)
            matmul(kernel, a, b, c, blocks, tutorial)
            return relative_error(c, ref)

        interp = None
        small = min(size, 128)
        if args.interpreter:
            interp_kernel = interpreted(kernel)
            a_s, b_s = a[:small, :small].copy(), b[:small, :small].copy()
            c_s = np.empty((small, small), np.float32)
            row.interpreter_size = f"{small}^3"

            def interp(interp_kernel=interp_kernel, tutorial=tutorial, a_s=a_s, b_s=b_s,
                       c_s=c_s) -> None:
                matmul(interp_kernel, a_s, b_s, c_s, blocks, tutorial)

        rows.append(run_case(
            row, args.runs, lambda kernel=kernel, tutorial=tutorial, a=a, b=b, c=c: matmul(
                kernel, a, b, c, blocks, tutorial),
            lambda a=a, b=b, c=c: np.matmul(a, b, out=c), check, interp, (size / small) ** 3,
            args.blas))
    return rows


# -- output --------------------------------------------------------------------------------------


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} us"


def print_table(rows: list[Row]) -> None:
    header = ("case", "size", "tilecraft", "(best)", "numpy", "(best)", "ratio", "goal",
              "interpreter*", "interp/tc", "rel. error", "status")
    table = [header]
    for row in rows:
        tc_median = statistics.median(row.tilecraft) if row.tilecraft else None
        np_median = statistics.median(row.numpy) if row.numpy else None
        interp = "-"
        if row.interpreter is not None:
            interp = f"{fmt_time(row.interpreter)} ({row.interpreter_size})"
        table.append((
            row.name, row.size, fmt_time(tc_median),
            fmt_time(min(row.tilecraft)) if row.tilecraft else "-",
            fmt_time(np_median), fmt_time(min(row.numpy)) if row.numpy else "-",
            f"{row.ratio:.2f}x" if row.ratio is not None else "-",
            f"<={row.goal:g}x" if row.goal is not None else "-", interp,
            f"{row.interpreter / tc_median:,.0f}x" if row.interpreter and tc_median else "-",
            f"{row.error:.1e}" if row.error is not None else "-", row.status))
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for index, line in enumerate(table):
        cells = [cell.ljust(w) if i in (0, 1, 8, 11) else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(line, widths))]
        print("  ".join(cells).rstrip())
        if index == 0:
            print("  ".join("-" * w for w in widths))
    for row in rows:
        if row.failure:
            print(f"{row.name} {row.size}: {row.failure}")
        elif row.note:
            print(f"{row.name} {row.size}: {row.note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--only", default="add,softmax,matmul",
                        help="comma-separated cases among add, softmax, matmul")
    parser.add_argument("--no-interpreter", dest="interpreter", action="store_false")
    parser.add_argument("--no-tutorial", dest="tutorial", action="store_false",
                        help="leave out examples/04's kernel (pointer tensors carried, %% M)")
    parser.add_argument("--no-best-blas", dest="best_blas", action="store_false",
                        help="time numpy's matmul on its default BLAS threads only (by default "
                        "also on one thread, keeping the faster: on a loaded machine a "
                        "multi-threaded BLAS can wait whole scheduler ticks for its threads)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time runs by the wall clock, or by the CPU time of all the "
                        "process's threads (steadier on a loaded machine)")
    parser.add_argument("--threads", type=int, default=0,
                        help="TILECRAFT_CPU_THREADS for the compiled kernels (default: the "
                        "environment's, else one per CPU)")
    parser.add_argument("--add-size", type=int, default=1 << 24)
    parser.add_argument("--add-block", type=int, default=1024)
    parser.add_argument("--softmax-shapes", default="4096x1024,2048x781")
    parser.add_argument("--softmax-programs", type=int, default=0,
                        help="grid of the persistent softmax (default: 4 per thread)")
    parser.add_argument("--matmul-sizes", default="512,256")
    parser.add_argument("--matmul-blocks", default="64x64x32", help="BLOCK_M x BLOCK_N x BLOCK_K")
    args = parser.parse_args()
    args.softmax_shapes = [tuple(int(v) for v in s.split("x"))
                           for s in args.softmax_shapes.split(",")]
    args.matmul_sizes = [int(v) for v in args.matmul_sizes.split(",")]
    args.matmul_blocks = tuple(int(v) for v in args.matmul_blocks.split("x"))
    cases = args.only.split(",")
    global CLOCK
    CLOCK = time.perf_counter if args.clock == "wall" else time.process_time
    args.blas = BlasThreads.find() if args.best_blas else None

    if args.threads:
        os.environ["TILECRAFT_CPU_THREADS"] = str(args.threads)
    from tilecraft.runtime.compiler import selected_backend
    from tilecraft.runtime.cpu_driver import thread_count

    thread_count.cache_clear()

    if selected_backend() != "cpu":
        print(f"TILECRAFT_BACKEND selects {selected_backend()!r}: this benchmark needs 'cpu'")
        return 2
    load_before = os.getloadavg()
    rng = np.random.default_rng()
    rows: list[Row] = []
    if "add" in cases:
        rows += bench_add(args, rng)
    if "softmax" in cases:
        rows += bench_softmax(args, rng)
    if "matmul" in cases:
        rows += bench_matmul(args, rng)
    load_after = os.getloadavg()

    from tilecraft.backends.cpu.engine import host_target

    blas = f"{args.blas.default}" if args.blas is not None else "unknown"
    print(f"host: {host_target().cpu}, {os.cpu_count()} CPUs; tilecraft threads: "
          f"{thread_count()}; numpy {np.__version__}, BLAS threads by default: {blas}")
    print(f"load average (1, 5, 15 min): before {', '.join(f'{v:.2f}' for v in load_before)}; "
          f"after {', '.join(f'{v:.2f}' for v in load_after)}")
    clock = "wall clock" if args.clock == "wall" else "CPU time of all threads"
    print(f"times: median (and best) of {args.runs} runs, {clock}, tilecraft and numpy in "
          "alternation; ratio = tilecraft / numpy (medians); * interpreter time (best of 2) "
          "scaled from the size in parentheses")
    print()
    print_table(rows)
    return 0 if all(row.status.startswith("ok") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
