"""`tritongpu-remove-layout-conversions`: remove ``ttg.convert_layout`` ops by choosing layouts
for the code between the ops whose layouts matter, in phases (as Triton's pass does):

1. forward propagation of the anchors' layouts to the code that uses them, and a rewrite of
   each function in those layouts (`layout_propagation`);
2. backward rematerialization, repeated while it removes conversions: a conversion whose source
   can be computed in the target layout cheaply enough is replaced by that computation
   (`layout_rematerialization`);
3. hoisting (`layout_hoisting`) of the conversions that stay: above extensions and broadcasts, into the branch of
   an ``scf.if`` that needs them, and to the loads of dot operands;
4. cleanup: loop-carried values nothing needs are dropped, and conversions canonicalized (folded
   into their producers, removed when they convert to the same layout).

Layouts the pass cannot map (attributes it does not know) stay where they are, with the
conversions from and to them.
"""

from __future__ import annotations

from tilecraft.generated import scf as scf_ops
from tilecraft.generated import ttg as ttg_ops
from tilecraft.generated.passes import TritonGPURemoveLayoutConversionsPassBase
from tilecraft.ir import Operation, Value

from .greedy import apply_patterns_greedily
from .layout_propagation import propagate_layouts
from .layout_hoisting import hoist_conversions
from .layout_rematerialization import backward_rematerialization
from .effects import is_memory_effect_free

__all__ = ["TritonGPURemoveLayoutConversionsPass", "remove_layout_conversions"]


def _cleanup(module: Operation, *, loops: bool = False) -> None:
    patterns = list(ttg_ops.ConvertLayoutOp.get_canonicalization_patterns())
    if loops:
        patterns += scf_ops.ForOp.get_canonicalization_patterns()
        patterns += scf_ops.IfOp.get_canonicalization_patterns()
    apply_patterns_greedily(module, patterns)


def _iter_arg_is_dead(loop: Operation, k: int) -> bool:
    """Whether the loop-carried value ``k`` of ``loop`` only feeds itself: no op with an effect,
    no region and no used loop result depends on it."""
    body = loop.region.blocks[0]
    terminator = body.terminator
    if loop.results[k].uses:
        return False
    seen: set[Value] = {body.arguments[k + 1]}
    work = list(seen)
    while work:
        for use in work.pop().uses:
            user = use.owner
            if user is terminator:
                if loop.results[use.index].uses:
                    return False
                reached = [body.arguments[use.index + 1]]
            elif user.regions or user.name == "scf.yield" or not is_memory_effect_free(user):
                return False
            else:
                reached = list(user.results)
            for value in reached:
                if value not in seen:
                    seen.add(value)
                    work.append(value)
    return True


def _eliminate_dead_iter_args(module: Operation) -> None:
    """Gives the uses of loop-carried values that only feed themselves the initial value (the
    cleanup then drops them), as Triton's runDeadIterArgElimination."""
    for loop in [op for op in module.walk() if op.name == "scf.for"]:
        body = loop.region.blocks[0]
        for k, init in enumerate(loop.init_args):
            if _iter_arg_is_dead(loop, k):
                body.arguments[k + 1].replace_all_uses_with(init)


def remove_layout_conversions(module: Operation) -> None:
    """Removes what conversions it can from ``module`` (see the module docstring)."""
    for func in [op for op in module.walk() if op.name == "tt.func"]:
        propagate_layouts(func)
    _cleanup(module)
    while backward_rematerialization(module):
        _cleanup(module)
    hoist_conversions(module)
    _eliminate_dead_iter_args(module)
    _cleanup(module, loops=True)


class TritonGPURemoveLayoutConversionsPass(TritonGPURemoveLayoutConversionsPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        remove_layout_conversions(op)
