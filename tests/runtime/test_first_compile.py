"""What a fresh process's first compile loads: the benchmark's first compile of vector add (one
function, no calls) gets through the CPU backend without networkx, as its analyses build no
graph for such a kernel."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("cpu_launch",
                                               ROOT / "tools" / "bench" / "cpu_launch.py")
cpu_launch = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(cpu_launch)


def test_first_compile_does_not_import_networkx(tmp_path):
    script = tmp_path / "first_compile.py"  # the frontend reads the kernel's source
    check = "import sys\nassert 'networkx' not in sys.modules, 'networkx was imported'\n"
    script.write_text(cpu_launch.FIRST_COMPILE + check)
    env = {**os.environ, "TILECRAFT_BACKEND": "cpu", "TILECRAFT_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
