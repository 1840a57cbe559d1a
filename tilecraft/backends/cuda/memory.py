"""Global memory on the GPU: ``tt.load`` and ``tt.store`` through tensors of pointers, as wide
vector accesses where the layout and the axis info allow it.

A thread's registers ``r, r+1, ..., r+v-1`` form one vector access when the layout puts them on
consecutive elements along a dim (`contiguous_registers`) and the axis info of the pointers
proves those elements consecutive and aligned in memory, with one mask value for all of them
(`AxisInfoAnalysis.vector_width`); at most 128 bits. Masked accesses are predicated PTX
(``@p ld.global.v4.b32``), as inline assembly, so that a masked-off lane reads ``other`` without
branching; unmasked ones are plain LLVM loads and stores. Stores of elements that several
threads hold (a broadcast layout) are made by one of them only.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation, RankedTensorType

from ..cpu import memory as cpu_memory
from ..cpu import types as T
from ..cpu.shapes import scalar_constant
from .lowering import GLOBAL, I1, I32, Distributed, GPULowering, lowers

_WORD_CONSTRAINTS = {16: "h", 32: "r", 64: "l"}


def vector_plan(fl: GPULowering, op: Operation, pointers: Distributed,
                mask: Operation | None) -> tuple[int, int]:
    """(the number of registers per access, the bits of one element in memory)."""
    elem = T.element_type(op.operands[0].type).pointee_type
    bits = _bits(T.mem_type(elem))
    return fl.axis_info.layout_vector_width(op.operands[0], pointers.layout, bits,
                                            mask=mask), bits


def _bits(mem: ir.Type) -> int:
    if isinstance(mem, ir.IntType):
        return mem.width
    if isinstance(mem, ir.PointerType) or mem == T.F64:
        return 64
    return 32


def _words(vec: int, bits: int) -> tuple[int, int]:
    """How a vector of ``vec`` elements of ``bits`` moves: (word bits, number of words)."""
    total = vec * bits
    if total < 16:
        return total, 1
    word = 64 if bits == 64 else min(32, total)
    return word, total // word


def _pack(fl: GPULowering, raw: list[ir.Value], bits: int, word: int) -> list[ir.Value]:
    """Memory-typed elements packed into words."""
    b = fl.builder
    ints = [v if isinstance(v.type, ir.IntType) else b.bitcast(v, ir.IntType(bits))
            for v in raw]
    if word == bits:
        return ints
    per_word = word // bits
    words = []
    for start in range(0, len(ints), per_word):
        vector = ir.Constant(ir.VectorType(ir.IntType(bits), per_word), None)
        for k in range(per_word):
            vector = b.insert_element(vector, ints[start + k], ir.Constant(I32, k))
        words.append(b.bitcast(vector, ir.IntType(word)))
    return words


def _unpack(fl: GPULowering, words: list[ir.Value], bits: int, word: int,
            mem: ir.Type) -> list[ir.Value]:
    b = fl.builder
    ints: list[ir.Value] = []
    if word == bits:
        ints = list(words)
    else:
        per_word = word // bits
        for w in words:
            vector = b.bitcast(w, ir.VectorType(ir.IntType(bits), per_word))
            ints.extend(b.extract_element(vector, ir.Constant(I32, k)) for k in range(per_word))
    return [v if mem == v.type else b.bitcast(v, mem) for v in ints]


def _global(fl: GPULowering, pointer: ir.Value) -> ir.Value:
    if pointer.type.addrspace == GLOBAL:
        return pointer
    return fl.builder.addrspacecast(pointer, ir.PointerType(addrspace=GLOBAL))


def _predicated_load(fl: GPULowering, pointer: ir.Value, predicate: ir.Value, word: int,
                     count: int, others: list[ir.Value]) -> list[ir.Value]:
    """``count`` words of ``word`` bits at ``pointer`` where ``predicate`` holds, else
    ``others``."""
    kind = f"b{word}"
    outs = ", ".join(f"${k}" for k in range(count))
    moves = "".join(f"mov.{kind} ${k}, ${count + 2 + k};\n\t" for k in range(count))
    vector = f".v{count}" if count > 1 else ""
    target = f"{{ {outs} }}" if count > 1 else "$0"
    text = f"{moves}@${count} ld.global{vector}.{kind} {target}, [ ${count + 1} + 0 ];"
    letter = _WORD_CONSTRAINTS[word]
    constraints = ",".join([f"=&{letter}"] * count + ["b", "l"] + [letter] * count)
    ity = ir.IntType(word)
    result = ir.LiteralStructType([ity] * count) if count > 1 else ity
    asm = ir.InlineAsm(ir.FunctionType(result, [I1, ir.PointerType(addrspace=GLOBAL)]
                                       + [ity] * count), text, constraints, side_effect=True)
    value = fl.builder.call(asm, [predicate, pointer, *others])
    if count == 1:
        return [value]
    return [fl.builder.extract_value(value, k) for k in range(count)]


def _predicated_store(fl: GPULowering, pointer: ir.Value, predicate: ir.Value, word: int,
                      words: list[ir.Value]) -> None:
    count = len(words)
    kind = f"b{word}"
    vector = f".v{count}" if count > 1 else ""
    values = ", ".join(f"${k + 2}" for k in range(count))
    source = f"{{ {values} }}" if count > 1 else "$2"
    text = f"@$0 st.global{vector}.{kind} [ $1 + 0 ], {source};"
    letter = _WORD_CONSTRAINTS[word]
    constraints = ",".join(["b", "l"] + [letter] * count)
    ity = ir.IntType(word)
    asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), [I1, ir.PointerType(addrspace=GLOBAL)]
                                       + [ity] * count), text, constraints, side_effect=True)
    fl.builder.call(asm, [predicate, pointer, *words])


def _plain_vector_load(fl: GPULowering, pointer: ir.Value, word: int, count: int,
                       align: int) -> list[ir.Value]:
    ity = ir.IntType(word)
    ty = ir.VectorType(ity, count) if count > 1 else ity
    loaded = fl.builder.load(pointer, typ=ty, align=align)
    if count == 1:
        return [loaded]
    return [fl.builder.extract_element(loaded, ir.Constant(I32, k)) for k in range(count)]


def _plain_vector_store(fl: GPULowering, pointer: ir.Value, words: list[ir.Value], word: int,
                        align: int) -> None:
    b = fl.builder
    if len(words) == 1:
        b.store(words[0], pointer, align=align)
        return
    vector = ir.Constant(ir.VectorType(ir.IntType(word), len(words)), None)
    for k, w in enumerate(words):
        vector = b.insert_element(vector, w, ir.Constant(I32, k))
    b.store(vector, pointer, align=align)


@lowers("tt.load")
def _load(fl: GPULowering, op: Operation) -> None:
    result = op.results[0]
    elem = T.element_type(result.type)
    mem = T.mem_type(elem)
    if not isinstance(result.type, RankedTensorType):
        fl.set(result, _scalar_load(fl, op, elem, mem))
        return
    if T.is_block_pointer(op.ptr.type):
        pointers, mask = _block_pointer_elements(fl, op, result.type)
        other = _padding(op, elem) if mask is not None else None
        vec, bits = 1, _bits(mem)
    else:
        pointers = fl.dist(op.ptr)
        mask = fl.dist(op.mask) if op.mask is not None else None
        other = fl.get(op.other) if op.other is not None else None
        vec, bits = vector_plan(fl, op, pointers, op.mask)
    word, count = _words(vec, bits)
    values = []
    for start in range(0, len(pointers.values), vec):
        pointer = _global(fl, pointers.values[start])
        if mask is None:
            words = _plain_vector_load(fl, pointer, word, count, vec * bits // 8)
        else:
            if other is None:
                fallback = [ir.Constant(mem, 0 if isinstance(mem, ir.IntType) else 0.0)] * vec
            else:
                fallback = [T.to_memory(fl, other.values[start + k]
                                        if isinstance(other, Distributed) else other, elem)
                            for k in range(vec)]
            fallback_words = _pack(fl, fallback, bits, word)
            if word < 16:
                words = [_branchy_load(fl, pointer, mask.values[start], fallback_words[0])]
            else:
                words = _predicated_load(fl, pointer, mask.values[start], word, count,
                                         fallback_words)
        for raw in _unpack(fl, words, bits, word, mem):
            values.append(T.from_memory(fl, raw, elem))
    fl.set(result, Distributed(pointers.layout, values, pointers.shape))


def _branchy_load(fl: GPULowering, pointer: ir.Value, predicate: ir.Value,
                  fallback: ir.Value) -> ir.Value:
    """A load of one narrow word under a branch (PTX has no 8-bit registers to predicate)."""
    b = fl.builder
    before = b.block
    with b.if_then(predicate):
        loaded = b.load(pointer, typ=fallback.type)
        inside = b.block
    phi = b.phi(fallback.type)
    phi.add_incoming(fallback, before)
    phi.add_incoming(loaded, inside)
    return phi


def _scalar_load(fl: GPULowering, op: Operation, elem, mem: ir.Type) -> ir.Value:
    b = fl.builder
    pointer = _global(fl, fl.get(op.ptr))
    if op.mask is None:
        return T.from_memory(fl, b.load(pointer, typ=mem), elem)
    if op.other is not None:
        fallback = T.to_memory(fl, fl.get(op.other), elem)
    else:
        fallback = scalar_constant(mem, 0)
    return T.from_memory(fl, _branchy_load(fl, pointer, fl.get(op.mask), fallback), elem)


@lowers("tt.store")
def _store(fl: GPULowering, op: Operation) -> None:
    elem = T.element_type(op.value.type)
    b = fl.builder
    if not isinstance(op.value.type, RankedTensorType):
        condition = b.icmp_unsigned("==", fl.tid, ir.Constant(I32, 0))
        if op.mask is not None:
            condition = b.and_(condition, fl.get(op.mask))
        with b.if_then(condition):
            b.store(T.to_memory(fl, fl.get(op.value), elem), _global(fl, fl.get(op.ptr)))
        return
    values = fl.dist(op.value)
    if T.is_block_pointer(op.ptr.type):
        pointers, mask = _block_pointer_elements(fl, op, op.value.type)
        vec, bits = 1, _bits(T.mem_type(elem))
    else:
        pointers = fl.dist(op.ptr)
        mask = fl.dist(op.mask) if op.mask is not None else None
        vec, bits = vector_plan(fl, op, pointers, op.mask)
    word, count = _words(vec, bits)
    representative = fl.is_representative(pointers.layout)
    free_registers = pointers.layout.free_variable_masks().get("register", 0)
    for start in range(0, len(pointers.values), vec):
        if start & free_registers:
            continue  # another register of this thread holds the same elements
        pointer = _global(fl, pointers.values[start])
        raw = [T.to_memory(fl, values.values[start + k], elem) for k in range(vec)]
        words = _pack(fl, raw, bits, word)
        predicate = representative
        if mask is not None:
            m = mask.values[start]
            predicate = m if predicate is None else b.and_(predicate, m)
        if predicate is None:
            _plain_vector_store(fl, pointer, words, word, vec * bits // 8)
        elif word < 16:
            with b.if_then(predicate):
                b.store(words[0], pointer)
        else:
            _predicated_store(fl, pointer, predicate, word, words)



# -- block pointers ---------------------------------------------------------------------------


# A block pointer is held as on the CPU: base, then per dim the shape (i64), the strides (i64)
# and the offsets (i32); the CPU backend's lowerings of these two ops only touch scalars.
lowers("tt.make_tensor_ptr")(cpu_memory.make_tensor_ptr)
lowers("tt.advance")(cpu_memory.advance)


def _block_pointer_elements(fl: GPULowering, op: Operation, t: RankedTensorType
                            ) -> tuple[Distributed, Distributed | None]:
    """The pointers of the elements of this thread's registers and, when the op checks
    boundaries, whether each lies inside the tensor."""
    b = fl.builder
    pointer = fl.get(op.ptr)
    rank = len(t.shape)
    base = pointer[0]
    sizes, strides = pointer[1:1 + rank], pointer[1 + rank:1 + 2 * rank]
    offsets = pointer[1 + 2 * rank:]
    storage = T.mem_type(T.element_type(t))
    checked = sorted(set(op.boundary_check or ()))
    layout = fl.layout(t)
    pointers, masks = [], []
    for register in range(layout.in_dim_size("register")):
        coordinates = fl.coordinates(layout, register)
        positions = [b.sext(b.add(offsets[d], coordinates[d]), T.I64) for d in range(rank)]
        total: ir.Value = ir.Constant(T.I64, 0)
        for d in range(rank):
            total = b.add(total, b.mul(positions[d], strides[d]))
        pointers.append(b.gep(base, [total], source_etype=storage))
        inside = None
        for d in checked:
            ok = b.and_(b.icmp_signed(">=", positions[d], ir.Constant(T.I64, 0)),
                        b.icmp_signed("<", positions[d], sizes[d]))
            inside = ok if inside is None else b.and_(inside, ok)
        masks.append(inside)
    shape = tuple(t.shape)
    mask = Distributed(layout, masks, shape) if checked else None
    return Distributed(layout, pointers, shape), mask


def _padding(op: Operation, elem) -> ir.Value:
    """What a block-pointer load reads outside the tensor: zero, or NaN for padding=nan."""
    ty = T.reg_type(elem)
    padding = op.padding
    if padding is not None and padding.name.lower().endswith("nan"):
        return ir.Constant(ty, float("nan"))
    return scalar_constant(ty, 0)
