#!/usr/bin/env python3
"""Benchmark the foundation: tools/gen on all of defs/, and IR parse/print throughput.

Reports the time of a full generation (parse, evaluate, check and render every .td file in
defs/; the .td parse cache is cleared before each run) and ops per second for parsing and
printing three modules of N ops each: unregistered generic ops (`"test.add"(...)`), registered
arith ops in their custom form, and the same arith ops in generic form.

    python tools/bench/ir_throughput.py [--ops 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def generic_chain(num_ops: int) -> str:
    """`num_ops` unregistered generic ops, each using the two values before it."""
    lines = ['"test.func"() ({', "^bb0(%arg0: i32, %arg1: i32):"]
    previous = ["%arg0", "%arg1"]
    for k in range(num_ops):
        lines.append(f'  %{k} = "test.add"({previous[-1]}, {previous[-2]}) : (i32, i32) -> i32')
        previous.append(f"%{k}")
    lines += [f'  "test.return"(%{num_ops - 1}) : (i32) -> ()', "}) : () -> ()"]
    return "\n".join(lines) + "\n"


def arith_module(num_ops: int) -> str:
    """A module of `num_ops` arith ops on i32 scalars and f32 tensors, in custom form."""
    lines = ["module {", '  %0 = "test.source"() : () -> i32',
             '  %1 = "test.source"() : () -> tensor<128xf32>']
    kinds = ["addi", "muli", "addf", "xori"]
    last_int = 0
    for i in range(2, num_ops + 2):
        kind = kinds[i % 4]
        if kind == "addf":
            lines.append(f"  %{i} = arith.addf %1, %1 : tensor<128xf32>")
        else:
            lines.append(f"  %{i} = arith.{kind} %{last_int}, %0 : i32")
            last_int = i
    lines.append("}")
    return "\n".join(lines) + "\n"


def timed(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from tilecraft.codegen.main import Layout, generate
    from tilecraft.codegen.td import parser as td_parser

    def gen() -> None:
        td_parser._cache.clear()  # measure a cold generation, as a fresh process does
        generate(Layout(ROOT))

    rows = [("tools/gen on all of defs/", "s", timed(gen, args.runs))]

    from tilecraft.ir import parse_module, print_op

    arith = arith_module(args.ops)
    arith_generic = print_op(parse_module(arith, allow_unregistered=True), generic=True)
    for label, text, generic in (
        ("unregistered generic ops", generic_chain(args.ops), True),
        ("arith ops, custom form", arith, False),
        ("arith ops, generic form", arith_generic, True),
    ):
        module = parse_module(text, allow_unregistered=True)
        n = sum(1 for _ in module.walk()) - 1
        parse_times = timed(lambda: parse_module(text, allow_unregistered=True), args.runs)
        print_times = timed(lambda: print_op(module, generic=generic), args.runs)
        rows.append((f"parse {label} ({n:,} ops)", "ops/s", [n / t for t in parse_times]))
        rows.append((f"print {label} ({n:,} ops)", "ops/s", [n / t for t in print_times]))

    width = max(len(r[0]) for r in rows)
    print(f"{'':<{width}}  {'median':>12}  {'best':>12}  unit")
    for name, unit, values in rows:
        best = min(values) if unit == "s" else max(values)
        fmt = "{:>12.3f}" if unit == "s" else "{:>12,.0f}"
        print(f"{name:<{width}}  {fmt.format(statistics.median(values))}  "
              f"{fmt.format(best)}  {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
