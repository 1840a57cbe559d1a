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
SLOW = {"BLOCK": 16, "ROUNDS": 1024}
# A size at which SLOW takes tens of times as long as FAST on the CPU backend, whatever its
# thread count (TILECRAFT_CPU_THREADS), so that tests asserting the choice hold on a loaded
# machine.
LARGE = 1 << 15


def grid(meta: dict) -> tuple[int]:
    return (tc.cdiv(meta["n"], meta["BLOCK"]),)


def exact_inputs(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random x (multiples of 1/64, so that adding it up 1024 times and dividing is exact)
    and a random ``out``."""
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


@tc.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    """``c = a @ b`` for row-major a (M x K), b (K x N) and c (M x N)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_grid(meta: dict) -> tuple[int, int]:
    return (tc.cdiv(meta["M"], meta["BM"]), tc.cdiv(meta["N"], meta["BN"]))
