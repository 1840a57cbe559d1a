"""The call graph: edges, the inliner's order, recursion, external and unknown callees."""

from __future__ import annotations

from tilecraft.analysis import UNKNOWN, CallGraph
from tilecraft.analysis.callgraph import resolve_callee

from .util import func, op_named, parse

MODULE = """
module {
  tt.func private @ext(i32) -> i32
  tt.func private @leaf(%x: i32) -> i32 {
    %r = tt.call @ext(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @mid(%x: i32) -> i32 {
    %a = tt.call @leaf(%x) : (i32) -> i32 loc("mid_leaf1")
    %b = tt.call @leaf(%a) : (i32) -> i32 loc("mid_leaf2")
    tt.return %b : i32
  }
  tt.func public @top(%x: i32) -> i32 {
    %a = tt.call @mid(%x) : (i32) -> i32
    %b = tt.call @leaf(%a) : (i32) -> i32 loc("top_leaf")
    %c = tt.call @even(%b) : (i32) -> i32
    tt.return %c : i32
  }
  tt.func private @even(%x: i32) -> i32 {
    %r = tt.call @odd(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @odd(%x: i32) -> i32 {
    %r = tt.call @even(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @self(%x: i32) -> i32 {
    %r = tt.call @self(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @unused(%x: i32) -> i32 {
    %r = tt.call @leaf(%x) : (i32) -> i32
    tt.return %r : i32
  }
}
"""


def names(funcs) -> list[str]:
    return [f if isinstance(f, str) else f.get_attr("sym_name").value for f in funcs]


def test_nodes_and_edges():
    module = parse(MODULE)
    graph = CallGraph(module)
    assert names(graph.functions) == ["ext", "leaf", "mid", "top", "even", "odd", "self",
                                      "unused"]
    top, mid, leaf = func(module, "top"), func(module, "mid"), func(module, "leaf")
    assert names(graph.callees(top)) == ["mid", "leaf", "even"]
    assert set(names(graph.callers(leaf))) == {"mid", "top", "unused"}
    assert graph.graph.edges[mid, leaf]["calls"] == [op_named(module, "mid_leaf1"),
                                                     op_named(module, "mid_leaf2")]
    assert len(graph.call_sites(leaf)) == 4
    assert graph.is_external(func(module, "ext")) and not graph.is_external(leaf)
    assert resolve_callee(op_named(module, "top_leaf")) is leaf
    assert graph.lookup("odd") is func(module, "odd")


def test_post_order_puts_callees_first():
    module = parse(MODULE)
    graph = CallGraph(module)
    order = names(graph.post_order())
    assert sorted(order) == sorted(names(graph.functions))
    for caller, callee in [("top", "mid"), ("mid", "leaf"), ("leaf", "ext"), ("top", "even"),
                           ("unused", "leaf")]:
        assert order.index(callee) < order.index(caller)
    reverse = names(graph.reverse_post_order())
    assert reverse.index("top") < reverse.index("mid") < reverse.index("leaf")
    sccs = [names(scc) for scc in graph.scc_post_order()]
    assert ["even", "odd"] in sccs and ["self"] in sccs


def test_recursion():
    module = parse(MODULE)
    graph = CallGraph(module)
    assert set(names(graph.recursive_functions())) == {"even", "odd", "self"}
    assert graph.is_recursive(func(module, "self"))
    assert not graph.is_recursive(func(module, "top"))
    cycles = sorted(sorted(names(c)) for c in graph.cycles())
    assert cycles == [["even", "odd"], ["self"]]


def test_roots_and_dead_functions():
    module = parse(MODULE)
    graph = CallGraph(module)
    assert names(graph.roots()) == ["top", "unused"]  # @self calls itself
    assert set(names(graph.dead_functions())) == {"self", "unused"}
    reach = set(names(graph.reachable_from([func(module, "top")])))
    assert reach == {"top", "mid", "leaf", "ext", "even", "odd"}


def test_unknown_callees():
    module = parse("""
    module {
      tt.func @f(%x: i32) -> i32 {
        %r = "tt.call"(%x) <{callee = @missing}> : (i32) -> i32 loc("missing")
        %s = "my.call"(%r) {callee = @g} : (i32) -> i32 loc("generic")
        tt.return %s : i32
      }
      "tt.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
      ^bb0(%y: i32):
        "tt.return"(%y) : (i32) -> ()
      }) : () -> ()
    }""", unregistered=True)
    graph = CallGraph(module)
    f, g = func(module, "f"), func(module, "g")
    assert graph.calls_unknown(f)
    assert graph.call_sites(UNKNOWN) == [op_named(module, "missing")]
    assert graph.callees(f) == [UNKNOWN, g]  # generic call ops are found by their callee
    assert graph.is_external(UNKNOWN)
    assert names(graph.post_order()) == ["g", "f"]


def test_nested_symbol_references():
    module = parse("""
    module {
      module @lib {
        tt.func @h() { tt.return }
      }
      tt.func @f() {
        "tt.call"() <{callee = @lib::@h}> : () -> () loc("call")
        tt.return
      }
    }""", unregistered=True)
    graph = CallGraph(module)
    h = func(module, "h")
    assert resolve_callee(op_named(module, "call")) is h
    assert graph.callees(func(module, "f")) == [h]


def test_module_without_calls():
    """No call: each function is its own component, in program order, and nothing recurses
    (answered without building the networkx graph, which still matches)."""
    module = parse("""
    module {
      tt.func public @a() { tt.return }
      tt.func private @b() { tt.return }
      tt.func private @c(i32)
    }""")
    graph = CallGraph(module)
    a, b, c = (func(module, name) for name in "abc")
    assert graph.post_order() == [a, b, c] and graph.reverse_post_order() == [c, b, a]
    assert graph.recursive_functions() == set() and graph.cycles() == []
    assert graph.callers(b) == [] and graph.callees(a) == [] and graph.call_sites(b) == []
    assert not graph.calls_unknown(a)
    assert graph.roots() == [a, b]
    assert graph.reachable_from([a]) == {a}
    assert graph.dead_functions() == [b, c]
    assert list(graph.graph.nodes) == [a, b, c] and not graph.graph.edges


def test_func_dialect_calls():
    """func.func is a function and func.call a call, as tt.func and tt.call; an indirect call
    goes to the unknown node; `calls_in` lists a function's own calls in order."""
    module = parse("""
    module {
      func.func private @leaf(%x: i32) -> i32 {
        return %x : i32
      }
      func.func @top(%x: i32) -> i32 {
        %a = call @leaf(%x) : (i32) -> i32 loc("direct")
        %f = constant @leaf : (i32) -> i32
        %b = call_indirect %f(%a) : (i32) -> i32 loc("indirect")
        return %b : i32
      }
      tt.func @kernel(%x: i32) -> i32 {
        %a = func.call @top(%x) : (i32) -> i32 loc("from_tt")
        tt.return %a : i32
      }
    }""")
    graph = CallGraph(module)
    leaf, top, kernel = func(module, "leaf"), func(module, "top"), func(module, "kernel")
    assert graph.functions == [leaf, top, kernel]
    assert graph.callees(top) == [leaf, UNKNOWN] and graph.callees(kernel) == [top]
    assert graph.calls_in(top) == [op_named(module, "direct"), op_named(module, "indirect")]
    assert graph.call_sites(UNKNOWN) == [op_named(module, "indirect")]
    assert names(graph.post_order()) == ["leaf", "top", "kernel"]
