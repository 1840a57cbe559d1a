"""A hash of the compiler's source files, so that compile-cache entries made by another version
of the compiler are not served (each backend names the files its output depends on)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path


def package_folders(*names: str) -> list[Path]:
    """Folders of the tilecraft package (``"backends/cpu"``, ``"transforms"``, ...), and
    ``"generated"``, which the package maps from elsewhere."""
    package = Path(__file__).resolve().parents[1]
    folders = []
    for name in names:
        if name == "generated":
            import tilecraft.generated

            folders.append(Path(tilecraft.generated.__file__).resolve().parent)
        else:
            folders.append(package / name)
    return folders


def python_files(folders: Iterable[Path]) -> list[Path]:
    """The ``*.py`` files directly in ``folders``, in a fixed order."""
    return [path for folder in folders for path in sorted(folder.glob("*.py"))]


@functools.cache
def fingerprint(paths: tuple[Path, ...]) -> str:
    """The sha256 of the files' names and contents (computed once per process)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
