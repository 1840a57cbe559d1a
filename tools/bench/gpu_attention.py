#!/usr/bin/env python3
"""Fused attention forward on the GPU, tilecraft against Triton and torch in one run: TFLOP/s
of the attention kernel of ``examples/05_fused_attention.py`` (Triton's tutorial 06 in its
pointer form: online softmax in base 2, optional causal mask) compiled by both compilers with
the same blocks, warps and stages, fp16, 16 heads and a batch that gives each tensor about
2^26 elements, head dim 64 and 128, causal and not, sequence 1k to 16k, against torch's
``scaled_dot_product_attention``. Every output is checked against torch before it is timed.

    python tools/bench/gpu_attention.py [--out DIR] [--contexts 1024,4096,16384]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu  # noqa: E402  (tools/bench/gpu.py: headers, rows, timing, the table)

BLOCK_M, BLOCK_N, NUM_WARPS, NUM_STAGES = 128, 64, 8, 3


def kernel_source() -> str:
    """The example's ``_attn_fwd``, decorated with the module's ``jit``."""
    return "@jit\n" + gpu.kernel_source("05_fused_attention", "_attn_fwd")


def attention(device: gpu.CudaDevice, modules: dict[str, ModuleType], n_ctx: int,
              head_dim: int, causal: bool) -> gpu.Row:
    torch = device.torch
    batch_heads = max(1, 2 ** 26 // (n_ctx * head_dim))  # about the same memory per case
    z, h = max(1, batch_heads // 16), min(16, batch_heads)
    row = gpu.Row(f"attention d={head_dim} n={n_ctx}{' causal' if causal else ''}",
                  "TFLOP/s", True)
    q, k, v = (torch.randn((z, h, n_ctx, head_dim), device="cuda", dtype=torch.float16)
               for _ in range(3))
    sm_scale = 1.0 / math.sqrt(head_dim)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    flops = 4 * z * h * n_ctx * n_ctx * head_dim * (0.5 if causal else 1.0)

    def figure(ms: float) -> float:
        return flops / (ms * 1e-3) / 1e12

    def check(out: Any) -> None:
        torch.cuda.synchronize()
        worst = (out.float() - expected.float()).abs().max().item()
        if not worst <= 2e-2:
            raise AssertionError(f"wrong result: max |difference| {worst:.3g}")

    gpu.measure(row, device.peer, lambda: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=causal), check, figure, device)
    for compiler, module in modules.items():
        o = torch.empty_like(q)
        grid = (math.ceil(n_ctx / BLOCK_M), z * h, 1)

        def launch(module: ModuleType = module, o: Any = o) -> Any:
            module._attn_fwd[grid](q, k, v, sm_scale, o, *q.stride(), *k.stride(), *v.stride(),
                                   *o.stride(), h, n_ctx, HEAD_DIM=head_dim, BLOCK_M=BLOCK_M,
                                   BLOCK_N=BLOCK_N, CAUSAL=causal, num_warps=NUM_WARPS,
                                   num_stages=NUM_STAGES)
            return o

        gpu.measure(row, compiler, launch, check, figure, device)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder for attention.txt")
    parser.add_argument("--contexts", default="1024,4096,16384",
                        help="comma-separated sequence lengths")
    args = parser.parse_args()
    os.environ["TILECRAFT_BACKEND"] = "cuda"
    start = time.perf_counter()
    device = gpu.CudaDevice(gpu.import_triton())
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-attention-") as folder_name:
        modules = gpu.kernel_modules(Path(folder_name), "attention", kernel_source())
        for head_dim in (64, 128):
            for causal in (False, True):
                for n_ctx in (int(c) for c in args.contexts.split(",")):
                    rows.append(attention(device, modules, n_ctx, head_dim, causal))
    heading = (f"fused attention forward, fp16: tilecraft vs Triton vs torch (SDPA) on "
               f"{device.describe()}; BLOCK_M={BLOCK_M}, BLOCK_N={BLOCK_N}, "
               f"num_warps={NUM_WARPS}, num_stages={NUM_STAGES}; "
               f"{time.perf_counter() - start:.0f} s")
    table = gpu.format_table(rows, ["tilecraft", "triton", device.peer], heading)
    print(table, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "attention.txt").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
