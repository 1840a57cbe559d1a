#!/usr/bin/env python3
"""Mutate lit files and check that ``tilecraft-opt`` (run in process, with the passes their RUN
lines name) gives each mutant output that parses again or an error with file:line:col and a
caret (never a traceback or an internal error).

    tools/ir_fuzz.py --cases 10000 --seed 0                  # tests/lit
    tools/ir_fuzz.py --cases 10000 /tmp/triton/test tests/lit --save /tmp/mutants

Prints each problem with the seed that reproduces it (with the same inputs), then a summary;
exits 1 on any problem. ``--save`` writes each problem's mutant and command line to a folder.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

from tilecraft.transforms.fuzz import run, targets

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    """Run the mutation test; returns 1 when any mutant was handled badly."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "tests" / "lit"],
                        help="lit files or folders of them (default: tests/lit)")
    parser.add_argument("--cases", type=int, default=1000, help="how many mutants")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first mutant")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds a mutant may take before it counts as a problem")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="address space limit, so that a runaway allocation is an error")
    parser.add_argument("--save", type=Path, help="folder for the problems' mutants")
    args = parser.parse_args(argv)
    limit = int(args.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    found = targets(args.paths)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    kinds: Counter[str] = Counter()
    for result in run(found, args.cases, args.seed, args.timeout):
        kinds[result.kind] += 1
        if result.kind != "problem":
            continue
        where = f"{result.target.file}:{result.target.line}"
        command = shlex.join(["tilecraft-opt", result.target.file.name, *result.args])
        print(f"== seed {result.seed}: {where}: {command}\n{result.detail}\n", flush=True)
        if args.save:
            mutant = args.save / f"{result.seed}-{result.target.file.name}"
            mutant.write_bytes(result.mutant)
            mutant.with_suffix(".cmd").write_text(
                shlex.join([sys.executable, str(ROOT / "tools" / "opt"), str(mutant), *result.args]) + "\n", encoding="utf-8")
    print(f"{args.cases} mutants of {len(found)} pieces: {kinds['output']} gave output, "
          f"{kinds['diagnostic']} a located error, {kinds['problem']} problems "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if kinds["problem"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
