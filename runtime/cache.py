"""The on-disk compile cache, shared by every backend.

An entry is a directory named by its key under ``TILECRAFT_CACHE_DIR`` (default
``~/.cache/tilecraft``) holding one file per stage (``add_kernel.ttir``, ``add_kernel.llir``,
``add_kernel.o``, ...), the metadata as ``metadata.json`` and a manifest with the size and sha256
of each. An entry is written in a temporary directory and renamed into place, so readers see a
whole entry or none; one that does not match its manifest counts as a miss and is replaced by
the next `put`, and one that matches it but that its reader rejects is removed by `discard`.
``TILECRAFT_CACHE_DISABLE=1`` turns the cache off.

Keys fold in `source_fingerprint`, the hash of every module of the installed package, so that
entries made by another version of the compiler (another `generated/` after a `.td` edit
included) are not served.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
import threading
import warnings
from pathlib import Path
from typing import Any

METADATA_FILE = "metadata.json"
_MANIFEST_FILE = "manifest.json"
_FORMAT = 1
# The packages the build puts in the tilecraft namespace: tilecraft/ and the top-level folders
# pyproject maps into it. Each is found through the import system, wherever the install put it.
_PACKAGES = ("tilecraft", "tilecraft.codegen", "tilecraft.generated", "tilecraft.runtime")


def source_modules() -> dict[str, str]:
    """Module name -> source file of every module of the tilecraft distribution, subpackages
    included, in a fixed order: the folders of `_PACKAGES` come from their import specs (so a
    mapped folder is found however it is installed), a package's modules are its ``*.py``
    files and its subpackages its subfolders with an ``__init__.py``."""
    modules: dict[str, str] = {}
    found: dict[str, list[str]] = {}  # subpackage -> its folder, as the walk found it
    pending = list(reversed(_PACKAGES))
    while pending:
        package = pending.pop()
        folders = found.get(package)
        if folders is None:
            spec = importlib.util.find_spec(package)  # finds the folder, running no package
            if spec is None or not spec.submodule_search_locations:
                continue
            folders = spec.submodule_search_locations
        subpackages = []
        for folder in folders:
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                stem, dot, suffix = entry.name.partition(".")
                if entry.is_file() and dot and suffix == "py" and stem.isidentifier():
                    name = package if stem == "__init__" else f"{package}.{stem}"
                    modules.setdefault(name, entry.path)
                elif (entry.is_dir() and entry.name.isidentifier()
                      and os.path.isfile(os.path.join(entry.path, "__init__.py"))):
                    subpackages.append(f"{package}.{entry.name}")
                    if subpackages[-1] not in _PACKAGES:
                        found.setdefault(subpackages[-1], [entry.path])
        pending.extend(name for name in reversed(subpackages)
                       if name not in modules and name not in pending)
    return modules


def source_fingerprint() -> str:
    """The sha256 of `source_modules`, by module name and file contents: what compile-cache
    keys fold in as tilecraft's own source. Computed once per process (about 10 ms of reading
    and hashing), in the background where `prefetch_source_fingerprint` started it."""
    with _fingerprint_lock:
        if not _fingerprint:
            digest = hashlib.sha256()
            for name, path in source_modules().items():
                digest.update(f"{name}\0".encode())
                with open(path, "rb") as file:
                    digest.update(hashlib.sha256(file.read()).digest())
            _fingerprint.append(digest.hexdigest())
        return _fingerprint[0]


def prefetch_source_fingerprint() -> None:
    """Starts computing `source_fingerprint` in a background thread, unless it is known or under
    way: a first compile has its frontend to run meanwhile, and the reading and hashing release
    the GIL."""
    global _prefetch
    if _fingerprint or _prefetch is not None:
        return
    _prefetch = threading.Thread(target=source_fingerprint, name="tilecraft-source-fingerprint",
                                 daemon=True)
    _prefetch.start()


def _forget_prefetch() -> None:
    """In a child process forked while the prefetch ran: its thread is gone, and with it the
    holder of the lock."""
    global _fingerprint_lock, _prefetch
    _fingerprint_lock = threading.Lock()
    _prefetch = None


_fingerprint: list[str] = []
_fingerprint_lock = threading.Lock()
_prefetch: threading.Thread | None = None
os.register_at_fork(after_in_child=_forget_prefetch)


def cache_dir() -> Path | None:
    """Where entries live, or None when the cache is disabled."""
    if os.environ.get("TILECRAFT_CACHE_DISABLE", "") not in ("", "0"):
        return None
    configured = os.environ.get("TILECRAFT_CACHE_DIR", "")
    return Path(configured) if configured else Path.home() / ".cache" / "tilecraft"


def cache_key(*parts: object) -> str:
    """The sha256 (hex) of ``parts``: None, bools, ints, floats, strings, bytes, and lists,
    tuples, sets and dicts of them, encoded so that different parts never share an encoding."""
    digest = hashlib.sha256()
    _encode(parts, digest)
    return digest.hexdigest()


def _encode(part: object, digest) -> None:
    if isinstance(part, (str, bytes)):
        tag, data = (b"s", part.encode()) if isinstance(part, str) else (b"b", part)
    elif part is None or isinstance(part, (bool, int, float)):
        tag, data = b"v", repr(part).encode()  # repr tells None, True, 1 and 1.0 apart
    elif isinstance(part, (list, tuple)):
        digest.update(b"l%d:" % len(part))
        for item in part:
            _encode(item, digest)
        return
    elif isinstance(part, (set, frozenset, dict)):
        items = part.items() if isinstance(part, dict) else ((item, None) for item in part)
        tag = b"d" if isinstance(part, dict) else b"u"
        data = "".join(sorted(cache_key(key, value) for key, value in items)).encode()
    else:
        raise TypeError(f"cannot put {type(part).__name__} in a cache key")
    digest.update(b"%s%d:" % (tag, len(data)))
    digest.update(data)


def _entry(key: str) -> Path | None:
    root = cache_dir()
    if root is None:
        return None
    if len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
        raise ValueError(f"not a cache key: {key!r}")
    return root / key


def get(key: str) -> dict[str, Any] | None:
    """The entry of ``key``: each file's contents (str for those put as text) and, under
    `METADATA_FILE`, the metadata; None when there is none, or it is incomplete or corrupted."""
    entry = _entry(key)
    return None if entry is None else _read(entry)


def _read(entry: Path) -> dict[str, Any] | None:
    try:
        manifest = json.loads((entry / _MANIFEST_FILE).read_bytes())
        if manifest["format"] != _FORMAT:
            return None
        contents: dict[str, Any] = {}
        for name, info in manifest["files"].items():
            data = (entry / name).read_bytes()
            if len(data) != info["size"] or hashlib.sha256(data).hexdigest() != info["sha256"]:
                return None
            contents[name] = data.decode() if info["text"] else data
        contents[METADATA_FILE] = json.loads(contents[METADATA_FILE])
        return contents
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def put(key: str, files: dict[str, bytes | str], metadata: dict) -> None:
    """Stores ``files`` (name to contents) and ``metadata`` (JSON-serializable) under ``key``,
    unless an intact entry is there already. A cache that cannot be written only warns."""
    entry = _entry(key)
    if entry is None or _read(entry) is not None:
        return
    for name in files:
        if name in (METADATA_FILE, _MANIFEST_FILE) or Path(name).name != name or \
                name.startswith("."):
            raise ValueError(f"invalid cache file name {name!r}")
    contents = dict(files)
    contents[METADATA_FILE] = json.dumps(metadata, indent=2, sort_keys=True)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(prefix=f".{key[:16]}-", dir=entry.parent))
        try:
            _write(temporary, contents)
            _publish(temporary, entry)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
    except OSError as error:
        warnings.warn(f"tilecraft: could not write the compile cache entry {entry}: {error}",
                      RuntimeWarning, stacklevel=2)


def discard(key: str) -> None:
    """Removes the entry of ``key``, if any: it is renamed aside first, so readers see it whole
    or not at all."""
    entry = _entry(key)
    if entry is None or not entry.exists():
        return
    _remove(entry)


def _remove(entry: Path) -> None:
    """Renames ``entry`` to a fresh name beside it, then deletes it there."""
    try:
        stale = Path(tempfile.mkdtemp(prefix=f".{entry.name[:16]}-stale-", dir=entry.parent))
    except OSError as error:
        warnings.warn(f"tilecraft: could not remove the compile cache entry {entry}: {error}",
                      RuntimeWarning, stacklevel=3)
        return
    try:
        os.replace(entry, stale)
    except FileNotFoundError:  # another process removed or moved it first
        pass
    shutil.rmtree(stale, ignore_errors=True)


def _write(directory: Path, contents: dict[str, bytes | str]) -> None:
    files = {}
    for name, content in contents.items():
        data = content.encode() if isinstance(content, str) else content
        (directory / name).write_bytes(data)
        files[name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                       "text": isinstance(content, str)}
    manifest = {"format": _FORMAT, "files": files}
    (directory / _MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True))


def _publish(temporary: Path, entry: Path) -> None:
    """Renames the finished ``temporary`` directory to ``entry``. Renaming onto a directory that
    is not empty fails: another writer got there first (then its entry stands) or the entry
    there is corrupted (then it is moved aside and removed)."""
    try:
        os.replace(temporary, entry)
        return
    except OSError:
        if _read(entry) is not None:
            return
    _remove(entry)
    try:
        os.replace(temporary, entry)
    except OSError:
        if _read(entry) is None:
            raise
