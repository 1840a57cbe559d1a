"""What a fresh process's first compile loads: a kernel of one function without calls gets
through the CPU backend without networkx (its analyses build no graph for it)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys

    import numpy as np

    import tilecraft as tc
    import tilecraft.language as tl

    @tc.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask)
                 + tl.load(y_ptr + offsets, mask=mask), mask=mask)

    x = np.random.default_rng(0).standard_normal(100).astype(np.float32)
    out = np.full_like(x, np.nan)
    add_kernel[(2,)](x, x, out, 100, BLOCK=64)
    assert np.allclose(out, 2 * x)
    print("networkx" in sys.modules)
""")


def test_first_compile_does_not_import_networkx(tmp_path):
    script = tmp_path / "first_compile.py"  # the frontend reads the kernel's source
    script.write_text(SCRIPT)
    env = {**os.environ, "TILECRAFT_BACKEND": "cpu", "TILECRAFT_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "False"
