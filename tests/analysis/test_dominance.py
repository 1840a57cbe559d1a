"""Dominance and post-dominance, within blocks, across blocks and across nested regions."""

from __future__ import annotations

import pytest

from tilecraft.analysis import DominanceInfo, PostDominanceInfo

from .util import blocks, func, op_named, parse, value

NESTED = """
tt.func @f(%c: i1, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32 loc("c0")
  %c1 = arith.constant 1 : i32 loc("c1")
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32 loc("a")
    %y = scf.if %c -> (i32) {
      %b = arith.addi %a, %a : i32 loc("b")
      scf.yield %b : i32
    } else {
      %d = arith.subi %a, %a : i32 loc("d")
      scf.yield %d : i32
    } loc("if")
    scf.yield %y : i32 loc("yield")
  } loc("for")
  %after = arith.addi %r, %c1 : i32 loc("after")
  tt.return %after : i32
}
"""


@pytest.fixture
def nested():
    module = parse(NESTED)
    return module, DominanceInfo(module)


def test_ops_in_one_block(nested):
    module, dom = nested
    c0, c1 = op_named(module, "c0"), op_named(module, "c1")
    assert dom.dominates(c0, c1) and dom.properly_dominates(c0, c1)
    assert not dom.dominates(c1, c0)
    assert dom.dominates(c0, c0) and not dom.properly_dominates(c0, c0)


def test_ops_in_nested_regions(nested):
    module, dom = nested
    c0, loop, after = op_named(module, "c0"), op_named(module, "for"), op_named(module, "after")
    a, b, d = op_named(module, "a"), op_named(module, "b"), op_named(module, "d")
    assert dom.properly_dominates(c0, b)  # into two levels of nesting
    assert dom.properly_dominates(a, b) and dom.properly_dominates(a, d)
    assert not dom.dominates(b, d) and not dom.dominates(d, b)  # then/else regions
    assert not dom.dominates(b, after)  # out of the loop
    assert not dom.dominates(a, after)
    assert dom.properly_dominates(loop, after)
    # an op encloses (and so dominates) its nested ops, unless asked otherwise
    assert dom.properly_dominates(loop, b)
    assert not dom.properly_dominates(loop, b, enclosing_op_ok=False)


def test_values(nested):
    module, dom = nested
    loop = op_named(module, "for")
    iv, acc = loop.regions[0].blocks[0].arguments
    b, after, if_op = op_named(module, "b"), op_named(module, "after"), op_named(module, "if")
    assert dom.properly_dominates(iv, b) and dom.dominates(acc, op_named(module, "a"))
    assert not dom.properly_dominates(iv, after)  # block argument of the body only
    # results dominate later ops but not the ops nested in their own op
    assert dom.properly_dominates(loop.results[0], after)
    assert not dom.properly_dominates(loop.results[0], b)
    assert not dom.properly_dominates(if_op.results[0], b)
    assert dom.dominates(if_op.results[0], if_op)  # the defining op itself
    assert dom.dominates(value(module, "a"), op_named(module, "yield"))
    assert not dom.dominates(value(module, "b"), op_named(module, "yield"))


DIAMOND = """
tt.func @g(%c: i1, %x: i32) -> i32 {
  %e = arith.addi %x, %x : i32 loc("e")
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %l = arith.addi %e, %x : i32 loc("l")
  cf.br ^bb3(%l : i32)
^bb2:
  %r = arith.addi %e, %e : i32 loc("r")
  cf.br ^bb3(%r : i32)
^bb3(%m: i32):
  %y = scf.if %c -> (i32) {
    %in = arith.addi %m, %e : i32 loc("in")
    scf.yield %in : i32
  } else {
    scf.yield %m : i32
  }
  cf.cond_br %c, ^bb4, ^bb5
^bb4:
  tt.return %y : i32 loc("ret4")
^bb5:
  tt.return %m : i32 loc("ret5")
^bb6:
  %dead = arith.addi %x, %x : i32 loc("dead")
  cf.br ^bb3(%dead : i32)
}
"""


def test_block_dominance_and_tree():
    module = parse(DIAMOND)
    fn = func(module, "g")
    entry, b1, b2, b3, b4, b5, b6 = blocks(fn)
    dom = DominanceInfo(module)
    assert dom.dominates(entry, b3) and dom.properly_dominates(entry, b3)
    assert not dom.dominates(b1, b3) and not dom.dominates(b2, b3)
    assert dom.dominates(b3, b3) and not dom.properly_dominates(b3, b3)
    assert dom.immediate_dominator(b3) is entry
    assert dom.immediate_dominator(b4) is b3
    assert dom.immediate_dominator(entry) is None
    tree = dom.dominator_tree(fn.regions[0])
    assert set(tree.successors(entry)) == {b1, b2, b3}
    assert set(tree.successors(b3)) == {b4, b5}
    assert dom.dominance_frontier(b1) == {b3}
    assert dom.dominance_frontier(entry) == set()
    assert dom.nearest_common_dominator(b1, b2) is entry
    assert dom.nearest_common_dominator(b4, b5) is b3
    assert dom.nearest_common_dominator(b4, b3) is b3


def test_ops_across_blocks_and_into_regions():
    module = parse(DIAMOND)
    dom = DominanceInfo(module)
    e, l, r, inner = (op_named(module, n) for n in ("e", "l", "r", "in"))
    assert dom.properly_dominates(e, l) and dom.properly_dominates(e, inner)
    assert not dom.dominates(l, inner) and not dom.dominates(l, r)
    fn = func(module, "g")
    m = blocks(fn)[3].arguments[0]
    assert dom.properly_dominates(m, inner)  # block argument into a nested region
    assert not dom.properly_dominates(m, l)


def test_unreachable_blocks():
    module = parse(DIAMOND)
    fn = func(module, "g")
    entry, b1, *_rest, b6 = blocks(fn)
    dom = DominanceInfo(module)
    assert not dom.is_reachable(b6)
    assert dom.dominates(b1, b6)  # an unreachable block is dominated by every block
    assert not dom.dominates(b6, b1)
    assert dom.properly_dominates(op_named(module, "l"), op_named(module, "dead"))


def test_graph_region_of_the_module():
    module = parse("""
    module {
      tt.func @a() { tt.return }
      tt.func @b() { tt.return }
    }""")
    dom = DominanceInfo(module)
    a, b = func(module, "a"), func(module, "b")
    assert dom.properly_dominates(b, a) and dom.properly_dominates(a, b)
    assert dom.properly_dominates(module, a)  # the top-level op encloses everything
    assert not dom.properly_dominates(a, module)


def test_post_dominance():
    module = parse(DIAMOND)
    fn = func(module, "g")
    entry, b1, b2, b3, b4, b5, b6 = blocks(fn)
    post = PostDominanceInfo(module)
    assert post.post_dominates(b3, entry) and post.properly_post_dominates(b3, b1)
    assert not post.post_dominates(b1, entry)
    assert not post.post_dominates(b4, b3)  # b5 is another exit
    assert post.immediate_dominator(b1) is b3
    assert post.immediate_dominator(b4) is None  # the virtual exit
    # ops: later in the block, and through nested regions
    e, l, inner = op_named(module, "e"), op_named(module, "l"), op_named(module, "in")
    assert post.properly_post_dominates(l, l.parent.first_op) is False
    assert post.properly_post_dominates(blocks(fn)[3].terminator, inner)
    assert post.properly_post_dominates(blocks(fn)[3].terminator, e)
    assert not post.properly_post_dominates(l, e)
    assert not post.post_dominates(inner, blocks(fn)[3].first_op)


def test_post_dominance_in_a_single_block():
    module = parse(NESTED)
    post = PostDominanceInfo(module)
    after, c0, b = op_named(module, "after"), op_named(module, "c0"), op_named(module, "b")
    assert post.properly_post_dominates(after, c0)
    assert post.properly_post_dominates(after, b)  # nested in the loop before it
    assert not post.properly_post_dominates(c0, after)
    assert not post.properly_post_dominates(op_named(module, "for"), b)  # enclosing


def test_invalidate_after_cfg_change():
    module = parse(DIAMOND)
    fn = func(module, "g")
    entry, b1, b2, b3, *_ = blocks(fn)
    dom = DominanceInfo(module)
    assert not dom.dominates(b1, b3)
    # route bb2 to bb1 instead of bb3: now bb1 dominates bb3
    br = b2.terminator
    br.successors[0] = b1
    br.set_operands([])
    dom.invalidate(fn.regions[0])
    assert dom.dominates(b1, b3)
