"""`Timer`: wall-clock time of a compilation's steps as a tree, reported as MLIR's
``--mlir-timing`` does (a pass run many times, e.g. once per function, adds up in one row)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

__all__ = ["Timer"]

_RULE = "===" + "-" * 73 + "==="


class Timer:
    """A named step: its own ``seconds`` and, in order of first use, its ``children``."""

    __slots__ = ("name", "seconds", "children")

    def __init__(self, name: str = "Total") -> None:
        self.name = name
        self.seconds = 0.0
        self.children: dict[str, Timer] = {}

    def child(self, name: str) -> Timer:
        """The sub-step ``name`` (created on first use)."""
        found = self.children.get(name)
        if found is None:
            found = self.children[name] = Timer(name)
        return found

    @contextmanager
    def time(self, name: str) -> Iterator[Timer]:
        """Add the time the ``with`` block takes to the sub-step ``name``."""
        step = self.child(name)
        start = time.perf_counter()
        try:
            yield step
        finally:
            step.seconds += time.perf_counter() - start

    def report(self) -> str:
        """The table: each step's time and share of the total, indented by depth, then the
        time no step accounts for (``Rest``) and the ``Total`` (this timer's own seconds, or
        the sum of its steps when it was not timed itself)."""
        total = self.seconds or sum(c.seconds for c in self.children.values())
        lines = [_RULE, "... Execution time report ...".center(len(_RULE)).rstrip(), _RULE,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]

        def row(seconds: float, name: str, depth: int) -> None:
            share = 100.0 * seconds / total if total else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {'  ' * depth}{name}")

        def rows(timer: Timer, depth: int) -> None:
            for step in timer.children.values():
                row(step.seconds, step.name, depth)
                rows(step, depth + 1)

        rows(self, 0)
        accounted = sum(c.seconds for c in self.children.values())
        row(max(total - accounted, 0.0), "Rest", 0)
        row(total, self.name, 0)
        return "\n".join(lines) + "\n"
