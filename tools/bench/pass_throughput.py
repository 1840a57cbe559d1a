#!/usr/bin/env python3
"""Benchmark the canonicalize+cse pipeline: ops per second, and the ratio to xDSL.

Inputs:

- a generated function of N arith ops (100,000 by default) in generic form: chunks of
  ``addi x, 0`` / ``muli x, 1`` (canonicalization patterns), ``addi 3, 3`` (folding), the
  same ``addi a, b`` in every chunk (CSE), repeated constants (uniquing), chained so that
  everything stays live; the function is ``"tt.func"`` for tilecraft and ``"func.func"`` for
  xDSL, the body being the same text;
- the matmul kernel of ``tests/dialects/samples/triton_matmul.mlir`` (tilecraft only: xDSL
  has no tt dialect), run many times.

Timings: the pass pipeline alone, in this process (the module parsed beforehand, a fresh copy
per run), for tilecraft (``PassManager`` without verification between passes, as xDSL's
pipeline runs; one verification of the module is timed apart) and, when ``xdsl`` is
importable, for xDSL (its ``xdsl-opt`` driver's pipeline on its own parse of the same text). Also end to end: the two
command-line tools (``tools/opt -canonicalize -cse`` and ``xdsl-opt -p canonicalize,cse``) as
subprocesses on the same files (parse, passes, print and start-up). xDSL is not a dependency
of tilecraft: ``pip install xdsl`` to compare.

    python tools/bench/pass_throughput.py [--ops 100000] [--runs 3] [--no-subprocess]
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MATMUL = ROOT / "tests" / "dialects" / "samples" / "triton_matmul.mlir"
PIPELINE = "canonicalize,cse"
OPS_PER_CHUNK = 11


def arith_body(num_ops: int) -> tuple[list[str], str]:
    """The body lines (about ``num_ops`` arith ops) and the name of the value returned."""
    lines = []
    acc = "%a"
    n = 0
    chunk = 0
    while n + OPS_PER_CHUNK <= max(num_ops, OPS_PER_CHUNK):
        k = chunk
        lines += [
            f'  %c0_{k} = "arith.constant"() <{{value = 0 : i32}}> : () -> i32',
            f'  %c1_{k} = "arith.constant"() <{{value = 1 : i32}}> : () -> i32',
            f'  %c3_{k} = "arith.constant"() <{{value = 3 : i32}}> : () -> i32',
            f'  %t1_{k} = "arith.addi"({acc}, %c0_{k}) : (i32, i32) -> i32',
            f'  %t2_{k} = "arith.muli"(%t1_{k}, %c1_{k}) : (i32, i32) -> i32',
            f'  %t3_{k} = "arith.addi"(%c3_{k}, %c3_{k}) : (i32, i32) -> i32',
            f'  %t4_{k} = "arith.addi"(%a, %b) : (i32, i32) -> i32',
            f'  %t5_{k} = "arith.addi"(%a, %b) : (i32, i32) -> i32',
            f'  %t6_{k} = "arith.muli"(%t4_{k}, %t5_{k}) : (i32, i32) -> i32',
            f'  %t7_{k} = "arith.xori"(%t2_{k}, %t6_{k}) : (i32, i32) -> i32',
            f'  %t8_{k} = "arith.addi"(%t7_{k}, %t3_{k}) : (i32, i32) -> i32',
        ]
        acc = f"%t8_{k}"
        n += OPS_PER_CHUNK
        chunk += 1
    return lines, acc


def arith_function(num_ops: int, func: str, ret: str) -> str:
    """The generated module in generic form, the function op named ``func``."""
    body, result = arith_body(num_ops)
    return "\n".join([
        '"builtin.module"() ({',
        f'  "{func}"() <{{function_type = (i32, i32) -> i32, sym_name = "bench"}}> ({{',
        "  ^bb0(%a: i32, %b: i32):",
        *body,
        f'    "{ret}"({result}) : (i32) -> ()',
        "  }) : () -> ()",
        "}) : () -> ()",
    ]) + "\n"


def count_ops(module) -> int:
    return sum(1 for _ in module.walk()) - 1


def timed(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


# -- tilecraft


def tilecraft_pass_times(text: str, runs: int, repeat: int = 1) -> tuple[list[float], int, int]:
    """Seconds of ``repeat`` runs of the pipeline on fresh parses (per measurement), the op
    count before and after."""
    from tilecraft.ir import parse_module
    from tilecraft.transforms import PassManager

    pm = PassManager.parse(PIPELINE, verify_each=False)  # xDSL's pipeline does not verify
    times, before, after = [], 0, 0
    for _ in range(runs):
        modules = [parse_module(text) for _ in range(repeat)]
        before = count_ops(modules[0])
        gc.collect()
        start = time.perf_counter()
        for module in modules:
            pm.run(module)
        times.append(time.perf_counter() - start)
        after = count_ops(modules[0])
    return times, before, after


# -- xDSL


def xdsl_available() -> bool:
    try:
        import xdsl  # noqa: F401
    except ImportError:
        return False
    return True


def xdsl_pass_times(text: str, runs: int) -> tuple[list[float], int, int]:
    from xdsl.parser import Parser
    from xdsl.xdsl_opt_main import xDSLOptMain

    opt = xDSLOptMain(args=["-p", PIPELINE])
    times, before, after = [], 0, 0
    for _ in range(runs):
        module = Parser(opt.ctx, text).parse_module()
        before = sum(1 for _ in module.walk()) - 1
        gc.collect()
        start = time.perf_counter()
        opt.apply_passes(module)
        times.append(time.perf_counter() - start)
        after = sum(1 for _ in module.walk()) - 1
    return times, before, after


# -- subprocesses


def wall(command: list[str], runs: int) -> list[float] | None:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(f"  {' '.join(command[:3])} ... failed: ...{done.stderr.strip()[-400:]}")
            return None
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--matmul-repeat", type=int, default=200,
                        help="runs of the pipeline on the matmul kernel per measurement")
    parser.add_argument("--no-subprocess", action="store_true",
                        help="skip the end-to-end command-line timings")
    args = parser.parse_args()

    from tilecraft.transforms.pass_registry import PassRegistryError, pass_class

    for name in PIPELINE.split(","):
        try:
            pass_class(name)
        except PassRegistryError as err:
            print(f"cannot run {PIPELINE}: {err.message}")
            return 1

    tt_text = arith_function(args.ops, "tt.func", "tt.return")
    func_text = arith_function(args.ops, "func.func", "func.return")
    rows: list[tuple[str, list[float], int]] = []

    times, before, after = tilecraft_pass_times(tt_text, args.runs)
    print(f"generated module: {before:,} ops, {after:,} after {PIPELINE} (tilecraft)")
    from tilecraft.ir import parse_module

    module = parse_module(tt_text)
    verify = min(timed(module.verify, 1))
    print(f"tilecraft: verifying the generated module takes {verify:.3f} s")
    rows.append((f"tilecraft {PIPELINE}, generated ({before:,} ops)", times, before))
    tile_best = min(times)

    matmul = MATMUL.read_text()
    times, m_before, m_after = tilecraft_pass_times(matmul, args.runs, args.matmul_repeat)
    print(f"matmul kernel: {m_before} ops, {m_after} after {PIPELINE} (tilecraft)")
    rows.append((f"tilecraft {PIPELINE}, matmul kernel ({m_before} ops x "
                 f"{args.matmul_repeat})", times, m_before * args.matmul_repeat))

    xdsl_best = None
    if xdsl_available():
        times, x_before, x_after = xdsl_pass_times(func_text, args.runs)
        print(f"generated module: {x_before:,} ops, {x_after:,} after {PIPELINE} (xDSL)")
        rows.append((f"xDSL {PIPELINE}, generated ({x_before:,} ops)", times, x_before))
        xdsl_best = min(times)
    else:
        print("xdsl is not installed (pip install xdsl): no comparison")

    width = max(len(r[0]) for r in rows)
    print(f"\n{'passes only':<{width}}  {'median s':>9}  {'best s':>9}  {'ops/s (best)':>13}")
    for name, values, ops in rows:
        print(f"{name:<{width}}  {statistics.median(values):>9.3f}  {min(values):>9.3f}  "
              f"{ops / min(values):>13,.0f}")
    if xdsl_best is not None:
        print(f"\ntilecraft / xDSL time, passes only: {tile_best / xdsl_best:.2f} "
              f"(tilecraft is {xdsl_best / tile_best:.2f}x the speed of xDSL)")

    if args.no_subprocess:
        return 0
    xdsl_opt = shutil.which("xdsl-opt")
    with tempfile.TemporaryDirectory() as tmp:
        tt_file, func_file = Path(tmp, "tt.mlir"), Path(tmp, "func.mlir")
        tt_file.write_text(tt_text)
        func_file.write_text(func_text)
        env_python = [sys.executable, str(ROOT / "tools" / "opt")]
        ours = wall(env_python + [str(tt_file), "-canonicalize", "-cse", "-o", os.devnull],
                    args.runs)
        theirs = (wall([xdsl_opt, "-p", PIPELINE, str(func_file), "-o", os.devnull], args.runs)
                  if xdsl_opt else None)
    print("\nend to end (parse, passes, print, start-up), best of "
          f"{args.runs}:")
    if ours:
        print(f"  tools/opt -canonicalize -cse     {min(ours):8.3f} s")
    if theirs:
        print(f"  xdsl-opt -p {PIPELINE}     {min(theirs):8.3f} s")
    if ours and theirs:
        print(f"  tilecraft / xDSL time, end to end: {min(ours) / min(theirs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
