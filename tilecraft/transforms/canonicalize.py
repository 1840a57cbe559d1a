"""``canonicalize``: every registered op's folder and canonicalization patterns, applied greedily.

As MLIR's canonicalizer: the patterns are those the ops of every dialect declare
(``hasCanonicalizer``: ``get_canonicalization_patterns()``), the greedy driver folds
(``hasFolder``), keeps constants unique at the top of their scope, and erases ops that are
trivially dead (no uses, no effects beyond reading memory: an unused non-volatile ``tt.load``
goes too). After the rewriting, regions are simplified (`region_simplify`: constant branches,
unreachable blocks, single-predecessor blocks, dead block arguments), and if that changed
something the rewriting runs again.

Options (MLIR's): ``top-down`` seeds the worklist in pre-order (defs before uses) rather than
in reverse post-order; ``max-iterations`` bounds the sweeps over the IR, and, as in MLIR, the
pass stops quietly when the bound is reached, unless ``test-convergence`` is set: then it
fails; ``max-num-rewrites`` stops after that many pattern applications (-1: no limit);
``region-simplify`` is ``normal`` (the simplification above) or ``disabled`` (unreachable
blocks and dead block arguments stay; constant branches still fold and blocks still merge, as
the cf ops' patterns do that in MLIR; MLIR's ``aggressive``, which also merges identical
blocks, is refused). A cycle of patterns undoing each other within one sweep
is still an error (`RewriteConvergenceError`). Statistics: ops folded, patterns applied, dead
ops erased.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter

from tilecraft.generated import DIALECTS
from tilecraft.generated.passes import CanonicalizerPassBase
from tilecraft.ir import Operation, get_dialect
from tilecraft.ir.patterns import RewritePattern

from .effects import is_trivially_dead
from .folding import is_constant_like
from .greedy import GreedyRewriteConfig, RewriteConvergenceError, _GreedyDriver
from .patterns import PatternSet
from .region_simplify import simplify_regions

__all__ = ["Canonicalizer", "CanonicalizationPatternSet", "canonicalization_patterns", "canonicalize"]


def canonicalization_patterns(dialects=None) -> list[RewritePattern]:
    """The canonicalization patterns of every op of ``dialects`` (default: all the generated
    ones), in dialect and op order."""
    patterns: list[RewritePattern] = []
    for name in (DIALECTS if dialects is None else dialects):
        dialect = get_dialect(name)
        if dialect is None:
            continue
        for cls in dialect.ops.values():
            if "get_canonicalization_patterns" in cls.HOOKS:
                patterns.extend(cls.get_canonicalization_patterns())
    return patterns


class CanonicalizationPatternSet(PatternSet):
    """The canonicalization patterns of every generated dialect, as
    ``PatternSet(canonicalization_patterns())`` gives them, but collected an op at a time: an
    op's patterns when an op of its name is first looked up, so that canonicalizing IR of a few
    ops loads no other dialect (``tt.trans``'s patterns, declared in ``ttg.td``, load
    ``ttg``). The lookups are the same since each op's patterns are rooted at that op (checked
    as they are collected)."""

    __slots__ = ("_collected", "_lock")

    def __init__(self) -> None:
        super().__init__(())
        self._collected: set[str] = set()
        self._lock = threading.Lock()

    def for_op(self, name: str) -> tuple[RewritePattern, ...]:
        found = self._cache.get(name)
        if found is not None:
            return found
        with self._lock:  # (one set serves every thread: `canonicalize`)
            if name not in self._collected:
                self._collect(name)
                self._collected.add(name)
            return super().for_op(name)

    def _collect(self, name: str) -> None:
        dialect_name = name.partition(".")[0]
        dialect = get_dialect(dialect_name) if dialect_name in DIALECTS else None
        cls = dialect.ops.get(name) if dialect is not None else None
        if cls is None or "get_canonicalization_patterns" not in cls.HOOKS:
            return
        patterns = cls.get_canonicalization_patterns()
        for pattern in patterns:
            if pattern.ROOT != name:
                raise ValueError(f"canonicalization pattern {pattern!r} of '{name}' is not "
                                 f"rooted at '{name}'")
        self._by_root.setdefault(name, []).extend(patterns)
        self.patterns += tuple(patterns)


@functools.cache
def _every_canonicalization() -> CanonicalizationPatternSet:
    """The one `CanonicalizationPatternSet` of the process: patterns hold no state, and each
    op's are collected and ordered once."""
    return CanonicalizationPatternSet()


class CanonicalizeDriver(_GreedyDriver):
    """The greedy driver with MLIR's canonicalizer behaviour: the worklist order of
    ``top_down``, dead ops that only read memory erased, a rewrite limit, and statistics."""

    __slots__ = ("top_down", "limit", "num_folded", "num_rewrites", "num_erased", "stopped",
                 "converged")

    def __init__(self, root: Operation, patterns: PatternSet, *, top_down: bool = True,
                 max_num_rewrites: int = -1, config: GreedyRewriteConfig | None = None) -> None:
        super().__init__(root, patterns, True, config or GreedyRewriteConfig())
        self.top_down = top_down
        self.limit = max_num_rewrites
        self.num_folded = 0
        self.num_rewrites = 0
        self.num_erased = 0
        self.stopped = False
        # whether an iteration changed nothing (`canonicalize` sets it)
        self.converged = False

    def run(self, max_iterations: int) -> bool:
        """Sweep until nothing changes, the iteration bound, or the rewrite limit; returns
        whether anything changed."""
        changed_any = False
        for _ in range(max_iterations):
            self.applied = Counter()
            start = self.events
            self._fill_worklist()
            self._process(self._budget())
            if self.events == start:
                break
            changed_any = True
            if self.stopped:
                break
        self.worklist.clear()
        self.pending.clear()
        return changed_any

    def _fill_worklist(self) -> None:
        ops = [op for region in self.root.regions
               for op in region.walk(post_order=not self.top_down)]
        constants = self.constants
        for op in ops:
            if constants is not None and is_constant_like(op):
                if not constants.insert_known(op):
                    continue
            self.add(op)
        if self.top_down:
            self.worklist.reverse()  # popped from the end: pre-order

    def _process(self, budget: int) -> None:
        worklist, pending, rewriter = self.worklist, self.pending, self.rewriter
        rewrites = 0
        while worklist:
            if 0 <= self.limit <= self.num_rewrites:
                self.stopped = True
                return
            op = worklist.pop()
            if op not in pending:
                continue
            pending.discard(op)
            if op.parent is None:
                continue
            if is_trivially_dead(op):
                self._applied("erasing trivially dead ops", op)
                self.num_erased += 1
                rewriter.erase_op(op)
                continue
            if self._try_fold(op):
                self._applied(f"folding of '{op.name}'", op)
                self.num_folded += 1
            elif self._try_patterns(op):
                self.num_rewrites += 1
            else:
                continue
            rewrites += 1
            if rewrites > budget:
                raise RewriteConvergenceError(
                    f"greedy pattern rewriting did not converge: more than {budget} rewrites in "
                    f"one iteration, by {self._describe_applied()}", self.last_op, self.applied)


def canonicalize(op: Operation, *, top_down: bool = True, max_iterations: int = 10,
                 max_num_rewrites: int = -1, patterns=None,
                 region_simplify: bool = True) -> CanonicalizeDriver:
    """Canonicalize the ops nested in ``op``; returns the driver (its counters say what
    happened, ``converged`` whether the last iteration changed nothing). Each iteration is a
    sweep of the greedy driver followed by the simplification of the regions (without
    erasing dead blocks and arguments unless ``region_simplify``), as in MLIR;
    ``max_iterations`` bounds them."""
    pattern_set = _every_canonicalization() if patterns is None else PatternSet(patterns)
    driver = CanonicalizeDriver(op, pattern_set, top_down=top_down,
                                max_num_rewrites=max_num_rewrites)
    for _ in range(max(max_iterations, 1)):
        changed = driver.run(1)
        if driver.stopped:
            break
        if not simplify_regions(op, erase_dead=region_simplify) and not changed:
            driver.converged = True
            break
    return driver


class Canonicalizer(CanonicalizerPassBase):
    """The ``canonicalize`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        if self.region_simplify not in ("normal", "disabled"):
            raise op.emit_error(f"canonicalize: region-simplify={self.region_simplify} is not "
                                "supported (normal or disabled)")
        driver = canonicalize(op, top_down=self.top_down, max_iterations=self.max_iterations,
                              max_num_rewrites=self.max_num_rewrites,
                              region_simplify=self.region_simplify == "normal")
        if self.test_convergence and not driver.converged:
            raise op.emit_error(f"canonicalize did not converge within max-iterations="
                                f"{self.max_iterations}")
        self.num_folded += driver.num_folded
        self.num_rewrites += driver.num_rewrites
        self.num_erased += driver.num_erased
