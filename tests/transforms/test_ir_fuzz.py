"""Input nobody here wrote: mutated lit files get output from `tilecraft-opt` or an error at
file:line:col with a caret, never an internal error; and each class of bad input that
`tools/ir_fuzz.py` found is a regression test."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tilecraft.ir import ParseError, parse_module
from tilecraft.ir.lexer import MAX_NESTING
from tilecraft.transforms.fuzz import check_mutant, mutate, run, targets

LIT = Path(__file__).resolve().parents[1] / "lit"


def test_mutated_lit_files_get_output_or_a_located_error() -> None:
    """A bounded, seeded run of `tools/ir_fuzz.py` (which runs thousands) over tests/lit, with
    the passes each file's RUN lines name."""
    found = targets([LIT])
    results = list(run(found, cases=60, seed=16))
    problems = [r for r in results if r.kind == "problem"]
    assert not problems, "\n\n".join(
        f"seed {r.seed} ({r.target.file.name}:{r.target.line} {' '.join(r.args)}):\n{r.detail}"
        for r in problems[:3])
    assert {r.kind for r in results} == {"output", "diagnostic"}


def test_targets_follow_the_run_lines() -> None:
    """Each piece of a `--split-input-file` lit file is a target with its RUN line's passes."""
    found = [t for t in targets([LIT / "canonicalize-scf.mlir"])]
    assert len(found) > 3 and {t.args for t in found} == {("-canonicalize",)}
    assert all(t.text.strip() and t.line >= 1 for t in found)


def test_mutants_are_seeded() -> None:
    text = (LIT / "canonicalize-scf.mlir").read_text(encoding="utf-8")
    assert mutate(text, random.Random(7)) == mutate(text, random.Random(7))


@pytest.mark.parametrize("text, message, line, col", [
    # A bare `@` is no symbol name (an IndexError in parse_optional_symbol_name).
    pytest.param("tt.func @ () {\n  tt.return\n}", "expected symbol name but found '@'", 1, 9,
                 id="bare-at"),
    # A NUL outside a string read as the end of the text: what followed was ignored.
    pytest.param("tt.func @f() {\n  tt.return\n}\0 garbage", "unexpected NUL character", 3, 2,
                 id="nul"),
    # Nesting thousands deep (a RecursionError in the parser or, nearer the limit, a pass).
    pytest.param("tt.func @f() attributes {a = " + "[" * 5000 + "1" + "]" * 5000 + "} {\n"
                 "  tt.return\n}", f"brackets nested more than {MAX_NESTING} deep", 1,
                 30 + MAX_NESTING - 1, id="deep"),
    # An integer type wider than MLIR allows (a ValueError from IntegerType).
    pytest.param("tt.func @f(%a: i322147483647) {\n  tt.return\n}",
                 "integer bitwidth is limited to", 1, 16, id="wide-integer"),
    # More digits than Python converts to an int (a ValueError).
    pytest.param("tt.func @f() {\n  %0 = tt.make_range {end = " + "9" * 5000 + " : i32, start "
                 "= 0 : i32} : tensor<4xi32>\n  tt.return\n}", "integer constant out of range",
                 2, 29, id="many-digits"),
    pytest.param("tt.func @f(%a: tensor<99999999999999999999xf32>) {\n  tt.return\n}",
                 "invalid dimension", 1, 23, id="huge-dimension"),
    # A digit that is not ASCII where a number goes (a ValueError from int or float): as in
    # MLIR, only strings and comments may hold characters that are not ASCII.
    pytest.param("tt.func @f() {\n  %0 = arith.constant \u00b2 : i32\n  tt.return\n}",
                 "unexpected character '\u00b2' (U+00B2)", 2, 23, id="unicode-digit"),
    pytest.param("tt.func @f() {\n  // \u00e9\n  %0 = arith.constant \u0663 : i32\n"
                 "  tt.return\n}", "unexpected character '\u0663'", 3, 23, id="arabic-digit"),
    # arith.constant takes its result type from its attribute, which must have one (an
    # AttributeError: 'TypeAttr' object has no attribute 'type').
    pytest.param("tt.func @f() {\n  %0 = arith.constant f32\n  tt.return\n}",
                 "invalid kind of attribute specified", 2, 23, id="constant-type"),
    pytest.param("tt.func @f() {\n  %0 = arith.constant @f\n  tt.return\n}",
                 "invalid kind of attribute specified", 2, 23, id="constant-symbol"),
    # A padded layout's offset basis that is not a power of two went into a LinearLayout
    # before it was checked (a ValueError: coordinate -1 is outside output dim 'dim0').
    pytest.param("#s = #ttg.padded_shared<[4:+4] {offset = [[1, 0], [-1, 0]], block = []}>\n"
                 "tt.func @f() {\n  tt.return\n}",
                 "Each offset basis must be 0 or a power of two", 1, 25, id="padded-offset"),
    # A swizzle of vec = 0 (a ValueError from the shared layout in tritongpu-assign-latencies).
    pytest.param("#s = #ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [0]}>"
                 "\ntt.func @f() {\n  tt.return\n}", "vec must be a power of two, not 0", 1, 26,
                 id="swizzle-vec"),
    # A partition's num_warps that no i32 holds (a ValueError from DenseArrayAttr).
    pytest.param("tt.func @f(%a: i32) {\n  ttg.warp_specialize(%a)\n  default {\n"
                 "    ttg.warp_yield\n  }\n  partition0(%x: i32) num_warps(4294967296) {\n"
                 "    ttg.warp_return\n  } : (i32) -> ()\n  tt.return\n}",
                 "integer value too large", 6, 33, id="num-warps-i32"),
])
def test_bad_input_is_a_located_error(text: str, message: str, line: int, col: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_module(text, "bad.mlir")
    assert message in info.value.message
    assert (info.value.loc.line, info.value.loc.col) == (line, col)
    assert str(info.value).split("\n")[2] == " " * (col - 1) + "^"


@pytest.mark.parametrize("data, line, col", [
    (b"tt.func @f() {\n  tt.return \xff\n}\n", 2, 13),
    (b"tt.func @f() {\n\xc3", 2, 1),
])
def test_a_file_that_is_not_utf8_is_a_located_error(tmp_path: Path, data: bytes, line: int,
                                                     col: int) -> None:
    """tilecraft-opt reported 'cannot read' without a line (a UnicodeDecodeError)."""
    path = tmp_path / "bad.mlir"
    path.write_bytes(data)
    kind, detail = check_mutant(path, ())
    assert kind == "diagnostic"
    assert detail.startswith(f"{path}:{line}:{col}: error: this file is not UTF-8 text")


def test_nesting_within_the_limit_runs_through_the_passes(tmp_path: Path) -> None:
    """Regions nested as deep as the parser allows get through verification, the passes and
    the printer without a RecursionError."""
    depth = MAX_NESTING - 2
    body = "scf.if %c {\n" * depth + "%x = arith.addi %a, %a : i32\n" + "}\n" * depth
    path = tmp_path / "deep.mlir"
    path.write_text(f"tt.func @f(%a: i32, %c: i1) {{\n{body}tt.return\n}}\n", encoding="utf-8")
    for passes in [(), ("-canonicalize",), ("-cse",), ("-loop-invariant-code-motion",),
                   ("-sccp",), ("-convert-scf-to-cf",), ("-inline",)]:
        assert check_mutant(path, passes)[0] == "output", passes


@pytest.mark.parametrize("text, passes, message", [
    # The lookup of the module's warps raised a KeyError (coalesce) or TypeError.
    pytest.param("tt.func @f() {\n  tt.return\n}", ("-tritongpu-coalesce",),
                 "'builtin.module' op has no 'ttg.num-warps' attribute", id="no-num-warps"),
    pytest.param('module attributes {"ttg.num-warps" = "four"} {\n  tt.func @f() {\n'
                 "    tt.return\n  }\n}", ("-tritongpu-coalesce",),
                 "has the 'ttg.num-warps' attribute \"four\", which is not an integer",
                 id="text-num-warps"),
    # A buffer too large for the i32 `ttg.shared` (a ValueError from IntegerAttr).
    pytest.param('#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = '
                 '[1, 0]}>\n#smem = #ttg.shared_memory\nmodule attributes {"ttg.num-warps" = 4 '
                 ": i32} {\n  tt.func @f() {\n    %0 = ttg.local_alloc : () -> !ttg.memdesc<"
                 "1073741824x4xf32, #shared, #smem, mutable>\n    tt.return\n  }\n}",
                 ("-allocate-shared-memory",), "needs 17179869184 bytes of shared memory",
                 id="huge-shared-memory"),
])
def test_pass_input_errors_are_located(tmp_path: Path, text: str, passes: tuple[str, ...],
                                       message: str) -> None:
    """What the fuzzer found escaping from passes as internal errors."""
    path = tmp_path / "bad.mlir"
    path.write_text(text, encoding="utf-8")
    kind, detail = check_mutant(path, passes)
    assert kind == "diagnostic", detail
    assert message in detail


def test_empty_tensors_get_a_layout(tmp_path: Path) -> None:
    """A tensor with an empty dimension gets the default layout of a dimension of size 1 (the
    layout's arithmetic divided by zero); as in Triton, a distributed layout then needs a
    power-of-two shape, which the verifier after the pass reports at the op."""
    path = tmp_path / "empty.mlir"
    path.write_text("tt.func @f() -> tensor<0x4xf32> {\n  %0 = arith.constant dense<1.0> : "
                    "tensor<0x4xf32>\n  tt.return %0 : tensor<0x4xf32>\n}\n", encoding="utf-8")
    kind, detail = check_mutant(path, ("-convert-triton-to-tritongpu=target=cuda:80",))
    assert kind == "diagnostic" and "which is not a power of two" in detail


def test_default_layout_of_odd_dimensions() -> None:
    """Empty dimensions and the zero elements per thread a dot derives from them are laid out
    as size 1 (a ZeroDivisionError in the CTA split), others as the next power of two."""
    from tilecraft.dialects.ttg_inference import default_blocked  # after tilecraft.ir

    layout = default_blocked([0, 16], 4, 32, 2, size_per_thread=[0, 1])
    assert list(layout.size_per_thread) == [1, 1]
    # A dimension of 31 gave 31 lanes, a layout whose printed form does not parse back.
    layout = default_blocked([16, 31], 4, 32, 2)
    assert list(layout.threads_per_warp) == [1, 32]


def test_unrolled_bounds_wrap_to_the_type(tmp_path: Path) -> None:
    """A step of 2^31 (i32's -2^31) unrolled 4 times: the constants the unroller computes wrap
    to i32, as arith's arithmetic does (a ValueError from IntegerAttr)."""
    path = tmp_path / "unroll.mlir"
    path.write_text(
        "tt.func @f() -> i32 {\n  %c0 = arith.constant 0 : i32\n"
        "  %c10 = arith.constant 10 : i32\n  %c1 = arith.constant 2147483648 : i32\n"
        "  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {\n"
        "    %a = arith.addi %acc, %i : i32\n    scf.yield %a : i32\n"
        "  } {tt.loop_unroll_factor = 4 : i32}\n  tt.return %r : i32\n}\n", encoding="utf-8")
    assert check_mutant(path, ("-triton-loop-unroll",)) == ("output", "")
