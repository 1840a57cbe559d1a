"""`inline`: inline calls (``tt.call``, ``func.call``: ops with the ``CallOpInterface`` trait)
of functions defined in the module (``tt.func``, ``func.func``: ``FunctionLike`` ops).

Functions are visited in the call graph's post order (`CallGraph.post_order`: callees before
callers), so a callee's own calls are already inlined when it is copied into its callers. A
call is inlined when its callee resolves to a function with a body that is not on a call cycle
(`CallGraph.recursive_functions`: recursive functions and their calls to each other stay) and
is not marked ``noinline = true`` (nor the call ``no_inline``). Indirect calls
(``func.call_indirect``) are not inlined: ``canonicalize`` first turns a call of a
``func.constant`` into a direct call.

- A single-block callee: its ops are cloned right before the call, with its arguments replaced
  by the call's operands, and the call's results by the values its return (the ``ReturnLike``
  terminator: ``tt.return``, ``func.return``) returns.
- A callee with several blocks (``cf`` branches, returns in more than one block): the
  caller's block is split after the call; the entry block's ops are cloned before the call, the
  other blocks after the caller's block, and every cloned return becomes a ``cf.br`` to
  the continuation block, whose arguments replace the call's results. That needs a region that
  may hold several blocks (the call directly in a function's body). A call nested in an ``scf``
  region takes a callee whose blocks form a tree from the entry (each other block the target
  of one branch: early returns, ``if``/``else`` that both return) as nested ``scf.if``s that
  yield what its returns return; other such calls are left alone with a remark.

Inlined ops keep their own locations (those of the callee's ops). Inlining repeats (option
``max-iterations``) while it changes something, for calls that inlining exposed. Afterwards,
as MLIR's inliner does, a private function that was inlined and that nothing refers to any
more is erased (public functions stay; ``symbol-dce`` removes other dead private ones).
"""

from __future__ import annotations

from tilecraft.analysis.callgraph import (
    CallGraph, call_arguments, is_declaration, is_function, resolve_callee, visibility,
)
from tilecraft.generated.passes import InlinerPassBase
from tilecraft.ir import (
    ArrayAttr, Block, BoolAttr, Builder, DictionaryAttr, Operation, SymbolRefAttr, UnitAttr,
)
from tilecraft.ir.traits import CallOpInterface, ReturnLike

from .diagnostics import emit_remark
from .transform_utils import remap_operands

__all__ = ["InlinerPass", "inline_call"]


def _is_noinline(func: Operation, call: Operation) -> bool:
    attr = func.get_attr("noinline")
    return (isinstance(attr, BoolAttr) and attr.value) or \
        isinstance(call.get_attr("no_inline"), UnitAttr)


def _is_return(op: Operation) -> bool:
    return op.has_trait(ReturnLike)


def inline_call(call: Operation, callee: Operation) -> None:
    """Replace ``call`` by a copy of ``callee``'s body (see the module docstring). A callee
    with several blocks needs ``call`` directly in a function's body."""
    body = callee.regions[0]
    entry = body.blocks[0]
    mapping: dict = {arg: operand for arg, operand in zip(entry.arguments, call_arguments(call))}
    if len(body.blocks) == 1:
        builder = Builder.before(call)
        clones = []
        for op in entry:
            if op is entry.last_op and _is_return(op):
                returned = [mapping.get(v, v) for v in op.operands]
                break
            clones.append(builder.insert(op.clone(mapping)))
        else:  # pragma: no cover - the verifier requires the terminator
            raise ValueError(f"@{callee.sym_name} has no return")
        for result, value in zip(call.results, returned):
            result.replace_all_uses_with(value)
        call.erase()
        return
    if call.parent_op is not None and not is_function(call.parent_op):
        returned = _clone_tree(body.blocks[0], Builder.before(call), mapping,
                               [r.type for r in call.results])
        for result, value in zip(call.results, returned):
            result.replace_all_uses_with(value)
        call.erase()
        return
    _inline_blocks(call, body, mapping)


def is_branch_tree(body) -> bool:
    """Whether the blocks of ``body`` form a tree from its entry: every other block is the
    target of exactly one ``cf.br``/``cf.cond_br`` successor, and leaves end in a return."""
    incoming: dict = {}
    for block in body.blocks:
        terminator = block.last_op
        if terminator is None or not (_is_return(terminator)
                                      or terminator.name in ("cf.br", "cf.cond_br")):
            return False
        for successor in terminator.successors:
            incoming[successor] = incoming.get(successor, 0) + 1
    return body.blocks[0] not in incoming and \
        all(incoming.get(block) == 1 for block in body.blocks[1:])


def _clone_tree(block: Block, builder: Builder, mapping: dict, types: list) -> list:
    """Clones ``block`` (of a branch tree, `is_branch_tree`) and what it branches to at
    ``builder``, a conditional branch as an ``scf.if``; returns the values returned."""
    from tilecraft.generated.scf import IfOp, YieldOp

    for op in block:
        if op is not block.last_op:
            builder.insert(op.clone(mapping))
    terminator = block.last_op
    if _is_return(terminator):
        return [mapping.get(v, v) for v in terminator.operands]
    if terminator.name == "cf.br":
        destinations = [(terminator.successors[0], terminator.operands)]
    else:
        destinations = [(terminator.true_dest, terminator.true_dest_operands),
                        (terminator.false_dest, terminator.false_dest_operands)]
    for destination, operands in destinations:
        for arg, value in zip(destination.arguments, operands):
            mapping[arg] = mapping.get(value, value)
    if terminator.name == "cf.br":
        return _clone_tree(destinations[0][0], builder, mapping, types)
    condition = mapping.get(terminator.condition, terminator.condition)
    if_op = builder.insert(IfOp.build(types, condition, location=terminator.location))
    for region, (destination, _) in zip(if_op.regions, destinations):
        branch = Block()
        region.add_block(branch)
        inner = Builder.at_end(branch)
        values = _clone_tree(destination, inner, mapping, types)
        inner.insert(YieldOp.build(values, location=terminator.location))
    return list(if_op.results)


def _inline_blocks(call: Operation, body, mapping: dict) -> None:
    from tilecraft.generated.cf import BranchOp

    block = call.parent
    region = block.parent
    # The continuation: what followed the call, taking the returned values as arguments.
    continuation = Block()
    region.insert_block(region.blocks.index(block) + 1, continuation)
    for result in call.results:
        arg = continuation.add_argument(result.type, call.location)
        result.replace_all_uses_with(arg)
    following = call.next_op
    while following is not None:
        after = following.next_op
        following.detach()
        continuation.append(following)
        following = after
    entry, others = body.blocks[0], body.blocks[1:]
    index = region.blocks.index(continuation)
    new_blocks = []
    for offset, source in enumerate(others):
        new_block = region.insert_block(index + offset, Block())
        for arg in source.arguments:
            mapping[arg] = new_block.add_argument(arg.type, arg.location)
        mapping[source] = new_block
        new_blocks.append(new_block)
    clones = [block.insert_before(call, op.clone(mapping)) for op in entry]
    for source, new_block in zip(others, new_blocks):
        clones += [new_block.append(op.clone(mapping)) for op in source]
    remap_operands(clones, mapping)
    for clone in clones:
        if _is_return(clone):
            branch = BranchOp.build(continuation, list(clone.operands), location=clone.location)
            clone.parent.insert_before(clone, branch)
            clone.erase()
    call.erase()


def _symbol_names(attr, found: set[str]) -> None:
    if isinstance(attr, SymbolRefAttr):
        found.add(attr.root)
    elif isinstance(attr, ArrayAttr):
        for element in attr.elements:
            _symbol_names(element, found)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.values():
            _symbol_names(element, found)


def referenced_symbols(root: Operation) -> set[str]:
    """The root names of every symbol reference held by an op nested in ``root``."""
    found: set[str] = set()
    for op in root.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            _symbol_names(attr, found)
    return found


class InlinerPass(InlinerPassBase):
    """MLIR's inliner for calls of ``tt.func``s and ``func.func``s."""

    def run_on_operation(self, op: Operation) -> None:
        self._inlined: dict[Operation, None] = {}
        self._remarked: set[Operation] = set()
        for _ in range(max(self.max_iterations, 1)):
            if not self._sweep(op):
                break
        self._erase_dead_callees(op)

    def _sweep(self, root: Operation) -> bool:
        graph = CallGraph(root)
        if not graph.calls:
            return False
        recursive = graph.recursive_functions()
        changed = False
        for func in graph.post_order():
            for call in graph.calls_in(func):
                callee = resolve_callee(call)
                if not self._can_inline(call, callee, recursive):
                    continue
                inline_call(call, callee)
                self._inlined[callee] = None
                changed = True
        return changed

    def _can_inline(self, call: Operation, callee: Operation | None, recursive) -> bool:
        if not call.has_trait(CallOpInterface):
            return False  # an unregistered op naming a callee
        if callee is None or not is_function(callee) or is_declaration(callee):
            return False
        if callee in recursive or _is_noinline(callee, call):
            return False
        body = callee.regions[0]
        if len(body.blocks) > 1 and not is_function(call.parent_op) and \
                not is_branch_tree(body):
            if call not in self._remarked:
                self._remarked.add(call)
                emit_remark(call, f"not inlined: @{callee.sym_name} has several blocks, which "
                                  f"cannot replace a call nested in '{call.parent_op.name}'")
            return False
        return True

    def _erase_dead_callees(self, root: Operation) -> None:
        if not self._inlined:
            return
        used = referenced_symbols(root)
        for func in self._inlined:
            if func.parent is None or visibility(func) != "private":
                continue
            if func.sym_name not in used:
                func.erase()
