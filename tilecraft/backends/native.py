"""The native launchers of `launchers/` (C), compiled at run time and cached on disk.

`launchers()` gives the extension module ``tilecraft_launchers`` (its ``CudaLauncher`` and
``CpuLauncher`` types and the fast path's ``Describer``), built once per source and Python ABI
with the system C compiler (``CC`` if set, else sysconfig's, else ``cc``, ``gcc`` or ``clang``)
against the headers of the running Python, and kept under the compile cache
(``<cache>/.native/``, beside the entries; in a folder of the process when the cache is
disabled).

A build takes about a second, longer than a first compile should: where the module is not built
yet, `launchers()` starts its build in a detached process and returns None at once, so the
kernels loaded meanwhile launch through their Python launchers (for the life of their process)
and those loaded once the module is there launch natively; ``launchers(wait=True)`` builds it
first. The build writes a temporary file and renames it, so no process loads half a module; a
cached module that fails to load is built again; a build that fails leaves its compiler's
message beside the module (``.failed``), the reason given from then on (remove it to try again).

Where there is no compiler, no ``Python.h``, or the build failed, `launchers()` returns None and
`unavailable_reason()` says why: the drivers then launch through their Python launchers.
``TILECRAFT_NATIVE_LAUNCHER=0`` switches the native launchers off.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

MODULE_NAME = "tilecraft_launchers"
SOURCES = Path(__file__).with_name("launchers")
SWITCH = "TILECRAFT_NATIVE_LAUNCHER"
_TYPES = ("CudaLauncher", "CpuLauncher", "Describer")

# The build, run by sh so that a detached one needs no Python: $1 the module, $2 the temporary
# file, $3 the compiler's messages, $4 the failure record, then the compiler's command.
_BUILD_SCRIPT = ('module=$1 scratch=$2 messages=$3 failed=$4; shift 4; '
                 'if "$@" -o "$scratch" 2>"$messages"; then mv -f "$scratch" "$module"; '
                 'rm -f "$messages"; else mv -f "$messages" "$failed"; rm -f "$scratch"; fi')

# The module once loaded (from whichever cache: it is the same code), else, per module path,
# why there is none.
_LOADED: list[ModuleType] = []
_REASONS: dict[Path, str] = {}
_STARTED: set[Path] = set()  # the builds this process started in the background


class NativeUnavailable(RuntimeError):
    """The native launchers cannot be built or loaded here; the message says why."""


def enabled() -> bool:
    """Whether ``TILECRAFT_NATIVE_LAUNCHER`` leaves the native launchers on (the default)."""
    return os.environ.get(SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def launchers(wait: bool = False) -> ModuleType | None:
    """The ``tilecraft_launchers`` module, or None where it is switched off, cannot be built
    (see `unavailable_reason`), or is not built yet: then its build is started in the
    background, or, with ``wait``, run to its end first."""
    if not enabled():
        return None
    if _LOADED:
        return _LOADED[0]
    path = module_path(_folder())
    try:
        module = load(path, build=_build if wait else _build_in_background)
    except NativeUnavailable as error:
        _REASONS[path] = str(error)
        return None
    except OSError as error:  # an unwritable cache, a missing sh...
        _REASONS[path] = f"cannot build in {path.parent}: {error}"
        return None
    _LOADED.append(module)
    return module


def unavailable_reason() -> str | None:
    """Why `launchers()` returned None, or None where it gives the module."""
    if not enabled():
        return f"switched off by {SWITCH}={os.environ[SWITCH]!r}"
    if _LOADED:
        return None
    return _REASONS.get(module_path(_folder()), "not asked for yet")


def _folder() -> Path:
    """``.native`` in the compile cache's folder, which the variables name as
    `tilecraft.runtime.cache.cache_dir` reads them (the runtime is above the backends: not
    imported here), or `_process_folder` where the cache is disabled."""
    if os.environ.get("TILECRAFT_CACHE_DISABLE", "") not in ("", "0"):
        return _process_folder()
    configured = os.environ.get("TILECRAFT_CACHE_DIR", "")
    return (Path(configured) if configured else Path.home() / ".cache" / "tilecraft") / ".native"


@functools.cache
def _process_folder() -> Path:
    """A folder of this process, for when the compile cache is disabled (a loaded module
    outlives its file)."""
    folder = tempfile.mkdtemp(prefix="tilecraft-native-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder)


def module_path(folder: Path) -> Path:
    """Where the module built from the current `SOURCES` for this Python lives in
    ``folder``."""
    return folder / f"{MODULE_NAME}-{_source_key()}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


@functools.cache
def _source_key() -> str:
    """The sha256 (32 hex digits) of the sources, by name, and of this Python's ABI."""
    digest = hashlib.sha256()
    for path in sorted(SOURCES.iterdir()):
        if path.suffix in (".c", ".h"):
            data = path.read_bytes()
            digest.update(b"%s\0%d\0" % (path.name.encode(), len(data)) + data)
    abi = f"{sys.implementation.cache_tag}\0{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    digest.update(abi.encode())
    return digest.hexdigest()[:32]


def failure_record(path: Path) -> Path:
    """Where a failed build of the module ``path`` leaves its compiler's messages."""
    return path.with_name(path.name + ".failed")


def load(path: Path, build: Callable[[Path], None] | None = None) -> ModuleType:
    """The module at ``path``; where it is missing or does not load, ``build(path)`` (default:
    the build, waited for) makes it first. Raises `NativeUnavailable` with the reason."""
    if path.exists():
        try:
            return _import(path)
        except ImportError:
            path.unlink(missing_ok=True)  # damaged or foreign: built again
    (build or _build)(path)
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


def _build_command(path: Path) -> list[str]:
    """The command that builds the module ``path`` (see `_BUILD_SCRIPT`); raises
    `NativeUnavailable` where it cannot be built."""
    failed = failure_record(path)
    if failed.exists():
        messages = failed.read_text(errors="replace").strip()[-2000:]
        raise NativeUnavailable(f"the build of {path.name} failed ({failed}; remove it to try "
                                f"again): {messages}")
    if os.name != "posix":
        raise NativeUnavailable("native launchers are built on POSIX systems only")
    if shutil.which("sh") is None:
        raise NativeUnavailable("no sh on the PATH to run the build")
    command = compiler()
    if isinstance(command, str):
        raise NativeUnavailable(command)
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        raise NativeUnavailable(f"no Python.h in {include} (install Python's development "
                                f"headers)")
    flags = ["-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-std=gnu11", f"-I{include}"]
    if sys.platform == "darwin":
        flags += ["-undefined", "dynamic_lookup"]
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.urandom(6).hex()}")
    return ["sh", "-c", _BUILD_SCRIPT, "sh", str(path), f"{scratch}.tmp", f"{scratch}.log",
            str(failed), *command, *flags, *sorted(str(path) for path in SOURCES.glob("*.c"))]


def _build(path: Path) -> None:
    """Builds the module ``path`` and waits for it."""
    import subprocess

    subprocess.run(_build_command(path), check=False, stdin=subprocess.DEVNULL)
    if not path.exists():
        _build_command(path)  # raises with the failure's record
        raise NativeUnavailable(f"the build of {path} left no module")


def _build_in_background(path: Path) -> None:
    """Starts the build of the module ``path`` in a detached process (once per process) and
    raises `NativeUnavailable` saying so."""
    command = _build_command(path)
    if path not in _STARTED:
        _STARTED.add(path)
        # sh puts the build in the background and returns: nothing is left to wait for. (Spawned
        # directly: a first compile does not import subprocess for it.)
        command[2] = f"({command[2]}) </dev/null >/dev/null 2>&1 &"
        stdin = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
        os.waitpid(os.posix_spawnp(command[0], command, os.environ, file_actions=stdin,
                                   setsid=True), 0)
    raise NativeUnavailable(f"being built in the background ({path}): kernels loaded once it "
                            f"is there launch natively")
