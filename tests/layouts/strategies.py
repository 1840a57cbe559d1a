"""Hypothesis strategies for random linear layouts."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from tilecraft.layouts import LinearLayout


@st.composite
def layouts(
    draw: st.DrawFn,
    in_dims: Sequence[str] | dict[str, int] = ("register", "lane", "warp"),
    out_dims: dict[str, int] | None = None,
    max_in_bits: int = 4,
) -> LinearLayout:
    """A random layout; `in_dims` as names (random sizes) or name -> size; `out_dims` random
    (dim0.., 0-3 bits each) unless given."""
    if out_dims is None:
        rank = draw(st.integers(1, 3))
        out_dims = {f"dim{i}": 1 << draw(st.integers(0, 3)) for i in range(rank)}
    if not isinstance(in_dims, dict):
        in_dims = {d: 1 << draw(st.integers(0, max_in_bits)) for d in in_dims}
    bases = {
        d: [
            tuple(draw(st.integers(0, s - 1)) for s in out_dims.values())
            for _ in range(size.bit_length() - 1)
        ]
        for d, size in in_dims.items()
    }
    return LinearLayout(bases, out_dims)


@st.composite
def bijections(draw: st.DrawFn, max_bits: int = 7) -> LinearLayout:
    """A random bijective layout from register/lane/warp onto dim0.. (same total bits)."""
    rank = draw(st.integers(1, 3))
    out_bits = [draw(st.integers(0, max_bits // rank)) for _ in range(rank)]
    total = sum(out_bits)
    # Columns of an invertible matrix: unit vectors mixed by random column operations.
    columns = [1 << i for i in range(total)]
    if total > 1:
        for i, j in draw(st.lists(st.tuples(st.integers(0, total - 1),
                                            st.integers(0, total - 1)), max_size=12)):
            if i != j:
                columns[j] ^= columns[i]
    columns = draw(st.permutations(columns))
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=2, max_size=2)))
    groups = {"register": columns[: cuts[0]], "lane": columns[cuts[0]: cuts[1]],
              "warp": columns[cuts[1]:]}
    shifts = [sum(out_bits[:k]) for k in range(rank)]

    def unpack(value: int) -> tuple[int, ...]:
        return tuple((value >> s) & ((1 << b) - 1) for s, b in zip(shifts, out_bits))

    return LinearLayout({d: [unpack(c) for c in cs] for d, cs in groups.items()},
                        {f"dim{k}": 1 << b for k, b in enumerate(out_bits)})


def inputs(layout: LinearLayout) -> st.SearchStrategy[dict[str, int]]:
    """A random input of `layout`."""
    return st.fixed_dictionaries(
        {d: st.integers(0, layout.in_dim_size(d) - 1) for d in layout.in_dims}
    )
