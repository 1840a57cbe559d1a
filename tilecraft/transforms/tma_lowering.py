"""`triton-nvidia-tma-lowering`: tensor-descriptor loads and stores as TMA copies (sm_90+).

A descriptor's blocks live in shared memory in one ``#ttg.nvmma_shared`` layout
(`tma_shared_encoding`): rank 2, rows along dim 0 (8 to 256 of them), the row's bytes a multiple
of 32, swizzled by the widest of 128, 64 or 32 bytes that divides them. The tensor memory
accelerator fills such a buffer one *box* at a time: all the rows, one swizzle width of columns
(`tma_box`); a wider block takes several boxes, one per column slab, which is how the layout
stacks them. The pipeliner (`tritongpu-pipeline`) multi-buffers the loads of loops; this pass
lowers the others (see the pass description) and the stores.

`descriptors_use_tma` says whether a kernel's descriptors go this way at all: on sm_90+, when
every descriptor (a kernel argument, a host `TensorDescriptor` passed as a pointer to its
encoded ``CUtensorMap``, or made by ``tt.make_tensor_descriptor``, whose map the kernel builds
in global scratch memory) has blocks with a TMA layout and is only loaded and stored.
Otherwise `make_ttir` rewrites them to pointer arithmetic.

A descriptor the kernel makes is a ``CUtensorMap`` it writes to global memory
(`write_tensormap`: ``ttng.tensormap_create``, ``ttng.tensormap_fenceproxy_acquire``, then
``ttng.reinterpret_tensor_descriptor`` of the map's address). This pass gives each
``tt.make_tensor_descriptor`` the pipeliner left one map of its own (a
``ttg.global_scratch_alloc`` of `TENSORMAP_BYTES`), written again where the op was;
the pipeliner gives the ones of loops with asynchronous stores several
(`descriptor_buffers`).
"""

from __future__ import annotations

from tilecraft.generated.arith import ConstantOp, MulIOp
from tilecraft.generated.passes import TritonNvidiaGPUTMALoweringPassBase
from tilecraft.generated.tt import PaddingOption, PointerType, TensorDescType
from tilecraft.generated.ttg import (GlobalScratchAllocOp, LocalAllocOp, LocalLoadOp,
                                     MemDescType, NVMMASharedEncodingAttr, SharedMemorySpaceAttr,
                                     SwizzledSharedEncodingAttr)
from tilecraft.generated.ttng import (AsyncTMACopyGlobalToLocalOp, AsyncTMACopyLocalToGlobalOp,
                                      BarrierExpectOp, FenceAsyncSharedOp, InitBarrierOp,
                                      InvalBarrierOp, ReinterpretTensorDescOp,
                                      TensormapCreateOp, TensormapFenceproxyAcquireOp,
                                      TMAStoreWaitOp, WaitBarrierOp)
from tilecraft.ir import Builder, IntegerAttr, IntegerType, Location, Operation, Type, Value

__all__ = ["TENSORMAP_BYTES", "TritonNvidiaGPUTMALoweringPass", "barrier_type", "block_bytes",
           "descriptors_use_tma", "lower_tma", "scratch_pointer_type", "tma_box",
           "tma_shared_encoding", "write_tensormap"]

_I1 = IntegerType(1)
_I32 = IntegerType(32)
_I64 = IntegerType(64)
_SWIZZLES = (128, 64, 32)
#: The ops a descriptor may have on the TMA path.
_TMA_USERS = ("tt.descriptor_load", "tt.descriptor_store")
#: Bytes (and alignment) of one ``CUtensorMap``.
TENSORMAP_BYTES = 128
#: ``ttng.tensormap_create``'s element type codes (the ``CUtensorMapDataType`` values): floats
#: by kind, the others (fp8 and integers move as bits) by width.
_FLOAT_CODES = {"f16": 6, "f32": 7, "f64": 9, "bf16": 10}
_BITS_CODES = {8: 0, 16: 1, 32: 2, 64: 4}
#: ``ttng.tensormap_create``'s swizzle codes, by swizzle bytes.
_SWIZZLE_CODES = {32: 1, 64: 2, 128: 3}


def _element_bits(desc_type: TensorDescType) -> int:
    return desc_type.element_type.width


def tma_shared_encoding(desc_type: TensorDescType) -> NVMMASharedEncodingAttr | None:
    """The shared layout of the descriptor's blocks on the TMA path, or None when TMA cannot
    move them in one (see the module docstring)."""
    shape = tuple(desc_type.shape)
    if len(shape) != 2 or not 8 <= shape[0] <= 256:
        return None
    bits = _element_bits(desc_type)
    if bits not in (8, 16, 32):
        return None
    row_bytes = shape[1] * bits // 8
    swizzle = next((w for w in _SWIZZLES if row_bytes % w == 0), 0)
    if not swizzle:
        return None
    return NVMMASharedEncodingAttr(swizzle, False, bits)


def tma_box(desc_type: TensorDescType) -> tuple[int, int]:
    """(rows, columns) of one TMA box of the descriptor's blocks."""
    encoding = tma_shared_encoding(desc_type)
    columns = encoding.swizzling_byte_width * 8 // _element_bits(desc_type)
    return desc_type.shape[0], min(columns, desc_type.shape[1])


def block_bytes(desc_type: TensorDescType) -> int:
    """The bytes of one block of the descriptor."""
    return desc_type.shape[0] * desc_type.shape[1] * _element_bits(desc_type) // 8


def descriptors_use_tma(module: Operation, capability: int | None) -> bool:
    """Whether the module's tensor descriptors can take the TMA path (module docstring);
    False when it has none."""
    if capability is None or capability < 90:
        return False
    found = False
    for op in module.walk():
        if op.name == "tt.make_tensor_descriptor":
            found = True
            if tma_shared_encoding(op.results[0].type) is None:
                return False
        elif op.name == "tt.func":
            for arg_type in op.function_type.inputs:
                if isinstance(arg_type, TensorDescType):
                    found = True
                    if tma_shared_encoding(arg_type) is None:
                        return False
        elif op.name not in _TMA_USERS and any(
                isinstance(v.type, TensorDescType) for v in op.operands):
            return False
    return found


def _buffer_type(desc_type: TensorDescType) -> MemDescType:
    return MemDescType(tuple(desc_type.shape), desc_type.element_type,
                       tma_shared_encoding(desc_type), SharedMemorySpaceAttr(), True)


def barrier_type(count: int | None = None) -> MemDescType:
    """The type of one mbarrier (``count`` None) or of ``count`` of them."""
    shape = (1,) if count is None else (count, 1)
    return MemDescType(shape, _I64, SwizzledSharedEncodingAttr(1, 1, 1, (0,)),
                       SharedMemorySpaceAttr(), True)


def _constant(builder: Builder, value: int, type_: IntegerType, location: Location) -> Value:
    return builder.insert(ConstantOp.build(IntegerAttr(value, type_),
                                           location=location)).results[0]


def _lower_load(load: Operation) -> None:
    desc_type = load.desc.type
    location = load.location
    b = Builder.before(load, location)
    buffer = b.insert(LocalAllocOp.build(_buffer_type(desc_type), location=location)).results[0]
    barrier = b.insert(LocalAllocOp.build(barrier_type(), location=location)).results[0]
    true = _constant(b, 1, _I1, location)
    b.insert(InitBarrierOp.build(barrier, 1, location=location))
    b.insert(BarrierExpectOp.build(barrier, true, block_bytes(desc_type), location=location))
    b.insert(AsyncTMACopyGlobalToLocalOp.build(load.desc, barrier, buffer, true,
                                               coord=list(load.indices), location=location))
    b.insert(WaitBarrierOp.build(barrier, _constant(b, 0, _I32, location), location=location))
    b.insert(InvalBarrierOp.build(barrier, location=location))
    value = b.insert(LocalLoadOp.build(load.results[0].type, buffer, location=location))
    load.results[0].replace_all_uses_with(value.results[0])
    load.erase()


def _lower_store(store: Operation) -> None:
    desc_type = store.desc.type
    location = store.location
    b = Builder.before(store, location)
    read_only = MemDescType(tuple(desc_type.shape), desc_type.element_type,
                            tma_shared_encoding(desc_type), SharedMemorySpaceAttr(), False)
    buffer = b.insert(LocalAllocOp.build(read_only, store.src, location=location)).results[0]
    b.insert(FenceAsyncSharedOp.build(False, location=location))
    b.insert(AsyncTMACopyLocalToGlobalOp.build(store.desc, buffer, coord=list(store.indices),
                                               location=location))
    b.insert(TMAStoreWaitOp.build(0, location=location))
    store.erase()


def scratch_pointer_type() -> PointerType:
    """``!tt.ptr<i8>``, the type of global scratch memory."""
    return PointerType(IntegerType(8))


def _element_code(element: Type) -> int:
    kind = getattr(element, "kind", None)
    return _FLOAT_CODES[kind] if kind in _FLOAT_CODES else _BITS_CODES[element.width]


def _in_bytes(builder: Builder, stride: Value, element_bytes: int, location: Location) -> Value:
    """``stride`` (in elements) in bytes."""
    if element_bytes == 1:
        return stride
    factor = _constant(builder, element_bytes, _I64, location)
    return builder.insert(MulIOp.build(stride, factor, location=location)).results[0]


def write_tensormap(builder: Builder, make: Operation, slot: Value) -> Value:
    """Writes the map of the descriptor ``make`` (a ``tt.make_tensor_descriptor`` whose blocks
    have a TMA layout) to the global memory at ``slot`` with ``builder`` and fences it; returns
    the descriptor read from there. Lists go innermost dimension first, strides in bytes."""
    location = make.location
    desc_type: TensorDescType = make.results[0].type
    rows, columns = tma_box(desc_type)
    strides = [_in_bytes(builder, stride, _element_bits(desc_type) // 8, location)
               for stride in reversed(make.strides[:-1])]
    one = _constant(builder, 1, _I32, location)
    swizzle = tma_shared_encoding(desc_type).swizzling_byte_width
    builder.insert(TensormapCreateOp.build(
        slot, make.base, _element_code(desc_type.element_type), 0, _SWIZZLE_CODES[swizzle],
        int(make.padding == PaddingOption.PAD_NAN),
        box_dim=[_constant(builder, columns, _I32, location),
                 _constant(builder, rows, _I32, location)],
        global_dim=list(reversed(make.shape)), global_stride=strides,
        element_stride=[one] * len(make.shape), location=location))
    builder.insert(TensormapFenceproxyAcquireOp.build(slot, location=location))
    return builder.insert(ReinterpretTensorDescOp.build(desc_type, slot,
                                                        location=location)).results[0]


def _lower_make(make: Operation) -> None:
    """The map of the descriptor in a global scratch buffer of its own, written where ``make``
    was."""
    b = Builder.before(make, make.location)
    slot = b.insert(GlobalScratchAllocOp.build(scratch_pointer_type(), TENSORMAP_BYTES,
                                               TENSORMAP_BYTES,
                                               location=make.location)).results[0]
    make.results[0].replace_all_uses_with(write_tensormap(b, make, slot))
    make.erase()


_LOWERINGS = {"tt.descriptor_load": _lower_load, "tt.descriptor_store": _lower_store,
              "tt.make_tensor_descriptor": _lower_make}


def lower_tma(module: Operation) -> int:
    """Lowers the descriptor loads, stores and makes of ``module`` whose descriptors have a
    TMA layout; returns how many."""
    ops = [op for op in module.walk() if op.name in _LOWERINGS
           and tma_shared_encoding(_descriptor_type(op)) is not None]
    for op in ops:
        _LOWERINGS[op.name](op)
    return len(ops)


def _descriptor_type(op: Operation) -> TensorDescType:
    """The type of the descriptor ``op`` uses or makes."""
    return (op.results[0] if op.name == "tt.make_tensor_descriptor" else op.operands[0]).type


class TritonNvidiaGPUTMALoweringPass(TritonNvidiaGPUTMALoweringPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        lower_tma(op)
