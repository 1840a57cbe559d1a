"""Backward rematerialization of layout conversions, a phase of
`tritongpu-remove-layout-conversions` (the idea of Triton's ``LayoutRematerialization``).

A conversion's *slice* is the set of values its source depends on that would have to change
layout for the conversion to disappear, each with the layout it would need: it is found walking
back from the source through the ops' transfer functions (`infer_src_encoding`), the branches of
an ``scf.if`` and the loop-carried values of an ``scf.for`` (initial value and yielded value),
and stops at values already in the layout wanted, at ops that make any layout (constants,
ranges, splats, conversions) and at conversions that only reorder a thread's registers. A
slice fails when a value would need two layouts, or when it reaches a function argument, an
``scf.for``/``scf.while`` result, an op without a transfer function, or an op that must not be
done twice (an expensive load or store, an atomic, a dot).

*Backward rematerialization* makes a conversion's slice again in the wanted layouts (the ops
cloned beside the originals, loops given extra loop-carried values, branches extra results)
when Triton's cost model finds that cheaper than the conversion's round trip through shared
memory: an op of the slice that stays alive for other users is paid for again. The slices and
the rewrite are shared with `layout_hoisting`.

Values already rematerialized in a layout (and conversions that stay) are remembered and reused
by later slices where they dominate the use.
"""

from __future__ import annotations

from collections.abc import Callable

from tilecraft.generated.ttg import DotOperandEncodingAttr
from tilecraft.ir import Attribute, Builder, OpOperand, Operation, Value
from tilecraft.layouts.conversion import conversion_plan

from .layout_inference import (CONVERT, can_use_result_encoding, infer_src_encoding,
                               is_expensive_load_or_store, is_tensor, layout_map, mappable,
                               with_encoding)

__all__ = ["Rematerializer", "Slice", "backward_rematerialization", "convert_cost", "functions",
           "is_remat_beneficial", "yields"]

Stop = Callable[[Operation], bool] | None

# math ops that take several instructions or the special function unit (Triton's list)
EXPENSIVE_MATH = frozenset({
    "arith.divf", "math.erfc", "math.sinh", "math.cosh", "math.tanh", "math.asinh",
    "math.acosh", "math.atanh", "math.ctpop", "math.ctlz", "math.cttz", "math.exp",
    "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
    "math.sin", "math.cos", "math.tan", "math.asin", "math.acos", "math.atan", "math.atan2",
    "math.powf", "math.sqrt", "math.rsqrt", "math.erf", "math.cbrt"})


class Slice:
    """A slice being built: its values in order, the layout of each, and the existing
    rematerializations it reuses (None: one exists but does not dominate the use)."""

    __slots__ = ("values", "layout", "existing")

    def __init__(self) -> None:
        self.values: dict[Value, None] = {}
        self.layout: dict[Value, Attribute] = {}
        self.existing: dict[tuple[Value, Attribute], Value | None] = {}

    def copy(self) -> Slice:
        """An independent copy (to grow on trial)."""
        other = Slice()
        other.values, other.layout = dict(self.values), dict(self.layout)
        other.existing = dict(self.existing)
        return other


def _num_elements(value: Value) -> int:
    count = 1
    for size in value.type.shape:
        count *= size
    return count


def _byte_count(value: Value, min_elements: int = 0, min_bits: int = 0) -> int:
    if not is_tensor(value):
        return 0
    bits = getattr(value.type.element_type, "width", 0) or 0
    return (max(_num_elements(value), min_elements) * max(bits, min_bits)) >> 3


def convert_cost(source: Value) -> int:
    """Triton's cost of converting ``source``: a round trip through shared memory of at least
    a warp of 32-bit words, doubled for the synchronization."""
    return 32 * _byte_count(source, 32, 32)


def _reduce_cost(op: Operation) -> int | None:
    """The cost of making a reduction again (the lanes and warps it combines across); None for
    a floating point reduction that is not associative (it must not be done twice)."""
    source = op.operands[0]
    axis = int(op.axis)
    element = source.type.element_type
    if source.type.shape[axis] > 2 and type(element).__name__.startswith(("F", "BF")) and any(
            inner.name in ("arith.addf", "arith.mulf") for inner in op.walk()):
        return None
    layout = layout_map(source.type.encoding, tuple(source.type.shape))
    if layout is None:
        return None
    lanes = sum(1 for b in layout.bases.get("lane", ()) if b[axis])
    warps = sum(1 for b in layout.bases.get("warp", ()) if b[axis])
    return (1 << lanes) + 8 * (1 << warps)


def is_remat_beneficial(convert: Operation, piece: Slice, new_convert_cost: int) -> bool:
    """Triton's cost model: the ops of the slice that other users keep alive are made twice;
    that (and any new conversion) must cost no more than the conversion removed."""
    ops = {v.defining_op: None for v in piece.values if v.defining_op is not None}
    alive = {v: None for v in piece.values
             if any(u.owner is not convert and u.owner not in ops for u in v.uses)}
    queue = list(alive)
    while queue:
        owner = queue.pop().defining_op
        if owner is None:
            continue
        for operand in owner.operands:
            if operand in piece.values and operand not in alive:
                alive[operand] = None
                queue.append(operand)
    cost = new_convert_cost
    for op in ops:
        if not any(result in alive for result in op.results):
            continue
        if op.name == "arith.constant":
            continue
        if op.name in ("tt.load", "ttg.local_load"):
            cost += sum(8 * _byte_count(r) for r in op.results)
        elif op.name.startswith(("arith.", "math.")):
            factor = 8 if op.name in EXPENSIVE_MATH else 1
            cost += sum(factor * _byte_count(r) for r in op.results)
        elif op.name == "tt.reduce":
            reduce_cost = _reduce_cost(op)
            if reduce_cost is None:
                return False
            cost += reduce_cost
    return convert_cost(convert.operands[0]) >= cost


def _can_be_remat(op: Operation) -> bool:
    name = op.name
    if name in ("tt.load", "tt.store"):
        return not is_expensive_load_or_store(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas", "tt.dot", "scf.while", "scf.condition"):
        return False
    if name == "tt.gather":
        return not op.efficient_layout
    return True


def _reorders_registers(op: Operation) -> bool:
    """A conversion that only moves values between the registers of each thread."""
    if op.name != CONVERT:
        return False
    src, dst = op.operands[0].type, op.results[0].type
    src_map = layout_map(src.encoding, tuple(src.shape))
    dst_map = layout_map(dst.encoding, tuple(dst.shape))
    if src_map is None or dst_map is None:
        return False
    return conversion_plan(src_map, dst_map).kind in ("none", "register")


def dominates(value: Value, op: Operation) -> bool:
    """Whether ``value`` is defined before ``op`` runs (MLIR's properlyDominates of a value
    over an op, for structured control flow)."""
    block = value.parent_block
    anchor = op
    while anchor is not None and anchor.parent is not block:
        anchor = anchor.parent_op
    if anchor is None:
        return False
    owner = value.defining_op
    return owner is None or (owner is not anchor and owner.is_before_in_block(anchor))


def yields(if_op: Operation) -> list[Operation]:
    """The terminators of an ``scf.if``'s regions."""
    return [region.blocks[0].terminator for region in if_op.regions]


def _rebuilt(op: Operation, operands: list[Value], result_types: list) -> Operation:
    """``op`` made again with extra operands and results, its regions moved into the new op,
    placed before it."""
    new = Operation.create(op.name, operands=[*op.operands, *operands],
                           result_types=[*(r.type for r in op.results), *result_types],
                           properties=dict(op.properties), attributes=dict(op.attributes),
                           regions=len(op.regions), location=op.location)
    for old_region, new_region in zip(op.regions, new.regions):
        for block in list(old_region.blocks):
            old_region.blocks.remove(block)
            block.parent = None
            new_region.add_block(block)
    return Builder.before(op).insert(new)


class Rematerializer:
    """Slices, rewrites and the values already made in other layouts, for one function."""

    def __init__(self, func: Operation) -> None:
        self.func = func
        self.remat: dict[tuple[Value, Attribute], Value] = {}
        self.mapped: dict[Value, Attribute] = {}

    def add_remat(self, old: Value, encoding: Attribute, new: Value) -> None:
        """Remembers that ``new`` is ``old`` in layout ``encoding``."""
        self.remat[(old, encoding)] = new
        self.mapped[old] = encoding

    def _converts(self) -> list[Operation]:
        return [op for op in self.func.walk() if op.name == CONVERT]

    def each_convert(self, transform: Callable[[Operation], bool]) -> bool:
        """Applies ``transform`` to every conversion; one that stays is remembered for reuse."""
        changed = False
        for convert in self._converts():
            if convert.parent is None:
                continue
            if transform(convert):
                changed = True
            else:
                self.add_remat(convert.operands[0], convert.results[0].type.encoding,
                               convert.results[0])
        return changed

    # -- slices

    def _existing(self, use: OpOperand, encoding: Attribute, piece: Slice) -> bool:
        remat = self.remat.get((use.value, encoding))
        if remat is None:
            return False
        if dominates(remat, use.owner):
            piece.existing.setdefault((use.value, encoding), remat)
            return True
        piece.existing[(use.value, encoding)] = None
        return False

    def _collect(self, root: OpOperand, encoding: Attribute, piece: Slice, stop: Stop) -> bool:
        seen: set[tuple[OpOperand, Attribute]] = set()
        queue: list[tuple[OpOperand, Attribute]] = []

        def enqueue(use: OpOperand, wanted: Attribute) -> None:
            if (use, wanted) not in seen:
                seen.add((use, wanted))
                queue.append((use, wanted))

        def assign(value: Value, wanted: Attribute) -> bool:
            if piece.layout.setdefault(value, wanted) != wanted:
                return False
            return True

        enqueue(root, encoding)
        while queue:
            use, wanted = queue.pop()
            value = use.value
            if not is_tensor(value):
                continue
            owner = value.defining_op
            if owner is not None and owner.name in ("scf.for", "scf.while",
                                                    "ttg.warp_specialize"):
                return False
            if not assign(value, wanted):
                return False
            if value.type.encoding == wanted:
                continue
            if not mappable(wanted, tuple(value.type.shape)) or not mappable(
                    value.type.encoding, tuple(value.type.shape)):
                return False
            piece.values[value] = None
            if self._existing(use, wanted, piece):
                continue
            if owner is not None and owner.name == "scf.if":
                if stop is None or not stop(owner):
                    for terminator in yields(owner):
                        enqueue(terminator.op_operands[value.index], wanted)
                continue
            if owner is not None:
                for result in owner.results:
                    if result is value or not is_tensor(result):
                        continue
                    if not assign(result, wanted):
                        return False
                    piece.values[result] = None
                if _reorders_registers(owner):
                    enqueue(owner.op_operands[0], wanted)
                    continue
                if can_use_result_encoding(owner, wanted) or (stop is not None and stop(owner)):
                    continue
                if owner.name == "tt.cat":
                    return False
                source = infer_src_encoding(owner, wanted)
                if source is None:
                    return False
                uses = owner.op_operands[1:2] if owner.name == "tt.gather" else owner.op_operands
                for operand in uses:
                    enqueue(operand, source)
                continue
            loop = value.parent_block.parent_op
            if loop is None or loop.name != "scf.for" or value.index == 0:
                return False
            k = value.index - 1
            enqueue(loop.op_operands[3 + k], wanted)
            enqueue(value.parent_block.terminator.op_operands[k], wanted)
        return True

    def slice_of(self, root: OpOperand, encoding: Attribute, piece: Slice,
                 stop: Stop = None) -> bool:
        """Grows ``piece`` by the slice of ``root`` in ``encoding`` when all of it can be made
        again (Triton's getRematerializableSlice); ``piece`` is unchanged on failure."""
        trial = piece.copy()
        if not self._collect(root, encoding, trial, stop) or not trial.values:
            return False
        if any(v.defining_op is not None and not _can_be_remat(v.defining_op)
               for v in trial.values):
            return False
        piece.values, piece.layout, piece.existing = trial.values, trial.layout, trial.existing
        return True

    # -- rewrite

    def rewrite_slice(self, piece: Slice, convert: Operation,
                      mapping: dict[Value, Value] | None = None) -> None:
        """Makes the ops of ``piece`` again in their new layouts and gives ``convert``'s users
        the new value of its source."""
        mapping = {} if mapping is None else mapping
        to_rewrite: dict[Operation, None] = {}
        yielded: dict[Operation, list[int]] = {}
        for value in list(piece.values):
            encoding = piece.layout[value]
            remat = piece.existing.get((value, encoding))
            if remat is not None:
                mapping[value] = remat
                del piece.values[value]
                continue
            owner = value.defining_op
            if owner is not None:
                to_rewrite[owner] = None
                if owner.name == "scf.if":
                    for terminator in yields(owner):
                        to_rewrite[terminator] = None
                        yielded.setdefault(terminator, []).append(value.index)
            else:
                terminator = value.parent_block.terminator
                to_rewrite[value.parent_block.parent_op] = None
                to_rewrite[terminator] = None
                yielded.setdefault(terminator, []).append(value.index - 1)
        order = {op: i for i, op in enumerate(self.func.walk())}
        replacements: list[tuple[Value, Value]] = []
        dead: list[Operation] = []
        for op in sorted(to_rewrite, key=order.__getitem__):
            if op.name == "scf.for":
                self._rewrite_for(op, piece, mapping, replacements)
                dead.append(op)
            elif op.name == "scf.if":
                self._rewrite_if(op, piece, mapping, replacements)
                dead.append(op)
            elif op.name == "scf.yield":
                extra = [mapping.get(op.operands[k], op.operands[k])
                         for k in sorted(yielded[op])]
                Builder.before(op).create("scf.yield", operands=[*op.operands, *extra],
                                          location=op.location)
                op.erase()
            elif op.name == "arith.constant":
                clone = Builder.before(op).insert(op.clone())
                result = op.results[0]
                encoding = piece.layout[result]
                back = Builder.before(op).create(
                    CONVERT, operands=[clone.results[0]],
                    result_types=[with_encoding(result.type, encoding)], location=op.location)
                mapping[result] = back.results[0]
                self.add_remat(result, encoding, back.results[0])
            else:
                clone = Builder.before(op).insert(op.clone(mapping))
                for old, new in zip(op.results, clone.results):
                    if old in piece.layout:
                        new.type = with_encoding(old.type, piece.layout[old])
                        self.add_remat(old, piece.layout[old], new)
        source = convert.operands[0]
        convert.results[0].replace_all_uses_with(mapping.get(source, source))
        self._update_remat(replacements)
        for old, new in replacements:
            old.replace_all_uses_with(new)
        convert.erase()
        for op in dead:
            op.erase()

    def _rewrite_for(self, loop: Operation, piece: Slice, mapping: dict,
                     replacements: list) -> None:
        body = loop.region.blocks[0]
        count = len(loop.results)
        inits, pairs = [], []
        for k, arg in enumerate(body.arguments[1:]):
            if arg in piece.values:
                init = loop.init_args[k]
                pairs.append((k, count + len(inits)))
                inits.append(mapping.get(init, init))
        for init in inits:
            body.add_argument(init.type, loop.location)
        new = _rebuilt(loop, inits, [v.type for v in inits])
        replacements.extend(zip(loop.results, new.results))
        for old, position in pairs:
            encoding = piece.layout[body.arguments[old + 1]]
            mapping[loop.results[old]] = new.results[position]
            mapping[body.arguments[old + 1]] = body.arguments[position + 1]
            self.add_remat(new.results[old], encoding, new.results[position])
            self.add_remat(body.arguments[old + 1], encoding, body.arguments[position + 1])

    def _rewrite_if(self, op: Operation, piece: Slice, mapping: dict,
                    replacements: list) -> None:
        moved = [r for r in op.results if r in piece.values]
        new = _rebuilt(op, [], [with_encoding(r.type, piece.layout[r]) for r in moved])
        replacements.extend(zip(op.results, new.results))
        for position, result in enumerate(moved, start=len(op.results)):
            mapping[result] = new.results[position]
            self.add_remat(result, piece.layout[result], new.results[position])

    def _update_remat(self, replacements: list[tuple[Value, Value]]) -> None:
        """Re-keys remembered rematerializations of values that a new loop or branch replaced."""
        renamed = dict(replacements)
        for old, new in replacements:
            encoding = self.mapped.pop(old, None)
            if encoding is None:
                continue
            value = self.remat.pop((old, encoding))
            value = renamed.get(value, value)
            self.add_remat(new, encoding, value)

    # -- the transformations

    def backward(self, convert: Operation) -> bool:
        """Removes ``convert`` by making its source's slice in the target layout, if that is
        possible and cheaper."""
        target = convert.results[0].type.encoding
        if isinstance(target, DotOperandEncodingAttr):
            return False
        source = convert.operands[0]
        known = self.remat.get((source, target))
        if known is not None and dominates(known, convert):
            convert.results[0].replace_all_uses_with(known)
            convert.erase()
            return True
        piece = Slice()
        if not self.slice_of(convert.op_operands[0], target, piece):
            return False
        if not is_remat_beneficial(convert, piece, 0):
            return False
        self.rewrite_slice(piece, convert)
        return True


def functions(module: Operation) -> list[Operation]:
    """The ``tt.func`` ops of ``module``."""
    return [op for op in module.walk() if op.name == "tt.func"]


def backward_rematerialization(module: Operation) -> bool:
    """One round of backward rematerialization over every conversion of ``module``; returns
    whether one was removed."""
    changed = False
    for func in functions(module):
        remat = Rematerializer(func)
        changed |= remat.each_convert(remat.backward)
    return changed
