#!/usr/bin/env python3
"""How long the autotuner's compile of a matmul space takes in this process and with worker
processes (`tilecraft.runtime.compile_workers`), with the cache off.

The kernel is the matmul of ``examples/04_matmul.py``; the configurations are the first
``--configs`` points of ``tools/bench/tuner_search.py``'s space for the backend. Each mode
times `compiler.compile_modules` over the configurations' `tt` modules (made beforehand), as
`JITFunction.compile_all` calls it, with the workers already started (as they are after an
autotuner's first batch); the two modes' stage texts are compared.

    python tools/bench/parallel_compile.py [--configs 16] [--arch 90]

``--arch N`` compiles for CUDA's sm_N on a machine without a GPU.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from tuner_search import space_for  # noqa: E402

from _load import example  # noqa: E402  (examples/_load.py)

from tilecraft.runtime import compile_workers  # noqa: E402
from tilecraft.runtime.autotuner import space_configs  # noqa: E402
from tilecraft.runtime.compiler import compile_modules, get_backend, selected_backend  # noqa: E402


def compile_space(backend_name: str, arch: int | None, count: int, workers: int) -> tuple:
    """(seconds, stage texts per config) of compiling ``count`` configurations with at most
    ``workers`` worker processes."""
    kernel = example("04_matmul").matmul_kernel.fn
    backend = get_backend(backend_name, arch)
    signature = ("*fp16:16", "*fp16:16", "*fp16:16", "i32:16", "i32:16", "i32:16", "i32:16",
                 1, "i32:16", 1, "i32:16", 1)
    configs = space_configs(space_for(backend_name))[:count]
    os.environ["TILECRAFT_COMPILE_WORKERS"] = str(workers)
    arg_names = [name for name, ty in zip(kernel.arg_names, signature) if ty != 1]
    jobs = []
    for config in configs:
        options = {"num_warps": config.num_warps, "num_stages": config.num_stages}
        jobs.append((kernel.ir(*signature, **config.kwargs), backend, options, arg_names))
    start = time.perf_counter()
    outcomes = compile_modules(jobs)
    seconds = time.perf_counter() - start
    texts = [None if isinstance(o, Exception) else
             {k: v for k, v in o.asm.items() if isinstance(v, str)} for o in outcomes]
    return seconds, texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=int, default=16)
    parser.add_argument("--arch", type=int, default=None, help="compile for CUDA's sm_ARCH")
    args = parser.parse_args()
    os.environ["TILECRAFT_ALWAYS_COMPILE"] = "1"
    backend = "cuda" if args.arch else selected_backend()
    workers = compile_workers.worker_count()
    compile_workers.start(min(workers, args.configs))  # as they run after a first batch
    serial_s, serial = compile_space(backend, args.arch, args.configs, 1)
    parallel_s, parallel = compile_space(backend, args.arch, args.configs, workers)
    same = sum(a == b for a, b in zip(serial, parallel))
    failed = sum(a is None for a in serial)
    print(f"{backend}{'' if not args.arch else f' sm_{args.arch}'}: {args.configs} matmul "
          f"configurations, {workers} workers")
    print(f"| mode | seconds |\n|---|---|\n| in process | {serial_s:.2f} |\n"
          f"| {workers} workers | {parallel_s:.2f} |")
    print(f"speed-up {serial_s / parallel_s:.2f}x; identical output for {same}/{args.configs} "
          f"({failed} do not compile)")
    compile_workers.shutdown()
    return 0 if same == args.configs else 1


if __name__ == "__main__":
    sys.exit(main())
