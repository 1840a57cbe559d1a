"""Test passes that print analysis results as remarks, as Triton's ``test/lib`` passes do.

``tilecraft-opt`` links them in (``triton-opt`` links Triton's test passes the same way), so
Triton's lit tests that use them run unchanged:

- ``-test-print-alignment``: for every result of every op inside a ``tt.func``, a remark
  ``<op> => contiguity = [..], divisibility = [..], constancy = [..], constant_value = ..``
  with the `AxisInfoAnalysis` facts of that result (Triton's ``TestAxisInfoPass``).
"""

from __future__ import annotations

from tilecraft.analysis.allocation import ModuleAllocation, scratch_size
from tilecraft.analysis.axisinfo import AxisInfoAnalysis
from tilecraft.analysis.membar import (ModuleMembar, amd_membar_filter,
                                       annotate_synced_via_async_wait)
from tilecraft.ir import Operation
from tilecraft.ir.pass_base import Pass, PassOption

from .diagnostics import emit_remark
from .pass_registry import register_pass

__all__ = ["TestAMDGPUMembarPass", "TestPrintAlignmentPass", "TestPrintAllocationPass",
           "TestPrintMembarPass"]


@register_pass
class TestPrintAlignmentPass(Pass):
    """Remarks with the axis info of every op result inside the module's functions."""

    ARGUMENT = "test-print-alignment"
    SUMMARY = "Print the result of the alignment (axis info) analysis as remarks"
    ANCHOR = "builtin.module"

    def run_on_operation(self, op: Operation) -> None:
        analysis = AxisInfoAnalysis(op, closed_module=True)
        for func in op.walk():
            if func.name != "tt.func":
                continue
            for inner in func.walk(post_order=True):
                if inner is func or not inner.results:
                    continue
                head = str(inner).split("\n", 1)[0].strip()
                for result in inner.results:
                    emit_remark(inner, f"{head} => {analysis.get(result)}")


def _constant_scratch_128(op: Operation) -> int:
    """The scratch size function ``ValidConstant`` of Triton's test: 128 bytes for every op."""
    return 128


@register_pass
class TestPrintAllocationPass(Pass):
    """Remarks with the shared-memory buffers of every ``tt.func`` (Triton's
    ``TestAllocationPass``): the function's name, ``scratch|virtual offset = O, size = S`` at
    ops with scratch or call buffers (and at the function for its own buffer, the warp indices
    of its ``ttg.warp_specialize`` ops), ``offset = O, size = S`` at allocations (one per
    partition of a partitioned one), and the function's total ``size = S``."""

    ARGUMENT = "test-print-allocation"
    SUMMARY = "Print the result of the shared-memory allocation analysis as remarks"
    ANCHOR = "builtin.module"
    OPTIONS = (
        PassOption("scratch_function", "get-scratch-size-function", str, "None",
                   "Scratch size function: None (Triton's rules) or ValidConstant (128)"),
        PassOption("partition_size", "partition-size", int, 0,
                   "Size of a physical partition of shared memory in bytes (0: none)"),
    )

    def run_on_operation(self, op: Operation) -> None:
        scratch = _constant_scratch_128 if self.scratch_function == "ValidConstant" \
            else scratch_size
        allocation = ModuleAllocation(op, scratch, self.partition_size)
        for func in op.walk():
            if func.name != "tt.func":
                continue
            data = allocation.of(func)
            emit_remark(func, func.get_attr("sym_name").value)
            for inner in func.walk(post_order=True):
                buffer = data.op_scratch(inner)
                if buffer is not None:
                    kind = "virtual" if buffer.kind == "virtual" else "scratch"
                    emit_remark(inner, f"{kind} offset = {buffer.offset}, size = {buffer.size}")
                for result in inner.results:
                    for explicit in data.explicit_buffers(result):
                        emit_remark(inner, f"offset = {explicit.offset}, size = {explicit.size}")
            emit_remark(func, f"size = {data.shared_memory_size}")


@register_pass
class TestPrintMembarPass(Pass):
    """Insert the shared-memory barriers of `tilecraft.analysis.membar` (Triton's
    ``TestMembarPass``; the test prints the IR with them)."""

    ARGUMENT = "test-print-membar"
    SUMMARY = "Insert the barriers the shared-memory barrier analysis finds"
    ANCHOR = "builtin.module"

    def run_on_operation(self, op: Operation) -> None:
        ModuleMembar(op).run()


@register_pass
class TestAMDGPUMembarPass(Pass):
    """Insert the shared-memory barriers as AMD's backend does (Triton's
    ``TestAMDGPUMembarPass``): mark each ``ttg.local_load`` with whether its token comes from an
    async wait (`annotate_synced_via_async_wait`), then run the barrier analysis with AMD's
    filter (`amd_membar_filter`)."""

    ARGUMENT = "test-tritonamdgpu-membar"
    SUMMARY = "Insert the barriers the shared-memory barrier analysis finds with AMD's filter"
    ANCHOR = "builtin.module"

    def run_on_operation(self, op: Operation) -> None:
        annotate_synced_via_async_wait(op)
        ModuleMembar(op, filter=amd_membar_filter).run()
