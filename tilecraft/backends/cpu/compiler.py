"""Compiling a `tt` module for the host CPU: the tile passes, the lowering to LLVM IR, and LLVM
at O3 into an object file. Every stage's text is kept (``ttir``, ``llir``, ``asm``); ``asm``,
a second code generation, is made from ``llir`` when it is first read, and the compile cache
stores the other stages only."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from tilecraft.ir import Operation, print_op

from ..ttir import make_ttir
from .lowering import KernelInfo, lower_kernel


class StageTexts(Mapping[str, str]):
    """Each stage's text by name (``ttir``, ``llir``, ``asm``): a read-only mapping whose
    ``asm`` is generated from ``llir`` (`engine.assembly`) on first access."""

    def __init__(self, ttir: str, llir: str) -> None:
        self._texts = {"ttir": ttir, "llir": llir}

    def __getitem__(self, stage: str) -> str:
        if stage == "asm" and stage not in self._texts:
            from . import engine

            self._texts[stage] = engine.assembly(self._texts["llir"])
        return self._texts[stage]

    def __iter__(self) -> Iterator[str]:
        return iter(("ttir", "llir", "asm"))

    def __len__(self) -> int:
        return 3

    def __repr__(self) -> str:
        return f"StageTexts({', '.join(self)})"


class CPUBinary:
    """A kernel compiled for the host: its stages' text, the object code and the launch
    metadata."""

    __slots__ = ("name", "asm", "obj", "info")

    def __init__(self, name: str, asm: StageTexts, obj: bytes, info: KernelInfo) -> None:
        self.name = name
        self.asm = asm
        self.obj = obj
        self.info = info

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
    return CPUBinary(info.name, StageTexts(print_op(ttir), compiled.llir), compiled.obj, info)


def binary_from_cache(name: str, files: dict, metadata: dict) -> CPUBinary:
    """A `CPUBinary` rebuilt from a compile-cache entry written by `cache_files`."""
    info = KernelInfo(metadata["name"], list(metadata["arg_kinds"]), list(metadata["prints"]),
                      list(metadata["asserts"]))
    asm = StageTexts(files[f"{name}.ttir"], files[f"{name}.llir"])
    return CPUBinary(name, asm, files[f"{name}.o"], info)


def cache_files(binary: CPUBinary) -> dict[str, bytes | str]:
    """The files of ``binary``'s compile-cache entry: its ``ttir`` and ``llir`` stages and its
    object code (``asm`` is made again from ``llir`` when read)."""
    return {f"{binary.name}.ttir": binary.asm["ttir"], f"{binary.name}.llir": binary.asm["llir"],
            f"{binary.name}.o": binary.obj}
