"""Fixtures of the language tests: fresh random inputs (the seed is printed, so a failure can be
replayed) and a launcher that compiles each kernel to verified tt IR and runs it in the
interpreter."""

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
    """``kernel[grid](*args, **kwargs)``: compiles (verifying the IR), then interprets."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kernel[grid](*args, **kwargs)


@pytest.fixture
def run():
    return launch
