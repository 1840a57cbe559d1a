"""``convert-scf-to-cf``: MLIR's SCFToControlFlow, structured control flow lowered to blocks.

Each ``scf.for``, ``scf.if`` and ``scf.while`` is replaced by blocks of its enclosing region:
the op's block is split after the op (the ops that followed go to a continuation block), the
op's regions' blocks move in between, and ``cf.br``/``cf.cond_br`` join them:

- ``scf.for``: ``cf.br ^cond(lb, inits)``; ``^cond(iv, iters)``: ``arith.cmpi slt`` (``ult``
  with ``unsignedCmp``) of ``iv`` and the upper bound, ``cf.cond_br`` to the body or to the
  continuation; the body's ``scf.yield`` becomes ``arith.addi iv, step`` and
  ``cf.br ^cond(next, yielded)``. The loop's results are ``^cond``'s carried arguments.
- ``scf.if``: ``cf.cond_br`` to the then and else blocks (to the continuation when there is
  no else region); each ``scf.yield`` becomes a ``cf.br`` to the continuation, whose arguments
  are the results.
- ``scf.while``: ``cf.br`` to the ``before`` blocks with the initial values; its
  ``scf.condition`` becomes ``cf.cond_br`` to the ``after`` blocks or the continuation, both
  given the condition's values (which are the op's results); the ``after`` region's
  ``scf.yield`` branches back to ``before``.

Ops are lowered outermost first, so an op nested in a lowered one finds itself in the
function's region and is lowered in turn. An op in a region of an op that allows a single
block (``SingleBlock``: a ``tt.reduce`` combine region, an ``scf`` op kept for that reason) is
left as it is, with a remark.
"""

from __future__ import annotations

from tilecraft.generated.arith import AddIOp, CmpIOp, CmpIPredicate
from tilecraft.generated.cf import BranchOp, CondBranchOp
from tilecraft.generated.passes import SCFToControlFlowPassBase
from tilecraft.generated.scf import ForOp, IfOp, WhileOp
from tilecraft.ir import Block, Operation, Region
from tilecraft.ir.traits import SingleBlock

from .diagnostics import emit_remark

__all__ = ["SCFToControlFlow", "lower_scf"]


def _split_after(op: Operation) -> Block:
    """Move the ops after ``op`` into a new block right after ``op``'s block; returns it."""
    block = op.parent
    region = block.parent
    continuation = region.insert_block(region.blocks.index(block) + 1, Block())
    following = op.next_op
    while following is not None:
        after = following.next_op
        following.detach()
        continuation.append(following)
        following = after
    return continuation


def _move_blocks(source: Region, target: Region, before: Block) -> list[Block]:
    """Move every block of ``source`` into ``target``, in order, right before ``before``."""
    moved = list(source.blocks)
    source.blocks.clear()
    index = target.blocks.index(before)
    for offset, block in enumerate(moved):
        block.parent = None
        target.insert_block(index + offset, block)
    return moved


def _replace_terminator(block: Block, new: Operation) -> None:
    """Put ``new`` in place of ``block``'s terminator."""
    old = block.last_op
    block.insert_before(old, new)
    old.erase()


def _lower_for(op: ForOp) -> None:
    loc = op.location
    init = op.parent
    region = init.parent
    continuation = _split_after(op)
    cond = region.insert_block(region.blocks.index(continuation), Block())
    body = _move_blocks(op.region, region, continuation)
    entry = body[0]
    iv = cond.add_argument(op.lower_bound.type, loc)
    carried = [cond.add_argument(v.type, loc) for v in op.init_args]
    for old, new in zip(entry.arguments, [iv, *carried]):
        old.replace_all_uses_with(new)
    while entry.arguments:
        entry.erase_argument(len(entry.arguments) - 1)
    last = body[-1]
    yielded = last.last_op
    step = AddIOp.build(iv, op.step, location=loc)
    last.insert_before(yielded, step)
    _replace_terminator(last, BranchOp.build(cond, [step.result_, *yielded.operands],
                                             location=loc))
    predicate = CmpIPredicate.ult if op.unsigned_cmp else CmpIPredicate.slt
    compare = cond.append(CmpIOp.build(iv, op.upper_bound, predicate, location=loc))
    cond.append(CondBranchOp.build(compare.result_, entry, continuation, location=loc))
    init.append(BranchOp.build(cond, [op.lower_bound, *op.init_args], location=loc))
    for result, value in zip(op.results, carried):
        result.replace_all_uses_with(value)
    op.erase()


def _lower_if(op: IfOp) -> None:
    loc = op.location
    init = op.parent
    region = init.parent
    continuation = _split_after(op)
    for result in op.results:
        result.replace_all_uses_with(continuation.add_argument(result.type, loc))
    targets = []
    for branch in (op.then_region, op.else_region):
        if not branch.blocks:
            targets.append(continuation)
            continue
        blocks = _move_blocks(branch, region, continuation)
        last = blocks[-1]
        _replace_terminator(last, BranchOp.build(continuation, list(last.last_op.operands),
                                                 location=loc))
        targets.append(blocks[0])
    init.append(CondBranchOp.build(op.condition, targets[0], targets[1], location=loc))
    op.erase()


def _lower_while(op: WhileOp) -> None:
    loc = op.location
    init = op.parent
    region = init.parent
    continuation = _split_after(op)
    before = _move_blocks(op.before, region, continuation)
    after = _move_blocks(op.after, region, continuation)
    condition = before[-1].last_op
    forwarded = list(condition.args)
    _replace_terminator(before[-1], CondBranchOp.build(
        condition.condition, after[0], continuation, forwarded, location=loc))
    yielded = after[-1].last_op
    _replace_terminator(after[-1], BranchOp.build(before[0], list(yielded.operands),
                                                  location=loc))
    init.append(BranchOp.build(before[0], list(op.inits), location=loc))
    for result, value in zip(op.results, forwarded):
        result.replace_all_uses_with(value)
    op.erase()


_LOWERINGS = {ForOp: _lower_for, IfOp: _lower_if, WhileOp: _lower_while}


def lower_scf(root: Operation) -> int:
    """Lower the ``scf.for``/``if``/``while`` ops nested in ``root`` (see the module
    docstring); returns how many were lowered."""
    lowered = 0
    for op in [op for op in root.walk() if type(op) in _LOWERINGS]:
        owner = op.parent_op
        if owner is None or owner.has_trait(SingleBlock):
            emit_remark(op, f"not lowered: '{owner.name if owner else 'nothing'}' holds it in a "
                            "region of a single block")
            continue
        _LOWERINGS[type(op)](op)
        lowered += 1
    return lowered


class SCFToControlFlow(SCFToControlFlowPassBase):
    """The ``convert-scf-to-cf`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        lower_scf(op)
