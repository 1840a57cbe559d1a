"""`tools/gen` (`tilecraft-gen`): regenerate generated/ and docs/dialects/ from defs/.

Every `.td` file directly in `defs/` is a main file (the library in `defs/base/` is only
included). The records of all main files are checked and rendered; only files whose content
changed are written, each atomically, and nothing is written when any error is found.
`--check` writes nothing and exits 1 listing the stale files.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic
from .hooks import check_hooks
from .model import Model, build_model
from .render import describe, render_all
from .td import Record, load_records


@dataclass
class Layout:
    """Where tools/gen reads and writes, relative to the project root."""

    root: Path

    @property
    def defs(self) -> Path:
        return self.root / "defs"

    @property
    def generated(self) -> Path:
        return self.root / "generated"

    @property
    def docs(self) -> Path:
        return self.root / "docs" / "dialects"


class MergedRecords:
    """The records of several main files; a def included by two of them is the same def."""

    def __init__(self) -> None:
        self.defs: dict[str, Record] = {}
        self.classes: dict[str, Record] = {}

    def add(self, keeper) -> None:
        for table, source in ((self.defs, keeper.defs), (self.classes, keeper.classes)):
            for name, rec in source.items():
                if rec.is_anonymous:
                    name = f"{name}@{rec.loc}"
                old = table.get(name)
                if old is not None and old.loc != rec.loc:
                    raise Diagnostic(f"'{name}' is defined twice", rec.loc,
                                     notes=[(old.loc, "first defined here")])
                table.setdefault(name, rec)

    def all_derived(self, class_name: str) -> list[Record]:
        return [rec for rec in self.defs.values() if rec.isa(class_name)]


def main_files(defs: Path) -> list[Path]:
    return sorted(p for p in defs.glob("*.td") if p.is_file())


def generate(layout: Layout) -> tuple[Model, dict[Path, str]]:
    """Check the defs and render every output file (path -> content); Diagnostic if bad."""
    merged = MergedRecords()
    files = main_files(layout.defs)
    for path in files:
        merged.add(load_records(path, include_dirs=[layout.defs]))
    model = build_model(merged)
    return model, render_all(model, layout.root, layout.generated, layout.docs)


def _write_atomic(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(content)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def stale_files(outputs: dict[Path, str], layout: Layout) -> tuple[list[Path], list[Path]]:
    """Files to write (missing or different) and generated files no longer produced."""
    changed = [p for p, text in outputs.items()
               if not p.exists() or p.read_text(encoding="utf-8") != text]
    extra = []
    for folder, pattern in ((layout.generated, "*.py"), (layout.docs, "*.md")):
        if folder.exists():
            extra += [p for p in folder.rglob(pattern)
                      if p not in outputs and "__pycache__" not in p.parts]
    return sorted(changed), sorted(extra)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilecraft-gen",
        description="Regenerate generated/ and docs/dialects/ from the .td files in defs/.")
    parser.add_argument("--root", type=Path, default=None,
                        help="project root holding defs/, generated/ and docs/ (default: the "
                             "current folder if it has defs/, else the source checkout)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 and list the files that are out of date")
    parser.add_argument("--print-records", metavar="FILE.td",
                        help="print the evaluated records of FILE.td like llvm-tblgen")
    parser.add_argument("-I", dest="include", action="append", default=[],
                        help="include directory for --print-records")
    parser.add_argument("--tblgen-version", metavar="N",
                        help="--print-records in the format of llvm-tblgen N (default: the "
                             "newest known)")
    parser.add_argument("--list", action="store_true",
                        help="print the dialects, ops, attributes, types and passes in defs/")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    return parser


def default_root() -> Path:
    cwd = Path.cwd()
    if (cwd / "defs").is_dir():
        return cwd
    return Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None, root: Path | None = None) -> int:
    """Run tools/gen; returns the exit code (0 ok, 1 bad input or stale files)."""
    try:
        return _run(_parser().parse_args(argv), root)
    except BrokenPipeError:  # `tools/gen --list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace, root: Path | None) -> int:
    if args.print_records:
        from .td.cli import print_records_main

        version = [f"--tblgen-version={args.tblgen_version}"] if args.tblgen_version else []
        return print_records_main([args.print_records] + [f"-I{d}" for d in args.include]
                                  + version)
    layout = Layout((args.root or root or default_root()).resolve())
    if not layout.defs.is_dir():
        print(f"tilecraft-gen: error: no defs/ folder in {layout.root}", file=sys.stderr)
        return 1
    try:
        model, outputs = generate(layout)
        if not args.list:
            check_hooks(model, outputs, layout.generated, layout.root)
    except Diagnostic as err:
        print(err, file=sys.stderr)
        return 1
    if args.list:
        print(describe(model))
        return 0
    changed, extra = stale_files(outputs, layout)
    if args.check:
        if changed or extra:
            print("generated files are stale; run tools/gen:", file=sys.stderr)
            for path in changed:
                print(f"  {path.relative_to(layout.root)} (out of date)", file=sys.stderr)
            for path in extra:
                print(f"  {path.relative_to(layout.root)} (no longer generated)", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"generated files are up to date ({len(outputs)} files)")
        return 0
    for path in changed:
        _write_atomic(path, outputs[path])
    for path in extra:
        path.unlink()
    if not args.quiet:
        print(f"tilecraft-gen: {len(changed)} written, {len(extra)} removed, "
              f"{len(outputs) - len(changed)} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
