"""`tritongpu-pipeline`: software pipelining of the loads that feed shared memory in ``scf.for``
loops, with ``cp.async`` copies into multi-buffered shared memory (sm_80+), as Triton's
pipeliner does for ``num_stages`` stages.

A load is pipelined when its only user is a ``ttg.local_alloc`` that stores it to shared memory
(a dot operand after `tritongpu-reduce-data-duplication`), it reads through a tensor of
pointers with no ``other`` or a zero one, and its groups of elements span at least 4 bytes
(what ``cp.async`` copies). Its *slice* is the load and the pure ops of the body it depends on
(addresses, masks); a loop-carried value the slice reads must be advanced by the slice alone
(``a_ptrs += ...``) and read by nothing else. With ``S`` stages, loads run ``D = S - 1``
iterations ahead into ``S`` buffers per load:

* before the loop, the slice runs for iterations ``0 .. D-1``: each copy goes to buffer ``j``
  under its mask and ``lb + j * step < ub``, and each iteration's copies form one commit group;
  the carried values the slice advances enter the loop advanced ``D`` times;
* in the loop, ``ttg.async_wait {num = D - 1}`` first (iteration ``i``'s group is complete,
  and the barrier after the wait makes every thread's copies visible), then the slice for
  iteration ``i + D`` copies into buffer ``(i + D) % S`` — the one iteration ``i - 1`` read,
  free since every thread passed the barrier — and the body reads buffer ``i % S`` where it read
  the ``local_alloc``. The buffer index is carried as one more loop value;
* after the loop, ``ttg.async_wait {num = 0}`` and the buffers are freed.

A ``tt.descriptor_load`` whose ``local_alloc`` has the descriptor's TMA layout
(`tma_lowering.tma_shared_encoding`) is pipelined the same way with TMA copies: one mbarrier per
stage (``ttng.init_barrier`` before the loop), each stage's copies issued by
``ttng.barrier_expect`` of their bytes and ``ttng.async_tma_copy_global_to_local`` on the
stage's barrier, and the body waiting for the barrier of slot ``i % S`` in the phase it is at
(``ttng.wait_barrier``; the phase, carried after the slot, flips when the slots wrap around);
the barriers are invalidated after the loop.

Each ``ttg.local_load`` of a ``cp.async`` buffer takes the wait's token, so the barrier analysis knows its
reads are ordered by the wait (`tilecraft.analysis.membar.annotate_synced_via_async_wait`). The
stage count is the pass option, or a loop's own ``tt.num_stages``; 1 leaves loops alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilecraft.dialects.foldutils import const_attr, is_zero
from tilecraft.generated.arith import (AddIOp, AndIOp, CmpIOp, CmpIPredicate, MulIOp,
                                       SelectOp, SubIOp, XOrIOp)
from tilecraft.generated.passes import TritonGPUPipelinePassBase
from tilecraft.generated.tt import SplatOp
from tilecraft.generated.ttng import (AsyncTMACopyGlobalToLocalOp, BarrierExpectOp,
                                      InitBarrierOp, InvalBarrierOp, WaitBarrierOp,
                                      WarpGroupDotWaitOp)
from tilecraft.generated.ttg import (AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp,
                                     AsyncTokenType, AsyncWaitOp, LocalAllocOp,
                                     LocalDeallocOp, LocalLoadOp, MemDescIndexOp, MemDescType)
from tilecraft.ir import (Block, BlockArgument, BoolAttr, Builder, IntegerAttr, IntegerType,
                          Operation, RankedTensorType, Value)
from tilecraft.layouts.shared import shared_vector_width
from tilecraft.transforms.accelerate_matmul import capability_of
from tilecraft.transforms.effects import is_memory_effect_free
from tilecraft.transforms.loop_unroll import NUM_STAGES
from tilecraft.transforms.tma_lowering import barrier_type, block_bytes, tma_shared_encoding
from tilecraft.transforms.transform_utils import constant_op, loop_with_iter_args

__all__ = ["TritonGPUPipelinePass", "pipeline_loop", "pipeline_loops"]

_I32 = IntegerType(32)
_I1 = IntegerType(1)


@dataclass
class _Plan:
    """What pipelining one loop moves: the loads with their ``local_alloc`` users, the ops of
    their slice (in body order), and the carried values the slice advances (by index)."""

    loads: list[tuple[Operation, Operation]]
    slice_ops: list[Operation]
    carried: list[int]


def _stages(loop: Operation, default: int) -> int:
    attr = loop.get_attr(NUM_STAGES)
    return attr.value if isinstance(attr, IntegerAttr) else default


def _is_tma(load: Operation) -> bool:
    return load.name == "tt.descriptor_load"


def _candidate(load: Operation) -> Operation | None:
    """The ``local_alloc`` a pipelinable load feeds, or None."""
    if _is_tma(load):
        return _tma_candidate(load)
    if load.name != "tt.load" or not isinstance(load.results[0].type, RankedTensorType):
        return None
    if not isinstance(load.operands[0].type, RankedTensorType):
        return None  # a block pointer
    alloc = _single_alloc_user(load)
    if alloc is None:
        return None
    if load.other is not None and not is_zero(const_attr(load.other)):
        return None
    volatile = load.get_attr("isVolatile")
    if volatile is not None and getattr(volatile, "value", False):
        return None
    return alloc


def _single_alloc_user(load: Operation) -> Operation | None:
    uses = list(load.results[0].uses)
    if len(uses) != 1 or uses[0].owner.name != "ttg.local_alloc":
        return None
    alloc = uses[0].owner
    return alloc if alloc.parent is load.parent else None


def _tma_candidate(load: Operation) -> Operation | None:
    """The ``local_alloc`` a descriptor load feeds, when TMA can fill it: its layout is the
    descriptor's TMA layout."""
    alloc = _single_alloc_user(load)
    if alloc is None:
        return None
    encoding = tma_shared_encoding(load.desc.type)
    return alloc if encoding is not None and alloc.results[0].type.encoding == encoding else None


def _copy_bytes(load: Operation, alloc: Operation, axis_info) -> int:
    """The bytes one ``cp.async`` of this load can move: the elements a thread holds
    consecutively, consecutive and aligned in global memory with one mask value (axis info)
    and in the shared buffer (its layout map)."""
    from tilecraft.analysis.axisinfo import pointee_bytes
    from tilecraft.dialects.ttg_layouts import encoding_layout, shared_layout

    pointers: RankedTensorType = load.operands[0].type
    shape = tuple(pointers.shape)
    layout = encoding_layout(pointers.encoding, shape)
    buffer = shared_layout(alloc.results[0].type.encoding, shape)
    if layout is None or buffer is None:
        return 0
    elem_bytes = pointee_bytes(pointers)
    width = axis_info.layout_vector_width(load.operands[0], layout, elem_bytes * 8,
                                          mask=load.mask)
    return min(width, shared_vector_width(buffer, layout, elem_bytes)) * elem_bytes


def _slice_of(body: Block, roots: list[Operation], loads: list[Operation]
              ) -> list[Operation] | None:
    """``roots`` and the body ops they depend on, in body order; None when one of them but
    the pipelined ``loads`` has regions or effects (an indirect load, a call): the slice runs
    iterations ahead of the body, where only the pipelined loads are masked off."""
    members: set[Operation] = set()
    work = list(roots)
    while work:
        op = work.pop()
        if op in members:
            continue
        if op not in loads and (op.regions or not is_memory_effect_free(op)):
            return None
        members.add(op)
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner.parent is body:
                work.append(owner)
    return [op for op in body if op in members]


def _depends_on(value: Value, args: set[Value], body: Block, seen: dict) -> bool:
    if value in args:
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent is not body:
        return False
    if owner in seen:
        return seen[owner]
    seen[owner] = False
    result = any(_depends_on(v, args, body, seen) for v in owner.operands)
    seen[owner] = result
    return result


def _plan(loop: Operation, axis_info) -> _Plan | None:
    body = loop.regions[0].blocks[0]
    yield_op = body.last_op
    pairs = []
    for op in body:
        alloc = _candidate(op)
        if alloc is not None and (_is_tma(op) or _copy_bytes(op, alloc, axis_info) >= 4):
            pairs.append((op, alloc))
    if not pairs:
        return None
    loads = [load for load, _ in pairs]
    slice_ops = _slice_of(body, loads, loads)
    if slice_ops is None:
        return None
    members = set(slice_ops)
    iter_args = body.arguments[1:]
    carried = [k for k, arg in enumerate(iter_args)
               if any(use.owner in members for use in arg.uses)]
    # what advances those values joins the slice
    extra = [yield_op.operands[k] for k in carried]
    advance = _slice_of(body, [v.owner for v in extra
                               if isinstance(v.owner, Operation) and v.owner.parent is body],
                        loads)
    if advance is None:
        return None
    members |= set(advance)
    # the slice may read only the values it advances itself (or values from outside)
    for op in list(members):
        for operand in op.operands:
            if isinstance(operand, BlockArgument) and operand.owner is body and operand.index:
                if operand.index - 1 not in carried:
                    carried.append(operand.index - 1)
    for k in carried:
        value = yield_op.operands[k]
        owner = value.owner
        inside = isinstance(owner, Operation) and owner.parent is body
        if inside and owner not in members:
            return None
        if isinstance(value, BlockArgument) and value.owner is body and value is not iter_args[k]:
            return None
        for use in iter_args[k].uses:
            if use.owner is not yield_op and use.owner not in members:
                return None
    # ops outside the slice may use slice values only where they do not depend on the
    # advanced values (the originals stay for them; the slice itself is cloned)
    advanced = {iter_args[k] for k in carried}
    allocs = {alloc for _, alloc in pairs}
    seen: dict = {}
    for op in body:
        if op in members or op is yield_op or op in allocs:
            continue
        for operand in op.operands:
            owner = operand.owner
            if (isinstance(owner, Operation) and owner in members
                    and _depends_on(operand, advanced, body, seen)):
                return None
    return _Plan(pairs, [op for op in body if op in members], sorted(carried))


def _token() -> AsyncTokenType:
    return AsyncTokenType()


def _in_range(loop: Operation, builder: Builder, iv: Value) -> Value:
    """``iv < ub`` (unsigned for an unsigned loop)."""
    predicate = (CmpIPredicate.ult if loop.get_attr("unsignedCmp") is not None
                 else CmpIPredicate.slt)
    return builder.insert(CmpIOp.build(iv, loop.operands[1], predicate,
                                       location=loop.location)).results[0]


def _i32(builder: Builder, value: int, location) -> Value:
    return builder.insert(constant_op(value, _I32, location)).results[0]


def _buffer_view(builder: Builder, buffer: Value, slot: Value, location) -> Value:
    """``ttg.memdesc_index`` of buffer ``slot`` of a multi-buffered allocation."""
    buffer_type: MemDescType = buffer.type
    view_type = MemDescType(buffer_type.shape[1:], buffer_type.element_type,
                            buffer_type.encoding, buffer_type.memory_space, True)
    return builder.insert(MemDescIndexOp.build(view_type, buffer, slot,
                                               location=location)).results[0]


def _reads_stable_memory(dot: Operation, body: Block, allocs: set[Value]) -> bool:
    """Whether the dot's shared-memory operands are pipelined buffers or defined before the
    loop (what the dot reads then stays put while it runs)."""
    for operand in dot.operands[:2]:
        if not isinstance(operand.type, MemDescType) or operand in allocs:
            continue
        owner = operand.owner
        if isinstance(owner, Operation) and body.parent_op.is_ancestor(owner):
            return False
    return True


def _async_dots(body: Block, plan: _Plan) -> list[Operation] | None:
    """The ``ttng.warp_group_dot`` ops of the body, made asynchronous as Triton's pipeliner
    does, or None to leave them synchronous. They read pipelined buffers or memory from before
    the loop, and the last one makes a carried f32 or i32 value that only the yield takes
    (alone, it adds into that value itself). Every earlier dot's result is needed right away: a wait for all dots follows it,
    which also waits for the last dot of the iteration before (the carried accumulator passes
    through it, so every later read of it comes after)."""
    allocs = {alloc.results[0] for _, alloc in plan.loads}
    yield_op = body.last_op
    dots = [op for op in body if op.name == "ttng.warp_group_dot"]
    if not dots:
        return None
    last = dots[-1]
    uses = list(last.results[0].uses)
    if len(uses) != 1 or uses[0].owner is not yield_op:
        return None
    carried = body.arguments[uses[0].index + 1]
    if len(dots) == 1 and last.operands[2] is not carried:
        return None
    order = {op: index for index, op in enumerate(body)}
    for dot in dots:
        if dot.use_c is not None or not _reads_stable_memory(dot, body, allocs):
            return None
        if str(dot.results[0].type.element_type) not in ("f32", "i32"):
            return None  # f16 accumulators are packed around each dot: they stay synchronous
    if len(dots) == 1 and not all(operand in allocs for operand in last.operands[:2]):
        return None
    first_read = min((order[use.owner] for use in carried.uses if use.owner in order),
                     default=len(order))
    if any(order[dot] >= first_read for dot in dots[:-1]):
        return None  # the accumulator is read before the wait that would follow a dot
    return dots


def _make_async(dots: list[Operation], body: Block) -> Operation:
    """Makes ``dots`` (see `_async_dots`) asynchronous; returns the op after which the next
    copies go. One dot: a wait leaving it alone in flight follows it (the dot of the iteration
    before, which read the slot the copies fill, is then done). Several: a wait for all
    follows each but the last, and the copies go right after the first wait, which finished
    the dots of the iteration before (so they overlap the rest of the body; with two stages,
    at the end they would overlap only the last dot)."""
    for dot in dots:
        dot.properties["isAsync"] = BoolAttr(True)
    last = dots[-1]
    if len(dots) == 1:
        waited = Builder.after(last, last.location).insert(WarpGroupDotWaitOp.build(
            [last.results[0].type], 1, [last.results[0]], location=last.location))
        last.results[0].replace_uses_with_if(waited.results[0],
                                             lambda use: use.owner is not waited)
        return waited
    carried = body.arguments[next(iter(last.results[0].uses)).index + 1]
    waits = []
    for dot in dots[:-1]:
        values = [dot.results[0], carried]
        wait = Builder.after(dot, dot.location).insert(WarpGroupDotWaitOp.build(
            [v.type for v in values], 0, values, location=dot.location))
        dot.results[0].replace_uses_with_if(wait.results[0], lambda use, w=wait: use.owner is not w)
        carried.replace_uses_with_if(wait.results[1], lambda use, w=wait: use.owner is not w)
        carried = wait.results[1]
        waits.append(wait)
    return waits[0]


def _emit_stage(builder: Builder, plan: _Plan, mapping: dict, buffers: list[Value],
                slot: Value, in_range: Value, barriers: Value | None) -> None:
    """Clones the slice through ``mapping`` at ``builder``'s point, each load as an
    asynchronous copy into buffer ``slot`` masked by ``in_range`` too: ``cp.async`` copies
    committed as one group, TMA copies completing barrier ``slot`` of ``barriers``, which
    expects their bytes first."""
    loads = {load: index for index, (load, _) in enumerate(plan.loads)}
    tokens = []
    barrier = None
    for op in plan.slice_ops:
        if op not in loads:
            builder.insert(op.clone(mapping))
            continue
        location = op.location
        view = _buffer_view(builder, buffers[loads[op]], slot, location)
        if _is_tma(op):
            if barrier is None:
                barrier = _buffer_view(builder, barriers, slot, location)
                size = sum(block_bytes(load.desc.type) for load, _ in plan.loads
                           if _is_tma(load))
                builder.insert(BarrierExpectOp.build(barrier, in_range, size,
                                                     location=location))
            builder.insert(AsyncTMACopyGlobalToLocalOp.build(
                op.desc, barrier, view, in_range,
                coord=[mapping.get(v, v) for v in op.indices], location=location))
            continue
        load_type: RankedTensorType = op.results[0].type
        mask_type = RankedTensorType(load_type.shape, _I1, load_type.encoding)
        mask = builder.insert(SplatOp.build(mask_type, in_range, location=location)).results[0]
        if op.mask is not None:
            mask = builder.insert(AndIOp.build(mapping.get(op.mask, op.mask), mask,
                                               location=location)).results[0]
        copy = AsyncCopyGlobalToLocalOp.build(
            mapping.get(op.operands[0], op.operands[0]), view, _token(), mask,
            cache=op.get_attr("cache"), evict=op.get_attr("evict"),
            is_volatile=op.get_attr("isVolatile"), location=location)
        tokens.append(builder.insert(copy).results[0])
    if tokens:
        builder.insert(AsyncCommitGroupOp.build(_token(), tokens,
                                                location=plan.slice_ops[0].location))


def _buffers(loop: Operation, plan: _Plan, stages: int) -> list[Value]:
    """One multi-buffered allocation per load, before the loop."""
    builder = Builder.before(loop, loop.location)
    buffers = []
    for load, alloc in plan.loads:
        single: MemDescType = alloc.results[0].type
        buffer_type = MemDescType((stages, *single.shape), single.element_type,
                                  single.encoding, single.memory_space, True)
        buffers.append(builder.insert(LocalAllocOp.build(buffer_type,
                                                         location=load.location)).results[0])
    return buffers


def _barriers(builder: Builder, plan: _Plan, stages: int, location) -> Value | None:
    """One initialized mbarrier per stage for the TMA copies, before the loop (None when the
    loop has none)."""
    if not any(_is_tma(load) for load, _ in plan.loads):
        return None
    barriers = builder.insert(LocalAllocOp.build(barrier_type(stages),
                                                 location=location)).results[0]
    for index in range(stages):
        view = _buffer_view(builder, barriers, _i32(builder, index, location), location)
        builder.insert(InitBarrierOp.build(view, 1, location=location))
    return barriers


def pipeline_loop(loop: Operation, plan: _Plan, stages: int) -> Operation:
    """Pipelines ``loop`` by ``plan`` over ``stages`` stages (see the module docstring);
    returns the new loop."""
    distance = stages - 1
    location = loop.location
    body = loop.regions[0].blocks[0]
    iv, iter_args = body.arguments[0], list(body.arguments[1:])
    yield_op = body.last_op
    lb, step = loop.operands[0], loop.operands[2]
    inits = list(loop.operands[3:])
    buffers = _buffers(loop, plan, stages)
    before = Builder.before(loop, location)
    copies = any(not _is_tma(load) for load, _ in plan.loads)
    barriers = _barriers(before, plan, stages, location)

    # prologue: iterations 0 .. distance-1
    carried_values = {k: inits[k] for k in plan.carried}
    for j in range(distance):
        mapping = {arg: carried_values[k] for k, arg in enumerate(iter_args)
                   if k in carried_values}
        iv_j = lb
        if j:
            offset = before.insert(constant_op(j, iv.type, location)).results[0]
            scaled = before.insert(MulIOp.build(step, offset, location=location)).results[0]
            iv_j = before.insert(AddIOp.build(lb, scaled, location=location)).results[0]
        mapping[iv] = iv_j
        _emit_stage(before, plan, mapping, buffers, _i32(before, j, location),
                    _in_range(loop, before, iv_j), barriers)
        carried_values = {k: mapping.get(yield_op.operands[k], yield_op.operands[k])
                          for k in plan.carried}
    new_inits = [carried_values.get(k, init) for k, init in enumerate(inits)]

    # the loop, with the slot of iteration i and the phase of its barrier carried last
    zero = _i32(before, 0, location)
    new_loop = loop_with_iter_args(loop, new_inits + [zero] * (1 if barriers is None else 2))
    slot = body.add_argument(_I32, location)
    phase = None if barriers is None else body.add_argument(_I32, location)
    start = Builder.at_start(body, location)
    wait = None
    if copies:
        wait = start.insert(AsyncWaitOp.build(max(distance - 1, 0), _token(),
                                              location=location)).results[0]
    if barriers is not None:
        start.insert(WaitBarrierOp.build(_buffer_view(start, barriers, slot, location), phase,
                                         location=location))
    dots = _async_dots(body, plan)
    if dots is not None:
        # the dots run on while the next copies are issued
        accumulated = next(iter(dots[-1].results[0].uses)).index
        start = Builder.after(_make_async(dots, body), location)
    # the copies of iteration i + distance, into the slot iteration i - 1 read
    mapping: dict = {}
    shift = start.insert(constant_op(distance, iv.type, location)).results[0]
    ahead = start.insert(AddIOp.build(iv, start.insert(
        MulIOp.build(step, shift, location=location)).results[0], location=location)).results[0]
    mapping[iv] = ahead
    last = _i32(start, stages - 1, location)
    is_first = start.insert(CmpIOp.build(slot, _i32(start, 0, location), CmpIPredicate.eq,
                                         location=location)).results[0]
    previous = start.insert(SubIOp.build(slot, _i32(start, 1, location),
                                         location=location)).results[0]
    insert_slot = start.insert(SelectOp.build(is_first, last, previous,
                                              location=location)).results[0]
    _emit_stage(start, plan, mapping, buffers, insert_slot, _in_range(loop, start, ahead),
                barriers)
    # the body reads the slot of iteration i
    for (load, alloc), buffer in zip(plan.loads, buffers):
        view = _buffer_view(Builder.before(alloc, alloc.location), buffer, slot,
                            alloc.location)
        for use in list(alloc.results[0].uses):
            user = use.owner
            if isinstance(user, LocalLoadOp) and user.token is None and not _is_tma(load):
                replacement = Builder.before(user, user.location).insert(
                    LocalLoadOp.build(user.results[0].type, view, wait,
                                      attributes=dict(user.attributes),
                                      location=user.location))
                user.results[0].replace_all_uses_with(replacement.results[0])
                user.erase()
            else:
                use.set(view)
        alloc.erase()
        load.erase()
    # the advanced values come from the clones; the slot moves on
    end = Builder.before(yield_op, location)
    following = end.insert(AddIOp.build(slot, _i32(end, 1, location),
                                        location=location)).results[0]
    wraps = end.insert(CmpIOp.build(following, _i32(end, stages, location), CmpIPredicate.eq,
                                    location=location)).results[0]
    next_slot = end.insert(SelectOp.build(wraps, _i32(end, 0, location), following,
                                          location=location)).results[0]
    operands = list(yield_op.operands)
    for k in plan.carried:
        operands[k] = mapping.get(operands[k], operands[k])
    operands.append(next_slot)
    if phase is not None:
        # the barrier of the slot completes its next phase once the slots wrap around
        flipped = end.insert(XOrIOp.build(phase, _i32(end, 1, location),
                                          location=location)).results[0]
        operands.append(end.insert(SelectOp.build(wraps, flipped, phase,
                                                  location=location)).results[0])
    yield_op.set_operands(operands)
    _erase_dead(reversed(plan.slice_ops))
    for index, result in enumerate(loop.results):
        result.replace_all_uses_with(new_loop.results[index])
    loop.erase()

    # drain, then free the buffers
    after = Builder.after(new_loop, location)
    if dots is not None:
        result = new_loop.results[accumulated]
        done = after.insert(WarpGroupDotWaitOp.build([result.type], 0, [result],
                                                     location=location))
        result.replace_uses_with_if(done.results[0], lambda use: use.owner is not done)
    if copies:
        after.insert(AsyncWaitOp.build(0, _token(), location=location))
    if barriers is not None:
        for index in range(stages):
            view = _buffer_view(after, barriers, _i32(after, index, location), location)
            after.insert(InvalBarrierOp.build(view, location=location))
        after.insert(LocalDeallocOp.build(barriers, location=location))
    for buffer in buffers:
        after.insert(LocalDeallocOp.build(buffer, location=location))
    return new_loop


def _erase_dead(ops) -> None:
    """Erases the ops (the original slice) that nothing reads any more."""
    for op in ops:
        if op.parent is not None and all(not r.uses for r in op.results):
            op.erase()


def pipeline_loops(module: Operation, num_stages: int) -> int:
    """Pipelines every innermost ``scf.for`` of ``module`` that has loads to pipeline, on
    targets with ``cp.async`` (sm_80+); returns how many loops were pipelined."""
    from tilecraft.analysis.axisinfo import AxisInfoAnalysis

    capability = capability_of(module)
    if capability is None or capability < 80:
        return 0
    loops = [op for op in module.walk() if op.name == "scf.for"
             and not any(inner.name == "scf.for" for inner in op.walk() if inner is not op)]
    axis_info = None
    count = 0
    for loop in loops:
        stages = _stages(loop, num_stages)
        if stages < 2:
            continue
        axis_info = axis_info or AxisInfoAnalysis(module)
        plan = _plan(loop, axis_info)
        if plan is None:
            continue
        pipeline_loop(loop, plan, stages)
        count += 1
    return count


class TritonGPUPipelinePass(TritonGPUPipelinePassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        pipeline_loops(op, self.num_stages)
