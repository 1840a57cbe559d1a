"""Compiling a `tt` module for the host CPU: the tile passes, the lowering to LLVM IR, and LLVM
at O3 into an object file. Every stage's text is kept (``ttir``, ``llir``, ``asm``); ``asm``,
a second code generation, is made from ``llir`` when it is first read, and the compile cache
stores the other stages only.

A kernel whose programs run straight through (`runs_straight`: no loop, no call, no dot) may
be built quickly instead (`compile_ttir`'s ``quick``): its lowered IR goes to LLVM's level-0
code generation with no optimization, about 2 ms of LLVM where O3 takes 30 for a vector add,
for code that runs several times slower; `optimized` makes the O3 build from it. The runtime
launches a new specialization's quick build and replaces it with the optimized one once the
kernel has run long enough to pay for it (`runtime.cpu_driver`)."""

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
    metadata; ``quick`` for a quick build (whose ``llir`` is the lowering's, unoptimized)."""

    __slots__ = ("name", "asm", "obj", "info", "quick")

    def __init__(self, name: str, asm: StageTexts, obj: bytes, info: KernelInfo,
                 quick: bool = False) -> None:
        self.name = name
        self.asm = asm
        self.obj = obj
        self.info = info
        self.quick = quick

    def metadata(self) -> dict:
        return {"name": self.info.name, "arg_kinds": self.info.arg_kinds,
                "prints": self.info.prints, "asserts": self.info.asserts,
                "grid_symbol": self.info.grid_symbol}


# Ops whose programs may run long (loops, calls, matrix products): code with them is always
# optimized, since a quick build's program could run for far longer than O3 takes.
_LONG_RUNNING = frozenset({"scf.for", "scf.while", "cf.br", "cf.cond_br", "tt.call", "tt.dot",
                           "tt.dot_scaled"})


def runs_straight(ttir: Operation) -> bool:
    """Whether every program of ``ttir`` runs straight through: no loop, branch, call or dot,
    so that its time is bounded by its tiles' sizes (and a quick build may run it)."""
    return not any(op.name in _LONG_RUNNING for op in ttir.walk())


def compile_ttir(module: Operation, *, quick: bool = False) -> CPUBinary:
    """``module`` (the frontend's `tt` module) compiled for this machine's CPU: a quick build
    if ``quick`` is asked for and the kernel `runs_straight`, else the optimized one."""
    from . import engine

    ttir = make_ttir(module)
    llvm_module, info = lower_kernel(ttir)
    quick = quick and runs_straight(ttir)
    compiled = engine.compile_module(str(llvm_module), info.name, quick=quick)
    return CPUBinary(info.name, StageTexts(print_op(ttir), compiled.llir), compiled.obj, info,
                     quick)


def optimized(binary: CPUBinary) -> CPUBinary:
    """The optimized build of a quick ``binary``, from its (unoptimized) LLVM IR."""
    from . import engine

    compiled = engine.compile_module(binary.asm["llir"], binary.name)
    return CPUBinary(binary.name, StageTexts(binary.asm["ttir"], compiled.llir), compiled.obj,
                     binary.info)


def binary_from_cache(name: str, files: dict, metadata: dict) -> CPUBinary:
    """A `CPUBinary` rebuilt from a compile-cache entry written by `cache_files`."""
    info = KernelInfo(metadata["name"], list(metadata["arg_kinds"]), list(metadata["prints"]),
                      list(metadata["asserts"]))
    asm = StageTexts(files[f"{name}.ttir"], files[f"{name}.llir"])
    quick = metadata.get("quick", False)
    if not isinstance(quick, bool):
        raise ValueError(f"'quick' is {quick!r}, not a boolean")
    return CPUBinary(name, asm, files[f"{name}.o"], info, quick)


def cache_metadata(binary: CPUBinary) -> dict:
    """The metadata of ``binary``'s compile-cache entry: the launch metadata, and whether it is
    a quick build."""
    return {**binary.metadata(), "quick": binary.quick}


def cache_files(binary: CPUBinary) -> dict[str, bytes | str]:
    """The files of ``binary``'s compile-cache entry: its ``ttir`` and ``llir`` stages and its
    object code (``asm`` is made again from ``llir`` when read)."""
    return {f"{binary.name}.ttir": binary.asm["ttir"], f"{binary.name}.llir": binary.asm["llir"],
            f"{binary.name}.o": binary.obj}
