"""``--print-records`` prints what ``llvm-tblgen --print-records`` prints.

The corpus in ``data/conformance`` holds one small `.td` file per language corner found by
comparing with real MLIR and Triton files, with ``llvm-tblgen``'s output of LLVM 15 and 19 beside
it (``NAME.15.txt``, ``NAME.19.txt``; cases using what LLVM 15 lacks have no ``.15.txt``).
The comparison over the `.td` files of the MLIR versions
installed on this machine is slower and skips where none is (CI has none).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tilecraft.codegen.td import load_records, print_records
from tilecraft.codegen.td.conformance import FileSet, compare_file, compare_set, discover_sets

CORPUS = Path(__file__).parent / "data" / "conformance"
EXPECTED = sorted(CORPUS.glob("*.*.txt"))


@pytest.mark.parametrize("expected", EXPECTED, ids=[path.stem for path in EXPECTED])
def test_corpus_prints_like_llvm_tblgen(expected: Path) -> None:
    name, version = expected.stem.rsplit(".", 1)
    records = load_records(CORPUS / f"{name}.td", [str(CORPUS)])
    assert print_records(records, int(version)) == expected.read_text(encoding="utf-8")


def test_corpus_has_an_expected_output_for_each_case() -> None:
    """Each case has LLVM 19's output, and LLVM 15's unless it uses what 15 lacks (such as
    ``!range``)."""
    cases = sorted(CORPUS.glob("*.td"))
    assert cases
    for case in cases:
        assert (CORPUS / f"{case.stem}.19.txt").is_file()


@pytest.mark.parametrize("file_set", discover_sets() or [None],
                         ids=lambda s: s.name.replace(" ", "") if s else "none")
def test_installed_mlir_prints_like_llvm_tblgen(file_set: FileSet | None) -> None:
    if file_set is None:
        pytest.skip("no MLIR installation with its llvm-tblgen (see TD_CONFORMANCE_ROOTS in "
                    "tilecraft.codegen.td.conformance)")
    outcomes = compare_set(file_set)
    counts = Counter(outcome.status for outcome in outcomes)
    failures = [f"{o.file}: {o.status}\n{o.detail}" for o in outcomes
                if o.status in ("differ", "error")]
    assert not failures, (f"{len(failures)} of {len(outcomes) - counts['skipped']} files differ; "
                          f"first:\n" + "\n".join(failures[:3]))


def test_a_file_sees_its_own_folder_as_an_include_directory() -> None:
    """Both tools get the compared file's folder first among the include directories, as
    MLIR's build passes it, so a file that includes a sibling by bare name is compared, not
    skipped as rejected."""
    installed = discover_sets()
    if not installed:
        pytest.skip("no llvm-tblgen installed (see TD_CONFORMANCE_ROOTS)")
    main = str(CORPUS / "siblings" / "Main.td")
    file_set = FileSet("siblings", installed[-1].tblgen, installed[-1].version, (main,), ())
    assert compare_file(file_set, main).status == "match"
