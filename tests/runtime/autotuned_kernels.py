"""Kernels for the autotuner's tests, in a module of their own so that a test can import them
in a fresh process (the disk cache's test)."""

from __future__ import annotations

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime.autotuner import Autotuner


@tc.jit
def accumulate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    """``out += x``, with ``x`` added up ``ROUNDS`` times and divided by ``ROUNDS``: many
    rounds make a configuration deliberately slow."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    total = tl.zeros((BLOCK,), dtype=x_ptr.dtype.element_ty)
    for _ in range(ROUNDS):
        total += tl.load(x_ptr + offsets, mask=mask)
    previous = tl.load(out_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, previous + total / ROUNDS, mask=mask)


FAST = {"BLOCK": 1024, "ROUNDS": 1}
SLOW = {"BLOCK": 16, "ROUNDS": 64}


def grid(meta: dict) -> tuple[int]:
    return (tc.cdiv(meta["n"], meta["BLOCK"]),)


def exact_inputs(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random x (multiples of 1/64, so that adding it up 64 times and dividing is exact) and a
    random ``out``."""
    rng = np.random.default_rng(seed)
    x = (np.round(rng.standard_normal(n) * 64) / 64).astype(np.float32)
    out = rng.standard_normal(n).astype(np.float32)
    return x, out


def tuned(**options) -> Autotuner:
    """accumulate_kernel tuned over the slow configuration, then the fast one, on key n."""
    configs = [tc.Config(dict(SLOW), num_warps=1), tc.Config(dict(FAST), num_warps=4)]
    options.setdefault("warmup", 1)
    options.setdefault("rep", 10)
    return tc.autotune(configs=configs, key=["n"], **options)(accumulate_kernel)
