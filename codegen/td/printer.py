"""`print_records`: a `RecordKeeper` in the format of ``llvm-tblgen --print-records``."""

from __future__ import annotations

from typing import Any

from .terms import LATEST_TBLGEN, bits_of, format_value, tblgen_format
from .tdtypes import STRING, BitsType, TdType
from .values import Code, Record, RecordKeeper, Unset


def print_records(records: RecordKeeper, version: int = LATEST_TBLGEN) -> str:
    """All classes, then all defs, each sorted by name, as ``llvm-tblgen`` ``version`` (its
    major version) prints them."""
    with tblgen_format(version):
        parts = ["------------- Classes -----------------\n"]
        parts += ["class " + format_record(records.classes[name])
                  for name in sorted(records.classes)]
        parts.append("------------- Defs -----------------\n")
        parts += ["def " + format_record(records.defs[name]) for name in sorted(records.defs)]
    return "".join(parts)


def format_record(record: Record) -> str:
    """One record: ``Name<template args> {\\t// superclasses``, its fields, ``}``."""
    head = record.name
    if record.template_args:
        head += "<" + ", ".join(
            _declaration(arg.type, arg.qualified_name,
                         Unset if arg.default is None else arg.default)
            for arg in record.template_args) + ">"
    head += " {"
    if record.superclasses:
        head += "\t//" + "".join(" " + name for name in record.superclasses)
    fields = sorted(record.fields.values(), key=lambda field: not field.keyword_field)
    lines = [head] + [
        "  " + ("field " if field.keyword_field else "")
        + _declaration(field.type, field.name, field.value) + ";"
        for field in fields]
    return "\n".join(lines) + "\n}\n"


def _declaration(type_: TdType, name: str, value: Any) -> str:
    type_name = "code" if type_ is STRING and isinstance(value, Code) else str(type_)
    return f"{type_name} {name} = {_format_field_value(type_, value)}"


def _format_field_value(type_: TdType, value: Any) -> str:
    if isinstance(type_, BitsType):
        if value is Unset:
            return "{ " + ", ".join(["?"] * type_.width) + " }"
        if isinstance(value, int):
            return "{ " + ", ".join(map(str, bits_of(value, type_.width))) + " }"
    return format_value(value)
