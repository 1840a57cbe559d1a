"""The examples' kernels for code outside this folder: tests and tools/bench use the tutorial
kernels written here instead of keeping copies of them.

``example("04_matmul")`` imports ``examples/04_matmul.py`` as a module (its ``__main__`` part does
not run), ``kernel_source("04_matmul", "matmul_kernel")`` gives a kernel's text without its
decorators, for benchmarks that compile the same kernel under another compiler's ``@jit``.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

FOLDER = Path(__file__).resolve().parent


def example(stem: str) -> ModuleType:
    """The module of ``examples/<stem>.py`` (imported once, as ``example_<stem>``), with this
    folder on ``sys.path`` for the examples' own ``_report``."""
    name = f"example_{stem}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    if str(FOLDER) not in sys.path:
        sys.path.append(str(FOLDER))
    spec = importlib.util.spec_from_file_location(name, FOLDER / f"{stem}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"no example {stem!r} in {FOLDER}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def kernel_source(stem: str, name: str) -> str:
    """The text of the function ``name`` of ``examples/<stem>.py``, from ``def`` to its end."""
    text = (FOLDER / f"{stem}.py").read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return "\n".join(text.splitlines()[node.lineno - 1:node.end_lineno]) + "\n"
    raise LookupError(f"examples/{stem}.py defines no function {name!r}")
