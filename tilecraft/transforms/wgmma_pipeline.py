"""Asynchronous ``wgmma`` in a loop pipelined by its schedule, as Triton's pipeliner does after
expanding the loop (its ``asyncLaunchDots``).

Every ``ttng.warp_group_dot`` of the loop body becomes asynchronous. A dot is *properly*
asynchronous when its memory operands (through layout conversions and memory views) are
buffers indexed by the pipeliner (``ttg.memdesc_index``), defined before the loop, or carried
by it; its result only reaches the yield (directly, through no-op ops — ``tt.reshape``,
``tt.trans``, a ``ttg.convert_layout`` moving no data — or through an ``scf.if``'s yield)
into one loop-carried f32 accumulator; and that accumulator is only read as the accumulator
of ``wgmma`` ops, through no-op ops (or only after a ``ttng.warp_group_dot_wait {pendings =
0}`` of the body, through which it is then threaded). Any other dot is waited for right after
it.

For the ``n`` properly asynchronous dots, when the body has no wait for all dots yet: a wait
for all of them goes before the first read of a result that is not a ``wgmma`` accumulator; a
dot whose A operand is computed in registers in the loop (not converted from an mma layout) is
followed by a wait leaving ``n - 1`` in flight (it must not overwrite the registers of its
previous iteration's instance); otherwise the last dot is followed by a wait leaving ``n`` in
flight. After the loop, a wait for all of them. Each wait threads the values it orders: the
dots' results, and the memory descriptors the dots they depend on read (so nothing reuses
that memory before the wait); later uses of threaded tensors read the wait's results.

Before the waits go in (when the body has no wait for all dots), a properly asynchronous dot
whose A operand is in registers and spans more than one instruction's K is split along K in
two dots, the second accumulating onto the first: A's halves come from ``tt.reshape``,
``tt.trans`` and ``tt.split`` (register moves only), B's from ``ttg.memdesc_subslice``; each
half then waits only for its previous iteration's instance.
"""

from __future__ import annotations

from tilecraft.dialects.ttg_inference import reshape_encoding, split_encoding, trans_encoding
from tilecraft.generated.tt import ReshapeOp, SplitOp, TransOp
from tilecraft.generated.ttg import (ConvertLayoutOp, MemDescSubsliceOp, MemDescType,
                                     NvidiaMmaEncodingAttr)
from tilecraft.generated.ttng import WarpGroupDotOp, WarpGroupDotWaitOp
from tilecraft.ir import BlockArgument, BoolAttr, Builder, Operation, RankedTensorType, Value
from tilecraft.transforms.loop_schedule import ancestor_in_block, body_of

__all__ = ["launch_async_dots", "thread_through_wait"]

_WGMMA = "ttng.warp_group_dot"
_WAIT = "ttng.warp_group_dot_wait"
_OPERAND_VIEWS = ("ttg.convert_layout", "ttg.memdesc_trans", "ttg.memdesc_reshape",
                  "ttg.memdesc_subslice")


def thread_through_wait(wait: Operation, values: list[Value]) -> Operation:
    """Replaces ``wait`` by a wait also ordering ``values`` and the memory descriptors read by
    the dots they come from (in the wait's block); uses after the wait of the tensors it
    orders read its results instead. Returns the new wait."""
    block = wait.parent
    operands = list(wait.operands)
    for value in values:
        if value not in operands:
            operands.append(value)
    dots: list[Operation] = []
    seen: set[Operation] = set()
    work = [v.owner for v in values if isinstance(v.owner, Operation)]
    while work:
        op = work.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.name == _WGMMA:
            dots.append(op)
            continue
        if op.parent is not block:
            continue
        work.extend(v.owner for v in op.operands if isinstance(v.owner, Operation))
    for dot in sorted(dots, key=lambda op: list(op.parent).index(op)):
        for operand in dot.operands:
            if isinstance(operand.type, MemDescType) and operand not in operands:
                operands.append(operand)
    new = Builder.before(wait, wait.location).insert(WarpGroupDotWaitOp.build(
        [v.type for v in operands], wait.get_attr("pendings"), operands,
        location=wait.location))
    for old, result in zip(wait.results, new.results):
        if not isinstance(old.type, MemDescType):
            old.replace_all_uses_with(result)
    order = {op: index for index, op in enumerate(block)}
    for value, result in list(zip(new.operands, new.results))[len(wait.operands):]:
        if isinstance(value.type, MemDescType):
            continue
        value.replace_uses_with_if(result, lambda use: _after(use.owner, new, block, order))
    wait.erase()
    return new


def _after(user: Operation, wait: Operation, block, order: dict) -> bool:
    owner = ancestor_in_block(user, block)
    return owner is not None and owner is not wait and owner in order \
        and order[owner] > order.get(wait, -1)


def _stable_operand(value: Value, loop: Operation) -> bool:
    """Whether a dot operand stays put while the dot runs on: a tensor (registers), or memory
    defined outside the loop, indexed by the pipeliner, or carried (through views)."""
    if isinstance(value.type, RankedTensorType):
        return True
    body = body_of(loop)
    seen: set[BlockArgument] = set()
    while True:
        owner = value.owner
        if isinstance(owner, Operation):
            if not loop.is_ancestor(owner):
                return True
            if owner.name in _OPERAND_VIEWS:
                value = owner.operands[0]
                continue
            return owner.name == "ttg.memdesc_index"
        if owner is not body or value in seen:
            return True  # defined outside the loop, or a cycle of carried views
        if value.index == 0:
            return True
        seen.add(value)
        value = body.last_op.operands[value.index - 1]


def _accumulator_index(dot: Operation, loop: Operation) -> int | None:
    """The loop-carried value the dot's result reaches (directly or through the yields of
    ``scf.if`` ops; other reads inside an ``scf.if`` are allowed), or None when there is not
    exactly one or the result is read otherwise in the body."""
    body = body_of(loop)
    found = None
    work = [(use.owner, use.index) for use in dot.results[0].uses]
    while work:
        user, index = work.pop()
        if user.parent is body and _is_noop(user):
            work.extend((use.owner, use.index) for use in user.results[0].uses)
            continue
        if user.parent is body:
            if user is not body.last_op or found is not None:
                return None
            found = index
            continue
        parent = user.parent_op
        if parent is None or parent.name != "scf.if":
            return None
        if user.name == "scf.yield":
            work.extend((use.owner, use.index) for use in parent.results[index].uses)
    return found


def _properly_async(dot: Operation, loop: Operation) -> int | None:
    body = body_of(loop)
    if not all(_stable_operand(v, loop) for v in dot.operands[:2]):
        return None
    index = _accumulator_index(dot, loop)
    if index is None or str(dot.operands[2].type.element_type) != "f32":
        return None
    carried = body.arguments[index + 1]
    if all(_feeds_accumulator(use) for use in carried.uses):
        return index
    waits = [op for op in body if op.name == _WAIT and op.get_attr("pendings").value == 0]
    order = {op: position for position, op in enumerate(body)}
    if waits and all(order[waits[0]] < order[ancestor_in_block(use.owner, body)]
                     for use in carried.uses):
        thread_through_wait(waits[0], [carried])
        return index
    return None


def _is_noop(op: Operation) -> bool:
    """A ``tt.reshape``, a ``tt.trans``, or a ``ttg.convert_layout`` that moves no data."""
    if op.name in ("tt.reshape", "tt.trans"):
        return True
    if op.name != "ttg.convert_layout":
        return False
    from tilecraft.dialects.ttg_layouts import encoding_layout
    from tilecraft.layouts.conversion import conversion_plan

    src, dst = op.operands[0].type, op.results[0].type
    shape = tuple(src.shape)
    src_layout, dst_layout = encoding_layout(src.encoding, shape), encoding_layout(
        dst.encoding, shape)
    return (src_layout is not None and dst_layout is not None
            and conversion_plan(src_layout, dst_layout).kind == "none")


def _feeds_accumulator(use) -> bool:
    """Whether the use is a ``wgmma``'s accumulator, directly or through no-op ops."""
    user = use.owner
    if user.name == _WGMMA:
        return use.index == 2
    return _is_noop(user) and all(_feeds_accumulator(u) for u in user.results[0].uses)


def _register_a_needs_wait(dot: Operation, loop: Operation) -> bool:
    """Whether the dot's A operand is computed in registers in the loop (not converted from
    an mma layout): the dot must wait for its previous iteration's instance."""
    a = dot.operands[0]
    owner = a.owner
    scope = owner if isinstance(owner, Operation) else owner.parent_op
    if not isinstance(a.type, RankedTensorType) or not loop.is_ancestor(scope):
        return False
    if isinstance(owner, Operation) and owner.name == "ttg.convert_layout":
        return not isinstance(owner.operands[0].type.encoding, NvidiaMmaEncodingAttr)
    return True


def _wait_after(op: Operation, pendings: int, values: list[Value]) -> Operation:
    wait = Builder.after(op, op.location).insert(
        WarpGroupDotWaitOp.build([], pendings, [], location=op.location))
    return thread_through_wait(wait, values)


def launch_async_dots(loop: Operation) -> Operation:
    """Makes the ``wgmma`` of ``loop`` asynchronous (see the module docstring); returns the
    loop."""
    body = body_of(loop)
    proper: dict[Operation, int] = {}
    for dot in [op for op in body if op.name == _WGMMA]:
        dot.properties["isAsync"] = BoolAttr(True)
        index = _properly_async(dot, loop)
        if index is None:
            _wait_after(dot, 0, [dot.results[0]])
        else:
            proper[dot] = index
    if not proper:
        return loop
    if not any(op.name == _WAIT and op.get_attr("pendings").value == 0 for op in body):
        proper = {half: index for dot, index in proper.items()
                  for half in _split_register_dot(dot)}
    _waits_in_loop(loop, proper)
    after = Builder.after(loop, loop.location)
    wait = after.insert(WarpGroupDotWaitOp.build([], 0, [], location=loop.location))
    thread_through_wait(wait, [loop.results[index] for index in proper.values()])
    return loop


def _waits_in_loop(loop: Operation, proper: dict[Operation, int]) -> None:
    body = body_of(loop)
    if any(op.name == _WAIT and op.get_attr("pendings").value == 0 for op in body):
        return
    for dot in proper:
        blocks: dict = {}
        for use in dot.results[0].uses:
            if use.owner.name != "scf.yield":
                blocks.setdefault(use.owner.parent, []).append(use)
        for block, uses in blocks.items():
            order = {op: position for position, op in enumerate(block)}
            reads = sorted(uses, key=lambda use: order[use.owner])
            rest = [use for use in reads if not (use.owner.name == _WGMMA and use.index == 2)]
            if rest:
                first = rest[0].owner
                wait = Builder.before(first, first.location).insert(
                    WarpGroupDotWaitOp.build([], 0, [], location=first.location))
                thread_through_wait(wait, [dot.results[0]])
    count = len(proper)
    for dot in proper:
        if _register_a_needs_wait(dot, loop):
            _wait_after(dot, count - 1, [dot.results[0]])
    last = list(proper)[-1]
    if not _register_a_needs_wait(last, loop):
        _wait_after(last, count, [dot.results[0] for dot in proper])


def _split_register_dot(dot: Operation) -> list[Operation]:
    """The dot split along K in two when its A is in registers and K is more than one
    instruction's (see the module docstring); ``[dot]`` otherwise or when a layout of the
    halves cannot be found."""
    a, b = dot.operands[0], dot.operands[1]
    a_type = a.type
    if not isinstance(a_type, RankedTensorType) or not isinstance(b.type, MemDescType):
        return [dot]
    m, k = a_type.shape
    if k <= dot.results[0].type.encoding.instr_shape[2]:
        return [dot]
    half = k // 2
    wide, turned = (m, 2, half), (m, half, 2)
    wide_encoding = reshape_encoding(a_type.encoding, (m, k), wide)
    turned_encoding = wide_encoding and trans_encoding(wide_encoding, wide, (0, 2, 1))
    halves_encoding = turned_encoding and split_encoding(turned_encoding, turned)
    if halves_encoding is None:
        return [dot]
    at = Builder.before(dot, dot.location)
    element = a_type.element_type
    reshaped = at.insert(ReshapeOp.build(RankedTensorType(wide, element, wide_encoding), a,
                                         location=dot.location)).results[0]
    swapped = at.insert(TransOp.build(RankedTensorType(turned, element, turned_encoding),
                                      reshaped, (0, 2, 1), location=dot.location)).results[0]
    halves_type = RankedTensorType((m, half), element, halves_encoding)
    pieces = at.insert(SplitOp.build(halves_type, halves_type, swapped,
                                     location=dot.location)).results
    operand_type = RankedTensorType((m, half), element, a_type.encoding)
    lhs = [at.insert(ConvertLayoutOp.build(operand_type, piece, location=dot.location)
                     ).results[0] for piece in pieces]
    b_type: MemDescType = b.type
    rhs_type = MemDescType((half, b_type.shape[1]), b_type.element_type, b_type.encoding,
                           b_type.memory_space, b_type.mutable_memory,
                           b_type.alloc_shape or b_type.shape)
    rhs = [at.insert(MemDescSubsliceOp.build(rhs_type, b, (index * half, 0),
                                             location=dot.location)).results[0]
           for index in range(2)]
    accumulator, use_c = dot.operands[2], dot.use_c
    left = dot.max_num_imprecise_acc
    dots = []
    for index in range(2):
        take = min(left, half)
        left -= take
        new = at.insert(WarpGroupDotOp.build(
            lhs[index], rhs[index], accumulator, dot.results[0].type, use_c,
            dot.get_attr("inputPrecision"), 1 << 30 if take == half else take,
            True, location=dot.location))
        dots.append(new)
        accumulator, use_c = new.results[0], None
    dot.results[0].replace_all_uses_with(dots[-1].results[0])
    dot.erase()
    return dots
