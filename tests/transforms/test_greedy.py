"""The greedy driver: folding, dead ops, patterns and their order, convergence."""

from __future__ import annotations

import pytest

from tilecraft.ir import IntegerAttr, Operation, i32, parse_module
from tilecraft.transforms import (
    GreedyRewriteConfig, PatternSet, RewriteConvergenceError, RewriteListener, RewritePattern,
    apply_patterns_greedily, constant_attr, is_trivially_dead,
)

from . import folddialect  # noqa: F401 - registers the tfold dialect


def module(body: str) -> Operation:
    return parse_module(body, "input.mlir", allow_unregistered=True)


def body_text(op: Operation) -> list[str]:
    return str(op).splitlines()[1:-1]


def ops(op: Operation) -> list[str]:
    return [nested.name for nested in op.walk()][1:]


# -- folding


def test_constants_fold_and_materialize_through_the_dialect():
    m = module("""
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %c2 = "tfold.const"() <{value = 2 : i32}> : () -> i32
      %0 = "tfold.add"(%c1, %c2) : (i32, i32) -> i32
      %1 = "tfold.add"(%0, %c2) : (i32, i32) -> i32
      "test.sink"(%1) : (i32) -> ()
    """)
    assert apply_patterns_greedily(m, [])
    assert body_text(m) == [
        '  %0 = "tfold.const"() <{value = 5 : i32}> : () -> i32',
        '  "test.sink"(%0) : (i32) -> ()',
    ]


def test_fold_to_an_existing_value_and_in_place():
    m = module("""
      %a = "test.source"() : () -> i32
      %c0 = "tfold.const"() <{value = 0 : i32}> : () -> i32
      %c7 = "tfold.const"() <{value = 7 : i32}> : () -> i32
      %0 = "tfold.add"(%a, %c0) : (i32, i32) -> i32
      %1 = "tfold.canon"(%c7, %0) : (i32, i32) -> i32
      "test.sink"(%1) : (i32) -> ()
    """)
    assert apply_patterns_greedily(m, [])
    assert body_text(m) == [
        '  %0 = "tfold.const"() <{value = 7 : i32}> : () -> i32',
        '  %1 = "test.source"() : () -> i32',
        '  %2 = "tfold.canon"(%1, %0) : (i32, i32) -> i32',
        '  "test.sink"(%2) : (i32) -> ()',
    ]


def test_a_constant_the_dialect_cannot_make_leaves_the_op():
    m = module("""
      %c3 = "tfold.const"() <{value = 3 : i32}> : () -> i32
      %0 = "tfold.half"(%c3) : (i32) -> f32
      "test.sink"(%0) : (f32) -> ()
    """)
    assert not apply_patterns_greedily(m, [])
    assert ops(m) == ["tfold.const", "tfold.half", "test.sink"]


def test_fold_false_keeps_foldable_ops():
    m = module("""
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %0 = "tfold.add"(%c1, %c1) : (i32, i32) -> i32
      "test.sink"(%0) : (i32) -> ()
    """)
    assert not apply_patterns_greedily(m, [], fold=False)
    assert ops(m) == ["tfold.const", "tfold.add", "test.sink"]


def test_a_constant_without_materializer_is_an_error(monkeypatch):
    monkeypatch.delattr(folddialect, "materialize_constant")
    m = module("""
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %0 = "tfold.add"(%c1, %c1) : (i32, i32) -> i32
      "test.sink"(%0) : (i32) -> ()
    """)
    with pytest.raises(ValueError, match="'tfold.add' folded to a constant, but its hooks "
                                         "module .*folddialect defines no materialize_constant"):
        apply_patterns_greedily(m, [])


def test_constant_attr_reads_constant_like_ops():
    m = module("""
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %a = "test.source"() : () -> i32
      "test.sink"(%c1, %a) : (i32, i32) -> ()
    """)
    sink = m.regions[0].blocks[0].last_op
    assert constant_attr(sink.get_operand(0)) is IntegerAttr(1, i32)
    assert constant_attr(sink.get_operand(1)) is None


# -- constants and dead ops


def test_equal_constants_become_one_at_the_top_of_their_scope():
    m = module("""
      %a = "test.source"() : () -> i32
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      "tfold.region"() ({
        %c1_again = "tfold.const"() <{value = 1 : i32}> : () -> i32
        %c2 = "tfold.const"() <{value = 2 : i32}> : () -> i32
        "test.sink"(%c1_again, %c2) : (i32, i32) -> ()
      }) : () -> ()
      "test.region"() ({
        %c2_again = "tfold.const"() <{value = 2 : i32}> : () -> i32
        %c3 = "tfold.const"() <{value = 3 : i32}> : () -> i32
        "test.sink"(%c2_again, %c3) : (i32, i32) -> ()
      }) : () -> ()
      "test.sink"(%a, %c1) : (i32, i32) -> ()
    """)
    assert apply_patterns_greedily(m, [])
    assert body_text(m) == [
        '  %0 = "tfold.const"() <{value = 1 : i32}> : () -> i32',
        '  %1 = "tfold.const"() <{value = 2 : i32}> : () -> i32',
        '  %2 = "test.source"() : () -> i32',
        '  "tfold.region"() ({',
        '    "test.sink"(%0, %1) : (i32, i32) -> ()',
        '  }) : () -> ()',
        '  "test.region"() ({',
        '    %3 = "tfold.const"() <{value = 2 : i32}> : () -> i32',
        '    %4 = "tfold.const"() <{value = 3 : i32}> : () -> i32',
        '    "test.sink"(%3, %4) : (i32, i32) -> ()',
        '  }) : () -> ()',
        '  "test.sink"(%2, %0) : (i32, i32) -> ()',
    ], "constants leave registered regions; an unregistered op's region is a scope of its own"
    assert not apply_patterns_greedily(m, []), "a second run changes nothing"


def test_without_cse_constants_they_stay_where_they_are():
    m = module("""
      %a = "test.source"() : () -> i32
      %c1 = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %c1_again = "tfold.const"() <{value = 1 : i32}> : () -> i32
      %0 = "tfold.add"(%c1, %c1_again) : (i32, i32) -> i32
      "test.sink"(%a, %0) : (i32, i32) -> ()
    """)
    apply_patterns_greedily(m, [], config=GreedyRewriteConfig(cse_constants=False))
    assert body_text(m) == [
        '  %0 = "test.source"() : () -> i32',
        '  %1 = "tfold.const"() <{value = 2 : i32}> : () -> i32',
        '  "test.sink"(%0, %1) : (i32, i32) -> ()',
    ]


def test_dead_ops_go_unless_they_have_effects_or_terminate():
    m = module("""
      %a = "test.source"() : () -> i32
      %0 = "tfold.add"(%a, %a) : (i32, i32) -> i32
      %1 = "tfold.add"(%0, %0) : (i32, i32) -> i32
      %2 = "test.effects"(%a) : (i32) -> i32
      "test.region"() ({
        "tfold.yield"() : () -> ()
      }) : () -> ()
    """)
    assert apply_patterns_greedily(m, [])
    assert ops(m) == ["test.source", "test.effects", "test.region", "tfold.yield"]
    add = Operation.create("tfold.add", [m.regions[0].blocks[0].first_op.result] * 2, [i32])
    assert is_trivially_dead(add)


# -- patterns


class Recorder(RewriteListener):
    def __init__(self):
        self.events = []

    def notify_op_inserted(self, op):
        self.events.append(("inserted", op.name))

    def notify_op_replaced(self, op, values):
        self.events.append(("replaced", op.name))


class AddToSub(RewritePattern):
    """test.add(x, y) -> test.sub(x, y): creates a new op the driver must visit."""

    ROOT = "test.add"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new_op(op, "test.sub", op.operands, [op.results[0].type])
        return True


class SubToNeg(RewritePattern):
    """test.sub(x, y) -> test.neg(x)."""

    ROOT = "test.sub"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new_op(op, "test.neg", [op.get_operand(0)],
                                        [op.results[0].type])
        return True


def test_ops_that_patterns_create_are_revisited():
    m = module("""
      %a = "test.source"() : () -> i32
      %0 = "test.add"(%a, %a) : (i32, i32) -> i32
      "test.sink"(%0) : (i32) -> ()
    """)
    recorder = Recorder()
    assert apply_patterns_greedily(m, [AddToSub(), SubToNeg()],
                                   config=GreedyRewriteConfig(listener=recorder))
    assert ops(m) == ["test.source", "test.neg", "test.sink"]
    assert recorder.events == [("inserted", "test.sub"), ("replaced", "test.add"),
                               ("inserted", "test.neg"), ("replaced", "test.sub")]


class Tag(RewritePattern):
    """Marks the op with its own name, once; ROOT None: any op."""

    BENEFIT = 1
    label = "low"

    def match_and_rewrite(self, op, rewriter):
        if op.name != "test.target" or "tag" in op.attributes:
            return False
        rewriter.modify_op_in_place(
            op, lambda: op.attributes.__setitem__("tag", IntegerAttr(len(self.label))))
        return True


class HighTag(Tag):
    ROOT = "test.target"
    BENEFIT = 5
    label = "high!"


def test_higher_benefit_first_and_any_op_patterns():
    patterns = PatternSet([Tag(), HighTag()])
    assert [type(p) for p in patterns.for_op("test.target")] == [HighTag, Tag]
    assert [type(p) for p in patterns.for_op("test.other")] == [Tag]
    m = module('"test.target"() : () -> ()')
    apply_patterns_greedily(m, patterns)
    assert m.regions[0].blocks[0].first_op.attributes["tag"] is IntegerAttr(5)


class Grow(RewritePattern):
    """Changes the root's attribute each time it sees the op: a change the worklist cannot see
    again in the same iteration, so every iteration changes something."""

    ROOT = "test.target"

    def match_and_rewrite(self, op, rewriter):
        root = op.parent_op
        count = root.attributes.get("count", IntegerAttr(0)).value
        rewriter.modify_op_in_place(
            root, lambda: root.attributes.__setitem__("count", IntegerAttr(count + 1)))
        return True


def test_the_iteration_bound_names_the_pattern():
    m = module('"test.target"() : () -> ()')
    with pytest.raises(RewriteConvergenceError) as caught:
        apply_patterns_greedily(m, [Grow()], max_iterations=3)
    message = str(caught.value)
    assert message.startswith("input.mlir:1:1: error: greedy pattern rewriting did not "
                              "converge within 3 iterations; still applying in the last one: "
                              "pattern 'Grow' (1 time)")
    assert caught.value.applied == {"pattern 'Grow'": 1}
    assert m.attributes["count"] is IntegerAttr(3)


class Flip(RewritePattern):
    ROOT = "test.flip"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new_op(op, "test.flop", op.operands, [op.results[0].type])
        return True


class Flop(RewritePattern):
    ROOT = "test.flop"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op_with_new_op(op, "test.flip", op.operands, [op.results[0].type])
        return True


def test_patterns_undoing_each_other_exhaust_the_rewrite_budget():
    m = module("""
      %0 = "test.flip"() : () -> i32
      "test.sink"(%0) : (i32) -> ()
    """)
    with pytest.raises(RewriteConvergenceError, match=r"more than 50 rewrites in one "
                       r"iteration, by pattern 'Flip' \(26 times\), pattern 'Flop' \(25 times\)"):
        apply_patterns_greedily(m, [Flip(), Flop()],
                                config=GreedyRewriteConfig(max_num_rewrites=50))


class Liar(RewritePattern):
    ROOT = "test.target"

    def match_and_rewrite(self, op, rewriter):
        rewriter.modify_op_in_place(op, lambda: None)
        return False


def test_a_pattern_that_changes_the_ir_must_say_so():
    m = module('"test.target"() : () -> ()')
    with pytest.raises(ValueError, match="pattern 'Liar' changed the IR around 'test.target' "
                                         "but returned False"):
        apply_patterns_greedily(m, [Liar()])


def test_only_ops_below_the_root_are_rewritten():
    m = module("""
      %a = "test.source"() : () -> i32
      %0 = "test.add"(%a, %a) : (i32, i32) -> i32
      "test.region"() ({
        %1 = "test.add"(%0, %0) : (i32, i32) -> i32
        "test.sink"(%1) : (i32) -> ()
      }) : () -> ()
    """)
    region_op = m.regions[0].blocks[0].last_op
    apply_patterns_greedily(region_op, [AddToSub()])
    assert ops(m) == ["test.source", "test.add", "test.region", "test.sub", "test.sink"]
