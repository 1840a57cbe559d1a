#!/usr/bin/env python3
"""Host time of a launch on the CPU backend, back to back, after warm-up: kernels of 0, 4 and 16
arguments on 256 float32 elements (one program), against numpy's ``np.add(x, y, out=out)`` on
the same data. Each figure is the median over ``--batches`` batches of ``--per-batch``
launches (microseconds per launch), with the spread of the batches, and the median CPU time of
the launching thread per launch; the load average is printed since other processes on the
machine skew wall times.

The kernels are launched once, then optimized (`cpu_driver.optimize_quick_builds`: a launch
compiles a new specialization quickly, and a kernel launched this often would be optimized
within its first milliseconds of running) before they are timed.

Also, in fresh processes with an empty compile cache (``--compile``): the first compile and
launch of vector add, ``import tilecraft`` included, and the compile and launch of a new
specialization in the warm process (a ``BLOCK`` not seen before), with the process's CPU time
(numpy's BLAS threads spin a while after ``import numpy``, on another core) and that of the
main thread (the work itself, which a loaded machine's wall time overstates). Those launches
get quick builds; the new specialization's optimization, which a kernel that runs long pays
later, is timed apart, and the same processes run with ``TILECRAFT_QUICK_BUILDS=0`` too, in
turn with the others, for the figures without quick builds. Those processes keep Python's
bytecode (in a temporary folder), as an installed package does: with PYTHONDONTWRITEBYTECODE
set, as on the CI machines, every process would compile each module's source again (about 0.4 s
more here); and the native launchers' module, which the first process of a fresh cache builds
in the background (a gcc taking one of two cores from the compile), is there already.

    python tools/bench/cpu_launch.py [--batches 21] [--per-batch 2000] [--compile 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import cpu_driver

N = 256


@tc.jit
def empty_kernel():
    tl.program_id(0)


@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@tc.jit
def axpy8_kernel(out_ptr, a0, a1, a2, a3, a4, a5, a6, s0, s1, s2, s3, s4, s5, s6, n,
                 BLOCK: tl.constexpr):
    """16 runtime arguments: out = sum of s_i * a_i."""
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


def per_launch_us(launch: Callable[[], object], batches: int, per_batch: int
                  ) -> tuple[float, float, float, float]:
    """(median, lowest, highest) wall microseconds per call over batches of back-to-back calls,
    and the median CPU time of the calling thread per call (what the launch cost this thread,
    whoever else held the cores)."""
    for _ in range(per_batch // 10 + 1):
        launch()
    walls, cpus = [], []
    for _ in range(batches):
        cpu_start, start = time.thread_time(), time.perf_counter()
        for _ in range(per_batch):
            launch()
        walls.append((time.perf_counter() - start) / per_batch * 1e6)
        cpus.append((time.thread_time() - cpu_start) / per_batch * 1e6)
    return statistics.median(walls), min(walls), max(walls), statistics.median(cpus)


def launch_table(batches: int, per_batch: int) -> list[str]:
    from tilecraft.backends import native

    native.launchers(wait=True)  # built before the kernels load, so that they launch natively
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(N).astype(np.float32) for _ in range(8)]
    x, y = arrays[0], arrays[1]
    out = np.full(N, np.nan, np.float32)
    scalars = [0.5, 1.5, -2.0, 0.25, 3.0, -1.0, 0.75]
    grid = (1,)
    add_kernel[grid](x, y, out, N, BLOCK=N)
    np.testing.assert_allclose(out, x.astype(np.float64) + y, rtol=1e-6)
    axpy8_kernel[grid](out, *arrays[1:], *scalars, N, BLOCK=N)
    expected = sum(s * a.astype(np.float64) for s, a in zip(scalars, arrays[1:]))
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    empty_kernel[grid]()
    cpu_driver.optimize_quick_builds()
    cases = [
        ("numpy np.add(x, y, out=out)", lambda: np.add(x, y, out=out)),
        ("0 arguments", lambda: empty_kernel[grid]()),
        ("4 arguments (vector add)", lambda: add_kernel[grid](x, y, out, N, BLOCK=N)),
        ("4 arguments, grid as a lambda",
         lambda: add_kernel[lambda meta: (tc.cdiv(meta["n"], meta["BLOCK"]),)](
             x, y, out, N, BLOCK=N)),
        ("16 arguments", lambda: axpy8_kernel[grid](out, *arrays[1:], *scalars, N, BLOCK=N)),
    ]
    lines = [f"{'case':34} {'us/launch':>10} {'lowest':>8} {'highest':>8} {'x numpy':>8} "
             f"{'thread cpu us':>14}"]
    numpy_us = None
    for name, launch in cases:
        median, low, high, cpu = per_launch_us(launch, batches, per_batch)
        numpy_us = numpy_us or median
        lines.append(f"{name:34} {median:10.2f} {low:8.2f} {high:8.2f} "
                     f"{median / numpy_us:8.1f} {cpu:14.2f}")
    lines.append(f"native launcher: {native.unavailable_reason() or 'on'}")
    return lines


#: The script of the fresh processes (tests/runtime/test_first_compile.py runs it too).
FIRST_COMPILE = """import json
import time
start, start_cpu, start_thread = time.perf_counter(), time.process_time(), time.thread_time()
import numpy as np
import tilecraft as tc
import tilecraft.language as tl

@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
             + tl.load(y_ptr + offsets, mask=mask), mask=mask)

x = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
out = np.full_like(x, np.nan)
add_kernel[(4,)](x, x, out, 4096, BLOCK=1024)
first, first_cpu = time.perf_counter() - start, time.process_time() - start_cpu
first_thread = time.thread_time() - start_thread
assert np.allclose(out, 2 * x)
start = time.perf_counter()
compiled = add_kernel[(8,)](x, x, out, 4096, BLOCK=512)
again = time.perf_counter() - start
assert np.allclose(out, 2 * x)
start = time.perf_counter()
compiled.optimize()
optimize = time.perf_counter() - start
print(json.dumps({"first": first, "first_cpu": first_cpu, "first_thread": first_thread,
                  "new_specialization": again, "optimize": optimize}))
"""


def _fresh_process(bytecode: str, native: str | None, quick: bool) -> dict[str, float]:
    """The figures of `FIRST_COMPILE` run in a new process with an empty compile cache, Python's
    bytecode cached under ``bytecode`` (as an installed package has it, whatever
    PYTHONDONTWRITEBYTECODE says here), quick builds on or off, and, where ``native`` names it,
    the native launchers' module already built (copied into the cache's ``.native``, where a
    first process builds it once in the background: a gcc that, on two cores, takes one from
    the compile)."""
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "first_compile.py")  # the frontend reads the source
        with open(script, "w") as file:
            file.write(FIRST_COMPILE)
        if native is not None:
            shutil.copytree(native, os.path.join(folder, "cache", ".native"))
        env = {**os.environ, "TILECRAFT_CACHE_DIR": os.path.join(folder, "cache"),
               "TILECRAFT_BACKEND": "cpu", "PYTHONPYCACHEPREFIX": bytecode,
               "TILECRAFT_QUICK_BUILDS": "1" if quick else "0"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        result = subprocess.run([sys.executable, script], env=env, capture_output=True,
                                text=True, check=True)
    return json.loads(result.stdout)


def _built_launchers(folder: str) -> str | None:
    """A ``.native`` folder holding the native launchers' module, built under ``folder`` (None
    where it cannot be built: the processes then run without it, as such a machine would)."""
    env = {**os.environ, "TILECRAFT_CACHE_DIR": folder}
    built = subprocess.run([sys.executable, "-c", "from tilecraft.backends import native; "
                            "print(native.launchers(wait=True) is not None)"], env=env,
                           capture_output=True, text=True, check=False)
    native = os.path.join(folder, ".native")
    return native if built.stdout.strip() == "True" and os.path.isdir(native) else None


def compile_times(runs: int) -> list[str]:
    """First compile (fresh process, empty cache) and a new specialization, medians of runs
    with quick builds and as many without, in turn; a first process, which writes the bytecode
    of every module it imports, is reported apart."""
    with tempfile.TemporaryDirectory() as bytecode, tempfile.TemporaryDirectory() as built:
        unwritten = _fresh_process(bytecode, None, True)
        native = _built_launchers(built)
        measured: dict[bool, list[dict[str, float]]] = {True: [], False: []}
        for _ in range(runs):
            for quick in (True, False):
                measured[quick].append(_fresh_process(bytecode, native, quick))
    lines = [f"with no bytecode written yet (Python compiles each module), first compile + "
             f"launch: {unwritten['first'] * 1e3:.0f} ms"]
    for quick, label in ((True, "quick builds (the default)"),
                         (False, "TILECRAFT_QUICK_BUILDS=0")):
        figures = measured[quick]
        firsts = [f["first"] for f in figures]
        agains = [f["new_specialization"] for f in figures]
        lines += [f"{label}:",
                  f"  first compile + launch of vector add, fresh process, empty cache, import "
                  f"included: median {statistics.median(firsts) * 1e3:.0f} ms (runs: "
                  f"{', '.join(f'{t * 1e3:.0f}' for t in firsts)}; process CPU time "
                  f"{statistics.median(f['first_cpu'] for f in figures) * 1e3:.0f} ms, of the "
                  f"main thread {statistics.median(f['first_thread'] for f in figures) * 1e3:.0f}"
                  f" ms)",
                  f"  new specialization in the warm process, compile + launch: median "
                  f"{statistics.median(agains) * 1e3:.1f} ms (runs: "
                  f"{', '.join(f'{t * 1e3:.1f}' for t in agains)})"]
        if quick:
            lines.append(f"  its optimization, made once the kernel has run "
                         f"{cpu_driver.QUICK_SECONDS * 1e3:g} ms: median "
                         f"{statistics.median(f['optimize'] for f in figures) * 1e3:.1f} ms")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=21)
    parser.add_argument("--per-batch", type=int, default=2000)
    parser.add_argument("--compile", type=int, default=5, metavar="RUNS",
                        help="fresh processes for the compile times (0: skip them)")
    options = parser.parse_args()
    os.environ["TILECRAFT_BACKEND"] = "cpu"
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for line in launch_table(options.batches, options.per_batch):
        print(line)
    if options.compile:
        for line in compile_times(options.compile):
            print(line)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
