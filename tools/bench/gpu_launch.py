#!/usr/bin/env python3
"""Where the time of a short GPU kernel goes, tilecraft against Triton in one run.

1. Launch overhead by argument count: the host time of a launch (back to back, no
   synchronization, median of batches) of kernels of 0, 4 and 16 runtime arguments on tiny data
   (a few programs, so the GPU keeps up), for both compilers; for tilecraft also the layers
   under ``kernel[grid](...)`` on the 4-argument kernel (`layer_cases`): the native launcher
   (`CudaFunction.launch_values`, compiled C) and the Python one over cuda-python, each called
   with integer addresses, cuda-python's cuLaunchKernel alone on pre-packed arguments, what a
   launch reads from torch, and the whole launch with ``TILECRAFT_NATIVE_LAUNCHER=0``.
2. The kernels of tools/bench/gpu.py at sizes where launches are short (vector add 2^20,
   softmax 16384x1024 with 4 warps, layer norm 4096x1024 with 4 warps): host time, the device
   time alone (the kernel captured in a CUDA graph and replayed), and
   `triton.testing.do_bench`'s median. A do_bench time well above the device time means the
   launch, not the kernel, is the cost.

Each launch's result is checked against torch before it is timed.

    python tools/bench/gpu_launch.py [--out DIR] [--batches 20] [--per-batch 500]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu  # noqa: E402  (tools/bench/gpu.py: the kernels, written for both compilers)


def host_us(launch: Callable[[], object], batches: int = 20, per_batch: int = 200) -> float:
    """Median host microseconds per launch over batches of back-to-back launches."""
    import torch

    for _ in range(per_batch // 10 + 1):
        launch()
    times = []
    for _ in range(batches):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(per_batch):
            launch()
        times.append((time.perf_counter() - start) / per_batch * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def device_us(launch, replays: int = 20, per_graph: int = 20) -> float | str:
    """Microseconds per kernel with the launches captured in a CUDA graph and replayed (no
    host work in the measurement)."""
    import torch

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        launch()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            for _ in range(per_graph):
                launch()
    except Exception as error:  # noqa: BLE001 - reported in the table
        return f"no graph: {str(error).splitlines()[0][:60]}"
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / per_graph)
    return statistics.median(times)


def cases(module):
    """(name, launch) pairs for one compiler's kernel module."""
    import torch

    n = 1 << 20
    x, y, out = (torch.rand(n, device="cuda") for _ in range(3))
    rows = torch.randn(16384, 1024, device="cuda")
    soft = torch.empty_like(rows)
    ln_x = torch.randn(4096, 1024, device="cuda")
    ln_y = torch.empty_like(ln_x)
    w, b = torch.rand(1024, device="cuda"), torch.rand(1024, device="cuda")
    mean, rstd = torch.empty(4096, device="cuda"), torch.empty(4096, device="cuda")
    return [
        ("vector add 2^20 (4 args)",
         lambda: module.add_kernel[(n // 1024,)](x, y, out, n, BLOCK_SIZE=1024)),
        ("softmax 16384x1024, 4 warps",
         lambda: module.softmax_kernel[(16384,)](soft, rows, 1024, 1024, 1024,
                                                 BLOCK_SIZE=1024, num_warps=4)),
        ("layer norm 4096x1024, 4 warps",
         lambda: module._layer_norm_fwd_fused[(4096,)](ln_x, ln_y, w, b, mean, rstd, 1024,
                                                      1024, 1e-5, BLOCK_SIZE=1024,
                                                      num_warps=4)),
    ]


# Kernels of 0, 4 and 16 runtime arguments, written for both compilers (tools/bench/gpu.py's
# HEADERS supply ``tl`` and ``jit``).
ARGUMENT_KERNELS = '''
@jit
def empty_kernel():
    tl.program_id(0)


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@jit
def axpy7_kernel(out_ptr, a0, a1, a2, a3, a4, a5, a6, s0, s1, s2, s3, s4, s5, s6, n,
                 BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    total = s0 * tl.load(a0 + offsets, mask=mask)
    total += s1 * tl.load(a1 + offsets, mask=mask)
    total += s2 * tl.load(a2 + offsets, mask=mask)
    total += s3 * tl.load(a3 + offsets, mask=mask)
    total += s4 * tl.load(a4 + offsets, mask=mask)
    total += s5 * tl.load(a5 + offsets, mask=mask)
    total += s6 * tl.load(a6 + offsets, mask=mask)
    tl.store(out_ptr + offsets, total, mask=mask)
'''

# Elements of the argument-count cases: four programs of 1024.
N_SMALL = 4096
BLOCK = 1024


def argument_cases(module: ModuleType) -> list[tuple[str, Callable[[], object]]]:
    """(name, launch) of the 0-, 4- and 16-argument kernels of one compiler's module, each
    checked against torch once."""
    import torch

    grid = (N_SMALL // BLOCK,)
    x, y = torch.rand(N_SMALL, device="cuda"), torch.rand(N_SMALL, device="cuda")
    out = torch.full((N_SMALL,), float("nan"), device="cuda")
    arrays = [torch.rand(N_SMALL, device="cuda") for _ in range(7)]
    scalars = [0.5, 1.5, -2.0, 0.25, 3.0, -1.0, 0.75]
    out16 = torch.full((N_SMALL,), float("nan"), device="cuda")
    module.add_kernel[grid](x, y, out, N_SMALL, BLOCK=BLOCK)
    module.axpy7_kernel[grid](out16, *arrays, *scalars, N_SMALL, BLOCK=BLOCK)
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x + y)
    torch.testing.assert_close(out16, sum(s * a for s, a in zip(scalars, arrays)))
    return [
        ("0 arguments", lambda: module.empty_kernel[grid]()),
        ("4 arguments (vector add)",
         lambda: module.add_kernel[grid](x, y, out, N_SMALL, BLOCK=BLOCK)),
        ("16 arguments",
         lambda: module.axpy7_kernel[grid](out16, *arrays, *scalars, N_SMALL, BLOCK=BLOCK)),
    ]


def layer_cases(module: ModuleType) -> list[tuple[str, Callable[[], object]]]:
    """Where the time of tilecraft's ``kernel[grid](...)`` of the 4-argument kernel goes: the
    layers under it, each called alone, and what they read from torch. Both launchers are
    measured: the native one (`driver.make_native_launcher`, the default where it builds) and
    the Python one over cuda-python (`driver.make_launcher`)."""
    import ctypes

    import torch

    from tilecraft.backends.cuda import driver

    grid = (N_SMALL // BLOCK,)
    x, y, out = (torch.rand(N_SMALL, device="cuda") for _ in range(3))
    compiled = module.add_kernel[grid](x, y, out, N_SMALL, BLOCK=BLOCK)
    function = compiled.launcher.function
    addresses = [x.data_ptr(), y.data_ptr(), out.data_ptr(), N_SMALL]
    launch_kernel = driver._driver().cuLaunchKernel
    block = 32 * function.num_warps
    python_launch = driver.make_launcher(function.name, function.arg_kinds, function.arg_names,
                                         function.handle, block, function.shared,
                                         launch_kernel)
    slots = (ctypes.c_uint64 * 4)(*addresses)
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(slots) + 8 * i for i in range(4)])
    params_address = ctypes.addressof(params)
    grid3 = (grid[0], 1, 1)
    cases = [("4 args: kernel[grid] alone (no call)", lambda: module.add_kernel[grid])]
    if function.native_unavailable is None:
        native_launch = function.launch_values
        cases += [("4 args: native launcher, ints, current stream",
                   lambda: native_launch(grid3, None, *addresses)),
                  ("4 args: native launcher, ints, stream 0",
                   lambda: native_launch(grid3, 0, *addresses))]
    cases += [
        ("4 args: cuda-python launcher, ints, current stream",
         lambda: python_launch(grid3, None, *addresses)),
        ("4 args: cuda-python launcher, ints, stream 0",
         lambda: python_launch(grid3, 0, *addresses)),
        ("4 args: cuLaunchKernel alone, pre-packed",
         lambda: launch_kernel(function.handle, grid[0], 1, 1, block, 1, 1, 0, 0,
                               params_address, 0)),
        ("torch: data_ptr(), dtype, is_cuda of one tensor",
         lambda: (x.data_ptr(), x.dtype, x.is_cuda)),
        ("driver.current_stream()", driver.current_stream),
    ]
    return cases


def without_native_launcher(module: ModuleType) -> Callable[[], object]:
    """The 4-argument launch of `argument_cases` with the kernel loaded while
    ``TILECRAFT_NATIVE_LAUNCHER=0``, so that its dispatcher reads the arguments in Python and
    it launches through cuda-python, as before the native launchers (``forget_compiled`` makes
    the next launch load it natively again)."""
    import os

    import torch

    from tilecraft.backends import native

    grid = (N_SMALL // BLOCK,)
    x, y = torch.rand(N_SMALL, device="cuda"), torch.rand(N_SMALL, device="cuda")
    out = torch.full((N_SMALL,), float("nan"), device="cuda")
    saved = os.environ.get(native.SWITCH)
    os.environ[native.SWITCH] = "0"
    try:
        module.add_kernel.forget_compiled()
        compiled = module.add_kernel[grid](x, y, out, N_SMALL, BLOCK=BLOCK)
    finally:
        if saved is None:
            del os.environ[native.SWITCH]
        else:
            os.environ[native.SWITCH] = saved
    assert compiled.launcher.function.native_unavailable is not None
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x + y)
    return lambda: module.add_kernel[grid](x, y, out, N_SMALL, BLOCK=BLOCK)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--per-batch", type=int, default=500)
    options = parser.parse_args()
    import os

    os.environ["TILECRAFT_BACKEND"] = "cuda"
    from triton.testing import do_bench

    from tilecraft.backends import native

    native.launchers(wait=True)  # built before the kernels load, so that they launch natively

    folder = Path(tempfile.mkdtemp())
    argument_modules = gpu.kernel_modules(folder, "launch_kernels", ARGUMENT_KERNELS)
    lines = [f"{'launch overhead':52} {'compiler':9} {'host us/launch':>15}"]
    launches = {compiler: argument_cases(module) for compiler, module in argument_modules.items()}
    for index, (name, _) in enumerate(launches["tilecraft"]):
        for compiler, cases_of_compiler in launches.items():
            launch = cases_of_compiler[index][1]
            lines.append(f"{name:52} {compiler:9} "
                         f"{host_us(launch, options.batches, options.per_batch):15.2f}")
    tilecraft_module = argument_modules["tilecraft"]
    layers = layer_cases(tilecraft_module)
    layers.append(("4 arguments, TILECRAFT_NATIVE_LAUNCHER=0",
                   without_native_launcher(tilecraft_module)))
    for name, launch in layers:
        lines.append(f"{name:52} {'tilecraft':9} "
                     f"{host_us(launch, options.batches, options.per_batch):15.2f}")
    tilecraft_module.add_kernel.forget_compiled()  # loaded natively again when next launched
    lines.append(f"native launcher: {native.unavailable_reason() or 'on'}")
    raw_name, raw_launch = next(case for case in layers if "alone, pre-packed" in case[0])
    lines.append(f"{raw_name + ' (batches of 50)':52} {'tilecraft':9} "
                 f"{host_us(raw_launch, options.batches * 5, 50):15.2f}")
    lines += ["", f"{'case':32} {'compiler':9} {'host us/launch':>15} {'device us':>10} "
                  f"{'do_bench us':>12}"]
    gpu.write_kernel_modules(folder)
    modules = {name: gpu.import_kernels(folder, name) for name in gpu.COMPILERS}
    for compiler, module in modules.items():
        for name, launch in cases(module):
            launch()
            host = host_us(launch)
            device = device_us(launch)
            bench = do_bench(launch, warmup=25, rep=100, return_mode="median") * 1e3
            device_text = f"{device:10.1f}" if isinstance(device, float) else f"{device:>10}"
            lines.append(f"{name:32} {compiler:9} {host:15.1f} {device_text} {bench:12.1f}")
    text = "\n".join(lines)
    print(text)
    if options.out is not None:
        options.out.mkdir(parents=True, exist_ok=True)
        (options.out / "launch.txt").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
