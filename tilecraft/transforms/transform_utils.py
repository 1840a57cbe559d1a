"""Helpers shared by the loop and tile passes (licm, inline, loop unrolling, loop-aware CSE,
combine, reorder-broadcast): constants, speculation and memory effects, loop invariance, and
cloning blocks into another region.
"""

from __future__ import annotations

from typing import Callable, Iterable

from tilecraft.ir import (
    Attribute, Block, BoolAttr, Builder, DenseElementsAttr, FloatAttr, IntegerAttr,
    IntegerType, Operation, RankedTensorType, Region, Type, Value,
)
from tilecraft.ir.traits import (
    AlwaysSpeculatable, MemoryEffect, MemWrite, MemAlloc, MemFree, NoMemoryEffect,
    RecursiveMemoryEffects, Terminator,
)
from tilecraft.ir.values import BlockArgument, OpResult

from .folding import constant_attr

__all__ = [
    "int_constant", "splat_scalar_attr", "constant_op", "is_speculatable",
    "may_write_memory", "defining_scope_op", "is_defined_outside",
    "uses_only", "clone_block_ops", "clone_region_blocks", "remap_operands",
    "loop_with_iter_args", "increment_modulo",
]

# Integer division-like ops: undefined for a zero divisor (and, signed, for MIN / -1).
_INT_DIVISIONS = {
    "arith.divsi": True, "arith.ceildivsi": True, "arith.floordivsi": True, "arith.remsi": True,
    "arith.divui": False, "arith.remui": False,
}


# -- constants


def int_constant(value: Value) -> int | None:
    """The integer a value always holds: a scalar integer/index/i1 constant or a splat integer
    tensor constant (signless values as MLIR prints them: two's complement, i1 as 0/1)."""
    attr = constant_attr(value)
    if isinstance(attr, DenseElementsAttr):
        if not attr.is_splat:
            return None
        attr = attr.splat_value
        if isinstance(attr, bool):
            return int(attr)
        return attr if isinstance(attr, int) else None
    if isinstance(attr, BoolAttr):
        return int(attr.value)
    if isinstance(attr, IntegerAttr):
        return attr.value
    return None


def splat_scalar_attr(value: Value) -> Attribute | None:
    """For a value defined by a splat tensor constant, its element as a scalar attribute
    (`IntegerAttr`/`FloatAttr`/`BoolAttr` of the element type); None otherwise."""
    attr = constant_attr(value)
    if not isinstance(attr, DenseElementsAttr) or not attr.is_splat:
        return None
    element_type = attr.type.element_type
    scalar = attr.splat_value
    if element_type.is_float():
        return FloatAttr(scalar, element_type)
    if element_type.is_integer() or element_type.is_index():
        return IntegerAttr(int(scalar), element_type)
    return None


def constant_op(value: object, type_: Type, location=None) -> Operation:
    """A detached ``arith.constant`` of ``type_`` holding ``value`` (an `Attribute` of the
    element type or a Python number), splatted when ``type_`` is a tensor. An integer out of
    the type's range wraps to its width, as arith's arithmetic does (a pass computing bounds
    near the limits, such as the loop unroller's step times factor, overflowed the attribute)."""
    from tilecraft.generated.arith import ConstantOp

    element = type_.element_type if isinstance(type_, RankedTensorType) else type_
    if isinstance(value, Attribute):
        scalar = value
    elif element.is_float():
        scalar = FloatAttr(float(value), element)
    else:
        number = int(value)
        width = 64 if element.is_index() else element.width
        if not -(1 << width - 1) <= number < 1 << width:
            number = (number + (1 << width - 1)) % (1 << width) - (1 << width - 1)
        scalar = IntegerAttr(number, element)
    if isinstance(type_, RankedTensorType):
        attr = DenseElementsAttr(type_, scalar.value)
    else:
        attr = scalar
    return ConstantOp.build(attr, type_, location=location)


def increment_modulo(builder: Builder, counter: Value, modulus: int, location
                     ) -> tuple[Value, Value]:
    """``counter + 1`` (an i32), wrapped to 0 at ``modulus``, and whether it wrapped (Triton's
    ``createIncrementModulo``), inserted with ``builder``."""
    from tilecraft.generated.arith import AddIOp, CmpIOp, CmpIPredicate, SelectOp

    def i32(value: int) -> Value:
        return builder.insert(constant_op(value, IntegerType(32), location)).results[0]

    following = builder.insert(AddIOp.build(counter, i32(1), location=location)).results[0]
    wraps = builder.insert(CmpIOp.build(following, i32(modulus), CmpIPredicate.sge,
                                        location=location)).results[0]
    value = builder.insert(SelectOp.build(wraps, i32(0), following,
                                          location=location)).results[0]
    return value, wraps


# -- effects and speculation


def _divisor_is_safe(op: Operation) -> bool:
    signed = _INT_DIVISIONS[op.name]
    divisor = int_constant(op.operands[1])
    if divisor is None or divisor == 0:
        return False
    return not (signed and divisor == -1)


def is_speculatable(op: Operation) -> bool:
    """Whether ``op`` may run where it did not (it cannot trap or loop forever), as MLIR's
    ``isSpeculatable``: ``AlwaysSpeculatable`` ops, except integer divisions whose divisor is
    not a known safe constant; ``RecursiveMemoryEffects`` ops with regions (``scf.if``, and
    ``scf.for`` with a constant non-zero step) whose nested ops all are. Unregistered ops,
    ``scf.while`` and ops without the trait are not."""
    if not op.is_registered:
        return False
    if op.name in _INT_DIVISIONS:
        return _divisor_is_safe(op)
    if op.has_trait(AlwaysSpeculatable):
        return all(is_speculatable(child) for region in op.regions
                   for block in region.blocks for child in block)
    if op.name == "scf.while":
        return False
    if op.name == "scf.for":
        step = int_constant(op.operands[2])
        if step is None or step <= 0:
            return False
    if op.has_trait(RecursiveMemoryEffects) and op.regions:
        return all(is_speculatable(child) for region in op.regions
                   for block in region.blocks for child in block)
    return False


def may_write_memory(op: Operation) -> bool:
    """Whether ``op`` or an op nested in it may write, allocate or free memory (reads are
    fine): ops that declare effects other than reads, unregistered ops and ops that declare
    nothing (calls) count as writing."""
    for nested in op.walk():
        if not nested.is_registered:
            return True
        if nested.has_trait(MemWrite) or nested.has_trait(MemAlloc) or nested.has_trait(MemFree):
            return True
        if nested.has_trait(MemoryEffect) or nested.has_trait(NoMemoryEffect):
            continue
        if nested.has_trait(RecursiveMemoryEffects):
            continue  # its nested ops are visited by the walk
        return True
    return False


# -- where values live


def defining_scope_op(value: Value) -> Operation | None:
    """The op whose result ``value`` is, or the op owning the block of the argument."""
    if type(value) is OpResult:
        return value.owner
    if isinstance(value, BlockArgument):
        return value.owner.parent_op
    return value.defining_op


def is_defined_outside(value: Value, op: Operation) -> bool:
    """Whether ``value`` is defined outside ``op`` (neither a result of ``op`` or of an op
    nested in it, nor an argument of a block in its regions)."""
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op
        return owner is None or not op.is_ancestor(owner)
    return not op.is_ancestor(value.defining_op)


def uses_only(op: Operation, predicate: Callable[[Value], bool]) -> bool:
    """Whether every value ``op`` and its nested ops use that is defined outside ``op``
    satisfies ``predicate``."""
    for nested in op.walk():
        for value in nested.operands:
            if nested is not op and not is_defined_outside(value, op):
                continue
            if not predicate(value):
                return False
    return True


# -- cloning


def remap_operands(ops: Iterable[Operation], mapping: dict) -> None:
    """Make the operands of ``ops`` (and of their nested ops) that ``mapping`` maps read the
    mapped values, and successors the mapped blocks (clones made in several steps may refer
    to values cloned later, e.g. in blocks that come later in the region)."""
    for op in ops:
        for nested in op.walk():
            for operand in nested.op_operands:
                new = mapping.get(operand.value)
                if new is not None and new is not operand.value:
                    operand.set(new)
            nested.successors[:] = [mapping.get(b, b) for b in nested.successors]


def clone_block_ops(block: Block, builder, mapping: dict, *, skip_terminator: bool = True
                    ) -> list[Operation]:
    """Clone the ops of ``block`` through ``builder`` (anything with an ``insert(op)``) with
    ``mapping``; the terminator is left out unless ``skip_terminator`` is False. Returns the
    clones; ``mapping`` maps the originals' results to theirs."""
    clones = []
    for op in block:
        if skip_terminator and op is block.last_op and op.has_trait(Terminator):
            break
        clones.append(builder.insert(op.clone(mapping)))
    return clones


def clone_region_blocks(source: Region, dest: Region, index: int, mapping: dict
                        ) -> list[Block]:
    """Clone every block of ``source`` into ``dest`` at position ``index`` (their arguments
    and ops; entry arguments already in ``mapping`` are still given a block argument).
    Returns the new blocks in order."""
    new_blocks = []
    for offset, block in enumerate(source.blocks):
        new_block = dest.insert_block(index + offset, Block())
        for arg in block.arguments:
            new_arg = new_block.add_argument(arg.type, arg.location)
            mapping.setdefault(arg, new_arg)
        mapping[block] = new_block
        new_blocks.append(new_block)
    clones = []
    for block, new_block in zip(source.blocks, new_blocks):
        for op in block:
            clones.append(new_block.append(op.clone(mapping)))
    remap_operands(clones, mapping)
    return new_blocks


def loop_with_iter_args(loop: Operation, inits: list[Value]) -> Operation:
    """A new ``scf.for`` with ``loop``'s bounds, step and attributes and the iter_args
    ``inits`` (its results of their types), inserted before ``loop``, with ``loop``'s body
    moved into it as it is: the caller adds or erases block arguments, fixes the yield and
    replaces ``loop``."""
    from tilecraft.generated.scf import ForOp

    new_loop = ForOp.build([v.type for v in inits], *loop.operands[:3], inits,
                           loop.properties.get("unsignedCmp"),
                           attributes=dict(loop.attributes), location=loop.location)
    loop.parent.insert_before(loop, new_loop)
    body = loop.regions[0].blocks[0]
    loop.regions[0].blocks.remove(body)
    body.parent = None
    new_loop.regions[0].add_block(body)
    return new_loop
