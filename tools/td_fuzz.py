#!/usr/bin/env python3
"""Mutate the `.td` files of defs/ and check that the generator gives each mutant valid output or
an error with file:line:col and a caret (never a traceback or an internal error).

    tools/td_fuzz.py --cases 1000 --seed 0            # every main file of defs/
    tools/td_fuzz.py --file math.td --cases 10000

Prints each problem with the seed that reproduces it, then a summary; exits 1 on any problem.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tilecraft.codegen.fuzz import run

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    """Run the mutation test; returns 1 when any mutant was handled badly."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--defs", type=Path, default=ROOT / "defs")
    parser.add_argument("--file", action="append", default=[],
                        help="main file of defs/ to mutate (repeatable; default: all)")
    parser.add_argument("--cases", type=int, default=200, help="mutants per file")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first mutant")
    args = parser.parse_args(argv)
    files = args.file or sorted(p.name for p in args.defs.glob("*.td"))
    start = time.monotonic()
    problems = 0
    for problem in run(args.defs, files, args.cases, args.seed):
        problems += 1
        print(f"== {problem.file} seed {problem.seed}\n{problem.detail}\n")
    print(f"{len(files) * args.cases} mutants of {len(files)} files, {problems} problems "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
