"""Tensor-memory layouts on hand-worked cases: the (row, col) map of a
``#ttng.tensor_memory_encoding`` buffer and which register layouts its loads and stores accept
(`tmem_access_compatible`, Triton's rule), with the cases it must refuse."""

from __future__ import annotations

from tilecraft.dialects.ttng import gen as ttng
from tilecraft.dialects.ttng import tensor_memory_layout, tmem_access_compatible
from tilecraft.generated.ttg import BlockedEncodingAttr, LinearEncodingAttr, MemDescType
from tilecraft.ir import RankedTensorType
from tilecraft.ir.types import bf16, f16, f32

TMEM = ttng.TensorMemorySpaceAttr()


def buffer(shape, element, block_m=128, block_n=64, col_stride=1) -> MemDescType:
    encoding = ttng.TensorMemoryEncodingAttr(block_m, block_n, col_stride)
    return MemDescType(shape, element, encoding, TMEM, mutable_memory=True)


def linear(register, lane, warp=((32, 0), (64, 0))) -> LinearEncodingAttr:
    return LinearEncodingAttr(tuple(register), tuple(lane), tuple(warp), ())


COLUMNS = [(0, 1 << i) for i in range(6)]
ROWS = [(1 << i, 0) for i in range(5)]


def test_block_m_128_is_rows_by_columns():
    layout = tensor_memory_layout((128, 64), ttng.TensorMemoryEncodingAttr(128, 64, 1))
    assert layout.bases["row"] == [(1 << i, 0) for i in range(7)]
    assert layout.bases["col"] == COLUMNS


def test_block_m_64_puts_row_16_on_the_next_columns_and_col_stride_widens_elements():
    layout = tensor_memory_layout((64, 128), ttng.TensorMemoryEncodingAttr(64, 64, 2))
    # rows 0-15 of each 32-row quarter; row bit 4 takes the second 64 columns
    assert layout.bases["row"] == [(1, 0), (2, 0), (4, 0), (8, 0), (0, 64), (16, 0), (32, 0)]
    assert layout.bases["col"] == [(0, 0)] + COLUMNS  # two columns per element


def test_one_row_per_lane_is_the_32x32b_message():
    rows = BlockedEncodingAttr((1, 64), (32, 1), (4, 1), (0, 1))
    assert tmem_access_compatible(RankedTensorType((128, 64), f32, rows),
                                  buffer((128, 64), f32))
    # f16 with two columns per element: stored unpacked
    assert tmem_access_compatible(RankedTensorType((128, 64), f16, rows),
                                  buffer((128, 64), f16, col_stride=2))


def test_warps_must_hold_rows_32_and_64():
    swapped = linear(COLUMNS, ROWS, ((64, 0), (32, 0)))
    assert not tmem_access_compatible(RankedTensorType((128, 64), f32, swapped),
                                      buffer((128, 64), f32))
    two_warps = BlockedEncodingAttr((1, 64), (32, 1), (2, 2), (0, 1))
    assert not tmem_access_compatible(RankedTensorType((128, 64), f32, two_warps),
                                      buffer((128, 64), f32))


def test_16x256b_message_and_packing_of_bf16_pairs():
    m256 = linear([(0, 1), (8, 0), (16, 0), (0, 8), (0, 16), (0, 32)],
                  [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)])
    assert tmem_access_compatible(RankedTensorType((128, 64), f32, m256),
                                  buffer((128, 64), f32))
    assert tmem_access_compatible(RankedTensorType((128, 64), bf16, m256),
                                  buffer((128, 64), bf16))
    reordered = linear([(0, 1), (8, 0), (16, 0), (0, 8), (0, 16), (0, 32)],
                       [(1, 0), (2, 0), (4, 0), (0, 2), (0, 4)])
    assert not tmem_access_compatible(RankedTensorType((128, 64), f32, reordered),
                                      buffer((128, 64), f32))


def test_16x32bx2_needs_a_second_half_at_a_nonzero_offset():
    halves = linear(COLUMNS[:5] + [(16, 0)], ROWS[:4] + [(0, 32)])
    assert tmem_access_compatible(RankedTensorType((128, 64), f32, halves),
                                  buffer((128, 64), f32))
    repeated = linear(COLUMNS + [(16, 0)], ROWS[:4] + [(0, 0)])
    assert not tmem_access_compatible(RankedTensorType((128, 64), f32, repeated),
                                      buffer((128, 64), f32))
