#!/usr/bin/env python3
"""How close the autotuner's model-guided search (``tc.autotune(space=..., budget=...)``) gets
to the best configuration of a matmul space while measuring a quarter of it.

The matmul of ``examples/04_matmul.py`` (Triton's tutorial kernel) is first measured at every
point of the space, three times: in order, in reverse order and in a shuffled order (the median
of the three ``tilecraft.testing.do_bench`` medians; points that do not compile or launch are
left out), which gives the exhaustive best. Then the search runs ``--seeds`` times with a
budget of a quarter of the space against those measured times (so that measurement noise does
not decide), with the compiled kernels' features, and once live, as ``tc.autotune`` runs it,
measuring anew. Each line gives the best time the search found over the exhaustive best
(goal: at most 1.05). On the CPU backend the space is smaller (the issue's "smaller space");
its matmul is 1024^3, because at 512^3 a 128x64 block leaves 32 programs for 16 threads, and
where the threads happen to run then moved medians by up to 50% between passes (an H200 host
run: 1.54x by the exhaustive pass, 1.07x measured again side by side).

    python tools/bench/tuner_search.py [--size N] [--seeds 5] [--out DIR]
    python tools/bench/tuner_search.py --replay DIR/measurements.json [--seeds 20]

``--out`` also keeps the measurements (``measurements.json``: each configuration's time and
compiled features), on which ``--replay`` runs the searches again without measuring.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

import tilecraft as tc  # noqa: E402
from tilecraft import testing  # noqa: E402
from tilecraft.runtime.autotuner import space_configs  # noqa: E402
from tilecraft.runtime.compiler import selected_backend  # noqa: E402
from tilecraft.runtime.model_search import ModelSearch, kernel_features  # noqa: E402

from _load import example  # noqa: E402  (examples/_load.py)


def space_for(backend: str) -> tc.Space:
    """The matmul space searched on ``backend``."""
    if backend == "cuda":
        return tc.Space(BLOCK_SIZE_M=[64, 128, 256], BLOCK_SIZE_N=[64, 128, 256],
                        BLOCK_SIZE_K=[32, 64, 128], GROUP_SIZE_M=[8], num_warps=[4, 8],
                        num_stages=[3, 4],
                        where=lambda p: p["BLOCK_SIZE_M"] * p["BLOCK_SIZE_N"] <= 128 * 256
                        and (p["BLOCK_SIZE_M"] + p["BLOCK_SIZE_N"]) * p["BLOCK_SIZE_K"]
                        * p["num_stages"] * 2 <= 200 * 1024)
    return tc.Space(BLOCK_SIZE_M=[16, 32, 64, 128], BLOCK_SIZE_N=[16, 32, 64, 128],
                    BLOCK_SIZE_K=[16, 32, 64], GROUP_SIZE_M=[1, 8])


class Matmul:
    """The example's matmul kernel on ``size``³ inputs of the backend (fp16 on CUDA, fp32 on
    the CPU), with its output checked against a float64 reference before it is timed."""

    def __init__(self, backend: str, size: int) -> None:
        self.kernel = example("04_matmul").matmul_kernel.fn  # the @jit under the autotuner
        self.size = size
        rng = np.random.default_rng(0)
        a, b = (rng.standard_normal((size, size)) for _ in range(2))
        self.expected = a @ b
        if backend == "cuda":
            import torch

            self.a, self.b = (torch.tensor(x, dtype=torch.float16, device="cuda") for x in (a, b))
            self.c = torch.empty((size, size), dtype=torch.float16, device="cuda")
            self.device, self.tolerance = "cuda", 2e-2
        else:
            self.a, self.b = a.astype(np.float32), b.astype(np.float32)
            self.c = np.empty((size, size), np.float32)
            self.device, self.tolerance = "cpu", 1e-4
        self.args = (self.a, self.b, self.c, size, size, size, size, 1, size, 1, size, 1)

    def grid(self, meta: dict[str, Any]) -> tuple[int]:
        return (tc.cdiv(self.size, meta["BLOCK_SIZE_M"]) * tc.cdiv(self.size, meta["BLOCK_SIZE_N"]),)

    def launch(self, config: tc.Config) -> None:
        self.kernel[self.grid](*self.args, **config.all_kwargs())

    def measure(self, config: tc.Config) -> float | None:
        """The median ms of ``config``, or None where it fails or computes a wrong result."""
        try:
            if self.device == "cpu":
                self.c.fill(math.nan)
            else:
                self.c.fill_(math.nan)
            self.launch(config)
            out = self.c if self.device == "cpu" else self.c.float().cpu().numpy()
            error = np.linalg.norm(out - self.expected) / np.linalg.norm(self.expected)
            if not error <= self.tolerance:
                return None
            return float(testing.do_bench(lambda: self.launch(config), warmup=5, rep=40,
                                          device=self.device))
        except Exception:  # noqa: BLE001 - a configuration that fails is left out
            return None


def _load() -> str:
    """The 1-minute load average, where the system tells it."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def exhaustive_times(matmul: Matmul, configs: list[tc.Config]) -> list[float | None]:
    """Each configuration's time: the median of three medians, measured in three passes over
    the space (in order, reversed, shuffled), so that a passing disturbance (another process,
    the machine's clocks, where the threads happened to run) does not decide which
    configuration is best. The smaller of two passes did on the 16-core GPU host's CPU backend:
    the configuration the search chose, 1.16x the exhaustive best by those passes, was 0.89x it
    measured again side by side."""
    orders = [list(range(len(configs))), list(reversed(range(len(configs))))]
    orders.append(random.Random(0).sample(orders[0], len(configs)))
    passes = []
    for order in orders:
        measured = {position: matmul.measure(configs[position]) for position in order}
        passes.append([measured[position] for position in range(len(configs))])
    return [None if None in times else statistics.median(times) for times in zip(*passes)]


def replayed(space: tc.Space, budget: int, times: list[float | None],
             features: dict[int, Any], seeds: int, lines: list[str]) -> list[float]:
    """Each seed's search within ``budget`` run against measured ``times`` (no measurement):
    the best time it found over the exhaustive best, a line each in ``lines``."""
    best = min(t for t in times if t is not None)
    ratios = []
    for seed in range(seeds):
        search = ModelSearch(space, budget, seed=seed)
        found = search.run(lambda p: times[p], lambda ps: [features[p] for p in ps])
        ratio = min(t for t in found.values() if t is not None) / best
        ratios.append(ratio)
        lines.append(f"replayed search, seed {seed}: {len(found)} measured, best found / "
                     f"exhaustive best {ratio:.3f} {'ok' if ratio <= 1.05 else 'MISSED'}")
    return ratios


def replay(path: Path, seeds: int) -> int:
    """The replayed searches on an earlier run's measurements (``--replay``), to try changes
    to the search offline; the space must be the one this script searches on that backend."""
    saved = json.loads(path.read_text())
    space = space_for(saved["backend"])
    if [c.all_kwargs() for c in space_configs(space)] != saved["configs"]:
        print(f"{path}: measured on another space than space_for({saved['backend']!r})",
              file=sys.stderr)
        return 2
    features = dict(enumerate(saved["features"]))
    lines: list[str] = []
    ratios = replayed(space, len(space) // 4, saved["times"], features, seeds, lines)
    lines.append(f"replayed: median {statistics.median(ratios):.3f}, worst {max(ratios):.3f}; "
                 f"{sum(r <= 1.05 for r in ratios)}/{len(ratios)} within 5%")
    print("\n".join(lines))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=None, help="cube size (CPU 1024, GPU 4096)")
    parser.add_argument("--seeds", type=int, default=5, help="replayed searches")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for tuner.txt and measurements.json")
    parser.add_argument("--replay", type=Path, default=None,
                        help="an earlier run's measurements.json: replay the searches on its "
                             "times, measuring nothing")
    args = parser.parse_args()
    if args.replay is not None:
        return replay(args.replay, args.seeds)
    backend = selected_backend()
    size = args.size or (4096 if backend == "cuda" else 1024)
    space = space_for(backend)
    configs = space_configs(space)
    matmul = Matmul(backend, size)
    load_before = _load()
    start = time.perf_counter()
    times = exhaustive_times(matmul, configs)
    exhaustive_s = time.perf_counter() - start
    best = min(t for t in times if t is not None)
    best_config = configs[times.index(best)]
    budget = len(space) // 4
    features = {}
    for position, config in enumerate(configs):
        try:
            features[position] = kernel_features(matmul.kernel.warmup(*matmul.args,
                                                                      **config.all_kwargs()))
        except Exception:  # noqa: BLE001 - does not compile: the search drops it
            features[position] = None
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "measurements.json").write_text(json.dumps(
            {"backend": backend, "size": size, "configs": [c.all_kwargs() for c in configs],
             "times": times, "features": [features[p] for p in range(len(configs))]}))
    lines = [f"model-guided search on the {backend} backend, matmul {size}^3: a space of "
             f"{len(space)} points ({sum(t is not None for t in times)} run), budget {budget} "
             f"(a quarter); exhaustive best {best:.4f} ms ({best_config}), measured thrice in "
             f"{exhaustive_s:.0f} s; load average before: {load_before}", ""]
    ratios = replayed(space, budget, times, features, args.seeds, lines)
    tuner = tc.autotune(key=["M", "N", "K"], space=space, budget=budget, warmup=5, rep=40,
                        cache_results=False)(matmul.kernel)
    start = time.perf_counter()
    tuner[matmul.grid](*matmul.args)
    live_s = time.perf_counter() - start
    chosen = tuner.configs.index(tuner.best_config)  # the space's order, as `configs`
    live = times[chosen] / best if times[chosen] is not None else math.inf
    lines.append(f"live tc.autotune search: {len(tuner.configs_timings)} measured in "
                 f"{live_s:.0f} s, chose {tuner.best_config}: its exhaustive time / best "
                 f"{live:.3f} {'ok' if live <= 1.05 else 'MISSED'}")
    # The exhaustive pass ran minutes before: the two measured again side by side, alternately
    pairs = [(matmul.measure(tuner.best_config), matmul.measure(best_config)) for _ in range(5)]
    if all(a is not None and b is not None for a, b in pairs):
        fresh = statistics.median(a for a, _ in pairs) / statistics.median(b for _, b in pairs)
        lines.append(f"live choice / exhaustive best, measured again side by side (5 "
                     f"alternating pairs): {fresh:.3f} {'ok' if fresh <= 1.05 else 'MISSED'}")
    lines.append(f"replayed: median {statistics.median(ratios):.3f}, worst {max(ratios):.3f}; "
                 f"{sum(r <= 1.05 for r in ratios)}/{len(ratios)} within 5%")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "tuner.txt").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
