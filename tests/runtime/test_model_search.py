"""The autotuner's model-guided search (``tc.autotune(space=tc.Space(...), budget=N)``): the
space and its neighbours, the search on a known cost surface (it must find a point within 5% of
the best while measuring a quarter of the space), and a kernel tuned on the CPU backend within
its budget."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tilecraft as tc
from tilecraft import testing
from tilecraft.runtime.autotuner import AutotuneError, Autotuner
from tilecraft.runtime.model_search import ModelSearch, SearchError, kernel_features

from .autotuned_kernels import accumulate_kernel, exact_inputs, grid

pytest.importorskip("lightgbm")


@pytest.fixture(autouse=True)
def environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    monkeypatch.delenv("TILECRAFT_PRINT_AUTOTUNING", raising=False)


def test_space_points_options_and_neighbours():
    space = tc.Space(BLOCK=[16, 32, 64], num_warps=[1, 4], where=lambda p: p["BLOCK"] != 32
                     or p["num_warps"] == 4)
    assert len(space) == 5
    position = space.index((1, 1))  # BLOCK=32, num_warps=4
    assert space.config_parts(position) == ({"BLOCK": 32}, {"num_warps": 4})
    neighbours = {tuple(space.values(space.points[p]).values()) for p in space.neighbours(position)}
    assert neighbours == {(16, 4), (64, 4)}  # (32, 1) is not in the space
    with pytest.raises(ValueError, match="axis 'BLOCK' must be a non-empty list"):
        tc.Space(BLOCK=[])
    with pytest.raises(ValueError, match="repeats a value"):
        tc.Space(BLOCK=[16, 16])


def _surface(space: tc.Space, position: int) -> float | None:
    """A cost with one best region, interactions between axes, and failing corners."""
    v = space.values(space.points[position])
    m, n, k = (math.log2(v[name]) for name in ("M", "N", "K"))
    w, s = math.log2(v["num_warps"]), v["num_stages"]
    if m + n > 14 and w < 2:
        return None  # "out of registers"
    return 1.0 + 0.05 * ((m - 6) ** 2 + 0.7 * (n - 7) ** 2 + 0.5 * (k - 5) ** 2
                         + 0.3 * (w - 2) ** 2 + 0.2 * (s - 3) ** 2 + 0.2 * (m - 6) * (w - 2))


@pytest.mark.parametrize("seed", range(4))
def test_search_finds_a_point_within_5_percent_measuring_a_quarter(seed):
    space = tc.Space(M=[16, 32, 64, 128, 256], N=[16, 32, 64, 128, 256], K=[16, 32, 64, 128],
                     num_warps=[1, 2, 4, 8], num_stages=[1, 2, 3, 4])
    costs = [_surface(space, p) for p in range(len(space))]
    best = min(c for c in costs if c is not None)
    calls = []

    def measure(position):
        calls.append(position)
        return costs[position]

    search = ModelSearch(space, len(space) // 4, seed=seed)
    times = search.run(measure)
    assert len(calls) == len(set(calls)) == len(space) // 4
    assert min(t for t in times.values() if t is not None) <= 1.05 * best
    assert search.rounds > 2  # the model proposed after the random first round


def test_points_that_do_not_compile_are_not_measured():
    space = tc.Space(X=list(range(40)))
    measured = []

    def compile_features(positions):
        return [None if p % 2 else {"instructions": float(p)} for p in positions]

    search = ModelSearch(space, 12, seed=1)
    search.run(lambda p: measured.append(p) or 1.0 + abs(p - 20), compile_features)
    assert measured and all(p % 2 == 0 for p in measured)
    assert len(measured) == 12


def test_a_bad_budget_is_an_error():
    with pytest.raises(SearchError, match="budget must be a number of measurements"):
        ModelSearch(tc.Space(X=[1, 2]), 0)
    with pytest.raises(AutotuneError, match="budget=N >= 1"):
        tc.autotune(key=["n"], space=tc.Space(BLOCK=[16]))(accumulate_kernel)
    with pytest.raises(AutotuneError, match="configs or a space, not both"):
        tc.autotune([tc.Config({"BLOCK": 16})], key=["n"], space=tc.Space(BLOCK=[16]),
                    budget=1)(accumulate_kernel)
    with pytest.raises(AutotuneError, match="'WIDTH', which is not a parameter"):
        tc.autotune(key=["n"], space=tc.Space(WIDTH=[16]), budget=1)(accumulate_kernel)


def test_a_kernel_tuned_over_a_space_within_its_budget(monkeypatch):
    measured = []
    real = testing.do_bench

    def counting(fn, **kwargs):
        measured.append(fn)
        return real(fn, **kwargs)

    monkeypatch.setattr(testing, "do_bench", counting)
    space = tc.Space(BLOCK=[16, 32, 64, 128, 256, 512, 1024], ROUNDS=[1, 4, 16, 64, 256, 1024])
    kernel = tc.autotune(key=["n"], space=space, budget=12, warmup=1, rep=5,
                         reset_to_zero=["out_ptr"])(accumulate_kernel)
    n = 1 << 14
    x, out = exact_inputs(n, 0)
    kernel[grid](x, out, n)
    np.testing.assert_array_equal(out, x)  # reset to zero, then out = 0 + x
    # and at most the three fastest (those within 25% of the fastest) in three more rounds
    assert 12 <= len(measured) <= 12 + 3 * 3 and (len(measured) - 12) % 3 == 0
    timings = kernel.configs_timings
    assert len(timings) == 12
    assert kernel.best_config in timings
    assert kernel.best_config.kwargs["ROUNDS"] <= 16  # 1024 rounds are ~100x slower


def lucky_bench(calls: dict[tuple, int], lucky: dict, steady: dict):
    """A stand-in for `Autotuner._bench`: ``lucky`` measures 1.0 once and 3.0 after, ``steady``
    1.2 (close enough to be measured again), every other configuration 10 or more."""

    def fake_bench(self, config, *args):
        key = tuple(sorted(config.kwargs.items()))
        calls[key] = calls.get(key, 0) + 1
        if config.kwargs == lucky:
            time = 1.0 if calls[key] == 1 else 3.0
        elif config.kwargs == steady:
            time = 1.2
        else:
            time = 10.0 + config.kwargs["ROUNDS"] + 1 / config.kwargs["BLOCK"]
        return [time, time, time]

    return fake_bench


def test_the_fastest_of_a_search_are_measured_again_in_alternating_rounds(monkeypatch):
    lucky, steady = {"BLOCK": 1024, "ROUNDS": 1}, {"BLOCK": 512, "ROUNDS": 1}
    calls: dict[tuple, int] = {}
    monkeypatch.setattr(Autotuner, "_bench", lucky_bench(calls, lucky, steady))
    space = tc.Space(BLOCK=[256, 512, 1024], ROUNDS=[1, 4])
    kernel = tc.autotune(key=["n"], space=space, budget=6)(accumulate_kernel)
    x, out = exact_inputs(64, 0)
    kernel[grid](x, out, 64)
    assert kernel.best_config.kwargs == steady
    assert kernel.configs_timings[kernel.best_config][0] == 1.2
    # six points; the two within 25% of the fastest three more times, the others (10x) not
    assert sorted(calls.values()) == [1, 1, 1, 1, 4, 4]
    lucky_times = [t for c, t in kernel.configs_timings.items() if c.kwargs == lucky]
    assert lucky_times == [[3.0] * 3]  # the medians of its three rounds


def test_a_list_of_configurations_is_measured_again_where_close(monkeypatch):
    lucky, steady = {"BLOCK": 1024, "ROUNDS": 1}, {"BLOCK": 512, "ROUNDS": 1}
    calls: dict[tuple, int] = {}
    monkeypatch.setattr(Autotuner, "_bench", lucky_bench(calls, lucky, steady))
    configs = [tc.Config(lucky), tc.Config(steady), tc.Config({"BLOCK": 256, "ROUNDS": 4})]
    kernel = tc.autotune(configs=configs, key=["n"])(accumulate_kernel)
    x, out = exact_inputs(64, 0)
    kernel[grid](x, out, 64)
    assert kernel.best_config.kwargs == steady
    assert sorted(calls.values()) == [1, 4, 4]


def test_the_choice_is_among_the_finalists_even_if_the_machine_slowed_down(monkeypatch):
    first = {256: 1.0, 512: 1.1, 1024: 1.2}  # ROUNDS=1; ROUNDS=4 measure 2.0 and more
    calls = []

    def fake_bench(self, config, *args):
        calls.append(config)
        block, rounds = config.kwargs["BLOCK"], config.kwargs["ROUNDS"]
        time = first[block] if rounds == 1 else 2.0 + block / 1024
        slower = 3.0 if len(calls) > 6 else 1.0  # the rechecks run on a slower machine
        return [time * slower] * 3

    monkeypatch.setattr(Autotuner, "_bench", fake_bench)
    space = tc.Space(BLOCK=[256, 512, 1024], ROUNDS=[1, 4])
    kernel = tc.autotune(key=["n"], space=space, budget=6)(accumulate_kernel)
    x, out = exact_inputs(64, 0)
    kernel[grid](x, out, 64)
    assert kernel.best_config.kwargs == {"BLOCK": 256, "ROUNDS": 1}
    assert kernel.configs_timings[kernel.best_config][0] == 3.0
    assert min(t[0] for t in kernel.configs_timings.values()) < 3.0  # a point measured once


def test_kernel_features_of_a_cpu_kernel():
    x, out = exact_inputs(256, 0)
    compiled = accumulate_kernel.warmup(x, out, 256, BLOCK=64, ROUNDS=2)
    assert kernel_features(compiled)["instructions"] > 10
