"""Helpers shared by the `.td` front-end tests."""

from __future__ import annotations

from typing import Any

import pytest

from tilecraft.codegen.td import RecordKeeper, TdError, load_records_from_string

FILE = "test.td"


def load(text: str, **kwargs: Any) -> RecordKeeper:
    """Load ``text`` as the file ``test.td``."""
    return load_records_from_string(text, FILE, **kwargs)


def value_of(expr: str, type_: str) -> Any:
    """The value of ``expr`` stored in a field of type ``type_``."""
    return load(f"def X {{ {type_} v = {expr}; }}").defs["X"]["v"]


def error_of(text: str, **kwargs: Any) -> TdError:
    """The `TdError` raised by loading ``text``."""
    with pytest.raises(TdError) as info:
        load(text, **kwargs)
    return info.value


def assert_error(text: str, message: str, line: int, col: int) -> TdError:
    """Loading ``text`` fails with ``message`` at ``line:col``, rendered with a caret there."""
    error = error_of(text)
    assert error.message == message
    assert (error.loc.file, error.loc.line, error.loc.col) == (FILE, line, col)
    rendered = str(error).splitlines()
    assert rendered[0] == f"{FILE}:{line}:{col}: error: {message}"
    assert rendered[1] == text.splitlines()[line - 1].expandtabs(1)
    assert rendered[2] == " " * (col - 1) + "^"
    return error
