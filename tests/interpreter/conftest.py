"""The tests of this directory are the interpreter's: every launch runs in it, whichever
backend this machine would pick (``TILECRAFT_BACKEND=interpret``); tests that check how the
backend is chosen set the environment themselves."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch):
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
