#!/usr/bin/env python3
"""The pipelined matmul under ``compute-sanitizer --tool racecheck``: Triton's tutorial matmul
kernel (tools/bench/gpu_matmul.py) compiled by tilecraft with cp.async pipelining (2, 3 and 4
stages), fp16, at a square shape and a ragged one (not multiples of the blocks), each checked
against torch. Run it under the sanitizer; it also runs alone (then it only checks results):

    compute-sanitizer --tool racecheck --racecheck-report hazard \\
        python tools/racecheck_matmul.py
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))

import gpu  # noqa: E402  (tools/bench/gpu.py)
import gpu_matmul  # noqa: E402

CONFIG = {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 4}
SHAPES = ((256, 256, 256), (200, 136, 104))


def main() -> int:
    os.environ["TILECRAFT_BACKEND"] = "cuda"
    import torch

    failures = 0
    with tempfile.TemporaryDirectory(prefix="racecheck-") as folder_name:
        module = gpu.kernel_modules(Path(folder_name), "matmul", gpu_matmul.MATMUL,
                                    ("tilecraft",))["tilecraft"]
        for stages in (2, 3, 4):
            for m, n, k in SHAPES:
                a = torch.randn((m, k), device="cuda", dtype=torch.float16)
                b = torch.randn((k, n), device="cuda", dtype=torch.float16)
                c = torch.empty((m, n), device="cuda", dtype=torch.float16)
                grid = (math.ceil(m / CONFIG["BLOCK_SIZE_M"])
                        * math.ceil(n / CONFIG["BLOCK_SIZE_N"]), )
                module.matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                                           b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                           num_warps=4, num_stages=stages, **CONFIG)
                torch.cuda.synchronize()
                expected = torch.matmul(a.float(), b.float())
                worst = (c.float() - expected).abs().max().item()
                ok = worst <= 2e-2 * expected.abs().max().item()
                failures += not ok
                print(f"stages={stages} {m}x{n}x{k}: max |difference| {worst:.3g} "
                      f"{'ok' if ok else 'WRONG'}")
    print("all results match torch" if not failures else f"{failures} results differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
