#!/usr/bin/env python3
"""Benchmark: tools/gen on all of defs/, and IR parse/print throughput on a large module.

Prints a table: the time of a full generation (fresh process state: parse, evaluate, check and
render every .td file in defs/), and ops per second for parsing and printing a module of
N arith ops (custom and generic form). Run: python tools/bench/ir_throughput.py [--ops N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_module(num_ops: int) -> str:
    """A module whose body is a chain of `num_ops` arith ops on i32 and tensor values."""
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


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from tilecraft.codegen.main import Layout, generate

    gen_times = []
    for _ in range(args.repeat):
        from tilecraft.codegen.td import parser as td_parser  # noqa: F401 - warm the grammar

        start = time.perf_counter()
        generate(Layout(ROOT))
        gen_times.append(time.perf_counter() - start)

    from tilecraft.ir import parse_module
    from tilecraft.ir.printer import print_op as print_operation

    text = make_module(args.ops)
    module = parse_module(text, allow_unregistered=True)
    parse_s = best_of(lambda: parse_module(text, allow_unregistered=True), args.repeat)
    print_s = best_of(lambda: print_operation(module), args.repeat)
    generic = print_operation(module, generic=True)
    gparse_s = best_of(lambda: parse_module(generic, allow_unregistered=True), args.repeat)
    gprint_s = best_of(lambda: print_operation(module, generic=True), args.repeat)
    n = args.ops + 2
    rows = [
        ("tools/gen, all of defs/ (s)", f"{statistics.median(gen_times):.3f}"),
        (f"parse custom form, {n} ops (ops/s)", f"{n / parse_s:,.0f}"),
        (f"print custom form, {n} ops (ops/s)", f"{n / print_s:,.0f}"),
        (f"parse generic form, {n} ops (ops/s)", f"{n / gparse_s:,.0f}"),
        (f"print generic form, {n} ops (ops/s)", f"{n / gprint_s:,.0f}"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
