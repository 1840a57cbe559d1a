"""Liveness: live-in/live-out per block across branches and regions, and live ranges."""

from __future__ import annotations

from tilecraft.analysis import LiveRange, Liveness

from .util import blocks, func, op_named, parse, value


def test_straight_line_ranges():
    module = parse("""
    tt.func @f(%a: i32 loc("a"), %b: i32 loc("b")) -> i32 {
      %x = arith.addi %a, %b : i32 loc("x")
      %y = arith.muli %x, %a : i32 loc("y")
      %z = arith.addi %y, %y : i32 loc("z")
      tt.return %z : i32 loc("ret")
    }""")
    live = Liveness(module)
    x, y, z, ret = (op_named(module, n) for n in ("x", "y", "z", "ret"))
    assert [live.index[op] for op in (x, y, z, ret)] == [2, 3, 4, 5]
    assert live.end_index[func(module, "f")] == 5
    assert live.live_range(value(module, "x")) == LiveRange(2, 3)
    assert live.live_range(value(module, "a")) == LiveRange(2, 3)
    assert live.live_range(value(module, "b")) == LiveRange(2, 2)
    assert live.live_range(value(module, "z")) == LiveRange(4, 5)
    entry = blocks(func(module, "f"))[0]
    assert live.live_in(entry) == set() and live.live_out(entry) == set()
    assert live.is_dead_after(value(module, "x"), y)
    assert not live.is_dead_after(value(module, "a"), x)
    assert live.live_values_at(y) == {value(module, n) for n in ("a", "x", "y")}


def test_across_blocks():
    module = parse("""
    tt.func @g(%c: i1, %x: i32 loc("x")) -> i32 {
      %e = arith.addi %x, %x : i32 loc("e")
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      %l = arith.addi %e, %x : i32 loc("l")
      cf.br ^bb3(%l : i32)
    ^bb2:
      cf.br ^bb3(%e : i32)
    ^bb3(%m: i32):
      %s = arith.addi %m, %e : i32 loc("s")
      tt.return %s : i32
    }""")
    live = Liveness(module)
    entry, b1, b2, b3 = blocks(func(module, "g"))
    e, x = value(module, "e"), value(module, "x")
    assert live.live_out(entry) == {e, x}
    assert live.live_in(b1) == {e, x} and live.live_out(b1) == {e}
    assert live.live_in(b2) == {e} and live.live_out(b2) == {e}
    assert live.live_in(b3) == {e} and live.live_out(b3) == set()
    assert not live.is_dead_after(e, op_named(module, "l"))  # still needed in ^bb3
    assert live.is_dead_after(x, op_named(module, "l"))
    assert live.is_dead_after(e, op_named(module, "s"))
    assert live.live_range(e) == LiveRange(live.index[op_named(module, "e")],
                                           live.index[op_named(module, "s")])
    # %x is live through ^bb1 only, but its range is the hull up to its last use
    assert live.live_range(x).end == live.index[op_named(module, "l")]


def test_cf_loop():
    module = parse("""
    tt.func @h(%n: i32 loc("n")) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32 loc("c1")
      cf.br ^bb1(%c0 : i32)
    ^bb1(%i: i32 loc("i")):
      %lt = arith.cmpi slt, %i, %n : i32
      cf.cond_br %lt, ^bb2, ^bb3
    ^bb2:
      %next = arith.addi %i, %c1 : i32
      cf.br ^bb1(%next : i32) loc("latch")
    ^bb3:
      tt.return %i : i32
    }""")
    live = Liveness(module)
    entry, b1, b2, b3 = blocks(func(module, "h"))
    n, c1, i = value(module, "n"), value(module, "c1"), value(module, "i")
    assert live.live_in(b1) == {n, c1}
    assert live.live_out(b1) == {n, c1, i}
    assert live.live_in(b2) == {n, c1, i} and live.live_out(b2) == {n, c1}
    assert live.live_in(b3) == {i}
    assert live.live_out(entry) == {n, c1}
    # the constant stays live around the loop, up to the back edge
    assert live.live_range(c1).end == live.index[op_named(module, "latch")]
    assert not live.is_dead_after(c1, b2.first_op)


REGIONS = """
tt.func @f(%n: i32 loc("n"), %c: i1) -> i32 {
  %c0 = arith.constant 0 : i32 loc("c0")
  %c1 = arith.constant 1 : i32 loc("c1")
  %k = arith.addi %n, %n : i32 loc("k")
  %u = arith.addi %n, %c1 : i32 loc("u")
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %k : i32 loc("a")
    %w = scf.for %j = %c0 to %n step %c1 iter_args(%v = %a) -> (i32) : i32 {
      %t = arith.addi %v, %u : i32 loc("t")
      scf.yield %t : i32
    } loc("inner")
    scf.yield %w : i32
  } loc("for")
  %y = scf.if %c -> (i32) {
    %b = arith.addi %k, %k : i32 loc("b")
    scf.yield %b : i32
  } else {
    scf.yield %c0 : i32
  } loc("if")
  %z = arith.addi %r, %y : i32 loc("z")
  tt.return %z : i32
}
"""


def test_values_used_in_nested_regions_live_across_the_op():
    module = parse(REGIONS)
    live = Liveness(module)
    loop, if_op, z = op_named(module, "for"), op_named(module, "if"), op_named(module, "z")
    k, u = value(module, "k"), value(module, "u")
    # %k is used inside the loop and inside the if: live to the end of the if
    assert live.live_range(k) == LiveRange(live.index[op_named(module, "k")],
                                           live.end_index[if_op])
    # %u is used only in the inner loop: live across the whole outer loop, then dead
    assert live.live_range(u) == LiveRange(live.index[op_named(module, "u")],
                                           live.end_index[loop])
    assert live.live_range(u).overlaps(live.live_range(k))
    assert not live.live_range(u).overlaps(live.live_range(value(module, "z")))
    assert live.is_dead_after(u, loop)
    assert not live.is_dead_after(k, loop)
    assert live.is_dead_after(k, if_op)
    assert live.index[z] > live.end_index[if_op]


def test_loop_bodies_keep_outer_values_live():
    module = parse(REGIONS)
    live = Liveness(module)
    loop, inner, if_op = op_named(module, "for"), op_named(module, "inner"), op_named(module, "if")
    body = loop.regions[0].blocks[0]
    inner_body = inner.regions[0].blocks[0]
    then = if_op.regions[0].blocks[0]
    n, c0, c1, k, u = (value(module, x) for x in ("n", "c0", "c1", "k", "u"))
    assert live.live_in(body) == {k, u, n, c0, c1}
    assert live.live_out(body) == {k, u, n, c0, c1}  # needed by the next iteration
    assert live.live_in(inner_body) == {u} and live.live_out(inner_body) == {u}
    assert live.live_in(then) == {k} and live.live_out(then) == set()  # runs once
    a = op_named(module, "a")
    assert not live.is_dead_after(k, a)  # used again next iteration
    assert live.is_dead_after(body.arguments[1], a)  # %acc
    at_a = live.live_values_at(a)
    assert {n, c0, c1, k, u, body.arguments[1], value(module, "a")} <= at_a
    assert not at_a & {loop.results[0], if_op.results[0], value(module, "z")}


def test_live_range_helpers():
    r = LiveRange(3, 7)
    assert 3 in r and 7 in r and 8 not in r
    assert len(r) == 5
    assert r.overlaps(LiveRange(7, 9)) and not r.overlaps(LiveRange(8, 9))
