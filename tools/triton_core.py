#!/usr/bin/env python3
"""Runs Triton's language tests (``python/test/unit/language/test_core.py``) against tilecraft.

Triton's test file is not part of this repository: give its path (a Triton checkout or the
snapshot's ``git archive``). The script sets up a scratch folder holding a copy of it, a
``triton`` package that forwards to ``tilecraft`` (``triton.jit`` is ``tilecraft.jit``,
``triton.language`` is ``tilecraft.language``, ...), the helpers the file imports from
``triton._internal_testing`` and a conftest with the ``device`` fixture, and runs pytest there on
the test functions Triton marks ``interpreter``:

    python tools/triton_core.py /tmp/triton/python/test/unit/language/test_core.py \\
        --mode cpu -- -k test_bin_op -q --maxfail 20

``--mode cpu`` runs kernels on the CPU backend, ``--mode interpret`` in the interpreter (and
sets ``TRITON_INTERPRET=1``, as the file expects). Tensors are CPU torch tensors, so torch must
be importable. Arguments after ``--`` go to pytest.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

_TRITON_INIT = '''"""A `triton` that forwards to tilecraft (written by tools/triton_core.py)."""
import inspect
import linecache
import sys
import textwrap
from collections.abc import Mapping

import tilecraft
import tilecraft.language
import tilecraft.language.core
from tilecraft import (  # noqa: F401
    Config, autotune, cdiv, compile, heuristics, jit, next_power_of_2, reinterpret,
)
from tilecraft.frontend.errors import CompilationError
from tilecraft.runtime import jit as _jit

from . import knobs, runtime, testing, tools  # noqa: F401

language = tilecraft.language
sys.modules["triton.language"] = tilecraft.language
sys.modules["triton.language.core"] = tilecraft.language.core
TritonError = CompilationError
_counter = [0]


class _WithGPUStages(Mapping):
    """A CPU kernel's stages, and the ``ttgir`` the CUDA backend makes of its ``ttir`` (sm_90,
    the launch's num_warps), made when first read: Triton's tests read the GPU IR of kernels
    they launch, and the CPU backend has none."""

    def __init__(self, stages, num_warps):
        self._stages = stages
        self._num_warps = num_warps
        self._ttgir = None

    def __getitem__(self, stage):
        if stage != "ttgir" or "ttgir" in self._stages:
            return self._stages[stage]
        if self._ttgir is None:
            from tilecraft.backends.cuda.compiler import CUDAOptions, make_ttgir
            from tilecraft.ir import parse_module, print_op

            ttir = parse_module(self._stages["ttir"])
            options = CUDAOptions(num_warps=self._num_warps, capability=90)
            self._ttgir = print_op(make_ttgir(ttir, options))
        return self._ttgir

    def __iter__(self):
        yield from self._stages
        if "ttgir" not in self._stages:
            yield "ttgir"

    def __len__(self):
        return len(list(iter(self)))


_run_slow = _jit.JITFunction._run_slow


def _run_slow_with_gpu_stages(self, args, kwargs, grid):
    compiled = _run_slow(self, args, kwargs, grid)
    if compiled is not None and not isinstance(compiled.asm, _WithGPUStages):
        compiled.asm = _WithGPUStages(compiled.asm, kwargs.get("num_warps") or 4)
    return compiled


_jit.JITFunction._run_slow = _run_slow_with_gpu_stages


class JITFunction(_jit.JITFunction):
    """tilecraft's JITFunction with Triton's `src` / `_unsafe_update_src`."""

    @property
    def src(self) -> str:
        lines = textwrap.dedent(inspect.getsource(self.fn)).splitlines(keepends=True)
        while not lines[0].lstrip().startswith("def "):
            lines.pop(0)
        return "".join(lines)

    def _unsafe_update_src(self, src: str) -> None:
        _counter[0] += 1
        filename = f"<triton-shim-{_counter[0]}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(keepends=True), filename)
        namespace: dict = {}
        exec(__builtins__["compile"](src, filename, "exec"), self.fn.__globals__, namespace)
        self.__init__(namespace[self.fn.__name__])
'''

_RUNTIME_INIT = '''from types import SimpleNamespace

from . import errors  # noqa: F401


class _Target(SimpleNamespace):
    pass


def _current_target():
    return _Target(backend="cpu", arch="cpu", warp_size=32)


driver = SimpleNamespace(active=SimpleNamespace(
    get_current_target=_current_target, get_current_device=lambda: 0,
    get_active_torch_device=lambda: "cpu",
    utils=SimpleNamespace(get_device_properties=lambda device: {"max_shared_mem": 1 << 20})))
'''

_ERRORS = "from tilecraft.frontend.errors import InterpreterError  # noqa: F401\n"
_TOOLS_INIT = ""
_TENSOR_DESCRIPTOR = "from tilecraft import TensorDescriptor  # noqa: F401\n"
_TESTING = "from tilecraft.testing import *  # noqa: F401,F403\n"
_KNOBS = '''"""Triton's knobs, as plain namespaces: tilecraft reads none of them."""
from types import SimpleNamespace

language = SimpleNamespace(default_fp_fusion=True, fp32_default=None)
runtime = SimpleNamespace(override_arch=None, interpret=False)
cache = SimpleNamespace(dir=None)
'''

_INTERNAL_TESTING = '''"""The helpers test_core.py imports from triton._internal_testing, for CPU tensors."""
import os
import re

import numpy as np
import torch
from numpy.random import RandomState

import tilecraft
import tilecraft.language as tl

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + ["bfloat16"]
_CANONICAL = {"bool": "i1", "float8_e4m3fn": "fp8e4nv", "float8e4nv": "fp8e4nv",
              "float8_e5m2": "fp8e5", "float8e5": "fp8e5", "float16": "fp16",
              "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}


def is_interpreter():
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def _false(*args, **kwargs):
    return False


is_cuda = is_hip = is_xpu = is_hopper = is_hopper_or_newer = is_ampere_or_newer = _false
is_blackwell = is_sm12x = is_hip_cdna = is_hip_cdna2 = is_hip_cdna3 = is_hip_cdna4 = _false
is_hip_rdna3 = is_hip_rdna4 = is_hip_gfx1250 = is_hip_rdna = _false


def get_arch():
    return ""


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random data of `dtype_str`: nonzero integers, normal floats, fp8 bits in [20, 40)."""
    shape = (shape,) if isinstance(shape, int) else shape
    rs = RandomState(seed=17) if rs is None else rs
    if dtype_str in integral_dtypes:
        info = np.iinfo(getattr(np, dtype_str))
        low = info.min if low is None else max(low, info.min)
        high = info.max if high is None else min(high, info.max)
        values = rs.randint(low, high, shape, dtype=getattr(np, dtype_str))
        values[values == 0] = 1
        return values
    if dtype_str and "float8" in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        bits = rs.normal(0, 1, shape).astype("float32").view("uint32") & np.uint32(0xFFFF0000)
        return bits.view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError(f"Unknown dtype {dtype_str}")


class TensorWrapper(tilecraft.reinterpret):
    """A reinterpreted torch tensor with the tensor methods Triton's TensorWrapper has."""

    @property
    def shape(self):
        return self.base.shape

    @property
    def device(self):
        return self.base.device

    def stride(self, *dim):
        return self.base.stride(*dim)

    def data_ptr(self):
        return self.base.data_ptr()

    def numel(self):
        return self.base.numel()

    def dim(self):
        return self.base.dim()

    def size(self, *dim):
        return self.base.size(*dim)

    def element_size(self):
        return self.dtype.primitive_bitwidth // 8

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base)
        return self

    def cpu(self):
        return self


def to_triton(x, device, dst_type=None):
    """A torch tensor of `x` (unsigned and fp8 data as `TensorWrapper` views)."""
    name = x.dtype.name
    if name in uint_dtypes:
        signed = x.astype(getattr(np, name[1:]))
        return TensorWrapper(torch.tensor(signed, device=device), getattr(tl, name))
    if dst_type and "float8" in dst_type:
        return TensorWrapper(torch.tensor(x, device=device), getattr(tl, dst_type))
    if name == "float32" and dst_type == "bfloat16":
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device)


def str_to_triton_dtype(x):
    return tl.str_to_ty(_CANONICAL.get(x, x))


def torch_dtype_name(dtype):
    if isinstance(dtype, tl.dtype):
        return dtype.name
    if isinstance(dtype, torch.dtype):
        return re.match(r"^torch\\.(\\w+)$", str(dtype)).group(1)
    raise TypeError(f"not a triton or torch dtype: {type(dtype)}")


def to_numpy(x):
    if isinstance(x, tilecraft.reinterpret):
        return x.base.cpu().numpy().astype(getattr(np, torch_dtype_name(x.dtype)))
    if isinstance(x, torch.Tensor):
        return x.cpu().float().numpy() if x.dtype is torch.bfloat16 else x.cpu().numpy()
    raise ValueError(f"Not a triton-compatible tensor: {x}")


def supports_tma(byval_only=False):
    return is_interpreter()


def unwrap_tensor(t):
    return t.base if isinstance(t, tilecraft.reinterpret) else t
'''

_CONFTEST = '''import hashlib
import tempfile
from types import SimpleNamespace

import pytest


def pytest_addoption(parser):
    parser.addoption("--max-cases-per-test", type=int, default=100,
                     help="cases kept per test function (0: all), as Triton's conftest")


def pytest_collection_modifyitems(config, items):
    limit = config.getoption("--max-cases-per-test")
    if limit <= 0:
        return
    groups = {}
    for item in items:
        groups.setdefault(item.nodeid.split("[")[0], []).append(item)
    kept, dropped = [], []
    for group in groups.values():
        group.sort(key=lambda item: hashlib.sha256(item.name.encode()).hexdigest())
        kept += group[:limit]
        dropped += group[limit:]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept


@pytest.fixture
def device():
    return "cpu"


@pytest.fixture(autouse=True)
def _no_cuda_device_switch(monkeypatch):
    """`torch.cuda.device(None)` (a CPU tensor's device index) as a no-op where torch has no
    CUDA, as it is where it has one."""
    import contextlib

    import torch

    if not torch.cuda.is_available():
        monkeypatch.setattr(torch.cuda, "device", lambda index: contextlib.nullcontext())


@pytest.fixture
def fresh_triton_cache():
    with tempfile.TemporaryDirectory() as tmpdir:
        yield tmpdir


@pytest.fixture
def with_allocator():
    yield


@pytest.fixture
def fresh_knobs():
    yield SimpleNamespace(language=SimpleNamespace(default_fp_fusion=True),
                          runtime=SimpleNamespace(override_arch=None))
'''

_FILES = {
    "triton/__init__.py": _TRITON_INIT,
    "triton/knobs.py": _KNOBS,
    "triton/testing.py": _TESTING,
    "triton/_internal_testing.py": _INTERNAL_TESTING,
    "triton/runtime/__init__.py": _RUNTIME_INIT,
    "triton/runtime/errors.py": _ERRORS,
    "triton/tools/__init__.py": _TOOLS_INIT,
    "triton/tools/tensor_descriptor.py": _TENSOR_DESCRIPTOR,
    "conftest.py": _CONFTEST,
    "pytest.ini": "[pytest]\nmarkers =\n    interpreter: runs in Triton's interpreter\n",
}


def make_scratch(test_file: Path, workdir: Path) -> None:
    """Writes the `triton` shim, the conftest and a copy of `test_file` into `workdir`."""
    workdir.mkdir(parents=True, exist_ok=True)
    for relative, text in _FILES.items():
        path = workdir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    shutil.copyfile(test_file, workdir / "test_core.py")


def main(argv: list[str] | None = None) -> int:
    """Sets up the scratch folder and runs pytest there; returns pytest's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_file", type=Path, help="Triton's test_core.py")
    parser.add_argument("--mode", choices=("cpu", "interpret"), default="cpu")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/tilecraft-triton-core"))
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    pytest_args = argv[split + 1:]
    make_scratch(args.test_file, args.workdir)
    env = dict(os.environ, TILECRAFT_BACKEND=args.mode)
    env.pop("TILECRAFT_INTERPRET", None)
    env.pop("TRITON_INTERPRET", None)
    if args.mode == "interpret":
        env.update(TILECRAFT_INTERPRET="1", TRITON_INTERPRET="1")
    command = [sys.executable, "-m", "pytest", "test_core.py", "-m", "interpreter",
               "-p", "no:cacheprovider", *pytest_args]
    return subprocess.call(command, cwd=args.workdir, env=env)


if __name__ == "__main__":
    sys.exit(main())
