"""Loads and stores through tensors of pointers.

A load is one loop nest over its shape that evaluates the pointer (and mask) expression of each
element and copies the element into a stack buffer; masked-off elements take ``other`` (zero
when absent) and are never read. A store is one loop nest that evaluates the pointer, value and
mask expressions in place. The address arithmetic of ``base + offsets`` stays visible to LLVM,
which turns contiguous accesses into (masked) vector loads and stores. A load whose pointers
run contiguously along its last dimension reads each run with vector loads (`vector_loads`);
one read only as a dot's ``A`` operand, with contiguous rows, is not copied whole: the dot
reads it where it lies (a `RowsTile` of row pointers), a few rows at a time. A bf16 load read
only by a dot that runs on AMX tiles is copied into the layout the tiles load, as bf16
(`dot_amx.load_packed`). A load whose value only flows, element by element, into at most three
stores, reductions or stored expressions, with nothing that may write memory before the last
of them, is not copied at all: each of them reads the memory itself (`_deferred_readers`; a
softmax's row is read by its maximum and by its exponential). Where such a load is masked, the
rest of its block is lowered in two versions (`tail_mask`, `FunctionLowering.lower_ops`): one
for the programs where its whole mask holds, which reads without checking it, and one that
checks.

A masked store whose mask holds for a prefix of one dimension (``offsets < n``) runs over that
prefix only, with that mask, and the loads that share it, unconditional (`prefix_masks`). Any
other masked store of a wide tile first checks whether every element of its mask holds (as it
does in all but the last programs of a grid over ``offsets < n``) and then runs a copy of its
loop in which that mask, and the loads that share it, are unconditional: masked vector stores
are slow on some CPUs (microcoded on AMD's), and plain ones let LLVM drop the mask arithmetic.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Sequence

import llvmlite.ir as ir

from tilecraft.ir import Operation, Value

from . import streaming
from . import types as T
from .dot_prefetch import prefetched_by_dot
from .elementwise import ELEMENTWISE_COSTS
from .lowering import MATERIALIZE_COST, FunctionLowering, is_tensor, lowers
from .next_program import prefetch_next_row
from .prefix_masks import prefix_mask
from .shapes import scalar_constant
from .tiles import ZERO, BufferTile, ExprTile, RowsTile, Tile
from .vector_loads import load_vectors, vector_width

# The instructions per element of a load read where it is consumed (`_deferred_readers`), and the
# most places that may read it so.
DEFERRED_LOAD_COST = 3
_DEFERRED_READS = 3
# Ops whose regions only combine values (a reduction's or scan's combine function).
_PURE_REGIONS = ("tt.reduce", "tt.scan")
# Ops after which a deferred load could read different memory.
_WRITES_MEMORY = ("tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.call",
                  "tt.elementwise_inline_asm", "tt.extern_elementwise")


def _deferred_readers(op: Operation) -> list[Operation] | None:
    """The ops that would read a load where its value is consumed instead of copied into a
    buffer, or None where it cannot be: every use of its value leads, through element-wise ops
    of the same shape in the same block, to a store, a reduction or an element-wise result
    that `FunctionLowering.set` stores (a costly one read twice); at most `_DEFERRED_READS`
    such readers, no op from the load to the last of them may write memory, and a store
    among them writes index by index where the load reads (`_index_aligned`)."""
    readers: list[Operation] = []
    followed: set[Operation] = set()

    def follow(value: Value, cost: int) -> bool:
        shape = value.type.shape
        for use in value.uses:
            user = use.owner
            if user in followed:
                continue
            followed.add(user)
            if user.parent is not op.parent:
                return False
            if user.name == "tt.store" and not _index_aligned(op, user):
                return False
            if user.name in ("tt.store", "tt.reduce"):
                readers.append(user)
                continue
            if user.name not in ELEMENTWISE_COSTS or len(user.results) != 1 or \
                    getattr(user.results[0].type, "shape", None) != shape or \
                    any(getattr(v.type, "shape", shape) != shape for v in user.operands):
                return False
            result = user.results[0]
            total = cost + ELEMENTWISE_COSTS[user.name]
            if total >= MATERIALIZE_COST and len(result.uses) > 1:
                readers.append(user)
            elif not follow(result, total):
                return False
        return True

    if not follow(op.results[0], DEFERRED_LOAD_COST) or not readers or \
            len(readers) > _DEFERRED_READS:
        return None
    last = readers[0]
    for reader in readers[1:]:
        if last.is_before_in_block(reader):
            last = reader
    return readers if _nothing_writes_between(op, last) else None


def _index_aligned(load: Operation, store: Operation) -> bool:
    """Whether the store's loop, reading the load where it lies, never overwrites an element
    the load reads at a later index: the store writes through the load's own pointers, or the
    same offsets are added to two uniform bases that are the same value or come from different
    arguments (arrays that overlap with a shift, which programs would race on anyway). A store
    to ``x + 1 + offs`` of a load of ``x + offs`` would overwrite element ``i + 1`` before
    reading it: such loads are copied first."""
    if store.ptr is load.ptr:
        return True
    read, written = _uniform_base(load.ptr), _uniform_base(store.ptr)
    if read is None or written is None or read[1] is not written[1]:
        return False
    return read[0] is written[0] or _root(read[0]) is not _root(written[0])


def _uniform_base(ptr: Value) -> tuple[Value, Value] | None:
    """(base, offsets) of a tensor of pointers ``tt.addptr(tt.splat(base), offsets)``."""
    owner = getattr(ptr, "owner", None)
    if not isinstance(owner, Operation) or owner.name != "tt.addptr":
        return None
    splat = getattr(owner.operands[0], "owner", None)
    if not isinstance(splat, Operation) or splat.name != "tt.splat":
        return None
    return splat.operands[0], owner.operands[1]


def _root(pointer: Value) -> Value:
    """The value a scalar pointer is computed from by ``tt.addptr``s (a kernel argument)."""
    owner = getattr(pointer, "owner", None)
    while isinstance(owner, Operation) and owner.name == "tt.addptr":
        pointer = owner.operands[0]
        owner = getattr(pointer, "owner", None)
    return pointer


def tail_mask(fl: FunctionLowering, ops: Sequence[Operation], start: int
              ) -> tuple[Tile, ir.Value] | None:
    """Whether the rest of a block, ``ops[start:]``, is lowered twice
    (`FunctionLowering.lower_ops`): once where every element of the mask of its first op holds,
    with that mask taken as true, and once for the other programs. That op qualifies as the
    masked load of a wide tile that is read where it is consumed, by a reduction or in several
    places, each of which would otherwise check the mask element by element (a load only
    stored under the same mask is left to the store's own check, see `_store`); the rest of
    the block must have no loops or branches. Returns (the mask's tile, whether all of it
    holds) or None."""
    op = ops[start]
    if op.name != "tt.load" or op.mask is None or not is_tensor(op.mask) or \
            T.is_block_pointer(op.ptr.type):
        return None
    mask = fl.tile(op.mask)
    if mask.numel < _UNMASKED_COPY_MIN or fl.holds(mask) or \
            any(o.regions and o.name not in _PURE_REGIONS for o in ops[start:]):
        return None
    readers = _deferred_readers(op)
    if readers is None or (len(readers) == 1 and readers[0].name == "tt.store" and
                           readers[0].mask is op.mask):
        return None
    return mask, _all_hold(fl, mask, op.results[0].type.shape, op.mask)


def _packed_role(op: Operation) -> str | None:
    """`dot_amx.packed_role` of the `tt.load` ``op``, for a load that a dot reads alone (the
    AMX lowering is imported with the first kernel that has one)."""
    uses = op.results[0].uses
    if len(uses) != 1 or uses[0].owner.name != "tt.dot":
        return None
    from .dot_amx import packed_role

    return packed_role(op)


def _nothing_writes_between(op: Operation, user: Operation) -> bool:
    """Whether no op from ``op`` to ``user`` (in one block) may write memory."""
    between = op.next_op
    while between is not None and between is not user:
        if between.name in _WRITES_MEMORY or \
                (between.regions and between.name not in _PURE_REGIONS):
            return False
        between = between.next_op
    return True


def _read_in_place_by_dot(fl: FunctionLowering, op: Operation, width: int) -> bool:
    """Whether a load's 2-D result can stay in memory as a `RowsTile`: it is the ``a`` operand
    of the one `tt.dot` that reads it, in the same block with nothing that may write memory in
    between; each of its rows is contiguous; and its elements have the same form in memory and
    in registers. (The dot copies a few rows at a time, see `dot`.)"""
    result = op.results[0]
    shape = result.type.shape
    if len(shape) != 2 or len(result.uses) != 1 or width == 1 or \
            fl.axis_info.get(op.ptr).contiguity[1] % shape[1] != 0:
        return False
    user = result.uses[0].owner
    elem = T.element_type(result.type)
    return user.name == "tt.dot" and user.a is result and user.b is not result and \
        user.parent is op.parent and T.mem_type(elem) == T.reg_type(elem) != T.I1 and \
        _nothing_writes_between(op, user)


def _load_element(fl: FunctionLowering, pointer: ir.Value, elem) -> ir.Value:
    return T.from_memory(fl, fl.builder.load(pointer, typ=T.mem_type(elem)), elem)


def _from_row_starts(fl: FunctionLowering, ptr: Value, pointers: Tile, storage: ir.Type) -> Tile:
    """The tile ``pointers`` of the tensor of pointers ``ptr`` to ``storage`` elements, with
    each element's address taken from its row's first (its index along the last dimension
    added) where the axis info says that every row runs contiguously: an address LLVM sees is
    its row's plus the index, where ``offsets`` arithmetic in i32 hid it behind a sign
    extension (the SLP vectorizer cannot join such loads, `streaming`). Else ``pointers``."""
    shape = tuple(ptr.type.shape)
    if fl.axis_info is None or fl.axis_info.get(ptr).contiguity[-1] % shape[-1] != 0:
        return pointers

    def address(fl: FunctionLowering, idx: tuple) -> ir.Value:
        first = pointers.emit(fl, idx[:-1] + (ZERO,))
        return fl.builder.gep(first, [fl.builder.zext(idx[-1], T.I64)], source_etype=storage)

    return ExprTile(shape, T.PTR, address, [pointers], cost=0)


@lowers("tt.load")
def _load(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    elem = T.element_type(result.type)
    ty = T.reg_type(elem)
    has_mask, has_other = op.mask is not None, op.other is not None
    mask = None

    def element(idx, pointer_of, mask_of, other_of) -> ir.Value:
        def read() -> ir.Value:
            return _load_element(fl, pointer_of(idx), elem)

        if not has_mask or fl.holds(mask):
            return read()
        fallback = (lambda: other_of(idx)) if has_other else (lambda: scalar_constant(ty, 0))
        return fl.select_or_default(mask_of(idx), read, fallback)

    if not is_tensor(result):
        value = element((), lambda idx: fl.get(op.ptr),
                        lambda idx: fl.get(op.mask),
                        lambda idx: fl.get(op.other))
        fl.set(result, value)
        return
    if T.is_block_pointer(op.ptr.type):
        pointers, mask = _block_pointer_tiles(fl, op, result.type.shape)
        has_mask = mask is not None
        other = _padding(op, ty, result.type.shape) if has_mask else None
        has_other = other is not None
    else:
        pointers = fl.tile(op.ptr)
        mask = fl.as_tile(op.mask) if has_mask else None
        other = fl.as_tile(op.other) if has_other else None
        prefetch_next_row(fl, op)
    if _deferred_readers(op) is not None:
        if not T.is_block_pointer(op.ptr.type):
            pointers = _from_row_starts(fl, op.ptr, pointers, T.mem_type(elem))
        operands = [t for t in (pointers, mask, other) if t is not None]
        fl.set(result, ExprTile(
            result.type.shape, ty,
            lambda fl, idx: element(idx, lambda i: pointers.emit(fl, i),
                                    lambda i: mask.emit(fl, i), lambda i: other.emit(fl, i)),
            operands, cost=DEFERRED_LOAD_COST, pointwise=True))
        return
    shape = result.type.shape
    out = fl.new_buffer(shape, ty)

    def body(idx) -> None:
        value = element(idx, lambda i: pointers.emit(fl, i),
                        lambda i: mask.emit(fl, i),
                        lambda i: other.emit(fl, i))
        fl.store_element(out, idx, value)

    width = 1 if T.is_block_pointer(op.ptr.type) else vector_width(fl, op)
    prefetched = prefetched_by_dot(fl, op)
    role = _packed_role(op)
    if role is not None and _nothing_writes_between(op, result.uses[0].owner):
        from .dot_amx import bf16_bits, load_packed

        def read(idx: tuple) -> ir.Value:
            return bf16_bits(fl.builder, element(idx, lambda i: pointers.emit(fl, i),
                                                 lambda i: mask.emit(fl, i),
                                                 lambda i: other.emit(fl, i)))

        def unmasked(vectors: Callable[[], None], elements: Callable[[], None]) -> None:
            if not has_mask or fl.holds(mask):
                vectors()
                return

            def assumed() -> None:
                with fl.assuming(mask):
                    vectors()

            fl.if_else(_all_hold(fl, mask, shape, op.mask), assumed, elements)

        fl.set(result, load_packed(fl, role, shape, pointers, width, read, unmasked,
                                   not prefetched))
        return
    if _read_in_place_by_dot(fl, op, width):
        fl.set(result, _rows_in_place(fl, op, pointers, mask, out, body))
        return
    if width == 1:
        fl.loop_nest(shape, body)
    elif not has_mask or fl.holds(mask):
        load_vectors(fl, pointers, out, elem, width, not prefetched)
    else:
        def unmasked() -> None:
            with fl.assuming(mask):
                load_vectors(fl, pointers, out, elem, width, not prefetched)

        fl.if_else(_all_hold(fl, mask, shape, op.mask), unmasked,
                   lambda: fl.loop_nest(shape, body))
    fl.set(result, out)


@lowers("tt.store")
def _store(fl: FunctionLowering, op: Operation) -> None:
    elem = T.element_type(op.value.type)

    def write(pointer: ir.Value, value: ir.Value) -> None:
        fl.builder.store(T.to_memory(fl, value, elem), pointer)

    if not is_tensor(op.value):
        if op.mask is None:
            write(fl.get(op.ptr), fl.get(op.value))
            return
        with fl.if_then(fl.get(op.mask)):
            write(fl.get(op.ptr), fl.get(op.value))
        return
    values = fl.as_tile(op.value)
    if T.is_block_pointer(op.ptr.type):
        pointers, mask = _block_pointer_tiles(fl, op, op.value.type.shape)
    else:
        pointers = fl.tile(op.ptr)
        mask = fl.as_tile(op.mask) if op.mask is not None else None

    shape = op.value.type.shape

    def body(idx) -> None:
        if mask is None or fl.holds(mask):
            write(pointers.emit(fl, idx), values.emit(fl, idx))
            return
        with fl.if_then(mask.emit(fl, idx)):
            write(pointers.emit(fl, idx), values.emit(fl, idx))

    held = mask is None or fl.holds(mask)
    prefix = None if held or T.is_block_pointer(op.ptr.type) else \
        prefix_mask(fl, op.mask, shape)
    if held:
        def ordinary() -> None:
            fl.loop_nest(shape, body)
    elif prefix is not None:
        def in_prefix(idx: tuple) -> None:
            prefix.enter(fl, idx)
            body(idx)

        def ordinary() -> None:
            with fl.assuming(mask):
                fl.loop_nest(shape, in_prefix, limit=prefix.limit)
    if held or prefix is not None:
        if not T.is_block_pointer(op.ptr.type) and streaming.applies(fl, op, prefix, not held):
            with fl.assuming(mask) if mask is not None else contextlib.nullcontext():
                streaming.store(fl, op, pointers, values, prefix, ordinary)
        else:
            ordinary()
        return
    if mask.numel < _UNMASKED_COPY_MIN:
        fl.loop_nest(shape, body)
        return

    def unmasked() -> None:
        with fl.assuming(mask):
            fl.loop_nest(shape, body)

    fl.if_else(_all_hold(fl, mask, shape, None if T.is_block_pointer(op.ptr.type) else op.mask),
               unmasked, lambda: fl.loop_nest(shape, body))


def _rows_in_place(fl: FunctionLowering, op: Operation, pointers: Tile, mask: Tile | None,
                   out: BufferTile, copy: Callable[[tuple], None]) -> RowsTile:
    """The rows of a load as pointers: into user memory where every element of the mask holds
    (no copy), else into ``out`` once ``copy`` filled it element by element."""
    shape = op.results[0].type.shape
    rows = fl.alloca(T.PTR, shape[0])
    b = fl.builder

    def point(row_pointer: Callable[[ir.Value], ir.Value]) -> None:
        def body(idx: tuple) -> None:
            slot = b.gep(rows, [b.zext(idx[0], T.I64)], source_etype=T.PTR, inbounds=True)
            b.store(row_pointer(idx[0]), slot)

        fl.loop_nest((shape[0], 1), body)

    def in_place() -> None:
        point(lambda row: pointers.emit(fl, (row, ir.Constant(T.I32, 0))))

    def copied() -> None:
        fl.loop_nest(shape, copy)
        point(lambda row: fl.buffer_pointer(out, (row, ir.Constant(T.I32, 0))))

    if mask is None or fl.holds(mask):
        in_place()
    else:
        fl.if_else(_all_hold(fl, mask, shape, op.mask), in_place, copied)
    return RowsTile(rows, shape, out.ty, frozenset({rows, out.root}))


# Masked stores of at least this many elements get an unmasked copy (see the module docstring).
_UNMASKED_COPY_MIN = 16


def _all_hold(fl: FunctionLowering, mask: Tile, shape: tuple, mask_value: Value | None
              ) -> ir.Value:
    """Whether every element of the i1 tile ``mask`` (of a load or store of ``shape``) is true:
    one loop or-reducing the failures as i32 lanes (as wide as the compares that usually make
    masks, so nothing is packed), over the elements `_deciding_indices` leaves to check. The
    answer serves every later load and store of the same mask value where it is available (the
    expression memo's scope: a load and the store of its row under one mask check once)."""
    key = ("all hold", mask_value) if mask_value is not None else None
    if key is not None:
        known = fl.memo_get(key)
        if known is not None:
            return known
    b = fl.builder
    if mask.shape == shape and mask_value is not None and is_tensor(mask_value) and \
            fl.axis_info is not None:
        choices = _deciding_indices(fl, mask_value, shape)
    else:
        choices = [None] * len(mask.shape)  # a scalar mask: ()
    checked = tuple(size if choice is None else 1 for size, choice in zip(mask.shape, choices))
    slot = fl.alloca(T.I32)
    b.store(ir.Constant(T.I32, 0), slot)

    def note_failure(idx) -> None:
        idx = tuple(i if choice is None else ir.Constant(T.I32, choice)
                    for i, choice in zip(idx, choices))
        failed = b.zext(b.not_(mask.emit(fl, idx)), T.I32)
        b.store(b.or_(b.load(slot, typ=T.I32), failed), slot)

    fl.loop_nest(checked, note_failure)
    holds = b.icmp_unsigned("==", b.load(slot, typ=T.I32), ir.Constant(T.I32, 0))
    if key is not None:
        fl.memo_put(key, holds, mask)
    return holds


def _deciding_indices(fl: FunctionLowering, mask: Value, shape: tuple) -> list[int | None]:
    """Per dimension of the mask tensor ``mask``, the one index whose elements decide whether
    all hold, or None where every index must be checked. Where the analysis finds the mask
    constant along a dimension, index 0 decides; where the mask is a signed ``<``/``<=`` (or
    ``>``/``>=``) of consecutive integers against a value uniform along it (``offs < n``),
    its largest (or smallest) integer decides."""
    constancy = fl.axis_info.get(mask).constancy
    choices: list[int | None] = [0 if c % size == 0 else None
                                 for size, c in zip(shape, constancy)]
    op = getattr(mask, "owner", None)
    if not isinstance(op, Operation) or op.name != "arith.cmpi":
        return choices
    predicate = op.predicate.keyword
    if predicate not in ("slt", "sle", "sgt", "sge"):
        return choices
    lhs, rhs = (fl.axis_info.get(v) for v in op.operands)
    below = predicate in ("slt", "sle")
    for d, size in enumerate(shape):
        if choices[d] is not None:
            continue
        if lhs.contiguity[d] % size == 0 and rhs.constancy[d] % size == 0:
            choices[d] = size - 1 if below else 0
        elif rhs.contiguity[d] % size == 0 and lhs.constancy[d] % size == 0:
            choices[d] = 0 if below else size - 1
    return choices


# -- block pointers (tt.make_tensor_ptr, tt.advance) ---------------------------------------------

@lowers("tt.make_tensor_ptr")
def make_tensor_ptr(fl: FunctionLowering, op: Operation) -> None:
    """A block pointer as a tuple of scalars: the base, then per dim the shape (i64), the
    strides (i64) and the offsets (i32). The CUDA backend holds block pointers the same way."""
    b = fl.builder

    def widen(value: ir.Value, ty: ir.IntType) -> ir.Value:
        if value.type.width == ty.width:
            return value
        return b.sext(value, ty) if value.type.width < ty.width else b.trunc(value, ty)

    fl.set(op.results[0], (
        fl.get(op.base),
        *(widen(fl.get(v), T.I64) for v in op.shape),
        *(widen(fl.get(v), T.I64) for v in op.strides),
        *(widen(fl.get(v), T.I32) for v in op.offsets),
    ))


@lowers("tt.advance")
def advance(fl: FunctionLowering, op: Operation) -> None:
    """The block pointer with its offsets moved."""
    pointer = fl.get(op.ptr)
    rank = len(op.offsets)
    moved = [fl.builder.add(offset, fl.get(delta))
             for offset, delta in zip(pointer[1 + 2 * rank:], op.offsets)]
    fl.set(op.results[0], (*pointer[:1 + 2 * rank], *moved))


def _block_pointer_tiles(fl: FunctionLowering, op: Operation, shape: tuple):
    """The element pointers of a block pointer's tile and, when the op checks boundaries, the
    mask of elements inside the tensor."""
    pointer = fl.get(op.ptr)
    rank = len(shape)
    base = pointer[0]
    sizes, strides = pointer[1:1 + rank], pointer[1 + rank:1 + 2 * rank]
    offsets = pointer[1 + 2 * rank:]
    elem = T.element_type(T.element_type(op.ptr.type).pointee_type)
    storage = T.mem_type(elem)

    def position(fl: FunctionLowering, idx, d: int) -> ir.Value:
        return fl.builder.sext(fl.builder.add(offsets[d], idx[d]), T.I64)

    def address(fl: FunctionLowering, idx) -> ir.Value:
        b = fl.builder
        total = None
        for d in range(rank):
            term = b.mul(position(fl, idx, d), strides[d])
            total = term if total is None else b.add(total, term)
        return b.gep(base, [total if total is not None else ir.Constant(T.I64, 0)],
                     source_etype=storage)

    pointers = ExprTile(shape, T.PTR, address, cost=2 * rank)
    checked = sorted(set(op.boundary_check or ()))
    if not checked:
        return pointers, None

    def inside(fl: FunctionLowering, idx) -> ir.Value:
        b = fl.builder
        result = None
        for d in checked:
            p = position(fl, idx, d)
            ok = b.and_(b.icmp_signed(">=", p, ir.Constant(T.I64, 0)),
                        b.icmp_signed("<", p, sizes[d]))
            result = ok if result is None else b.and_(result, ok)
        return result

    return pointers, ExprTile(shape, T.I1, inside, cost=3 * len(checked))


def _padding(op: Operation, ty: ir.Type, shape: tuple):
    """What a block-pointer load reads outside the tensor: zero, or NaN for padding=nan."""
    from .tiles import splat

    padding = op.padding
    if padding is not None and padding.name.lower().endswith("nan"):
        return splat(ir.Constant(ty, float("nan")), shape)
    return splat(scalar_constant(ty, 0), shape)
