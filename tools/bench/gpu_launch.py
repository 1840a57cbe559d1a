#!/usr/bin/env python3
"""Where the time of a short GPU kernel goes, tilecraft against Triton in one run: the host time
of a launch (back to back, no synchronization, median of batches), the device time alone (the
kernel captured in a CUDA graph and replayed), and `triton.testing.do_bench`'s median, for the
kernels of tools/bench/gpu.py at sizes where launches are short (vector add 2^20, softmax
16384x1024 with 4 warps, layer norm 4096x1024 with 4 warps). A do_bench time well above the
device time means the launch, not the kernel, is the cost.

    python tools/bench/gpu_launch.py [--out DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu  # noqa: E402  (tools/bench/gpu.py: the kernels, written for both compilers)


def host_us(launch, batches: int = 20, per_batch: int = 200) -> float:
    """Median host microseconds per launch over batches of back-to-back launches."""
    import torch

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    import os

    os.environ["TILECRAFT_BACKEND"] = "cuda"
    from triton.testing import do_bench

    folder = Path(tempfile.mkdtemp())
    gpu.write_kernel_modules(folder)
    modules = {name: gpu.import_kernels(folder, name) for name in gpu.COMPILERS}
    lines = [f"{'case':32} {'compiler':9} {'host us/launch':>15} {'device us':>10} "
             f"{'do_bench us':>12}"]
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
