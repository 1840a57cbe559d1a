"""Linking ahead-of-time compiled specializations, as Triton's ``tools/link.py``:
``tilecraft-link``.

::

    tilecraft-link build/add_kernel.*.h -o build/kernels

reads the headers that `tilecraft.runtime.aot` wrote and writes ``build/kernels.h`` and
``build/kernels.c`` with, for each kernel name (``--out-name`` of ``tilecraft-compile``), one
function over all its specializations::

    CUresult add_kernel(CUstream stream, CUdeviceptr x_ptr, ..., int32_t n);
    CUresult load_add_kernel(void);      /* loads every specialization */
    CUresult unload_add_kernel(void);

A launch takes the first specialization whose hints the arguments meet (``:16``: the value is a
multiple of 16; ``:1``: it is 1), trying those with the most hints first, and returns
``CUDA_ERROR_INVALID_VALUE`` when none does. The headers are included by their paths relative
to the output's folder. Every specialization of a name must take the same
parameters (the numbers of the signature aside), with the same C types.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .aot import AOTError

_RECORD = "/* tilecraft-link: "


@dataclass(frozen=True)
class Specialization:
    """One generated header: its file, launch function and parameters (name, C type, hint)."""

    header: Path
    name: str
    function: str
    parameters: list[dict[str, Any]]

    @property
    def conditions(self) -> list[str]:
        """The C conditions under which the arguments suit this specialization."""
        tests = {16: "{name} % 16 == 0", 1: "{name} == 1"}
        return [tests[p["hint"]].format(name=p["name"]) for p in self.parameters
                if p["hint"] is not None]


def read_header(path: Path) -> Specialization:
    """The specialization that a header written by ``tilecraft-compile`` describes."""
    try:
        line = next(line for line in path.read_text().splitlines() if line.startswith(_RECORD))
        record = json.loads(line[len(_RECORD):].removesuffix("*/"))
        return Specialization(path, record["name"], record["function"], record["parameters"])
    except StopIteration:
        raise AOTError(f"{path}: not a header written by tilecraft-compile") from None
    except (ValueError, KeyError, TypeError) as error:
        raise AOTError(f"{path}: its tilecraft-link record is damaged ({error})") from None


def link(headers: Sequence[Path], out_prefix: Path) -> tuple[Path, Path]:
    """Writes ``<out_prefix>.h`` and ``.c`` dispatching over the specializations of
    ``headers`` (see the module docstring); returns their paths."""
    if not headers:
        raise AOTError("no headers to link")
    groups: dict[str, list[Specialization]] = {}
    for path in headers:
        specialization = read_header(path)
        groups.setdefault(specialization.name, []).append(specialization)
    declarations, definitions = [], []
    for name, specializations in groups.items():
        parameters = _common_parameters(name, specializations)
        prototype = "CUresult {}(CUstream stream{})".format(
            name, "".join(f", {p['c_type']} {p['name']}" for p in parameters))
        declarations.append(_DECLARATIONS.format(name=name, prototype=prototype))
        ordered = sorted(specializations, key=lambda s: -len(s.conditions))
        branches = []
        for specialization in ordered:
            arguments = "".join(f", {p['name']}" for p in specialization.parameters
                                if p["hint"] != 1)
            call = f"return {specialization.function}(stream{arguments});"
            conditions = " && ".join(f"({c})" for c in specialization.conditions)
            branches.append(f"    if ({conditions}) {call}" if conditions else f"    {call}")
        loads = "".join(f"    if (status == CUDA_SUCCESS) status = load_{s.function}();\n"
                        for s in specializations)
        unloads = "".join(f"    if (unload_{s.function}() != CUDA_SUCCESS) status = "
                          "CUDA_ERROR_UNKNOWN;\n" for s in specializations)
        fallback = "    return CUDA_ERROR_INVALID_VALUE;\n" if ordered[-1].conditions else ""
        definitions.append(_DEFINITIONS.format(
            name=name, prototype=prototype, branches="\n".join(branches), fallback=fallback,
            loads=loads, unloads=unloads))
    header = out_prefix.with_name(out_prefix.name + ".h")
    source = out_prefix.with_name(out_prefix.name + ".c")
    includes = "".join(f'#include "{os.path.relpath(s.header, out_prefix.parent)}"\n'
                       for group in groups.values() for s in group)
    out_prefix.parent.mkdir(parents=True, exist_ok=True)
    header.write_text(_HEADER.format(file=header.name, includes=includes,
                                     declarations="\n".join(declarations)))
    source.write_text(_SOURCE.format(file=source.name, header=header.name,
                                     definitions="\n".join(definitions)))
    return header, source


def _common_parameters(name: str, specializations: list[Specialization]) -> list[dict[str, Any]]:
    """The parameters every specialization of ``name`` takes, with their C types."""
    first = specializations[0]
    expected = [(p["name"], p["c_type"]) for p in first.parameters]
    for other in specializations[1:]:
        found = [(p["name"], p["c_type"]) for p in other.parameters]
        if found != expected:
            raise AOTError(f"the specializations of {name} take different parameters: "
                           f"{first.header.name} {_listed(expected)}, {other.header.name} "
                           f"{_listed(found)}")
    return [{"name": n, "c_type": t} for n, t in expected]


def _listed(parameters: list[tuple[str, str]]) -> str:
    return "(" + ", ".join(f"{c_type} {name}" for name, c_type in parameters) + ")"


_HEADER = """\
/* {file}: written by tilecraft-link; do not edit. */
#pragma once
{includes}
#ifdef __cplusplus
extern "C" {{
#endif

{declarations}
#ifdef __cplusplus
}}
#endif
"""

_DECLARATIONS = """\
/* Loads (unloads) every specialization of {name} in the current context. */
CUresult load_{name}(void);
CUresult unload_{name}(void);
/* Launches the first specialization of {name} whose hints the arguments meet. */
{prototype};
"""

_SOURCE = """\
/* {file}: written by tilecraft-link; do not edit. */
#include "{header}"

{definitions}"""

_DEFINITIONS = """\
CUresult load_{name}(void) {{
    CUresult status = CUDA_SUCCESS;
{loads}    return status;
}}

CUresult unload_{name}(void) {{
    CUresult status = CUDA_SUCCESS;
{unloads}    return status;
}}

{prototype} {{
{branches}
{fallback}}}
"""


def main(argv: Sequence[str] | None = None) -> int:
    """``tilecraft-link``: see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="tilecraft-link",
        description="Join kernels compiled by tilecraft-compile behind one launch function per "
                    "kernel, which picks the specialization that the arguments suit.")
    parser.add_argument("headers", nargs="+", type=Path, help="headers tilecraft-compile wrote")
    parser.add_argument("--out", "-o", type=Path, required=True,
                        help="the path of the files to write, without .h or .c")
    args = parser.parse_args(argv)
    try:
        header, source = link(args.headers, args.out)
    except (AOTError, OSError) as error:
        print(f"tilecraft-link: error: {error}", file=sys.stderr)
        return 2
    print(f"{header} {source}")
    return 0
