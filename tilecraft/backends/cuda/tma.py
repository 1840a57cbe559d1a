"""The tensor memory accelerator and mbarriers (sm_90+): ``ttng.init_barrier``,
``ttng.barrier_expect``, ``ttng.wait_barrier``, ``ttng.inval_barrier``,
``ttng.async_tma_copy_global_to_local``, ``ttng.async_tma_copy_local_to_global``,
``ttng.async_tma_store_wait``, ``ttng.fence_async_shared``, and the maps kernels write
(``ttng.tensormap_create``, ``ttng.tensormap_fenceproxy_acquire``,
``ttng.reinterpret_tensor_descriptor``) as PTX.

A tensor descriptor is the global address of its encoded ``CUtensorMap`` (128 bytes): a kernel
parameter written by the launcher (`kernel.lower_kernel` records what the launcher must encode
in `KernelInfo.tensormaps`), or a map the kernel wrote, in global scratch memory
(`global_scratch`). One thread of the program (thread 0) issues
each copy and each barrier arrival; every thread waits on a barrier by polling its phase. A
block of a descriptor moves as `tma_lowering.tma_box` boxes, one per column slab of the
``#ttg.nvmma_shared`` buffer (coordinates are given innermost first, as the map's dimensions).
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation
from tilecraft.transforms.tma_lowering import TENSORMAP_BYTES, tma_box, tma_shared_encoding

from .lowering import I8, I32, I64, GPULowering, lowers, pointer_type
from .shared_memory import shared_tensor

__all__ = ["tensormap_parameter"]


def _asm(fl: GPULowering, text: str, constraints: str, args: list) -> None:
    asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), [a.type for a in args]), text,
                       constraints, side_effect=True)
    fl.builder.call(asm, args)


def _shared_address(fl: GPULowering, op: Operation, value) -> ir.Value:
    """The 32-bit shared-memory address of a buffer operand of ``op``."""
    return fl.builder.ptrtoint(shared_tensor(fl, op, value).base, I32)


def _map_address(fl: GPULowering, value) -> ir.Value:
    """The generic 64-bit address of a descriptor's ``CUtensorMap``."""
    b = fl.builder
    generic = b.addrspacecast(fl.get(value), pointer_type(0))
    return b.ptrtoint(generic, I64)


def _leader(fl: GPULowering, pred: ir.Value | None = None) -> ir.Value:
    """Thread 0 of the program (where ``pred`` holds)."""
    first = fl.builder.icmp_unsigned("==", fl.tid, ir.Constant(I32, 0))
    return first if pred is None else fl.builder.and_(first, pred)


@lowers("ttng.init_barrier")
def _init_barrier(fl: GPULowering, op: Operation) -> None:
    _asm(fl, f"@$1 mbarrier.init.shared::cta.b64 [$0], {op.count};", "r,b,~{memory}",
         [_shared_address(fl, op, op.alloc), _leader(fl)])


@lowers("ttng.inval_barrier")
def _inval_barrier(fl: GPULowering, op: Operation) -> None:
    _asm(fl, "@$1 mbarrier.inval.shared::cta.b64 [$0];", "r,b,~{memory}",
         [_shared_address(fl, op, op.alloc), _leader(fl)])


@lowers("ttng.barrier_expect")
def _barrier_expect(fl: GPULowering, op: Operation) -> None:
    _asm(fl, f"@$1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], {op.size};",
         "r,b,~{memory}", [_shared_address(fl, op, op.alloc), _leader(fl, fl.get(op.pred))])


_WAIT = ("{\n.reg .pred ready;\nwait:\n"
         "mbarrier.try_wait.parity.shared::cta.b64 ready, [$0], $1;\n"
         "@!ready bra.uni wait;\n}")


@lowers("ttng.wait_barrier")
def _wait_barrier(fl: GPULowering, op: Operation) -> None:
    args = [_shared_address(fl, op, op.alloc), fl.get(op.phase)]
    if op.pred is None:
        _asm(fl, _WAIT, "r,r,~{memory}", args)
        return
    with fl.builder.if_then(fl.get(op.pred)):
        _asm(fl, _WAIT, "r,r,~{memory}", args)


def _boxes(fl: GPULowering, op: Operation, buffer, coord) -> list[tuple[ir.Value, list]]:
    """(shared address, coordinates innermost first) of each box of the block at ``coord``."""
    desc_type = op.desc.type
    rows, columns = tma_box(desc_type)
    element_bytes = desc_type.element_type.width // 8
    b = fl.builder
    base = _shared_address(fl, op, buffer)
    row, column = (fl.get(c) for c in coord)
    boxes = []
    for index in range(desc_type.shape[1] // columns):
        address = b.add(base, ir.Constant(I32, index * rows * columns * element_bytes))
        start = b.add(column, ir.Constant(I32, index * columns)) if index else column
        boxes.append((address, [start, row]))
    return boxes


@lowers("ttng.async_tma_copy_global_to_local")
def _copy_in(fl: GPULowering, op: Operation) -> None:
    tensormap = _map_address(fl, op.desc)
    barrier = _shared_address(fl, op, op.barrier)
    leader = _leader(fl, fl.get(op.pred))
    for address, (x, y) in _boxes(fl, op, op.result_, op.coord):
        _asm(fl, "@$5 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,b,~{memory}",
             [address, tensormap, x, y, barrier, leader])


@lowers("ttng.async_tma_copy_local_to_global")
def _copy_out(fl: GPULowering, op: Operation) -> None:
    tensormap = _map_address(fl, op.desc)
    leader = _leader(fl)
    for address, (x, y) in _boxes(fl, op, op.src, op.coord):
        _asm(fl, "@$4 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[$0, {$1, $2}], [$3];", "l,r,r,r,b,~{memory}",
             [tensormap, x, y, address, leader])
    _asm(fl, "@$0 cp.async.bulk.commit_group;", "b,~{memory}", [leader])


@lowers("ttng.async_tma_store_wait")
def _store_wait(fl: GPULowering, op: Operation) -> None:
    _asm(fl, f"cp.async.bulk.wait_group.read {op.pendings};", "~{memory}", [])


@lowers("ttng.fence_async_shared")
def _fence(fl: GPULowering, op: Operation) -> None:
    fl.fence_async_shared()


@lowers("ttng.tensormap_create")
def _tensormap_create(fl: GPULowering, op: Operation) -> None:
    """Warp 0 builds the ``CUtensorMap`` in the op's 128 bytes of shared memory (zeroed, then
    every field set by thread 0 with ``tensormap.replace``) and copies it to ``desc_ptr`` with
    a release fence of the tensormap proxy."""
    b = fl.builder
    staging = fl.shared_base(TENSORMAP_BYTES)
    warp0 = b.icmp_unsigned("<", fl.tid, ir.Constant(I32, 32))
    with b.if_then(warp0):
        word = b.gep(staging, [b.mul(fl.tid, ir.Constant(I32, 4))], source_etype=I8)
        b.store(ir.Constant(I32, 0), word)
    sync_warp = fl.declare("llvm.nvvm.bar.warp.sync", ir.VoidType(), [I32])
    b.call(sync_warp, [ir.Constant(I32, -1)])
    address = b.ptrtoint(staging, I32)
    leader = _leader(fl)

    def replace(field: str, value: ir.Value | int, ordinal: int | None = None) -> None:
        """Sets a field of the staged map to ``value`` (an int: an immediate, 32 bits)."""
        where = "" if ordinal is None else f"{ordinal}, "
        if isinstance(value, int):
            _asm(fl, f"@$1 tensormap.replace.tile.{field}.shared::cta.b1024.b32 [$0], "
                     f"{where}{value};", "r,b,~{memory}", [address, leader])
            return
        width = value.type.width
        register = "l" if width == 64 else "r"
        _asm(fl, f"@$2 tensormap.replace.tile.{field}.shared::cta.b1024.b{width} [$0], "
                 f"{where}$1;", f"r,{register},b,~{{memory}}", [address, value, leader])

    replace("global_address", b.ptrtoint(fl.get(op.global_address), I64))
    replace("rank", len(op.box_dim) - 1)
    for field, values in (("box_dim", op.box_dim), ("global_dim", op.global_dim),
                          ("global_stride", op.global_stride),
                          ("element_stride", op.element_stride)):
        for ordinal, value in enumerate(values):
            replace(field, fl.get(value), ordinal)
    replace("elemtype", op.elem_type)
    replace("interleave_layout", op.interleave_layout)
    replace("swizzle_mode", op.swizzle_mode)
    replace("fill_mode", op.fill_mode)
    b.call(sync_warp, [ir.Constant(I32, -1)])
    with b.if_then(warp0):
        _asm(fl, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"
                 f".sync.aligned [$0], [$1], {TENSORMAP_BYTES};", "l,r,~{memory}",
             [_map_address(fl, op.desc_ptr), address])
    # the staging bytes may next be a TMA copy's destination: order these writes before it
    fl.fence_async_shared()


@lowers("ttng.tensormap_fenceproxy_acquire")
def _tensormap_acquire(fl: GPULowering, op: Operation) -> None:
    """Warp 0 acquires the map for the tensormap proxy, then every thread waits for it (as
    Triton: one warp's fence and a barrier cost less than every warp's fence)."""
    with fl.builder.if_then(fl.builder.icmp_unsigned("<", fl.tid, ir.Constant(I32, 32))):
        _asm(fl, f"fence.proxy.tensormap::generic.acquire.gpu [$0], {TENSORMAP_BYTES};",
             "l,~{memory}", [_map_address(fl, op.desc_ptr)])
        # as Triton: ptxas needs a bulk-group round trip after the acquire
        _asm(fl, "cp.async.bulk.commit_group;", "~{memory}", [])
        _asm(fl, "cp.async.bulk.wait_group.read 0;", "~{memory}", [])
    fl.barrier()


@lowers("ttng.reinterpret_tensor_descriptor")
def _reinterpret(fl: GPULowering, op: Operation) -> None:
    """A descriptor is the global address of its map."""
    fl.set(op.results[0], fl.get(op.operands[0]))


def tensormap_parameter(index: int, desc_type) -> dict:
    """What the launcher encodes for kernel parameter ``index``, a descriptor of type
    ``desc_type``: its block, box, swizzle and element width."""
    return {"index": index, "block": list(desc_type.shape), "box": list(tma_box(desc_type)),
            "swizzle": tma_shared_encoding(desc_type).swizzling_byte_width,
            "element_bits": desc_type.element_type.width}

