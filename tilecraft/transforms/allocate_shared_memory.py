"""``allocate-shared-memory``: record the shared-memory allocation on the IR, as Triton's pass.

Every op of a function (the function included) that owns a buffer of
`tilecraft.analysis.allocation` gets ``allocation.offset = N : i32``: an op with scratch memory
or a call (its scratch or virtual buffer; a function's own buffer holds the warp indices of its
``ttg.warp_specialize`` ops), else an op with one result that is an allocation
(``ttg.local_alloc``; an array of offsets, one per partition, for a partitioned one). The
module gets ``ttg.shared = N : i32``, the bytes the kernel needs
(`ModuleAllocation`).
"""

from __future__ import annotations

from tilecraft.analysis.allocation import ModuleAllocation
from tilecraft.generated.passes import AllocateSharedMemoryPassBase
from tilecraft.ir import ArrayAttr, IntegerAttr, Operation
from tilecraft.ir.types import i32

__all__ = ["AllocateSharedMemoryPass", "OFFSET_ATTR", "SHARED_ATTR"]

OFFSET_ATTR = "allocation.offset"
SHARED_ATTR = "ttg.shared"


class AllocateSharedMemoryPass(AllocateSharedMemoryPassBase):
    """Attach the allocation's offsets and the module's shared-memory size."""

    def run_on_operation(self, op: Operation) -> None:
        allocation = ModuleAllocation(op)
        if allocation.shared_memory_size >= 1 << 31:
            raise op.emit_error(f"needs {allocation.shared_memory_size} bytes of shared memory, "
                                "more than the i32 'ttg.shared' attribute holds")
        for func, data in allocation.functions.items():
            for inner in func.walk():
                buffer = data.op_scratch(inner)
                if buffer is not None:
                    buffers = [buffer]
                elif inner.num_results == 1:
                    buffers = data.explicit_buffers(inner.results[0])
                else:
                    continue
                if len(buffers) == 1:
                    inner.attributes[OFFSET_ATTR] = IntegerAttr(buffers[0].offset, i32)
                elif buffers:
                    inner.attributes[OFFSET_ATTR] = ArrayAttr(
                        [IntegerAttr(b.offset, i32) for b in buffers])
        op.attributes[SHARED_ATTR] = IntegerAttr(allocation.shared_memory_size, i32)
