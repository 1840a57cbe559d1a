"""Fixtures of the language tests: fresh random inputs (the seed is printed, so a failure can be
replayed) and a launcher that runs each kernel on every backend this machine has: the numpy
interpreter, and compiled by the CPU backend (which also verifies its tt IR)."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


def launch(kernel, grid, *args, **kwargs):
    """``kernel[grid](*args, **kwargs)`` on the backend of the `backend` fixture (in the
    interpreter after compiling to verified tt IR, which the CPU backend does anyway)."""
    if os.environ.get("TILECRAFT_BACKEND") == "interpret":
        kernel.warmup(*args, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kernel[grid](*args, **kwargs)


@pytest.fixture(params=["interpret", "cpu"])
def backend(request, monkeypatch) -> str:
    """The backend the test's launches use (``TILECRAFT_BACKEND``)."""
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", request.param)
    return request.param


@pytest.fixture
def run(backend):
    return launch
