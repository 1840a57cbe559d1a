"""The base of rewrite patterns, which live with the IR (as MLIR's PatternMatch does) so that
patterns generated from `.td` and those written by hand share it.

A pattern names the op it applies to (`ROOT`, or None for any op), a `BENEFIT` (patterns with a
higher benefit are tried first) and one method, `match_and_rewrite(op, rewriter)`, that returns
whether it changed the IR; all changes go through the rewriter so that drivers see them.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["RewritePattern"]


class RewritePattern:
    """A rewrite of the IR around one op; subclasses implement `match_and_rewrite`."""

    ROOT: ClassVar[str | None] = None
    BENEFIT: ClassVar[int] = 1

    def match_and_rewrite(self, op, rewriter) -> bool:
        """Rewrite around `op` through `rewriter`; return False (changing nothing) on no match."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} on {self.ROOT or 'any op'}>"
