"""Asynchronous TMA stores in loops, the last step of `tritongpu-pipeline` (Triton's
``pipelineTMAStores``).

In every ``scf.for`` of more than one stage (its own ``tt.num_stages``, else the pass's), each
``tt.descriptor_store``, ``tt.descriptor_reduce`` and ``tt.descriptor_scatter`` of the body (not
of nested loops) becomes, in place::

    ttng.async_tma_store_wait {pendings = 0}   the buffer's copy of the iteration before has read it
    ttg.local_store %value, %buffer
    ttng.fence_async_shared                    the writes are visible to the TMA unit
    ttng.async_tma_copy_local_to_global        (or ttng.async_tma_reduce / ttng.async_tma_scatter)

so the copy of one iteration runs on while the next computes. The buffer is one mutable
``ttg.local_alloc`` before the loop in the descriptor's shared layout (the layout the type
names, else `tma_lowering.tma_shared_encoding`'s), shared by the stores of one shape and
element type (each waits for all the copies before writing). After the loop, a wait for every
copy, then the buffers are freed.

A store through a descriptor the kernel makes (not a kernel argument) may still be reading
its map when the next iteration writes the map again: the descriptors the loop makes are then
multi-buffered (`descriptor_buffers`), in two maps each, three when the loop has a
``ttng.warp_group_dot`` (that pipeline is one stage longer), as Triton does for all of the
loop's made descriptors.

Modules for targets below sm_90 (no TMA) are left alone, and so are stores whose descriptor has
no shared layout TMA can use, and loops with stores through made descriptors whose made
descriptors cannot all be multi-buffered (one made under an ``scf.if`` or in a nested loop,
one without a TMA layout, or one yielded).
"""

from __future__ import annotations

from tilecraft.generated.tt import TensorDescType
from tilecraft.generated.ttg import (LocalAllocOp, LocalDeallocOp, LocalStoreOp, MemDescType,
                                     SharedMemorySpaceAttr)
from tilecraft.generated.ttng import (AsyncTMACopyLocalToGlobalOp, AsyncTMAReduceOp,
                                      AsyncTMAScatterOp, FenceAsyncSharedOp, TMAStoreWaitOp)
from tilecraft.ir import Attribute, Builder, Operation, RankedTensorType, Value
from tilecraft.ir.values import BlockArgument
from tilecraft.transforms.accelerate_matmul import capability_of
from tilecraft.transforms.descriptor_buffers import can_multi_buffer, multi_buffer_descriptors
from tilecraft.transforms.pipeline_plan import stages_of
from tilecraft.transforms.tma_lowering import tma_shared_encoding

__all__ = ["pipeline_tma_stores"]

#: The descriptor stores made asynchronous.
_STORES = ("tt.descriptor_store", "tt.descriptor_reduce", "tt.descriptor_scatter")
#: Maps per made descriptor: the store of the iteration before may read one while this
#: iteration writes the other (Triton's three stages less one).
_MAP_SLOTS = 2


def _shared_layout(store: Operation) -> Attribute | None:
    """The shared layout of the store's buffer: its descriptor's, or None when TMA cannot
    move its blocks."""
    desc_type: TensorDescType = store.operands[0].type
    if desc_type.shared_layout is not None:
        return desc_type.shared_layout
    return tma_shared_encoding(desc_type)


def _stores_of(loop: Operation) -> list[Operation]:
    """The descriptor stores of the loop's body, nested loops excepted, in program order."""
    found: list[Operation] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block:
                    if inner.name in _STORES:
                        found.append(inner)
                    elif inner.name != "scf.for":
                        visit(inner)

    visit(loop)
    return found


def _copy(store: Operation, buffer: Value) -> Operation:
    """The asynchronous TMA op that does ``store`` from ``buffer``."""
    location = store.location
    if store.name == "tt.descriptor_store":
        return AsyncTMACopyLocalToGlobalOp.build(store.desc, buffer, coord=list(store.indices),
                                                 location=location)
    if store.name == "tt.descriptor_reduce":
        return AsyncTMAReduceOp.build(store.desc, buffer, store.kind_attr,
                                      coord=list(store.indices), location=location)
    return AsyncTMAScatterOp.build(store.desc, store.x_offsets, store.y_offset, buffer,
                                   location=location)


def _is_kernel_argument(value: Value) -> bool:
    """Whether ``value`` is an argument of a public function (a descriptor the host made)."""
    owner = value.owner if isinstance(value, BlockArgument) else None
    function = owner.parent_op if owner is not None else None
    return (function is not None and function.name == "tt.func"
            and function.sym_visibility != "private")


def _map_slots(loop: Operation) -> int:
    """Maps per descriptor the loop makes (module docstring)."""
    body = loop.regions[0].blocks[0]
    return _MAP_SLOTS + any(op.name == "ttng.warp_group_dot" for op in body)


def _pipeline_loop(loop: Operation) -> bool:
    """Makes the loop's descriptor stores asynchronous (module docstring); whether it had
    any."""
    stores = [(store, layout) for store in _stores_of(loop)
              if (layout := _shared_layout(store)) is not None]
    made_maps = any(not _is_kernel_argument(store.desc) for store, _ in stores)
    if not stores or made_maps and not can_multi_buffer(loop):
        return False
    before = Builder.before(loop, loop.location)
    buffers: dict[tuple, Value] = {}
    for store, layout in stores:
        value_type: RankedTensorType = store.src.type
        key = (tuple(value_type.shape), value_type.element_type)
        buffer = buffers.get(key)
        if buffer is None:
            buffer_type = MemDescType(key[0], key[1], layout, SharedMemorySpaceAttr(), True)
            buffer = before.insert(LocalAllocOp.build(buffer_type,
                                                      location=store.location)).results[0]
            buffers[key] = buffer
        at = Builder.before(store, store.location)
        at.insert(TMAStoreWaitOp.build(0, location=store.location))
        at.insert(LocalStoreOp.build(store.src, buffer, location=store.location))
        at.insert(FenceAsyncSharedOp.build(False, location=store.location))
        at.insert(_copy(store, buffer))
        store.erase()
    after = Builder.after(loop, loop.location)
    after.insert(TMAStoreWaitOp.build(0, location=loop.location))
    for buffer in buffers.values():
        after.insert(LocalDeallocOp.build(buffer, location=loop.location))
    if made_maps:
        multi_buffer_descriptors(loop, _map_slots(loop))
    return True


def pipeline_tma_stores(module: Operation, num_stages: int) -> int:
    """Makes the descriptor stores of the loops of ``module`` of more than one stage (the
    loop's ``tt.num_stages``, else ``num_stages``) asynchronous (module docstring); returns how
    many loops changed."""
    capability = capability_of(module)
    if capability is not None and capability < 90:
        return 0
    loops = [op for op in module.walk(post_order=True)
             if op.name == "scf.for" and stages_of(op, num_stages) > 1]
    return sum(_pipeline_loop(loop) for loop in loops)
