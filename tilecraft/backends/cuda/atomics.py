"""``tt.atomic_rmw``, ``tt.atomic_cas`` and ``tt.histogram`` on the GPU.

Each element of a tensor atomic is performed once, by the thread that represents it (threads
holding copies of an element skip it and receive the old value through shared memory); a scalar
atomic is performed by thread 0 and its old value broadcast the same way. Masked-off elements
are skipped and read as 0. A histogram counts into shared memory with atomic adds.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation, RankedTensorType

from ..cpu import types as T
from ..cpu.atomics import RMW_KINDS, llvm_ordering
from ..cpu.shapes import scalar_constant
from .lowering import I32, Distributed, GPULowering, lowers, reg_type
from .scratch import Storage, row_major

def _global(fl: GPULowering, pointer: ir.Value) -> ir.Value:
    if pointer.type.addrspace == 1:
        return pointer
    return fl.builder.addrspacecast(pointer, ir.PointerType(addrspace=1))


def _guarded(fl: GPULowering, condition: ir.Value | None, compute, ty: ir.Type) -> ir.Value:
    """``compute()`` where ``condition`` holds (always when None), else 0."""
    if condition is None:
        return compute()
    b = fl.builder
    before = b.block
    with b.if_then(condition):
        value = compute()
        inside = b.block
    phi = b.phi(ty)
    phi.add_incoming(scalar_constant(ty, 0), before)
    phi.add_incoming(value, inside)
    return phi


def _elementwise_atomic(fl: GPULowering, op: Operation, operands: list, compute) -> None:
    """Runs ``compute(values) -> old`` once per element and gives the op's result the olds."""
    b = fl.builder
    result = op.results[0]
    ty = reg_type(result.type)
    mask = op.mask if hasattr(op, "mask") else None
    if not isinstance(result.type, RankedTensorType):
        condition = b.icmp_unsigned("==", fl.tid, ir.Constant(I32, 0))
        if mask is not None:
            condition = b.and_(condition, fl.get(mask))
        old = _guarded(fl, condition, lambda: compute([fl.get(v) for v in operands]), ty)
        fl.set(result, _broadcast_scalar(fl, old, result.type))
        return
    tensors = [fl.dist(v) for v in operands]
    layout = tensors[0].layout
    masks = fl.dist(mask) if mask is not None else None
    representative = fl.is_representative(layout)
    seen: set = set()
    values = []
    for register in range(len(tensors[0].values)):
        coordinate = layout.apply(register=register)
        if coordinate in seen:  # a copy within the thread: same element, same old value
            values.append(values[[layout.apply(register=r) for r in range(register)]
                                 .index(coordinate)])
            continue
        seen.add(coordinate)
        condition = representative
        if masks is not None:
            m = masks.values[register]
            condition = m if condition is None else b.and_(condition, m)
        values.append(_guarded(fl, condition,
                               lambda r=register: compute([t.values[r] for t in tensors]), ty))
    out = Distributed(layout, values, tuple(result.type.shape))
    if representative is not None and result.uses:
        out = _from_representatives(fl, out, result.type)
    fl.set(result, out)


def _broadcast_scalar(fl: GPULowering, value: ir.Value, t) -> ir.Value:
    """Thread 0's ``value`` (of tile type ``t``), in every thread."""
    b = fl.builder
    storage = Storage.of(t)
    base = fl.shared_base(storage.size)
    zero = ir.Constant(I32, 0)
    with b.if_then(b.icmp_unsigned("==", fl.tid, zero)):
        storage.store(fl, base, zero, value)
    fl.barrier()
    return storage.load(fl, base, zero)


def _from_representatives(fl: GPULowering, tensor: Distributed,
                          t: RankedTensorType) -> Distributed:
    """``tensor`` with every thread's copies replaced by its representative's values."""
    b = fl.builder
    storage = Storage.of(t)
    shape = tuple(t.shape)
    numel = 1
    for size in shape:
        numel *= size
    base = fl.shared_base(numel * storage.size)
    with b.if_then(fl.is_representative(tensor.layout)):
        for register, value in enumerate(tensor.values):
            index = row_major(fl, fl.coordinates(tensor.layout, register), shape)
            storage.store(fl, base, index, value)
    fl.barrier()
    values = [storage.load(fl, base, row_major(fl, fl.coordinates(tensor.layout, register),
                                                shape))
              for register in range(len(tensor.values))]
    return tensor.with_values(values)


@lowers("tt.atomic_rmw")
def _atomic_rmw(fl: GPULowering, op: Operation) -> None:
    elem = T.element_type(op.val.type)
    kind = RMW_KINDS[op.atomic_rmw_op.name]
    ordering = llvm_ordering(op)
    b = fl.builder

    def compute(values: list) -> ir.Value:
        pointer, value = values
        pointer = _global(fl, pointer)
        if T.is_half(elem):
            half = ir.HalfType() if elem.kind == "f16" else ir.IntType(16)
            if elem.kind == "bf16" or kind != "fadd":
                return _half_by_cas(fl, kind, pointer, value, elem, ordering)
            old = b.atomic_rmw(kind, pointer, b.bitcast(T.to_memory(fl, value, elem), half),
                               ordering)
            return T.from_memory(fl, b.bitcast(old, T.I16), elem)
        if value.type == T.I1:
            return b.trunc(b.atomic_rmw(kind, pointer, b.zext(value, T.I8), ordering), T.I1)
        return b.atomic_rmw(kind, pointer, value, ordering)

    _elementwise_atomic(fl, op, [op.ptr, op.val], compute)


def _half_by_cas(fl: GPULowering, kind: str, pointer: ir.Value, value: ir.Value, elem,
                 ordering: str) -> ir.Value:
    """``kind`` (fadd or xchg) on a 16-bit float by compare-and-swap; returns the old value."""
    b = fl.builder
    if kind == "xchg":
        old = b.atomic_rmw("xchg", pointer, T.to_memory(fl, value, elem), ordering)
        return T.from_memory(fl, old, elem)
    start = b.block
    retry = b.append_basic_block("cas.retry")
    done = b.append_basic_block("cas.done")
    initial = b.load(pointer, typ=T.I16)
    b.branch(retry)
    b.position_at_end(retry)
    expected = b.phi(T.I16)
    expected.add_incoming(initial, start)
    current = T.from_memory(fl, expected, elem)
    updated = T.to_memory(fl, T.round_narrow(fl, b.fadd(current, value), elem), elem)
    pair = b.cmpxchg(pointer, expected, updated, ordering, "monotonic")
    expected.add_incoming(b.extract_value(pair, 0), b.block)
    b.cbranch(b.extract_value(pair, 1), done, retry)
    b.position_at_end(done)
    return T.from_memory(fl, expected, elem)


@lowers("tt.atomic_cas")
def _atomic_cas(fl: GPULowering, op: Operation) -> None:
    elem = T.element_type(op.val.type)
    ordering = llvm_ordering(op)
    failure = "monotonic" if ordering in ("release", "monotonic") else "acquire"
    b = fl.builder

    def compute(values: list) -> ir.Value:
        pointer, compare, value = values
        pointer = _global(fl, pointer)
        if T.is_narrow(elem) or isinstance(value.type, (ir.FloatType, ir.DoubleType)):
            bits = T.mem_type(elem) if T.is_half(elem) else ir.IntType(
                32 if value.type == T.F32 else 64)

            def as_bits(v: ir.Value) -> ir.Value:
                return T.to_memory(fl, v, elem) if T.is_half(elem) else b.bitcast(v, bits)

            pair = b.cmpxchg(pointer, as_bits(compare), as_bits(value), ordering, failure)
            old = b.extract_value(pair, 0)
            return T.from_memory(fl, old, elem) if T.is_half(elem) else b.bitcast(old,
                                                                                  value.type)
        return b.extract_value(b.cmpxchg(pointer, compare, value, ordering, failure), 0)

    _elementwise_atomic(fl, op, [op.ptr, op.cmp, op.val], compute)


@lowers("tt.histogram")
def _histogram(fl: GPULowering, op: Operation) -> None:
    """Counts into ``bins`` i32 counters in shared memory; values outside [0, bins) and
    masked-off ones are not counted."""
    b = fl.builder
    source = fl.dist(op.operands[0])
    mask = fl.dist(op.operands[1]) if len(op.operands) > 1 else None
    result = op.results[0]
    bins = result.type.shape[0]
    counter = ir.IntType(32)
    base = fl.shared_base(bins * 4)
    threads = fl.num_warps * fl.threads_per_warp
    for start in range(0, bins, threads):
        index = b.add(fl.tid, ir.Constant(I32, start))
        with b.if_then(b.icmp_unsigned("<", index, ir.Constant(I32, bins))):
            b.store(ir.Constant(counter, 0), b.gep(base, [index], source_etype=counter))
    fl.barrier()
    representative = fl.is_representative(source.layout)
    seen: set = set()
    for register, value in enumerate(source.values):
        coordinate = source.layout.apply(register=register)
        if coordinate in seen:
            continue
        seen.add(coordinate)
        wide = value if value.type.width >= 32 else b.sext(value, counter)
        bound = ir.Constant(wide.type, bins)
        inside = b.icmp_unsigned("<", wide, bound)
        if representative is not None:
            inside = b.and_(inside, representative)
        if mask is not None:
            inside = b.and_(inside, mask.values[register])
        with b.if_then(inside):
            slot = b.gep(base, [b.trunc(wide, I32) if wide.type.width > 32 else wide],
                         source_etype=counter, inbounds=True)
            b.atomic_rmw("add", slot, ir.Constant(counter, 1), "monotonic")
    fl.barrier()
    layout = fl.layout(result.type)
    values = []
    for register in range(layout.in_dim_size("register")):
        (index,) = fl.coordinates(layout, register)
        values.append(b.load(b.gep(base, [index], source_etype=counter), typ=counter))
    fl.set(result, Distributed(layout, values, (bins,)))
