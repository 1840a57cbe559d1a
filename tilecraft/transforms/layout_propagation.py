"""Forward propagation of layouts from anchors, the first phase of
`tritongpu-remove-layout-conversions` (the idea of Triton's ``LayoutPropagation``).

1. The anchors keep their layouts: the function's tensor arguments and the results of the ops
   `is_layout_anchor` names (expensive loads, dots, atomics, ...).
2. Each anchor's layout flows to the users of its values, through element-wise ops, reductions,
   views (expand_dims, trans, join, split, reshape), conversions (whose result then takes
   the source's layout) and the values that loops and branches carry, until nothing changes.
   A value reached from several anchors collects several candidate layouts.
3. A value with several candidates keeps one: a blocked layout for a memory access, else an
   mma layout, else the first that reached it.
4. The function is rewritten region by region, outermost first: each op whose results got a new
   layout is given it in place (its operands are converted to what it needs), and an op that
   keeps its layout gets its operands converted back to the layouts it had.

The conversions this inserts are mostly between equal layouts or back to back; the pass's
cleanup removes them.
"""

from __future__ import annotations

from collections import deque

from tilecraft.generated.ttg import BlockedEncodingAttr
from tilecraft.ir import Attribute, Builder, DenseElementsAttr, Operation, Region, Value
from tilecraft.ir.traits import Elementwise, SameOperandsAndResultEncoding

from .layout_inference import (CONVERT, MMA_ENCODINGS, can_use_result_encoding, infer_dst_encoding,
                               infer_src_encoding, is_layout_anchor, is_tensor, mappable,
                               with_encoding)

__all__ = ["propagate_layouts", "convert_to", "retype_constant"]

VIEW_OPS = frozenset({"tt.reduce", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join",
                      "tt.split", CONVERT})
MEMORY_OPS = frozenset({"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"})


def convert_to(value: Value, encoding: Attribute | None) -> Value:
    """``value`` in layout ``encoding``: itself when it has it (or is no tensor), else a new
    ``ttg.convert_layout`` of it placed right after its definition."""
    if encoding is None or not is_tensor(value) or value.type.encoding == encoding:
        return value
    owner = value.defining_op
    if owner is None:
        builder = Builder.at_start(value.parent_block)
    else:
        builder = Builder.after(owner)
    convert = builder.create(CONVERT, operands=[value],
                             result_types=[with_encoding(value.type, encoding)],
                             location=owner.location if owner is not None else None)
    return convert.results[0]


def retype_constant(op: Operation) -> None:
    """Makes a dense ``arith.constant``'s value attribute follow its result's type."""
    attr = op.properties.get("value")
    if not isinstance(attr, DenseElementsAttr):
        return
    items = [attr.splat_value] if attr.is_splat else list(attr.values)
    op.properties["value"] = DenseElementsAttr(op.results[0].type, items)


def _is_reduce_to_scalar(op: Operation) -> bool:
    return op.name == "tt.reduce" and not is_tensor(op.results[0])


class _Propagation:
    """The candidate layouts of the values of one function, and the rewrite they lead to."""

    def __init__(self, func: Operation) -> None:
        self.func = func
        self.layouts: dict[Value, dict[Attribute, None]] = {}
        self.original: dict[Value, Attribute] = {}

    # -- analysis

    def _add_anchor(self, value: Value) -> None:
        if is_tensor(value) and mappable(value.type.encoding, tuple(value.type.shape)):
            self.layouts.setdefault(value, {})[value.type.encoding] = None

    def init_anchors(self) -> None:
        for arg in self.func.regions[0].blocks[0].arguments:
            self._add_anchor(arg)
        for op in self.func.walk():
            if is_layout_anchor(op):
                for result in op.results:
                    self._add_anchor(result)

    def _set(self, values, encodings, op: Operation, changed: list[Value]) -> None:
        for value in values:
            if not is_tensor(value) or not mappable(value.type.encoding, tuple(value.type.shape)):
                continue
            grew = False
            for encoding in encodings:
                new = encoding if op.name == CONVERT else infer_dst_encoding(op, encoding)
                if new is None or not mappable(new, tuple(value.type.shape)):
                    continue
                slot = self.layouts.setdefault(value, {})
                if new not in slot:
                    slot[new] = None
                    grew = True
            if grew:
                changed.append(value)

    def _to_users(self, value: Value, encodings) -> list[Value]:
        changed: list[Value] = []
        for use in value.uses:
            user = use.owner
            name = user.name
            if name == "scf.for":
                first = len(user.operands) - len(user.init_args)
                k = use.index - first
                if k >= 0:
                    arg = user.region.blocks[0].arguments[k + 1]
                    self._set([arg, user.results[k]], encodings, user, changed)
            elif name == "scf.while":
                self._set([user.regions[0].blocks[0].arguments[use.index]], encodings, user,
                          changed)
            elif name == "scf.yield":
                parent = user.parent_op
                k = use.index
                if parent.name == "scf.for":
                    targets = [parent.results[k], parent.region.blocks[0].arguments[k + 1]]
                elif parent.name == "scf.if":
                    targets = [parent.results[k]]
                elif parent.name == "scf.while":
                    targets = [parent.regions[0].blocks[0].arguments[k]]
                else:
                    targets = []
                self._set(targets, encodings, user, changed)
            elif name == "scf.condition":
                loop = user.parent_op
                k = use.index - 1
                if k >= 0:
                    self._set([loop.regions[1].blocks[0].arguments[k], loop.results[k]],
                              encodings, user, changed)
            elif name == "ttng.warp_group_dot_wait":
                self._set([user.results[use.index]], encodings, user, changed)
            elif name == "tt.gather" and not user.efficient_layout:
                if use.index == 1:
                    self._set(user.results, encodings, user, changed)
            elif user.has_trait(SameOperandsAndResultEncoding) or user.has_trait(Elementwise) \
                    or name in VIEW_OPS:
                self._set(user.results, encodings, user, changed)
        return changed

    def propagate(self) -> None:
        queue = list(self.layouts)
        while queue:
            value = queue.pop()
            queue += self._to_users(value, list(self.layouts[value]))

    def resolve(self) -> None:
        for value, slot in self.layouts.items():
            if len(slot) <= 1:
                continue
            owner = value.defining_op
            memory = owner is not None and owner.name in MEMORY_OPS
            chosen = next(iter(slot))
            for encoding in slot:
                if (memory and isinstance(encoding, BlockedEncodingAttr)) or (
                        not memory and isinstance(encoding, MMA_ENCODINGS)):
                    chosen = encoding
                    break
            self.layouts[value] = {chosen: None}

    # -- rewrite

    def _layout(self, value: Value) -> Attribute | None:
        slot = self.layouts.get(value)
        return next(iter(slot)) if slot else None

    def _before(self, value: Value) -> Attribute | None:
        if not is_tensor(value):
            return None
        return self.original.get(value, value.type.encoding)

    def _set_in_place(self, value: Value, encoding: Attribute) -> None:
        self.original.setdefault(value, value.type.encoding)
        value.type = with_encoding(value.type, encoding)

    def rewrite(self) -> None:
        queue: deque[Region] = deque(self.func.regions)
        while queue:
            region = queue.popleft()
            for block in region.blocks:
                for op in list(block):
                    self._rewrite_op(op, queue)

    def _rewrite_op(self, op: Operation, queue: deque[Region]) -> None:
        moves = any(is_tensor(r) and self._layout(r) not in (None, r.type.encoding)
                    for r in op.results)
        if moves:
            self._retype(op)
            queue.extend(op.regions)
        elif op.name == "scf.yield":
            self._rewrite_yield(op)
        elif op.name == "scf.condition":
            loop = op.parent_op
            for k, value in enumerate(op.operands[1:], start=1):
                if is_tensor(loop.results[k - 1]):
                    op.set_operand(k, convert_to(value, loop.results[k - 1].type.encoding))
        elif _is_reduce_to_scalar(op) or op.name == "tt.assert":
            operands = op.operands if op.name == "tt.reduce" else op.operands[:1]
            encoding = next((self._layout(v) for v in operands if self._layout(v)), None)
            if encoding is not None:
                for k in range(len(operands)):
                    op.set_operand(k, convert_to(op.operands[k], encoding))
        else:
            for k, value in enumerate(op.operands):
                if value in self.layouts:
                    op.set_operand(k, convert_to(value, self._before(value)))
            queue.extend(op.regions)

    def _rewrite_yield(self, op: Operation) -> None:
        parent = op.parent_op
        for k, value in enumerate(op.operands):
            if parent.name in ("scf.for", "scf.if"):
                target = parent.results[k]
            elif parent.name == "scf.while":
                target = parent.regions[0].blocks[0].arguments[k]
            else:
                target = value
            if is_tensor(target):
                op.set_operand(k, convert_to(value, target.type.encoding))

    def _retype(self, op: Operation) -> None:
        name = op.name
        if name == "scf.for":
            body = op.region.blocks[0]
            first = len(op.operands) - len(op.init_args)
            for k, result in enumerate(op.results):
                encoding = self._layout(result)
                if encoding is None or not is_tensor(result):
                    continue
                op.set_operand(first + k, convert_to(op.operands[first + k], encoding))
                self._set_in_place(result, encoding)
                self._set_in_place(body.arguments[k + 1], encoding)
        elif name == "scf.while":
            before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
            for k, arg in enumerate(before.arguments):
                encoding = self._layout(arg)
                if encoding is not None:
                    op.set_operand(k, convert_to(op.operands[k], encoding))
                    self._set_in_place(arg, encoding)
            for result, arg in zip(op.results, after.arguments):
                encoding = self._layout(result)
                if encoding is not None:
                    self._set_in_place(result, encoding)
                    self._set_in_place(arg, encoding)
        elif name == "scf.if":
            for result in op.results:
                encoding = self._layout(result)
                if encoding is not None:
                    self._set_in_place(result, encoding)
        else:
            encoding = self._layout(op.results[0])
            if can_use_result_encoding(op, encoding):
                self._set_in_place(op.results[0], encoding)
                if name == "arith.constant":
                    retype_constant(op)
            else:
                self._retype_generic(op, encoding)

    def _retype_generic(self, op: Operation, encoding: Attribute) -> None:
        operand_encoding = None
        for value in op.operands:
            candidate = self._layout(value)
            if candidate is not None and infer_dst_encoding(op, candidate) == encoding:
                operand_encoding = candidate
                break
        if operand_encoding is None:
            operand_encoding = infer_src_encoding(op, encoding)
        for k, value in enumerate(op.operands):
            op.set_operand(k, convert_to(value, operand_encoding))
        for result in op.results:
            if is_tensor(result):
                self._set_in_place(result, encoding)


def propagate_layouts(func: Operation) -> None:
    """Forward layout propagation over the function ``func`` (see the module docstring)."""
    propagation = _Propagation(func)
    propagation.init_anchors()
    propagation.propagate()
    propagation.resolve()
    propagation.rewrite()
