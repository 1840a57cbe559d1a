"""The pass manager: runs a pipeline of passes on an op and its nested ops, as MLIR's does.

An `OpPassManager` is anchored on an op name (``builtin.module``, ``tt.func``, or ``any``) and
holds passes and nested pass managers. A pass runs on the op its manager is given; a nested
manager runs on each op with its anchor directly inside that op's regions (a function's
pipeline on each function of the module), all its passes on one op before the next op.

`PassManager` is the top-level one. After each pass it verifies the op the pass ran on (an
invalid result raises `PassVerificationError` naming the op and the pass); it dumps the IR
around passes (`enable_ir_printing`; the environment variable ``TILECRAFT_DUMP_IR=1`` dumps the
module before every pass and after a failing one, like Triton's ``MLIR_ENABLE_DUMP``), times
them (`enable_timing`), reports statistics (`statistics_report`) and writes a reproducer when a
pass fails (`enable_crash_reproducer`, or ``TILECRAFT_REPRODUCER_PATH``; see
`tilecraft.transforms.reproducer`).
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from typing import TYPE_CHECKING

from tilecraft.codegen.diagnostics import Diagnostic
from tilecraft.ir import Operation, VerificationError, get_dialect
from tilecraft.ir.pass_base import Pass
from tilecraft.ir.traits import IsolatedFromAbove

from .diagnostics import emit_warning
from .pass_registry import PassRegistryError, pass_name
from .pipeline import PipelineError, parse_pass_pipeline

if TYPE_CHECKING:  # IR printing, timing and reproducers are imported when turned on
    from .instrumentation import IRPrinting
    from .reproducer import Snapshot
    from .timing import Timer

__all__ = ["OpPassManager", "PassManager", "PassFailure", "PassVerificationError"]

_RULE = "===" + "-" * 73 + "==="


class PassFailure(Diagnostic):
    """A pass failed: ``pass_`` raised the error (message, location) on ``op``.
    ``reproducer`` is the path of the reproducer written, if any."""

    def __init__(self, message: str, error: Diagnostic | None, *, pass_: Pass, op: Operation,
                 reproducer: str | None = None) -> None:
        if error is not None:
            loc, source, notes = error.loc, error.source, error.notes
        else:
            (loc, source), notes = op.location.diagnostic_position(), None
        super().__init__(message, loc, source, notes)
        self.pass_ = pass_
        self.op = op
        self.reproducer = reproducer


class PassVerificationError(PassFailure):
    """A pass left invalid IR: the message is the verifier's, followed by the pass's name."""


def _schedulable(pm: OpPassManager, op: Operation) -> bool:
    """Whether ``pm`` runs on ``op``, a child of the op its parent manager runs on: ``op`` has
    ``pm``'s anchor or, for ``any``, is a registered op isolated from above on which every pass
    of ``pm`` can run (MLIR's ``OpPassManagerImpl::canScheduleOn``: an ``any`` manager holding
    a ``builtin.module`` pass runs on no child at all)."""
    if pm.anchor != "any":
        return pm.anchor == op.name
    if not op.is_registered or not op.has_trait(IsolatedFromAbove):
        return False
    return all(element.ANCHOR in ("", op.name) for element in pm.elements
               if not isinstance(element, OpPassManager))


class OpPassManager:
    """Passes and nested pass managers to run on ops named ``anchor`` (``any``: every op)."""

    __slots__ = ("anchor", "elements")

    def __init__(self, anchor: str = "builtin.module") -> None:
        self.anchor = anchor
        self.elements: list[Pass | OpPassManager] = []

    def add(self, pass_: Pass, *, implicit_nesting: bool = False) -> None:
        """Append ``pass_``. A pass anchored on other ops is an error, unless
        ``implicit_nesting``: it then goes into a nested manager for its anchor (the last
        element when that is one), as ``mlir-opt -pass`` flags do."""
        target = pass_.ANCHOR
        if not target or target == self.anchor or self.anchor == "any":
            self.elements.append(pass_)
            return
        if not implicit_nesting:
            raise PipelineError(
                f"pass '{pass_.ARGUMENT}' runs on '{target}' ops, not on '{self.anchor}': "
                f"nest it as '{target}({pass_.ARGUMENT})'")
        last = self.elements[-1] if self.elements else None
        if not (isinstance(last, OpPassManager) and last.anchor == target):
            last = self.nest(target)
        last.elements.append(pass_)

    def nest(self, anchor: str) -> OpPassManager:
        """Append a manager for the ops named ``anchor`` directly inside this one's; return it."""
        nested = OpPassManager(anchor)
        self.elements.append(nested)
        return nested

    def passes(self) -> list[Pass]:
        """Every pass, nested ones included, in pipeline order."""
        found: list[Pass] = []
        for element in self.elements:
            if isinstance(element, OpPassManager):
                found += element.passes()
            else:
                found.append(element)
        return found

    def __str__(self) -> str:
        """The textual pipeline: ``builtin.module(canonicalize,tt.func(cse))``."""
        return f"{self.anchor}({','.join(_element_text(e) for e in self.elements)})"

    def pretty_text(self, indent: int = 0) -> str:
        """The pipeline as MLIR prints it with ``pretty``: one element a line, nested managers
        indented by two spaces, every option of a pass written out in MLIR's order."""
        inner = " " * (indent + 2)
        lines = ",\n".join(
            inner + (e.pretty_text(indent + 2).lstrip(" ") if isinstance(e, OpPassManager)
                     else _mlir_pass_text(e))
            for e in self.elements)
        return f"{' ' * indent}{self.anchor}(\n{lines}\n{' ' * indent})"

    def dump_text(self) -> str:
        """What ``--dump-pass-pipeline`` prints, as MLIR's ``OpPassManager::dump``: ``Pass
        Manager with N passes:`` (N counting this manager's own elements, a nested manager as
        one), then `pretty_text`."""
        return f"Pass Manager with {len(self.elements)} passes:\n{self.pretty_text()}\n"


def _element_text(element: Pass | OpPassManager) -> str:
    if isinstance(element, OpPassManager):
        return str(element)
    options = element.options_text()
    return f"{element.ARGUMENT}{{{options}}}" if options else element.ARGUMENT


def _mlir_pass_text(pass_: Pass) -> str:
    """``name{opt=value ...}`` as MLIR prints a pass: all its options sorted by name, one
    space apart, an empty list option printing nothing (so ``{  max-iterations=10 ...}`` when
    two come first); no braces without options."""
    if not pass_.OPTIONS:
        return pass_.ARGUMENT
    parts = []
    for option in sorted(pass_.OPTIONS, key=lambda o: o.argument):
        value = getattr(pass_, option.name)
        if option.is_list:
            parts.append(f"{option.argument}={','.join(str(v) for v in value)}" if value else "")
        elif option.type is bool:
            parts.append(f"{option.argument}={'true' if value else 'false'}")
        else:
            parts.append(f"{option.argument}={value}")
    return f"{pass_.ARGUMENT}{{{' '.join(parts)}}}"


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "on", "yes")


class PassManager(OpPassManager):
    """The top-level pass manager; see the module docstring."""

    __slots__ = ("verify_each", "ir_printing", "timer", "reproducer_path")

    def __init__(self, anchor: str = "builtin.module", *, verify_each: bool = True) -> None:
        super().__init__(anchor)
        self.verify_each = verify_each
        self.ir_printing: IRPrinting | None = None
        self.timer: Timer | None = None
        self.reproducer_path: str | None = None
        if _env_flag("TILECRAFT_DUMP_IR"):
            self.enable_ir_printing(before_all=True, after_failure=True, module_scope=True)
        if os.environ.get("TILECRAFT_REPRODUCER_PATH"):
            self.enable_crash_reproducer(os.environ["TILECRAFT_REPRODUCER_PATH"])

    @classmethod
    def parse(cls, pipeline: str, anchor: str = "builtin.module", *,
              verify_each: bool = True) -> PassManager:
        """A pass manager for a textual pipeline (see `parse_pass_pipeline`)."""
        pm = cls(anchor, verify_each=verify_each)
        parse_pass_pipeline(pipeline, pm)
        return pm

    def enable_ir_printing(self, **settings) -> IRPrinting:
        """Dump the IR around passes; ``settings`` are the fields of `IRPrinting`."""
        from .instrumentation import IRPrinting

        self.ir_printing = IRPrinting(**settings)
        return self.ir_printing

    def enable_timing(self, timer: Timer | None = None) -> Timer:
        """Time each pass (and verification) into ``timer`` (a new one by default)."""
        from .timing import Timer

        self.timer = timer if timer is not None else Timer()
        return self.timer

    def enable_crash_reproducer(self, path: str) -> None:
        """When a pass fails, write the IR it started from and its pipeline to ``path``."""
        self.reproducer_path = path

    # -- running

    def run(self, op: Operation) -> None:
        """Run the pipeline on ``op``; raises `PassFailure` when a pass fails."""
        if self.anchor not in ("any", op.name):
            raise PipelineError(f"the pipeline runs on '{self.anchor}' ops, not on '{op.name}'")
        for pass_ in self.passes():
            for dialect in pass_.DEPENDENT_DIALECTS:
                if get_dialect(dialect) is None:
                    raise PassRegistryError(f"pass '{pass_.ARGUMENT}' depends on the dialect "
                                            f"'{dialect}', which does not exist")
        self._run_elements(self, op, (self.anchor,), self.timer)

    def _run_elements(self, pm: OpPassManager, op: Operation, anchors: tuple[str, ...],
                      timer: Timer | None) -> None:
        for element in pm.elements:
            if isinstance(element, OpPassManager):
                self._run_nested(element, op, anchors, timer)
            else:
                self._run_pass(element, op, anchors, timer)

    def _run_nested(self, pm: OpPassManager, op: Operation, anchors: tuple[str, ...],
                    timer: Timer | None) -> None:
        children = [child for region in op.regions for block in region.blocks
                    for child in block if _schedulable(pm, child)]
        if not children:
            return
        with _timed(timer, f"'{pm.anchor}' Pipeline") as nested_timer:
            for child in children:
                self._run_elements(pm, child, (*anchors, pm.anchor), nested_timer)

    def _run_pass(self, pass_: Pass, op: Operation, anchors: tuple[str, ...],
                  timer: Timer | None) -> None:
        if pass_.ANCHOR and pass_.ANCHOR != op.name:
            raise PassFailure(f"pass '{pass_.ARGUMENT}' runs on '{pass_.ANCHOR}' ops and cannot "
                              f"run on '{op.name}'", None, pass_=pass_, op=op)
        if self.ir_printing is not None:
            self.ir_printing.before(pass_, op)
        snapshot = None
        if self.reproducer_path:
            from .reproducer import Snapshot

            snapshot = Snapshot(op)
        try:
            with _timed(timer, pass_name(pass_)):
                pass_.run_on_operation(op)
        except Diagnostic as err:
            path = self._failed(pass_, op, anchors, snapshot, str(err))
            raise PassFailure(err.message, err, pass_=pass_, op=op, reproducer=path) from err
        except Exception as err:
            path = self._failed(pass_, op, anchors, snapshot, f"{type(err).__name__}: {err}")
            where = f"; reproducer written to {path}" if path else ""
            err.add_note(f"while running pass '{pass_.ARGUMENT}' on '{op.name}'{where}")
            raise
        if self.verify_each:
            try:
                with _timed(timer, "Verifier"):
                    op.verify()
            except VerificationError as err:
                path = self._failed(pass_, op, anchors, snapshot, str(err))
                raise PassVerificationError(
                    f"{err.message} (the IR is invalid after pass '{pass_.ARGUMENT}')", err,
                    pass_=pass_, op=op, reproducer=path) from err
        if self.ir_printing is not None:
            self.ir_printing.after(pass_, op)
        if snapshot is not None:
            snapshot.discard()

    def _failed(self, pass_: Pass, op: Operation, anchors: tuple[str, ...],
                snapshot: Snapshot | None, failure: str) -> str | None:
        """Dump the IR after the failure if asked, write the reproducer; return its path."""
        if self.ir_printing is not None:
            self.ir_printing.failed(pass_, op)
        if snapshot is None:
            return None
        pipeline = _element_text(pass_)
        for anchor in reversed(anchors):
            pipeline = f"{anchor}({pipeline})"
        from .reproducer import write_reproducer

        try:
            write_reproducer(self.reproducer_path, snapshot, pipeline, failure, str(self))
        except OSError as err:
            emit_warning(op, f"could not write the reproducer to {self.reproducer_path}: "
                             f"{err.strerror or err}")
            return None
        finally:
            snapshot.discard()
        return self.reproducer_path

    # -- reports

    def statistics_report(self) -> str:
        """The statistics of every pass, in pipeline order, as ``--mlir-pass-statistics``."""
        lines = [_RULE, "... Pass statistics report ...".center(len(_RULE)).rstrip(), _RULE]

        def report(pm: OpPassManager, depth: int) -> None:
            lines.append(f"{'  ' * depth}'{pm.anchor}' Pipeline")
            for element in pm.elements:
                if isinstance(element, OpPassManager):
                    report(element, depth + 1)
                    continue
                lines.append(f"{'  ' * (depth + 1)}{pass_name(element)}")
                for stat in element.STATISTICS:
                    lines.append(f"{'  ' * (depth + 2)}(S) {getattr(element, stat.name)} "
                                 f"{stat.stat_name} - {stat.description}")

        report(self, 0)
        return "\n".join(lines) + "\n"


def _timed(timer: Timer | None, name: str):
    return timer.time(name) if timer is not None else nullcontext(None)

