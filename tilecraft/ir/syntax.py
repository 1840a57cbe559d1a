"""Lexical helpers shared by the printer and the parser: identifiers and string literals."""

from __future__ import annotations

import re

BARE_IDENTIFIER = re.compile(r"[A-Za-z_][\w$.]*")
_PRINTABLE = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}
_ESCAPE_RE = re.compile(r'\\(?:([0-9A-Fa-f]{2})|(.))', re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def quote_string(text: str) -> str:
    """MLIR's escaped string literal: printable ASCII as is, every other byte as ``\\XX``."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    data = text.encode("utf-8", "surrogateescape")
    body = "".join(chr(b) if b in _PRINTABLE else f"\\{b:02X}" for b in data)
    return f'"{body}"'


def unquote_string(token: str) -> str:
    """The value of a string literal token (with its quotes); inverse of `quote_string`."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    data = bytearray()
    pos = 0
    for match in _ESCAPE_RE.finditer(body):
        data += body[pos:match.start()].encode("utf-8", "surrogateescape")
        hex_digits, char = match.groups()
        if hex_digits is not None:
            data.append(int(hex_digits, 16))
        else:
            data += _SIMPLE_ESCAPES.get(char, "\\" + char).encode("utf-8", "surrogateescape")
        pos = match.end()
    data += body[pos:].encode("utf-8", "surrogateescape")
    return data.decode("utf-8", "surrogateescape")


def keyword_or_string(text: str) -> str:
    """``text`` itself when it is a bare identifier, else its quoted form (dict keys, symbols)."""
    return text if BARE_IDENTIFIER.fullmatch(text) else quote_string(text)
