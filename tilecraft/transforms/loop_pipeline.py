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

from dataclasses import dataclass, field

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
                                     LocalDeallocOp, LocalLoadOp, MemDescIndexOp, MemDescType,
                                     SharedMemorySpaceAttr)
from tilecraft.ir import (Attribute, Block, BlockArgument, BoolAttr, Builder, IntegerAttr,
                          IntegerType, Operation, RankedTensorType, Value)
from tilecraft.transforms.accelerate_matmul import capability_of
from tilecraft.transforms.async_copy import copy_bytes, copy_contiguity, load_shared_encoding
from tilecraft.transforms.loop_schedule import (LoopSchedule, ancestor_in_block, body_of,
                                                strip_schedule)
from tilecraft.transforms.effects import is_memory_effect_free
from tilecraft.transforms.loop_unroll import NUM_STAGES
from tilecraft.transforms.tma_lowering import barrier_type, block_bytes, tma_shared_encoding
from tilecraft.transforms.transform_utils import constant_op, loop_with_iter_args
from tilecraft.transforms.wgmma_pipeline import launch_async_dots

__all__ = ["TritonGPUPipelinePass", "pipeline_loop", "pipeline_loops"]

_I32 = IntegerType(32)
_I1 = IntegerType(1)


@dataclass
class _Plan:
    """What pipelining one loop moves: the loads with the ``local_alloc`` user their buffer
    replaces (None when they have none: their users read the buffer with a ``local_load``),
    their buffers' shared layouts, the ops of their slice (in body order), and the carried
    values the slice advances (by index)."""

    loads: list[tuple[Operation, Operation | None]]
    encodings: list[Attribute]
    slice_ops: list[Operation]
    carried: list[int]
    contiguity: dict[Operation, int] = field(default_factory=dict)


def _stages(loop: Operation, default: int) -> int:
    attr = loop.get_attr(NUM_STAGES)
    return attr.value if isinstance(attr, IntegerAttr) else default


def _is_tma(load: Operation) -> bool:
    return load.name == "tt.descriptor_load"


def _candidate(load: Operation) -> Operation | None:
    """The ``local_alloc`` a pipelinable load feeds, or None."""
    if _is_tma(load):
        return _tma_candidate(load)
    return _single_alloc_user(load) if _async_copyable(load) else None


def _async_copyable(load: Operation) -> bool:
    """Whether ``cp.async`` can do ``load``: a tensor of pointers (not a block pointer), no
    ``other`` or a zero one, not volatile."""
    if load.name != "tt.load" or not isinstance(load.results[0].type, RankedTensorType):
        return False
    if not isinstance(load.operands[0].type, RankedTensorType):
        return False  # a block pointer
    if load.other is not None and not is_zero(const_attr(load.other)):
        return False
    volatile = load.get_attr("isVolatile")
    return not (volatile is not None and getattr(volatile, "value", False))


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


def _candidates(loop: Operation, axis_info) -> list[tuple[Operation, Operation]]:
    """The loads to pipeline without a schedule, with their ``local_alloc`` users."""
    pairs = []
    for op in loop.regions[0].blocks[0]:
        alloc = _candidate(op)
        if alloc is not None and (_is_tma(op) or copy_bytes(
                op, alloc.results[0].type.encoding, axis_info) >= 4):
            pairs.append((op, alloc))
    return pairs


def _plan(loop: Operation, pairs: list[tuple[Operation, Operation | None]],
          encodings: list[Attribute]) -> _Plan | None:
    """The slice of the loads ``pairs`` and the carried values it advances, or None when the
    slice cannot run ahead of the body (see the module docstring)."""
    if not pairs:
        return None
    body = loop.regions[0].blocks[0]
    yield_op = body.last_op
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
            if (isinstance(owner, Operation) and owner in members and owner not in loads
                    and _depends_on(operand, advanced, body, seen)):
                return None
    return _Plan(pairs, encodings, [op for op in body if op in members], sorted(carried))


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


def _emit_stage(builder: Builder, plan: _Plan, mapping: dict, buffers: list[Value],
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


def _buffers(loop: Operation, plan: _Plan, stages: int) -> list[Value]:
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


def pipeline_loop(loop: Operation, plan: _Plan, distance: int, num_buffers: int,
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
    copies = any(not _is_tma(load) for load, _ in plan.loads)
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
        slot, wrapped = _increment_modulo(start, counter_args[1], num_buffers, location)
        if phase is not None:
            flipped = start.insert(XOrIOp.build(phase, _i32(start, 1, location),
                                                location=location)).results[0]
            phase_now = start.insert(SelectOp.build(wrapped, flipped, phase,
                                                    location=location)).results[0]
        order = {op: index for index, op in enumerate(body)}
        users = set().union(*(_users_in(load, body) | (_users_in(alloc, body) if alloc
                                                         else set())
                              for load, alloc in plan.loads))
        users -= {alloc for _, alloc in plan.loads}
        first_reader = min(users & order.keys(), key=order.__getitem__, default=None)
        if first_reader is not None:
            wait_at = Builder.before(first_reader, location)
    wait = None
    if copies:
        groups = 1 if not triton_form else sum(not _is_tma(load) for load, _ in plan.loads)
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
        insert_slot, _ = _increment_modulo(start, counter_args[0], num_buffers, location)
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
        _read_buffer(load, alloc, buffer, slot, None if _is_tma(load) else wait)
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


def _increment_modulo(builder: Builder, counter: Value, modulus: int, location
                      ) -> tuple[Value, Value]:
    """``counter + 1``, wrapped to 0 at ``modulus``, and whether it wrapped."""
    following = builder.insert(AddIOp.build(counter, _i32(builder, 1, location),
                                            location=location)).results[0]
    wraps = builder.insert(CmpIOp.build(following, _i32(builder, modulus, location),
                                        CmpIPredicate.sge, location=location)).results[0]
    value = builder.insert(SelectOp.build(wraps, _i32(builder, 0, location), following,
                                          location=location)).results[0]
    return value, wraps


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


def _stage_distance(load: Operation, schedule: LoopSchedule) -> int:
    """How many stages after ``load`` its first user runs (through a ``local_alloc``, the
    alloc's users count too; a user in a later cluster counts one stage later)."""
    body = load.parent
    stage, cluster = schedule[load]
    users = _users_in(load, body)
    for user in list(users):
        if user.name == "ttg.local_alloc":
            users |= _users_in(user, body)
    use_stages = []
    for user in users:
        if user in schedule:
            user_stage, user_cluster = schedule[user]
            later = schedule.position(user_cluster) > schedule.position(cluster)
            use_stages.append(user_stage + later)
    return min(use_stages) - stage if use_stages else 0


def _users_in(op: Operation, body: Block) -> set[Operation]:
    return {user for result in op.results for use in result.uses
            if (user := ancestor_in_block(use.owner, body)) is not None}


def _readers(load: Operation, alloc: Operation | None) -> set[Operation]:
    """The body ops that read a pipelined load's buffer: its users and the users of its
    ``local_alloc`` through memory views."""
    body = load.parent
    readers = _users_in(load, body) - {alloc}
    work = [alloc] if alloc is not None else []
    while work:
        for use in work.pop().results[0].uses:
            user = use.owner
            if isinstance(user.results[0].type if user.results else None, MemDescType):
                work.append(user)
            elif (reader := ancestor_in_block(user, body)) is not None:
                readers.add(reader)
    return readers


def _reads_another(load: Operation, loads: set[Operation]) -> bool:
    """Whether the address or mask of ``load`` depends on another of ``loads``."""
    members = _slice_of(load.parent, [load], list(loads)) or []
    return any(op in loads and op is not load for op in members)


@dataclass
class _Scheduled:
    """How a loop's schedule pipelines it: the plan, how many iterations ahead the loads run,
    their buffers, and the op the copies in the loop go before."""

    plan: _Plan
    distance: int
    num_buffers: int
    anchor: Operation


def _from_schedule(loop: Operation, schedule: LoopSchedule, axis_info) -> _Scheduled | None:
    """The loads of the loop's first stage that the schedule uses stages later (all at the
    largest such distance, and not reading another one), as cp.async or TMA copies; their
    copies go before the first op of a later cluster than theirs, with one buffer per stage of
    distance, and one more when a buffer is read after that point or by a ``wgmma``."""
    body = body_of(loop)
    chosen = []
    for op in body:
        if op.name not in ("tt.load", "tt.descriptor_load") or op not in schedule:
            continue
        distance = _stage_distance(op, schedule)
        if distance <= 0:
            continue
        if _is_tma(op):
            alloc = _tma_candidate(op)
            if alloc is None:
                continue
            encoding = alloc.results[0].type.encoding
        else:
            if not _async_copyable(op):
                continue
            encoding = load_shared_encoding(op)
            if copy_bytes(op, encoding, axis_info) < 4:
                continue
            alloc = next((use.owner for use in op.results[0].uses
                          if use.owner.name == "ttg.local_alloc" and use.owner.parent is body
                          and use.owner.results[0].type.encoding == encoding), None)
        chosen.append((op, alloc, encoding, distance))
    if not chosen:
        return None
    first = min(schedule[load][0] for load, *_ in chosen)
    chosen = [entry for entry in chosen if schedule[entry[0]][0] == first]
    distance = max(entry[3] for entry in chosen)
    chosen = [entry for entry in chosen if entry[3] == distance]
    loads = {entry[0] for entry in chosen}
    chosen = [entry for entry in chosen if not _reads_another(entry[0], loads)]
    plan = _plan(loop, [(load, alloc) for load, alloc, _, _ in chosen],
                 [encoding for _, _, encoding, _ in chosen])
    if plan is None:
        return None
    plan.contiguity = {load: copy_contiguity(load, axis_info) for load, _ in plan.loads
                       if not _is_tma(load)}
    moved = set(plan.slice_ops) | {alloc for _, alloc in plan.loads}
    cluster = min(schedule.position(schedule[load][1]) for load, _ in plan.loads)
    anchor = next((op for op in body if op not in moved and op is not body.last_op
                   and op in schedule and schedule.position(schedule[op][1]) > cluster),
                  body.last_op)
    order = {op: index for index, op in enumerate(body)}
    readers = set().union(*(_readers(load, alloc) for load, alloc in plan.loads))
    late = any(order[reader] >= order[anchor] for reader in readers if reader in order)
    wgmma = any(reader.name == "ttng.warp_group_dot" for reader in readers)
    return _Scheduled(plan, distance, distance + (late or wgmma), anchor)


def pipeline_loops(module: Operation, num_stages: int) -> int:
    """Pipelines every innermost ``scf.for`` of ``module`` that has loads to pipeline, on
    targets with ``cp.async`` (sm_80+; a loop with a schedule also when the module names no
    target), by the loop's schedule when it carries one; returns how many loops were
    pipelined. The schedule attributes are removed."""
    from tilecraft.analysis.axisinfo import AxisInfoAnalysis

    capability = capability_of(module)
    loops = [op for op in module.walk() if op.name == "scf.for"
             and not any(inner.name == "scf.for" for inner in op.walk() if inner is not op)]
    axis_info = None
    count = 0
    for loop in loops:
        schedule = LoopSchedule.read(loop)
        if capability is not None and capability < 80 or capability is None and not schedule:
            continue
        axis_info = axis_info or AxisInfoAnalysis(module)
        if schedule is not None:
            scheduled = _from_schedule(loop, schedule, axis_info)
            if scheduled is not None:
                loop = pipeline_loop(loop, scheduled.plan, scheduled.distance,
                                     scheduled.num_buffers, scheduled.anchor)
                count += 1
            launch_async_dots(loop)
            continue
        stages = _stages(loop, num_stages)
        if stages < 2:
            continue
        pairs = _candidates(loop, axis_info)
        plan = _plan(loop, pairs, [alloc.results[0].type.encoding for _, alloc in pairs])
        if plan is None:
            continue
        pipeline_loop(loop, plan, stages - 1, stages)
        count += 1
    strip_schedule(module)
    return count


class TritonGPUPipelinePass(TritonGPUPipelinePassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        pipeline_loops(op, self.num_stages)
