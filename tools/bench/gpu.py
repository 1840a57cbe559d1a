#!/usr/bin/env python3
"""Benchmark tilecraft's CUDA backend against Triton and torch, side by side in one run.

Cases (the anchors of /work/shared/ANCHORS.md): vector add fp32 at 2^24 and 2^28 elements,
fused softmax fp32 at 16384x1024, 16384x4096 and 4096x16384, layer-norm forward fp32 at
4096x1024 and 4096x4096 (GB/s: bytes read and written over the median time of
``triton.testing.do_bench``), and compile times: the first launch of vector add in a fresh
process with an empty cache (the compiler's import included, torch's not), then the launch of
a new specialization (another ``BLOCK_SIZE``) in that now warm process.

tilecraft and Triton compile the same kernel source, Triton's tutorial kernels (`KERNELS`): it
is written once to two modules, one importing ``tilecraft.language as tl`` with ``jit =
tc.jit``, the other ``triton.language as tl`` with ``jit = triton.jit``, and both get the same
grid, ``BLOCK_SIZE`` and ``num_warps``. Every output is checked against torch (allclose) before
it is timed; a case that fails for one compiler (compile error, wrong result) shows ``ERROR``
in that column with the error at the end of the row, and the run goes on. Triton is imported
only here; without it its column reads ``n/a`` and CUDA events time the others.

The table goes to stdout and ``--out``/bench.txt, the raw numbers to ``--out``/bench.json.
``--cpu-smoke`` runs the tilecraft half on tilecraft's CPU backend with numpy arrays at small
sizes (numpy is the reference and the peer column; no Triton, no torch), to check this script
on a machine without a GPU.

    python tools/bench/gpu.py [--out DIR] [--cpu-smoke] [--compile-runs 3]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from _load import kernel_source  # noqa: E402  (examples/_load.py: the tutorial kernels)

# do_bench's warmup and measuring times (ms) per measurement.
WARMUP_MS = 25
REP_MS = 100

# The kernels of the cases: examples/01_vector_add.py's add_kernel and examples/03_layer_norm.py's
# forward kernel (Triton's tutorials 01 and 05), read from the examples, and Triton's tutorial
# 02-fused-softmax.py's softmax_kernel in its one-row-per-program form (Triton 2.x's tutorial;
# https://github.com/triton-lang/triton, python/tutorials, MIT license).
SOFTMAX = '''
@jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    row = tl.load(input_ptrs, mask=col_offsets < n_cols, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=col_offsets < n_cols)
'''
KERNELS = "\n\n".join([
    "@jit\n" + kernel_source("01_vector_add", "add_kernel"), SOFTMAX.strip() + "\n",
    "@jit\n" + kernel_source("03_layer_norm", "_layer_norm_fwd_fused")])

HEADERS = {
    "tilecraft": "import tilecraft as tc\nimport tilecraft.language as tl\n\njit = tc.jit\n",
    "triton": "import triton\nimport triton.language as tl\n\njit = triton.jit\n",
}

COMPILERS = ("tilecraft", "triton")


def write_kernel_modules(folder: Path) -> None:
    """Writes ``<compiler>_kernels.py`` for each compiler into ``folder``."""
    for compiler, header in HEADERS.items():
        (folder / f"{compiler}_kernels.py").write_text(
            f'"""`KERNELS` of tools/bench/gpu.py, compiled by {compiler}."""\n\n'
            f"{header}\n{KERNELS}")


def import_kernels(folder: Path, compiler: str, stem: str = "kernels") -> ModuleType:
    """The kernel module ``<compiler>_<stem>.py`` in ``folder`` (importing it imports the
    compiler)."""
    name = f"{compiler}_{stem}"
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def kernel_modules(folder: Path, stem: str, source: str,
                   compilers: tuple[str, ...] = COMPILERS) -> dict[str, ModuleType]:
    """``source`` (kernels decorated ``@jit``) written as ``<compiler>_<stem>.py`` under each
    compiler's `HEADERS` and imported; a compiler that does not import (Triton may be missing)
    is left out."""
    modules = {}
    for compiler in compilers:
        (folder / f"{compiler}_{stem}.py").write_text(f"{HEADERS[compiler]}\n{source}")
        try:
            modules[compiler] = import_kernels(folder, compiler, stem)
        except ImportError:
            continue
    return modules


def import_triton() -> ModuleType | None:
    """Triton, or None where it is not installed."""
    try:
        return importlib.import_module("triton")
    except ImportError:
        return None


# -- where the cases run -----------------------------------------------------------------------


class CudaDevice:
    """torch CUDA tensors; torch is the peer and the reference, ``triton.testing.do_bench``
    (CUDA events where Triton is missing) the clock."""

    peer = "torch"

    def __init__(self, triton: ModuleType | None) -> None:
        import torch

        self.torch = torch
        self.triton = triton
        self.generator = torch.Generator(device="cuda").manual_seed(0)

    def describe(self) -> str:
        torch = self.torch
        triton = f"triton {self.triton.__version__}" if self.triton else "no triton"
        return (f"{torch.cuda.get_device_name()} (torch {torch.__version__}, {triton}); "
                f"medians of do_bench(warmup={WARMUP_MS}, rep={REP_MS})")

    def rand(self, *shape: int) -> Any:
        return self.torch.rand(shape, device="cuda", generator=self.generator)

    def randn(self, *shape: int) -> Any:
        return self.torch.randn(shape, device="cuda", generator=self.generator)

    def empty(self, *shape: int) -> Any:
        """A float32 array of NaN (a kernel that leaves an element unwritten fails its check)."""
        return self.torch.full(shape, math.nan, device="cuda")

    @staticmethod
    def stride(x: Any, dim: int) -> int:
        return int(x.stride(dim))

    def add(self, x: Any, y: Any) -> Any:
        return x + y

    def softmax(self, x: Any) -> Any:
        return self.torch.softmax(x, dim=-1)

    def layer_norm(self, x: Any, weight: Any, bias: Any, eps: float) -> Any:
        return self.torch.nn.functional.layer_norm(x, (x.shape[-1], ), weight, bias, eps)

    def check(self, actual: Any, expected: Any, rtol: float, atol: float) -> None:
        self.torch.cuda.synchronize()
        if not self.torch.allclose(actual, expected, rtol=rtol, atol=atol):
            worst = (actual - expected).abs().nan_to_num(math.inf).max().item()
            raise AssertionError(f"wrong result: max |difference| {worst:.3g} "
                                 f"(rtol {rtol:g}, atol {atol:g})")

    def time_ms(self, fn: Callable[[], Any]) -> float:
        if self.triton is not None:
            from triton.testing import do_bench

            return float(do_bench(fn, warmup=WARMUP_MS, rep=REP_MS, return_mode="median"))
        return self._events_median_ms(fn)

    def _events_median_ms(self, fn: Callable[[], Any], reps: int = 50) -> float:
        """The median of ``reps`` calls timed by CUDA events, L2 flushed before each."""
        torch = self.torch
        flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
        for _ in range(5):
            fn()
        times = []
        for _ in range(reps):
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)


class NumpyCpu:
    """``--cpu-smoke``: numpy arrays on tilecraft's CPU backend; numpy is the peer and the
    reference, the wall clock (median of a few calls) the clock."""

    peer = "numpy"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    @staticmethod
    def describe() -> str:
        return "the CPU backend with numpy arrays (--cpu-smoke: small sizes, no Triton)"

    def rand(self, *shape: int) -> np.ndarray:
        return self.rng.random(shape, dtype=np.float32)

    def randn(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape, dtype=np.float32)

    @staticmethod
    def empty(*shape: int) -> np.ndarray:
        return np.full(shape, np.nan, np.float32)

    @staticmethod
    def stride(x: np.ndarray, dim: int) -> int:
        return x.strides[dim] // x.itemsize

    @staticmethod
    def add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return x + y

    @staticmethod
    def softmax(x: np.ndarray) -> np.ndarray:
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    @staticmethod
    def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray,
                   eps: float) -> np.ndarray:
        centered = x - x.mean(-1, keepdims=True)
        return centered / np.sqrt((centered * centered).mean(-1, keepdims=True) + eps) \
            * weight + bias

    @staticmethod
    def check(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> None:
        if not np.allclose(actual, expected, rtol=rtol, atol=atol):
            worst = float(np.nan_to_num(np.abs(actual - expected), nan=np.inf).max())
            raise AssertionError(f"wrong result: max |difference| {worst:.3g} "
                                 f"(rtol {rtol:g}, atol {atol:g})")

    @staticmethod
    def time_ms(fn: Callable[[], Any], reps: int = 5) -> float:
        fn()
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)


Device = CudaDevice | NumpyCpu


# -- results -----------------------------------------------------------------------------------


@dataclass
class Row:
    """One case: a figure per column (None where it failed or does not apply), in ``unit``;
    ``higher_is_better`` says which way the tilecraft/triton ratio should go."""

    case: str
    unit: str
    higher_is_better: bool
    values: dict[str, float | None] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def ratio(self) -> float | None:
        tilecraft, triton = self.values.get("tilecraft"), self.values.get("triton")
        if tilecraft is None or not triton:
            return None
        return tilecraft / triton


def measure(row: Row, column: str, launch: Callable[[], Any], check: Callable[[Any], None],
            figure: Callable[[float], float], device: Device) -> None:
    """Launches once (compiling), checks the output, then times ``launch`` and stores
    ``figure(median ms)`` in ``row``; an exception is stored as the column's error."""
    try:
        check(launch())
        row.values[column] = figure(device.time_ms(launch))
    except Exception as error:  # noqa: BLE001 - a failing case is reported, the run goes on
        _failed(row, column, error)


def _failed(row: Row, column: str, error: Exception) -> None:
    """Records ``error`` as ``column``'s result in ``row``."""
    row.values[column] = None
    row.errors[column] = f"{type(error).__name__}: {error}"


def measure_alternating(row: Row, launches: dict[str, Callable[[], Any]],
                        check: Callable[[Any], None], figure: Callable[[float], float],
                        device: Device, rounds: int = 3) -> None:
    """`measure` for several columns at once: each launches once (compiling) and is checked,
    then they are timed in ``rounds`` rounds that alternate between them, and each column gets
    ``figure`` of the median of its rounds' medians. A GPU's clocks drift over seconds (on an
    H200, cuBLAS's own fp16 8192^3 matmul ran at 767 and 667 TFLOP/s two rounds apart), and
    alternating rounds give every column the same drift."""
    ready: dict[str, Callable[[], Any]] = {}
    for column, launch in launches.items():
        try:
            check(launch())
            ready[column] = launch
        except Exception as error:  # noqa: BLE001 - a failing case is reported, the run goes on
            _failed(row, column, error)
    times: dict[str, list[float]] = {column: [] for column in ready}
    for _ in range(rounds):
        for column, launch in ready.items():
            if column not in row.errors:
                try:
                    times[column].append(device.time_ms(launch))
                except Exception as error:  # noqa: BLE001
                    _failed(row, column, error)
    for column, measured in times.items():
        if column not in row.errors:
            row.values[column] = figure(statistics.median(measured))


def gbps(n_bytes: int) -> Callable[[float], float]:
    """Milliseconds to GB/s for ``n_bytes`` read and written."""
    return lambda ms: n_bytes / (ms * 1e-3) / 1e9


# -- the cases ---------------------------------------------------------------------------------


def vector_add(device: Device, kernels: dict[str, ModuleType], n: int, label: str) -> Row:
    """Triton's tutorial 01 at ``BLOCK_SIZE=1024``; 12 bytes per element."""
    row = Row(f"vector add fp32 {label}", "GB/s", True)
    x, y = device.rand(n), device.rand(n)
    expected = x + y
    figure = gbps(3 * 4 * n)

    def check(out: Any) -> None:
        device.check(out, expected, 1e-6, 0.0)

    measure(row, device.peer, lambda: device.add(x, y), check, figure, device)
    for compiler, module in kernels.items():
        out = device.empty(n)

        def launch(module: ModuleType = module, out: Any = out) -> Any:
            module.add_kernel[(math.ceil(n / 1024), )](x, y, out, n, BLOCK_SIZE=1024)
            return out

        measure(row, compiler, launch, check, figure, device)
    return row


def softmax_warps(block_size: int) -> int:
    """Triton's tutorial 02 (one row per program): 4 warps, 8 from 2048 columns, 16 from
    4096."""
    if block_size >= 4096:
        return 16
    if block_size >= 2048:
        return 8
    return 4


def softmax(device: Device, kernels: dict[str, ModuleType], n_rows: int, n_cols: int) -> Row:
    """Triton's tutorial 02: one row per program; 8 bytes per element."""
    row = Row(f"softmax fp32 {n_rows}x{n_cols}", "GB/s", True)
    x = device.randn(n_rows, n_cols)
    expected = device.softmax(x)
    figure = gbps(2 * 4 * n_rows * n_cols)
    block_size = 1 << (n_cols - 1).bit_length()
    num_warps = softmax_warps(block_size)

    def check(out: Any) -> None:
        device.check(out, expected, 1e-4, 1e-6)

    measure(row, device.peer, lambda: device.softmax(x), check, figure, device)
    for compiler, module in kernels.items():
        out = device.empty(n_rows, n_cols)

        def launch(module: ModuleType = module, out: Any = out) -> Any:
            module.softmax_kernel[(n_rows, )](out, x, device.stride(x, 0), device.stride(out, 0),
                                              n_cols, BLOCK_SIZE=block_size, num_warps=num_warps)
            return out

        measure(row, compiler, launch, check, figure, device)
    return row


def layer_norm(device: Device, kernels: dict[str, ModuleType], m: int, n: int) -> Row:
    """Triton's tutorial 05 forward: one row per program, ``BLOCK_SIZE`` the row's power of
    two (up to 64 KB), ``num_warps = min(max(BLOCK_SIZE // 256, 1), 8)``; x read, y written."""
    row = Row(f"layer norm fwd fp32 {m}x{n}", "GB/s", True)
    eps = 1e-5
    x = -2.3 + 0.5 * device.randn(m, n)
    weight, bias = device.rand(n), device.rand(n)
    expected = device.layer_norm(x, weight, bias, eps)
    figure = gbps(2 * 4 * m * n)
    block_size = min(65536 // 4, 1 << (n - 1).bit_length())
    num_warps = min(max(block_size // 256, 1), 8)

    def check(out: Any) -> None:
        device.check(out, expected, 1e-4, 1e-4)

    measure(row, device.peer, lambda: device.layer_norm(x, weight, bias, eps), check, figure,
            device)
    for compiler, module in kernels.items():
        y, mean, rstd = device.empty(m, n), device.empty(m), device.empty(m)

        def launch(module: ModuleType = module, y: Any = y, mean: Any = mean,
                   rstd: Any = rstd) -> Any:
            module._layer_norm_fwd_fused[(m, )](x, y, weight, bias, mean, rstd,
                                                device.stride(x, 0), n, eps,
                                                BLOCK_SIZE=block_size, num_warps=num_warps)
            return y

        measure(row, compiler, launch, check, figure, device)
    return row


# -- compile times, in fresh processes ---------------------------------------------------------

CHILD_ELEMENTS = 1 << 20


def compile_child(compiler: str, folder: Path, smoke: bool) -> None:
    """In a fresh process: times importing ``compiler`` with the first launch of vector add
    (``BLOCK_SIZE=1024``), then the launch of a new specialization (``BLOCK_SIZE=512``), each
    to the end of the kernel, checks both outputs, and prints the seconds as JSON."""
    n = CHILD_ELEMENTS
    if smoke:
        x, y = np.ones(n, np.float32), np.full(n, 2.0, np.float32)
        out = np.zeros(n, np.float32)

        def synchronize() -> None:
            return None
    else:
        import torch

        x = torch.ones(n, device="cuda")
        y = torch.full((n, ), 2.0, device="cuda")
        out = torch.zeros(n, device="cuda")
        synchronize = torch.cuda.synchronize
        synchronize()
    start = time.perf_counter()
    kernels = import_kernels(folder, compiler)
    kernels.add_kernel[(n // 1024, )](x, y, out, n, BLOCK_SIZE=1024)
    synchronize()
    first = time.perf_counter() - start
    assert float(out.sum()) == 3.0 * n, f"{compiler}: vector add (BLOCK_SIZE=1024) is wrong"
    out[:] = 0
    synchronize()
    start = time.perf_counter()
    kernels.add_kernel[(n // 512, )](x, y, out, n, BLOCK_SIZE=512)
    synchronize()
    second = time.perf_counter() - start
    assert float(out.sum()) == 3.0 * n, f"{compiler}: vector add (BLOCK_SIZE=512) is wrong"
    print(json.dumps({"first": first, "new_specialization": second}))


def compile_times(compilers: list[str], folder: Path, smoke: bool, runs: int) -> list[Row]:
    """Medians over ``runs`` fresh processes (each with new, empty cache folders) of
    `compile_child`'s two times, per compiler. Every module's bytecode is cached (in a folder of
    its own, ``PYTHONPYCACHEPREFIX``, written by one unmeasured process per compiler first), as an
    installed package has it, whatever PYTHONDONTWRITEBYTECODE says here: with it set (the lent
    GPU hosts set it), each process compiled tilecraft's 280 modules from source, 0.83 s of a
    1.18 s first compile."""
    first = Row("first compile, fresh process, empty cache (import incl.)", "s", False)
    warm = Row("compile of a new specialization, warm process", "ms", False)
    bytecode = tempfile.mkdtemp(prefix="bench-bytecode-")
    for compiler in compilers:
        samples: list[dict[str, float]] = []
        try:
            for run in range(runs + 1):  # run 0 writes the bytecode
                with tempfile.TemporaryDirectory(prefix="bench-cache-") as cache:
                    env = {**os.environ, "TILECRAFT_CACHE_DIR": f"{cache}/tilecraft",
                           "TRITON_CACHE_DIR": f"{cache}/triton",
                           "PYTHONPYCACHEPREFIX": bytecode}
                    env.pop("PYTHONDONTWRITEBYTECODE", None)
                    command = [sys.executable, __file__, "--compile-child", compiler,
                               "--kernels", str(folder)] + (["--cpu-smoke"] if smoke else [])
                    result = subprocess.run(command, env=env, capture_output=True, text=True,
                                            timeout=300)
                    if result.returncode != 0:
                        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
                        raise RuntimeError(" / ".join(tail) or f"exit status {result.returncode}")
                    if run:
                        samples.append(json.loads(result.stdout.strip().splitlines()[-1]))
        except Exception as error:  # noqa: BLE001 - reported in the row
            for row in (first, warm):
                row.values[compiler] = None
                row.errors[compiler] = f"{type(error).__name__}: {error}"
            continue
        first.values[compiler] = statistics.median(s["first"] for s in samples)
        warm.values[compiler] = 1e3 * statistics.median(s["new_specialization"] for s in samples)
    shutil.rmtree(bytecode, ignore_errors=True)
    return [first, warm]


# -- the table ---------------------------------------------------------------------------------


def format_table(rows: list[Row], columns: list[str], heading: str) -> str:
    """The rows as a text table: figures, ratio tilecraft/triton with which way is better,
    and the errors at the end of their rows."""
    width = max(len(f"{row.case} [{row.unit}]") for row in rows)
    widths = [max(10, len(column) + 1) for column in columns]
    lines = [heading, "",
             f"{'case':<{width}}  " + "".join(f"{c:>{w}}" for c, w in zip(columns, widths))
             + "  tilecraft/triton"]
    for row in rows:
        cells = []
        for column, w in zip(columns, widths):
            value = row.values.get(column)
            if column in row.errors:
                cells.append(f"{'ERROR':>{w}}")
            elif value is None:
                cells.append(f"{'n/a':>{w}}")
            else:
                cells.append(f"{value:>{w}.1f}" if value >= 100 else f"{value:>{w}.2f}")
        ratio = row.ratio()
        better = "higher" if row.higher_is_better else "lower"
        ratio_text = f"{ratio:.2f} ({better} is better)" if ratio is not None else "n/a"
        errors = "; ".join(f"{column}: {text.splitlines()[0][:160]}"
                           for column, text in row.errors.items())
        line = (f"{f'{row.case} [{row.unit}]':<{width}}  " + "".join(cells)
                + f"  {ratio_text:<24}  {errors}")
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for bench.txt and bench.json")
    parser.add_argument("--cpu-smoke", action="store_true",
                        help="tilecraft's CPU backend on numpy arrays at small sizes")
    parser.add_argument("--compile-runs", type=int, default=3,
                        help="fresh processes per compiler for the compile times")
    parser.add_argument("--compile-child", choices=COMPILERS, help=argparse.SUPPRESS)
    parser.add_argument("--kernels", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["TILECRAFT_BACKEND"] = "cpu" if args.cpu_smoke else "cuda"
    os.environ.pop("TILECRAFT_INTERPRET", None)
    if args.compile_child:
        compile_child(args.compile_child, args.kernels, args.cpu_smoke)
        return 0

    triton = None if args.cpu_smoke else import_triton()
    compilers = ["tilecraft"] + (["triton"] if triton is not None else [])
    device: Device = NumpyCpu() if args.cpu_smoke else CudaDevice(triton)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as folder_name:
        folder = Path(folder_name)
        write_kernel_modules(folder)
        rows = compile_times(compilers, folder, args.cpu_smoke, args.compile_runs)
        kernels = {compiler: import_kernels(folder, compiler) for compiler in compilers}
        if args.cpu_smoke:
            add_sizes = [(1 << 12, "2^12"), (1 << 14, "2^14")]
            softmax_shapes = [(64, 1024), (16, 4096), (4, 16384)]
            norm_shapes = [(64, 1024), (16, 4096)]
        else:
            add_sizes = [(1 << 24, "2^24"), (1 << 28, "2^28")]
            softmax_shapes = [(16384, 1024), (16384, 4096), (4096, 16384)]
            norm_shapes = [(4096, 1024), (4096, 4096)]
        for n, label in add_sizes:
            rows.append(vector_add(device, kernels, n, label))
        for shape in softmax_shapes:
            rows.append(softmax(device, kernels, *shape))
        for shape in norm_shapes:
            rows.append(layer_norm(device, kernels, *shape))
    columns = ["tilecraft", "triton", device.peer]
    heading = (f"tilecraft vs Triton vs {device.peer} on {device.describe()}; "
               f"{time.perf_counter() - start:.0f} s")
    table = format_table(rows, columns, heading)
    print(table, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "bench.txt").write_text(table)
        raw = {"heading": heading, "columns": columns,
               "rows": [{**asdict(row), "ratio_tilecraft_over_triton": row.ratio()}
                        for row in rows]}
        (args.out / "bench.json").write_text(json.dumps(raw, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
