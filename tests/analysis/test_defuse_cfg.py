"""The def-use graph and block CFGs."""

from __future__ import annotations

from tilecraft.analysis import DefUseGraph, RegionCFG, successor_operands
from tilecraft.analysis.cfg import (PARENT, ancestor_block_in_region, ancestor_in_region, is_loop,
                                    region_flow_graph, region_successors)
from tilecraft.analysis.defuse import def_use_order, external_operands

from .util import blocks, func, op_named, parse, value

CHAIN = """
tt.func @f(%a: i32 loc("a"), %b: i32 loc("b"), %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32 loc("c0")
  %c1 = arith.constant 1 : i32 loc("c1")
  %x = arith.addi %a, %b : i32 loc("x")
  %y = arith.muli %x, %x : i32 loc("y")
  %dead = arith.subi %a, %a : i32 loc("dead")
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (i32) : i32 {
    %z = arith.addi %acc, %b : i32 loc("z")
    scf.yield %z : i32 loc("yield")
  } loc("for")
  tt.return %r : i32 loc("ret")
}
"""


def test_def_use_edges():
    module = parse(CHAIN)
    graph = DefUseGraph(module)
    x, y = value(module, "x"), value(module, "y")
    assert graph.users(x) == [op_named(module, "y")]
    assert graph.graph.edges[x, op_named(module, "y")]["index"] == [0, 1]
    assert graph.producer(y) is op_named(module, "y")
    assert graph.producer(value(module, "a")) is func(module, "f")  # region argument
    assert graph.graph.edges[op_named(module, "x"), x]["kind"] == "def"
    assert set(graph.operands(op_named(module, "x"))) == {value(module, "a"), value(module, "b")}
    assert graph.is_dead(op_named(module, "dead"))
    assert not graph.is_dead(op_named(module, "x"))


def test_transitive_users_and_producers():
    module = parse(CHAIN)
    graph = DefUseGraph(module)
    users = graph.transitive_users(value(module, "x"))
    names = {"y", "for", "yield", "ret", "z"}
    assert {op_named(module, n) for n in names} <= users
    assert op_named(module, "dead") not in users
    producers = graph.transitive_producers(op_named(module, "z"))
    # %acc comes from the loop, which depends on its bounds and inits
    assert {op_named(module, n) for n in ("for", "y", "x", "c0", "c1")} <= producers
    assert op_named(module, "dead") not in producers
    assert value(module, "a") in graph.transitive_values(op_named(module, "y"), forward=False)
    sliced = graph.slice([value(module, "y")])
    assert op_named(module, "ret") in sliced and op_named(module, "x") not in sliced


def test_topological_order():
    module = parse(CHAIN)
    graph = DefUseGraph(module)
    order = graph.topological_ops()
    assert len(order) == len(graph.ops)
    position = {op: i for i, op in enumerate(order)}
    for op in order:
        for operand in op.operands:
            producer = graph.producer(operand)
            assert position[producer] < position[op]


def test_def_use_order_without_a_graph():
    """Program order defines before use here: `def_use_order` is the walk, as the graph's."""
    module = parse(CHAIN)
    assert def_use_order(module) == list(module.walk()) == DefUseGraph(module).topological_ops()


def test_def_use_order_of_blocks_listed_after_their_uses():
    module = parse("""
    tt.func @h(%x: i32) -> i32 {
      cf.br ^bb2
    ^bb1:
      %z = arith.addi %y, %y : i32 loc("z")
      tt.return %z : i32
    ^bb2:
      %y = arith.muli %x, %x : i32 loc("y")
      cf.br ^bb1
    }
    """)
    order = def_use_order(module)
    assert order == DefUseGraph(module).topological_ops() != list(module.walk())
    assert order.index(op_named(module, "y")) < order.index(op_named(module, "z"))


def test_external_operands():
    module = parse(CHAIN)
    loop = op_named(module, "for")
    graph = DefUseGraph(loop)
    outside = [v for v in graph.values() if graph.producer(v) is None]
    assert external_operands(list(loop.walk())) == outside
    n = blocks(func(module, "f"))[0].arguments[2]
    assert outside == [value(module, "c0"), n, value(module, "c1"), value(module, "y"),
                       value(module, "b")]
    assert external_operands(list(module.walk())) == []


def test_graph_without_region_argument_edges():
    module = parse(CHAIN)
    graph = DefUseGraph(module, region_args=False)
    assert graph.producer(value(module, "a")) is None


BRANCHES = """
tt.func @g(%c: i1, %x: i32, %y: f32) -> i32 {
  cf.br ^bb1 loc("br0")
^bb1:
  cf.cond_br %c, ^bb2(%x, %y : i32, f32), ^bb3(%x : i32) loc("cbr")
^bb2(%a: i32, %b: f32):
  cf.br ^bb3(%a : i32)
^bb3(%r: i32):
  cf.cond_br %c, ^bb4, ^bb1
^bb4:
  tt.return %r : i32
^bb5:
  tt.return %x : i32
}
"""


def test_region_cfg():
    module = parse(BRANCHES)
    fn = func(module, "g")
    b0, b1, b2, b3, b4, b5 = blocks(fn)
    cfg = RegionCFG(fn.regions[0])
    assert cfg.successors(b1) == [b2, b3]
    assert set(cfg.predecessors(b3)) == {b1, b2}
    assert cfg.reachable() == {b0, b1, b2, b3, b4}
    assert cfg.unreachable() == [b5]
    assert cfg.exit_blocks() == [b4, b5]
    assert cfg.back_edges() == [(b3, b1)]
    assert cfg.has_cycle()
    rpo = cfg.reverse_post_order()
    assert rpo[0] is b0 and rpo.index(b1) < rpo.index(b3) < rpo.index(b4)


def test_successor_operands():
    module = parse(BRANCHES)
    fn = func(module, "g")
    x, y = blocks(fn)[0].arguments[1:]
    cbr = op_named(module, "cbr")
    assert successor_operands(cbr, 0) == [x, y]
    assert successor_operands(cbr, 1) == [x]
    assert successor_operands(op_named(module, "br0"), 0) == []


def test_ancestors_across_regions():
    module = parse(CHAIN)
    fn = func(module, "f")
    z = op_named(module, "z")
    assert ancestor_in_region(z, fn.regions[0]) is op_named(module, "for")
    assert ancestor_in_region(z, z.parent_region) is z
    assert ancestor_in_region(op_named(module, "x"), op_named(module, "for").regions[0]) is None
    assert ancestor_block_in_region(z.parent, fn.regions[0]) is blocks(fn)[0]


def test_structured_control_flow_between_regions():
    module = parse("""
    tt.func @s(%c: i1, %n: i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %n step %c1 : i32 {
      } loc("for")
      scf.if %c {
      } loc("if1")
      %r = scf.if %c -> (i32) {
        scf.yield %c0 : i32
      } else {
        scf.yield %c1 : i32
      } loc("if2")
      %w = scf.while (%a = %c0) : (i32) -> i32 {
        scf.condition(%c) %a : i32
      } do {
      ^bb0(%b: i32):
        scf.yield %b : i32
      } loc("while")
      tt.return
    }""")
    loop, if1, if2, wh = (op_named(module, n) for n in ("for", "if1", "if2", "while"))
    assert region_successors(loop, None) == [0, PARENT]
    assert region_successors(loop, 0) == [0, PARENT]
    assert region_successors(if1, None) == [0, PARENT]  # no else region
    assert region_successors(if2, None) == [0, 1] and region_successors(if2, 1) == [PARENT]
    assert region_successors(wh, 0) == [1, PARENT] and region_successors(wh, 1) == [0]
    assert region_successors(func(module, "s"), None) is None
    graph = region_flow_graph(wh)
    before, after = wh.regions[0].blocks[0], wh.regions[1].blocks[0]
    assert set(graph.edges) == {(wh, before), (before, after), (before, wh), (after, before)}
    assert is_loop(loop) and is_loop(wh)
    assert not is_loop(if1) and not is_loop(if2)
    assert not is_loop(op_named(module, "for").parent.ops[0])  # no regions


def test_warp_specialize_control_flow():
    module = parse("""
    module attributes {"ttg.num-warps" = 4 : i32} {
    tt.func @w() {
      ttg.warp_specialize()
      default {
        ttg.warp_yield
      }
      partition0() num_warps(4) {
        ttg.warp_return
      }
      partition1() num_warps(4) {
        ttg.warp_return
      } : () -> () loc("ws")
      tt.return
    }
    }""")
    ws = op_named(module, "ws")
    partitions = ws.regions[1].blocks[0].first_op
    # the default region runs and leaves; the holder region runs the partitions op
    assert region_successors(ws, None) == [0, 1]
    assert region_successors(ws, 0) == [PARENT] and region_successors(ws, 1) == []
    # which runs every partition; nothing flows out of a partition
    assert region_successors(partitions, None) == [0, 1]
    assert region_successors(partitions, 0) == [] and region_successors(partitions, 1) == []
    assert not is_loop(ws)
