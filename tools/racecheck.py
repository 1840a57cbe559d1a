#!/usr/bin/env python3
"""The pipelined kernels under ``compute-sanitizer --tool racecheck``: Triton's tutorial matmul
kernel (tools/bench/gpu_matmul.py) compiled by tilecraft with cp.async pipelining (2, 3 and 4
stages; 4 warps, and 8 warps in two warp groups), the same through tensor descriptors (TMA
copies and mbarriers on sm_90), and the attention kernel of
``examples/05_fused_attention.py`` (tools/bench/gpu_attention.py's blocks, causal and not), fp16,
at square and ragged shapes (not multiples of the blocks), each checked against torch, and
descriptor stores in a loop (asynchronous TMA stores on sm_90). On an sm_90 GPU both run on
wgmma, and the cp.async matmul and the attention kernel run again as compiled for sm_80
(``arch="sm80"``: mma.sync, operands read with ldmatrix, the next K slice prefetched at the
end of each trip, one barrier a trip). Run it under the sanitizer; it also runs alone (then it
only checks results):

    compute-sanitizer --tool racecheck --racecheck-report hazard \\
        python tools/racecheck.py
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))

import gpu  # noqa: E402  (tools/bench/gpu.py)
import gpu_attention  # noqa: E402
import gpu_matmul  # noqa: E402

MATMUL_CONFIGS = (  # (blocks, num_warps)
    ({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 4}, 4),
    ({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 4}, 8),
)
SHAPES = ((256, 256, 256), (200, 136, 104))


def _report(label: str, out, expected, tolerance: float) -> bool:
    worst = (out.float() - expected.float()).abs().max().item()
    ok = worst <= tolerance
    print(f"{label}: max |difference| {worst:.3g} {'ok' if ok else 'WRONG'}")
    return ok


def _launch_matmul(module, descriptors: bool, a, b, c, config: dict, warps: int,
                   stages: int, arch: str | None = None) -> None:
    (m, k), n = a.shape, b.shape[1]
    grid = (math.ceil(m / config["BLOCK_SIZE_M"]) * math.ceil(n / config["BLOCK_SIZE_N"]), )
    options = {"num_warps": warps, "num_stages": stages, **config}
    if arch is not None:
        options["arch"] = arch
    if not descriptors:
        module.matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                   b.stride(1), c.stride(0), c.stride(1), **options)
        return
    import tilecraft as tc

    bm, bn, bk = (config[f"BLOCK_SIZE_{d}"] for d in "MNK")
    module.matmul_kernel[grid](tc.TensorDescriptor.from_tensor(a, [bm, bk]),
                               tc.TensorDescriptor.from_tensor(b, [bk, bn]),
                               tc.TensorDescriptor.from_tensor(c, [bm, bn]), m, n, k,
                               **options)


def check_matmuls(folder: Path) -> int:
    """Wrong results among the pipelined matmuls: loads through pointers (``cp.async``) and
    through tensor descriptors (TMA on sm_90)."""
    import torch

    failures = 0
    for stem, source, arch in (("matmul", gpu_matmul.MATMUL, None),
                               ("matmul", gpu_matmul.MATMUL, "sm80"),
                               ("matmul_tma", gpu_matmul.MATMUL_TMA, None)):
        module = gpu.kernel_modules(folder, stem, source, ("tilecraft",))["tilecraft"]
        for config, warps in MATMUL_CONFIGS:
            for stages in (2, 3, 4):
                for m, n, k in SHAPES:
                    a = torch.randn((m, k), device="cuda", dtype=torch.float16)
                    b = torch.randn((k, n), device="cuda", dtype=torch.float16)
                    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
                    _launch_matmul(module, stem == "matmul_tma", a, b, c, config, warps,
                                   stages, arch)
                    torch.cuda.synchronize()
                    expected = torch.matmul(a.float(), b.float())
                    failures += not _report(
                        f"{stem}{' ' + arch if arch else ''} {warps} warps stages={stages} "
                        f"{m}x{n}x{k}", c, expected, 2e-2 * expected.abs().max().item())
    return failures


def check_attention(folder: Path) -> int:
    """Wrong results among the attention kernels."""
    import torch

    module = gpu.kernel_modules(folder, "attention", gpu_attention.kernel_source(),
                                ("tilecraft",))["tilecraft"]
    failures = 0
    for arch in (None, "sm80"):
        for n_ctx in (256, 200):
            for causal in (False, True):
                q, k, v = (torch.randn((1, 2, n_ctx, 64), device="cuda", dtype=torch.float16)
                           for _ in range(3))
                o = torch.empty_like(q)
                grid = (math.ceil(n_ctx / gpu_attention.BLOCK_M), 2, 1)
                module._attn_fwd[grid](q, k, v, 0.125, o, *q.stride(), *k.stride(),
                                       *v.stride(), *o.stride(), 2, n_ctx, HEAD_DIM=64,
                                       BLOCK_M=gpu_attention.BLOCK_M,
                                       BLOCK_N=gpu_attention.BLOCK_N, CAUSAL=causal,
                                       num_warps=gpu_attention.NUM_WARPS,
                                       num_stages=gpu_attention.NUM_STAGES,
                                       **({"arch": arch} if arch else {}))
                torch.cuda.synchronize()
                expected = _attention_reference(q, k, v, causal)
                failures += not _report(
                    f"attention{' ' + arch if arch else ''} n={n_ctx}"
                    f"{' causal' if causal else ''}", o, expected, 2e-2)
    return failures


STORE_LOOP = """
@jit
def scale_rows_kernel(in_desc, out_desc, M, BM: tl.constexpr):
    for m in range(0, M, BM):
        out_desc.store([m, 0], in_desc.load([m, 0]) * 2)
"""


def check_store_loop(folder: Path) -> int:
    """Wrong results of a program storing block after block through a tensor descriptor: on
    sm_90 with more than one stage, each TMA store stays in flight while the next block is
    loaded into the same shared buffer's neighbourhood (the pipeliner's store waits)."""
    import torch

    import tilecraft as tc

    module = gpu.kernel_modules(folder, "store_loop", STORE_LOOP, ("tilecraft",))["tilecraft"]
    failures = 0
    for stages in (1, 3):
        for m in (256, 200):
            x = torch.randn((m, 64), device="cuda", dtype=torch.float16)
            out = torch.full_like(x, math.nan)
            descs = [tc.TensorDescriptor.from_tensor(t, [32, 64]) for t in (x, out)]
            module.scale_rows_kernel[(1,)](*descs, m, BM=32, num_stages=stages)
            torch.cuda.synchronize()
            failures += not _report(f"descriptor stores in a loop, stages={stages}, {m} rows",
                                    out, 2 * x, 0.0)
    return failures


def _attention_reference(q, k, v, causal: bool):
    """Attention in float32 with plain torch ops (torch's fused SDPA kernels would run under
    the sanitizer too, and it reports their own shared-memory use)."""
    import torch

    scores = (q.float() @ k.float().transpose(-1, -2)) * 0.125
    if causal:
        n = q.shape[-2]
        keep = torch.ones((n, n), dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v.float()


def main() -> int:
    os.environ["TILECRAFT_BACKEND"] = "cuda"
    with tempfile.TemporaryDirectory(prefix="racecheck-") as folder_name:
        folder = Path(folder_name)
        failures = check_matmuls(folder) + check_attention(folder) + check_store_loop(folder)
    print("all results match torch" if not failures else f"{failures} results differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
