"""`tritongpu-remove-layout-conversions`: remove ``ttg.convert_layout`` ops by giving whole groups
of values one layout.

Values that must share a layout form a group (union-find): the tensor operands and results of
element-wise ops and of ops with the same-encoding traits, of memory ops, and the values that a
loop or a branch carries (inits, block arguments, yields, results). A conversion joins two
groups. It is removed by giving one group the other's layout when that group is *free*: it
holds no operand or result of a global memory access (their layouts come from
`tritongpu-coalesce`), no result of an op that fixes its result's layout (a reduction, a dot,
...) and feeds no such op (a ``tt.expand_dims`` whose result changes layout gets its operand
converted instead); a group holding a ``tt.scan`` takes only blocked layouts. Conversions of
``tt.make_range``, ``tt.splat`` and splat constants are replaced by the op made again in the
new layout. The destination group is tried first (forward propagation), then the source
(backward). Conversions to the same layout are removed and conversions of conversions folded.

When no group can change, a conversion whose source is computed by a chain of ops that can be
made again in the target layout (element-wise ops, broadcasts, expand_dims, reductions into a
slice of the target, ranges, splats, constants, other conversions; no memory op, no block
argument) is replaced by that chain made again in the target layout, when Triton's cost model
finds it cheaper than the round trip through shared memory (ops that other users keep alive
count twice). This repeats until nothing changes.

This is a smaller algorithm than Triton's (which also hoists conversions out of loops and
into branches and rematerializes loop-carried values).
"""

from __future__ import annotations

from collections.abc import Iterable

from tilecraft.generated.passes import TritonGPURemoveLayoutConversionsPassBase
from tilecraft.generated.ttg import (BlockedEncodingAttr, DotOperandEncodingAttr,
                                     SliceEncodingAttr)
from tilecraft.ir import Attribute, Builder, DenseElementsAttr, Operation, RankedTensorType, Value
from tilecraft.ir.traits import Elementwise, SameOperandsAndResultEncoding, SameOperandsEncoding

__all__ = ["TritonGPURemoveLayoutConversionsPass", "remove_layout_conversions"]

CONVERT = "ttg.convert_layout"
MEMORY_OPS = frozenset({"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"})
# ops whose results take any layout their group has (besides the linked ones)
LAYOUT_FREE_SOURCES = frozenset({"tt.splat", "tt.make_range", "arith.constant", CONVERT})
LINKED_OPS = frozenset({"arith.select"}) | MEMORY_OPS


def _is_tensor(value: Value) -> bool:
    return isinstance(value.type, RankedTensorType)


class _Groups:
    """Union-find over tensor values."""

    def __init__(self) -> None:
        self.parent: dict[Value, Value] = {}

    def find(self, value: Value) -> Value:
        root = self.parent.setdefault(value, value)
        while root is not self.parent[root]:
            root = self.parent[root]
        while value is not root:
            value, self.parent[value] = self.parent[value], root
        return root

    def link(self, values: Iterable[Value]) -> None:
        tensors = [v for v in values if _is_tensor(v)]
        for value in tensors[1:]:
            a, b = self.find(tensors[0]), self.find(value)
            if a is not b:
                self.parent[b] = a

    def members(self) -> dict[Value, list[Value]]:
        groups: dict[Value, list[Value]] = {}
        for value in list(self.parent):
            groups.setdefault(self.find(value), []).append(value)
        return groups


def _links(op: Operation) -> list[list[Value]]:
    """The sets of ``op``'s values that must share a layout."""
    name = op.name
    if name == CONVERT:
        return []
    if name == "scf.for":
        body = op.regions[0].blocks[0]
        yielded = body.terminator.operands
        return [[init, arg, out, result] for init, arg, out, result in
                zip(op.init_args, body.arguments[1:], yielded, op.results)]
    if name == "scf.if":
        sets = [[result] for result in op.results]
        for region in op.regions:
            for block in region.blocks:
                for k, value in enumerate(block.terminator.operands):
                    sets[k].append(value)
        return sets
    if name == "scf.while":
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        condition = before.terminator.operands[1:]
        yielded = after.terminator.operands
        sets = [[init, arg, out] for init, arg, out in zip(op.inits, before.arguments, yielded)]
        sets += [[c, arg, result] for c, arg, result in
                 zip(condition, after.arguments, op.results)]
        return sets
    if name in LINKED_OPS or op.has_trait(Elementwise) or \
            op.has_trait(SameOperandsAndResultEncoding):
        return [[*op.operands, *op.results]]
    if op.has_trait(SameOperandsEncoding):
        return [list(op.operands)]
    return []


def _pinned_values(op: Operation) -> list[Value]:
    """The tensor values whose layout ``op`` fixes: ``tt.expand_dims`` only its operand (a
    new layout of its result is met by converting the operand), ``tt.reduce`` only its
    results (a new layout of its operands slices into new results, converted back; see
    `_retype`)."""
    if op.name == "tt.expand_dims":
        return [v for v in op.operands if _is_tensor(v)]
    if op.name == "tt.reduce":
        return [v for v in op.results if _is_tensor(v)]
    if _fixes_layout(op):
        return [v for v in (*op.operands, *op.results) if _is_tensor(v)]
    return []


def _fixes_layout(op: Operation) -> bool:
    """Whether ``op`` needs its tensor operands, or gives its results, a layout of its own."""
    if op.name in LAYOUT_FREE_SOURCES or op.name in ("scf.yield", "scf.condition"):
        return False
    if op.name in ("scf.for", "scf.if", "scf.while"):
        return False
    return op.name in MEMORY_OPS or not _links(op) or not (
        op.has_trait(Elementwise) or op.has_trait(SameOperandsAndResultEncoding)
        or op.name in LINKED_OPS)


class _State:
    """The groups of a module and which of them are free to change layout."""

    def __init__(self, module: Operation) -> None:
        self.groups = _Groups()
        self.fixed: set[Value] = set()
        scanned: list[Value] = []
        pinned: list[Value] = []
        for op in module.walk():
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if _is_tensor(arg):
                            self.groups.find(arg)
            for value in (*op.operands, *op.results):
                if _is_tensor(value):
                    self.groups.find(value)
            for linked in _links(op):
                self.groups.link(linked)
            pinned += _pinned_values(op)
            if op.name == "tt.scan":
                scanned += [v for v in (*op.operands, *op.results) if _is_tensor(v)]
        for value in pinned:
            self.fixed.add(self.groups.find(value))
        self.blocked_only = {self.groups.find(value) for value in scanned}
        for op in module.walk():
            if op.name == "tt.func":
                for arg in op.regions[0].blocks[0].arguments:
                    if _is_tensor(arg):
                        self.fixed.add(self.groups.find(arg))

    def free(self, value: Value, encoding: Attribute) -> bool:
        """Whether the group of ``value`` may take the layout ``encoding`` (a scan's only a
        blocked one, as Triton's scan lowering needs)."""
        root = self.groups.find(value)
        if root in self.fixed:
            return False
        return root not in self.blocked_only or isinstance(encoding, BlockedEncodingAttr)

    def members(self, value: Value) -> list[Value]:
        root = self.groups.find(value)
        return [v for v in self.groups.parent if self.groups.find(v) is root]


def _retype(values: list[Value], encoding) -> None:
    """Gives ``values`` the layout ``encoding``; the operand of a ``tt.expand_dims`` whose
    result changes is converted to the matching slice."""
    for value in values:
        t = value.type
        value.type = RankedTensorType(t.shape, t.element_type, encoding)
        owner = value.defining_op
        if owner is None:
            continue
        if owner.name == "arith.constant" and isinstance(owner.value, DenseElementsAttr):
            _retype_constant(owner)
        elif owner.name == "tt.expand_dims":
            operand = owner.operands[0]
            wanted = RankedTensorType(operand.type.shape, operand.type.element_type,
                                      SliceEncodingAttr(int(owner.axis), encoding))
            convert = Builder.before(owner).create(CONVERT, operands=[operand],
                                                   result_types=[wanted],
                                                   location=owner.location)
            owner.set_operand(0, convert.results[0])
    reductions = {use.owner for value in values for use in value.uses
                  if use.owner.name == "tt.reduce"}
    for reduce in reductions:
        _reslice(reduce, encoding)


def _reslice(reduce: Operation, encoding) -> None:
    """A reduction whose operands now have layout ``encoding``: its tensor results get the
    slice of it, converted back to their old layout for their users."""
    after = Builder.after(reduce)
    for result in reduce.results:
        old = result.type
        if not isinstance(old, RankedTensorType):
            continue
        result.type = RankedTensorType(old.shape, old.element_type,
                                       SliceEncodingAttr(int(reduce.axis), encoding))
        if result.type == old or result.use_empty():
            continue
        back = after.create(CONVERT, operands=[result], result_types=[old],
                            location=reduce.location)
        result.replace_uses_with_if(back.results[0], lambda use: use.owner is not back)


def _retype_constant(op: Operation) -> None:
    attr = op.value
    items = [attr.splat_value] if attr.is_splat else list(attr.values)
    op.properties["value"] = DenseElementsAttr(op.results[0].type, items)


def _rematerialize(convert: Operation) -> bool:
    """A conversion of a ``tt.make_range``, ``tt.splat`` or splat constant replaced by the same
    op made in the new layout (cheaper than moving the elements)."""
    producer = convert.operands[0].defining_op
    if producer is None or producer.name not in ("tt.make_range", "tt.splat", "arith.constant"):
        return False
    if producer.name == "arith.constant" and not (
            isinstance(producer.value, DenseElementsAttr) and producer.value.is_splat):
        return False
    clone = producer.clone()
    clone.results[0].type = convert.results[0].type
    Builder.before(convert).insert(clone)
    if clone.name == "arith.constant":
        _retype_constant(clone)
    convert.results[0].replace_all_uses_with(clone.results[0])
    convert.erase()
    if producer.results[0].use_empty():
        producer.erase()
    return True


def _fold(module: Operation) -> bool:
    """Removes conversions to the same type and folds conversions of conversions."""
    changed = False
    for op in list(module.walk(post_order=True)):
        if op.name != CONVERT:
            continue
        source = op.operands[0]
        producer = source.defining_op
        if producer is not None and producer.name == CONVERT:
            op.set_operand(0, producer.operands[0])
            if producer.results[0].use_empty():
                producer.erase()
            source = op.operands[0]
            changed = True
        if source.type == op.results[0].type:
            op.results[0].replace_all_uses_with(source)
            op.erase()
            changed = True
        elif _rematerialize(op):
            changed = True
    return changed


# math ops that take several instructions or the special function unit (Triton's list)
EXPENSIVE_MATH = frozenset({
    "arith.divf", "math.erfc", "math.sinh", "math.cosh", "math.tanh", "math.asinh",
    "math.acosh", "math.atanh", "math.ctpop", "math.ctlz", "math.cttz", "math.exp",
    "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
    "math.sin", "math.cos", "math.tan", "math.asin", "math.acos", "math.atan", "math.atan2",
    "math.powf", "math.sqrt", "math.rsqrt", "math.erf", "math.cbrt"})


def _with_encoding(t: RankedTensorType, encoding: Attribute) -> RankedTensorType:
    return RankedTensorType(t.shape, t.element_type, encoding)


def _operand_encodings(op: Operation, encoding: Attribute) -> list[Attribute | None] | None:
    """The layouts ``op``'s operands need for its results to have layout ``encoding`` (None
    for an operand whose layout does not matter: a scalar); None when ``op`` cannot be made
    again in that layout (memory ops, dots, ops with regions other than reductions, ...)."""
    name = op.name
    tensors = [_is_tensor(v) for v in op.operands]
    if name in ("tt.make_range", "tt.splat", "arith.constant"):
        return [None] * len(op.operands)
    if name == "tt.expand_dims":
        return [SliceEncodingAttr(int(op.axis), encoding)]
    if name == "tt.reduce":
        if not isinstance(encoding, SliceEncodingAttr) or encoding.dim != int(op.axis):
            return None
        return [encoding.parent] * len(op.operands)
    if name == "tt.broadcast" or (name not in MEMORY_OPS and not op.regions and (
            op.has_trait(Elementwise) or op.has_trait(SameOperandsAndResultEncoding)
            or name in LINKED_OPS)):
        return [encoding if tensor else None for tensor in tensors]
    return None


def _byte_count(value: Value, min_elements: int = 0, min_bits: int = 0) -> int:
    t = value.type
    if not isinstance(t, RankedTensorType):
        return 0
    elements = 1
    for size in t.shape:
        elements *= size
    bits = getattr(t.element_type, "width", 0) or 0
    return (max(elements, min_elements) * max(bits, min_bits)) >> 3


class _Slice:
    """The values a conversion's source depends on that must change layout for the
    conversion to disappear: ``layout`` maps each to its new layout."""

    def __init__(self) -> None:
        self.layout: dict[Value, Attribute] = {}
        self.ops: list[Operation] = []

    def collect(self, root: Value, encoding: Attribute) -> bool:
        """Walks back from ``root`` wanting ``encoding``; False when some value cannot change
        (a block argument, an op without a rematerialization, two layouts for one value)."""
        work = [(root, encoding)]
        while work:
            value, wanted = work.pop()
            if value.type.encoding == wanted:
                continue
            if value in self.layout:
                if self.layout[value] != wanted:
                    return False
                continue
            op = value.defining_op
            if op is None:
                return False
            if op.name == CONVERT:
                self.layout[value] = wanted
                self.ops.append(op)
                work.append((op.operands[0], wanted))
                continue
            needs = _operand_encodings(op, wanted)
            if needs is None:
                return False
            for result in op.results:
                if _is_tensor(result):
                    if self.layout.get(result, wanted) != wanted:
                        return False
                    self.layout[result] = wanted
            self.ops.append(op)
            work += [(v, e) for v, e in zip(op.operands, needs) if e is not None]
        return True

    def beneficial(self, convert: Operation) -> bool:
        """Triton's cost model: the conversion (a round trip through shared memory) costs
        more than the ops of the slice that stay alive for other users and so are made
        twice (constants and conversions are free, loads never in a slice)."""
        ops = set(self.ops)
        outside: list[Value] = [v for v in self.layout if any(
            use.owner is not convert and use.owner not in ops for use in v.uses)]
        seen = set(outside)
        for value in outside:
            owner = value.defining_op
            for operand in owner.operands:
                if operand in self.layout and operand not in seen:
                    seen.add(operand)
                    outside.append(operand)
        cost = 0
        for op in ops:
            if not any(result in seen for result in op.results):
                continue
            if op.name in ("arith.constant", CONVERT):
                continue
            if op.name == "tt.reduce":
                cost += sum(_byte_count(v) for v in op.operands)
            elif op.name.startswith(("arith.", "math.")):
                cost += (8 if op.name in EXPENSIVE_MATH else 1) * sum(
                    _byte_count(r) for r in op.results)
        return 32 * _byte_count(convert.operands[0], 32, 32) >= cost

    def rewrite(self, convert: Operation, order: dict[Operation, int]) -> None:
        """Makes the slice's ops again in their new layouts (each right after the original)
        and gives ``convert``'s users the new source."""
        mapping: dict[Value, Value] = {}
        for op in sorted(set(self.ops), key=order.__getitem__):
            if op.name == CONVERT:
                source = op.operands[0]
                mapping[op.results[0]] = mapping.get(source, source)
                continue
            clone = op.clone(dict(mapping))
            for old, new in zip(op.results, clone.results):
                if old in self.layout:
                    new.type = _with_encoding(old.type, self.layout[old])
                mapping[old] = new
            Builder.after(op).insert(clone)
            if clone.name == "arith.constant" and isinstance(clone.value, DenseElementsAttr):
                _retype_constant(clone)
        source = convert.operands[0]
        convert.results[0].replace_all_uses_with(mapping.get(source, source))
        convert.erase()
        for op in sorted(set(self.ops), key=order.__getitem__, reverse=True):
            if op.parent is not None and all(r.use_empty() for r in op.results):
                op.erase()


def _backward_rematerialize(module: Operation) -> bool:
    """Removes the first conversion whose source can be computed in the target layout instead,
    cheaply enough (Triton's backward rematerialization); returns whether it did."""
    order = {op: i for i, op in enumerate(module.walk())}
    for convert in list(order):
        if convert.name != CONVERT or convert.parent is None:
            continue
        target = convert.results[0].type.encoding
        if isinstance(target, DotOperandEncodingAttr):
            continue
        piece = _Slice()
        if piece.collect(convert.operands[0], target) and piece.beneficial(convert):
            piece.rewrite(convert, order)
            return True
    return False


def remove_layout_conversions(module: Operation) -> None:
    """Removes what conversions it can from ``module`` (see the module docstring)."""
    _fold(module)
    while True:
        state = _State(module)
        progress = False
        for op in module.walk():
            if op.name != CONVERT:
                continue
            source, result = op.operands[0], op.results[0]
            if state.free(result, source.type.encoding):
                _retype(state.members(result), source.type.encoding)
            elif state.free(source, result.type.encoding):
                _retype(state.members(source), result.type.encoding)
            else:
                continue
            progress = True
            break
        if not progress and not _backward_rematerialize(module):
            break
        _fold(module)


class TritonGPURemoveLayoutConversionsPass(TritonGPURemoveLayoutConversionsPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        remove_layout_conversions(op)
