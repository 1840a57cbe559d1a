"""The pass backend: a base class per `Pass` def with typed options and statistics."""

from __future__ import annotations

from ..model import OptionModel, PassModel, option_default
from .ops import _docstring


def _default(option: OptionModel) -> str:
    """The Python literal of ``option``'s default (checked by the model)."""
    return "()" if option.is_list else repr(option_default(option.type, option.default))


def pass_class(model: PassModel) -> list[str]:
    """The base class of one pass; its body is written by hand in a subclass."""
    lines = [f"class {model.class_name}Base(Pass):"]
    lines += _docstring(model.summary, model.description)
    lines += [
        "",
        f"    ARGUMENT = {model.argument!r}",
        f"    SUMMARY = {model.summary!r}",
        f"    ANCHOR = {model.anchor!r}",
        f"    DEPENDENT_DIALECTS = ({''.join(repr(d) + ', ' for d in model.dependent_dialects)})",
        f"    IMPL_MODULE = {model.impl_module!r}",
        "    OPTIONS = (",
    ]
    for option in model.options:
        lines.append(f"        PassOption({option.name!r}, {option.argument!r}, {option.type}, "
                     f"{_default(option)}, {option.description!r}, "
                     f"is_list={option.is_list}),")
    lines += ["    )", "    STATISTICS = ("]
    for stat in model.statistics:
        lines.append(f"        PassStatistic({stat.name!r}, {stat.stat_name!r}, "
                     f"{stat.description!r}),")
    lines.append("    )")
    if model.options:
        lines.append("")
        for option in model.options:
            annotation = f"tuple[{option.type}, ...]" if option.is_list else option.type
            lines.append(f"    {option.name}: {annotation}")
    if model.statistics:
        lines.append("")
        for stat in model.statistics:
            lines.append(f"    {stat.name}: int")
    return lines + _declared_patterns(model)


def _declared_patterns(model: PassModel) -> list[str]:
    """`declared_patterns()`: new instances of the `Pat`s whose `appliedBy` is this pass."""
    if not model.patterns:
        return []
    lines = ["", "    @staticmethod", "    def declared_patterns() -> list:",
             f'        """The rewrite patterns of defs/ with `appliedBy = {model.argument!r}`."""']
    stems = dict.fromkeys(stem for stem, _ in model.patterns)
    for stem in stems:
        lines.append(f"        from tilecraft.generated.patterns import {stem} as _patterns_{stem}")
    items = ", ".join(f"_patterns_{stem}.{name}()" for stem, name in model.patterns)
    return lines + [f"        return [{items}]"]
