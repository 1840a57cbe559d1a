"""Streaming stores: a launch whose programs store more than the host's last-level cache holds
writes its contiguous 1-D tiles with non-temporal vector stores.

An ordinary store first reads the line it writes (the write allocates it in the cache), so a
kernel that writes a large output moves the output's bytes twice, where ``np.copyto`` (glibc's
memcpy) writes large copies with non-temporal stores that skip the read and the cache. An
output that fits in the cache is likely read again soon, from there: launches that store less
keep ordinary stores, chosen at run time from the grid's size (`store`).

LLVM's loop vectorizer cannot be asked for such stores: it does not widen a ``!nontemporal``
store whose alignment is less than the vector's, and the element stores of a tile have the
element's. So each trip of the loop over a tile's aligned vectors computes a vector's worth of
values into a small stack buffer, by a loop LLVM unrolls and its SLP vectorizer joins into
vector operations (the buffer then disappears), and stores the vector with ``!nontemporal``
(``vmovntps``, which needs an aligned address). A store through a buffer the
size of the tile (values into it, then copied out) keeps reads and writes of memory apart in
time and lost most of the gain: in C, a vector add of 2^26 floats on two Zen 3 threads, in time
per byte of two-thread memcpy, was 0.97 with ordinary stores, 0.78 streaming from registers and
0.89 through a buffer (0.86 through a 256-byte buffer filled and emptied in turns). Costly
values (`CHUNKED_COST`: an exponential) take that last form, since the SLP vectorizer does not
join their lanes well: a loop that LLVM vectorizes computes `CHUNK_BYTES` of them into a stack
buffer, whose vectors are then streamed out (a row of 4096 exponentials stored on two threads,
16384 rows: 5.9 us a row joined by SLP, 1.4 chunked, where np.copyto took 1.3).

A tile's elements before its first vector-aligned address, and after its last whole trip, are
stored one by one with ordinary stores, in one loop. Non-temporal stores are weakly ordered: the
grid function of a kernel that streams ends with a fence before it returns to the runtime.
"""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.ir as ir

from tilecraft.ir import Operation

from . import engine
from . import types as T
from .lowering import STREAMING_FLAG, FunctionLowering
from .prefix_masks import PrefixMask
from .tiles import I32, I64, ZERO, Tile

# A tile of fewer vectors than this keeps ordinary stores: its head and tail would be most of it.
MIN_TILE_VECTORS = 4
# Values that cost this many instructions per element or more are computed `CHUNK_BYTES` at a
# time into a stack buffer (see the module docstring).
CHUNKED_COST = 10
CHUNK_BYTES = 256


def applies(fl: FunctionLowering, op: Operation, prefix: PrefixMask | None,
            masked: bool) -> bool:
    """Whether the `tt.store` ``op`` (of a tensor, through a tensor of pointers) may stream:
    a 1-D tile of 4- or 8-byte elements (as stored) whose pointers run contiguously over the
    whole tile, unmasked (``masked`` false) or masked by the prefix mask ``prefix``, in a
    kernel without atomics."""
    shape = op.value.type.shape
    if len(shape) != 1 or (masked and prefix is None) or fl.axis_info is None:
        return False
    ty = T.reg_type(op.value.type)
    size = T.byte_size(ty)
    if T.mem_type(op.value.type) != ty or size not in (4, 8) or \
            shape[0] * size < MIN_TILE_VECTORS * T.vector_unit()[0]:
        return False
    return fl.axis_info.get(op.ptr).contiguity[0] % shape[0] == 0 and not _synchronizes(op)


def _synchronizes(op: Operation) -> bool:
    """Whether the function of ``op`` holds an atomic op, which may publish what the kernel
    stored before it to another thread (non-temporal stores are not ordered with it)."""
    func = op
    while func.parent_op is not None and func.name != "tt.func":
        func = func.parent_op
    return any(inner.name.startswith("tt.atomic") for inner in func.walk())


def store(fl: FunctionLowering, op: Operation, pointers: Tile, values: Tile,
          prefix: PrefixMask | None, ordinary: Callable[[], None]) -> None:
    """The store of ``values`` to ``pointers`` (`applies` holds; with ``prefix``, of its
    first ``prefix.count`` elements): streamed when the launch's programs store more bytes in
    all than the host's last-level cache holds, else ``ordinary()``."""
    b = fl.builder
    programs = None
    for extent in fl.grid:
        extent = b.zext(extent, I64)
        programs = extent if programs is None else b.mul(programs, extent)
    tile_bytes = op.value.type.shape[0] * T.byte_size(T.reg_type(op.value.type))
    stored = b.mul(programs, ir.Constant(I64, tile_bytes))
    large = b.icmp_unsigned(">=", stored, ir.Constant(I64, engine.host_cache_bytes()))
    fl.if_else(large, lambda: _stream(fl, op, pointers, values, prefix), ordinary)
    if STREAMING_FLAG not in fl.module.globals:  # the grid function's fence
        flag = ir.GlobalVariable(fl.module, T.I8, STREAMING_FLAG)
        flag.global_constant = True
        flag.linkage = "internal"
        flag.initializer = ir.Constant(T.I8, 1)


def _stream(fl: FunctionLowering, op: Operation, pointers: Tile, values: Tile,
            prefix: PrefixMask | None) -> None:
    b = fl.builder
    ty = T.reg_type(op.value.type)
    size = T.byte_size(ty)
    vector_bytes = T.vector_unit()[0]
    lanes = vector_bytes // size
    # elements a trip of the main loop stores: a vector's worth, or a chunk's
    step = lanes if getattr(values, "cost", 1) < CHUNKED_COST else CHUNK_BYTES // size
    count = ir.Constant(I32, op.value.type.shape[0]) if prefix is None else prefix.count
    base = pointers.emit(fl, (ZERO,))
    address = b.ptrtoint(base, I64)
    # elements before the first aligned vector: all of them if the address is not even a
    # multiple of the element's size
    to_boundary = b.and_(b.sub(ir.Constant(I64, 0), address), ir.Constant(I64, vector_bytes - 1))
    head = b.trunc(b.udiv(to_boundary, ir.Constant(I64, size)), I32)
    misaligned = b.icmp_unsigned("!=", b.and_(address, ir.Constant(I64, size - 1)),
                                 ir.Constant(I64, 0))
    head = b.select(b.or_(misaligned, b.icmp_unsigned(">", head, count)), count, head)
    trips = b.udiv(b.sub(count, head), ir.Constant(I32, step))
    body_end = b.add(head, b.mul(trips, ir.Constant(I32, step)))

    def value(at: ir.Value) -> ir.Value:
        if prefix is not None:
            prefix.enter(fl, (at,))
        return values.emit(fl, (at,))

    # Every trip of the main loop computes `step` values into a stack buffer, by a loop that
    # LLVM vectorizes (a chunk) or unrolls for its SLP vectorizer to join the lanes (a vector's
    # worth), then streams the buffer's vectors out.
    chunk = fl.new_buffer((step,), ty)
    nontemporal = fl.module.add_metadata([ir.Constant(I32, 1)])
    with fl.loop(trips, interleave=False) as j:
        first = b.add(head, b.mul(j, ir.Constant(I32, step), flags=("nuw", "nsw")),
                      flags=("nuw", "nsw"))
        with fl.loop(step, interleave=step > lanes) as k:
            fl.store_element(chunk, (k,), value(b.add(first, k, flags=("nuw", "nsw"))))
        target = pointers.emit(fl, (first,))  # (the tile's pointers are contiguous)
        for at in range(0, step, lanes):
            stored = ir.instructions.StoreInstr(
                b.block, fl.load_vector(chunk, (ir.Constant(I32, at),), lanes),
                b.gep(target, [ir.Constant(I64, at)], source_etype=ty) if at else target)
            stored.align = vector_bytes
            b._insert(stored)
            stored.set_metadata("nontemporal", nontemporal)
    # the elements before the first aligned vector and after the last whole trip, in one loop
    # (each element is written once, in any order: a load read in place is index-aligned)
    edges = b.add(head, b.sub(count, body_end))
    with fl.loop(edges, interleave=False) as i:
        after = b.icmp_unsigned(">=", i, head)
        at = b.add(i, b.select(after, b.sub(body_end, head), ir.Constant(I32, 0)),
                   flags=("nuw", "nsw"))
        b.store(value(at), pointers.emit(fl, (at,)))
