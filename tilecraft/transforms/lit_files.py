"""What lit reads from a test file: the commands of its ``RUN:`` lines (tests/lit, Triton's lit
files through tools/triton_lit.py, the mutation fuzzer's targets)."""

from __future__ import annotations

import re

_RUN = re.compile(r"RUN:\s?(.*)$")  # anywhere in a line, as lit reads them


def run_lines(text: str) -> list[str]:
    """The commands of the ``RUN:`` lines of ``text``, ``\\`` continuations joined."""
    commands, current = [], ""
    for line in text.splitlines():
        match = _RUN.search(line)
        if match is None:
            continue
        part = match.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        commands.append(current + part)
        current = ""
    return commands
