"""What a fresh process's first compile loads: the benchmark's first compile of vector add (one
function, no calls) gets through the CPU backend without networkx, as its analyses build no
graph for such a kernel, and without the GPU dialects, the code generator's libraries (lark,
jinja2) or the CUDA bindings; compiled for CUDA (no GPU needed), it loads no networkx either,
nor numpy. Neither loads what only other kernels need (the math dialect, liveness, the CPU
lowerings of dots, reductions, atomics and debug ops, tensor descriptors) or what only other
work needs (pass timing, subprocess: libm is looked for only for code that calls it)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("cpu_launch",
                                               ROOT / "tools" / "bench" / "cpu_launch.py")
cpu_launch = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(cpu_launch)

# Modules a first compile of vector add must not load (for the CPU backend: all of them).
NOT_FOR_EITHER = ("networkx", "lark", "jinja2", "lightgbm", "matplotlib",
                  "tilecraft.generated.math", "tilecraft.analysis.liveness",
                  "tilecraft.transforms.timing", "tilecraft.runtime.tensor_descriptor")
NOT_FOR_CUDA = (*NOT_FOR_EITHER, "numpy")
NOT_FOR_CPU = (*NOT_FOR_EITHER, "cuda", "tilecraft.generated.ttg", "tilecraft.generated.ttng",
               "tilecraft.layouts", "tilecraft.backends.cpu.dot",
               "tilecraft.backends.cpu.dot_amx", "tilecraft.backends.cpu.reductions",
               "tilecraft.backends.cpu.atomics",
               "tilecraft.backends.cpu.debug", "subprocess", "uuid")

CUDA_COMPILE = """import tilecraft as tc
import tilecraft.language as tl

@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)

signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
             "BLOCK": "constexpr"}
source = tc.ASTSource(fn=add_kernel, signature=signature, constexprs={"BLOCK": 1024})
compiled = tc.compile(source, target=tc.GPUTarget("cuda", 90, 32))
assert ".entry add_kernel" in compiled.asm["ptx"]
"""


def _check(tmp_path, script: str, absent: tuple[str, ...], backend: str) -> None:
    path = tmp_path / "first_compile.py"  # the frontend reads the kernel's source
    check = (f"import sys\nloaded = [m for m in {absent!r} if m in sys.modules]\n"
             "assert not loaded, f'loaded: {loaded}'\n")
    path.write_text(script + check)
    env = {**os.environ, "TILECRAFT_BACKEND": backend,
           "TILECRAFT_CACHE_DIR": str(tmp_path / "c")}
    env.pop("TILECRAFT_QUICK_BUILDS", None)  # (as a user's process: quick builds on)
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_first_compile_loads_no_heavy_module(tmp_path):
    _check(tmp_path, cpu_launch.FIRST_COMPILE, NOT_FOR_CPU, "cpu")


def test_first_cuda_compile_does_not_import_networkx_or_numpy(tmp_path):
    from tilecraft.backends.cuda import toolchain

    try:
        toolchain.find_ptxas()
    except toolchain.ToolchainError as error:
        pytest.skip(str(error))
    _check(tmp_path, CUDA_COMPILE, NOT_FOR_CUDA, "cpu")

