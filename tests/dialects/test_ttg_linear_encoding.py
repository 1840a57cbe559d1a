"""The map of a ``#ttg.linear`` layout over a tensor shape (Triton's
``LinearEncodingAttr::toLinearLayout``): fitted to the shape, larger or smaller."""

from __future__ import annotations

from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.ir import parse_attribute

LINEAR = ("#ttg.linear<{register = [[0, 1], [0, 2], [4, 0]], lane = [[1, 0], [2, 0]], "
          "warp = [[0, 4]], block = []}>")


def test_the_shape_of_the_map_is_kept():
    layout = encoding_layout(parse_attribute(LINEAR), (8, 8))
    assert layout.out_dims == {"dim0": 8, "dim1": 8}
    assert layout.bases["register"] == [(0, 1), (0, 2), (4, 0)]
    assert layout.bases["lane"] == [(1, 0), (2, 0)]
    assert layout.bases["warp"] == [(0, 4)]


def test_a_smaller_shape_broadcasts_and_drops_registers():
    # dim0 of 4: the register basis [4, 0] leaves the registers, nothing else is dropped; dim1
    # of 2: the register basis [0, 2] goes too, and the warp basis [0, 4] broadcasts.
    layout = encoding_layout(parse_attribute(LINEAR), (4, 2))
    assert layout.out_dims == {"dim0": 4, "dim1": 2}
    assert layout.bases["register"] == [(0, 1)]
    assert layout.bases["lane"] == [(1, 0), (2, 0)]
    assert layout.bases["warp"] == [(0, 0)]


def test_a_larger_shape_repeats_over_registers_in_register_order():
    # The registers move along dim1 first, then dim0: dim1 grows first.
    layout = encoding_layout(parse_attribute(LINEAR), (16, 16))
    assert layout.out_dims == {"dim0": 16, "dim1": 16}
    assert layout.bases["register"] == [(0, 1), (0, 2), (4, 0), (0, 8), (8, 0)]


def test_registers_broadcast_by_the_attribute_stay():
    linear = ("#ttg.linear<{register = [[0, 0], [0, 1]], lane = [[1, 0]], warp = [], "
              "block = []}>")
    layout = encoding_layout(parse_attribute(linear), (2, 2))
    assert layout.bases["register"] == [(0, 0), (0, 1)]
