"""Vector widths, register maps and conversion plans."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.layouts.test_linear import all_inputs
from tilecraft.layouts import (
    LinearLayout,
    blocked_layout,
    contiguous_registers,
    conversion_plan,
    insert_out_dim,
    nvidia_mma_v2_layout,
    register_map,
    slice_layout,
)

ACC = ([1, 4], [4, 8], [4, 1], [1, 0])


def test_contiguous_registers() -> None:
    layout = blocked_layout([32, 64], *ACC)
    assert contiguous_registers(layout, 1) == 4
    assert contiguous_registers(layout, "dim1") == 4
    assert contiguous_registers(layout, 0) == 1
    assert contiguous_registers(blocked_layout([1024], [8], [32], [4], [0]), 0) == 8
    # Registers broadcast beyond the shape: only 2 distinct elements.
    assert contiguous_registers(blocked_layout([2], [4], [32], [1], [0]), 0) == 2
    # mma: c0, c1 are adjacent columns.
    assert contiguous_registers(nvidia_mma_v2_layout([32, 32], [2, 2]), 1) == 2
    # The register order matters, not only the register set.
    swapped = LinearLayout({"register": [(2,), (1,)]}, {"dim0": 4})
    assert contiguous_registers(swapped, 0) == 1


def test_plan_none_and_register_permutation() -> None:
    src = blocked_layout([32, 64], *ACC)
    assert conversion_plan(src, src).kind == "none"
    bases = src.bases
    bases["register"] = [bases["register"][i] for i in (3, 0, 2, 1)]
    dst = LinearLayout(bases, src.out_dims)
    plan = conversion_plan(src, dst)
    assert plan.kind == "register"
    # dst register bit k = src register bit perm[k]: dst register 1 is src register 8, ...
    assert plan.register_map is not None
    assert plan.register_map[:4] == (0, 8, 1, 9)


def test_plan_shuffle_and_shared() -> None:
    # Same warp split, lanes walk a different way: shuffles.
    src = blocked_layout([16, 32], [1, 4], [4, 8], [4, 1], [1, 0])
    dst = blocked_layout([16, 32], [1, 4], [4, 8], [4, 1], [0, 1])
    assert conversion_plan(src, dst).kind == "shuffle"
    # Warps split rows in src and columns in dst: through shared memory.
    dst = blocked_layout([16, 32], [1, 4], [4, 8], [1, 4], [1, 0])
    assert conversion_plan(src, dst).kind == "shared"


def test_register_map_broadcast() -> None:
    # tt.broadcast 1x64 -> 32x64: every dst register reads the src register of its column.
    src = blocked_layout([1, 64], *ACC)
    dst = blocked_layout([32, 64], *ACC)
    assert src.in_dim_size("register") == 8
    assert register_map(src, dst) == [0, 1, 2, 3, 4, 5, 6, 7] * 2
    # A layout that spreads columns differently needs data from other threads.
    other = blocked_layout([32, 64], [1, 4], [8, 4], [4, 1], [1, 0])
    assert register_map(src, other) is None
    # A dst smaller than src is not a broadcast.
    with pytest.raises(ValueError, match="smaller"):
        register_map(dst, src)


def test_register_map_expand_dims() -> None:
    parent = blocked_layout([32, 1], *ACC)
    sliced = slice_layout(parent, 1)
    # The parent repeats each row over 4 registers (sizePerThread[1] = 4 on a 1-wide dim).
    assert register_map(insert_out_dim(sliced, 1), parent) == [0, 0, 0, 0, 1, 1, 1, 1]


@st.composite
def blocked_pairs(draw: st.DrawFn) -> tuple[LinearLayout, LinearLayout]:
    shape = [1 << draw(st.integers(0, 5)) for _ in range(2)]
    lanes = draw(st.integers(0, 5))
    warps = draw(st.integers(0, 2))

    def params() -> tuple[list[int], ...]:
        lane0 = draw(st.integers(0, lanes))
        warp0 = draw(st.integers(0, warps))
        spt = [1 << draw(st.integers(0, 2)), 1 << draw(st.integers(0, 2))]
        tpw = [1 << lane0, 1 << (lanes - lane0)]
        wpc = [1 << warp0, 1 << (warps - warp0)]
        return spt, tpw, wpc, draw(st.permutations([0, 1]))

    src = blocked_layout(shape, *params())
    dst = blocked_layout(shape, *params())
    return src, dst


def _holders(layout: LinearLayout) -> dict[tuple[int, ...], set[tuple[int, int, int]]]:
    found: dict[tuple[int, ...], set[tuple[int, int, int]]] = {}
    for x in all_inputs(layout):
        found.setdefault(layout.apply(**x), set()).add(
            (x["register"], x.get("lane", 0), x.get("warp", 0))
        )
    return found


@given(blocked_pairs())
def test_plans_are_exact(pair: tuple[LinearLayout, LinearLayout]) -> None:
    src, dst = pair
    plan = conversion_plan(src, dst)
    holders = _holders(src)
    lanes = max(src.in_dim_size("lane"), dst.in_dim_size("lane"))
    warps = max(src.in_dim_size("warp"), dst.in_dim_size("warp"))
    if plan.kind == "none":
        assert all(src.apply(**x) == dst.apply(**x) for x in all_inputs(dst))
    if plan.kind == "register":
        assert plan.register_map is not None
        for r, lane, warp in itertools.product(
            range(dst.in_dim_size("register")), range(lanes), range(warps)
        ):
            src_lane, src_warp = lane % src.in_dim_size("lane"), warp % src.in_dim_size("warp")
            dst_lane, dst_warp = lane % dst.in_dim_size("lane"), warp % dst.in_dim_size("warp")
            assert src.apply(
                register=plan.register_map[r], lane=src_lane, warp=src_warp
            ) == dst.apply(register=r, lane=dst_lane, warp=dst_warp)
    # "shuffle" exactly when every element each dst warp needs is in the same src warp.
    warp_local = all(
        any(h[2] == x["warp"] for h in holders[dst.apply(**x)]) for x in all_inputs(dst)
    )
    assert (plan.kind in ("none", "register", "shuffle")) == warp_local
