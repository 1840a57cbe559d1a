"""Command line of the `.td` front end:
``tools/gen --print-records FILE.td [-I DIR] [--tblgen-version N]``."""

from __future__ import annotations

import argparse
import sys

from .errors import TdError
from .printer import print_records
from .records import load_records
from .terms import LATEST_TBLGEN


def print_records_main(argv: list[str]) -> int:
    """Load ``FILE.td`` and write its records to stdout in TableGen's ``--print-records`` format.

    ``argv`` holds the arguments after the program name (``--print-records`` may be among them).
    Errors are printed to stderr as rendered diagnostics; returns the exit status.
    """
    parser = argparse.ArgumentParser(prog="gen", description="Print the records of a .td file.")
    parser.add_argument("--print-records", action="store_true",
                        help="print all classes and defs (the default action)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="directory to search for included files (repeatable)")
    parser.add_argument("--tblgen-version", type=int, default=LATEST_TBLGEN, metavar="N",
                        help="print in the format of llvm-tblgen N (15 to "
                             f"{LATEST_TBLGEN}; default {LATEST_TBLGEN})")
    parser.add_argument("file", metavar="FILE.td")
    args = parser.parse_args(argv)
    try:
        records = load_records(args.file, args.include_dirs)
    except TdError as error:
        print(error, file=sys.stderr)
        return 1
    sys.stdout.write(print_records(records, args.tblgen_version))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m tilecraft.codegen.td.cli --print-records FILE.td [-I DIR]``."""
    return print_records_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
