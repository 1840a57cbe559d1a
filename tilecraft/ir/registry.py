"""Dialects and the global registry that finds them by name.

A generated dialect module creates ``dialect = Dialect("arith", "...")`` and registers its
classes with the ``@dialect.op``, ``@dialect.type`` and ``@dialect.attribute`` decorators.
`get_dialect` returns a registered dialect, importing ``tilecraft.generated.<name>`` the first
time an unknown name is asked for; creating a `Dialect` with a name already registered replaces
the old one (tests regenerate dialects into temporary packages).
"""

from __future__ import annotations

import importlib

_DIALECTS: dict[str, Dialect] = {}
_IMPORT_TRIED: set[str] = set()


class Dialect:
    """A namespace of ops (by full name), types and attributes (by mnemonic)."""

    __slots__ = ("name", "summary", "ops", "types", "attributes")

    def __init__(self, name: str, summary: str = "") -> None:
        self._setup(name, summary)
        register_dialect(self)

    def _setup(self, name: str, summary: str) -> None:
        self.name = name
        self.summary = summary
        self.ops: dict[str, type] = {}
        self.types: dict[str, type] = {}
        self.attributes: dict[str, type] = {}

    def op(self, cls: type) -> type:
        """Class decorator: register an op class under its ``OPERATION_NAME``."""
        name = cls.OPERATION_NAME
        if not name.startswith(self.name + "."):
            raise ValueError(f"op '{name}' does not belong to dialect '{self.name}'")
        self.ops[name] = cls
        return cls

    def type(self, cls: type) -> type:
        """Class decorator: register a `DialectType` class under its ``MNEMONIC``."""
        self._check_member(cls)
        self.types[cls.MNEMONIC] = cls
        return cls

    def attribute(self, cls: type) -> type:
        """Class decorator: register a `DialectAttribute` class under its ``MNEMONIC``."""
        self._check_member(cls)
        self.attributes[cls.MNEMONIC] = cls
        return cls

    def _check_member(self, cls: type) -> None:
        if cls.DIALECT != self.name:
            raise ValueError(f"{cls.__name__}.DIALECT is {cls.DIALECT!r}, not {self.name!r}")
        if not cls.MNEMONIC:
            raise ValueError(f"{cls.__name__} has no MNEMONIC")

    def __repr__(self) -> str:
        return f"<Dialect '{self.name}'>"


def register_dialect(dialect: Dialect) -> None:
    """Make ``dialect`` the one found under its name (replacing any other)."""
    _DIALECTS[dialect.name] = dialect


def get_dialect(name: str) -> Dialect | None:
    """The dialect ``name``, importing ``tilecraft.generated.<name>`` on first demand; None when
    there is no such dialect."""
    dialect = _DIALECTS.get(name)
    if dialect is None and name not in _IMPORT_TRIED:
        _IMPORT_TRIED.add(name)
        if name.isidentifier():
            _import_generated(name)
        dialect = _DIALECTS.get(name)
    return dialect


def _import_generated(name: str) -> None:
    module = f"tilecraft.generated.{name}"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name not in (module, "tilecraft.generated"):
            raise


def lookup_op(name: str) -> type | None:
    """The class registered for the op ``name`` ("dialect.op"), or None."""
    dialect = get_dialect(name.partition(".")[0])
    return dialect.ops.get(name) if dialect is not None else None


__all__ = ["Dialect", "register_dialect", "get_dialect", "lookup_op"]
