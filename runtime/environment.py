"""Counts read from ``TILECRAFT_*`` environment variables, with one wording for bad values."""

from __future__ import annotations

import os


def count_variable(name: str, what: str) -> int | None:
    """The positive integer that the environment variable ``name`` holds, None when it is unset
    or empty; any other value is a `ValueError` naming the variable and ``what`` it counts."""
    text = os.environ.get(name, "")
    if text == "":
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name}={text!r}: give a number of {what} >= 1")
    return int(text)
