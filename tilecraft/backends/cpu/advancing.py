"""Tensors that an `scf.for` carries and moves by a uniform step, held as a base and an offset.

Triton kernels carry tensors of pointers around their loops and move every element by the same
amount each iteration (``a_ptrs += BLOCK_K * stride_ak``). Stored as tiles, each iteration would
rewrite the whole tensor. Instead, when the loop yields ``tt.addptr(arg, step)`` or
``arith.addi(arg, step)`` for an iteration argument ``arg`` and the analysis finds every element
of ``step`` equal, the loop keeps the initial tensor as it is (or, when it is costly or reads
storage that changes, in a buffer written once before the loop) and one scalar offset (the sum
of the steps) in a stack slot: element ``idx`` of the argument is ``base[idx] + offset``.
Everything else reads the argument as any other tile.

A step defined outside the loop is also known where the argument is read: the tile records it
(`AdvancingTile.step`), so a vector load through it can prefetch the next iteration's data.
"""

from __future__ import annotations


import llvmlite.ir as ir

from tilecraft.ir import Operation, Value

from . import types as T
from .lowering import MATERIALIZE_COST, FunctionLowering, is_tensor
from .tiles import I32, I64, ExprTile, MappedTile, Tile


class AdvancingTile(ExprTile):
    """``base`` moved by ``offset`` (pointers: by elements of ``pointee``; integers: added).
    ``step``, when known where the tile is read, is what the next iteration adds to ``offset``
    (an i64 count of elements for pointers)."""

    __slots__ = ("base", "offset", "pointee", "step")

    def __init__(self, base: Tile, offset: ir.Value, pointee: ir.Type | None,
                 step: ir.Value | None) -> None:
        super().__init__(base.shape, base.ty, self._element, (base,), cost=1)
        self.base, self.offset, self.pointee, self.step = base, offset, pointee, step

    def _element(self, fl: FunctionLowering, idx: tuple) -> ir.Value:
        value = self.base.emit(fl, idx)
        if self.pointee is None:
            return fl.builder.add(value, self.offset)
        return fl.builder.gep(value, [self.offset], source_etype=self.pointee)


class Advance:
    """One iteration argument held as a base and an offset (see the module docstring)."""

    __slots__ = ("index", "step", "pointee", "base", "slot", "invariant_step")

    def __init__(self, index: int, step: Value, pointee: ir.Type | None) -> None:
        self.index = index  # among the loop's iteration arguments
        self.step = step  # the uniform tensor added each iteration
        self.pointee = pointee  # element type the pointers point to; None for integers
        self.base: Tile | None = None
        self.slot: ir.Value | None = None  # the offset
        # the step's scalar, when defined before the loop
        self.invariant_step: ir.Value | None = None

    @property
    def offset_type(self) -> ir.Type:
        return I64 if self.pointee is not None else self.base.ty

    def start(self, fl: FunctionLowering, init: Tile, loop: Operation) -> None:
        """Before the loop: the initial tensor as the base (a cheap expression that reads no
        buffer written again stays an expression, so addresses stay affine; anything else is
        stored) and a zero offset."""
        if isinstance(init, (ExprTile, MappedTile)) and init.cost <= MATERIALIZE_COST and \
                not init.buffers() & fl.carrier_roots:
            self.base = init
        else:
            self.base = fl.materialize(init, into=fl.new_buffer(init.shape, init.ty))
        self.slot = fl.alloca(self.offset_type)
        fl.builder.store(ir.Constant(self.offset_type, 0), self.slot)
        if not _inside(self.step, loop):
            self.invariant_step = self._scalar_step(fl)

    def read(self, fl: FunctionLowering) -> AdvancingTile:
        """The argument's tile with the offset as it is at the builder's position."""
        offset = fl.builder.load(self.slot, typ=self.offset_type)
        return AdvancingTile(self.base, offset, self.pointee, self.invariant_step)

    def advance(self, fl: FunctionLowering) -> None:
        """At the end of an iteration: adds the step to the offset."""
        b = fl.builder
        step = self.invariant_step if self.invariant_step is not None else self._scalar_step(fl)
        b.store(b.add(b.load(self.slot, typ=self.offset_type), step), self.slot)

    def _scalar_step(self, fl: FunctionLowering) -> ir.Value:
        tile = fl.as_tile(self.step)
        value = tile.emit(fl, (ir.Constant(I32, 0),) * len(tile.shape))
        if self.pointee is not None and value.type.width < 64:
            value = fl.builder.sext(value, I64)
        return value


def uniform_advances(fl: FunctionLowering, loop: Operation) -> dict[int, Advance]:
    """The iteration arguments of the `scf.for` ``loop`` that it moves by a uniform step, by
    their index among the iteration arguments."""
    if fl.axis_info is None:
        return {}
    body = loop.regions[0].blocks[0]
    arguments = list(body.arguments)[1:]
    found = {}
    for index, (argument, yielded) in enumerate(zip(arguments, list(body)[-1].operands)):
        if not is_tensor(argument) or len(argument.type.shape) == 0:
            continue
        step = _step_of(yielded, argument, body)
        if step is None or not _uniform(fl, step):
            continue
        element = T.element_type(argument.type)
        pointee = None
        if yielded.owner.name == "tt.addptr":
            pointee = T.mem_type(element.pointee_type)
        found[index] = Advance(index, step, pointee)
    return found


def _step_of(yielded: Value, argument: Value, body) -> Value | None:
    """``step`` when ``yielded`` is ``argument + step`` computed in the loop's body."""
    op = getattr(yielded, "owner", None)
    if not isinstance(op, Operation) or op.parent is not body:
        return None
    if op.name == "tt.addptr" and op.operands[0] is argument:
        return op.operands[1]
    if op.name == "arith.addi":
        lhs, rhs = op.operands
        if lhs is argument and rhs is not argument:
            return rhs
        if rhs is argument and lhs is not argument:
            return lhs
    return None


def _uniform(fl: FunctionLowering, value: Value) -> bool:
    """Whether the analysis finds every element of the tensor ``value`` equal."""
    if not is_tensor(value):
        return True
    constancy = fl.axis_info.get(value).constancy
    return all(c % size == 0 for c, size in zip(constancy, value.type.shape))


def _inside(value: Value, loop: Operation) -> bool:
    """Whether ``value`` is defined inside ``loop``'s body (or is one of its arguments)."""
    region = value.parent_region
    while region is not None:
        if region.parent is loop:
            return True
        region = region.parent.parent_region if region.parent is not None else None
    return False
