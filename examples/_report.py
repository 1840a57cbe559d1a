"""What the examples share: arrays on the device the kernels run on, where a kernel ran, and how
far its result is from numpy's.

The examples make their inputs with numpy. With the CUDA backend (``TILECRAFT_BACKEND=cuda``, the
default on a machine with a GPU) kernels take device memory, so `device_array` moves an input to
a torch CUDA tensor there; on the CPU backend and in the interpreter arrays stay numpy arrays.
`empty_like`, `empty` and `stride` work on either kind, `to_numpy` brings a result back for the
check against numpy.
"""

from __future__ import annotations

import sys

import numpy as np

from tilecraft.runtime.compiler import selected_backend
from tilecraft.runtime.arguments import is_torch_tensor


def on_gpu() -> bool:
    """Whether kernels launched now run on the CUDA backend."""
    return selected_backend() == "cuda"


def device_array(array: np.ndarray):
    """``array`` where kernels read it: a torch CUDA tensor on the CUDA backend, else itself."""
    if not on_gpu():
        return array
    import torch

    return torch.from_numpy(np.ascontiguousarray(array)).to("cuda")


def empty(shape: tuple[int, ...], dtype: np.dtype | type):
    """An uninitialized array of ``shape`` and numpy ``dtype``, where kernels write it."""
    return device_array(np.empty(shape, dtype))


def empty_like(x):
    """An uninitialized array like ``x`` (a numpy array or a torch tensor), on its device."""
    if is_torch_tensor(x):
        import torch

        return torch.empty_like(x)
    return np.empty_like(x)


def stride(x, dim: int) -> int:
    """The stride of ``x`` along ``dim`` in elements, as torch's ``x.stride(dim)``."""
    if is_torch_tensor(x):
        return int(x.stride(dim))
    return x.strides[dim] // x.itemsize


def to_numpy(x) -> np.ndarray:
    """``x`` (a numpy array or a torch tensor on any device) as a numpy array."""
    if is_torch_tensor(x):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def where_it_ran(kernel) -> str:
    """How tilecraft ran ``kernel`` (its last launch) on this machine."""
    backend = selected_backend()
    if kernel.interpret or backend == "interpret":
        return "interpreted on the CPU with numpy"
    compiled = list(kernel._binaries.values())[-1]
    if backend == "cuda":
        from tilecraft.backends.cuda.driver import device_properties

        meta = compiled.metadata
        return (f"compiled for the GPU ({device_properties()['name']}, "
                f"sm_{meta['capability']}) through LLVM and ptxas: {meta['num_warps']} warps, "
                f"{meta['registers']} registers per thread ({meta['spills']} bytes spilled), "
                f"{meta['shared']} bytes of shared memory")
    from tilecraft.backends.cpu.engine import host_target
    from tilecraft.runtime.cpu_driver import thread_count

    return (f"compiled for the CPU ({host_target().cpu}) through LLVM: "
            f"{len(compiled.asm['llir'])} chars of LLVM IR, run on {thread_count()} threads")


def relative_error(actual, expected) -> float:
    """The largest absolute difference over the largest magnitude of ``expected``."""
    actual = np.asarray(to_numpy(actual), np.float64)
    expected = np.asarray(to_numpy(expected), np.float64)
    return float(np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), 1e-30))


def report(name: str, kernel, error: float, tolerance: float) -> None:
    """Prints where ``kernel`` ran and its error; exits with status 1 beyond ``tolerance``."""
    status = "ok" if error <= tolerance else "MISMATCH"
    print(f"{name}: {where_it_ran(kernel)}")
    print(f"{name}: max relative error vs numpy {error:.2e} (tolerance {tolerance:.0e}): "
          f"{status}")
    if error > tolerance:
        raise SystemExit(1)


def show_ir(kernel, *args, **kwargs) -> None:
    """Prints the tt IR when the script runs with --ir."""
    if "--ir" in sys.argv:
        print(kernel.ttir(*args, **kwargs))
