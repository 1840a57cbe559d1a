"""A hash of the compiler's source files, so that compile-cache entries made by another version
of the compiler are not served: `source_fingerprint` covers the whole package (what compile-cache
keys fold in)."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os


# The folders that make up the package: tilecraft/ itself and those pyproject maps into it.
_MAPPED_PACKAGES = ("tilecraft.generated", "tilecraft.runtime")


def source_files() -> list[str]:
    """Every ``*.py`` file of the tilecraft package, its subpackages and the folders mapped into
    it (``generated/``, ``runtime/``), in a fixed order."""
    roots = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    for name in _MAPPED_PACKAGES:
        spec = importlib.util.find_spec(name)  # finds the folder without running the package
        if spec is not None and spec.origin is not None:
            roots.append(os.path.dirname(os.path.abspath(spec.origin)))
    found = []
    for root in roots:
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
            found.extend(os.path.join(folder, name) for name in sorted(names)
                         if name.endswith(".py"))
    return found


@functools.cache
def source_fingerprint() -> str:
    """The sha256 of `source_files`, by name and contents (computed once per process, a few
    milliseconds): what compile-cache keys fold in as tilecraft's own source."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(f"{os.path.basename(os.path.dirname(path))}/{os.path.basename(path)}\0"
                      .encode())
        with open(path, "rb") as file:
            digest.update(hashlib.sha256(file.read()).digest())
    return digest.hexdigest()
