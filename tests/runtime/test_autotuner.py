"""The autotuner, as triton.autotune: it benchmarks every configuration once per tuning key and
launches with the fastest, skips configurations that fail, keeps its choice on disk for the next
process, resets and restores arrays that tuning runs overwrite; and heuristics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft import testing
from tilecraft.runtime.autotuner import AutotuneError, AutotuneWarning, Autotuner

from .autotuned_kernels import FAST, LARGE, SLOW, accumulate_kernel, exact_inputs, grid, tuned

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    for name in ("TILECRAFT_CACHE_DISABLE", "TILECRAFT_INTERPRET", "TILECRAFT_ALWAYS_COMPILE",
                 "TILECRAFT_PRINT_AUTOTUNING"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def benchmarks(monkeypatch):
    """The configurations do_bench measured, in order (each a launch's BLOCK)."""
    measured: list = []
    real = testing.do_bench

    def counting(fn, **kwargs):
        measured.append(fn)
        return real(fn, **kwargs)

    monkeypatch.setattr(testing, "do_bench", counting)
    return measured


def _launch(kernel, n: int, seed: int = 0):
    x, out = exact_inputs(n, seed)
    before = out.copy()
    kernel[grid](x, out, n)
    return x, before, out


def test_picks_the_fastest_configuration_and_launches_with_it(benchmarks):
    kernel = tuned(reset_to_zero=["out_ptr"])
    x, _, out = _launch(kernel, LARGE)
    assert kernel.best_config.kwargs == FAST
    assert len(benchmarks) == 2
    slow, fast = (kernel.configs_timings[config][0] for config in kernel.configs)
    assert slow > 2 * fast, kernel.configs_timings
    np.testing.assert_array_equal(out, x)  # zeroed before each run, then one real launch


def test_tunes_once_per_key_and_again_for_a_new_key_or_dtype(benchmarks):
    kernel = tuned(cache_results=False)
    _launch(kernel, 3000, seed=1)
    _launch(kernel, 3000, seed=2)
    assert len(benchmarks) == 2
    _launch(kernel, 5000)
    assert len(benchmarks) == 4
    f32 = np.dtype(np.float32)
    assert set(kernel.cache) == {(3000, (f32, f32)), (5000, (f32, f32))}
    x, out = (a.astype(np.float64) for a in exact_inputs(3000, 3))
    kernel[grid](x, out, 3000)
    assert len(benchmarks) == 6


def test_restore_value_puts_back_what_tuning_runs_overwrote():
    x, before, out = _launch(tuned(restore_value=["out_ptr"], cache_results=False), 2000)
    np.testing.assert_array_equal(out, before + x)


def test_the_disk_cache_serves_another_autotuner_of_the_same_kernel(benchmarks):
    _launch(tuned(), LARGE)
    assert len(benchmarks) == 2
    again = tuned()
    x, before, out = _launch(again, LARGE)
    assert len(benchmarks) == 2
    assert again.best_config.kwargs == FAST
    np.testing.assert_array_equal(out, before + x)
    _launch(tc.autotune(configs=[tc.Config(dict(SLOW)), tc.Config(dict(FAST), num_warps=8)],
                        key=["n"], warmup=1, rep=10)(accumulate_kernel), LARGE)
    assert len(benchmarks) == 4  # other configurations: another entry


_NEW_PROCESS = """
import sys
sys.path.insert(0, {repo!r})
from tilecraft import testing
from tests.runtime.autotuned_kernels import LARGE, exact_inputs, grid, tuned

measured = []
real = testing.do_bench
testing.do_bench = lambda fn, **kwargs: measured.append(fn) or real(fn, **kwargs)
kernel = tuned(restore_value=["out_ptr"])
x, out = exact_inputs(LARGE, 0)
expected = out + x
kernel[grid](x, out, LARGE)
assert (out == expected).all()
print("RESULT", len(measured), kernel.best_config.kwargs["BLOCK"])
"""


def test_a_new_process_finds_the_choice_on_disk_without_benchmarking(tmp_path):
    script = tmp_path / "tune.py"
    script.write_text(_NEW_PROCESS.format(repo=str(REPO)))
    env = {**os.environ, "TILECRAFT_PRINT_AUTOTUNING": "1"}
    runs = [subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    first, second = ([line for line in run.stdout.splitlines() if line.startswith("RESULT")]
                     for run in runs)
    assert first == [f"RESULT 2 {FAST['BLOCK']}"]
    assert second == [f"RESULT 0 {FAST['BLOCK']}"]
    assert "benchmarked 2 configurations" in runs[0].stdout
    assert "(from the disk cache)" in runs[1].stdout


def test_a_damaged_disk_entry_is_tuned_again(benchmarks, tmp_path):
    _launch(tuned(), 1024)
    entries = [path for path in (tmp_path / "cache").iterdir()
               if (path / "metadata.json").exists() and
               "best" in json.loads((path / "metadata.json").read_text())]
    assert len(entries) == 1
    (entries[0] / "metadata.json").write_text("{}")
    _launch(tuned(), 1024)
    assert len(benchmarks) == 4


@tc.jit
def bounded_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 256, "BLOCK is at most 256")
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2, mask=mask)


def test_a_configuration_that_does_not_compile_is_skipped_with_its_reason():
    kernel = tc.autotune([tc.Config({"BLOCK": 1024}), tc.Config({"BLOCK": 128})], key=["n"],
                         warmup=1, rep=5)(bounded_kernel)
    x = np.random.default_rng(4).standard_normal(1000).astype(np.float32)
    out = np.full_like(x, np.nan)
    with pytest.warns(AutotuneWarning, match=r"skipping Config\(\{BLOCK=1024\}.*at most 256"):
        kernel[grid](x, out, 1000)
    assert kernel.best_config.kwargs == {"BLOCK": 128}
    assert kernel.configs_timings[kernel.configs[0]] is None
    np.testing.assert_array_equal(out, 2 * x)


def test_when_every_configuration_fails_the_error_names_the_kernel_and_each_reason():
    kernel = tc.autotune([tc.Config({"BLOCK": 1024}), tc.Config({"BLOCK": 512})], key=["n"],
                         warmup=1, rep=5)(bounded_kernel)
    x = np.ones(100, np.float32)
    with pytest.warns(AutotuneWarning), pytest.raises(AutotuneError) as error:
        kernel[grid](x, x.copy(), 100)
    message = str(error.value)
    assert "kernel 'bounded_kernel': every configuration failed" in message
    assert "BLOCK=1024" in message and "BLOCK=512" in message
    assert message.count("static_assert failed: BLOCK is at most 256") == 2


def test_pruning_decides_what_is_benchmarked(benchmarks):
    seen = {}

    def early(configs, named, **kwargs):
        seen.update(named)
        return [config for config in configs if config.kwargs["BLOCK"] == FAST["BLOCK"]]

    kernel = tuned(prune_configs_by={"early_config_prune": early})
    x, before, out = _launch(kernel, 700)
    assert seen["n"] == 700 and seen["x_ptr"] is not None
    assert kernel.best_config.kwargs == FAST and not benchmarks
    np.testing.assert_array_equal(out, before + x)
    predicted = tuned(prune_configs_by={"perf_model": lambda **meta: meta["ROUNDS"],
                                        "top_k": 1})
    _launch(predicted, 700)
    assert predicted.best_config.kwargs == FAST and not benchmarks


def test_warmup_compiles_every_configuration_without_launching(benchmarks):
    kernel = tuned(cache_results=False)
    x, out = exact_inputs(300, 10)
    before = out.copy()
    compiled = kernel.warmup(x, out, 300)
    assert len(compiled) == 2 and compiled[0] is not compiled[1]
    np.testing.assert_array_equal(out, before)
    assert not benchmarks and kernel.best_config is None


def test_pre_hooks_see_the_named_arguments_and_the_configuration():
    calls = []
    kernel = tc.autotune([tc.Config(dict(FAST), pre_hook=calls.append)], key=["n"])(
        accumulate_kernel)
    x, out = exact_inputs(300, 5)
    kernel[grid](x, out, 300)
    assert len(calls) == 1
    assert calls[0]["x_ptr"] is x and calls[0]["n"] == 300 and calls[0]["BLOCK"] == 1024
    assert calls[0]["num_warps"] == 4


def test_print_autotuning_reports_each_configuration(monkeypatch, capsys):
    monkeypatch.setenv("TILECRAFT_PRINT_AUTOTUNING", "1")
    _launch(tuned(cache_results=False), LARGE)
    printed = capsys.readouterr().out
    assert "tilecraft autotuning: kernel 'accumulate_kernel' (n=32768, dtypes float32/float32): " \
        "benchmarked 2 configurations in" in printed
    assert "best Config({BLOCK=1024, ROUNDS=1}" in printed
    assert printed.count(" ms") == 2


def test_a_terminal_shows_a_progress_bar_over_the_configurations(monkeypatch):
    bars = []

    def tqdm(configs, **options):
        bars.append(options)
        return iter(configs)

    monkeypatch.setitem(sys.modules, "tqdm", type(sys)("tqdm"))
    monkeypatch.setattr(sys.modules["tqdm"], "tqdm", tqdm, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    _launch(tuned(cache_results=False), 1000)
    assert bars == [{"desc": "autotuning accumulate_kernel", "unit": "config", "leave": False}]


def test_setup_errors_name_what_is_wrong():
    with pytest.raises(AutotuneError, match="key names 'size', which is not a parameter"):
        tc.autotune([tc.Config(FAST)], key=["size"])(accumulate_kernel)
    with pytest.raises(AutotuneError, match="sets|names 'BLOKC'"):
        tc.autotune([tc.Config({"BLOKC": 8})], key=["n"])(accumulate_kernel)
    with pytest.raises(AutotuneError, match="prune_configs_by takes"):
        tc.autotune([tc.Config(FAST)], key=["n"], prune_configs_by={"topk": 2})(
            accumulate_kernel)
    kernel = tuned()
    x, out = exact_inputs(64, 6)
    with pytest.raises(AutotuneError, match="BLOCK given at launch and tuned"):
        kernel[grid](x, out, 64, BLOCK=32)


@tc.heuristics({"BLOCK": lambda args: tc.next_power_of_2(args["n"]) // 2})
@tc.jit
def halves_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + BLOCK, mask=mask)


def test_heuristics_compute_meta_parameters_from_the_arguments():
    x = np.random.default_rng(7).standard_normal(100).astype(np.float32)
    out = np.full_like(x, np.nan)
    launched = halves_kernel[grid](x, out, 100)
    np.testing.assert_array_equal(out, x + 64)
    assert halves_kernel.warmup(x, out, 100) is launched


def test_autotune_above_heuristics_and_on_the_interpreter(benchmarks):
    interpreted = tc.jit(interpret=True)(halves_kernel.fn.fn)
    kernel = tc.autotune([tc.Config({}, num_warps=1), tc.Config({}, num_warps=2)], key=["n"],
                         warmup=1, rep=5)(tc.heuristics(halves_kernel.values)(interpreted))
    assert isinstance(kernel, Autotuner)
    x = np.random.default_rng(8).standard_normal(40).astype(np.float32)
    out = np.full_like(x, np.nan)
    kernel[grid](x, out, 40)
    np.testing.assert_array_equal(out, x + 32)
    # two configurations that run alike: each measured once, and again three times where close
    assert len(benchmarks) in (2, 2 + 2 * 3) and kernel.best_config in kernel.configs


def _cuda_available() -> bool:
    from tilecraft.backends.cuda import driver

    return driver.is_available()


@pytest.mark.skipif(not _cuda_available(), reason="no CUDA device")
def test_on_the_gpu_the_fastest_fitting_configuration_wins(monkeypatch, benchmarks):
    torch = pytest.importorskip("torch")
    from .autotuned_kernels import matmul_grid, matmul_kernel

    monkeypatch.setenv("TILECRAFT_BACKEND", "cuda")
    kernel = tuned(restore_value=["out_ptr"])
    x, out = (torch.from_numpy(a).cuda() for a in exact_inputs(1 << 20, 9))
    expected = out + x
    kernel[grid](x, out, 1 << 20)
    assert kernel.best_config.kwargs == FAST and len(benchmarks) == 2
    assert torch.equal(out, expected)

    configs = [tc.Config({"BM": 32, "BN": 32, "BK": 32}, num_warps=4),
               tc.Config({"BM": 128, "BN": 128, "BK": 64}, num_warps=4, num_stages=3),
               tc.Config({"BM": 256, "BN": 256, "BK": 256}, num_warps=8, num_stages=4)]
    matmul = tc.autotune(configs, key=["M", "N", "K"])(matmul_kernel)
    a = torch.randn(4096, 2048, device="cuda", dtype=torch.float16)
    b = torch.randn(2048, 4096, device="cuda", dtype=torch.float16)
    c = torch.full((4096, 4096), float("nan"), device="cuda")
    with pytest.warns(AutotuneWarning, match="shared memory"):
        matmul[matmul_grid](a, b, c, 4096, 4096, 2048)
    assert set(matmul.cache) == {(4096, 4096, 2048, (torch.float16, torch.float16, torch.float32))}
    assert matmul.best_config is configs[1], matmul.configs_timings
    assert matmul.configs_timings[configs[2]] is None
    reference = a.double() @ b.double()
    assert ((c.double() - reference).norm() / reference.norm()).item() < 1e-3
