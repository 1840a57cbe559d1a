"""Source locations attached to operations and block arguments, printed as ``loc(...)``.

Locations are immutable value objects compared by content. Unlike types and attributes they are
not interned: every parsed operation gets its own `FileLineColLoc`, and interning those would keep
every location of every module alive forever.
"""

from __future__ import annotations

from tilecraft.codegen.diagnostics import SourceLoc


class Location:
    """Base of location kinds; ``str(loc)`` gives the ``loc(...)`` text."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def _fields(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    def __reduce__(self):
        return (type(self), self._fields())

    def __str__(self) -> str:
        from tilecraft.ir.printer import Printer

        return Printer().location_to_string(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}<{self}>"

    def diagnostic_position(self) -> tuple[SourceLoc | None, str | None]:
        """The source position a diagnostic about this location points at, and the source text
        when it is known (parsed from a string), else ``(None, None)``."""
        return None, None


class UnknownLoc(Location):
    """No location information: ``loc(unknown)``. ``UnknownLoc()`` is a singleton."""

    __slots__ = ()

    def __new__(cls) -> UnknownLoc:
        return _UNKNOWN

    def _fields(self) -> tuple:
        return ()


_UNKNOWN = object.__new__(UnknownLoc)


class FileLineColLoc(Location):
    """A position in a source file: ``loc("f.py":3:4)``, or a range ``loc("f.py":3:4 to 5:6)``."""

    __slots__ = ("file", "line", "col", "end_line", "end_col")

    def __init__(self, file: str, line: int, col: int, end_line: int | None = None,
                 end_col: int | None = None) -> None:
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "col", col)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "end_col", end_col)

    def _fields(self) -> tuple:
        return (self.file, self.line, self.col, self.end_line, self.end_col)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileLineColLoc) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash(("FileLineColLoc", self._fields()))

    def __reduce__(self):
        return (FileLineColLoc, self._fields())

    def diagnostic_position(self) -> tuple[SourceLoc | None, str | None]:
        return SourceLoc(self.file or None, self.line, self.col), None


class NameLoc(Location):
    """A named location, optionally wrapping another: ``loc("x"("f.py":1:2))``."""

    __slots__ = ("name", "child")

    def __init__(self, name: str, child: Location | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "child", child)

    def _fields(self) -> tuple:
        return (self.name, self.child)

    def diagnostic_position(self) -> tuple[SourceLoc | None, str | None]:
        return self.child.diagnostic_position() if self.child else (None, None)


class CallSiteLoc(Location):
    """A location inside a call: ``loc(callsite(callee at caller))``."""

    __slots__ = ("callee", "caller")

    def __init__(self, callee: Location, caller: Location) -> None:
        object.__setattr__(self, "callee", callee)
        object.__setattr__(self, "caller", caller)

    def _fields(self) -> tuple:
        return (self.callee, self.caller)

    def diagnostic_position(self) -> tuple[SourceLoc | None, str | None]:
        return self.callee.diagnostic_position()


class FusedLoc(Location):
    """Several locations merged into one, with optional metadata: ``loc(fused<#m>[a, b])``."""

    __slots__ = ("locations", "metadata")

    def __init__(self, locations, metadata=None) -> None:
        object.__setattr__(self, "locations", tuple(locations))
        object.__setattr__(self, "metadata", metadata)

    def _fields(self) -> tuple:
        return (self.locations, self.metadata)

    def diagnostic_position(self) -> tuple[SourceLoc | None, str | None]:
        for loc in self.locations:
            position = loc.diagnostic_position()
            if position[0] is not None:
                return position
        return None, None
