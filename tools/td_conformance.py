#!/usr/bin/env python3
"""Compare `tools/gen --print-records` with `llvm-tblgen --print-records` over real `.td` files.

    tools/td_conformance.py                       # the MLIR versions installed in /usr/lib/llvm-N
    TD_CONFORMANCE_ROOTS=/tmp/m15/usr/lib/llvm-15:/tmp/m19/usr/lib/llvm-19 \\
        tools/td_conformance.py --triton /tmp/triton/include -v

Prints, per set, how many of the files that `llvm-tblgen` accepts print the same records; with
-v, the first lines of each difference or error. Exits 1 when any file differs.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tilecraft.codegen.td.conformance import compare_set, discover_sets, triton_set


def main(argv: list[str]) -> int:
    """Run the comparison; returns 1 when a file differs, 0 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--triton", metavar="INCLUDE",
                        help="Triton's include/ folder, compared with the newest MLIR found")
    parser.add_argument("--only", metavar="NAME", action="append", default=[],
                        help="compare only the sets with this name (such as 'MLIR 15')")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show each difference or error")
    args = parser.parse_args(argv)
    sets = discover_sets()
    if args.triton and sets:
        sets.append(triton_set(args.triton, sets[-1]))
    if args.only:
        sets = [s for s in sets if s.name in args.only]
    if not sets:
        print("no MLIR installation found (see TD_CONFORMANCE_ROOTS in --help)", file=sys.stderr)
        return 0
    failed = False
    for file_set in sets:
        outcomes = compare_set(file_set)
        counts = Counter(outcome.status for outcome in outcomes)
        accepted = len(outcomes) - counts["skipped"]
        for outcome in outcomes:
            if args.verbose and outcome.status in ("differ", "error"):
                print(f"== {outcome.file}: {outcome.status}\n{outcome.detail}")
        print(f"{file_set.name}: {counts['match']}/{accepted} files match "
              f"({counts['differ']} differ, {counts['error']} errors; "
              f"{counts['skipped']} rejected by llvm-tblgen)")
        failed = failed or counts["match"] != accepted
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
