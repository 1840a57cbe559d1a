"""The generic verifier behind `Operation.verify`.

For each op, parents before children: its operands must be defined in its region or an enclosing
one (and, within one block, before it); a registered op then runs its ``verify_invariants`` (the
constraints of its definition), its traits' checks and its hand-written ``custom_verify`` (MLIR's
order), and, unless it has ``NoTerminator``, requires each block of its regions to end with a
terminator; after its nested ops verified it runs ``verify_regions`` when defined.
Unregistered ops are only checked structurally.
"""

from __future__ import annotations

from tilecraft.ir.operation import Operation
from tilecraft.ir.traits import NoTerminator, Terminator
from tilecraft.ir.values import OpResult


def verify_operation(op: Operation) -> None:
    """Verify ``op`` and everything nested in it (raises `VerificationError`)."""
    _verify(op)


def _verify(op: Operation) -> None:
    cls = type(op)
    registered = cls is not Operation
    if registered:
        invariants = getattr(op, "verify_invariants", None)
        if invariants is not None:
            invariants()
        for trait in cls.TRAITS:
            trait.verify(op)
        custom = getattr(op, "custom_verify", None)
        if custom is not None:
            custom()
    needs_terminator = registered and not op.has_trait(NoTerminator)
    for region in op.regions:
        for block in region.blocks:
            if needs_terminator:
                _verify_terminator(op, block)
            seen: set[Operation] = set()
            for child in block:
                _verify_operands(child, region, seen)
                seen.add(child)
                _verify(child)
    if registered:
        verify_regions = getattr(op, "verify_regions", None)
        if verify_regions is not None:
            verify_regions()


def _verify_terminator(op: Operation, block) -> None:
    last = block.last_op
    if last is None:
        raise op.emit_error("empty block: expect at least a terminator")
    if type(last) is not Operation and not last.has_trait(Terminator):
        raise last.emit_error(f"block with no terminator, has '{last.name}'")


def _verify_operands(op: Operation, region, seen: set[Operation]) -> None:
    block = op.parent
    for number, operand in enumerate(op._operands):
        value = operand._value
        if type(value) is OpResult:
            defining_block = value.owner.parent
            if defining_block is block:
                if value.owner not in seen:
                    raise op.emit_error(f"operand #{number} does not dominate this use")
                continue
        else:
            defining_block = value.parent_block
        defining_region = defining_block.parent if defining_block is not None else None
        if defining_region is None or not defining_region.is_ancestor(region):
            raise op.emit_error(f"operand #{number} does not dominate this use")
