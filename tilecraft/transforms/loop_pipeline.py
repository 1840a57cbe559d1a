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

**A loop that carries a schedule** (``tt.scheduled_max_stage``, from
`tritongpu-schedule-loops`; then a module without a target is taken for sm_80+) is pipelined by
it, in Triton's form (`pipeline_plan.scheduled_plan` says what moves): the loads of its first
stage whose users run ``D`` stages later go ``D`` iterations ahead, whatever reads them (a
``local_alloc`` of the buffer's layout becomes the buffer; other users read it with a
``ttg.local_load``); the copies in the loop go where the schedule's clusters put them, before
the first op of a later cluster than theirs, into ``D`` buffers when every read of the buffers
comes before that point, else ``D + 1`` (also when a ``wgmma`` reads one). Each ``cp.async``
copy is a commit group of its own, carrying the load's ``other`` and contiguity; the newest
groups' tokens are carried to the wait, which comes right before the first user of a buffer;
the slot to fill and the slot to read are two counters (``D - 1`` and ``-1`` before the loop),
each moved on where it is used.

Last, as Triton's pipeliner does for every loop of at least one stage (its own
``tt.num_stages``, else the pass's), the ``wgmma`` ops of each loop are made asynchronous
(`wgmma_pipeline.launch_async_dots`): loops pipelined by a schedule, and loops not pipelined at
all (no loads to pipeline, one stage, outer loops), whose dots are then waited for at once
unless their shared-memory operands stay put (defined before the loop, or carried by it). The
loops pipelined without a schedule keep the asynchronous dots of their own form (above). The
schedule attributes are removed.

Then the descriptor stores of every loop of more than one stage are made asynchronous
(`tma_store_pipeline`, Triton's ``pipelineTMAStores``).
"""

from __future__ import annotations

from tilecraft.generated.arith import (AddIOp, AndIOp, CmpIOp, CmpIPredicate, MulIOp,
                                       SelectOp, SubIOp, XOrIOp)
from tilecraft.generated.passes import TritonGPUPipelinePassBase
from tilecraft.generated.tt import SplatOp
from tilecraft.generated.ttng import (AsyncTMACopyGlobalToLocalOp, BarrierExpectOp,
                                      InitBarrierOp, InvalBarrierOp, WaitBarrierOp,
                                      WarpGroupDotWaitOp)
from tilecraft.generated.ttg import (AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp,
                                     AsyncTokenType, AsyncWaitOp, LocalAllocOp,
                                     LocalDeallocOp, LocalLoadOp, MemDescIndexOp, MemDescType,
                                     SharedMemorySpaceAttr)
from tilecraft.ir import (Block, BoolAttr, Builder, IntegerType, Operation, RankedTensorType,
                          Value)
from tilecraft.transforms.accelerate_matmul import capability_of
from tilecraft.transforms.loop_schedule import LoopSchedule, ancestor_in_block, strip_schedule
from tilecraft.transforms.pipeline_plan import (Plan, candidates, is_tma, plan_loop,
                                                scheduled_plan, stages_of, users_in)
from tilecraft.transforms.tma_lowering import barrier_type, block_bytes
from tilecraft.transforms.tma_store_pipeline import pipeline_tma_stores
from tilecraft.transforms.transform_utils import (constant_op, increment_modulo,
                                                  loop_with_iter_args)
from tilecraft.transforms.wgmma_pipeline import launch_async_dots

__all__ = ["TritonGPUPipelinePass", "pipeline_loop", "pipeline_loops"]

_I32 = IntegerType(32)
_I1 = IntegerType(1)


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


def _async_dots(body: Block, plan: Plan) -> list[Operation] | None:
    """The ``ttng.warp_group_dot`` ops of the body, made asynchronous as Triton's pipeliner
    does, or None to leave them synchronous. They read pipelined buffers or memory from before
    the loop, and the last one makes a carried f32 or i32 value that only the yield takes
    (alone, it adds into that value itself). Every earlier dot's result is needed right away: a wait for all dots follows it,
    which also waits for the last dot of the iteration before (the carried accumulator passes
    through it, so every later read of it comes after)."""
    allocs = {alloc.results[0] for _, alloc in plan.loads if alloc is not None}
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


def _emit_stage(builder: Builder, plan: Plan, mapping: dict, buffers: list[Value],
                slot: Value, in_range: Value, barriers: Value | None,
                triton_form: bool = False) -> list[Value]:
    """Clones the slice through ``mapping`` at ``builder``'s point, each load as an
    asynchronous copy into buffer ``slot`` masked by ``in_range`` too: ``cp.async`` copies
    committed as one group (in ``triton_form``, one group each, with the load's ``other``
    and contiguity), TMA copies completing barrier ``slot`` of ``barriers``, which expects
    their bytes first. Returns the tokens of the groups."""
    loads = {load: index for index, (load, _) in enumerate(plan.loads)}
    tokens = []
    barrier = None
    for op in plan.slice_ops:
        if op not in loads:
            builder.insert(op.clone(mapping))
            continue
        location = op.location
        view = _buffer_view(builder, buffers[loads[op]], slot, location)
        if is_tma(op):
            if barrier is None:
                barrier = _buffer_view(builder, barriers, slot, location)
                size = sum(block_bytes(load.desc.type) for load, _ in plan.loads
                           if is_tma(load))
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
        other = mapping.get(op.other, op.other) if triton_form else None
        copy = AsyncCopyGlobalToLocalOp.build(
            mapping.get(op.operands[0], op.operands[0]), view, _token(), mask, other,
            cache=op.get_attr("cache"), evict=op.get_attr("evict"),
            is_volatile=op.get_attr("isVolatile"), contiguity=plan.contiguity.get(op),
            location=location)
        tokens.append(builder.insert(copy).results[0])
        if triton_form:
            tokens[-1] = builder.insert(AsyncCommitGroupOp.build(
                _token(), [tokens[-1]], location=location)).results[0]
    if tokens and not triton_form:
        tokens = [builder.insert(AsyncCommitGroupOp.build(
            _token(), tokens, location=plan.slice_ops[0].location)).results[0]]
    return tokens


def _buffers(loop: Operation, plan: Plan, stages: int) -> list[Value]:
    """One multi-buffered allocation per load, before the loop."""
    builder = Builder.before(loop, loop.location)
    buffers = []
    for (load, _), encoding in zip(plan.loads, plan.encodings):
        shape = tuple(load.results[0].type.shape)
        buffer_type = MemDescType((stages, *shape), load.results[0].type.element_type,
                                  encoding, SharedMemorySpaceAttr(), True)
        buffers.append(builder.insert(LocalAllocOp.build(buffer_type,
                                                         location=load.location)).results[0])
    return buffers


def _barriers(builder: Builder, plan: Plan, stages: int, location) -> Value | None:
    """One initialized mbarrier per stage for the TMA copies, before the loop (None when the
    loop has none)."""
    if not any(is_tma(load) for load, _ in plan.loads):
        return None
    barriers = builder.insert(LocalAllocOp.build(barrier_type(stages),
                                                 location=location)).results[0]
    for index in range(stages):
        view = _buffer_view(builder, barriers, _i32(builder, index, location), location)
        builder.insert(InitBarrierOp.build(view, 1, location=location))
    return barriers


def pipeline_loop(loop: Operation, plan: Plan, distance: int, num_buffers: int,
                  anchor: Operation | None = None) -> Operation:
    """Pipelines ``loop`` by ``plan``, the loads ``distance`` iterations ahead into
    ``num_buffers`` buffers each (``distance + 1``, or ``distance`` when the copies go after
    every read of the buffers), the copies in the loop at its start (after the asynchronous
    dots) or before ``anchor`` (see the module docstring); returns the new loop. With an
    ``anchor`` (a schedule's pipelining, as Triton's), each ``cp.async`` copy is a commit group
    of its own and the newest groups' tokens are carried to the wait."""
    location = loop.location
    body = loop.regions[0].blocks[0]
    iv, iter_args = body.arguments[0], list(body.arguments[1:])
    yield_op = body.last_op
    lb, step = loop.operands[0], loop.operands[2]
    inits = list(loop.operands[3:])
    buffers = _buffers(loop, plan, num_buffers)
    before = Builder.before(loop, location)
    copies = any(not is_tma(load) for load, _ in plan.loads)
    barriers = _barriers(before, plan, num_buffers, location)

    # prologue: iterations 0 .. distance-1
    carried_values = {k: inits[k] for k in plan.carried}
    triton_form = anchor is not None
    tokens: list[Value] = []
    for j in range(distance):
        mapping = {arg: carried_values[k] for k, arg in enumerate(iter_args)
                   if k in carried_values}
        iv_j = lb
        if j:
            offset = before.insert(constant_op(j, iv.type, location)).results[0]
            scaled = before.insert(MulIOp.build(step, offset, location=location)).results[0]
            iv_j = before.insert(AddIOp.build(lb, scaled, location=location)).results[0]
        mapping[iv] = iv_j
        tokens = _emit_stage(before, plan, mapping, buffers, _i32(before, j, location),
                             _in_range(loop, before, iv_j), barriers, triton_form)
        carried_values = {k: mapping.get(yield_op.operands[k], yield_op.operands[k])
                          for k in plan.carried}
    new_inits = [carried_values.get(k, init) for k, init in enumerate(inits)]

    # the loop, with the slot of iteration i and the phase of its barrier carried last; in
    # Triton's form, the slot to fill (the last filled at first) and the slot to read (-1 at
    # first) are carried, each moved on where it is used, then the tokens
    zero = _i32(before, 0, location)
    tokens = tokens if triton_form else []
    counters = ([_i32(before, distance - 1, location), _i32(before, -1, location)]
                if triton_form else [zero])
    new_loop = loop_with_iter_args(loop, new_inits + counters
                                   + ([zero] if barriers is not None else []) + tokens)
    counter_args = [body.add_argument(_I32, location) for _ in counters]
    phase = None if barriers is None else body.add_argument(_I32, location)
    carried_tokens = [body.add_argument(_token(), location) for _ in tokens]
    start = Builder.at_start(body, location)
    slot, wait_at, phase_now = counter_args[0], start, phase
    if triton_form:
        slot, wrapped = increment_modulo(start, counter_args[1], num_buffers, location)
        if phase is not None:
            flipped = start.insert(XOrIOp.build(phase, _i32(start, 1, location),
                                                location=location)).results[0]
            phase_now = start.insert(SelectOp.build(wrapped, flipped, phase,
                                                    location=location)).results[0]
        order = {op: index for index, op in enumerate(body)}
        users = set().union(*(users_in(load, body) | (users_in(alloc, body) if alloc
                                                         else set())
                              for load, alloc in plan.loads))
        users -= {alloc for _, alloc in plan.loads}
        first_reader = min(users & order.keys(), key=order.__getitem__, default=None)
        if first_reader is not None:
            wait_at = Builder.before(first_reader, location)
    wait = None
    if copies:
        groups = 1 if not triton_form else sum(not is_tma(load) for load, _ in plan.loads)
        wait = wait_at.insert(AsyncWaitOp.build(max(distance - 1, 0) * groups, _token(),
                                                carried_tokens, location=location)).results[0]
    if barriers is not None:
        wait_at.insert(WaitBarrierOp.build(_buffer_view(wait_at, barriers, slot, location),
                                           phase_now, location=location))
    dots = None if triton_form else _async_dots(body, plan)
    if dots is not None:
        # the dots run on while the next copies are issued
        accumulated = next(iter(dots[-1].results[0].uses)).index
        waited = _make_async(dots, body)
        start = Builder.after(waited, location)
        if anchor is not None and waited.is_before_in_block(anchor):
            start = Builder.before(anchor, location)
    elif anchor is not None:
        start = Builder.before(anchor, location)
    # the copies of iteration i + distance, into the slot iteration i - 1 read (or, with
    # one buffer less, the slot iteration i has just read)
    mapping: dict = {}
    shift = start.insert(constant_op(distance, iv.type, location)).results[0]
    ahead = start.insert(AddIOp.build(iv, start.insert(
        MulIOp.build(step, shift, location=location)).results[0], location=location)).results[0]
    mapping[iv] = ahead
    insert_slot = slot
    if triton_form:
        insert_slot, _ = increment_modulo(start, counter_args[0], num_buffers, location)
    elif num_buffers > distance:
        last = _i32(start, num_buffers - 1, location)
        is_first = start.insert(CmpIOp.build(slot, _i32(start, 0, location),
                                             CmpIPredicate.eq, location=location)).results[0]
        previous = start.insert(SubIOp.build(slot, _i32(start, 1, location),
                                             location=location)).results[0]
        insert_slot = start.insert(SelectOp.build(is_first, last, previous,
                                                  location=location)).results[0]
    next_tokens = _emit_stage(start, plan, mapping, buffers, insert_slot,
                              _in_range(loop, start, ahead), barriers, triton_form)
    # the body reads the slot of iteration i
    for (load, alloc), buffer in zip(plan.loads, buffers):
        _read_buffer(load, alloc, buffer, slot, None if is_tma(load) else wait)
    # the advanced values come from the clones; the slot moves on
    operands = list(yield_op.operands)
    for k in plan.carried:
        operands[k] = mapping.get(operands[k], operands[k])
    end = Builder.before(yield_op, location)
    if triton_form:
        operands += [insert_slot, slot] + ([phase_now] if phase is not None else [])
    else:
        following = end.insert(AddIOp.build(slot, _i32(end, 1, location),
                                            location=location)).results[0]
        wraps = end.insert(CmpIOp.build(following, _i32(end, num_buffers, location),
                                        CmpIPredicate.eq, location=location)).results[0]
        operands.append(end.insert(SelectOp.build(wraps, _i32(end, 0, location), following,
                                                  location=location)).results[0])
    if phase is not None and not triton_form:
        # the barrier of the slot completes its next phase once the slots wrap around
        flipped = end.insert(XOrIOp.build(phase, _i32(end, 1, location),
                                          location=location)).results[0]
        operands.append(end.insert(SelectOp.build(wraps, flipped, phase,
                                                  location=location)).results[0])
    operands.extend(next_tokens[:len(carried_tokens)])
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
        for index in range(num_buffers):
            view = _buffer_view(after, barriers, _i32(after, index, location), location)
            after.insert(InvalBarrierOp.build(view, location=location))
        after.insert(LocalDeallocOp.build(barriers, location=location))
    for buffer in buffers:
        after.insert(LocalDeallocOp.build(buffer, location=location))
    return new_loop


def _read_buffer(load: Operation, alloc: Operation | None, buffer: Value, slot: Value,
                 wait: Value | None) -> None:
    """Makes the body read slot ``slot`` of ``buffer`` where it read ``load``: the view stands
    for ``alloc``, and one ``ttg.local_load`` (after ``wait``) for the load's other uses."""
    body = load.parent
    users = [ancestor_in_block(use.owner, body) for use in load.results[0].uses
             if use.owner is not alloc]
    order = {op: index for index, op in enumerate(body)}
    first = min(([alloc] if alloc is not None else []) + users, key=order.__getitem__)
    view = _buffer_view(Builder.before(first, first.location), buffer, slot, first.location)
    if alloc is not None:
        for use in list(alloc.results[0].uses):
            user = use.owner
            if isinstance(user, LocalLoadOp) and user.token is None and wait is not None:
                replacement = Builder.before(user, user.location).insert(
                    LocalLoadOp.build(user.results[0].type, view, wait,
                                      attributes=dict(user.attributes),
                                      location=user.location))
                user.results[0].replace_all_uses_with(replacement.results[0])
                user.erase()
            else:
                use.set(view)
                _propagate_mutable(user)
        alloc.erase()
    if users:
        reader = min(users, key=order.__getitem__)
        loaded = Builder.before(reader, load.location).insert(
            LocalLoadOp.build(load.results[0].type, view, wait, location=load.location))
        load.results[0].replace_all_uses_with(loaded.results[0])
    load.erase()


def _propagate_mutable(view: Operation) -> None:
    """Makes a memory view of a (mutable) buffer slot, and the views of it, mutable."""
    result = view.results[0] if len(view.results) == 1 else None
    if result is None or not isinstance(result.type, MemDescType) or result.type.mutable_memory:
        return
    t = result.type
    result.type = MemDescType(t.shape, t.element_type, t.encoding, t.memory_space, True,
                              t.alloc_shape)
    for use in result.uses:
        _propagate_mutable(use.owner)


def _erase_dead(ops) -> None:
    """Erases the ops (the original slice) that nothing reads any more."""
    for op in ops:
        if op.parent is not None and all(not r.uses for r in op.results):
            op.erase()


def pipeline_loops(module: Operation, num_stages: int) -> int:
    """Pipelines every innermost ``scf.for`` of ``module`` that has loads to pipeline, on
    targets with ``cp.async`` (sm_80+; a loop with a schedule also when the module names no
    target), by the loop's schedule when it carries one, then makes the ``wgmma`` of the
    loops asynchronous and their descriptor stores (see the module docstring); returns how
    many loops had loads pipelined. The schedule attributes are removed."""
    from tilecraft.analysis.axisinfo import AxisInfoAnalysis

    capability = capability_of(module)
    loops = [op for op in module.walk() if op.name == "scf.for"
             and not any(inner.name == "scf.for" for inner in op.walk() if inner is not op)]
    axis_info = None
    count = 0
    own_form: set[Operation] = set()
    for loop in loops:
        schedule = LoopSchedule.read(loop)
        if capability is not None and capability < 80 or capability is None and not schedule:
            continue
        axis_info = axis_info or AxisInfoAnalysis(module)
        if schedule is not None:
            scheduled = scheduled_plan(loop, schedule, axis_info)
            if scheduled is not None:
                pipeline_loop(loop, scheduled.plan, scheduled.distance,
                              scheduled.num_buffers, scheduled.anchor)
                count += 1
            continue
        stages = stages_of(loop, num_stages)
        if stages < 2:
            continue
        pairs = candidates(loop, axis_info)
        plan = plan_loop(loop, pairs, [alloc.results[0].type.encoding for _, alloc in pairs])
        if plan is None:
            continue
        own_form.add(pipeline_loop(loop, plan, stages - 1, stages))
        count += 1
    # Triton's pipelineWgmma: every loop of one stage or more, pipelined or not, innermost or
    # not; the loops pipelined without a schedule have had their own asynchronous dots
    for loop in [op for op in module.walk(post_order=True) if op.name == "scf.for"]:
        if loop not in own_form and stages_of(loop, num_stages) >= 1:
            launch_async_dots(loop)
    strip_schedule(module)
    pipeline_tma_stores(module, num_stages)
    return count


class TritonGPUPipelinePass(TritonGPUPipelinePassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        pipeline_loops(op, self.num_stages)
