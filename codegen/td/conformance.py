"""Compares ``--print-records`` of the `.td` front end with ``llvm-tblgen --print-records``.

A `FileSet` names an ``llvm-tblgen`` binary, the `.td` files to try and the include directories
both tools get; each file's own directory comes first, as MLIR's and Triton's builds pass it
(``mlir_tablegen`` adds ``-I`` of the current source folder, and files such as
``ArmSMEOps.td`` include their siblings by bare name). Files that ``llvm-tblgen`` rejects are left out (they are not valid TableGen for
that version); every other file must print the same records, byte for byte. `compare_set`
returns one `Outcome` per file; `discover_sets` finds the MLIR versions installed on this machine
(Debian's ``/usr/lib/llvm-N`` layout, or trees extracted with ``dpkg -x`` named in
``$TD_CONFORMANCE_ROOTS``).
"""

from __future__ import annotations

import difflib
import glob
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import TdError
from .printer import print_records
from .records import load_records


@dataclass(frozen=True, slots=True)
class FileSet:
    """`.td` files compared against one ``llvm-tblgen`` of major version ``version``:
    ``files`` in order, with ``include_dirs`` given to both tools."""

    name: str
    tblgen: str
    version: int
    files: tuple[str, ...]
    include_dirs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The comparison of one file: ``status`` is ``"match"``, ``"differ"`` (``detail`` holds the
    first lines of a unified diff), ``"error"`` (our error message) or ``"skipped"`` (rejected by
    ``llvm-tblgen``)."""

    file: str
    status: str
    detail: str = ""


def run_tblgen(tblgen: str, file: str, include_dirs: tuple[str, ...],
               timeout: float = 120.0) -> str | None:
    """``llvm-tblgen --print-records`` of ``file``, or None when it rejects the file."""
    command = [tblgen, "--print-records", file] + [f"-I{d}" for d in include_dirs]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                            check=False)
    return result.stdout if result.returncode == 0 else None


def ours(file: str, include_dirs: tuple[str, ...], version: int) -> str:
    """Our ``--print-records`` of ``file`` in the format of ``llvm-tblgen`` ``version``; raises
    `TdError` on an error in the input."""
    return print_records(load_records(file, list(include_dirs)), version)


def compare_file(file_set: FileSet, file: str, context_lines: int = 12) -> Outcome:
    """Compare one file of ``file_set``, with its own directory first among the include
    directories."""
    include_dirs = (os.path.dirname(os.path.abspath(file)), *file_set.include_dirs)
    expected = run_tblgen(file_set.tblgen, file, include_dirs)
    if expected is None:
        return Outcome(file, "skipped")
    try:
        actual = ours(file, include_dirs, file_set.version)
    except TdError as error:
        return Outcome(file, "error", str(error).splitlines()[0])
    if actual == expected:
        return Outcome(file, "match")
    diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "llvm-tblgen",
                                "tilecraft", n=1, lineterm="")
    return Outcome(file, "differ", "\n".join(line for _, line in zip(range(context_lines),
                                                                       diff)))


def compare_set(file_set: FileSet) -> list[Outcome]:
    """Compare every file of ``file_set``, in order."""
    return [compare_file(file_set, file) for file in file_set.files]


def _td_files(root: str) -> tuple[str, ...]:
    return tuple(sorted(glob.glob(os.path.join(root, "**", "*.td"), recursive=True)))


def mlir_set(name: str, tblgen: str, version: int, prefix: str) -> FileSet | None:
    """The `.td` files of the MLIR under ``prefix`` (which holds ``include/mlir``), or None when
    there is none."""
    include = os.path.join(prefix, "include")
    if not os.path.isdir(os.path.join(include, "mlir")) or not os.access(tblgen, os.X_OK):
        return None
    return FileSet(name, tblgen, version, _td_files(os.path.join(include, "mlir")), (include,))


def discover_sets() -> list[FileSet]:
    """The MLIR versions on this machine, each with its own ``llvm-tblgen``.

    Looks at ``/usr/lib/llvm-N`` and at each ``PREFIX`` of ``$TD_CONFORMANCE_ROOTS`` (a
    ``:``-separated list of ``llvm-N`` folders, such as ``/tmp/mlir15/usr/lib/llvm-15`` from
    ``dpkg -x``); a prefix without ``bin/llvm-tblgen`` of its own uses the installed
    ``/usr/lib/llvm-N/bin/llvm-tblgen`` or ``llvm-tblgen-N`` on the ``PATH``.
    """
    prefixes = sorted(glob.glob("/usr/lib/llvm-*"))
    prefixes += [p for p in os.environ.get("TD_CONFORMANCE_ROOTS", "").split(":") if p]
    sets: dict[str, FileSet] = {}
    for prefix in prefixes:
        version = Path(prefix).name.removeprefix("llvm-")
        if not version.isdigit():
            continue
        candidates = [os.path.join(prefix, "bin", "llvm-tblgen"),
                      f"/usr/lib/llvm-{version}/bin/llvm-tblgen",
                      *(os.path.join(d, f"llvm-tblgen-{version}")
                        for d in os.environ.get("PATH", "").split(":") if d)]
        tblgen = next((c for c in candidates if os.access(c, os.X_OK)), None)
        found = (mlir_set(f"MLIR {version}", tblgen, int(version), prefix) if tblgen
                 else None)
        if found is not None:
            sets.setdefault(found.name, found)
    return sorted(sets.values(), key=lambda file_set: file_set.version)


def triton_set(triton_include: str, mlir: FileSet) -> FileSet:
    """Triton's dialect files (``include/triton/**/*.td``), read with ``mlir``'s headers."""
    return FileSet("Triton", mlir.tblgen, mlir.version,
                   _td_files(os.path.join(triton_include, "triton")),
                   (triton_include, *mlir.include_dirs))
