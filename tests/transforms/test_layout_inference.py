"""The layout transfer functions of tritongpu-remove-layout-conversions on hand-worked cases:
AMD's mfma accumulator and dot operand maps, reshapes of blocked layouts, the unpacking of
ttg.fp4_to_fp."""

from __future__ import annotations

from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.generated.ttg import (AMDMfmaEncodingAttr, BlockedEncodingAttr,
                                     DotOperandEncodingAttr, SliceEncodingAttr)
from tilecraft.transforms.layout_inference import (blocked_reshape_encoding, fp4_to_fp_encoding,
                                                   layout_map)


def test_mfma_32x32_tile_holds_four_rows_per_lane():
    # One wave, one 32x32 instruction: registers step 1, 2 rows, then 8, 16 (groups of 4 rows
    # with a gap of 4); lanes cover the 32 columns, lane 32 starts 4 rows down.
    encoding = AMDMfmaEncodingAttr(3, (1, 1), (32, 32, 8), False)
    layout = layout_map(encoding, (32, 32))
    assert layout.bases["register"] == [(1, 0), (2, 0), (8, 0), (16, 0)]
    assert layout.bases["lane"] == [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0)]
    assert layout.apply(register=5, lane=33, warp=0) == (4 + 8 + 1, 1)


def test_mfma_transposed_swaps_rows_and_columns():
    plain = layout_map(AMDMfmaEncodingAttr(3, (1, 1), (16, 16, 16), False), (16, 16))
    transposed = layout_map(AMDMfmaEncodingAttr(3, (1, 1), (16, 16, 16), True), (16, 16))
    assert plain.bases["register"] == [(1, 0), (2, 0)]
    assert plain.bases["lane"] == [(0, 1), (0, 2), (0, 4), (0, 8), (4, 0), (8, 0)]
    for name in ("register", "lane"):
        assert transposed.bases[name] == [(c, r) for r, c in plain.bases[name]]


def test_mfma_warps_split_n_first_then_m_and_tiles_repeat_along_n():
    layout = layout_map(AMDMfmaEncodingAttr(3, (2, 2), (16, 16, 16), False), (64, 64))
    assert layout.bases["warp"] == [(0, 16), (16, 0)]
    # after the instruction's 4 rows: N repeats (64 / (16 * 2 warps)) before M does
    assert layout.bases["register"][2:] == [(0, 32), (32, 0)]


def test_mfma_operands_hold_k_width_elements_along_k():
    # A (32x64, kWidth 4) of a 32x32 instruction: 4 consecutive K per lane, lanes down the 32
    # rows, lane 32 four K further; the 8-wide K tile repeats in registers up to K = 64.
    mfma = AMDMfmaEncodingAttr(3, (1, 1), (32, 32, 8), False)
    a = layout_map(DotOperandEncodingAttr(0, mfma, 4), (32, 64))
    assert a.bases["register"] == [(0, 1), (0, 2), (0, 8), (0, 16), (0, 32)]
    assert a.bases["lane"] == [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (0, 4)]
    b = layout_map(DotOperandEncodingAttr(1, mfma, 4), (64, 32))
    for name in ("register", "lane"):
        assert b.bases[name] == [(c, r) for r, c in a.bases[name]]


def test_mfma_operand_is_broadcast_over_the_other_operands_warps():
    mfma = AMDMfmaEncodingAttr(3, (2, 2), (32, 32, 8), False)
    a = layout_map(DotOperandEncodingAttr(0, mfma, 4), (64, 16))
    assert a.bases["warp"] == [(0, 0), (32, 0)]


def test_mfma_maps_are_the_shared_encoding_layouts():
    # The analyses and the lowering read the same maps, slices of mfma parents included.
    mfma = AMDMfmaEncodingAttr(3, (2, 2), (32, 32, 8), False)
    operand = DotOperandEncodingAttr(1, mfma, 4)
    assert encoding_layout(mfma, (64, 64)) == layout_map(mfma, (64, 64))
    assert encoding_layout(operand, (16, 64)) == layout_map(operand, (16, 64))
    rows = encoding_layout(SliceEncodingAttr(1, mfma), (64,))
    assert rows.bases["register"] == [(1,), (2,), (8,), (16,)]
    assert rows.bases["lane"] == [(0,)] * 5 + [(4,)]
    assert rows.bases["warp"] == [(0,), (32,)]


def test_blocked_reshape_merges_minor_dims_and_is_symmetric():
    src = BlockedEncodingAttr((1, 4), (16, 2), (1, 1), (1, 0))
    dst = blocked_reshape_encoding(src, (16, 8), (128,))
    assert dst == BlockedEncodingAttr((4,), (32,), (1,), (0,))
    assert blocked_reshape_encoding(dst, (128,), (16, 8)) == src


def test_blocked_reshape_refuses_lanes_wrapping_a_minor_dim():
    # 4 lanes of 4 elements cover 16 > 8 columns: no blocked layout of 128 holds the same.
    src = BlockedEncodingAttr((1, 4), (8, 4), (1, 1), (1, 0))
    assert blocked_reshape_encoding(src, (16, 8), (128,)) is None


def test_fp4_unpacking_doubles_and_halves_registers_along_the_axis():
    src = BlockedEncodingAttr((1, 2), (32, 1), (4, 1), (1, 0))
    out = fp4_to_fp_encoding(src, (128, 16), 1, forward=True)
    assert out == BlockedEncodingAttr((1, 4), (32, 1), (4, 1), (1, 0))
    assert fp4_to_fp_encoding(out, (128, 32), 1, forward=False) == src
    one = BlockedEncodingAttr((1, 1), (32, 1), (4, 1), (1, 0))
    assert fp4_to_fp_encoding(one, (128, 32), 1, forward=False) is None
