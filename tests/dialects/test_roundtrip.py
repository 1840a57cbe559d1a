"""Print/parse round trips over every op in defs/: each op appears in a sample under samples/.

A sample is parsed, verified, printed in custom and generic form, and parsed back: the texts
must agree. A new op without a sample fails `test_every_op_has_a_sample`.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tilecraft.generated import DIALECTS
from tilecraft.ir import get_dialect, parse_module
from tilecraft.ir.printer import print_op

SAMPLES = sorted((Path(__file__).parent / "samples").glob("*.mlir"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_round_trips(path: Path):
    text = path.read_text()
    module = parse_module(text, filename=str(path), allow_unregistered=True)
    module.verify()
    custom = print_op(module)
    again = parse_module(custom, allow_unregistered=True)
    again.verify()
    assert print_op(again) == custom
    generic = print_op(module, generic=True)
    from_generic = parse_module(generic, allow_unregistered=True)
    assert print_op(from_generic, generic=True) == generic
    assert print_op(from_generic) == custom


def _ops_in_samples() -> set[str]:
    names: set[str] = set()
    for path in SAMPLES:
        module = parse_module(path.read_text(), allow_unregistered=True)
        names |= {op.name for op in module.walk()}
    return names


def test_every_op_has_a_sample():
    covered = _ops_in_samples()
    missing = []
    for name in DIALECTS:
        importlib.import_module(f"tilecraft.generated.{name}")
        missing += sorted(set(get_dialect(name).ops) - covered)
    assert not missing, f"ops without a round-trip sample in tests/dialects/samples: {missing}"
