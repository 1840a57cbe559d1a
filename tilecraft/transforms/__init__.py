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

Each pass's body is a subclass of its generated base class in the module its `.td` declaration
names (``implModule``), which the registry imports when the pass is first asked for. The names
below are loaded from their modules on first use, so that importing one module of this package
(``tilecraft.transforms.pass_manager``, as every compile does) loads no other.
"""

from __future__ import annotations

import importlib

# name -> the module (of this package, or absolute) that defines it
_LAZY = {
    "RewritePattern": "tilecraft.ir.patterns",
    "Report": ".diagnostics", "collect_diagnostics": ".diagnostics",
    "emit_remark": ".diagnostics", "emit_warning": ".diagnostics",
    "constant_attr": ".folding", "is_trivially_dead": ".folding",
    "GreedyRewriteConfig": ".greedy", "RewriteConvergenceError": ".greedy",
    "apply_patterns_greedily": ".greedy",
    "OpPassManager": ".pass_manager", "PassFailure": ".pass_manager",
    "PassManager": ".pass_manager", "PassVerificationError": ".pass_manager",
    "PassRegistryError": ".pass_registry", "create_pass": ".pass_registry",
    "pass_class": ".pass_registry", "register_pass": ".pass_registry",
    "registered_passes": ".pass_registry", "unregister_pass": ".pass_registry",
    "PatternSet": ".patterns",
    "PipelineError": ".pipeline", "parse_pass_pipeline": ".pipeline",
    "PatternRewriter": ".rewriter", "RewriteListener": ".rewriter",
    "Timer": ".timing",
}

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


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
