"""The native launchers of `launchers.c`, compiled at run time and cached on disk.

`launchers()` gives the extension module ``tilecraft_launchers`` (its ``CudaLauncher`` and
``CpuLauncher`` types), built once per machine and Python ABI with the system C compiler (``CC``
if set, else sysconfig's, else ``cc``, ``gcc`` or ``clang``) against the headers of the running
Python, and kept under the compile cache (``<cache>/native/``; in a temporary folder when the
cache is disabled). The build is written to a temporary file and renamed, so concurrent processes
never load half a module; a cached module that fails to load is built again.

Where there is no compiler, no ``Python.h``, or the build fails, `launchers()` returns None and
`unavailable_reason()` says why: the drivers then launch through their Python launchers.
``TILECRAFT_NATIVE_LAUNCHER=0`` switches the native launchers off.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

MODULE_NAME = "tilecraft_launchers"
SOURCE = Path(__file__).with_name("launchers.c")
SWITCH = "TILECRAFT_NATIVE_LAUNCHER"
_TYPES = ("CudaLauncher", "CpuLauncher")
_BUILD_SECONDS = 120


class NativeUnavailable(RuntimeError):
    """The native launchers cannot be built or loaded here; the message says why."""


def enabled() -> bool:
    """Whether ``TILECRAFT_NATIVE_LAUNCHER`` leaves the native launchers on (the default)."""
    return os.environ.get(SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def launchers() -> ModuleType | None:
    """The ``tilecraft_launchers`` module, or None where it is switched off or cannot be built
    (see `unavailable_reason`)."""
    if not enabled():
        return None
    loaded = _cached_load()
    return loaded if isinstance(loaded, ModuleType) else None


def unavailable_reason() -> str | None:
    """Why `launchers()` returns None, or None where it gives the module."""
    if not enabled():
        return f"switched off by {SWITCH}={os.environ[SWITCH]!r}"
    loaded = _cached_load()
    return None if isinstance(loaded, ModuleType) else loaded


@functools.cache
def _cached_load() -> ModuleType | str:
    """The module, or why it is unavailable (once per process)."""
    from tilecraft.runtime.cache import cache_dir

    root = cache_dir()
    try:
        if root is not None:
            return load(root / "native")
        with tempfile.TemporaryDirectory() as folder:  # a loaded module outlives its file
            return load(Path(folder))
    except NativeUnavailable as error:
        return str(error)


def module_path(folder: Path) -> Path:
    """Where the module built from the current `SOURCE` for this Python lives in ``folder``."""
    from tilecraft.runtime.cache import cache_key

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    key = cache_key(SOURCE.read_bytes(), sys.implementation.cache_tag, suffix)
    return folder / f"{MODULE_NAME}-{key[:32]}{suffix}"


def load(folder: Path) -> ModuleType:
    """The module from ``folder``, built there first when it is missing or does not load.
    Raises `NativeUnavailable` with the reason when it cannot be built."""
    path = module_path(folder)
    if path.exists():
        try:
            return _import(path)
        except ImportError:
            pass  # a damaged or foreign file: built again below
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as scratch:
        built = Path(scratch) / path.name
        _compile(built)
        os.replace(built, path)
    try:
        return _import(path)
    except ImportError as error:
        raise NativeUnavailable(f"the built module {path} does not load: {error}") from None


def _import(path: Path) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(MODULE_NAME, str(path))
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path, loader=loader)
    if spec is None:
        raise ImportError(f"no module spec for {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    missing = [name for name in _TYPES if not hasattr(module, name)]
    if missing:
        raise ImportError(f"{path} lacks {', '.join(missing)}")
    return module


def compiler() -> list[str] | str:
    """The C compiler's command (``CC``, else sysconfig's ``CC``, else the first of ``cc``,
    ``gcc``, ``clang`` on the PATH), or why there is none."""
    configured = os.environ.get("CC", "").strip()
    if configured:
        words = shlex.split(configured)
        if shutil.which(words[0]) is None:
            return f"no C compiler: CC={configured!r} is not found"
        return words
    words = shlex.split(sysconfig.get_config_var("CC") or "")
    if words and shutil.which(words[0]):
        return words
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return [name]
    return "no C compiler: CC is unset and none of cc, gcc, clang is on the PATH"


def _compile(output: Path) -> None:
    """Builds `SOURCE` into the extension module ``output``."""
    if os.name != "posix":
        raise NativeUnavailable(f"native launchers are built on POSIX systems only, not "
                                f"{os.name!r}")
    command = compiler()
    if isinstance(command, str):
        raise NativeUnavailable(command)
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        raise NativeUnavailable(f"no Python.h in {include} (install Python's development "
                                f"headers)")
    flags = ["-O2", "-shared", "-fPIC", "-std=gnu11", f"-I{include}"]
    if sys.platform == "darwin":
        flags += ["-undefined", "dynamic_lookup"]
    arguments = [*command, *flags, str(SOURCE), "-o", str(output)]
    try:
        subprocess.run(arguments, check=True, capture_output=True, text=True,
                       timeout=_BUILD_SECONDS)
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", None) or str(error)
        raise NativeUnavailable(f"{shlex.join(arguments)} failed: "
                                f"{detail.strip()[-2000:]}") from None
