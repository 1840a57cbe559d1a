"""Fixtures of the CPU backend's tests."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng() -> np.random.Generator:
    """A fresh generator per test; its seed is printed (pytest shows it when the test fails)."""
    seed = np.random.SeedSequence().entropy
    print(f"seed: {seed}")
    return np.random.default_rng(seed)


@pytest.fixture
def cpu_backend(monkeypatch) -> None:
    """Launches run on the CPU backend, whatever the environment selects (the test modules that
    launch on it use it throughout: ``pytestmark``)."""
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
