"""Helpers for the verifier tests: parse a snippet and return the verifier's (or parser's) error."""

from __future__ import annotations

import pytest

from tilecraft.ir import ParseError, VerificationError, parse_module


def verify_error(text: str) -> str:
    """The message of the `VerificationError` that verifying ``text`` raises."""
    module = parse_module(text, allow_unregistered=True)
    with pytest.raises(VerificationError) as info:
        module.verify()
    return info.value.message


def parse_error(text: str) -> str:
    """The message of the `ParseError` that parsing ``text`` raises."""
    with pytest.raises(ParseError) as info:
        parse_module(text, allow_unregistered=True)
    return info.value.message


def verifies(text: str) -> None:
    parse_module(text, allow_unregistered=True).verify()


def func(body: str, args: str = "", results: str = "") -> str:
    """``body`` (op lines) in a ``tt.func @f(args) -> results``."""
    arrow = f" -> {results}" if results else ""
    return f"tt.func @f({args}){arrow} {{\n{body}\n}}\n"
