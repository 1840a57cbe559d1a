"""The IR core's tests run against the core's own ``builtin`` dialect, whatever is generated."""

import pytest

from tilecraft.ir import registry
from tilecraft.ir.builtin import CORE_BUILTIN


@pytest.fixture(autouse=True)
def core_builtin_dialect(monkeypatch):
    monkeypatch.setitem(registry._DIALECTS, "builtin", CORE_BUILTIN)
