"""tilecraft.testing, as triton.testing: do_bench's warm-up, runs and statistics on the CPU,
assert_close, and perf_report sweeps that print a table and save a CSV and a plot."""

from __future__ import annotations

import csv
import sys
import time

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft import testing


@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def test_public_as_tc_testing():
    assert tc.testing is testing


def test_do_bench_warms_up_then_times_each_run():
    calls = []

    def sleep_a_millisecond():
        calls.append(time.perf_counter())
        time.sleep(1e-3)

    times = testing.do_bench(sleep_a_millisecond, warmup=5, rep=10, return_mode="all",
                             device="cpu")
    assert isinstance(times, list) and 1 <= len(times) <= 10
    assert all(t >= 1.0 for t in times)  # each run is timed alone, and sleeps 1 ms at least
    assert len(calls) > len(times) + 5  # a first call, five to estimate, the warm-up
    low, median, high = testing.do_bench(sleep_a_millisecond, warmup=0, rep=5,
                                         quantiles=[0.2, 0.5, 0.8], device="cpu")
    assert 1.0 <= low <= median <= high
    for mode in ("min", "max", "mean", "median"):
        assert testing.do_bench(sleep_a_millisecond, warmup=0, rep=3, return_mode=mode,
                                device="cpu") >= 1.0


def test_do_bench_refuses_bad_requests():
    with pytest.raises(ValueError, match="return_mode must be one of"):
        testing.do_bench(lambda: None, return_mode="average")
    with pytest.raises(ValueError, match=r"quantiles must lie in \[0, 1\]"):
        testing.do_bench(lambda: None, quantiles=[0.5, 2])
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda'"):
        testing.do_bench(lambda: None, device="tpu")


def test_do_bench_times_a_cpu_kernel(monkeypatch):
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(4096).astype(np.float32), rng.standard_normal(4096).astype(
        np.float32)
    out = np.full_like(x, np.nan)
    ms = testing.do_bench(lambda: add_kernel[(4,)](x, y, out, 4096, BLOCK=1024), warmup=1,
                          rep=5)
    assert ms > 0
    testing.assert_close(out, x.astype(np.float64) + y, atol=1e-6, rtol=1e-6)


def test_assert_close():
    testing.assert_close(np.array([1.0, 2.0]), np.array([1.005, 2.0]))
    testing.assert_close(3.0, 3.001)
    testing.assert_close(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 2"):
        testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.5]))
    with pytest.raises(AssertionError):
        testing.assert_close(np.array([100.0]), np.array([101.0]), atol=0, rtol=1e-3)
    testing.assert_close(np.array([100.0]), np.array([101.0]), atol=0, rtol=1e-1)
    with pytest.raises(AssertionError, match="the bound"):
        testing.assert_close(1.0, 2.0, err_msg="the bound")


def _benchmarks(plot_name: str, ranged: bool) -> testing.Benchmark:
    return testing.Benchmark(
        x_names=["size"], x_vals=[128, 256, 512], line_arg="provider",
        line_vals=["fast", "slow"], line_names=["Fast", "Slow"], plot_name=plot_name,
        args={"scale": 2.0 if ranged else 1.0}, xlabel="elements", ylabel="ms")


def _figures(size, provider, scale):
    value = size * scale * (1 if provider == "fast" else 3)
    return (value, value - 1, value + 1) if scale == 2.0 else value


def test_perf_report_prints_a_table_and_saves_a_csv_and_a_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    mark = testing.perf_report(_benchmarks("sweep", ranged=True))(_figures)
    table = mark.run(print_data=True, save_path=str(tmp_path), return_df=True)
    assert table.columns == ["size", "Fast", "Fast-min", "Fast-max", "Slow", "Slow-min",
                             "Slow-max"]
    assert table.rows[0] == [128, 256.0, 255.0, 257.0, 768.0, 767.0, 769.0]
    printed = capsys.readouterr().out
    assert printed.startswith("sweep:\n") and "Slow-max" in printed and "1536" in printed
    with open(tmp_path / "sweep.csv") as file:
        rows = list(csv.reader(file))
    assert rows[0] == table.columns and rows[3] == ["512", "1024.0", "1023.0", "1025.0",
                                                    "3072.0", "3071.0", "3073.0"]
    assert (tmp_path / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_perf_report_sweeps_several_benchmarks_and_tuples_of_x(tmp_path):
    plain = _benchmarks("plain", ranged=False)
    pairs = testing.Benchmark(x_names=["m", "n"], x_vals=[(1, 2), (3, 4)], line_arg="op",
                              line_vals=["add", "mul"], line_names=["add", "mul"],
                              plot_name="pairs")

    def figure(m, n, op=None, size=None, provider=None, scale=None):
        if op is None:
            return _figures(size, provider, scale)
        return m + n if op == "add" else m * n

    first, second = testing.perf_report([
        testing.Benchmark(x_names=["size"], x_vals=plain.x_vals, line_arg="provider",
                          line_vals=plain.line_vals, line_names=plain.line_names,
                          plot_name="plain", args={"scale": 1.0, "m": 0, "n": 0}),
        pairs])(figure).run(return_df=True)
    assert first.columns == ["size", "Fast", "Slow"] and first.rows[1] == [256, 256.0, 768.0]
    assert second.columns == ["m", "n", "add", "mul"] and second.rows == [[1, 2, 3, 2],
                                                                          [3, 4, 7, 12]]
    assert testing.perf_report(pairs)(figure).run() is None
    assert list(tmp_path.iterdir()) == []


def test_perf_report_errors_name_the_benchmark(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="'bad': 2 line_vals but 1 line_names"):
        testing.Benchmark(x_names=["x"], x_vals=[1], line_arg="p", line_vals=[1, 2],
                          line_names=["one"], plot_name="bad")
    mark = testing.perf_report(testing.Benchmark(
        x_names=["x"], x_vals=[1], line_arg="p", line_vals=[1], line_names=["one"],
        plot_name="pairs"))(lambda x, p: (1.0, 2.0))
    with pytest.raises(ValueError, match="'pairs': the function returned"):
        mark.run()
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install 'tilecraft\[plot\]'"):
        testing.perf_report(_benchmarks("noplot", ranged=False))(_figures).run(
            save_path=str(tmp_path))
    assert (tmp_path / "noplot.csv").exists()
