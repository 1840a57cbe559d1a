"""Hand-worked layouts of Triton's encodings (expectations derived on paper from the encodings'
definitions, not from the code under test)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.layouts import (
    Blocked,
    blocked_layout,
    fma_dot_operand_layout,
    nvidia_mma_v2_dot_operand_layout,
    nvidia_mma_v2_layout,
    slice_layout,
    swizzled_shared_layout,
)


def test_blocked_1d() -> None:
    layout = blocked_layout([1024], [4], [32], [4], [0])
    assert layout.in_dims == ("register", "lane", "warp")
    assert layout.out_dims == {"dim0": 1024}
    assert layout.apply(register=1) == (1,)
    assert layout.apply(lane=1) == (4,)
    assert layout.apply(warp=1) == (128,)
    # The CTA tile covers 4*32*4 = 512 elements: register 4 is the second repetition.
    assert layout.apply(register=4) == (512,)
    assert layout.in_dim_size("register") == 8
    # Thread (lane 3, warp 2), register 5 = repetition 1, element 1 of its vector.
    assert layout.apply(register=5, lane=3, warp=2) == (512 + 2 * 128 + 3 * 4 + 1,)
    assert layout.free_variable_masks() == {"register": 0, "lane": 0, "warp": 0}


def test_blocked_2d_repeats_fastest_dim_first() -> None:
    # Tile: dim1 = 4 regs * 8 lanes = 32 columns, dim0 = 4 lanes * 4 warps = 16 rows.
    layout = blocked_layout([32, 64], [1, 4], [4, 8], [4, 1], [1, 0])
    assert layout.out_dims == {"dim0": 32, "dim1": 64}
    assert layout.bases == {
        "register": [(0, 1), (0, 2), (0, 32), (16, 0)],
        "lane": [(0, 4), (0, 8), (0, 16), (1, 0), (2, 0)],
        "warp": [(4, 0), (8, 0)],
    }
    # lane 9 = lane bits 0 and 3: column 4, row 1; warp 3: rows 4 + 8.
    assert layout.apply(register=6, lane=9, warp=3) == (1 + 12, 2 + 32 + 4)


def test_blocked_2d_broadcast_when_tile_is_larger() -> None:
    # 8x16 is smaller than the 16x32 tile: lane bit 2 (column 16) and warp bit 1 (row 8) are
    # dropped, i.e. broadcast.
    layout = blocked_layout([8, 16], [1, 4], [4, 8], [4, 1], [1, 0])
    assert layout.bases == {
        "register": [(0, 1), (0, 2)],
        "lane": [(0, 4), (0, 8), (0, 0), (1, 0), (2, 0)],
        "warp": [(4, 0), (0, 0)],
    }
    assert layout.free_variable_masks() == {"register": 0, "lane": 0b100, "warp": 0b10}
    assert layout.apply(lane=4) == layout.apply(lane=0) == (0, 0)
    assert layout.is_surjective() and not layout.is_injective()


def test_blocked_registers_broadcast_when_vector_exceeds_shape() -> None:
    layout = blocked_layout([2], [4], [32], [1], [0])
    assert layout.bases == {"register": [(1,), (0,)], "lane": [(0,)] * 5, "warp": []}
    assert layout.free_variable_masks() == {"register": 0b10, "lane": 0b11111, "warp": 0}


def test_blocked_column_major_order() -> None:
    layout = blocked_layout([16, 4], [2, 1], [4, 8], [1, 2], [0, 1])
    # dim0 tile = 2*4*1 = 8 (repeat x2), dim1 tile = 1*8*2 = 16 > 4 (broadcast lane bits 2,
    # warp bit 0).
    assert layout.bases == {
        "register": [(1, 0), (8, 0)],
        "lane": [(2, 0), (4, 0), (0, 1), (0, 2), (0, 0)],
        "warp": [(0, 0)],
    }


def test_blocked_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="power of two"):
        blocked_layout([24], [1], [32], [4], [0])
    with pytest.raises(ValueError, match="permutation"):
        blocked_layout([8, 8], [1, 1], [4, 8], [1, 1], [0, 0])
    with pytest.raises(ValueError, match="rank"):
        blocked_layout([8, 8], [1], [4, 8], [1, 1], [1, 0])


def test_slice_dim0_of_2d_blocked() -> None:
    parent = blocked_layout([1, 64], [1, 4], [4, 8], [4, 1], [1, 0])
    sliced = slice_layout(parent, 0)
    # Dropping dim0: the lanes and warps that walked rows now broadcast.
    assert sliced.out_dims == {"dim0": 64}
    assert sliced.bases == {
        "register": [(1,), (2,), (32,)],
        "lane": [(4,), (8,), (16,), (0,), (0,)],
        "warp": [(0,), (0,)],
    }
    # The size of the re-inserted dim does not matter for a blocked parent.
    assert slice_layout(blocked_layout([32, 64], [1, 4], [4, 8], [4, 1], [1, 0]), 0) == sliced


def test_slice_dim1_removes_zero_registers() -> None:
    parent = blocked_layout([32, 1], [1, 4], [4, 8], [4, 1], [1, 0])
    sliced = slice_layout(parent, 1)
    assert sliced.out_dims == {"dim0": 32}
    assert sliced.bases == {
        "register": [(16,)],
        "lane": [(0,), (0,), (0,), (1,), (2,)],
        "warp": [(4,), (8,)],
    }


def test_slice_of_3d_renumbers() -> None:
    parent = blocked_layout([2, 1, 8], [1, 1, 2], [2, 4, 4], [1, 1, 1], [2, 1, 0])
    sliced = slice_layout(parent, 1)
    assert sliced.out_dim_names == ("dim0", "dim1")
    assert sliced.out_dims == {"dim0": 2, "dim1": 8}
    assert sliced.bases["register"] == [(0, 1)]
    assert sliced.bases["lane"] == [(0, 2), (0, 4), (0, 0), (0, 0), (1, 0)]


def test_fma_dot_operands() -> None:
    parent = Blocked([1, 4], [4, 8], [4, 1], [1, 0])
    acc = parent.layout([32, 64])
    a = fma_dot_operand_layout(parent, 0, [32, 8])
    # A: registers hold all 8 of K (dim1 fastest by order), then the row repetition of the
    # accumulator; lanes along N broadcast, lanes/warps along M as in the accumulator.
    assert a.bases == {
        "register": [(0, 1), (0, 2), (0, 4), (16, 0)],
        "lane": [(0, 0), (0, 0), (0, 0), (1, 0), (2, 0)],
        "warp": [(4, 0), (8, 0)],
    }
    b = fma_dot_operand_layout(parent, 1, [8, 64])
    # B: the thread's 4 columns (dim1 first by order), all 8 of K, then the column repetition.
    assert b.bases == {
        "register": [(0, 1), (0, 2), (1, 0), (2, 0), (4, 0), (0, 32)],
        "lane": [(0, 4), (0, 8), (0, 16), (0, 0), (0, 0)],
        "warp": [(0, 0), (0, 0)],
    }
    # Every accumulator element's thread holds its row of A and its column of B.
    for reg in range(acc.in_dim_size("register")):
        for lane in range(32):
            for warp in range(4):
                m, n = acc.apply(register=reg, lane=lane, warp=warp)
                rows = {a.apply(register=r, lane=lane, warp=warp) for r in range(a.in_dim_size("register"))}
                cols = {b.apply(register=r, lane=lane, warp=warp) for r in range(b.in_dim_size("register"))}
                assert {(m, k) for k in range(8)} <= rows
                assert {(k, n) for k in range(8)} <= cols


def test_mma_v2_accumulator() -> None:
    layout = nvidia_mma_v2_layout([32, 32], [2, 2])
    # c0,c1: row lane/4, cols 2*(lane%4)+{0,1}; c2,c3 eight rows down; warps row-major
    # (warp 1 right, warp 2 down), then a second tile to the right.
    assert layout.bases == {
        "register": [(0, 1), (8, 0), (0, 16)],
        "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
        "warp": [(0, 8), (16, 0)],
    }
    assert layout.is_invertible()
    lane = 4 * 5 + 3
    assert layout.apply(register=3, lane=lane) == (5 + 8, 2 * 3 + 1)


def test_mma_v3_accumulator_and_operand_a() -> None:
    # Hopper (wgmma): the tile is the instruction's M x N (16 x 64), warps go down M first
    # (column-major), so a warpgroup covers 64 rows.
    acc = nvidia_mma_v2_layout([64, 128], [2, 2], [16, 64, 16], hopper=True)
    assert acc.bases == {
        "register": [(0, 1), (8, 0), (0, 8), (0, 16), (0, 32), (32, 0)],
        "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
        "warp": [(16, 0), (0, 64)],
    }
    assert acc.is_invertible()
    a = nvidia_mma_v2_dot_operand_layout([64, 32], [2, 2], 0, 2, hopper=True)
    # A's warps follow the accumulator's down M and broadcast along K.
    assert a.bases == {
        "register": [(0, 1), (8, 0), (0, 8), (0, 16), (32, 0)],
        "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
        "warp": [(16, 0), (0, 0)],
    }


def test_mma_v2_operands() -> None:
    a = nvidia_mma_v2_dot_operand_layout([32, 32], [2, 2], 0, 2)
    # a0..a7 of mma.m16n8k16: (g, 2t..2t+1), (g+8, ..), (g, 2t+8..), (g+8, 2t+8..); K tiles
    # repeat first; warps along N broadcast.
    assert a.bases == {
        "register": [(0, 1), (8, 0), (0, 8), (0, 16)],
        "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
        "warp": [(0, 0), (16, 0)],
    }
    b = nvidia_mma_v2_dot_operand_layout([32, 32], [2, 2], 1, 2)
    # b0..b3: (2t..2t+1, g), (2t+8.., g); warps along M broadcast.
    assert b.bases == {
        "register": [(1, 0), (8, 0), (16, 0), (0, 16)],
        "lane": [(2, 0), (4, 0), (0, 1), (0, 2), (0, 4)],
        "warp": [(0, 8), (0, 0)],
    }
    a8 = nvidia_mma_v2_dot_operand_layout([16, 32], [1, 1], 0, 4)
    assert a8.bases["register"] == [(0, 1), (0, 2), (8, 0), (0, 16)]
    assert a8.bases["lane"] == [(0, 4), (0, 8), (1, 0), (2, 0), (4, 0)]


def test_swizzled_shared() -> None:
    layout = swizzled_shared_layout([16, 64], vec=8, per_phase=1, max_phase=8, order=[1, 0])
    assert layout.in_dims == ("offset",)
    assert layout.bases["offset"] == [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 32),
        (1, 8), (2, 16), (4, 32), (8, 0),
    ]
    # Offset 3*64 + 5 is row 3, stored column 5: logical column 5 ^ (8 * 3).
    assert layout.apply(offset=3 * 64 + 5) == (3, 5 ^ 24)
    assert layout.is_invertible()
    # per_phase 2: rows 0,1 share phase 0, rows 2,3 phase 1, ...; 4 phases.
    slow = swizzled_shared_layout([8, 32], vec=4, per_phase=2, max_phase=4, order=[1, 0])
    assert slow.bases["offset"][5:] == [(1, 0), (2, 4), (4, 8)]
    # Column-major order swaps the roles.
    col = swizzled_shared_layout([32, 4], vec=1, per_phase=1, max_phase=4, order=[0, 1])
    assert col.bases["offset"] == [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (1, 1), (2, 2)]
    assert swizzled_shared_layout([8], 1, 1, 1, [0]).bases == {"offset": [(1,), (2,), (4,)]}


def test_mma_v2_batched() -> None:
    layout = nvidia_mma_v2_layout([2, 16, 8], [2, 1, 1], instr_shape=[1, 16, 8])
    assert layout.bases == {
        "register": [(0, 0, 1), (0, 8, 0)],
        "lane": [(0, 0, 2), (0, 0, 4), (0, 1, 0), (0, 2, 0), (0, 4, 0)],
        "warp": [(1, 0, 0)],
    }


def test_registers_to_swizzled_offsets() -> None:
    # Store addresses: (register, lane, warp) -> element -> shared offset.
    dist = blocked_layout([16, 64], [1, 8], [4, 8], [4, 1], [1, 0])
    shared = swizzled_shared_layout([16, 64], vec=8, per_phase=1, max_phase=8, order=[1, 0])
    to_offset = dist.compose(shared.invert())
    assert to_offset.out_dims == {"offset": 1024}
    # Row 1's 8-vector of lane 0 lands at the xor-swizzled column 8 of row 1.
    assert to_offset.apply(lane=8) == (64 + 8,)
    # The 8 registers stay contiguous after the swizzle (vec == sizePerThread).
    assert [to_offset.apply(register=r)[0] for r in range(8)] == list(range(8))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=2, max_size=2),
    st.lists(st.integers(0, 2), min_size=2, max_size=2),
    st.integers(0, 5),
    st.integers(0, 3),
    st.permutations([0, 1]),
    st.integers(0, 1),
)
def test_blocked_covers_shape_and_slices_ignore_the_sliced_size(
    shape_bits: list[int], spt_bits: list[int], lane0: int, warps: int, order: list[int],
    dim: int,
) -> None:
    shape = [1 << b for b in shape_bits]
    params = ([1 << b for b in spt_bits], [1 << lane0, 1 << (5 - lane0)],
              [1 << (warps // 2), 1 << (warps - warps // 2)], order)
    layout = blocked_layout(shape, *params)
    assert layout.out_dims == {"dim0": shape[0], "dim1": shape[1]}
    assert layout.is_surjective()
    assert layout.in_dim_size("lane") == 32 and layout.in_dim_size("warp") == 1 << warps
    # Each register holds a distinct element unless the thread's vector exceeds the shape.
    regs = {layout.apply(register=r) for r in range(layout.in_dim_size("register"))}
    assert len(regs) == layout.in_dim_size("register") >> bin(
        layout.free_variable_masks()["register"]).count("1")
    one = list(shape)
    one[dim] = 1
    assert slice_layout(blocked_layout(one, *params), dim) == slice_layout(layout, dim)
