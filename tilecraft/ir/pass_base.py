"""The base of generated pass classes: typed options parsed from `name=value` text, statistics.

tools/gen writes one `<Name>PassBase` per `Pass` def in `.td`; the pass's body is a subclass of
it (in the module named by `IMPL_MODULE`) that implements `run_on_operation`.
"""

from __future__ import annotations

import shlex
from typing import NamedTuple

from tilecraft.codegen.diagnostics import Diagnostic

__all__ = ["Pass", "PassOption", "PassOptionError", "PassStatistic"]


class PassOptionError(Diagnostic):
    """A pass option that does not exist or whose value does not parse."""


class PassOption(NamedTuple):
    """One option: its Python attribute name, its `argument` in option text, type and default."""

    name: str
    argument: str
    type: type
    default: object
    description: str
    is_list: bool = False

    def convert(self, text: str, pass_argument: str) -> object:
        """Parse the option's value from text (`true`, `4`, `a,b`)."""
        if self.is_list:
            return tuple(self._scalar(part.strip(), pass_argument)
                         for part in text.split(",") if part.strip())
        return self._scalar(text, pass_argument)

    def _scalar(self, text: str, pass_argument: str) -> object:
        try:
            if self.type is bool:
                lowered = text.lower()
                if lowered in ("", "true", "1", "on"):
                    return True
                if lowered in ("false", "0", "off"):
                    return False
                raise ValueError(text)
            if self.type is int:
                return int(text, 0)
            return self.type(text)
        except ValueError:
            raise PassOptionError(
                f"invalid value '{text}' for option '{self.argument}' of pass "
                f"'{pass_argument}': expected {self.type.__name__}") from None


class PassStatistic(NamedTuple):
    """A counter a pass increments (`self.<name> += 1`), reported after the run."""

    name: str
    stat_name: str
    description: str


class Pass:
    """A pass over operations; generated base classes fill in the class attributes."""

    ARGUMENT = ""
    SUMMARY = ""
    ANCHOR = ""
    DEPENDENT_DIALECTS: tuple[str, ...] = ()
    IMPL_MODULE = ""
    OPTIONS: tuple[PassOption, ...] = ()
    STATISTICS: tuple[PassStatistic, ...] = ()

    def __init__(self, **options: object) -> None:
        known = {o.name: o for o in self.OPTIONS}
        for option in self.OPTIONS:
            setattr(self, option.name, option.default)
        for name, value in options.items():
            if name not in known:
                raise PassOptionError(f"pass '{self.ARGUMENT}' has no option '{name}'")
            setattr(self, name, value)
        for stat in self.STATISTICS:
            setattr(self, stat.name, 0)

    @classmethod
    def from_options_text(cls, text: str) -> Pass:
        """Create the pass from MLIR option text: `name=value other="a b" flag`."""
        by_argument = {o.argument: o for o in cls.OPTIONS}
        values: dict[str, object] = {}
        try:
            words = shlex.split(text)
        except ValueError as err:
            raise PassOptionError(f"malformed options for pass '{cls.ARGUMENT}': {err}") from None
        for word in words:
            key, _, value = word.partition("=")
            option = by_argument.get(key)
            if option is None:
                names = ", ".join(by_argument) or "none"
                raise PassOptionError(f"pass '{cls.ARGUMENT}' has no option '{key}' "
                                      f"(options: {names})")
            values[option.name] = option.convert(value, cls.ARGUMENT)
        return cls(**values)

    def options_text(self) -> str:
        """The options as text that `from_options_text` reads back."""
        parts = []
        for option in self.OPTIONS:
            value = getattr(self, option.name)
            if option.is_list:
                text = ",".join(str(v) for v in value)
            elif option.type is bool:
                text = "true" if value else "false"
            else:
                text = str(value)
            parts.append(f"{option.argument}={shlex.quote(text) if ' ' in text else text}")
        return " ".join(parts)

    def statistics(self) -> dict[str, int]:
        return {stat.stat_name: getattr(self, stat.name) for stat in self.STATISTICS}

    def run_on_operation(self, op) -> None:
        """The pass's body; implemented by the hand-written subclass."""
        raise NotImplementedError(f"pass '{self.ARGUMENT}' has no implementation")
