"""Helpers for generator tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tilecraft.codegen.main import main as gen_main

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def load_generated(path: Path, name: str):
    """Import a generated module from a file, as a user does after running tools/gen."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def run_gen(root: Path, *args: str) -> int:
    """Run tools/gen on a project root; returns its exit code."""
    return gen_main(["--root", str(root), "-q", *args])
