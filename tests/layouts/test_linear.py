"""LinearLayout: hand-worked cases and algebraic properties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.layouts.strategies import bijections, inputs, layouts
from tilecraft.layouts import LinearLayout, identity_1d, identity_nd, zeros_1d

settings.register_profile("layouts", max_examples=60, deadline=None)
settings.load_profile("layouts")


def all_inputs(layout: LinearLayout) -> list[dict[str, int]]:
    ranges = [range(layout.in_dim_size(d)) for d in layout.in_dims]
    return [dict(zip(layout.in_dims, v)) for v in itertools.product(*ranges)]


def xor_inputs(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {d: a[d] ^ b[d] for d in a}


# ------------------------------------------------------------------------- hand-worked cases


def test_structure_and_apply() -> None:
    layout = LinearLayout(
        {"register": [(0, 1), (2, 0)], "lane": [(1, 1)]}, {"dim0": 4, "dim1": 2}
    )
    assert layout.in_dims == ("register", "lane")
    assert layout.out_dim_names == ("dim0", "dim1")
    assert layout.in_dim_size("register") == 4 and layout.in_dim_bits("register") == 2
    assert layout.in_dim_size("warp") == 1 and layout.in_dim_bits("warp") == 0
    assert layout.out_dim_size("dim0") == 4 and layout.out_dim_bits("dim0") == 2
    assert layout.basis("lane", 0) == (1, 1)
    assert layout.apply(register=3) == (2, 1)
    assert layout.apply(register=3, lane=1) == (3, 0)
    assert layout.apply(warp=0) == (0, 0)
    with pytest.raises(KeyError):
        layout.apply(warp=1)
    with pytest.raises(ValueError, match="outside"):
        layout.apply(register=4)
    with pytest.raises(KeyError):
        layout.out_dim_size("dim2")


def test_constructor_validates() -> None:
    with pytest.raises(ValueError, match="power of two"):
        LinearLayout({}, {"dim0": 3})
    with pytest.raises(ValueError, match="coordinates"):
        LinearLayout({"register": [(1,)]}, {"dim0": 4, "dim1": 4})
    with pytest.raises(ValueError, match="outside output dim 'dim0'"):
        LinearLayout({"register": [(4,)]}, {"dim0": 4})


def test_eq_hash_repr() -> None:
    a = LinearLayout({"register": [(1,), (2,)]}, {"dim0": 4})
    assert a == identity_1d(4, "register", "dim0")
    assert hash(a) == hash(identity_1d(4, "register", "dim0"))
    assert a != identity_1d(4, "lane", "dim0")
    assert a != LinearLayout({"register": [(1,), (2,)]}, {"dim0": 8})
    assert repr(a) == "LinearLayout({'register': [(1,), (2,)]}, {'dim0': 4})"
    assert eval(repr(a)) == a
    assert LinearLayout(a.bases, a.out_dims) == a


def test_product_examples() -> None:
    # Same in and out dim: the outer bits come above the inner ones.
    assert identity_1d(4, "i", "o") * identity_1d(2, "i", "o") == identity_1d(8, "i", "o")
    # x % 4 over x in [0, 8), and x / 2.
    assert (identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")).bases == {"i": [(1,), (2,), (0,)]}
    assert (zeros_1d(2, "i", "o") * identity_1d(4, "i", "o")).bases == {"i": [(0,), (1,), (2,)]}
    # Different out dims: (x % 4, x / 4).
    mixed = identity_1d(4, "i", "o1") * identity_1d(8, "i", "o2")
    assert mixed.out_dims == {"o1": 4, "o2": 8}
    assert mixed.apply(i=13) == (1, 3)
    # Disjoint dims: a 2-D identity.
    two = identity_1d(4, "i1", "o1") * identity_1d(8, "i2", "o2")
    assert two.in_dims == ("i1", "i2") and two.apply(i1=3, i2=5) == (3, 5)
    empty = LinearLayout({}, {})
    assert empty * two == two == two * empty


def test_product_merges_dim_orders() -> None:
    a = LinearLayout({"a": [], "b": []}, {"x": 1, "y": 1})
    b = LinearLayout({"b": [], "c": []}, {"y": 1, "z": 1})
    assert (a * b).in_dims == ("a", "b", "c")
    assert (a * b).out_dim_names == ("x", "y", "z")
    with pytest.raises(ValueError, match="disagree"):
        LinearLayout({}, {"x": 1, "y": 1}) * LinearLayout({}, {"y": 1, "x": 1})


def test_compose_example() -> None:
    # (register, lane) -> dim0 = reg + 4*lane, then dim0 -> offset with the two halves swapped.
    inner = identity_1d(4, "register", "dim0") * identity_1d(2, "lane", "dim0")
    outer = LinearLayout({"dim0": [(1,), (2,), (0,)]}, {"offset": 4})
    composed = inner.compose(outer)
    assert composed.bases == {"register": [(1,), (2,)], "lane": [(0,)]}
    assert composed.out_dims == {"offset": 4}
    with pytest.raises(ValueError, match="larger"):
        identity_1d(8, "r", "dim0").compose(identity_1d(4, "dim0", "o"))


def test_free_variables_and_representative() -> None:
    # lane bit 0 duplicates register bit 1 (not zero, yet free); warp bit 0 is a broadcast.
    layout = LinearLayout(
        {"register": [(1,), (2,)], "lane": [(2,), (4,)], "warp": [(0,)]}, {"dim0": 8}
    )
    assert layout.free_variable_masks() == {"register": 0, "lane": 0b01, "warp": 0b1}
    inv = layout.pseudo_invert()
    assert inv.in_dims == ("dim0",)
    assert inv.out_dims == {"register": 4, "lane": 4, "warp": 2}
    # Element 6 = 2 ^ 4 is owned by (reg 2, lane 2) and (reg 0, lane 3), each in both warps:
    # the representative has lane bit 0 and warp bit 0 clear.
    assert inv.apply(dim0=6) == (2, 2, 0)
    assert inv.apply(dim0=2) == (2, 0, 0)


def test_invert_and_compose_direction() -> None:
    src = identity_1d(4, "register", "dim0") * identity_1d(8, "lane", "dim0")
    dst = identity_1d(8, "lane", "dim0") * identity_1d(4, "register", "dim0")
    conv = src.invert_and_compose(dst)
    assert conv.in_dims == dst.in_dims and conv.out_dim_names == src.in_dims
    # dst lane 5 holds element 5 = src register 1, lane 1.
    assert conv.apply(lane=5) == (1, 1)
    with pytest.raises(ValueError, match="not reached"):
        zeros_1d(4, "register", "dim0", 4).invert_and_compose(identity_1d(4, "lane", "dim0"))


def test_invert_rejects_non_bijections() -> None:
    with pytest.raises(ValueError, match="bijective"):
        zeros_1d(2, "register", "dim0", 2).invert()
    with pytest.raises(ValueError, match="surjective"):
        zeros_1d(2, "register", "dim0", 2).pseudo_invert()
    assert identity_1d(8, "register", "dim0").invert() == identity_1d(8, "dim0", "register")


def test_sublayout_transpose_reshape() -> None:
    layout = LinearLayout(
        {"register": [(0, 1), (2, 0)], "lane": [(1, 1)], "warp": [(0, 2)]},
        {"dim0": 4, "dim1": 4},
    )
    assert layout.sublayout(["lane", "register"], ["dim1"]) == LinearLayout(
        {"register": [(1,), (0,)], "lane": [(1,)]}, {"dim1": 4}
    )
    t = layout.transpose_outs(["dim1", "dim0"])
    assert t.basis("register", 1) == (0, 2) and t.out_dim_names == ("dim1", "dim0")
    assert layout.transpose_ins(["warp", "register", "lane"]).in_dims == ("warp", "register", "lane")
    # dim0 is most minor: (d0, d1) -> d0 + 4 * d1.
    flat = layout.reshape_outs({"offset": 16})
    assert flat.bases == {"register": [(4,), (2,)], "lane": [(5,)], "warp": [(8,)]}
    assert flat.reshape_outs({"dim0": 4, "dim1": 4}) == layout
    with pytest.raises(ValueError, match="points"):
        layout.reshape_outs({"offset": 8})
    assert layout.rename_in_dim("warp", "block").in_dims == ("register", "lane", "block")


def test_surjective_injective() -> None:
    assert identity_nd({"a": 4, "b": 2}).is_invertible()
    wide = identity_1d(4, "register", "dim0") * zeros_1d(2, "lane", "dim0")
    assert wide.is_surjective() and not wide.is_injective()
    narrow = LinearLayout({"register": [(2,)]}, {"dim0": 4})
    assert narrow.is_injective() and not narrow.is_surjective()


# ---------------------------------------------------------------------------- properties


@given(st.data())
def test_apply_is_linear(data: st.DataObject) -> None:
    layout = data.draw(layouts())
    a = data.draw(inputs(layout))
    b = data.draw(inputs(layout))
    xa, xb = layout.apply(**a), layout.apply(**b)
    assert layout.apply(**xor_inputs(a, b)) == tuple(p ^ q for p, q in zip(xa, xb))


@given(st.data())
def test_compose_matches_apply_and_is_associative(data: st.DataObject) -> None:
    first = data.draw(layouts())
    second = data.draw(layouts(in_dims=first.out_dims))
    third = data.draw(layouts(in_dims=second.out_dims))
    assert first.compose(second).compose(third) == first.compose(second.compose(third))
    x = data.draw(inputs(first))
    middle = dict(zip(first.out_dim_names, first.apply(**x)))
    assert first.compose(second).apply(**x) == second.apply(**middle)


@given(st.data())
def test_product_matches_definition(data: st.DataObject) -> None:
    inner = data.draw(layouts(out_dims={"dim0": 4, "dim1": 2}, max_in_bits=3))
    outer = data.draw(layouts(out_dims={"dim0": 2, "dim1": 4}, max_in_bits=3))
    product = inner * outer
    assert product.out_dims == {"dim0": 8, "dim1": 8}
    x = data.draw(inputs(inner))
    y = data.draw(inputs(outer))
    combined = {d: x[d] | y[d] << inner.in_dim_bits(d) for d in product.in_dims}
    (i0, i1), (o0, o1) = inner.apply(**x), outer.apply(**y)
    assert product.apply(**combined) == (i0 ^ o0 << 2, i1 ^ o1 << 1)


@given(bijections())
def test_invert_is_two_sided_inverse(layout: LinearLayout) -> None:
    inverse = layout.invert()
    assert layout.compose(inverse) == identity_nd(
        {d: layout.in_dim_size(d) for d in layout.in_dims}
    )
    assert inverse.compose(layout) == identity_nd(layout.out_dims)


@given(layouts(max_in_bits=5))
def test_pseudo_invert_is_right_inverse_to_representatives(layout: LinearLayout) -> None:
    if not layout.is_surjective():
        with pytest.raises(ValueError):
            layout.pseudo_invert()
        return
    inverse = layout.pseudo_invert()
    assert inverse.compose(layout) == identity_nd(layout.out_dims)
    masks = layout.free_variable_masks()
    for point in all_inputs(inverse):
        owner = inverse.apply(**point)
        assert all(v & masks[d] == 0 for d, v in zip(layout.in_dims, owner))


@given(layouts(in_dims=("register", "lane"), max_in_bits=3))
def test_each_element_has_one_representative(layout: LinearLayout) -> None:
    masks = layout.free_variable_masks()
    owners: dict[tuple[int, ...], int] = {}
    for x in all_inputs(layout):
        point = layout.apply(**x)
        owners.setdefault(point, 0)
        if all(x[d] & masks[d] == 0 for d in layout.in_dims):
            owners[point] += 1
    assert set(owners.values()) == {1}
    free_bits = sum(bin(m).count("1") for m in masks.values())
    assert len(owners) == 1 << (layout.total_in_bits - free_bits)


@given(st.data())
def test_invert_and_compose_finds_an_owner(data: st.DataObject) -> None:
    layout = data.draw(layouts(max_in_bits=5))
    other = data.draw(layouts(in_dims=("register", "lane"), out_dims=layout.out_dims))
    image = {layout.apply(**x) for x in all_inputs(layout)}
    if not all(other.apply(**x) in image for x in all_inputs(other)):
        with pytest.raises(ValueError):
            layout.invert_and_compose(other)
        return
    conv = layout.invert_and_compose(other)
    x = data.draw(inputs(other))
    owner = dict(zip(conv.out_dim_names, conv.apply(**x)))
    assert layout.apply(**owner) == other.apply(**x)


@given(layouts())
def test_reshape_and_transpose_round_trip(layout: LinearLayout) -> None:
    names = layout.out_dim_names
    flat = layout.reshape_outs({"offset": 1 << layout.total_out_bits})
    assert flat.reshape_outs(layout.out_dims) == layout
    assert layout.transpose_outs(names[::-1]).transpose_outs(names) == layout
