"""Transformations: rewrite patterns and their greedy driver, the pass manager, and the passes.

- `PatternRewriter` / `RewriteListener` (`rewriter`): the changes patterns make, reported.
- `RewritePattern` (from `tilecraft.ir.patterns`), `PatternSet` (`patterns`).
- `apply_patterns_greedily`, `GreedyRewriteConfig`, `RewriteConvergenceError` (`greedy`); the
  fold protocol and constants (`folding`).
- `PassManager`, `OpPassManager`, `PassFailure`, `PassVerificationError` (`pass_manager`);
  `parse_pass_pipeline`, `PipelineError` (`pipeline`); the pass registry (`pass_registry`);
  `Timer` (`timing`); `IRPrinting` (`instrumentation`); reproducers (`reproducer`).
- `emit_warning`, `emit_remark`, `collect_diagnostics` (`diagnostics`).
- `tools/opt` is `tilecraft.transforms.opt`.

This package is the default implementation module of passes declared in `.td`
(``implModule``): a pass's body is a subclass of its generated base class in a module of this
package, imported below so that the registry finds it.
"""

from tilecraft.ir.patterns import RewritePattern

from .diagnostics import Report, collect_diagnostics, emit_remark, emit_warning
from .folding import constant_attr, is_trivially_dead
from .greedy import GreedyRewriteConfig, RewriteConvergenceError, apply_patterns_greedily
from .pass_manager import OpPassManager, PassFailure, PassManager, PassVerificationError
from .pass_registry import (
    PassRegistryError, create_pass, pass_class, register_pass, registered_passes,
    unregister_pass,
)
from .patterns import PatternSet
from .pipeline import PipelineError, parse_pass_pipeline
from .rewriter import PatternRewriter, RewriteListener
from .timing import Timer

__all__ = [
    "RewritePattern", "PatternSet", "PatternRewriter", "RewriteListener",
    "apply_patterns_greedily", "GreedyRewriteConfig", "RewriteConvergenceError",
    "constant_attr", "is_trivially_dead",
    "PassManager", "OpPassManager", "PassFailure", "PassVerificationError",
    "parse_pass_pipeline", "PipelineError",
    "PassRegistryError", "registered_passes", "register_pass", "unregister_pass",
    "pass_class", "create_pass", "Timer",
    "Report", "emit_warning", "emit_remark", "collect_diagnostics",
]
