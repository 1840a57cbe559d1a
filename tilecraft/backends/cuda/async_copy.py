"""Asynchronous copies from global to shared memory (sm_80+): ``ttg.async_copy_global_to_local``,
``ttg.async_commit_group`` and ``ttg.async_wait`` as ``cp.async``, ``cp.async.commit_group``
and ``cp.async.wait_group``.

A copy moves the source tensor's elements, register group by register group, to the
destination buffer's offsets (``shared⁻¹ ∘ distributed``, as `shared_memory` stores do). A
group is as wide as both sides allow: the registers consecutive in shared memory
(`shared_memory.access_plan`) and the pointers consecutive and aligned in global memory with
one mask value (axis info), of 4, 8 or 16 bytes, the sizes ``cp.async`` copies. A masked-off
group reads nothing and fills its bytes with zeros (the source size operand is 0), which is
what a load with no ``other``, or a zero ``other``, gives. Registers that repeat an element of
an earlier register of the same thread are skipped. Tokens carry no value: the order of the
groups is the hardware's; the barrier analysis puts a barrier after each wait (each run of
adjacent waits), since the copies a wait waits for were issued by other threads too; a wait
right after one with the same count is the same wait and lowers to nothing. Where ``wgmma`` reads shared memory,
a proxy fence follows the wait: the copies wrote through the generic proxy.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.analysis.membar import wait_is_satisfied
from tilecraft.dialects.foldutils import const_attr, is_zero
from tilecraft.ir import Operation

from ..cpu import types as T
from .lowering import GLOBAL, I32, GPULowering, error_at, lowers, pointer_type
from .memory import vector_plan
from .shared_memory import access_plan, shared_tensor, thread_offset

_SIZES = (16, 8, 4)
#: A token's stand-in: the lowering keeps no state for tokens.
_TOKEN = ir.Constant(I32, 0)


@lowers("ttg.async_copy_global_to_local")
def _async_copy(fl: GPULowering, op: Operation) -> None:
    src, destination = op.operands[0], op.operands[1]
    tensor = shared_tensor(fl, op, destination)
    if op.other is not None and not is_zero(const_attr(op.other)):
        raise error_at(op, "the CUDA backend copies asynchronously only with no 'other' or a "
                       "zero one (cp.async fills masked-off bytes with zeros)")
    pointers = fl.dist(src)
    mask = fl.dist(op.mask) if op.mask is not None else None
    storage = tensor.storage
    plan = access_plan(tensor.layout, pointers.layout, storage.size, unique=True)
    global_width, _ = vector_plan(fl, op, pointers, op.mask)
    width = min(plan.width, global_width)
    nbytes = width * storage.size
    if nbytes not in _SIZES:
        raise error_at(op, f"cp.async copies 4, 8 or 16 bytes; this copy's layouts and axis "
                       f"info allow {nbytes}-byte groups of {T.element_type(src.type)} "
                       f"elements")
    b = fl.builder
    kind = "cg" if nbytes == 16 else "ca"
    copy = fl.declare(f"llvm.nvvm.cp.async.{kind}.shared.global.{nbytes}.s", ir.VoidType(),
                      [pointer_type(3), pointer_type(GLOBAL), I32])
    free = pointers.layout.free_variable_masks().get("register", 0)
    for register in range(0, pointers.layout.in_dim_size("register"), width):
        if register & free:
            continue
        constant = plan.offsets.apply(register=register)[0] ^ tensor.corner
        target = storage.pointer(fl, tensor.base, thread_offset(fl, plan.offsets, constant))
        source = pointers.values[register]
        if source.type.addrspace != GLOBAL:
            source = b.addrspacecast(source, pointer_type(GLOBAL))
        if mask is None:
            b.call(copy, [target, source, ir.Constant(I32, nbytes)])
        else:
            _masked_copy(fl, kind, nbytes, target, source, mask.values[register])
    fl.set(op.results[0], _TOKEN)


def _masked_copy(fl: GPULowering, kind: str, nbytes: int, target: ir.Value, source: ir.Value,
                 mask: ir.Value) -> None:
    """``cp.async`` of ``nbytes`` that fills the bytes with zeros where ``mask`` (an i1) is
    false, through the instruction's ``ignore-src`` predicate. (The intrinsic takes a source
    size instead, 0 or ``nbytes``: ptxas turned each select of it back into a predicate with
    two more instructions a copy, in the loop of a pipelined matmul 12 copies a trip.)"""
    text = f"cp.async.{kind}.shared.global [$0], [$1], {nbytes}, $2;"
    asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), [target.type, source.type, T.I1]), text,
                       "r,l,b,~{memory}", side_effect=True)
    fl.builder.call(asm, [target, source, fl.builder.not_(mask)])


@lowers("ttg.async_commit_group")
def _commit_group(fl: GPULowering, op: Operation) -> None:
    fl.builder.call(fl.declare("llvm.nvvm.cp.async.commit.group", ir.VoidType(), []), [])
    fl.set(op.results[0], _TOKEN)


@lowers("ttg.async_wait")
def _wait(fl: GPULowering, op: Operation) -> None:
    """``cp.async.wait_group num``; none for a wait that every path reaches with at most
    ``num`` groups in flight (`membar.wait_is_satisfied`: after a wait for as few, with
    nothing committed since, as the pipeliner's wait at the top of a loop whose operands the
    prefetch pass loaded at the end of the previous trip)."""
    pending = op.num
    if wait_is_satisfied(op, pending):
        fl.set(op.results[0], _TOKEN)
        return
    fl.builder.call(fl.declare("llvm.nvvm.cp.async.wait.group", ir.VoidType(), [I32]),
                    [ir.Constant(I32, pending)])
    if fl.async_proxy_reads:
        fl.fence_async_shared()
    fl.set(op.results[0], _TOKEN)
