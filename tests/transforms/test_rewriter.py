"""PatternRewriter: each change is made and reported to the listener."""

from __future__ import annotations

import pytest

from tilecraft.generated.arith import AddIOp
from tilecraft.ir import IntegerAttr, i32, parse_module
from tilecraft.transforms import PatternRewriter, RewriteListener


class Recorder(RewriteListener):
    def __init__(self):
        self.events = []

    def notify_op_inserted(self, op):
        self.events.append(("inserted", op.name))

    def notify_op_modified(self, op):
        self.events.append(("modified", op.name))

    def notify_op_replaced(self, op, values):
        self.events.append(("replaced", op.name, len(values)))

    def notify_op_erased(self, op):
        self.events.append(("erased", op.name))


TEXT = """
  %a = "test.source"() : () -> i32
  %b = "test.source"() : () -> i32
  %0 = "test.add"(%a, %b) : (i32, i32) -> i32
  "test.sink"(%0) : (i32) -> ()
"""


@pytest.fixture
def ir():
    m = parse_module(TEXT, allow_unregistered=True)
    recorder = Recorder()
    return m, m.regions[0].blocks[0].ops, PatternRewriter(recorder), recorder


def names(m):
    return [op.name for op in m.regions[0].blocks[0]]


def test_insert_and_create_at_the_insertion_point(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    with pytest.raises(ValueError, match="no insertion point"):
        rewriter.create("test.new")
    rewriter.set_insertion_point(add)
    rewriter.create("test.before")
    rewriter.set_insertion_point_after(add)
    rewriter.create("test.after")
    rewriter.set_insertion_point_to_start(m.regions[0].blocks[0])
    rewriter.create("test.first")
    rewriter.set_insertion_point_to_end(m.regions[0].blocks[0])
    rewriter.clone(a)
    assert names(m) == ["test.first", "test.source", "test.source", "test.before", "test.add",
                        "test.after", "test.sink", "test.source"]
    assert recorder.events == [("inserted", "test.before"), ("inserted", "test.after"),
                               ("inserted", "test.first"), ("inserted", "test.source")]


def test_replace_op_rewires_users_then_erases(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    rewriter.replace_op(add, [a.result])
    assert sink.get_operand(0) is a.result
    assert names(m) == ["test.source", "test.source", "test.sink"]
    assert recorder.events == [("replaced", "test.add", 1), ("modified", "test.sink"),
                               ("erased", "test.add")]
    with pytest.raises(ValueError, match="has 1 results but 2 replacement values"):
        rewriter.replace_op(a, [b.result, b.result])


def test_replace_op_with_new_op_by_name_or_class(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    rewriter.set_insertion_point(add)
    new = rewriter.replace_op_with_new_op(add, "test.mul", [a.result, b.result], [i32])
    assert new.location == add.location and sink.get_operand(0) is new.result
    rewriter.set_insertion_point(new)
    typed = rewriter.replace_op_with_new_op(new, AddIOp, a.result, b.result)
    assert isinstance(typed, AddIOp) and sink.get_operand(0) is typed.result
    assert recorder.events[:4] == [("inserted", "test.mul"), ("replaced", "test.add", 1),
                                   ("modified", "test.sink"), ("erased", "test.add")]
    assert recorder.events[4] == ("inserted", "arith.addi")


def test_erase_op_reports_nested_ops_users_first():
    m = parse_module("""
      "test.outer"() ({
        %0 = "test.def"() : () -> i32
        "test.region"() ({
          "test.use"(%0) : (i32) -> ()
        }) : () -> ()
      }) : () -> ()
    """, allow_unregistered=True)
    recorder = Recorder()
    outer = m.regions[0].blocks[0].first_op
    PatternRewriter(recorder).erase_op(outer)
    assert recorder.events == [("erased", "test.use"), ("erased", "test.region"),
                               ("erased", "test.def"), ("erased", "test.outer")]
    assert len(m.regions[0].blocks[0]) == 0


def test_erase_op_refuses_ops_still_used(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    with pytest.raises(ValueError, match="cannot erase 'test.add': result #0 still has uses"):
        rewriter.erase_op(add)
    assert recorder.events == []


def test_modify_in_place_and_uses(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    rewriter.modify_op_in_place(add, lambda: add.attributes.__setitem__("x", IntegerAttr(1)))
    rewriter.start_op_modification(sink)
    sink.set_operand(0, a.result)
    rewriter.finalize_op_modification(sink)
    rewriter.replace_all_uses_with(a.result, b.result)
    rewriter.replace_all_uses_with(b.result, b.result)
    assert add.operands == (b.result, b.result) and sink.get_operand(0) is b.result
    rewriter.replace_uses_with_if(b.result, a.result, lambda use: use.index == 1)
    assert add.operands == (b.result, a.result)
    assert recorder.events == [("modified", "test.add"), ("modified", "test.sink"),
                               ("modified", "test.add"), ("modified", "test.sink"),
                               ("modified", "test.add")]


def test_move_ops(ir):
    m, (a, b, add, sink), rewriter, recorder = ir
    rewriter.move_op_before(b, a)
    rewriter.move_op_after(a, add)
    assert [op.name for op in m.regions[0].blocks[0]][:3] == ["test.source", "test.add",
                                                              "test.source"]
    assert recorder.events == [("inserted", "test.source"), ("inserted", "test.source")]


def test_inline_block_before():
    m = parse_module("""
      %x = "test.source"() : () -> i32
      "test.wrapper"() ({
      ^bb0(%arg: i32):
        %0 = "test.neg"(%arg) : (i32) -> i32
        "test.sink"(%0) : (i32) -> ()
      }) : () -> ()
    """, allow_unregistered=True)
    source, wrapper = m.regions[0].blocks[0].ops
    block = wrapper.regions[0].blocks[0]
    recorder = Recorder()
    rewriter = PatternRewriter(recorder)
    with pytest.raises(ValueError, match="has 1 arguments but 0 values"):
        rewriter.inline_block_before(block, wrapper, [])
    rewriter.inline_block_before(block, wrapper, [source.result])
    rewriter.erase_op(wrapper)
    assert str(m).splitlines()[1:-1] == [
        '  %0 = "test.source"() : () -> i32',
        '  %1 = "test.neg"(%0) : (i32) -> i32',
        '  "test.sink"(%1) : (i32) -> ()',
    ]
    assert recorder.events == [("modified", "test.neg"), ("inserted", "test.neg"),
                               ("inserted", "test.sink"), ("erased", "test.wrapper")]
    assert block.parent is None and len(block) == 0


def test_inline_block_refuses_branch_targets():
    m = parse_module("""
      "test.wrapper"() ({
        "test.br"()[^bb1] : () -> ()
      ^bb1:
        "test.end"() : () -> ()
      }) : () -> ()
    """, allow_unregistered=True)
    wrapper = m.regions[0].blocks[0].first_op
    target = wrapper.regions[0].blocks[1]
    with pytest.raises(ValueError, match="other blocks branch to"):
        PatternRewriter().inline_block_before(target, wrapper)
