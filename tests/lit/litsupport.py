"""What lit.cfg.py and the pytest runner share: the tool substitutions of RUN lines.

``tilecraft-opt`` runs ``tools/opt`` with the test passes of ``passes.py`` loaded (mlir-opt
links its test passes in the same way); ``filecheck``/``FileCheck`` run `tilecraft.transforms.filecheck` (the `filecheck` package with
LLVM FileCheck's CHECK-NOT range).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def tool_substitutions(python: str = sys.executable) -> list[tuple[str, str]]:
    """(regex, replacement) pairs for the tools named in RUN lines, as whole words."""
    opt = f"{python} {ROOT / 'tools' / 'opt'} --load-pass-plugin={HERE / 'passes.py'}"
    filecheck = f"{python} -m tilecraft.transforms.filecheck"
    return [(_word(name), text) for name, text in (
        ("tilecraft-opt", opt), ("filecheck", filecheck), ("FileCheck", filecheck))]


def _word(name: str) -> str:
    return rf"(?<![\w/.-]){name}(?![\w/.-])"
