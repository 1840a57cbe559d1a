"""The autotuner's model-guided search over a large `Space`, after TVM's AutoTVM: a
gradient-boosted cost model (LightGBM, the ``tuner`` extra) fitted on the configurations
measured so far, and simulated annealing on the model proposing the next batch.

Each round:

1. fit the cost model on what was measured (the log of each time; a failed launch counts as
   twice the slowest time seen) with features of the configuration alone (each axis value, and
   its log2 where it is a positive number);
2. run simulated-annealing chains over the space (a step moves one axis one value) on that
   model's prediction, from random points and from the best measured ones, and keep the
   unmeasured points with the lowest predictions: three times the batch;
3. when the caller gives ``compile_features`` (the compiled kernel's registers, spills,
   shared bytes, instruction count), compile those candidates and rank them again with a
   second model that also sees those features; a candidate that does not compile is dropped
   without being measured;
4. measure the best of them, and one random unmeasured point per round for exploration.

The first round measures random points. The search stops when ``budget`` launches were
measured or every point was.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from .tuning_space import Space

Features = dict[str, float]


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
        model = self._fit(self.config_features)
        candidates = self._anneal(model, 3 * wanted)
        explore = 1 if wanted >= 3 else 0
        if self._compile_features is not None:
            candidates = self._compilable(candidates)
            if self._kernel_names and candidates:
                full = self._fit(lambda p: self.config_features(p) + self._kernel_features(p))
                predicted = full.predict(np.asarray(
                    [self.config_features(p) + self._kernel_features(p) for p in candidates],
                    dtype=np.float64))
                candidates = [p for _, p in sorted(zip(predicted, candidates))]
        chosen = candidates[:wanted - explore]
        rest = [p for p in unmeasured if p not in chosen and self.compiled.get(p, {}) is not None]
        while len(chosen) < wanted and rest:
            pick = self._compilable([rest.pop(self.rng.randrange(len(rest)))])
            chosen += pick
        return chosen

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

    def _fit(self, features: Callable[[int], list[float]]) -> Any:
        """A LightGBM regressor of log(time) on ``features`` of the measured points."""
        lightgbm = _lightgbm()
        succeeded = [t for t in self.times.values() if t is not None]
        worst = math.log(max(succeeded)) + math.log(2.0)
        rows = [features(p) for p in self.times]
        target = [worst if t is None else math.log(max(t, 1e-12)) for t in self.times.values()]
        params = {"objective": "regression", "learning_rate": 0.15, "num_leaves": 15,
                  "min_data_in_leaf": 2, "min_data_in_bin": 1, "seed": self.seed,
                  "deterministic": True, "force_row_wise": True, "num_threads": 1,
                  "verbose": -1}
        data = lightgbm.Dataset(np.asarray(rows, dtype=np.float64),
                                np.asarray(target, dtype=np.float64), params={"verbose": -1, "min_data_in_bin": 1})
        return lightgbm.train(params, data, num_boost_round=80)

    def _anneal(self, model: Any, count: int, chains: int = 8, steps: int = 60) -> list[int]:
        """The ``count`` unmeasured points of lowest predicted time that annealing chains on
        ``model`` visited."""
        predicted: dict[int, float] = {}

        def energy(positions: list[int]) -> list[float]:
            new = sorted({p for p in positions if p not in predicted})
            if new:
                rows = np.asarray([self.config_features(p) for p in new], dtype=np.float64)
                for p, value in zip(new, model.predict(rows)):
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
