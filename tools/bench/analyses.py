#!/usr/bin/env python3
"""Scaling of the analyses: the call graph, dominance and liveness on modules of 1k to 100k ops.

Two shapes of generated IR (custom form, parsed once per size, not timed):

- ``functions``: ``tt.func``s of about 100 ops each (one in ten public), every one calling the
  previous one and one further back (the call graph has edges, a post order and the functions
  reachable from the public ones to compute), with an ``scf.for`` loop and a diamond of ``cf``
  blocks in each (dominance trees, liveness across blocks and loop-carried values);
- ``one-function``: a single function of the same total size: a long entry block, then a chain
  of diamonds of ``cf`` blocks, every op using a value defined at the very top (same-block
  dominance queries across the whole entry block, a live range across every block).

Timed, per module: ``CallGraph(module)`` with its post order, recursive functions and dead
functions; ``DominanceInfo(module)`` asked whether each operand's definition dominates its user
(every use of the module, as a verifier asks); ``Liveness`` of each function with the live
range of every value. Each time is printed with the time per op in microseconds: a constant
per-op time from 1k to 100k ops is linear scaling (the machine's noise aside: take the best
of ``--runs``).

    python tools/bench/analyses.py [--sizes 1000,10000,100000] [--runs 1]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _function(index: int, body_ops: int) -> list[str]:
    """A function of about ``body_ops`` ops calling the functions ``index - 1`` and
    ``index // 2`` (when they exist)."""
    visibility = "public" if index % 10 == 0 else "private"
    lines = [f"  tt.func {visibility} @f{index}(%a: i32, %b: i32) -> i32 {{"]
    lines.append("    %c0 = arith.constant 0 : i32")
    lines.append("    %c1 = arith.constant 1 : i32")
    last = "%a"
    chunk = max((body_ops - 20) // 4, 1)
    for k in range(chunk):
        lines.append(f"    %e{k} = arith.addi {last}, %b : i32")
        last = f"%e{k}"
    lines.append(f"    %cond = arith.cmpi slt, {last}, %b : i32")
    lines.append(f"    cf.cond_br %cond, ^bb1({last} : i32), ^bb2(%a : i32)")
    for block, base in (("bb1", "x"), ("bb2", "y")):
        lines.append(f"  ^{block}(%{base}: i32):")
        prev = f"%{base}"
        for k in range(chunk):
            lines.append(f"    %{base}{k} = arith.muli {prev}, %a : i32")
            prev = f"%{base}{k}"
        lines.append(f"    cf.br ^bb3({prev} : i32)")
    lines.append("  ^bb3(%m: i32):")
    lines.append("    %r = scf.for %i = %c0 to %b step %c1 iter_args(%acc = %m) -> (i32) : i32 {")
    prev = "%acc"
    for k in range(chunk):
        lines.append(f"      %l{k} = arith.xori {prev}, %i : i32")
        prev = f"%l{k}"
    lines.append(f"      scf.yield {prev} : i32")
    lines.append("    }")
    result = "%r"
    for n, callee in enumerate(sorted({index - 1, index // 2} - {index}, reverse=True)):
        if callee < 0:
            continue
        lines.append(f"    %call{n} = tt.call @f{callee}({result}, %a) : (i32, i32) -> i32")
        result = f"%call{n}"
    lines.append(f"    tt.return {result} : i32")
    lines.append("  }")
    return lines


def functions_module(num_ops: int) -> str:
    """Functions of about 100 ops each, ``num_ops`` in all, and a public entry."""
    lines = ["module {"]
    count = max(num_ops // 100, 1)
    for index in range(count):
        lines += _function(index, 100)
    lines.append("  tt.func public @entry(%a: i32) -> i32 {")
    lines.append(f"    %r = tt.call @f{count - 1}(%a, %a) : (i32, i32) -> i32")
    lines.append("    tt.return %r : i32")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def one_function_module(num_ops: int) -> str:
    """One function of ``num_ops`` ops: an entry block of half of them, then diamonds of
    blocks of 40 ops each; every op uses the function's first value (defined once at the top
    of the entry block, used everywhere)."""
    block_ops = 40
    diamonds = max(num_ops // (6 * block_ops), 1)
    lines = ["module {", "  tt.func public @big(%a: i32, %b: i32) -> i32 {",
             "    %first = arith.addi %a, %b : i32"]
    prev = "%a"
    for k in range(num_ops // 2):
        lines.append(f"    %s{k} = arith.addi {prev}, %first : i32")
        prev = f"%s{k}"
    lines.append(f"    cf.br ^d0({prev} : i32)")
    for d in range(diamonds):
        lines.append(f"  ^d{d}(%v{d}: i32):")
        prev = f"%v{d}"
        for k in range(block_ops):
            lines.append(f"    %h{d}_{k} = arith.addi {prev}, %first : i32")
            prev = f"%h{d}_{k}"
        lines.append(f"    %c{d} = arith.cmpi slt, {prev}, %b : i32")
        lines.append(f"    cf.cond_br %c{d}, ^t{d}, ^e{d}")
        for side in ("t", "e"):
            lines.append(f"  ^{side}{d}:")
            inner = prev
            for k in range(block_ops):
                lines.append(f"    %{side}{d}_{k} = arith.muli {inner}, %first : i32")
                inner = f"%{side}{d}_{k}"
            lines.append(f"    cf.br ^d{d + 1}({inner} : i32)")
    lines.append(f"  ^d{diamonds}(%out: i32):")
    lines.append("    %last = arith.addi %out, %first : i32")
    lines.append("    tt.return %last : i32")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def call_graph(module) -> None:
    from tilecraft.analysis import CallGraph

    graph = CallGraph(module)
    graph.post_order()  # the inliner's order
    graph.recursive_functions()
    graph.dead_functions()  # what symbol-dce removes: reachable from every public function


def dominance(module) -> None:
    from tilecraft.analysis import DominanceInfo

    info = DominanceInfo(module)
    for op in module.walk():
        for value in op.operands:
            if not info.dominates(value, op):
                raise AssertionError(f"{value} does not dominate its use in {op.name}")


def liveness(module) -> None:
    from tilecraft.analysis.liveness import Liveness

    for func in module.regions[0].blocks[0]:
        live = Liveness(func)
        for value in live.values():
            live.live_range(value)


ANALYSES: dict[str, Callable] = {
    "call graph": call_graph, "dominance": dominance, "liveness": liveness,
}
SHAPES: dict[str, Callable[[int], str]] = {
    "functions": functions_module, "one-function": one_function_module,
}


def best_time(fn: Callable[[], None], runs: int) -> float:
    """The best of ``runs`` times of ``fn``, the garbage collector off while it runs (as
    timeit does: its passes over a heap of 100k ops would be timed with the analysis)."""
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="approximate module sizes in ops, comma-separated")
    parser.add_argument("--runs", type=int, default=1, help="runs per measurement (best kept)")
    args = parser.parse_args()

    from tilecraft.ir import parse_module

    sizes = [int(s) for s in args.sizes.split(",")]
    warm = parse_module(functions_module(200))
    for analysis in ANALYSES.values():  # imports (networkx) and first-use caches, not timed
        analysis(warm)
    print(f"{'shape':<13} {'analysis':<11} {'ops':>8} {'seconds':>9} {'us/op':>7}")
    for shape, build in SHAPES.items():
        for size in sizes:
            module = parse_module(build(size))
            module.verify()
            ops = sum(1 for _ in module.walk()) - 1
            for name, analysis in ANALYSES.items():
                seconds = best_time(lambda: analysis(module), args.runs)
                print(f"{shape:<13} {name:<11} {ops:>8,} {seconds:>9.3f} "
                      f"{seconds / ops * 1e6:>7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
