"""Linear layouts: maps from the bits of named hardware indices to tensor coordinates over GF(2).

Conventions used throughout `tilecraft.layouts`:

* **Input bits.** An input dimension (``register``, ``lane``, ``warp``, ``block``, ``offset``,
  ...) of size ``2**n`` has ``n`` bases; ``bases[d][i]`` is the image of the input index whose
  only set bit is bit ``i`` (value ``2**i``) of dimension ``d``. The image of any input is the
  XOR of the images of its set bits, so ``apply(register=5) == basis("register", 0) ^
  basis("register", 2)`` coordinate by coordinate.
* **Global bit order.** Where the input bits of all dimensions are ranked together (free
  variables, pseudo-inverses, representatives), the order is: the in-dims in the layout's order
  (``in_dims``; every constructor in this package lists ``register``, ``lane``, ``warp``), and
  within a dim, bit 0 first. "Lower" bits come first in that ranking.
* **Output dims.** Each output dimension has a power-of-two size; a basis holds one coordinate
  per output dim, in the order of ``out_dim_names``. Where outputs are packed into one integer
  (``reshape_outs``), the first output dim is the most minor, as in Triton.
* **Duplicates.** An input bit is *free* when its basis is in the span of the bases of the bits
  ranked before it (a zero basis is the common case: a broadcast register, lane or warp). Every
  element of the image has exactly one owner whose free bits are all zero: that owner is the
  *representative* (the one that stores, the one ``pseudo_invert`` returns). Because registers
  rank first, the representative prefers registers over lanes over warps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["LinearLayout", "identity_1d", "identity_nd", "zeros_1d"]


def _log2(size: int, what: str) -> int:
    if not isinstance(size, int) or size < 1 or size & (size - 1):
        raise ValueError(f"{what} must be a power of two, got {size!r}")
    return size.bit_length() - 1


def _merge_orders(first: Sequence[str], second: Sequence[str]) -> tuple[str, ...]:
    """The shortest sequence that holds both as subsequences, biased towards `first`.

    Names common to both must appear in the same relative order in each.
    """
    common = [n for n in first if n in second]
    if common != [n for n in second if n in first]:
        raise ValueError(f"dimension orders {tuple(first)} and {tuple(second)} disagree")
    result: list[str] = []
    j = 0
    for name in first:
        if name in second:
            while second[j] != name:
                result.append(second[j])
                j += 1
            j += 1
        result.append(name)
    result.extend(second[j:])
    return tuple(result)


class _Solver:
    """Row-echelon form of a set of packed vectors, each tagged with the columns that built it."""

    __slots__ = ("rows",)

    def __init__(self, columns: Iterable[int]) -> None:
        # rows[top bit] = (vector whose highest set bit is `top bit`, mask of columns XORed in it)
        self.rows: dict[int, tuple[int, int]] = {}
        for col, vec in enumerate(columns):
            self.add(vec, 1 << col)

    def add(self, vec: int, combo: int) -> bool:
        """Insert `vec`; return False when it is in the span of the rows already there."""
        while vec:
            top = vec.bit_length() - 1
            row = self.rows.get(top)
            if row is None:
                self.rows[top] = (vec, combo)
                return True
            vec ^= row[0]
            combo ^= row[1]
        return False

    def solve(self, target: int) -> int | None:
        """A mask of columns whose XOR is `target` (using pivot columns only), or None."""
        combo = 0
        while target:
            row = self.rows.get(target.bit_length() - 1)
            if row is None:
                return None
            target ^= row[0]
            combo ^= row[1]
        return combo


class LinearLayout:
    """A GF(2)-linear map from named input dimensions to named output coordinates.

    ``bases[in_dim][i]`` is the image of bit ``i`` of ``in_dim`` (one int per output dim, in the
    order of ``out_dims``); ``out_dims`` maps each output dim to its power-of-two size, in
    order. See the module docstring for the bit-order and representative conventions.
    Instances are immutable and hashable.
    """

    __slots__ = ("_bases", "_out_dims", "_shifts", "_packed", "_hash")

    _bases: dict[str, tuple[tuple[int, ...], ...]]
    _out_dims: dict[str, int]
    _shifts: tuple[int, ...]
    _packed: dict[str, tuple[int, ...]]
    _hash: int | None

    def __init__(
        self,
        bases: Mapping[str, Sequence[Sequence[int]]],
        out_dims: Mapping[str, int],
    ) -> None:
        out = dict(out_dims)
        shifts = []
        total = 0
        for name, size in out.items():
            shifts.append(total)
            total += _log2(size, f"size of output dim {name!r}")
        self._out_dims = out
        self._shifts = tuple(shifts)
        sizes = tuple(out.values())
        self._bases = {}
        self._packed = {}
        for in_dim, vectors in bases.items():
            checked = []
            packed = []
            for bit, vector in enumerate(vectors):
                vec = tuple(int(c) for c in vector)
                if len(vec) != len(sizes):
                    raise ValueError(
                        f"basis {bit} of {in_dim!r} has {len(vec)} coordinates, "
                        f"expected {len(sizes)} (one per output dim {tuple(out)})"
                    )
                for coord, size, name in zip(vec, sizes, out):
                    if not 0 <= coord < size:
                        raise ValueError(
                            f"basis {bit} of {in_dim!r}: coordinate {coord} is outside "
                            f"output dim {name!r} of size {size}"
                        )
                checked.append(vec)
                packed.append(self._pack(vec))
            self._bases[in_dim] = tuple(checked)
            self._packed[in_dim] = tuple(packed)
        self._hash = None

    # ----------------------------------------------------------------------------- structure

    @property
    def in_dims(self) -> tuple[str, ...]:
        """The input dimension names, in order."""
        return tuple(self._bases)

    @property
    def out_dim_names(self) -> tuple[str, ...]:
        """The output dimension names, in order."""
        return tuple(self._out_dims)

    @property
    def out_dims(self) -> dict[str, int]:
        """A fresh dict: output dim name -> size, in order."""
        return dict(self._out_dims)

    @property
    def bases(self) -> dict[str, list[tuple[int, ...]]]:
        """A fresh dict in the constructor's format (``LinearLayout(l.bases, l.out_dims) == l``)."""
        return {d: list(v) for d, v in self._bases.items()}

    def in_dim_bits(self, name: str) -> int:
        """The number of bits (bases) of input dim `name`; 0 if absent."""
        return len(self._bases.get(name, ()))

    def in_dim_size(self, name: str) -> int:
        """``2**in_dim_bits(name)``: 1 if `name` is not an input dim."""
        return 1 << self.in_dim_bits(name)

    def out_dim_bits(self, name: str) -> int:
        """log2 of the size of output dim `name` (KeyError if absent)."""
        return self.out_dim_size(name).bit_length() - 1

    def out_dim_size(self, name: str) -> int:
        """The size of output dim `name` (KeyError if absent)."""
        try:
            return self._out_dims[name]
        except KeyError:
            raise KeyError(f"{name!r} is not an output dim of {self.out_dim_names}") from None

    @property
    def total_in_bits(self) -> int:
        """The number of input bits over all input dims."""
        return sum(len(v) for v in self._bases.values())

    @property
    def total_out_bits(self) -> int:
        """log2 of the number of points of the output space."""
        return sum(s.bit_length() - 1 for s in self._out_dims.values())

    def basis(self, in_dim: str, bit: int) -> tuple[int, ...]:
        """The image of bit `bit` of `in_dim` (one coordinate per output dim)."""
        return self._bases[in_dim][bit]

    # --------------------------------------------------------------------------- evaluation

    def _pack(self, coords: Sequence[int]) -> int:
        value = 0
        for c, shift in zip(coords, self._shifts):
            value |= c << shift
        return value

    def _unpack(self, value: int) -> tuple[int, ...]:
        return tuple(
            (value >> shift) & (size - 1)
            for shift, size in zip(self._shifts, self._out_dims.values())
        )

    def _apply_packed(self, inputs: Mapping[str, int]) -> int:
        acc = 0
        for name, index in inputs.items():
            packed = self._packed.get(name)
            if packed is None:
                if index == 0:
                    continue
                raise KeyError(f"{name!r} is not an input dim of {self.in_dims}")
            if not 0 <= index < 1 << len(packed):
                raise ValueError(f"{name}={index} is outside [0, {1 << len(packed)})")
            bit = 0
            while index:
                if index & 1:
                    acc ^= packed[bit]
                index >>= 1
                bit += 1
        return acc

    def apply(self, **inputs: int) -> tuple[int, ...]:
        """The coordinates (one per output dim) of the given input; missing inputs are 0.

        An input dim the layout does not have may be passed only as 0.
        """
        return self._unpack(self._apply_packed(inputs))

    def _columns(self) -> list[int]:
        """The packed images of all input bits, in the global bit order."""
        return [v for packed in self._packed.values() for v in packed]

    def _split_columns(self, mask: int) -> tuple[int, ...]:
        """A mask over the global bit order, cut into one input index per input dim."""
        values = []
        for packed in self._packed.values():
            values.append(mask & ((1 << len(packed)) - 1))
            mask >>= len(packed)
        return tuple(values)

    # ------------------------------------------------------------------------------ algebra

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer ∘ self``: self's input dims, outer's output dims.

        Every output dim of self must be an input dim of `outer` (matched by name), no larger
        than it; input dims of `outer` that self does not produce are fed 0.
        """
        for name, size in self._out_dims.items():
            if name not in outer._bases:
                raise ValueError(f"compose: {name!r} is not an input dim of the outer layout")
            if size > outer.in_dim_size(name):
                raise ValueError(
                    f"compose: output dim {name!r} has size {size}, larger than the outer "
                    f"layout's input size {outer.in_dim_size(name)}"
                )
        names = self.out_dim_names
        bases = {
            in_dim: [outer.apply(**dict(zip(names, vec))) for vec in vectors]
            for in_dim, vectors in self._bases.items()
        }
        return LinearLayout(bases, outer._out_dims)

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Triton's product ``self * outer`` (self is the inner, more minor factor).

        In-dims and out-dims are each merged in order (common names keep their relative order,
        new ones of `outer` come after self's where the order leaves a choice). For each in-dim,
        self's bases come first, then `outer`'s; on an out-dim both have, `outer`'s coordinates
        are shifted above self's (the out-dim sizes multiply); on dims only one of them has,
        the other contributes zero coordinates.
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        in_names = _merge_orders(self.in_dims, outer.in_dims)
        out_names = _merge_orders(self.out_dim_names, outer.out_dim_names)
        out_dims = {
            n: self._out_dims.get(n, 1) * outer._out_dims.get(n, 1) for n in out_names
        }
        shift = {n: self._out_dims.get(n, 1).bit_length() - 1 for n in out_names}
        bases: dict[str, list[tuple[int, ...]]] = {}
        for in_dim in in_names:
            vectors = []
            for factor, shifted in ((self, False), (outer, True)):
                for vec in factor._bases.get(in_dim, ()):
                    coords = dict(zip(factor.out_dim_names, vec))
                    vectors.append(
                        tuple(coords.get(n, 0) << (shift[n] if shifted else 0) for n in out_names)
                    )
            bases[in_dim] = vectors
        return LinearLayout(bases, out_dims)

    def _solver(self) -> _Solver:
        return _Solver(self._columns())

    def _image_rank(self) -> int:
        return len(self._solver().rows)

    def is_surjective(self) -> bool:
        """Whether every point of the output space is the image of some input."""
        return self._image_rank() == self.total_out_bits

    def is_injective(self) -> bool:
        """Whether no two inputs map to the same point (no free variables)."""
        return self._image_rank() == self.total_in_bits

    def is_invertible(self) -> bool:
        """Whether the layout is a bijection."""
        return self.is_surjective() and self.is_injective()

    def free_variable_masks(self) -> dict[str, int]:
        """For each input dim, the mask of its *free* bits.

        A bit is free when its basis is in the span of the bases of the bits ranked before it
        (register before lane before warp, low bits first); zero bases (broadcast) are always
        free. Flipping free bits never leaves the set of owners of an element, and each element
        has exactly one owner with all free bits zero: its representative.
        """
        solver = _Solver(())
        masks = {}
        for in_dim, packed in self._packed.items():
            mask = 0
            for bit, vec in enumerate(packed):
                if not solver.add(vec, 0):
                    mask |= 1 << bit
            masks[in_dim] = mask
        return masks

    def _inputs_layout(self, columns: Sequence[int], in_dims: Mapping[str, int]) -> LinearLayout:
        """A layout from `in_dims` (name -> size) to self's inputs: column masks per basis."""
        bases: dict[str, list[tuple[int, ...]]] = {}
        it = iter(columns)
        for name, size in in_dims.items():
            bases[name] = [self._split_columns(next(it)) for _ in range(size.bit_length() - 1)]
        return LinearLayout(bases, {d: self.in_dim_size(d) for d in self._bases})

    def invert_and_compose(self, other: LinearLayout) -> LinearLayout:
        """``self⁻¹ ∘ other``: maps each input of `other` to the input of self that holds the
        same point (its representative when several do).

        The result has `other`'s input dims and self's input dims as output dims, and
        ``self.apply(**result(x)) == other.apply(x)`` for every x. Every output dim of `other`
        must be an output dim of self, no larger than it, and every point `other` reaches must
        be reached by self. For a conversion from `src` to `dst`, ``src.invert_and_compose(dst)``
        gives, for each dst (register, lane, warp), a src owner of the same element.

        Note the argument order: this is Triton's ``other.invertAndCompose(self)``.
        """
        for name, size in other._out_dims.items():
            if name not in self._out_dims:
                raise ValueError(f"invert_and_compose: {name!r} is not an output dim of self")
            if size > self._out_dims[name]:
                raise ValueError(
                    f"invert_and_compose: output dim {name!r} of size {size} is larger than "
                    f"self's ({self._out_dims[name]})"
                )
        solver = self._solver()
        names = other.out_dim_names
        columns = []
        for in_dim, vectors in other._bases.items():
            for bit, vec in enumerate(vectors):
                coords = dict(zip(names, vec))
                target = self._pack(tuple(coords.get(n, 0) for n in self._out_dims))
                combo = solver.solve(target)
                if combo is None:
                    raise ValueError(
                        f"invert_and_compose: the image of bit {bit} of {in_dim!r}, {vec}, is "
                        f"not reached by self"
                    )
                columns.append(combo)
        return self._inputs_layout(columns, {d: other.in_dim_size(d) for d in other._bases})

    def pseudo_invert(self) -> LinearLayout:
        """A right inverse R (``self ∘ R`` is the identity) of a surjective layout.

        R maps each point to its representative owner: the owner whose free bits are zero,
        i.e. built from the lowest bits that span the output (register before lane before warp).
        """
        if not self.is_surjective():
            raise ValueError(f"pseudo_invert: the layout is not surjective: {self!r}")
        return self.invert_and_compose(identity_nd(self._out_dims))

    def invert(self) -> LinearLayout:
        """The inverse of a bijective layout: output dims become input dims and vice versa."""
        if not self.is_invertible():
            raise ValueError(f"invert: the layout is not bijective: {self!r}")
        return self.pseudo_invert()

    # ---------------------------------------------------------------------------- reshaping

    def sublayout(self, in_dims: Iterable[str], out_dims: Iterable[str]) -> LinearLayout:
        """The restriction to the given input dims and the projection on the given output dims
        (both kept in self's order; names self lacks are ignored)."""
        keep_in = set(in_dims)
        keep_out = set(out_dims)
        idx = [i for i, n in enumerate(self._out_dims) if n in keep_out]
        bases = {
            d: [tuple(v[i] for i in idx) for v in vectors]
            for d, vectors in self._bases.items()
            if d in keep_in
        }
        return LinearLayout(bases, {n: s for n, s in self._out_dims.items() if n in keep_out})

    def transpose_outs(self, names: Sequence[str]) -> LinearLayout:
        """The same map with the output dims listed in the order `names` (a permutation)."""
        if sorted(names) != sorted(self._out_dims):
            raise ValueError(f"transpose_outs: {tuple(names)} is not a permutation of "
                             f"{self.out_dim_names}")
        idx = [self.out_dim_names.index(n) for n in names]
        bases = {d: [tuple(v[i] for i in idx) for v in vs] for d, vs in self._bases.items()}
        return LinearLayout(bases, {n: self._out_dims[n] for n in names})

    def transpose_ins(self, names: Sequence[str]) -> LinearLayout:
        """The same map with the input dims listed in the order `names` (a permutation)."""
        if sorted(names) != sorted(self._bases):
            raise ValueError(f"transpose_ins: {tuple(names)} is not a permutation of "
                             f"{self.in_dims}")
        return LinearLayout({n: self._bases[n] for n in names}, self._out_dims)

    def reshape_outs(self, out_dims: Mapping[str, int]) -> LinearLayout:
        """The same map onto differently shaped outputs of the same total size.

        Outputs are flattened with the first output dim most minor (Triton's convention) and
        cut again with the first new dim most minor; ``transpose_outs`` first to flatten
        row-major. ``reshape_outs({"offset": n})`` flattens to one dim.
        """
        target = LinearLayout({}, out_dims)
        if target.total_out_bits != self.total_out_bits:
            raise ValueError(
                f"reshape_outs: {dict(out_dims)} does not have {1 << self.total_out_bits} points"
            )
        bases = {d: [target._unpack(p) for p in ps] for d, ps in self._packed.items()}
        return LinearLayout(bases, out_dims)

    def rename_in_dim(self, old: str, new: str) -> LinearLayout:
        """The same map with input dim `old` called `new` (kept at its position)."""
        if new in self._bases and new != old:
            raise ValueError(f"rename_in_dim: {new!r} is already an input dim")
        return LinearLayout(
            {(new if d == old else d): v for d, v in self._bases.items()}, self._out_dims
        )

    # ------------------------------------------------------------------------------ dunders

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return (
            list(self._bases.items()) == list(other._bases.items())
            and list(self._out_dims.items()) == list(other._out_dims.items())
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(
                (tuple(self._bases.items()), tuple(self._out_dims.items()))
            )
        return self._hash

    def __repr__(self) -> str:
        bases = ", ".join(
            f"{d!r}: [{', '.join(repr(v) for v in vs)}]" for d, vs in self._bases.items()
        )
        return f"LinearLayout({{{bases}}}, {self._out_dims!r})"


def identity_1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    """The identity ``in_dim = x -> out_dim = x`` on ``[0, size)``."""
    bits = _log2(size, "identity_1d size")
    return LinearLayout({in_dim: [(1 << i,) for i in range(bits)]}, {out_dim: size})


def zeros_1d(size: int, in_dim: str, out_dim: str, out_size: int = 1) -> LinearLayout:
    """The map sending every ``in_dim`` in ``[0, size)`` to 0 of `out_dim` (of size
    `out_size`): `size` broadcast copies."""
    bits = _log2(size, "zeros_1d size")
    return LinearLayout({in_dim: [(0,)] * bits}, {out_dim: out_size})


def identity_nd(dims: Mapping[str, int]) -> LinearLayout:
    """The identity on named dims: input dim ``d`` of size ``dims[d]`` -> output dim ``d``."""
    names = list(dims)
    bases = {}
    for k, name in enumerate(names):
        bits = _log2(dims[name], f"size of {name!r}")
        bases[name] = [
            tuple((1 << i) if j == k else 0 for j in range(len(names))) for i in range(bits)
        ]
    return LinearLayout(bases, dims)
