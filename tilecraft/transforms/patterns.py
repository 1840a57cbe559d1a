"""`PatternSet`: rewrite patterns grouped by the op they apply to, in the order to try them.

A pattern is a `tilecraft.ir.patterns.RewritePattern` (it lives with the IR so that patterns
generated from `.td` can use it): ``ROOT`` (an op name, or None for any op), ``BENEFIT`` and
``match_and_rewrite(op, rewriter) -> bool``.
"""

from __future__ import annotations

from typing import Iterable

from tilecraft.ir.patterns import RewritePattern

__all__ = ["PatternSet"]


class PatternSet:
    """Patterns frozen for repeated lookups: `for_op(name)` gives those that may apply to an
    op named ``name`` (its own and the any-op ones), highest benefit first, ties in the order
    the patterns were given."""

    __slots__ = ("patterns", "_by_root", "_cache")

    def __init__(self, patterns: Iterable[RewritePattern]) -> None:
        self.patterns = tuple(patterns)
        self._by_root: dict[str | None, list[RewritePattern]] = {}
        for pattern in self.patterns:
            self._by_root.setdefault(pattern.ROOT, []).append(pattern)
        self._cache: dict[str, tuple[RewritePattern, ...]] = {}

    def for_op(self, name: str) -> tuple[RewritePattern, ...]:
        found = self._cache.get(name)
        if found is None:
            candidates = self._by_root.get(name, []) + self._by_root.get(None, [])
            order = {id(p): i for i, p in enumerate(self.patterns)}
            found = tuple(sorted(candidates, key=lambda p: (-p.BENEFIT, order[id(p)])))
            self._cache[name] = found
        return found

    def __len__(self) -> int:
        return len(self.patterns)
