"""The textual pieces that ttg layout attributes share: lists of bases, CTA (``CGALayout``)
layouts and their older spelling, required struct fields, and the permutation check of
Triton's linear-layout verifiers."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from tilecraft.ir.ods import parse_int_list


# -- CTA layouts and bases ----------------------------------------------------------------------


def _log2(value: int) -> int:
    return value.bit_length() - 1


def cga_layout_from_split_params(ctas_per_cga: Sequence[int], cta_split_num: Sequence[int],
                                 cta_order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The block bases (``CGALayout``) of Triton's older CTA-layout fields, as Triton converts
    them: along each dimension in ``cta_order``, the CTAs that split it (1, 2, 4, ... in that
    dimension), then the ones that repeat it (zero vectors)."""
    rank = len(cta_order)
    bases: list[tuple[int, ...]] = []
    for dim in cta_order:
        split, ctas = cta_split_num[dim], ctas_per_cga[dim]
        for bit in range(_log2(split)):
            bases.append(tuple(1 << bit if d == dim else 0 for d in range(rank)))
        bases += [(0,) * rank] * _log2(ctas // split)
    return tuple(bases)


def print_bases(printer, bases: Sequence[Sequence[int]]) -> None:
    """Write ``[[0, 1], [1, 0]]``."""
    printer.write("[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]")


def parse_bases(parser) -> tuple[tuple[int, ...], ...]:
    """Read ``[[0, 1], [1, 0]]`` (``[]`` for none)."""
    parser.parse_punct("[")
    bases: list[tuple[int, ...]] = []
    if not parser.parse_optional_punct("]"):
        bases.append(parse_int_list(parser))
        while parser.parse_optional_punct(","):
            bases.append(parse_int_list(parser))
        parser.parse_punct("]")
    return tuple(bases)


def format_ints(values: Sequence[int]) -> str:
    """``[1, 2]``."""
    return "[" + ", ".join(map(str, values)) + "]"


# Triton's older spelling of a CTA layout, read for compatibility.
LEGACY_CTA_FIELDS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")


def parse_cga_layout(parser, values: dict, start: int) -> tuple[tuple[int, ...], ...]:
    """``CGALayout`` from the parsed fields, or from Triton's older ``CTAsPerCGA``,
    ``CTASplitNum`` and ``CTAOrder`` (all three, and not with ``CGALayout``)."""
    legacy = [name for name in LEGACY_CTA_FIELDS if name in values]
    if not legacy:
        return values.get("CGALayout", ())
    if "CGALayout" in values or len(legacy) != len(LEGACY_CTA_FIELDS):
        parser.error("CTAsPerCGA, CTASplitNum and CTAOrder go together, without CGALayout",
                     start)
    ctas, split, order = (values[name] for name in LEGACY_CTA_FIELDS)
    if not (len(ctas) == len(split) == len(order) and sorted(order) == list(range(len(order)))
            and all(is_power_of_two(n) for n in (*ctas, *split))
            and all(s <= c for s, c in zip(split, ctas))):
        parser.error("CTAsPerCGA and CTASplitNum must be powers of two, one per dimension, "
                     "with CTASplitNum <= CTAsPerCGA, and CTAOrder a permutation of the "
                     "dimensions", start)
    return cga_layout_from_split_params(ctas, split, order)



def require_fields(parser, values: dict, names: Sequence[str], start: int) -> None:
    """Fail at token ``start`` when a struct lacks one of ``names``."""
    for name in names:
        if name not in values:
            parser.error(f"struct is missing required parameter: {name}", start)


# -- checks --------------------------------------------------------------------------------------


def is_power_of_two(value: int) -> bool:
    """Whether ``value`` is 1, 2, 4, ..."""
    return value > 0 and value & (value - 1) == 0


def bases_rank(bases: Sequence[Sequence[int]], default: int) -> int:
    """The number of coordinates of the bases, ``default`` when there are none."""
    return len(bases[0]) if bases else default


def permutation_message(bases: Sequence[Sequence[int]], subject: str) -> str | None:
    """Triton's ``verifyDistributedLinearLayout``: with the input and output dimensions
    flattened (dim 0 fastest, each output dimension as large as the next power of two above its
    largest coordinate) and the zero bases removed, the bases are distinct powers of two
    covering every output bit."""
    if not bases:
        return None
    rank = len(bases[0])
    sizes = [1 << max(b[d] for b in bases).bit_length() for d in range(rank)]
    flat: list[int] = []
    for basis in bases:
        value, stride = 0, 1
        for coordinate, size in zip(basis, sizes):
            value += coordinate * stride
            stride *= size
        if value:
            flat.append(value)
    total = prod(sizes)
    if (any(not is_power_of_two(v) for v in flat) or len(set(flat)) != len(flat)
            or 1 << len(flat) != total):
        return f"After removing the zero bases {subject} must be a permutation matrix"
    return None
