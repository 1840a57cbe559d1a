"""The compile cache's key covers what runs: every tilecraft module a compile imports is in the
source fingerprint (by module: `generated/` and `runtime/` are mapped into the package), and in a
copy of the project, changing a def and running tools/gen makes the next launch compile again."""

from __future__ import annotations

import json
from pathlib import Path

from ..project_copy import copy_project

# Launches a small kernel on the CPU backend, then reports the cache entries, the fingerprint
# and the imported tilecraft modules whose files the fingerprint does not hash.
SCRIPT = '''
import json, os, sys
import numpy as np
import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import cache

@tc.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 3.0 + 1.0, mask=mask)

x = np.random.default_rng(0).standard_normal(100).astype(np.float32)
out = np.full_like(x, np.nan)
scale_kernel[(4,)](x, out, 100, BLOCK=32)
np.testing.assert_allclose(out, x.astype(np.float64) * 3.0 + 1.0, rtol=1e-6)
hashed = {os.path.realpath(path) for path in cache.source_modules().values()}
unhashed = sorted(name for name, module in sys.modules.items()
                  if name.split(".")[0] == "tilecraft" and getattr(module, "__file__", None)
                  and os.path.realpath(module.__file__) not in hashed)
entries = [e for e in os.listdir(os.environ["TILECRAFT_CACHE_DIR"]) if not e.startswith(".")]
print(json.dumps({"entries": len(entries),
                  "fingerprint": cache.source_fingerprint(), "unhashed": unhashed,
                  "generated": os.path.realpath(sys.modules["tilecraft.generated"].__file__)}))
'''


def test_changing_a_def_and_regenerating_recompiles(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    cache = tmp_path / "cache"
    cache.mkdir()
    (project.root / "launch.py").write_text(SCRIPT, encoding="utf-8")

    def launch() -> dict:
        # One thread: a launch that runs slowly (a loaded machine) would otherwise start the
        # thread pool, whose object is a cache entry of its own.
        proc = project.run("launch.py", TILECRAFT_CACHE_DIR=str(cache), TILECRAFT_BACKEND="cpu",
                           TILECRAFT_CPU_THREADS="1")
        return json.loads(proc.stdout.strip().splitlines()[-1])

    first = launch()
    assert first["generated"] == str((project.root / "generated" / "__init__.py").resolve())
    assert first["unhashed"] == []
    assert first["entries"] == 1
    assert launch() == first  # a new process with the same sources reads the cache
    project.edit("defs/arith.td", 'let summary = "Floating-point addition";',
                 'let summary = "Floating-point addition (edited)";')
    project.run("tools/gen")
    assert "(edited)" in (project.root / "generated" / "arith.py").read_text(encoding="utf-8")
    after = launch()
    assert after["fingerprint"] != first["fingerprint"]
    assert after["entries"] == 2  # compiled again, not served from the old entry
