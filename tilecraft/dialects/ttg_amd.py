"""Hooks of AMD's accumulator layouts, ``#ttg.amd_mfma`` and ``#ttg.amd_wmma``: Triton's
textual forms (fields in any order, defaults left out when printing) and its verifiers, with
its messages."""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.ir.ods import implements, parse_boolean, parse_int_list, parse_struct

from . import generated_module
from .ttg_syntax import (
    LEGACY_CTA_FIELDS, format_ints, parse_bases, parse_cga_layout, permutation_message,
    print_bases, require_fields,
)

gen = generated_module(__name__, "ttg")

# The (M, N) of the MFMA instructions, and the (M, N, K) of the WMMA ones of each version.
_MFMA_MN = ((32, 32), (16, 16), (64, 4), (4, 64))
_WMMA_SHAPES = {1: ((16, 16, 16),), 2: ((16, 16, 16), (16, 16, 32)),
                3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128))}
_WMMA_DEFAULT_SHAPE = (16, 16, 16)


def _cga_fields(parser) -> dict:
    """The field readers of a CTA layout, in both of Triton's spellings."""
    fields = {"CGALayout": lambda: parse_bases(parser)}
    fields.update({name: (lambda: parse_int_list(parser)) for name in LEGACY_CTA_FIELDS})
    return fields


def _print_cga(printer, cga: Sequence[Sequence[int]]) -> None:
    if cga:
        printer.write(", CGALayout = ")
        print_bases(printer, cga)


def _cga_rank_message(cga: Sequence[Sequence[int]], rank: int) -> str | None:
    if any(len(basis) != rank for basis in cga):
        return f"'CGALayout' entry length does not match rank {rank}"
    return permutation_message(cga, "the CGA encoding")


def _checked(parser, attr, start: int):
    message = attr.verify()
    if message is not None:
        parser.error(message, start)
    return attr


# -- #ttg.amd_mfma -------------------------------------------------------------------------------


@implements(gen.AMDMfmaEncodingAttr)
@classmethod
def parse_parameters(cls, parser):
    """``<{version = 3, warpsPerCTA = [..], instrShape = [..], isTransposed = false, ...}>``;
    ``isTransposed`` reads as false, ``tilesPerWarp`` as all ones and ``elementBitWidth`` as 32
    when absent."""
    parser.parse_punct("<")
    start = parser.i
    fields = {"version": parser.parse_integer, "warpsPerCTA": lambda: parse_int_list(parser),
              "instrShape": lambda: parse_int_list(parser),
              "isTransposed": lambda: parse_boolean(parser),
              "tilesPerWarp": lambda: parse_int_list(parser),
              "elementBitWidth": parser.parse_integer, **_cga_fields(parser)}
    values = parse_struct(parser, fields)
    parser.parse_punct(">")
    require_fields(parser, values, ("version", "warpsPerCTA", "instrShape"), start)
    tiles = values.get("tilesPerWarp", ())
    return _checked(parser, cls(
        version=values["version"], warps_per_cta=values["warpsPerCTA"],
        instr_shape=values["instrShape"], is_transposed=values.get("isTransposed", False),
        cga_layout=parse_cga_layout(parser, values, start),
        tiles_per_warp=() if all(t == 1 for t in tiles) else tiles,
        element_bit_width=values.get("elementBitWidth", 32)), start)


@implements(gen.AMDMfmaEncodingAttr)
def print_parameters(self, printer) -> None:
    """Triton's order; ``tilesPerWarp`` and ``elementBitWidth`` only when not the default."""
    printer.write(f"<{{version = {self.version}, warpsPerCTA = {format_ints(self.warps_per_cta)}"
                  f", instrShape = {format_ints(self.instr_shape)}, isTransposed = "
                  f"{'true' if self.is_transposed else 'false'}")
    _print_cga(printer, self.cga_layout)
    if self.tiles_per_warp:
        printer.write(f", tilesPerWarp = {format_ints(self.tiles_per_warp)}")
    if self.element_bit_width != 32:
        printer.write(f", elementBitWidth = {self.element_bit_width}")
    printer.write("}>")


@implements(gen.AMDMfmaEncodingAttr)
def verify(self) -> str | None:
    """A CDNA version (0 to 4), an MFMA (M, N) and a 32- or 64-bit result; the CTA and tile
    layouts have the layout's rank."""
    if not 0 <= self.version <= 4:
        return "version must be in the [0, 4] range"
    if len(self.instr_shape) < 2:
        return f"instrShape must give at least (mDim, nDim), got {format_ints(self.instr_shape)}"
    m_dim, n_dim = self.instr_shape[:2]
    if (m_dim, n_dim) not in _MFMA_MN:
        return f"invalid (mDim, nDim) combination: ({m_dim}, {n_dim})"
    if self.element_bit_width not in (32, 64):
        return "elementBitWidth must be 32 or 64"
    rank = len(self.warps_per_cta)
    if self.tiles_per_warp and len(self.tiles_per_warp) != rank:
        return f"tilesPerWarp must have {rank} elements, like warpsPerCTA"
    return _cga_rank_message(self.cga_layout, rank)


# -- #ttg.amd_wmma -------------------------------------------------------------------------------


def _wmma_rank(parser, values: dict, cta: dict, start: int) -> int:
    """The rank given by the bases of ``ctaLayout``, else by ``rank`` (2 by default)."""
    bases = [*cta.get("register", ()), *cta.get("warp", ())]
    given = values.get("rank")
    if not bases:
        return 2 if given is None else given
    if len({len(b) for b in bases}) != 1:
        parser.error("Expected all bases to have the same rank", start)
    if given is not None and given != len(bases[0]):
        parser.error("Serialized rank and rank deduced from LL need to match", start)
    return len(bases[0])


@implements(gen.AMDWmmaEncodingAttr)
@classmethod
def parse_parameters(cls, parser):  # noqa: F811 - one hook per class
    """``<{version = 2, ctaLayout = {register = [..], warp = [..]}, ...}>``: either basis list
    may be left out (empty); ``isTranspose`` reads as false and ``instrShape`` as 16x16x16
    when absent."""
    parser.parse_punct("<")
    start = parser.i
    cta_fields = {"register": lambda: parse_bases(parser), "warp": lambda: parse_bases(parser)}
    fields = {"version": parser.parse_integer, "rank": parser.parse_integer,
              "ctaLayout": lambda: parse_struct(parser, cta_fields),
              "isTranspose": lambda: parse_boolean(parser),
              "instrShape": lambda: parse_int_list(parser), **_cga_fields(parser)}
    values = parse_struct(parser, fields)
    parser.parse_punct(">")
    require_fields(parser, values, ("version", "ctaLayout"), start)
    cta = values["ctaLayout"]
    return _checked(parser, cls(
        version=values["version"], cta_register=cta.get("register", ()),
        cta_warp=cta.get("warp", ()), is_transposed=values.get("isTranspose", False),
        cga_layout=parse_cga_layout(parser, values, start),
        instr_shape=values.get("instrShape", _WMMA_DEFAULT_SHAPE),
        rank=_wmma_rank(parser, values, cta, start)), start)


@implements(gen.AMDWmmaEncodingAttr)
def print_parameters(self, printer) -> None:  # noqa: F811 - one hook per class
    """Triton's order, the empty basis lists left out; ``rank`` only when no basis gives it
    and it is not 2."""
    printer.write(f"<{{version = {self.version}, isTranspose = "
                  f"{'true' if self.is_transposed else 'false'}, ctaLayout = {{")
    named = [(name, bases) for name, bases in (("register", self.cta_register),
                                               ("warp", self.cta_warp)) if bases]
    for index, (name, bases) in enumerate(named):
        printer.write(f"{', ' if index else ''}{name} = ")
        print_bases(printer, bases)
    printer.write("}")
    _print_cga(printer, self.cga_layout)
    if self.instr_shape != _WMMA_DEFAULT_SHAPE:
        printer.write(f", instrShape = {format_ints(self.instr_shape)}")
    if not named and self.rank != 2:
        printer.write(f", rank = {self.rank}")
    printer.write("}>")


@implements(gen.AMDWmmaEncodingAttr)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """Version 1 to 3 with one of that version's instruction shapes; the bases and the CTA
    layout have the layout's rank."""
    if not 1 <= self.version <= 3:
        return "WMMA version must be in the [1, 3] range"
    if self.instr_shape not in _WMMA_SHAPES[self.version]:
        return f"invalid WMMA v{self.version} instruction shape"
    if any(len(b) != self.rank for b in (*self.cta_register, *self.cta_warp)):
        return "Expected all bases to have the same rank"
    return _cga_rank_message(self.cga_layout, self.rank)
