"""`apply_patterns_greedily`: rewrite with patterns, fold and remove dead ops until nothing changes.

The driver works as MLIR's greedy pattern rewrite driver does. Each iteration puts every op
nested in the root's regions on a worklist (post-order: an op's operands are usually visited
before it) and processes the worklist until it is empty: an op is erased when it is trivially
dead (`is_trivially_dead`), else folded (see `tilecraft.transforms.folding` for the protocol),
else offered to the patterns that may apply to it, highest benefit first, until one rewrites.
The ops a change creates, modifies or leaves possibly dead go back on the worklist through the
rewriter's notifications. Iterations repeat until one changes nothing; when ``max_iterations``
have all changed something, or when one iteration rewrites more than the rewrite budget (a cycle
of patterns undoing each other), `RewriteConvergenceError` names the patterns that kept applying.

With ``cse_constants`` (the default) constants are kept unique and at the top of their scope
(see `ConstantScopes`), and folded values are materialized there.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from tilecraft.codegen.diagnostics import Diagnostic
from tilecraft.ir import Attribute, Operation, Value
from tilecraft.ir.patterns import RewritePattern
from tilecraft.ir.traits import IsolatedFromAbove

from .folding import (
    ConstantScopes, constant_attr, fold_hook, is_constant_like, is_trivially_dead, materializer,
)
from .patterns import PatternSet
from .rewriter import PatternRewriter, RewriteListener

__all__ = ["GreedyRewriteConfig", "RewriteConvergenceError", "apply_patterns_greedily"]


class GreedyRewriteConfig:
    """Settings of `apply_patterns_greedily` beyond ``fold`` and ``max_iterations``.

    ``cse_constants``: keep constants unique and at the top of their scope.
    ``max_num_rewrites``: the rewrite budget of one iteration (pattern applications and
    folds); None gives ``REWRITES_PER_OP`` times the ops the iteration started with.
    ``listener``: also told about every change (e.g. to log or count them).
    """

    __slots__ = ("cse_constants", "max_num_rewrites", "listener")

    def __init__(self, cse_constants: bool = True, max_num_rewrites: int | None = None,
                 listener: RewriteListener | None = None) -> None:
        self.cse_constants = cse_constants
        self.max_num_rewrites = max_num_rewrites
        self.listener = listener


REWRITES_PER_OP = 16


class RewriteConvergenceError(Diagnostic):
    """The patterns kept rewriting: ``applied`` counts what applied in the last iteration."""

    def __init__(self, message: str, op: Operation | None, applied: Counter) -> None:
        loc, source = op.location.diagnostic_position() if op is not None else (None, None)
        super().__init__(message, loc, source)
        self.applied = applied


def apply_patterns_greedily(root_op: Operation, patterns: Iterable[RewritePattern] | PatternSet,
                            *, fold: bool = True, max_iterations: int = 10,
                            config: GreedyRewriteConfig | None = None) -> bool:
    """Apply ``patterns`` (and folding, and dead op removal) to the ops nested in
    ``root_op``'s regions until a fixpoint; returns whether anything changed."""
    if not isinstance(patterns, PatternSet):
        patterns = PatternSet(patterns)
    driver = _GreedyDriver(root_op, patterns, fold, config or GreedyRewriteConfig())
    return driver.run(max_iterations)


class _GreedyDriver(RewriteListener):
    """The worklist, listening to the rewriter that patterns and folds change the IR with."""

    __slots__ = ("root", "patterns", "fold", "config", "rewriter", "constants", "worklist",
                 "pending", "events", "applied", "last_op", "scoped")

    def __init__(self, root: Operation, patterns: PatternSet, fold: bool,
                 config: GreedyRewriteConfig) -> None:
        self.root = root
        self.patterns = patterns
        self.fold = fold
        self.config = config
        self.rewriter = PatternRewriter(self)
        self.constants = ConstantScopes(root, self.rewriter) if config.cse_constants else None
        self.worklist: list[Operation] = []
        self.pending: set[Operation] = set()
        self.events = 0
        self.applied: Counter = Counter()
        self.last_op: Operation | None = None
        self.scoped = not root.has_trait(IsolatedFromAbove)

    # -- iterations

    def run(self, max_iterations: int) -> bool:
        changed_any = False
        for _ in range(max_iterations):
            self.applied = Counter()
            start = self.events
            self._fill_worklist()
            self._process(self._budget())
            if self.events == start:
                return changed_any
            changed_any = True
        plural = "s" if max_iterations != 1 else ""
        raise RewriteConvergenceError(
            f"greedy pattern rewriting did not converge within {max_iterations} iteration"
            f"{plural}; still applying in the last one: {self._describe_applied()}",
            self.last_op, self.applied)

    def _budget(self) -> int:
        if self.config.max_num_rewrites is not None:
            return self.config.max_num_rewrites
        return REWRITES_PER_OP * max(len(self.worklist), 1)

    def _fill_worklist(self) -> None:
        ops = [op for region in self.root.regions for op in region.walk(post_order=True)]
        constants = self.constants
        for op in ops:
            if constants is not None and is_constant_like(op):
                if not constants.insert_known(op):
                    continue
            self.add(op)
        self.worklist.reverse()

    def _describe_applied(self) -> str:
        return ", ".join(f"{name} ({count} time{'s' if count != 1 else ''})"
                         for name, count in self.applied.most_common())

    # -- the worklist

    def add(self, op: Operation) -> None:
        """Put ``op`` on the worklist (unless it is there, or not below the root)."""
        if op in self.pending or op is self.root:
            return
        if self.scoped and not self.root.is_ancestor(op):
            return
        self.pending.add(op)
        self.worklist.append(op)

    def _process(self, budget: int) -> None:
        worklist, pending, rewriter = self.worklist, self.pending, self.rewriter
        rewrites = 0
        while worklist:
            op = worklist.pop()
            if op not in pending:
                continue
            pending.discard(op)
            if op.parent is None:
                continue
            if is_trivially_dead(op):
                self._applied("erasing trivially dead ops", op)
                rewriter.erase_op(op)
                continue
            if self.fold and self._try_fold(op):
                self._applied(f"folding of '{op.name}'", op)
            elif not self._try_patterns(op):
                continue
            rewrites += 1
            if rewrites > budget:
                raise RewriteConvergenceError(
                    f"greedy pattern rewriting did not converge: more than {budget} rewrites in "
                    f"one iteration, by {self._describe_applied()}", self.last_op, self.applied)

    def _applied(self, what: str, op: Operation) -> None:
        self.applied[what] += 1
        self.last_op = op

    def _try_patterns(self, op: Operation) -> bool:
        rewriter = self.rewriter
        for pattern in self.patterns.for_op(op.name):
            rewriter.set_insertion_point(op)
            events = self.events
            if pattern.match_and_rewrite(op, rewriter):
                self._applied(f"pattern '{type(pattern).__name__}'", op)
                return True
            if self.events != events:
                raise ValueError(f"pattern '{type(pattern).__name__}' changed the IR around "
                                 f"'{op.name}' but returned False")
        return False

    # -- folding

    def _try_fold(self, op: Operation) -> bool:
        cls = type(op)
        hook = fold_hook(cls)
        if hook is None or is_constant_like(op):
            return False
        results = hook(op, [constant_attr(v) for v in op.operands])
        if results is None:
            return False
        if all(r is own for r, own in zip(results, op.results)):
            self.notify_op_modified(op)
            return True
        if len(results) != op.num_results:
            raise ValueError(f"the fold of '{op.name}' returned {len(results)} values for "
                             f"{op.num_results} results")
        values = self._materialize(op, results)
        if values is None:
            return False
        self.rewriter.replace_op(op, values)
        return True

    def _materialize(self, op: Operation, results: Sequence[Attribute | Value]
                     ) -> list[Value] | None:
        """The fold's results as values; new constants are inserted only when all could be
        made (None when the dialect cannot make one)."""
        dialect = op.name.partition(".")[0]
        values: list[Value | None] = []
        created: list[tuple[Operation, Attribute]] = []
        for result, folded in zip(op.results, results):
            if isinstance(folded, Value):
                if folded is result:
                    raise ValueError(f"the fold of '{op.name}' returned its own result among "
                                     "replacements")
                values.append(folded)
                continue
            if self.constants is not None:
                found = self.constants.lookup(dialect, folded, result.type, op)
                if found is not None:
                    values.append(found)
                    continue
            constant = materializer(type(op))(folded, result.type, op.location)
            if constant is None:
                for made, _ in created:
                    made.drop_all_references()
                return None
            created.append((constant, folded))
            values.append(constant.results[0])
        for constant, folded in created:
            if self.constants is not None:
                self.constants.insert_new(constant, dialect, folded, op)
            else:
                self.rewriter.set_insertion_point(op)
                self.rewriter.insert(constant)
        return values

    # -- notifications

    def notify_op_inserted(self, op: Operation) -> None:
        self.events += 1
        for nested in op.walk():
            self.add(nested)
        if self.config.listener is not None:
            self.config.listener.notify_op_inserted(op)

    def notify_op_modified(self, op: Operation) -> None:
        self.events += 1
        if self.constants is not None:
            self.constants.forget(op)
        self.add(op)
        if self.config.listener is not None:
            self.config.listener.notify_op_modified(op)

    def notify_op_replaced(self, op: Operation, values: Sequence[Value | None]) -> None:
        self.events += 1
        if self.config.listener is not None:
            self.config.listener.notify_op_replaced(op, values)

    def notify_op_erased(self, op: Operation) -> None:
        self.events += 1
        self.pending.discard(op)
        if self.constants is not None:
            self.constants.forget(op)
        for value in op.operands:
            defining = value.defining_op
            if defining is not None and _at_most_one_other_user(value, op):
                self.add(defining)
        if self.config.listener is not None:
            self.config.listener.notify_op_erased(op)


def _at_most_one_other_user(value: Value, op: Operation) -> bool:
    """Whether ``value`` has at most one user besides ``op``: once ``op`` is gone, its
    defining op may be dead or simpler. (Reads the use list without copying it.)"""
    other = None
    for use in value._uses:
        owner = use.owner
        if owner is op or owner is other:
            continue
        if other is not None:
            return False
        other = owner
    return True
