"""The autotuner's model-guided search over a large `Space`, after TVM's AutoTVM: a
gradient-boosted ranking model (LightGBM, the ``tuner`` extra) fitted on the configurations
measured so far choosing the next batch among every compiled point, or in large spaces among
those that simulated annealing on the model proposes.

Each round:

1. fit the cost model on what was measured with features of the configuration alone (each
   axis value, and its log2 where it is a positive number). As AutoTVM's, the model learns to
   rank (LightGBM's ``lambdarank``, the measured points ordered by time, a failed launch
   last), not to predict times: the search needs the order of the candidates only, and a
   regression on a dozen times spends its few trees on the slow corners;
2. take the candidates: where the caller gives ``compile_features`` (the compiled kernel's
   registers, spills, shared bytes, instruction count) and the space has at most
   `COMPILE_ALL_RATIO` times the budget's points, every unmeasured point (each compiled once;
   compiling is what the caller spreads over its cores, measuring is what the budget counts);
   otherwise the unmeasured points of lowest predicted rank that simulated-annealing chains
   over the space (a step moves one axis one value) visited on that model, from random points
   and from the best measured ones: three times the batch, compiled where the caller can;
3. rank the candidates with a second model that also sees the compiled features, where there
   are any (a candidate that does not compile is dropped without being measured), and measure
   the best of them.

Ranking every compiled point of the matmul spaces of ``tools/bench/tuner_search.py`` rather
than annealing on the configuration alone is what finds the interactions a configuration's
values hide: at 128x256 blocks, 4 warps spill and ran 6-8 times slower than the best, 8 warps
were the best, and a model of the configurations alone, shown the first, stopped proposing
128x256 (replayed on an H200 host's measurements of the CUDA space, 100 seeds: 93 searches
within 5% of the best, 77% before; the CPU space on the 2-core machine: 98, 88% before).

The first rounds measure random points, until four launches succeeded. The search stops when
``budget`` launches were measured or every point was.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from .tuning_space import Space

Features = dict[str, float]

# The relevance levels of the ranking model's labels (LightGBM's ``label_gain`` has one gain
# per level).
_RELEVANCE_LEVELS = 31

# Where the space has at most this many times the budget's points, every point is compiled and
# ranked by the model that sees compiled features (see the module docstring).
COMPILE_ALL_RATIO = 8


class SearchError(RuntimeError):
    """The model-guided search cannot run (its cost-model library is missing, a bad budget)."""


def kernel_features(compiled: Any) -> Features:
    """What the cost model learns from a compiled kernel: its registers, spills and shared
    bytes where the target reports them, and its instruction count (the indented lines of its
    PTX, else of its LLVM IR)."""
    metadata = compiled.metadata
    out = {name: float(metadata[name]) for name in ("registers", "spills", "shared")
           if isinstance(metadata.get(name), (int, float))}
    text = compiled.asm.get("ptx") or compiled.asm.get("llir") or ""
    out["instructions"] = float(sum(1 for line in text.splitlines()
                                    if line.startswith(("  ", "\t"))))
    return out


def _lightgbm() -> Any:
    try:
        import lightgbm
    except ImportError:
        raise SearchError("tc.autotune(space=..., budget=...) fits a gradient-boosted cost "
                          "model with LightGBM, which is not installed: "
                          "pip install 'tilecraft[tuner]'") from None
    return lightgbm


class ModelSearch:
    """One search over ``space`` that measures at most ``budget`` points (see the module
    docstring); ``batch`` points are measured per round (default: about an eighth of the
    budget, at least 2)."""

    def __init__(self, space: Space, budget: int, batch: int | None = None,
                 seed: int = 0) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise SearchError(f"budget must be a number of measurements >= 1, got {budget!r}")
        self.space = space
        self.budget = min(budget, len(space))
        self.batch = max(2, batch if batch is not None else self.budget // 8)
        self.rng = random.Random(seed)
        self.seed = seed
        self.times: dict[int, float | None] = {}  # measured position -> time (None: failed)
        self.compiled: dict[int, Features | None] = {}  # None: does not compile
        self.rounds = 0

    # -- features
    def config_features(self, position: int) -> list[float]:
        """Each axis value of the point (its index for a value that is not a number), and the
        log2 of each positive number."""
        out: list[float] = []
        values = self.space.values(self.space.points[position])
        for (name, axis), value in zip(self.space.axes.items(), values.values()):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out += [float(value), math.log2(value) if value > 0 else -1.0]
            else:
                out += [float(axis.index(value)), 0.0]
        return out

    def _kernel_features(self, position: int) -> list[float]:
        compiled = self.compiled.get(position) or {}
        return [float(compiled.get(name, 0.0)) for name in self._kernel_names]

    # -- the search
    def run(self, measure: Callable[[int], float | None],
            compile_features: Callable[[list[int]], list[Features | None]] | None = None
            ) -> dict[int, float | None]:
        """Measures points with ``measure(position) -> time or None`` (lower is better) until
        the budget is spent; ``compile_features(positions)`` gives each point's compiled
        features, or None where it does not compile. Returns the measured times."""
        self._compile_features = compile_features
        self._kernel_names: list[str] = []
        while len(self.times) < self.budget:
            unmeasured = [p for p in range(len(self.space))
                          if p not in self.times and self.compiled.get(p, {}) is not None]
            if not unmeasured:
                break
            wanted = min(self.batch, self.budget - len(self.times))
            batch = self._propose(unmeasured, wanted)
            if not batch:
                break
            for position in batch:
                self.times[position] = measure(position)
            self.rounds += 1
        return self.times

    def _propose(self, unmeasured: list[int], wanted: int) -> list[int]:
        succeeded = [p for p, t in self.times.items() if t is not None]
        if len(succeeded) < 4:
            picks = self.rng.sample(unmeasured, min(len(unmeasured), 2 * wanted))
            return self._compilable(picks)[:wanted]
        if self._compile_features is not None and \
                len(self.space) <= COMPILE_ALL_RATIO * self.budget:
            candidates = self._compilable(unmeasured)
        else:
            candidates = self._compilable(self._anneal(self._fit(self.config_features),
                                                       3 * wanted))
        if self._kernel_names and candidates:
            full = self._fit(lambda p: self.config_features(p) + self._kernel_features(p))
            predicted = full(np.asarray(
                [self.config_features(p) + self._kernel_features(p) for p in candidates],
                dtype=np.float64))
            candidates = [p for _, p in sorted(zip(predicted, candidates))]
        return candidates[:wanted]

    def _compilable(self, positions: list[int]) -> list[int]:
        """``positions`` less those that do not compile (compiling those not compiled yet)."""
        if self._compile_features is None:
            return positions
        new = [p for p in positions if p not in self.compiled]
        for position, features in zip(new, self._compile_features(new)):
            self.compiled[position] = features
            for name in features or {}:
                if name not in self._kernel_names:
                    self._kernel_names.append(name)
        return [p for p in positions if self.compiled[p] is not None]

    def _fit(self, features: Callable[[int], list[float]]) -> Callable[[np.ndarray], Any]:
        """A LightGBM ranker fitted on ``features`` of the measured points, as the function
        from feature rows to scores that are lower for points predicted faster."""
        lightgbm = _lightgbm()
        positions = list(self.times)
        failed = float("inf")
        order = sorted(range(len(positions)), key=lambda i: (
            failed if self.times[positions[i]] is None else self.times[positions[i]], i))
        # relevance: the fastest gets the highest, in at most `_RELEVANCE_LEVELS` levels
        top = max(1, len(order) - 1)
        relevance = np.zeros(len(order))
        for rank, i in enumerate(order):
            relevance[i] = (_RELEVANCE_LEVELS - 1) * (top - rank) // top
        params = {"objective": "lambdarank", "label_gain": list(range(_RELEVANCE_LEVELS)),
                  "learning_rate": 0.15, "num_leaves": 15, "min_data_in_leaf": 2,
                  "min_data_in_bin": 1, "seed": self.seed, "deterministic": True,
                  "force_row_wise": True, "num_threads": 1, "verbose": -1}
        rows = np.asarray([features(p) for p in positions], dtype=np.float64)
        data = lightgbm.Dataset(rows, relevance, group=[len(positions)],
                                params={"verbose": -1, "min_data_in_bin": 1})
        booster = lightgbm.train(params, data, num_boost_round=80)
        return lambda rows: -booster.predict(rows)

    def _anneal(self, model: Callable[[np.ndarray], Any], count: int, chains: int = 8,
                steps: int = 60) -> list[int]:
        """The ``count`` unmeasured points of lowest predicted time that annealing chains on
        ``model`` visited."""
        predicted: dict[int, float] = {}

        def energy(positions: list[int]) -> list[float]:
            new = sorted({p for p in positions if p not in predicted})
            if new:
                rows = np.asarray([self.config_features(p) for p in new], dtype=np.float64)
                for p, value in zip(new, model(rows)):
                    predicted[p] = float(value)
            return [predicted[p] for p in positions]

        best_measured = sorted((t, p) for p, t in self.times.items() if t is not None)
        starts = [p for _, p in best_measured[:chains // 2]]
        starts += [self.rng.randrange(len(self.space)) for _ in range(chains - len(starts))]
        current = list(starts)
        current_energy = energy(current)
        for step in range(steps):
            temperature = 1.0 * (0.01 / 1.0) ** (step / max(1, steps - 1))
            proposals = []
            for p in current:
                neighbours = self.space.neighbours(p)
                proposals.append(self.rng.choice(neighbours) if neighbours else p)
            proposal_energy = energy(proposals)
            for i, (old, new) in enumerate(zip(current_energy, proposal_energy)):
                if new <= old or self.rng.random() < math.exp((old - new) / temperature):
                    current[i], current_energy[i] = proposals[i], new
        ranked = sorted((value, p) for p, value in predicted.items()
                        if p not in self.times and self.compiled.get(p, {}) is not None)
        return [p for _, p in ranked[:count]]
