"""Compiled kernels: which backend runs a launch, the compile cache, and the launch itself.

``TILECRAFT_BACKEND`` picks the backend: ``cpu`` (host LLVM through llvmlite's JIT),
``interpret`` (the numpy interpreter, as ``TILECRAFT_INTERPRET=1``) or ``cuda``. Left unset, a
launch runs on CUDA when the CUDA backend is built and a usable GPU and driver are present, and
on the CPU otherwise. (The CUDA backend does not exist yet: ``cuda`` is refused with a message.)

A `CompiledKernel` keeps each stage's text in ``asm`` (``ttir``, ``llir``, ``asm`` for the CPU),
as Triton's does, and compiled objects are cached on disk (`tilecraft.runtime.cache`) under a key
made of the kernel's `tt` IR, the backend's source and the host CPU's name and features.
"""

from __future__ import annotations

import importlib.util
import os

from . import cache

BACKENDS = ("cpu", "cuda", "interpret")


class BackendError(RuntimeError):
    """A backend that was asked for and cannot run here."""


def _cuda_backend_built() -> bool:
    return importlib.util.find_spec("tilecraft.backends.nvptx") is not None


def selected_backend() -> str:
    """The backend launches use now (see the module docstring)."""
    if os.environ.get("TILECRAFT_INTERPRET", "") not in ("", "0"):
        return "interpret"
    name = os.environ.get("TILECRAFT_BACKEND", "").strip().lower()
    if not name:
        return "cuda" if _cuda_backend_built() and _cuda_usable() else "cpu"
    if name not in BACKENDS:
        raise BackendError(f"TILECRAFT_BACKEND={name!r}: choose one of {', '.join(BACKENDS)}")
    if name == "cuda" and not _cuda_backend_built():
        raise BackendError("TILECRAFT_BACKEND=cuda: tilecraft has no CUDA backend yet; use "
                           "'cpu' or 'interpret'")
    return name


def _cuda_usable() -> bool:
    """Whether cuda-python is installed and the driver reports a GPU."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return False
    error, = driver.cuInit(0)[:1]
    if int(error) != 0:
        return False
    error, count = driver.cuDeviceGetCount()
    return int(error) == 0 and count > 0


class CompiledKernel:
    """A kernel compiled for one specialization on one backend: ``asm`` has each stage's text,
    ``metadata`` what launching needs; ``launch(grid, args)`` runs it."""

    def __init__(self, name: str, asm: dict, metadata: dict, launcher) -> None:
        self.name = name
        self.asm = asm
        self.metadata = metadata
        self._launcher = launcher

    def __repr__(self) -> str:
        return f"CompiledKernel({self.name}, stages={list(self.asm)})"

    def launch(self, grid: tuple[int, int, int], args: list) -> None:
        self._launcher.launch(grid, args)


def compile_for_cpu(module) -> CompiledKernel:
    """``module`` (the frontend's `tt` module) compiled for the host CPU, from the disk cache
    when it holds it."""
    from tilecraft import __version__
    from tilecraft.backends.cpu import compiler, engine, mathlib
    from tilecraft.ir import print_op

    from .cpu_driver import CPUKernel

    key = cache.cache_key("cpu", __version__, print_op(module), engine.host_cache_key_parts(),
                          compiler.backend_fingerprint())
    entry = cache.get(key)
    binary = None
    if entry is not None:
        metadata = entry[cache.METADATA_FILE]
        try:
            binary = compiler.binary_from_cache(metadata["name"], entry, metadata)
        except (KeyError, TypeError):
            binary = None
    if binary is None:
        binary = compiler.compile_ttir(module)
        cache.put(key, compiler.cache_files(binary), binary.metadata())
    info = binary.info
    mathlib.load_libm()
    launcher = CPUKernel(engine.JITLibrary(binary.obj), info.grid_symbol, info.arg_kinds,
                         info.prints, info.asserts)
    return CompiledKernel(binary.name, binary.asm, binary.metadata(), launcher)


def launch_arguments(spec, arg_kinds: list[str]) -> list:
    """The runtime arguments of a specialization in launch order: addresses for arrays,
    integers wrapped to their width (an unsigned value given for a signed slot), floats."""
    from .jit import address_of, is_array_like, is_torch_tensor

    values = []
    for (name, _), kind in zip(spec.arg_types.items(), arg_kinds):
        value = spec.bound[name]
        if is_array_like(value):
            if is_torch_tensor(value) and getattr(value, "is_cuda", False):
                raise BackendError(f"argument '{name}' is a CUDA tensor, but the kernel runs on "
                                   "the CPU backend")
            values.append(address_of(value))
        elif kind.startswith("i") and not isinstance(value, float):
            width = int(kind[1:])
            value = int(value) & ((1 << width) - 1)
            values.append(value - (1 << width) if width > 1 and value >> (width - 1) else value)
        else:
            values.append(float(value) if kind.startswith("fp") else value)
    return values
