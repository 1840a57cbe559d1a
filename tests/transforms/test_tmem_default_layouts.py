"""The register layouts tensor-memory loads and stores use by default (`default_tmem_layout`,
Triton's getDefaultLayoutForTmemLdSt) on hand-worked cases, and the (row, col) map of block
scales in tensor memory; every default layout is one the accesses accept."""

from __future__ import annotations

import pytest

from tilecraft.dialects.ttng import gen as ttng
from tilecraft.dialects.ttng import (PREFER_16X256_ENV, default_tmem_layout,
                                     tensor_memory_scales_layout, tmem_access_compatible)
from tilecraft.dialects.ttg_inference import linear_attr
from tilecraft.generated.ttg import MemDescType
from tilecraft.ir import IntegerType, RankedTensorType
from tilecraft.ir.types import f16, f32

TMEM = ttng.TensorMemorySpaceAttr()
ROWS = [(1 << i, 0) for i in range(5)]


def accumulator(shape, element=f32, block_m=128, block_n=256) -> MemDescType:
    encoding = ttng.TensorMemoryEncodingAttr(block_m, block_n, 32 // element.width)
    return MemDescType(shape, element, encoding, TMEM, mutable_memory=True)


def scales(shape) -> MemDescType:
    return MemDescType(shape, IntegerType(8), ttng.TensorMemoryScalesEncodingAttr(()), TMEM)


def test_32x32b_puts_rows_on_lanes_and_columns_in_registers(monkeypatch):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    layout = default_tmem_layout(accumulator((128, 256)), 4)
    assert layout.bases["lane"] == ROWS
    assert layout.bases["register"] == [(0, 1 << i) for i in range(8)]
    assert layout.bases["warp"] == [(32, 0), (64, 0)]


def test_extra_warps_split_the_columns(monkeypatch):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    layout = default_tmem_layout(accumulator((128, 128)), 8)
    assert layout.bases["register"] == [(0, 1 << i) for i in range(6)]
    assert layout.bases["warp"] == [(32, 0), (64, 0), (0, 64)]


def test_16x256b_when_preferred(monkeypatch):
    monkeypatch.setenv(PREFER_16X256_ENV, "1")
    layout = default_tmem_layout(accumulator((128, 256)), 4)
    assert layout.bases["register"] == [(0, 1), (8, 0), (0, 8), (0, 16), (0, 32), (0, 64),
                                        (0, 128), (16, 0)]
    assert layout.bases["lane"] == [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]


def test_block_m_64_reads_the_second_half_of_the_columns_with_lanes_16_to_31(monkeypatch):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    layout = default_tmem_layout(accumulator((64, 128), block_m=64, block_n=128), 4)
    assert layout.bases["lane"] == [(1, 0), (2, 0), (4, 0), (8, 0), (0, 64)]
    assert layout.bases["register"] == [(0, 1 << i) for i in range(6)]
    assert layout.bases["warp"] == [(16, 0), (32, 0)]


def test_f16_accumulator_is_unpacked_two_columns_per_register_pair(monkeypatch):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    layout = default_tmem_layout(accumulator((128, 64), element=f16, block_n=64), 4)
    assert layout.bases["register"][0] == (0, 1)
    assert layout.bases["lane"] == ROWS


def test_scales_pack_four_bytes_and_broadcast_over_warps(monkeypatch):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    memory = tensor_memory_scales_layout((128, 8))
    assert memory.bases["row"] == ROWS + [(0, 0), (0, 0)]
    assert memory.bases["col"] == [(0, 1), (0, 2), (32, 0), (64, 0), (0, 4)]
    layout = default_tmem_layout(scales((128, 8)), 8)
    assert layout.bases["register"] == [(0, 1), (0, 2), (32, 0), (64, 0)]
    assert layout.bases["warp"] == [(0, 0), (0, 0), (0, 4)]


def test_scales_narrower_than_a_chunk_drop_the_missing_columns():
    memory = tensor_memory_scales_layout((128, 2))
    assert memory.bases["col"] == [(0, 1), (0, 0), (32, 0), (64, 0)]


@pytest.mark.parametrize("shape,element,block_m,block_n,warps", [
    ((128, 256), f32, 128, 256, 4), ((128, 128), f32, 128, 128, 8),
    ((256, 128), f32, 128, 128, 4), ((64, 64), f32, 64, 64, 4), ((128, 64), f16, 128, 64, 4)])
def test_default_layouts_are_accepted(monkeypatch, shape, element, block_m, block_n, warps):
    monkeypatch.delenv(PREFER_16X256_ENV, raising=False)
    memdesc = accumulator(shape, element, block_m, block_n)
    layout = default_tmem_layout(memdesc, warps)
    tensor = RankedTensorType(shape, element, linear_attr(layout))
    assert tmem_access_compatible(tensor, memdesc)
