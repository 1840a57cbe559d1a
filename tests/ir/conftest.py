"""The IR core's tests run against the core's own ``builtin`` dialect, whatever is generated."""

import pytest

from tilecraft.ir import registry
from tilecraft.ir.builtin import CORE_BUILTIN


@pytest.fixture(autouse=True)
def core_builtin_dialect():
    generated = registry.get_dialect("builtin")
    registry.register_dialect(CORE_BUILTIN)
    yield
    registry.register_dialect(generated)
