"""Ahead-of-time compilation to C, as Triton's ``tools/compile.py``: ``tilecraft-compile``.

::

    tilecraft-compile kernel.py --kernel-name add_kernel \\
        --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --grid "cdiv(n, 1024), 1, 1" \\
        --out-name add_kernel -o build/ [--num-warps 4] [--num-stages 3] [--target cuda:90]

runs ``kernel.py`` (from its own folder), compiles its ``@jit`` kernel ``add_kernel`` for the
signature on the CUDA target (default: this machine's GPU) and writes
``build/add_kernel.<hash>.h`` and ``.c``: the cubin embedded as bytes, and on the CUDA driver
API, for a context that is current::

    CUresult load_add_kernel_<hash>(void);    /* also done by the first launch */
    CUresult unload_add_kernel_<hash>(void);
    CUresult add_kernel_<hash>(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr,
                               CUdeviceptr out_ptr, int32_t n);

The signature gives each parameter of the kernel in order: a pointer (``*fp32``), a scalar
(``i32``, ``u64``, ``fp32``...; ``i1`` is a C ``bool``), either with ``:16`` when it is a
multiple of 16 (for pointers: 16-byte aligned) or, for integers, ``:1`` when it is 1 (then it
is a constant, as a number is); or a number or ``True``/``False``, which makes the parameter a
compile-time constant (constexpr parameters must have one). Constants are not in the C
function's parameters. The grid is three C integer expressions over the integer parameters,
constants, ``+ - * / // %`` (integer division) and ``cdiv(a, b)``; a launch of an empty grid
does nothing. The hash in the names is that of the cubin, the signature and the grid.

Mistakes (a file without the kernel, a signature entry that does not parse or does not suit its
parameter, a grid naming something else) are reported as ``tilecraft-compile: error: ...``
naming the entry, with no traceback.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_C_TYPES = {
    "ptr": "CUdeviceptr", "i1": "bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
    "i64": "int64_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t",
    "fp32": "float", "fp64": "double",
}
_INTEGER_KINDS = frozenset({"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})
_C_KEYWORDS = frozenset((
    "auto break case char const continue default do double else enum extern float for goto if "
    "inline int long register restrict return short signed sizeof static struct switch typedef "
    "union unsigned void volatile while bool stream args slots").split())
_GRID_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/",
                   ast.Mod: "%"}


class AOTError(ValueError):
    """A mistake in what ``tilecraft-compile`` was given; the message names it."""


@dataclass(frozen=True)
class Parameter:
    """A runtime parameter of the C launch function: its name, launch kind and C type."""

    name: str
    kind: str
    c_type: str


@dataclass(frozen=True)
class Signature:
    """A parsed signature: ``types`` of the runtime parameters (``"*fp32:16"``), ``constants``
    (numbers, and integers given as ``:1``), and ``ones``: the types of the parameters given as
    ``:1``."""

    types: dict[str, str]
    constants: dict[str, Any]
    ones: dict[str, str]


@dataclass(frozen=True)
class Generated:
    """What `compile_kernel` wrote: the launch function's name and the two files."""

    function: str
    header: Path
    source: Path


def load_kernel(path: Path, kernel_name: str) -> Any:
    """The `JITFunction` named ``kernel_name`` in the Python file ``path`` (run from its own
    folder); one under ``@autotune``/``@heuristics`` is taken as the kernel beneath them."""
    from .jit import JITFunction

    if not path.is_file():
        raise AOTError(f"{path}: no such file")
    folder = str(path.parent.resolve())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    value = getattr(module, kernel_name, None)
    while value is not None and not isinstance(value, JITFunction) and hasattr(value, "fn"):
        value = value.fn
    if not isinstance(value, JITFunction):
        kernels = sorted(name for name, item in vars(module).items()
                         if isinstance(item, JITFunction) or hasattr(item, "fn"))
        raise AOTError(f"{path} has no @tilecraft.jit kernel named {kernel_name!r} (it has: "
                       f"{', '.join(kernels) or 'none'})")
    return value


def parse_signature(kernel: Any, text: str) -> Signature:
    """The signature ``text``, such as ``"*fp32:16, i32, 1024"``, of ``kernel``'s parameters in
    order."""
    from tilecraft.language import core as tl

    entries = [entry.strip() for entry in text.split(",")]
    names = kernel.arg_names
    if len(entries) != len(names):
        raise AOTError(f"the signature has {len(entries)} entries; {kernel.__name__} takes "
                       f"{len(names)} parameters ({', '.join(names)})")
    types: dict[str, str] = {}
    constants: dict[str, Any] = {}
    ones: dict[str, str] = {}
    for position, (name, entry) in enumerate(zip(names, entries), start=1):
        where = f"signature entry {position} ({entry!r}, parameter {name!r})"
        constant = _number(entry)
        if constant is not None:
            constants[name] = constant
            continue
        if name in kernel.constexpr_names:
            raise AOTError(f"{where}: {name} is a constexpr parameter; give its value")
        base, _, hint = entry.partition(":")
        try:
            tl.str_to_ty(base.strip())
        except Exception:  # noqa: BLE001 - whatever the parser raises, the entry is wrong
            raise AOTError(f"{where}: not a type such as *fp32, i32 or fp32, nor a number") \
                from None
        if hint not in ("", "16", "1"):
            raise AOTError(f"{where}: the hint after ':' is 16 (a multiple of 16) or 1 (equal "
                           "to 1)")
        if hint == "1":
            if base.strip() not in _INTEGER_KINDS:
                raise AOTError(f"{where}: only integers (i32, u64, ...) can be specialized to 1")
            constants[name] = 1
            ones[name] = base.strip()
            continue
        types[name] = base.strip() + (":16" if hint == "16" else "")
    return Signature(types, constants, ones)


def _number(entry: str) -> int | float | bool | None:
    if entry in ("True", "False"):
        return entry == "True"
    for convert in (int, float):
        try:
            return convert(entry)
        except ValueError:
            pass
    return None


def grid_to_c(text: str, integers: Sequence[str], constants: dict[str, Any]) -> list[str]:
    """The three C expressions of a grid such as ``"cdiv(n, 1024), 1, 1"``."""
    parts = [part.strip() for part in _split_top_level(text)]
    if len(parts) != 3:
        raise AOTError(f"the grid {text!r} has {len(parts)} dimensions; give three, such as "
                       "'cdiv(n, 1024), 1, 1'")
    expressions = []
    for axis, part in zip("xyz", parts):
        try:
            tree = ast.parse(part, mode="eval").body
        except SyntaxError:
            raise AOTError(f"grid {axis} {part!r} is not an expression") from None
        expressions.append(_grid_expression(tree, part, axis, integers, constants))
    return expressions


def _split_top_level(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return parts + [text[start:]]


def _grid_expression(node: ast.expr, text: str, axis: str, integers: Sequence[str],
                     constants: dict[str, Any]) -> str:
    def emit(node: ast.expr) -> str:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return f"{node.value}LL"
        if isinstance(node, ast.Name):
            if node.id in integers:
                return f"(int64_t){node.id}"
            value = constants.get(node.id)
            if type(value) is int:
                return f"{value}LL"
            raise AOTError(f"grid {axis} {text!r}: {node.id!r} is not an integer parameter or "
                           f"constant of the kernel")
        if isinstance(node, ast.BinOp) and type(node.op) in _GRID_OPERATORS:
            return f"({emit(node.left)} {_GRID_OPERATORS[type(node.op)]} {emit(node.right)})"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return f"(-{emit(node.operand)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "cdiv" and len(node.args) == 2 and not node.keywords:
            a, b = (emit(arg) for arg in node.args)
            return f"(({a} + {b} - 1) / {b})"
        raise AOTError(f"grid {axis} {text!r}: only integers, integer parameters, + - * / // % "
                       f"and cdiv(a, b) may be used")

    return emit(node)


def compile_kernel(path: Path, kernel_name: str, signature: str, grid: str,
                   out_dir: Path, out_name: str | None = None, num_warps: int = 4,
                   num_stages: int = 3, target: str | None = None) -> Generated:
    """Compiles the kernel and writes its ``.h`` and ``.c`` (see the module docstring)."""
    from .compiler import ASTSource, compile

    kernel = load_kernel(path, kernel_name)
    parsed = parse_signature(kernel, signature)
    compiled = compile(ASTSource(kernel, parsed.types, parsed.constants),
                       target=_target(target),
                       options={"num_warps": num_warps, "num_stages": num_stages})
    metadata = compiled.metadata
    parameters = _c_parameters(metadata["arg_names"], metadata["arg_kinds"], parsed.types)
    integers = [p.name for p in parameters if p.kind in _INTEGER_KINDS]
    grid_c = grid_to_c(grid, integers, parsed.constants)
    cubin = compiled.asm["cubin"]
    digest = hashlib.sha256(cubin + f"\0{signature}\0{grid}".encode()).hexdigest()[:8]
    out_name = out_name or kernel_name
    function = f"{out_name}_{digest}"
    described = ", ".join([*(f"{k}={v!r}" for k, v in parsed.constants.items()),
                           f"num_warps={metadata['num_warps']}", f"num_stages={num_stages}"])
    out_dir.mkdir(parents=True, exist_ok=True)
    header = out_dir / f"{out_name}.{digest}.h"
    source = out_dir / f"{out_name}.{digest}.c"
    prototype = _prototype(function, parameters)
    comment = (f"kernel {kernel_name} of {path.name}, signature \"{signature}\", grid "
               f"({grid}); {described}; {metadata['shared']} bytes of shared memory")
    record = json.dumps({"name": out_name, "function": function,
                         "parameters": _link_parameters(kernel, parsed, parameters)})
    header.write_text(_HEADER.format(file=header.name, comment=comment, function=function,
                                     prototype=prototype, record=record))
    shared = metadata["shared"]
    source.write_text(_SOURCE.format(
        file=source.name, header=header.name, function=function, prototype=prototype,
        size=len(cubin), data=_bytes_in_c(cubin), name=metadata["name"], shared=shared,
        opt_in=_OPT_IN.format(shared=shared) if shared > 48 * 1024 else "",
        threads=32 * metadata["num_warps"], slots=max(1, len(parameters)),
        grid_x=grid_c[0], grid_y=grid_c[1], grid_z=grid_c[2],
        pack="".join(f"    memcpy(&slots[{index}], &{p.name}, sizeof {p.name});\n"
                     f"    args[{index}] = &slots[{index}];\n"
                     for index, p in enumerate(parameters))))
    return Generated(function, header, source)


def _link_parameters(kernel: Any, parsed: Signature,
                     parameters: list[Parameter]) -> list[dict[str, Any]]:
    """What `tilecraft.runtime.aot_link` dispatches on: each parameter that is not a number in
    the signature, in the kernel's order, with its C type and hint (16, 1 or None)."""
    c_types = {p.name: p.c_type for p in parameters}
    c_types.update((name, _C_TYPES[text]) for name, text in parsed.ones.items())
    hints = {**{name: 16 for name, text in parsed.types.items() if text.endswith(":16")},
             **{name: 1 for name in parsed.ones}}
    return [{"name": name, "c_type": c_types[name], "hint": hints.get(name)}
            for name in kernel.arg_names if name in c_types]


def _c_parameters(names: Sequence[str], kinds: Sequence[str],
                  types: dict[str, str]) -> list[Parameter]:
    """The C launch function's parameters: the compiled kernel's, by name and launch kind."""
    parameters = []
    for name, kind in zip(names, kinds):
        if kind not in _C_TYPES:
            raise AOTError(f"parameter {name!r} ({types[name]}): {kind} scalars cannot be "
                           "passed from C; make it a pointer or a constant")
        if name in _C_KEYWORDS:
            raise AOTError(f"parameter {name!r} cannot be named so in C; rename it")
        parameters.append(Parameter(name, kind, _C_TYPES[kind]))
    return parameters


def _target(text: str | None) -> Any:
    from .compiler import GPUTarget

    if text is None:
        from tilecraft.backends.cuda import driver

        if not driver.is_available():
            raise AOTError("no GPU here to compile for: give --target, such as cuda:90")
        return GPUTarget("cuda", driver.device_properties()["capability"])
    backend, _, arch = text.partition(":")
    if backend != "cuda" or not arch.removeprefix("sm_").rstrip("a").isdigit():
        raise AOTError(f"--target {text!r}: give cuda:<compute capability>, such as cuda:90")
    return GPUTarget("cuda", arch)


def _prototype(function: str, parameters: list[Parameter]) -> str:
    arguments = "".join(f", {p.c_type} {p.name}" for p in parameters)
    return f"CUresult {function}(CUstream stream{arguments})"


def _bytes_in_c(data: bytes) -> str:
    lines = [", ".join(f"0x{byte:02x}" for byte in data[start:start + 16])
             for start in range(0, len(data), 16)]
    return ",\n    ".join(lines)


_HEADER = """\
/* {file}: written by tilecraft-compile; do not edit.
   {comment}. */
/* tilecraft-link: {record} */
#pragma once
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {{
#endif

/* Loads the kernel in the current context (the first launch does it too). */
CUresult load_{function}(void);
/* Unloads it; the next launch loads it again. */
CUresult unload_{function}(void);
/* Launches the kernel on `stream` over its grid; an empty grid launches nothing. */
{prototype};

#ifdef __cplusplus
}}
#endif
"""

# Dynamic shared memory past 48 KiB must be asked for.
_OPT_IN = """\
    if (status == CUDA_SUCCESS)
        status = cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    {shared});
"""

_SOURCE = """\
/* {file}: written by tilecraft-compile; do not edit. */
#include "{header}"

#include <string.h>

static const unsigned char cubin[{size}] = {{
    {data}
}};
static CUmodule module_;
static CUfunction function_;

CUresult load_{function}(void) {{
    CUresult status = cuModuleLoadData(&module_, cubin);
    if (status != CUDA_SUCCESS) return status;
    status = cuModuleGetFunction(&function_, module_, "{name}");
{opt_in}    if (status != CUDA_SUCCESS) {{
        cuModuleUnload(module_);
        module_ = NULL;
        function_ = NULL;
    }}
    return status;
}}

CUresult unload_{function}(void) {{
    if (module_ == NULL) return CUDA_SUCCESS;
    CUresult status = cuModuleUnload(module_);
    module_ = NULL;
    function_ = NULL;
    return status;
}}

{prototype} {{
    if (function_ == NULL) {{
        CUresult status = load_{function}();
        if (status != CUDA_SUCCESS) return status;
    }}
    const int64_t gx = {grid_x}, gy = {grid_y}, gz = {grid_z};
    if (gx <= 0 || gy <= 0 || gz <= 0) return CUDA_SUCCESS;
    uint64_t slots[{slots}] = {{0}};
    void *args[{slots}];
{pack}    return cuLaunchKernel(function_, (unsigned)gx, (unsigned)gy, (unsigned)gz,
                          {threads}, 1, 1, {shared}, stream, args, NULL);
}}
"""


def main(argv: Sequence[str] | None = None) -> int:
    """``tilecraft-compile``: see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="tilecraft-compile",
        description="Compile a @tilecraft.jit kernel ahead of time to a C header and source "
                    "that embed its cubin and launch it through the CUDA driver API.")
    parser.add_argument("path", type=Path, help="the Python file that defines the kernel")
    parser.add_argument("--kernel-name", "-n", required=True)
    parser.add_argument("--signature", "-s", required=True,
                        help='each parameter in order, e.g. "*fp32:16, *fp32, i32, 1024"')
    parser.add_argument("--grid", "-g", required=True, help='e.g. "cdiv(n, 1024), 1, 1"')
    parser.add_argument("--out-name", "-on", default=None)
    parser.add_argument("--out-path", "-o", type=Path, default=Path("."),
                        help="the folder to write to")
    parser.add_argument("--num-warps", "-w", type=int, default=4)
    parser.add_argument("--num-stages", "-ns", type=int, default=3)
    parser.add_argument("--target", "-t", default=None,
                        help="cuda:<capability>, e.g. cuda:90 (default: this machine's GPU)")
    args = parser.parse_args(argv)
    from tilecraft.frontend.errors import CompilationError

    try:
        generated = compile_kernel(args.path, args.kernel_name, args.signature, args.grid,
                                   args.out_path, args.out_name, args.num_warps,
                                   args.num_stages, args.target)
    except (AOTError, CompilationError, OSError) as error:
        print(f"tilecraft-compile: error: {error}", file=sys.stderr)
        return 2
    print(f"{generated.function}: {generated.header} {generated.source}")
    return 0
