"""convert-triton-to-tritongpu: the default blocked layouts over many shapes and options, and,
over the pieces of the pass's lit test, that a second run changes nothing and that every layout
it gives maps every lane and warp of the options (what the GPU lowering needs)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tilecraft.backends.cuda.layouts import encoding_layout
from tilecraft.generated.tt import PointerType
from tilecraft.ir import RankedTensorType, parse_module, print_op
from tilecraft.layouts.distributed import blocked_layout
from tilecraft.transforms import PassManager
from tilecraft.transforms.triton_to_tritongpu import default_blocked

LIT = Path(__file__).resolve().parents[1] / "lit" / "convert-triton-to-tritongpu.mlir"
PIECES = LIT.read_text(encoding="utf-8").split("// -----")
SIZES = (1, 2, 4, 16, 64, 256)


def _product(values) -> int:
    result = 1
    for value in values:
        result *= value
    return result


@pytest.mark.parametrize("num_warps,threads_per_warp", [(1, 32), (4, 32), (8, 32), (2, 16),
                                                        (4, 64)])
def test_default_blocked_uses_every_lane_and_warp_fastest_dim_first(
        num_warps: int, threads_per_warp: int) -> None:
    for rank in (1, 2, 3):
        for shape in itertools.product(SIZES, repeat=rank):
            layout = default_blocked(shape, num_warps, threads_per_warp)
            assert layout.order == tuple(range(rank - 1, -1, -1))
            assert layout.size_per_thread == (1,) * rank
            assert _product(layout.threads_per_warp) == threads_per_warp, shape
            assert _product(layout.warps_per_cta) == num_warps, shape
            # Below the slowest dim, threads never cover more than the dim's size, and a dim
            # is only partly covered when no threads are left for the slower ones.
            threads = [t * w for t, w in zip(layout.threads_per_warp, layout.warps_per_cta)]
            left = num_warps * threads_per_warp
            for dim in range(rank - 1, 0, -1):
                assert threads[dim] <= shape[dim], (shape, layout)
                assert threads[dim] == min(shape[dim], left), (shape, layout)
                left //= threads[dim]


def test_default_blocked_with_ctas_splits_the_slowest_dim_first() -> None:
    layout = default_blocked((64, 8), 4, 32, num_ctas=4)
    assert layout.cga_layout == ((1, 0), (2, 0))
    assert layout.threads_per_warp == (4, 8) and layout.warps_per_cta == (4, 1)
    # Too few rows for every CTA: the next dim is split too (bases listed fastest dim first),
    # and CTAs that find nothing left to split repeat along the last dim.
    assert default_blocked((2, 8), 4, 32, num_ctas=4).cga_layout == ((0, 1), (1, 0))
    assert default_blocked((2, 1), 4, 32, num_ctas=4).cga_layout == ((0, 0), (1, 0))


def _convert(text: str, options: str) -> str:
    module = parse_module(text, "piece.mlir")
    PassManager.parse(f"builtin.module(convert-triton-to-tritongpu{{{options}}})").run(module)
    module.verify()
    return print_op(module)


OPTIONS = ("target=cuda:90", "target=cuda:80 num-warps=8", "target=cuda:80 num-warps=2 "
           "threads-per-warp=16")


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("index", range(len(PIECES)))
def test_second_run_changes_nothing(index: int, options: str) -> None:
    once = _convert(PIECES[index], options)
    assert _convert(once, options) == once


@pytest.mark.parametrize("options", OPTIONS[:2])
@pytest.mark.parametrize("index", range(len(PIECES)))
def test_layouts_map_every_lane_and_warp(index: int, options: str) -> None:
    num_warps = 8 if "num-warps=8" in options else 4
    module = parse_module(_convert(PIECES[index], options), "converted.mlir")
    for op in module.walk():
        values = [*op.results] + [a for r in op.regions for b in r.blocks for a in b.arguments]
        for value in values:
            t = value.type
            if isinstance(t, PointerType) and isinstance(t.pointee_type, RankedTensorType):
                t = t.pointee_type
            if not isinstance(t, RankedTensorType):
                continue
            layout = encoding_layout(t.encoding, tuple(t.shape))
            assert layout.in_dim_size("warp") == num_warps, (op.name, t)
            assert layout.in_dim_size("lane") == 32, (op.name, t)


def test_default_layout_holds_every_element_once_when_the_tensor_is_big_enough() -> None:
    shape = (64, 32)
    layout = default_blocked(shape, 4, 32)
    mapped = blocked_layout(shape, layout.size_per_thread, layout.threads_per_warp,
                            layout.warps_per_cta, layout.order)
    assert mapped.in_dim_size("register") * 4 * 32 == 64 * 32
    assert not mapped.free_variable_masks().get("lane") and \
        not mapped.free_variable_masks().get("warp")
