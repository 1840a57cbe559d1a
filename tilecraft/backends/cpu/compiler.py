"""Compiling a `tt` module for the host CPU: the tile passes, the lowering to LLVM IR, and LLVM
at O3 into an object file. Every stage's text is kept (``ttir``, ``llir``, ``asm``)."""

from __future__ import annotations

from dataclasses import dataclass

from tilecraft.ir import Operation, print_op

from ..ttir import make_ttir
from .lowering import KernelInfo, lower_kernel


@dataclass
class CPUBinary:
    """A kernel compiled for the host: its stages' text, the object code and the launch
    metadata."""

    name: str
    asm: dict[str, str]
    obj: bytes
    info: KernelInfo

    def metadata(self) -> dict:
        return {"name": self.info.name, "arg_kinds": self.info.arg_kinds,
                "prints": self.info.prints, "asserts": self.info.asserts,
                "grid_symbol": self.info.grid_symbol}


def compile_ttir(module: Operation) -> CPUBinary:
    """``module`` (the frontend's `tt` module) compiled for this machine's CPU."""
    from . import engine

    ttir = make_ttir(module)
    llvm_module, info = lower_kernel(ttir)
    compiled = engine.compile_module(str(llvm_module), info.name)
    asm = {"ttir": print_op(ttir), "llir": compiled.llir, "asm": compiled.asm}
    return CPUBinary(info.name, asm, compiled.obj, info)


def binary_from_cache(name: str, files: dict, metadata: dict) -> CPUBinary:
    """A `CPUBinary` rebuilt from a compile-cache entry written by `cache_files`."""
    info = KernelInfo(metadata["name"], list(metadata["arg_kinds"]), list(metadata["prints"]),
                      list(metadata["asserts"]))
    asm = {stage: files[f"{name}.{suffix}"] for stage, suffix in _STAGE_FILES.items()}
    return CPUBinary(name, asm, files[f"{name}.o"], info)


def cache_files(binary: CPUBinary) -> dict[str, bytes | str]:
    files: dict[str, bytes | str] = {f"{binary.name}.{suffix}": binary.asm[stage]
                                     for stage, suffix in _STAGE_FILES.items()}
    files[f"{binary.name}.o"] = binary.obj
    return files


_STAGE_FILES = {"ttir": "ttir", "llir": "llir", "asm": "s"}
