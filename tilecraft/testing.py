"""Benchmarking and checking kernels, as ``triton.testing``: `do_bench` times a callable,
`assert_close` compares results, and `perf_report` with `Benchmark` sweeps a parameter, prints a
table and saves a CSV and a matplotlib plot.

On the CPU backend a run is timed with ``time.perf_counter`` (the kernel has finished when the
launch returns); on CUDA with CUDA events on the current stream, the L2 cache cleared between
runs by writing a 256 MB buffer (see `tilecraft.backends.cuda.driver.Event`). matplotlib is
imported only to plot (``pip install 'tilecraft[plot]'``).
"""

from __future__ import annotations

import csv
import functools
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

QUANTILE_MODES = ("min", "max", "mean", "median", "all")
L2_FLUSH_BYTES = 256 << 20


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             grad_to_none: Sequence[Any] | None = None,
             quantiles: Sequence[float] | None = None, return_mode: str = "mean",
             device: str | None = None) -> float | list[float]:
    """The time of one call of ``fn`` in milliseconds, as ``triton.testing.do_bench``: ``fn``
    runs for about ``warmup`` ms, then for about ``rep`` ms, each run timed alone. Returns the
    ``quantiles`` of the runs' times when given (a list), else their ``return_mode``: ``"min"``,
    ``"max"``, ``"mean"``, ``"median"`` or ``"all"`` (every run's time). ``device`` is ``"cpu"``
    or ``"cuda"`` (default: where launches run now). ``grad_to_none``: tensors whose ``.grad``
    is reset before each run."""
    if return_mode not in QUANTILE_MODES:
        raise ValueError(f"do_bench: return_mode must be one of {', '.join(QUANTILE_MODES)}, "
                         f"got {return_mode!r}")
    if quantiles is not None and not all(0 <= q <= 1 for q in quantiles):
        raise ValueError(f"do_bench: quantiles must lie in [0, 1], got {list(quantiles)}")
    if warmup < 0 or rep <= 0:
        raise ValueError(f"do_bench: warmup must be >= 0 and rep > 0 (ms), got {warmup}, {rep}")
    clock = _clock(device)
    fn()
    _optimize_quick_builds()
    clock.synchronize()
    estimate = clock.estimate(fn, grad_to_none)
    warmup_runs = max(1, math.ceil(warmup / max(estimate, 1e-6)))
    runs = max(1, math.ceil(rep / max(estimate, 1e-6)))
    for _ in range(warmup_runs):
        fn()
    clock.synchronize()
    times = clock.time_runs(fn, runs, grad_to_none)
    if quantiles is not None:
        return [_quantile(times, q) for q in quantiles]
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.fmean,
            "median": statistics.median}[return_mode](times)


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile with linear interpolation (``torch.quantile``'s default)."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _reset_grads(grad_to_none: Sequence[Any] | None) -> None:
    for tensor in grad_to_none or ():
        tensor.grad = None


class _CPUClock:
    """Times runs with perf_counter: a CPU launch returns when its kernel has finished."""

    def synchronize(self) -> None:
        """Nothing runs asynchronously on the CPU."""

    def estimate(self, fn: Callable[[], Any], grad_to_none: Sequence[Any] | None) -> float:
        """The mean ms of five runs."""
        return statistics.fmean(self.time_runs(fn, 5, grad_to_none))

    def time_runs(self, fn: Callable[[], Any], count: int,
                  grad_to_none: Sequence[Any] | None) -> list[float]:
        """The ms of each of ``count`` runs."""
        times = []
        for _ in range(count):
            _reset_grads(grad_to_none)
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return times


class _CUDAClock:
    """Times runs with CUDA events on the current stream, the L2 cache cleared before each.
    As Triton's do_bench, every run is queued before any is read, so that the GPU never waits
    for the host between the events of a run (the host may lag: another thread holding the
    GIL, as the autotuner's measuring on several GPUs)."""

    def __init__(self) -> None:
        from tilecraft.backends.cuda import driver

        self.driver = driver
        self.stream = driver.current_stream()
        self.flush = driver.DeviceBuffer(L2_FLUSH_BYTES)

    def synchronize(self) -> None:
        self.driver.synchronize()

    def estimate(self, fn: Callable[[], Any], grad_to_none: Sequence[Any] | None) -> float:
        """The mean ms of five runs, each with its cache clearing (so that the number of runs
        in ``rep`` ms counts the clearing too)."""
        start, end = self.driver.Event(), self.driver.Event()
        start.record(self.stream)
        for _ in range(5):
            _reset_grads(grad_to_none)
            self.flush.clear(self.stream)
            fn()
        end.record(self.stream)
        return start.elapsed_ms(end) / 5

    def time_runs(self, fn: Callable[[], Any], count: int,
                  grad_to_none: Sequence[Any] | None) -> list[float]:
        """The ms of each of ``count`` runs, between events around the run alone."""
        events = [(self.driver.Event(), self.driver.Event()) for _ in range(count)]
        for start, end in events:
            _reset_grads(grad_to_none)
            self.flush.clear(self.stream)
            start.record(self.stream)
            fn()
            end.record(self.stream)
        return [start.elapsed_ms(end) for start, end in events]


def _optimize_quick_builds() -> None:
    """The CPU kernels that ``fn`` launched for the first time run quick builds (see
    `tilecraft.runtime.cpu_driver`): optimized before they are timed."""
    driver = sys.modules.get("tilecraft.runtime.cpu_driver")
    if driver is not None:
        driver.optimize_quick_builds()


def _clock(device: str | None) -> _CPUClock | _CUDAClock:
    if device is None:
        from tilecraft.runtime.compiler import selected_backend

        device = "cuda" if selected_backend() == "cuda" else "cpu"
    if device == "cpu":
        return _CPUClock()
    if device == "cuda":
        return _CUDAClock()
    raise ValueError(f"do_bench: device must be 'cpu' or 'cuda', got {device!r}")


def assert_close(x: Any, y: Any, atol: float | None = None, rtol: float | None = None,
                 err_msg: str = "") -> None:
    """Checks that ``x`` and ``y`` (arrays, torch tensors on any device, or scalars) are
    elementwise close: ``|x - y| <= atol + rtol * |y|``, with ``triton.testing``'s defaults of
    ``atol=1e-2`` and ``rtol=0``. Raises AssertionError naming the mismatches."""
    import numpy as np

    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(_to_numpy(x), _to_numpy(y), atol=atol, rtol=rtol,
                               err_msg=err_msg, equal_nan=True)


def _to_numpy(value: Any) -> Any:
    """A numpy array of ``value``; torch tensors come to the host, bf16 and fp8 as float32."""
    import numpy as np

    if type(value).__module__.startswith("torch") and hasattr(value, "detach"):
        tensor = value.detach().cpu()
        if (tensor.dtype.is_floating_point and tensor.element_size() < 2) or \
                str(tensor.dtype) == "torch.bfloat16":
            tensor = tensor.float()
        return tensor.numpy()
    return np.asarray(value)


@dataclass
class Benchmark:
    """One sweep, as ``triton.testing.Benchmark``: the benchmark function is called with each
    value of ``x_vals`` for the parameters ``x_names`` (a tuple when there are several), each
    value of ``line_vals`` for ``line_arg``, and ``args``; it returns a time (or any figure), or
    (figure, min, max). ``line_names`` label the lines, ``plot_name`` names the files saved."""

    x_names: list[str]
    x_vals: list[Any]
    line_arg: str
    line_vals: list[Any]
    line_names: list[str]
    plot_name: str
    args: dict[str, Any] = field(default_factory=dict)
    xlabel: str = ""
    ylabel: str = ""
    x_log: bool = False
    y_log: bool = False
    styles: list[tuple[str, str]] | None = None

    def __post_init__(self) -> None:
        if len(self.line_names) != len(self.line_vals):
            raise ValueError(f"Benchmark {self.plot_name!r}: {len(self.line_vals)} line_vals "
                             f"but {len(self.line_names)} line_names")
        if not self.x_names:
            raise ValueError(f"Benchmark {self.plot_name!r}: x_names is empty")


@dataclass
class Table:
    """A sweep's results: one row per x value, the x names then each line's figure (and its
    ``-min`` and ``-max`` where the function returned them)."""

    name: str
    columns: list[str]
    rows: list[list[Any]]

    def text(self) -> str:
        """The table as aligned text."""
        cells = [self.columns] + [[_format(value) for value in row] for row in self.rows]
        widths = [max(len(str(row[i])) for row in cells) for i in range(len(self.columns))]
        return "\n".join("  ".join(str(cell).rjust(width) for cell, width in zip(row, widths))
                         for row in cells)

    def write_csv(self, path: str) -> None:
        with open(path, "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(self.columns)
            writer.writerows(self.rows)


def _format(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


class Mark:
    """A benchmark function with its sweeps (`perf_report`); ``run`` measures them."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Benchmark | list[Benchmark]) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.benchmarks = benchmarks

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str = "",
            return_df: bool = False, **kwargs: Any) -> Table | list[Table] | None:
        """Runs every sweep; ``print_data`` prints each table; ``save_path`` saves
        ``<plot_name>.csv`` and ``<plot_name>.png`` there; ``show_plots`` shows the plots.
        Returns the tables when ``return_df`` (one, or a list for several sweeps)."""
        several = isinstance(self.benchmarks, list)
        tables = [self._run(bench, show_plots, print_data, save_path, **kwargs)
                  for bench in (self.benchmarks if several else [self.benchmarks])]
        if not return_df:
            return None
        return tables if several else tables[0]

    def _run(self, bench: Benchmark, show_plots: bool, print_data: bool, save_path: str,
             **kwargs: Any) -> Table:
        columns = list(bench.x_names)
        ranged = False
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            if len(xs) != len(bench.x_names):
                raise ValueError(f"Benchmark {bench.plot_name!r}: x value {x!r} does not give "
                                 f"the {len(bench.x_names)} parameters {bench.x_names}")
            row: list[Any] = list(xs)
            for line in bench.line_vals:
                result = self.fn(**dict(zip(bench.x_names, xs)), **{bench.line_arg: line},
                                 **bench.args, **kwargs)
                figures = list(result) if isinstance(result, (list, tuple)) else [result]
                if len(figures) not in (1, 3):
                    raise ValueError(f"Benchmark {bench.plot_name!r}: the function returned "
                                     f"{result!r}; return a figure or (figure, min, max)")
                ranged = ranged or len(figures) == 3
                row.append(figures + [math.nan] * (3 - len(figures)))
            rows.append(row)
        for name in bench.line_names:
            columns += [name, f"{name}-min", f"{name}-max"] if ranged else [name]
        flat = [row[:len(bench.x_names)] + [value for figures in row[len(bench.x_names):]
                                            for value in (figures if ranged else figures[:1])]
                for row in rows]
        table = Table(bench.plot_name, columns, flat)
        if print_data:
            print(f"{bench.plot_name}:\n{table.text()}")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
            table.write_csv(os.path.join(save_path, f"{bench.plot_name}.csv"))
        if save_path or show_plots:
            _plot(bench, table, ranged, save_path, show_plots)
        return table


def _plot(bench: Benchmark, table: Table, ranged: bool, save_path: str,
          show_plots: bool) -> None:
    """Each line against the first x parameter, shaded between its min and max."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting a benchmark needs matplotlib: pip install "
                          "'tilecraft[plot]'") from None
    figure, axes = plt.subplots()
    xs = [row[0] for row in table.rows]
    for index, name in enumerate(bench.line_names):
        column = table.columns.index(name)
        ys = [row[column] for row in table.rows]
        color, style = bench.styles[index] if bench.styles else (None, "-")
        axes.plot(xs, ys, label=name, color=color, linestyle=style)
        if ranged:
            low = [row[column + 1] for row in table.rows]
            high = [row[column + 2] for row in table.rows]
            axes.fill_between(xs, low, high, alpha=0.15, color=color)
    axes.legend()
    axes.set_xlabel(bench.xlabel or bench.x_names[0])
    axes.set_ylabel(bench.ylabel)
    axes.set_title(bench.plot_name)
    if bench.x_log:
        axes.set_xscale("log")
    if bench.y_log:
        axes.set_yscale("log")
    if save_path:
        figure.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
    if show_plots:
        plt.show()
    plt.close(figure)


def perf_report(benchmarks: Benchmark | list[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """Decorates a benchmark function with its sweeps, as ``triton.testing.perf_report``:
    ``fn.run(print_data=True, save_path="out")``."""

    def decorate(fn: Callable[..., Any]) -> Mark:
        return Mark(fn, benchmarks)

    return decorate
