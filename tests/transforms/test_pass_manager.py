"""The pass manager: running and nesting, verification, dumps, reproducers, timing, statistics."""

from __future__ import annotations

import io

import pytest

from tilecraft.ir import Operation, parse_module
from tilecraft.ir.pass_base import Pass
from tilecraft.transforms import (
    PassFailure, PassManager, PassRegistryError, PipelineError, Timer, register_pass,
    unregister_pass,
)
from tilecraft.transforms.pass_manager import PassVerificationError
from tilecraft.transforms.reproducer import read_reproducer

from ..lit import passes

TEXT = """\
tt.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %a : i32
  tt.return %1 : i32
}
tt.func @g(%a: i32) -> i32 {
  tt.return %a : i32
}
"""


def module(text: str = TEXT) -> Operation:
    return parse_module(text, "input.mlir")


class Record(Pass):
    """Appends (argument, op name, symbol) to a shared log."""

    ARGUMENT = "test-record"
    log: list = []

    def run_on_operation(self, op):
        symbol = op.get_attr("sym_name")
        self.log.append((self.ARGUMENT, op.name, symbol.value if symbol else None))


class RecordAgain(Record):
    ARGUMENT = "test-record-again"


@pytest.fixture
def recording():
    Record.log = []
    for cls in (Record, RecordAgain):
        register_pass(cls)
    yield Record.log
    for cls in (Record, RecordAgain):
        unregister_pass(cls.ARGUMENT)


def test_nested_pipelines_run_all_passes_on_one_op_before_the_next(recording):
    PassManager.parse("test-record,tt.func(test-record,test-record-again)").run(module())
    assert recording == [
        ("test-record", "builtin.module", None),
        ("test-record", "tt.func", "f"), ("test-record-again", "tt.func", "f"),
        ("test-record", "tt.func", "g"), ("test-record-again", "tt.func", "g"),
    ]


def test_any_runs_on_every_op_directly_inside(recording):
    PassManager.parse("any(test-record)").run(module())
    assert recording == [("test-record", "tt.func", "f"), ("test-record", "tt.func", "g")]


def test_the_root_must_match_the_anchor():
    f = module().regions[0].blocks[0].first_op
    with pytest.raises(PipelineError, match="runs on 'builtin.module' ops, not on 'tt.func'"):
        PassManager.parse("test-crash").run(f)
    PassManager.parse("test-func", "tt.func").run(f)
    assert f.attributes["test.visit"].value == 1


def test_any_skips_ops_that_one_of_its_passes_cannot_run_on(recording):
    """MLIR's rule (``canScheduleOn``): an ``any`` manager runs on a child only when every pass
    in it can run there, so an anchored pass keeps the whole manager off other ops."""
    m = parse_module('"test.op"() : () -> ()', allow_unregistered=True)
    PassManager.parse("any(test-func)").run(m)
    PassManager.parse("any(test-record,triton-combine)").run(module())
    assert recording == []
    PassManager.parse("any(test-record,test-func)").run(module())
    assert recording == [("test-record", "tt.func", "f"), ("test-record", "tt.func", "g")]


def test_a_pass_error_fails_the_pipeline_at_its_location():
    with pytest.raises(PassFailure) as caught:
        PassManager.parse("test-fail{op-name=arith.muli}").run(module())
    error = caught.value
    assert str(error).splitlines() == [
        "input.mlir:3:3: error: 'arith.muli' op test pass failure",
        "  %1 = arith.muli %0, %a : i32",
        "  ^",
    ]
    assert error.pass_.ARGUMENT == "test-fail" and error.op.name == "builtin.module"
    assert error.reproducer is None


def test_invalid_ir_after_a_pass_names_the_pass_and_the_op():
    with pytest.raises(PassVerificationError) as caught:
        PassManager.parse("tt.func(test-invalid-ir)").run(module())
    error = caught.value
    assert error.message == ("'arith.addi' op requires the same type for all operands and "
                             "results (the IR is invalid after pass 'test-invalid-ir')")
    assert (error.loc.line, error.loc.col) == (2, 3)
    assert error.op.name == "tt.func" and isinstance(error.__cause__.op, Operation)


def test_verification_can_be_turned_off():
    m = module()
    PassManager.parse("test-invalid-ir", verify_each=False).run(m)
    with pytest.raises(Exception, match="requires the same type"):
        m.verify()


def test_a_crash_keeps_its_exception_with_a_note(tmp_path):
    pm = PassManager.parse("test-crash")
    pm.enable_crash_reproducer(str(tmp_path / "repro.mlir"))
    with pytest.raises(RuntimeError, match="the test pass crashed") as caught:
        pm.run(module())
    assert caught.value.__notes__ == [
        f"while running pass 'test-crash' on 'builtin.module'; reproducer written to "
        f"{tmp_path / 'repro.mlir'}"]
    text = (tmp_path / "repro.mlir").read_text()
    assert "// Failure: RuntimeError: the test pass crashed" in text


# -- dumps


def test_dumps_before_and_after_each_pass():
    stream = io.StringIO()
    pm = PassManager.parse("test-options,tt.func(test-func)")
    pm.enable_ir_printing(before_all=True, after_all=True, stream=stream)
    pm.run(module())
    headers = [line for line in stream.getvalue().splitlines() if line.startswith("// -----//")]
    assert headers == [
        "// -----// IR Dump Before TestOptions (test-options) //----- //",
        "// -----// IR Dump After TestOptions (test-options) //----- //",
        "// -----// IR Dump Before TestFunc (test-func) //----- //",
        "// -----// IR Dump After TestFunc (test-func) //----- //",
        "// -----// IR Dump Before TestFunc (test-func) //----- //",
        "// -----// IR Dump After TestFunc (test-func) //----- //",
    ]
    dump = stream.getvalue().split("// -----// IR Dump After TestFunc (test-func) //----- //\n")
    assert dump[1].startswith("tt.func @f(%arg0: i32) -> i32 attributes {test.visit = 1 : i64}")
    assert dump[1].endswith("}\n\n")


def test_module_scope_dumps_name_the_op_the_pass_ran_on():
    stream = io.StringIO()
    pm = PassManager.parse("tt.func(test-func)")
    pm.enable_ir_printing(after_all=True, module_scope=True, generic=True, stream=stream)
    pm.run(module())
    lines = stream.getvalue().splitlines()
    assert lines[0] == ("// -----// IR Dump After TestFunc (test-func) ('tt.func' operation: @f) "
                        "//----- //")
    assert lines[1] == '"builtin.module"() ({'


def test_the_environment_switch_dumps_before_every_pass(monkeypatch, capsys):
    monkeypatch.setenv("TILECRAFT_DUMP_IR", "1")
    with pytest.raises(PassFailure):
        PassManager.parse("test-options,test-fail").run(module())
    headers = [line for line in capsys.readouterr().err.splitlines() if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump Before TestOptions (test-options) ('builtin.module' operation) "
        "//----- //",
        "// -----// IR Dump Before TestFail (test-fail) ('builtin.module' operation) //----- //",
        "// -----// IR Dump After TestFail Failed (test-fail) ('builtin.module' operation) "
        "//----- //",
    ]
    monkeypatch.setenv("TILECRAFT_DUMP_IR", "0")
    assert PassManager().ir_printing is None


# -- reproducers


def test_the_reproducer_holds_the_ir_before_the_failing_pass(tmp_path):
    path = tmp_path / "repro.mlir"
    pm = PassManager.parse("tt.func(test-func,test-fail{op-name=arith.muli})")
    pm.enable_crash_reproducer(str(path))
    m = module()
    with pytest.raises(PassFailure) as caught:
        pm.run(m)
    assert caught.value.reproducer == str(path)
    text = path.read_text()
    assert text.splitlines()[:4] == [
        "// tilecraft-opt reproducer: the IR below makes the pipeline of the trailer fail.",
        "// Failure: input.mlir:3:3: error: 'arith.muli' op test pass failure",
        "// Full pipeline: builtin.module(tt.func(test-func,test-fail{op-name=arith.muli}))",
        "// Run it again with: tilecraft-opt --run-reproducer <this file>",
    ]
    ir, pipeline = read_reproducer(text)
    assert pipeline == "builtin.module(tt.func(test-fail{op-name=arith.muli}))"
    assert text.endswith("#-}\n") and "{-#" not in ir
    again = parse_module(ir, "repro.mlir")
    f = again.regions[0].blocks[0].first_op
    assert f.attributes["test.visit"].value == 1, "test-func had run on @f"
    assert str(again) == str(m), "the failing pass changed nothing; @g was not reached"
    assert "loc(\"input.mlir\":3:3)" in ir, "generic form with locations"


def test_snapshots_leave_no_uses_behind(tmp_path):
    m = parse_module("""
      %a = "test.source"() : () -> i32
      "test.wrap"() ({
        "test.use"(%a) : (i32) -> ()
      }) : () -> ()
    """, allow_unregistered=True)
    source = m.regions[0].blocks[0].first_op
    pm = PassManager.parse("any(test-options)")
    pm.enable_crash_reproducer(str(tmp_path / "repro.mlir"))
    pm.run(m)
    assert len(source.result.uses) == 1
    assert not (tmp_path / "repro.mlir").exists()


def test_the_environment_names_a_reproducer(monkeypatch, tmp_path):
    monkeypatch.setenv("TILECRAFT_REPRODUCER_PATH", str(tmp_path / "r.mlir"))
    with pytest.raises(PassFailure):
        PassManager.parse("test-fail").run(module())
    pipeline = read_reproducer((tmp_path / "r.mlir").read_text())[1]
    assert pipeline == "builtin.module(test-fail{op-name=})"


def test_a_reproducer_that_cannot_be_written_is_a_warning(tmp_path, capsys):
    pm = PassManager.parse("test-fail")
    pm.enable_crash_reproducer(str(tmp_path / "no" / "such" / "dir" / "r.mlir"))
    with pytest.raises(PassFailure) as caught:
        pm.run(module())
    assert caught.value.reproducer is None
    assert "warning: could not write the reproducer to" in capsys.readouterr().err


def test_a_file_without_trailer_has_no_pipeline():
    assert read_reproducer("module {}\n") == ("module {}\n", None)


# -- reports


def test_statistics_report():
    pm = PassManager.parse("test-greedy,tt.func(test-func)")
    m = module("""
      tt.func @f(%a: i32) -> i32 {
        %c0 = arith.constant 0 : i32
        %0 = arith.addi %a, %c0 : i32
        tt.return %0 : i32
      }
    """)
    pm.run(m)
    assert pm.statistics_report().splitlines()[3:] == [
        "'builtin.module' Pipeline",
        "  TestGreedy",
        "    (S) 1 num-replaced - ops replaced",
        "  'tt.func' Pipeline",
        "    TestFunc",
        "      (S) 1 num-funcs - functions visited",
    ]


def test_timing_report_follows_the_pipeline():
    timer = Timer()
    pm = PassManager.parse("test-options,tt.func(test-func)")
    assert pm.enable_timing(timer) is timer
    pm.run(module())
    pm.run(module())
    assert list(timer.children) == ["TestOptions", "Verifier", "'tt.func' Pipeline"]
    assert list(timer.children["'tt.func' Pipeline"].children) == ["TestFunc", "Verifier"]
    lines = timer.report().splitlines()
    assert lines[1].strip() == "... Execution time report ..."
    assert lines[5] == "  ----Wall Time----  ----Name----"
    names = [line[21:] for line in lines[6:]]
    assert names == ["TestOptions", "Verifier", "'tt.func' Pipeline", "  TestFunc", "  Verifier",
                     "Rest", "Total"]
    assert lines[-1].endswith("(100.0%)  Total")


def test_timer_with_its_own_total():
    timer = Timer()
    timer.child("Parser").seconds = 1.0
    timer.seconds = 4.0
    lines = timer.report().splitlines()
    assert lines[3] == "  Total Execution Time: 4.0000 seconds"
    assert lines[6:] == ["    1.0000 ( 25.0%)  Parser", "    3.0000 ( 75.0%)  Rest",
                         "    4.0000 (100.0%)  Total"]


def test_dependent_dialects_must_exist(recording):
    class NeedsDialect(Record):
        ARGUMENT = "test-needs-dialect"
        DEPENDENT_DIALECTS = ("nosuchdialect",)

    pm = PassManager()
    pm.add(NeedsDialect())
    with pytest.raises(PassRegistryError, match="depends on the dialect 'nosuchdialect'"):
        pm.run(module())
    assert passes.TestFuncPass.ANCHOR == "tt.func"
