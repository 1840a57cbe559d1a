"""Fixtures of the language tests: fresh random inputs (the seed is printed, so a failure can be
replayed) and a launcher that runs each kernel on every backend this machine has: the numpy
interpreter, compiled by the CPU backend (which also verifies its tt IR) and, where there is a
GPU, compiled by the CUDA backend (numpy arguments are copied to torch CUDA tensors and back)."""

from __future__ import annotations

import dataclasses
import os
import warnings

import numpy as np
import pytest


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


def launch(kernel, grid, *args, **kwargs):
    """``kernel[grid](*args, **kwargs)`` on the backend of the `backend` fixture (in the
    interpreter after compiling to verified tt IR, which the CPU backend does anyway)."""
    if os.environ.get("TILECRAFT_BACKEND") == "interpret":
        kernel.warmup(*args, **kwargs)
    if os.environ.get("TILECRAFT_BACKEND") == "cuda":
        _launch_on_gpu(kernel, grid, args, kwargs)
        return
    if os.environ.get("TILECRAFT_BACKEND") == "cpu":
        compile_for_gpus(kernel, args, kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kernel[grid](*args, **kwargs)


def compile_for_gpus(kernel, args, kwargs) -> None:
    """Compiles the kernel for sm_80 and sm_90a (PTX assembled by ptxas) when ptxas is here:
    every language test's kernel must compile for the GPU even where there is none."""
    from ..backends.cuda.gpu_compile import compile_module_for_gpus, have_ptxas

    if have_ptxas():
        assert compile_module_for_gpus(kernel.ir(*args, **kwargs)) > 0


def _launch_on_gpu(kernel, grid, args, kwargs) -> None:
    """The launch with each numpy array copied to the GPU, and copied back afterwards."""
    import torch

    import tilecraft as tc

    copies: list[tuple[np.ndarray, object]] = []

    def to_device(value):
        if isinstance(value, tc.reinterpret):
            return tc.reinterpret(to_device(value.base), value.dtype)
        if isinstance(value, tc.TensorDescriptor):
            return dataclasses.replace(value, base=to_device(value.base))
        if isinstance(value, np.ndarray):
            tensor = torch.from_numpy(np.ascontiguousarray(value)).cuda()
            copies.append((value, tensor))
            return tensor
        return value

    args = [to_device(a) for a in args]
    kwargs = {k: to_device(v) for k, v in kwargs.items()}
    kernel[grid](*args, **kwargs)
    torch.cuda.synchronize()
    for array, tensor in copies:
        array[...] = tensor.cpu().numpy().reshape(array.shape)


def _backends() -> list[str]:
    from tilecraft.backends.cuda import driver

    return ["interpret", "cpu"] + (["cuda"] if driver.is_available() else [])


@pytest.fixture(params=_backends())
def backend(request, monkeypatch) -> str:
    """The backend the test's launches use (``TILECRAFT_BACKEND``)."""
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", request.param)
    return request.param


@pytest.fixture
def run(backend):
    return launch
