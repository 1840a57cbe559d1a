"""Shared layouts over CTAs and with padding (`tilecraft.layouts.shared`), and the register
pairs that fp4 unpacking joins (`unjoin_registers`)."""

from __future__ import annotations

from tilecraft.layouts import LinearLayout, blocked_layout, swizzled_shared_layout
from tilecraft.layouts.distributed import unjoin_registers
from tilecraft.layouts.shared import (basis_order, identity_bases, padded_offset, padded_size,
                                      per_cta_shape, with_cta_layout)


def test_identity_bases_walk_the_order():
    assert identity_bases((4, 2), (1, 0)) == ((0, 1), (1, 0), (2, 0))
    assert identity_bases((4, 2), (0, 1)) == ((1, 0), (2, 0), (0, 1))
    assert identity_bases((1, 1), (1, 0)) == ()


def test_basis_order_skips_zero_bases_and_fills_in_reverse():
    assert basis_order(((0, 0), (1, 0)), 2) == (0, 1)
    assert basis_order(((0, 0, 1),), 3) == (2, 1, 0)
    assert basis_order((), 2) == (1, 0)


def test_padding_follows_each_interval():
    # [2:+1, 4:+2]: e0 e1 p e2 e3 p p p e4 e5 ...
    assert [padded_offset(i, (2, 4), (1, 2)) for i in range(6)] == [0, 1, 3, 4, 8, 9]
    # No padding after the last element.
    assert padded_size(16, (4,), (4,)) == 28
    assert padded_size(6, (4,), (4,)) == 10


def test_ctas_split_the_shape():
    assert per_cta_shape(((0, 1),), (8, 16)) == (8, 8)
    assert per_cta_shape(((0, 0),), (8, 16)) == (8, 16)
    # A CTA basis beyond the shape makes copies.
    assert per_cta_shape(((16, 0),), (8, 16)) == (8, 16)


def test_with_cta_layout_places_ctas_after_the_cta_tile():
    cta = swizzled_shared_layout((8, 8), 1, 1, 1, (1, 0))
    layout = with_cta_layout(cta, ((0, 1),), (8, 16))
    assert layout.bases["block"] == [(0, 8)]
    assert layout.out_dims == {"dim0": 8, "dim1": 16}
    assert layout.is_invertible()
    copies = with_cta_layout(swizzled_shared_layout((8, 16), 1, 1, 1, (1, 0)), ((0, 0),), (8, 16))
    assert copies.free_variable_masks()["block"] == 1


def test_unjoin_registers_halves_the_axis():
    wide = blocked_layout((64, 64), (1, 8), (8, 4), (4, 1), (1, 0))
    assert unjoin_registers(wide, 1) == blocked_layout((64, 32), (1, 4), (8, 4), (4, 1), (1, 0))
    assert unjoin_registers(wide, 0) is None


def test_unjoin_registers_keeps_other_input_dims():
    layout = LinearLayout({"register": [(0, 2), (0, 1)], "lane": [(1, 0), (0, 4)]},
                          {"dim0": 2, "dim1": 8})
    assert unjoin_registers(layout, 1) == LinearLayout(
        {"register": [(0, 1)], "lane": [(1, 0), (0, 2)]}, {"dim0": 2, "dim1": 4})
