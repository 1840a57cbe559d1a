"""Test passes that print analysis results as remarks, as Triton's ``test/lib`` passes do.

``tilecraft-opt`` links them in (``triton-opt`` links Triton's test passes the same way), so
Triton's lit tests that use them run unchanged:

- ``-test-print-alignment``: for every result of every op inside a ``tt.func``, a remark
  ``<op> => contiguity = [..], divisibility = [..], constancy = [..], constant_value = ..``
  with the `AxisInfoAnalysis` facts of that result (Triton's ``TestAxisInfoPass``).
"""

from __future__ import annotations

from tilecraft.analysis.axisinfo import AxisInfoAnalysis
from tilecraft.ir import Operation
from tilecraft.ir.pass_base import Pass

from .diagnostics import emit_remark
from .pass_registry import register_pass

__all__ = ["TestPrintAlignmentPass"]


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
