"""Kernels whose loops made LLVM abort the process while it optimized them.

llvmlite's LLVM is built with assertions, so a cost-model assertion in the loop vectorizer kills
the interpreter instead of being a silent no-op: LLVM 22 plans ``llvm.maxnum``/``llvm.minnum``
reductions without fast-math flags with a NaN check whose cost its legacy model does not count,
and asserts when the two models pick different widths (a ``tl.max`` of 32 fp16 values did). The
CPU backend emits ``maxnumf``/``minnumf`` as ``llvm.maximumnum``/``llvm.minimumnum``, which
ignore NaNs the same way and vectorize without that check.

Each case compiles and runs in a child process, so a regression fails the test with LLVM's
message instead of ending the test session.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent('''
    import os
    os.environ["TILECRAFT_BACKEND"] = "cpu"
    import numpy as np
    import tilecraft as tc
    import tilecraft.language as tl


    @tc.jit
    def reduce_kernel(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr,
                      AXIS: tl.constexpr, MAX: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
        r = tl.max(x, axis=AXIS) if MAX else tl.min(x, axis=AXIS)
        tl.store(out_ptr + tl.arange(0, BN if AXIS == 0 else BM), r)


    @tc.jit
    def running_max_kernel(x_ptr, out_ptr, n):
        m = tl.load(x_ptr)
        for i in range(1, n):
            m = tl.maximum(m, tl.load(x_ptr + i))
        tl.store(out_ptr, m)


    rng = np.random.default_rng({seed})
    for dtype in (np.float16, np.float32):
        for bm, bn, axis in ((1, 32, 1), (32, 1, 0), (8, 32, 1), (32, 2, 0), (32, 8, 0),
                             (64, 128, 1)):
            for use_max in (True, False):
                x = rng.standard_normal((bm, bn)).astype(dtype)
                x[rng.random((bm, bn)) < 0.2] = np.nan
                out = np.zeros(bn if axis == 0 else bm, dtype)
                reduce_kernel[(1,)](x, out, BM=bm, BN=bn, AXIS=axis, MAX=use_max)
                expected = (np.fmax if use_max else np.fmin).reduce(x, axis=axis)
                np.testing.assert_array_equal(out, expected, err_msg=f"{{dtype}} {{bm}}x{{bn}}")
    x = rng.standard_normal(1000).astype(np.float32)
    x[::7] = np.nan
    out = np.zeros(1, np.float32)
    running_max_kernel[(1,)](x, out, x.size)
    assert out[0] == np.nanmax(x), (out, np.nanmax(x))
    print("ok")
''')


def test_nan_ignoring_min_max_reductions_compile_and_run(tmp_path):
    seed = int.from_bytes(os.urandom(4), "little")
    script = tmp_path / "kernels.py"  # the frontend reads a kernel's source from its file
    script.write_text(_CHILD.format(seed=seed))
    child = subprocess.run([sys.executable, str(script)],
                           capture_output=True, text=True, timeout=300,
                           env={**os.environ, "TILECRAFT_CACHE_DIR": str(tmp_path)})
    assert child.returncode == 0 and child.stdout.strip().endswith("ok"), \
        f"input seed {seed}, exit status {child.returncode}\n{child.stderr[-3000:]}"
