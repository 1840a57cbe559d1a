"""A hooks module imported before its generated dialect still ends up with every hook attached."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("dialect", ["tt", "scf", "cf", "arith"])
def test_hooks_module_imported_first(dialect):
    code = (f"import tilecraft.dialects.{dialect} as hooks\n"
            f"import tilecraft.generated.{dialect} as gen\n"
            "import sys\n"
            f"assert sys.modules['tilecraft.dialects.{dialect}'] is hooks\n"
            "for cls in gen.DIALECT.ops.values():\n"
            "    for hook in cls.HOOKS:\n"
            "        assert hook in cls.__dict__, (cls, hook)\n")
    subprocess.run([sys.executable, "-c", code], check=True)
