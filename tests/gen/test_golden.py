"""Golden outputs of the generator for the demo dialect (the generated module and its docs).

When a generator change is intended, refresh them with
`TILECRAFT_UPDATE_GOLDEN=1 python -m pytest tests/gen/test_golden.py` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .util import HERE, run_gen

GOLDEN = HERE / "golden"
CASES = [("generated/demo.py", "demo.py"), ("docs/dialects/demo.md", "demo.md"),
         ("generated/passes.py", "passes.py")]


@pytest.mark.parametrize("produced, golden", CASES, ids=[c[1] for c in CASES])
def test_generator_output_matches_golden(demo_only_project: Path, produced: str, golden: str):
    assert run_gen(demo_only_project) == 0
    text = (demo_only_project / produced).read_text()
    if os.environ.get("TILECRAFT_UPDATE_GOLDEN"):
        (GOLDEN / golden).write_text(text)
    assert text == (GOLDEN / golden).read_text()
