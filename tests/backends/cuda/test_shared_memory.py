"""How the CUDA lowering reaches tensors in shared memory, decided from the layout maps alone
(no GPU): vector widths of stores and loads, and when ``ldmatrix`` (plain or transposed) can
read an mma operand."""

from __future__ import annotations

import pytest

from tilecraft.backends.cuda.shared_memory import access_plan, ldmatrix_plan
from tilecraft.layouts import (blocked_layout, fma_dot_operand_layout, Blocked,
                               nvidia_mma_v2_dot_operand_layout, swizzled_shared_layout)


def _shared(shape, order, vec=8, per_phase=1, max_phase=8):
    return swizzled_shared_layout(shape, vec, per_phase, max_phase, order)


def test_rows_of_eight_halves_are_stored_as_16_byte_vectors() -> None:
    shape = (128, 64)
    source = blocked_layout(shape, [1, 8], [4, 8], [8, 1], [1, 0])
    plan = access_plan(_shared(shape, (1, 0)), source, 2, unique=True)
    assert plan.width == 8
    assert len(plan.starts) == source.in_dim_size("register") // 8


def test_a_swizzle_that_splits_vectors_limits_the_width() -> None:
    shape = (64, 64)
    source = blocked_layout(shape, [1, 8], [4, 8], [8, 1], [1, 0])
    plan = access_plan(_shared(shape, (1, 0), vec=2), source, 2, unique=True)
    assert plan.width == 2


def test_duplicated_registers_are_stored_once() -> None:
    # four rows of registers over a tensor of two rows: each element sits in two registers
    shape = (2, 8)
    source = blocked_layout(shape, [4, 8], [1, 32], [1, 1], [1, 0])
    plan = access_plan(_shared(shape, (1, 0), vec=1, max_phase=1), source, 4, unique=True)
    loaded = access_plan(_shared(shape, (1, 0), vec=1, max_phase=1), source, 4, unique=False)
    assert len(plan.starts) * plan.width < source.in_dim_size("register")
    assert len(loaded.starts) * loaded.width == source.in_dim_size("register")


@pytest.mark.parametrize("op_idx,order,transposed", [(0, (1, 0), False), (1, (1, 0), True),
                                                     (0, (0, 1), True), (1, (0, 1), False)])
def test_mma_operands_load_with_ldmatrix(op_idx, order, transposed) -> None:
    shape = (64, 64)
    operand = nvidia_mma_v2_dot_operand_layout(shape, [2, 4], op_idx, 2)
    plan = ldmatrix_plan(_shared(shape, order), operand)
    assert plan is not None and plan.transposed == transposed
    assert len(plan.constants) == operand.in_dim_size("register") // 8


def test_ldmatrix_plan_addresses_cover_each_row_once_per_group() -> None:
    """Every lane names a distinct 16-byte row within one group of 8 registers."""
    shape = (32, 32)
    operand = nvidia_mma_v2_dot_operand_layout(shape, [1, 1], 0, 2)
    plan = ldmatrix_plan(_shared(shape, (1, 0)), operand)
    rows = {plan.addresses.apply(lane=lane)[0] for lane in range(32)}
    assert len(rows) == 32 and all(row % 8 == 0 for row in rows)


def test_fma_operands_and_unswizzled_columns_do_not_use_ldmatrix() -> None:
    shape = (32, 32)
    parent = Blocked([1, 1], [4, 8], [2, 2], [1, 0])
    assert ldmatrix_plan(_shared(shape, (1, 0)), fma_dot_operand_layout(parent, 0, shape)) is None
    operand = nvidia_mma_v2_dot_operand_layout(shape, [2, 2], 0, 1)  # tf32: 32-bit elements
    assert ldmatrix_plan(_shared(shape, (1, 0)), operand) is None
