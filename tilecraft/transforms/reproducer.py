"""Reproducers: the IR a failing pass started from and the pipeline that fails on it.

The file is what MLIR's ``--mlir-pass-pipeline-crash-reproducer`` writes in its local mode: the
IR before the failing pass (the whole top-level op, in generic form with locations), then a
``{-# external_resources: { mlir_reproducer: { pipeline: "...", ... } } #-}`` trailer whose
pipeline is the failing pass alone, nested in the ops it was anchored on (for example
``builtin.module(tt.func(cse))``). A ``//`` comment header says which pass failed, how, and the
full pipeline. ``tilecraft-opt --run-reproducer FILE`` runs the trailer's pipeline on the IR.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tilecraft.ir import Operation, print_op

__all__ = ["Snapshot", "reproducer_text", "read_reproducer", "write_reproducer"]

#: The trailer, which only whitespace and ``//`` comments may follow (as the lexer skips them).
_TRAILER = re.compile(r"\{-#(.*?)#-\}(?:\s|//[^\n]*)*\Z", re.DOTALL)
_PIPELINE = re.compile(r'pipeline\s*:\s*("(?:[^"\\]|\\.)*")')


class Snapshot:
    """A copy of an op taken before a pass runs on it, to rebuild the IR the pass started from."""

    __slots__ = ("op", "copy")

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.copy = op.clone()

    def text(self) -> str:
        """The top-level op as it was, printed with the copy standing in for the changed op."""
        op, copy = self.op, self.copy
        block = op.parent
        if block is None:
            return _print(copy)
        block.insert_before(op, copy)
        op.detach()
        try:
            top = copy
            while top.parent_op is not None:
                top = top.parent_op
            return _print(top)
        finally:
            block.insert_before(copy, op)
            copy.detach()

    def discard(self) -> None:
        """Drop the uses the copy makes (of values defined outside the op, if any)."""
        self.copy.drop_all_references()


def _print(op: Operation) -> str:
    return print_op(op, generic=True, print_debuginfo=True)


def reproducer_text(ir: str, pipeline: str, failure: str, full_pipeline: str) -> str:
    """The reproducer file: comment header, IR, trailer."""
    first_line = failure.splitlines()[0] if failure else "failure"
    header = [
        "// tilecraft-opt reproducer: the IR below makes the pipeline of the trailer fail.",
        f"// Failure: {first_line}",
        f"// Full pipeline: {full_pipeline}",
        "// Run it again with: tilecraft-opt --run-reproducer <this file>",
    ]
    trailer = [
        "{-#",
        "  external_resources: {",
        "    mlir_reproducer: {",
        f"      pipeline: {json.dumps(pipeline)},",
        "      disable_threading: true,",
        "      verify_each: true",
        "    }",
        "  }",
        "#-}",
    ]
    return "\n".join(header) + "\n" + ir + "\n" + "\n".join(trailer) + "\n"


def read_reproducer(text: str) -> tuple[str, str | None]:
    """The IR text without the trailer, and the trailer's pipeline (None without a trailer)."""
    match = _TRAILER.search(text)
    if match is None:
        return text, None
    found = _PIPELINE.search(match.group(1))
    pipeline = json.loads(found.group(1)) if found else None
    return text[:match.start()], pipeline


def write_reproducer(path: str | Path, snapshot: Snapshot, pipeline: str, failure: str,
                     full_pipeline: str) -> None:
    """Write the reproducer of a failure to ``path``."""
    Path(path).write_text(reproducer_text(snapshot.text(), pipeline, failure, full_pipeline),
                          encoding="utf-8")
