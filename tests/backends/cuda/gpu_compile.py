"""Compiling kernels that ran elsewhere (on the CPU backend) for sm_80 and sm_90a, so that every
example and classic kernel is known to compile for the GPU even where there is none."""

from __future__ import annotations

from tilecraft.backends.cuda import toolchain
from tilecraft.frontend.errors import CompilationError
from tilecraft.runtime.compiler import compile_module, get_backend
from tilecraft.runtime.jit import JITFunction


def have_ptxas() -> bool:
    try:
        toolchain.find_ptxas()
    except toolchain.ToolchainError:
        return False
    return True


def jit_functions(namespace: dict) -> list[JITFunction]:
    """The `@jit` kernels in a module's globals (also under autotune/heuristics wrappers)."""
    found = []
    for value in namespace.values():
        while not isinstance(value, JITFunction) and hasattr(value, "fn"):
            value = value.fn
        if isinstance(value, JITFunction) and value not in found:
            found.append(value)
    return found


def compile_module_for_gpus(module) -> int:
    """Compiles a `tt` module for sm_80 and sm_90a; returns how many cubins were made.
    fp8e4nv kernels are refused on sm_80, as Triton does."""
    made = 0
    for capability in (80, 90):
        try:
            compiled = compile_module(module, get_backend("cuda", capability))
        except CompilationError as error:
            if capability == 80 and "f8E4M3FN is not supported on sm_80" in str(error):
                continue
            raise
        assert compiled.asm["cubin"][:4] == b"\x7fELF"
        made += 1
    return made


def compile_specializations_for_gpus(kernels: list[JITFunction]) -> int:
    """Compiles every specialization the kernels were launched with for sm_80 and sm_90a;
    returns how many cubins were made."""
    return sum(compile_module_for_gpus(module) for kernel in kernels
               for module in kernel._cache.values())
