"""Global scratch memory: ``ttg.global_scratch_alloc`` (the maps of descriptors the kernel
makes, `tma_lowering.write_tensormap`).

Each allocation of the kernel gets an offset, a multiple of its alignment, in one part of
`KernelInfo.global_scratch` bytes per program (a multiple of the largest alignment); the
launcher passes a buffer of that many bytes for every program of the grid as the kernel's last
parameter (`runtime.compiler`, `tensormap.global_scratch`), and program ``p`` (x fastest) owns
the part at ``p * global_scratch``.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation

from .lowering import I8, I64, GPULowering, lowers

__all__ = ["plan_global_scratch"]


def plan_global_scratch(kernel: Operation) -> tuple[dict[Operation, int], int]:
    """The offset of each ``ttg.global_scratch_alloc`` of ``kernel`` in a program's part, and
    the bytes of that part (0 when the kernel allocates none)."""
    offsets: dict[Operation, int] = {}
    end, largest = 0, 1
    for op in kernel.walk():
        if op.name == "ttg.global_scratch_alloc":
            alignment = op.alignment
            offsets[op] = -(-end // alignment) * alignment
            end = offsets[op] + op.nbytes
            largest = max(largest, alignment)
    return offsets, -(-end // largest) * largest


def _program_index(fl: GPULowering) -> ir.Value:
    """The program's linear index (x fastest), as i64."""
    b = fl.builder
    ids = [b.zext(b.call(fl.sreg(f"ctaid.{axis}"), []), I64) for axis in "xyz"]
    counts = [b.zext(b.call(fl.sreg(f"nctaid.{axis}"), []), I64) for axis in "xy"]
    return b.add(ids[0], b.mul(counts[0], b.add(ids[1], b.mul(counts[1], ids[2]))))


@lowers("ttg.global_scratch_alloc")
def _global_scratch_alloc(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    offset = b.add(b.mul(_program_index(fl), ir.Constant(I64, fl.info.global_scratch)),
                   ir.Constant(I64, fl.info.global_scratch_offsets[op]))
    fl.set(op.results[0], b.gep(fl.global_scratch, [offset], source_etype=I8))
