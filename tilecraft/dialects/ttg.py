"""Hooks of the ttg (TritonGPU) dialect: the custom formats that Triton's printer writes by hand,
Triton's verifier rules, and typed readers of the module attributes (``ttg.num-warps``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.ir import IntegerAttr, Operation, StringAttr
from tilecraft.ir.ods import implements, parse_int_list, parse_struct

from . import generated_module

gen = generated_module(__name__, "ttg")

# -- module attributes ---------------------------------------------------------------------------

NUM_WARPS = "ttg.num-warps"
THREADS_PER_WARP = "ttg.threads-per-warp"
NUM_CTAS = "ttg.num-ctas"
TARGET = "ttg.target"


def _module_int(module: Operation, name: str, default: int | None) -> int:
    attr = module.attributes.get(name)
    if attr is None:
        if default is None:
            raise KeyError(f"the module has no '{name}' attribute")
        return default
    if not isinstance(attr, IntegerAttr):
        raise TypeError(f"the module's '{name}' attribute is {attr}, not an integer")
    return attr.value


def num_warps(module: Operation) -> int:
    """The module's ``ttg.num-warps`` (KeyError when it has none)."""
    return _module_int(module, NUM_WARPS, None)


def threads_per_warp(module: Operation) -> int:
    """The module's ``ttg.threads-per-warp``, 32 when it has none."""
    return _module_int(module, THREADS_PER_WARP, 32)


def num_ctas(module: Operation) -> int:
    """The module's ``ttg.num-ctas``, 1 when it has none."""
    return _module_int(module, NUM_CTAS, 1)


def target(module: Operation) -> str | None:
    """The module's ``ttg.target`` (``"cuda:90"``), None when it has none."""
    attr = module.attributes.get(TARGET)
    return attr.value if isinstance(attr, StringAttr) else None


# -- CTA layouts ---------------------------------------------------------------------------------


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


def _print_bases(printer, bases: Sequence[Sequence[int]]) -> None:
    printer.write("[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]")


def _parse_bases(parser) -> tuple[tuple[int, ...], ...]:
    parser.parse_punct("[")
    bases: list[tuple[int, ...]] = []
    if not parser.parse_optional_punct("]"):
        bases.append(parse_int_list(parser))
        while parser.parse_optional_punct(","):
            bases.append(parse_int_list(parser))
        parser.parse_punct("]")
    return tuple(bases)


def _print_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


_LEGACY_CTA_FIELDS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")


def _cga_layout(parser, values: dict, start: int) -> tuple[tuple[int, ...], ...]:
    """``CGALayout`` from the parsed fields, or from Triton's older ``CTAsPerCGA``,
    ``CTASplitNum`` and ``CTAOrder`` (all three, and not with ``CGALayout``)."""
    legacy = [name for name in _LEGACY_CTA_FIELDS if name in values]
    if not legacy:
        return values.get("CGALayout", ())
    if "CGALayout" in values or len(legacy) != len(_LEGACY_CTA_FIELDS):
        parser.error("CTAsPerCGA, CTASplitNum and CTAOrder go together, without CGALayout",
                     start)
    return cga_layout_from_split_params(*(values[name] for name in _LEGACY_CTA_FIELDS))


def _missing(parser, values: dict, names: Sequence[str], start: int) -> None:
    for name in names:
        if name not in values:
            parser.error(f"struct is missing required parameter: {name}", start)


# -- #ttg.nvidia_mma -----------------------------------------------------------------------------


@implements(gen.NvidiaMmaEncodingAttr)
def print_parameters(self, printer) -> None:
    """``<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [..], instrShape = [..]}>``, with
    ``CGALayout`` before ``instrShape`` when it is not trivial."""
    printer.write(f"<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
                  f"warpsPerCTA = {_print_ints(self.warps_per_cta)}")
    if self.cga_layout:
        printer.write(", CGALayout = ")
        _print_bases(printer, self.cga_layout)
    printer.write(f", instrShape = {_print_ints(self.instr_shape)}}}>")


@implements(gen.NvidiaMmaEncodingAttr)
@classmethod
def parse_parameters(cls, parser):
    """Read Triton's fields in any order; ``versionMinor`` defaults to 0."""
    parser.parse_punct("<")
    start = parser.i
    fields = {"versionMajor": parser.parse_integer, "versionMinor": parser.parse_integer,
              "warpsPerCTA": lambda: parse_int_list(parser),
              "CGALayout": lambda: _parse_bases(parser),
              "instrShape": lambda: parse_int_list(parser)}
    fields.update({name: (lambda: parse_int_list(parser)) for name in _LEGACY_CTA_FIELDS})
    values = parse_struct(parser, fields)
    parser.parse_punct(">")
    _missing(parser, values, ("versionMajor", "warpsPerCTA", "instrShape"), start)
    return cls(version_major=values["versionMajor"], version_minor=values.get("versionMinor", 0),
               warps_per_cta=values["warpsPerCTA"], instr_shape=values["instrShape"],
               cga_layout=_cga_layout(parser, values, start))
