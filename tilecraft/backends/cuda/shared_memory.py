"""Tensors in shared memory: ``ttg.local_alloc``, ``ttg.local_store``, ``ttg.local_load`` and
``ttg.local_dealloc`` on ``!ttg.memdesc`` values in swizzled, padded-free shared layouts.

A memdesc lowers to a `SharedTensor`: its address (the buffer the shared-memory allocation
placed for the ``ttg.local_alloc``) and the layout's map from ``offset`` (in elements) to
coordinates. Reading it into, or writing it from, a distributed tensor goes through
``shared⁻¹ ∘ distributed``: (register, lane, warp) -> offset, linear over GF(2), so a thread's
offset for register ``r`` is the register part (a constant) xor its lane and warp part
(computed once). Consecutive registers at consecutive offsets that no thread's part disturbs
move as one vector of up to 16 bytes. Barriers between writes and reads are the barrier
analysis's (``ttg.barrier local``).

Loads of 16-bit elements whose map has the shape of ``ldmatrix`` use it (`ldmatrix_plan`):
``ldmatrix.x4`` reads four 8x8 matrices of 16-byte rows, each lane naming one row, and gives
lane ``t`` of each matrix the 32 bits at row ``t / 4``, elements ``2 * (t % 4)`` and the next
(``.trans``: rows ``2 * (t % 4)`` and the next, element ``t / 4``) — the fragments of
``mma.sync`` operands, for A stored K-major and B stored N-major alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import llvmlite.ir as ir

from tilecraft.dialects.ttg_layouts import shared_layout
from tilecraft.generated.ttg import NVMMASharedEncodingAttr, SwizzledSharedEncodingAttr
from tilecraft.ir import Operation
from tilecraft.layouts.linear import LinearLayout
from tilecraft.layouts.shared import shared_vector_width, thread_offsets_map

from .lowering import I32, Distributed, GPULowering, error_at, lowers
from .scratch import Storage


@dataclass
class SharedTensor:
    """A ``!ttg.memdesc`` as the lowering holds it: where it starts, the map from element
    offsets to the coordinates of one buffer, and how its elements are stored. A view
    (``ttg.memdesc_subslice``) keeps its buffer's map and xors the offset of its corner,
    `corner`, into every offset; a multi-buffered allocation (``3x128x64`` with a rank-2
    encoding) holds `count` buffers of `buffer_elements` elements, one after the other, which
    ``ttg.memdesc_index`` picks from."""

    base: ir.Value
    layout: LinearLayout
    storage: Storage
    corner: int = 0
    count: int = 1
    buffer_elements: int = 0


class AccessPlan(NamedTuple):
    """How a thread reaches a distributed tensor's registers in a `SharedTensor`: groups of
    `width` consecutive registers starting at each of `starts`, at the constant offsets
    `constants` xor the thread's own part (`offsets`, lane and warp -> offset)."""

    offsets: LinearLayout
    width: int
    starts: tuple[int, ...]
    constants: tuple[int, ...]


def access_plan(shared: LinearLayout, distributed: LinearLayout, element_bytes: int,
                unique: bool) -> AccessPlan:
    """The plan for moving ``distributed`` into or out of ``shared`` (see `AccessPlan`), with
    vectors of at most 16 bytes (`shared_vector_width`); with ``unique``, registers holding
    the same element as an earlier one are left out (a store writes each element once)."""
    offsets = thread_offsets_map(shared, distributed)
    width = shared_vector_width(shared, distributed, element_bytes)
    registers = offsets.in_dim_size("register")
    starts, constants, seen = [], [], set()
    for start in range(0, registers, width):
        constant = offsets.apply(register=start)[0]
        if unique and constant in seen:
            continue
        seen.add(constant)
        starts.append(start)
        constants.append(constant)
    return AccessPlan(offsets, width, tuple(starts), tuple(constants))


def _pointers(fl: GPULowering, tensor: SharedTensor, plan: AccessPlan):
    vector = tensor.storage.ty if plan.width == 1 else ir.VectorType(tensor.storage.ty,
                                                                       plan.width)
    for start, constant in zip(plan.starts, plan.constants):
        pointer = tensor.storage.pointer(fl, tensor.base, thread_offset(
            fl, plan.offsets, constant ^ tensor.corner))
        yield start, pointer, vector


def thread_offset(fl: GPULowering, offsets: LinearLayout, constant: int) -> ir.Value:
    """This thread's offset in the map ``offsets`` ((register,) lane, warp -> offset) xor a
    register's ``constant`` part (`GPULowering.with_constant`)."""
    return fl.with_constant(offsets, 0, fl.thread_offsets(offsets)[0], constant)


def store_distributed(fl: GPULowering, tensor: SharedTensor, source: Distributed) -> None:
    """Writes ``source``'s elements into ``tensor``."""
    storage = tensor.storage
    plan = access_plan(tensor.layout, source.layout, storage.size, unique=True)
    b = fl.builder
    for start, pointer, vector in _pointers(fl, tensor, plan):
        raws = [storage.raw(fl, v) for v in source.values[start:start + plan.width]]
        if plan.width == 1:
            value = raws[0]
        else:
            value = ir.Constant(vector, None)
            for lane, raw in enumerate(raws):
                value = b.insert_element(value, raw, ir.Constant(I32, lane))
        b.store(value, pointer, align=plan.width * storage.size)


def load_distributed(fl: GPULowering, tensor: SharedTensor, layout: LinearLayout,
                     shape: tuple[int, ...]) -> Distributed:
    """``tensor``'s elements in the distributed ``layout``."""
    storage = tensor.storage
    plan = access_plan(tensor.layout, layout, storage.size, unique=False)
    b = fl.builder
    values: list = [None] * layout.in_dim_size("register")
    for start, pointer, vector in _pointers(fl, tensor, plan):
        loaded = b.load(pointer, typ=vector, align=plan.width * storage.size)
        for lane in range(plan.width):
            raw = loaded if plan.width == 1 else b.extract_element(loaded,
                                                                   ir.Constant(I32, lane))
            values[start + lane] = storage.value(fl, raw)
    return Distributed(layout, values, shape)


class LdmatrixPlan(NamedTuple):
    """``ldmatrix.x4`` for groups of 8 registers: `addresses` maps a thread's lane and warp to
    the offset of the row it names (xor each group's constant in `constants`)."""

    addresses: LinearLayout
    transposed: bool
    constants: tuple[int, ...]


def ldmatrix_plan(shared: LinearLayout, distributed: LinearLayout) -> LdmatrixPlan | None:
    """How to load ``distributed`` (16-bit elements) from ``shared`` with ``ldmatrix.x4``, or
    None when the map does not have its shape (see the module docstring).

    Plain: register bit 0 and lane bits 0-1 are the offsets 1, 2, 4 within a row; lane bits
    2-4 pick the row and register bits 1-2 the matrix, so the row lane ``i`` names is lane
    bits 2-4 and register bits 1-2 at ``i``'s bits 0-2 and 3-4. Transposed: lane bits 2-4 are
    the offsets 1, 2, 4, register bit 0 and lane bits 0-1 pick the row. All other bits must
    keep rows 16-byte aligned (offsets multiple of 8)."""
    offsets = shared.invert_and_compose(distributed).sublayout(("register", "lane", "warp"),
                                                               ("offset",))
    if offsets.in_dim_bits("register") < 3 or offsets.in_dim_bits("lane") != 5:
        return None
    reg = [b[0] for b in offsets.bases["register"]]
    lane = [b[0] for b in offsets.bases["lane"]]
    warp = [b[0] for b in offsets.bases.get("warp", ())]
    for transposed in (False, True):
        within = [lane[2], lane[3], lane[4]] if transposed else [reg[0], lane[0], lane[1]]
        rows = [reg[0], lane[0], lane[1]] if transposed else [lane[2], lane[3], lane[4]]
        if within != [1, 2, 4]:
            continue
        if any(b % 8 for b in rows + reg[1:] + warp):
            continue
        addresses = LinearLayout({"lane": [(b,) for b in rows + reg[1:3]],
                                  "warp": [(b,) for b in warp]},
                                 {"offset": offsets.out_dim_size("offset")})
        constants = tuple(offsets.apply(register=start)[0]
                          for start in range(0, offsets.in_dim_size("register"), 8))
        return LdmatrixPlan(addresses, transposed, constants)
    return None


def load_by_ldmatrix(fl: GPULowering, tensor: SharedTensor, plan: LdmatrixPlan,
                     layout: LinearLayout, shape: tuple[int, ...]) -> Distributed:
    """``tensor``'s 16-bit elements in ``layout``, by ``plan``."""
    b = fl.builder
    name = "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4." + ("trans." if plan.transposed else "")
    result = ir.LiteralStructType([I32] * 4)
    fn = fl.declare(name + "b16.p3", result, [tensor.base.type])
    half = ir.IntType(16)
    values: list = []
    for constant in plan.constants:
        offset = thread_offset(fl, plan.addresses, constant ^ tensor.corner)
        loaded = b.call(fn, [tensor.storage.pointer(fl, tensor.base, offset)])
        for matrix in range(4):
            word = b.extract_value(loaded, matrix)
            for position in (0, 1):
                bits = word if position == 0 else b.lshr(word, ir.Constant(I32, 16))
                values.append(tensor.storage.value(fl, b.trunc(bits, half)))
    return Distributed(layout, values, shape)


def shared_tensor(fl: GPULowering, op: Operation, value) -> SharedTensor:
    """The lowered descriptor ``value`` (an operand of ``op``), one buffer of it."""
    lowered = fl.get(value)
    if not isinstance(lowered, SharedTensor):
        raise error_at(op, f"'{op.name}' needs a shared-memory descriptor")
    if lowered.count > 1:
        raise error_at(op, f"'{op.name}' on a multi-buffered allocation: pick one buffer "
                       "with ttg.memdesc_index first")
    return lowered


def _encoding_rank(encoding, shape: tuple[int, ...]) -> int:
    """The rank the shared ``encoding`` describes (a swizzled layout's order may cover only
    the trailing dims of a multi-buffered allocation; an NVMMA layout is one of a matrix)."""
    if isinstance(encoding, SwizzledSharedEncodingAttr):
        return len(encoding.order)
    if isinstance(encoding, NVMMASharedEncodingAttr):
        return 2
    return len(shape)


@lowers("ttg.local_alloc")
def _local_alloc(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    memdesc = result.type
    shape = tuple(memdesc.alloc_shape or memdesc.shape)
    rank = _encoding_rank(memdesc.encoding, shape)
    buffer_shape = shape[len(shape) - rank:]
    layout = shared_layout(memdesc.encoding, buffer_shape)
    if layout is None or layout.in_dim_bits("block") or set(layout.in_dims) - {"offset",
                                                                               "block"}:
        raise error_at(op, f"the CUDA backend has no lowering for the shared layout "
                       f"{memdesc.encoding}")
    if rank < len(shape) and op.operands:
        raise error_at(op, "a multi-buffered ttg.local_alloc cannot be initialized")
    buffer = fl.allocation.value_buffer.get(result) if fl.allocation is not None else None
    if buffer is None:
        raise error_at(op, "the shared-memory allocation placed no buffer for this "
                       "ttg.local_alloc")
    count = math.prod(shape[:len(shape) - rank])
    tensor = SharedTensor(fl.shared_pointer(buffer.offset, buffer.size), layout,
                          Storage.of(memdesc.element_type), count=count,
                          buffer_elements=math.prod(buffer_shape))
    fl.set(result, tensor)
    if op.operands:
        store_distributed(fl, tensor, fl.dist(op.operands[0]))
        _fence_for_wgmma(fl, memdesc)


def _fence_for_wgmma(fl: GPULowering, memdesc) -> None:
    """A proxy fence after threads write an NVMMA buffer that ``wgmma`` may read."""
    if fl.async_proxy_reads and isinstance(memdesc.encoding, NVMMASharedEncodingAttr):
        fl.fence_async_shared()


@lowers("ttg.memdesc_index")
def _memdesc_index(fl: GPULowering, op: Operation) -> None:
    """Buffer ``index`` of a multi-buffered allocation (buffers of a rank-3 allocation
    ``N x ...`` with a rank-2 encoding)."""
    source = fl.get(op.operands[0])
    source_type = op.operands[0].type
    source_shape = tuple(source_type.shape)
    if not isinstance(source, SharedTensor) or len(source_shape) <= _encoding_rank(
            source_type.encoding, source_shape):
        # a leading buffer dim of 1 (one buffer) is still one to index
        raise error_at(op, "ttg.memdesc_index needs a multi-buffered shared allocation")
    if len(op.results[0].type.shape) != len(op.operands[0].type.shape) - 1:
        raise error_at(op, "the CUDA backend indexes only the leading dim of a "
                       "multi-buffered allocation whose encoding covers the other dims")
    b = fl.builder
    start = b.mul(fl.get(op.operands[1]), ir.Constant(I32, source.buffer_elements))
    fl.set(op.results[0], SharedTensor(source.storage.pointer(fl, source.base, start),
                                       source.layout, source.storage))


@lowers("ttg.memdesc_subslice")
def _memdesc_subslice(fl: GPULowering, op: Operation) -> None:
    """A box of a buffer whose corner is a multiple of the box's shape in every dim, so that
    its coordinates are the box's own with the corner's bits or-ed in: every offset is the
    buffer's offset for the box coordinate xor the corner's offset."""
    source = shared_tensor(fl, op, op.operands[0])
    shape = tuple(op.results[0].type.shape)
    corner = tuple(op.offsets)
    if any(size & (size - 1) or c % size for c, size in zip(corner, shape)):
        raise error_at(op, f"the CUDA backend needs each offset of a ttg.memdesc_subslice to "
                       f"be a multiple of the power-of-two result shape, got offsets "
                       f"{list(corner)} for shape {list(shape)}")
    names = source.layout.out_dim_names
    inverse = source.layout.sublayout(("offset",), names).invert()
    position = inverse.apply(**dict(zip(names, corner)))[0]
    fl.set(op.results[0], SharedTensor(source.base, source.layout, source.storage,
                                       corner=source.corner ^ position))


@lowers("ttg.local_store")
def _local_store(fl: GPULowering, op: Operation) -> None:
    store_distributed(fl, shared_tensor(fl, op, op.operands[1]), fl.dist(op.operands[0]))
    _fence_for_wgmma(fl, op.operands[1].type)


@lowers("ttg.local_load")
def _local_load(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    tensor = shared_tensor(fl, op, op.operands[0])
    layout, shape = fl.layout(result.type), tuple(result.type.shape)
    plan = ldmatrix_plan(tensor.layout, layout) if tensor.storage.size == 2 else None
    if plan is not None:
        fl.set(result, load_by_ldmatrix(fl, tensor, plan, layout, shape))
    else:
        fl.set(result, load_distributed(fl, tensor, layout, shape))


@lowers("ttg.local_dealloc")
def _local_dealloc(fl: GPULowering, op: Operation) -> None:
    """Nothing to do: the allocation already reuses the buffer after its last use."""
