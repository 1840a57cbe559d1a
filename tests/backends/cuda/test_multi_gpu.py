"""Several GPUs: a compiled kernel launches on whichever GPU is current, and the autotuner
measures configurations on every visible GPU of the launch's model at once."""

from __future__ import annotations

import pytest

import tilecraft as tc
from tilecraft.backends.cuda import driver

from . import kernels as K

torch = pytest.importorskip("torch")
needs_two_gpus = pytest.mark.skipif(
    not driver.is_available() or driver.device_count() < 2, reason="fewer than two GPUs")


@pytest.fixture(autouse=True)
def on_cuda(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_BACKEND", "cuda")
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TILECRAFT_AUTOTUNE_DEVICES", raising=False)


def _inputs(device: int, n: int = 5000):
    generator = torch.Generator(device=f"cuda:{device}").manual_seed(device)
    x, y = (torch.randn(n, device=f"cuda:{device}", generator=generator) for _ in range(2))
    return x, y, torch.empty_like(x)


@needs_two_gpus
def test_a_kernel_compiled_on_one_gpu_launches_on_another():
    grid = lambda meta: (tc.cdiv(meta["n"], meta["BLOCK"]),)  # noqa: E731
    x0, y0, out0 = _inputs(0)
    K.add_kernel[grid](x0, y0, out0, x0.numel(), BLOCK=1024)
    with torch.cuda.device(1):
        x1, y1, out1 = _inputs(1)
        K.add_kernel[grid](x1, y1, out1, x1.numel(), BLOCK=1024)
        torch.cuda.synchronize()
    torch.testing.assert_close(out0, x0 + y0)
    torch.testing.assert_close(out1, x1 + y1)


@needs_two_gpus
def test_the_autotuner_measures_on_every_gpu():
    seen: set[int] = set()

    def record(named):
        seen.add(named["x_ptr"].device.index)

    configs = [tc.Config({"BLOCK": block}, num_warps=warps, pre_hook=record)
               for block in (128, 256, 512, 1024) for warps in (2, 4)]
    kernel = tc.autotune(configs=configs, key=["n"], warmup=1, rep=5,
                         cache_results=False)(K.add_kernel)
    x, y, out = _inputs(0, 1 << 20)
    kernel[lambda meta: (tc.cdiv(meta["n"], meta["BLOCK"]),)](x, y, out, x.numel())
    torch.cuda.synchronize()
    assert kernel.measured_on == list(range(driver.device_count()))
    assert seen == set(kernel.measured_on)
    assert all(kernel.configs_timings[config] is not None for config in configs)
    torch.testing.assert_close(out, x + y)


@needs_two_gpus
def test_the_devices_variable_limits_the_gpus(monkeypatch):
    monkeypatch.setenv("TILECRAFT_AUTOTUNE_DEVICES", "1")
    configs = [tc.Config({"BLOCK": block}) for block in (256, 1024)]
    kernel = tc.autotune(configs=configs, key=["n"], warmup=1, rep=5,
                         cache_results=False)(K.add_kernel)
    x, y, out = _inputs(0)
    kernel[lambda meta: (tc.cdiv(meta["n"], meta["BLOCK"]),)](x, y, out, x.numel())
    assert kernel.measured_on == []
    torch.testing.assert_close(out, x + y)
