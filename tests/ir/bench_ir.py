"""Throughput of the IR parser and printer (run: ``python -m tests.ir.bench_ir`` from the repo
root, or ``python tests/ir/bench_ir.py``). Not a test: timings belong in benchmarks.

Parses and prints a module of N generic ops, ``%k = "test.add"(%i, %j) : (i32, i32) -> i32``
chained in one block, and reports the best and median ops/second over several runs.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from tilecraft.ir import parse_module, print_op


def chain_text(count: int) -> str:
    lines = ['"test.func"() ({', "^bb0(%arg0: i32, %arg1: i32):"]
    previous = ["%arg0", "%arg1"]
    for k in range(count):
        lines.append(f'  %{k} = "test.add"({previous[-1]}, {previous[-2]}) : (i32, i32) -> i32')
        previous.append(f"%{k}")
    lines += [f'  "test.return"(%{count - 1}) : (i32) -> ()', "}) : () -> ()"]
    return "\n".join(lines)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--ops", type=int, default=100_000)
    args.add_argument("--runs", type=int, default=5)
    options = args.parse_args()
    text = chain_text(options.ops)
    parse_times, print_times = [], []
    for _ in range(options.runs):
        start = time.perf_counter()
        module = parse_module(text, allow_unregistered=True)
        parse_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        printed = print_op(module, generic=True)
        print_times.append(time.perf_counter() - start)
        assert printed.count("\n") == options.ops + 6
        del module
        gc.collect()
    for what, times in (("parse", parse_times), ("print", print_times)):
        print(f"{what}: best {options.ops / min(times):,.0f} ops/s, "
              f"median {options.ops / statistics.median(times):,.0f} ops/s "
              f"({options.ops:,} generic ops, {options.runs} runs)")


if __name__ == "__main__":
    main()
