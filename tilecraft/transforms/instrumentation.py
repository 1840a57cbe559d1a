"""IR dumps around passes, as MLIR's ``--mlir-print-ir-before-all``/``-after-all`` print them."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

from tilecraft.ir import Operation, StringAttr, print_op
from tilecraft.ir.pass_base import Pass

from .pass_registry import pass_name

__all__ = ["IRPrinting"]


@dataclass(slots=True)
class IRPrinting:
    """Which dumps to print and how. With ``module_scope`` the whole top-level op is printed and
    the header names the op the pass ran on; else only that op is printed. The dumps go to
    ``stream`` (stderr when None)."""

    before_all: bool = False
    after_all: bool = False
    after_failure: bool = False
    module_scope: bool = False
    generic: bool = False
    print_debuginfo: bool = False
    stream: TextIO | None = None

    def before(self, pass_: Pass, op: Operation) -> None:
        if self.before_all:
            self._dump("Before", pass_, op)

    def after(self, pass_: Pass, op: Operation) -> None:
        if self.after_all:
            self._dump("After", pass_, op)

    def failed(self, pass_: Pass, op: Operation) -> None:
        if self.after_failure or self.after_all:
            self._dump("After", pass_, op, " Failed")

    def _dump(self, when: str, pass_: Pass, op: Operation, failed: str = "") -> None:
        header = f"// -----// IR Dump {when} {pass_name(pass_)}{failed} ({pass_.ARGUMENT})"
        target = op
        if self.module_scope:
            symbol = op.get_attr("sym_name")
            named = f": @{symbol.value}" if isinstance(symbol, StringAttr) else ""
            header += f" ('{op.name}' operation{named})"
            while target.parent_op is not None:
                target = target.parent_op
        text = print_op(target, generic=self.generic, print_debuginfo=self.print_debuginfo)
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(f"{header} //----- //\n{text}\n")
        stream.flush()
