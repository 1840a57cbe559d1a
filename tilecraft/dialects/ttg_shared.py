"""Hooks of the shared memory layouts given by linear maps, ``#ttg.padded_shared`` and
``#ttg.shared_linear``: Triton's textual forms, its verifier of the padded layout, and the
checks that Triton's memory descriptor type makes of its shared layout."""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.ir.ods import implements, parse_int_list, parse_struct
from tilecraft.layouts.distributed import standard_out_dims
from tilecraft.layouts.linear import LinearLayout
from tilecraft.layouts.shared import basis_order, identity_bases

from . import generated_module
from .ttg_syntax import format_ints, is_power_of_two, parse_bases, print_bases

gen = generated_module(__name__, "ttg")


def bases_shape(bases: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The sizes of the output dimensions of a map given by its bases: each the power of two
    just above its largest coordinate (the bases are not empty)."""
    return tuple(1 << max(b[d] for b in bases).bit_length() for d in range(len(bases[0])))


# -- #ttg.padded_shared --------------------------------------------------------------------------


def _parse_interval_paddings(parser) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``[32:+4, 64:+8]``."""
    intervals: list[int] = []
    paddings: list[int] = []
    parser.parse_punct("[")
    while True:
        intervals.append(parser.parse_integer())
        parser.parse_punct(":")
        parser.parse_punct("+")
        paddings.append(parser.parse_integer())
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct("]")
    return tuple(intervals), tuple(paddings)


def _parse_linear_component(parser):
    """``{offset = [..], block = [..]}`` or the identity's short form ``{order = [..], shape =
    [..]}``: the offset bases, the block bases and the output sizes."""
    token = parser.i
    fields = {name: (lambda: parse_bases(parser)) for name in ("offset", "block")}
    fields.update({name: (lambda: parse_int_list(parser)) for name in ("order", "shape")})
    values = parse_struct(parser, fields)
    if "offset" in values or "block" in values:
        extra = [name for name in ("order", "shape") if name in values]
        if extra:
            parser.error(f"Unexpected attribute {extra[0]} found", token)
        if "offset" not in values:
            parser.error("Expected basis of 'offset' not found", token)
        offset, block = values["offset"], values.get("block", ())
        bases = [*offset, *block]
        if not bases:
            parser.error("Empty Layout not supported", token)
        if len({len(b) for b in bases}) != 1:
            parser.error("Expected all bases to have the same rank", token)
        return offset, block, bases_shape(bases)
    order, shape = values.get("order", ()), values.get("shape", ())
    if len(order) != len(shape):
        parser.error("Mismatch of shape and order ranks in padded layout", token)
    if sorted(order) != list(range(len(order))):
        parser.error(f"order must be a permutation of 0..(rank-1), but was {format_ints(order)}",
                     token)
    if not all(is_power_of_two(size) for size in shape):
        parser.error(f"shape must be made of powers of two, but was {format_ints(shape)}", token)
    return identity_bases(shape, order), (), shape


@implements(gen.PaddedSharedEncodingAttr)
@classmethod
def parse_parameters(cls, parser):
    """``<[interval:+padding, ...] {linear component}>``."""
    parser.parse_punct("<")
    start = parser.i
    intervals, paddings = _parse_interval_paddings(parser)
    offset, block, shape = _parse_linear_component(parser)
    parser.parse_punct(">")
    result = cls(intervals=intervals, paddings=paddings, offset=offset, block=block, shape=shape)
    message = result.verify()
    if message is not None:
        parser.error(message, start)
    return result


@implements(gen.PaddedSharedEncodingAttr)
def print_parameters(self, printer) -> None:
    """The short form ``{order = .., shape = ..}`` when the map is one CTA's identity."""
    pairs = ", ".join(f"{i}:+{p}" for i, p in zip(self.intervals, self.paddings))
    printer.write(f"<[{pairs}] {{")
    order = basis_order(self.offset, len(self.shape))
    if not self.block and self.offset == identity_bases(self.shape, order):
        printer.write(f"order = {format_ints(order)}, shape = {format_ints(self.shape)}")
    else:
        printer.write("offset = ")
        print_bases(printer, self.offset)
        printer.write(", block = ")
        print_bases(printer, self.block)
    printer.write("}>")


@implements(gen.PaddedSharedEncodingAttr)
def verify(self) -> str | None:
    """Power-of-two intervals (no two alike) and paddings, one padding per interval; the offset
    bases never broadcast, and every basis moves along at most one dimension by a power of
    two."""
    if len(self.intervals) != len(self.paddings):
        return (f"intervals size ({len(self.intervals)}) must match paddings size "
                f"({len(self.paddings)})")
    if not self.intervals:
        return "must have at least one interval-padding pair"
    if not all(is_power_of_two(v) for v in self.intervals):
        return "interval values must all be power of two"
    if not all(is_power_of_two(v) for v in self.paddings):
        return "padding values must all be power of two"
    if len(set(self.intervals)) != len(self.intervals):
        return "interval values cannot have duplicates"
    rank = len(self.shape)
    if any(len(basis) != rank for basis in (*self.offset, *self.block)):
        return "Expected all bases to have the same rank"
    for basis in (*self.offset, *self.block):
        if sum(1 for c in basis if c) > 1:
            return "Each offset basis must move in at most one dimension."
        if not all(c == 0 or is_power_of_two(c) for c in basis):
            return "Each offset basis must be 0 or a power of two."
    # (after the checks above: a layout of bases that are not powers of two cannot be built)
    if self.offset and not LinearLayout(
            {"offset": self.offset},
            dict(zip(standard_out_dims(rank), bases_shape(self.offset)))).is_injective():
        return "Broadcasting in offset dimension is not supported."
    return None


# -- #ttg.shared_linear --------------------------------------------------------------------------


@implements(gen.SharedLinearEncodingAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """``<{offset = [..], block = [..]}, alignment = 16>``; ``block`` may be left out."""
    parser.parse_punct("<")
    start = parser.i
    fields = {name: (lambda: parse_bases(parser)) for name in ("offset", "block")}
    fields["alignment"] = parser.parse_integer
    values = parse_struct(parser, fields)
    if "alignment" in values:
        parser.error("alignment must be specified outside of the linear layout braces", start)
    if "offset" not in values:
        parser.error("Expected basis of 'offset' not found", start)
    parser.parse_punct(",")
    parser.parse_keyword("alignment")
    parser.parse_punct("=")
    alignment = parser.parse_integer()
    parser.parse_punct(">")
    return cls(offset=values["offset"], block=values.get("block", ()),
               layout_alignment=alignment)


@implements(gen.SharedLinearEncodingAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """``block`` only when there is more than one CTA, as Triton prints it."""
    printer.write("<{offset = ")
    print_bases(printer, self.offset)
    if self.block:
        printer.write(", block = ")
        print_bases(printer, self.block)
    printer.write(f"}}, alignment = {self.layout_alignment}>")


# -- the memory descriptor type's checks of its layout -------------------------------------------

#: The shared memory layouts (Triton's SharedEncodingTrait).
SHARED_ENCODINGS = (gen.SwizzledSharedEncodingAttr, gen.NVMMASharedEncodingAttr,
                    gen.SharedLinearEncodingAttr, gen.PaddedSharedEncodingAttr,
                    gen.PartitionedSharedEncodingAttr)



def memdesc_type_message(shape: Sequence[int], alloc_shape: Sequence[int], encoding,
                         rank: int | None) -> str | None:
    """Triton's ``MemDescType::verify`` of a shared layout of rank ``rank``: the descriptor's
    rank is the layout's or one more (a multibuffer), and a padded layout's map covers the
    allocation (without its leading multibuffer dimension)."""
    if not isinstance(encoding, SHARED_ENCODINGS) or rank is None:
        return None
    if len(shape) not in (rank, rank + 1):
        return (f"rank must be equal to or one less than the shape size. Got {rank} and "
                f"{len(shape)}")
    if isinstance(encoding, gen.PaddedSharedEncodingAttr):
        expected = tuple(alloc_shape)[-rank:] if rank else ()
        for dim, (want, got) in enumerate(zip(expected, encoding.shape)):
            if want != got:
                return (f"Mismatch in expected shape for dimension {dim}. Expected: {want}, "
                        f"got: {got}")
    return None
