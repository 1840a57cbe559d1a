"""PTX to a cubin in the process, with NVIDIA's nvJitLink library, where it is installed.

A ``ptxas`` subprocess costs about 19 ms for a small kernel on the H200 host, of which ptxas
reports 5 ms of compiling: the rest is starting the process. nvJitLink runs the same assembler
in the process (8-13 ms for a small kernel there), but loading and starting it costs 0.2-0.4 s
from a cold disk (about 30 ms once the library is in the page cache), more than a fresh
process's first compile can pay. So `toolchain.ptx_to_cubin` asks `ready` for the assembler:
the first call starts loading it in a background thread (the library's calls release the GIL,
through ctypes) and answers None, and the compiles that come once it is loaded use it. The CUDA
backend's ``prepare`` makes that first call as a kernel's first compile begins, before its
frontend runs, so that the library loads meanwhile.

Every assembly is asked for the report ``ptxas -v`` gives (``-Xptxas=-v -verbose``), with
nvJitLink's own cache off (``-no-cache``: a cached result comes without it, and the compile cache
keeps cubins anyway). The library is looked for as ``libnvJitLink.so.13`` or ``.12`` under
$CUDA_HOME, $CUDA_PATH, /usr/local/cuda and NVIDIA's wheels (``nvidia/cu13/lib``,
``nvidia/nvjitlink/lib``), then by the dynamic loader's own search; ``TILECRAFT_PTXAS`` (a
chosen ptxas) and ``TILECRAFT_JITLINK=0`` keep every compile on the ptxas subprocess.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import threading
from pathlib import Path

SWITCH = "TILECRAFT_JITLINK"
_NAMES = ("libnvJitLink.so.13", "libnvJitLink.so.12")
_INPUT_PTX = 2  # nvJitLinkInputType's NVJITLINK_INPUT_PTX


class JitLinkError(Exception):
    """nvJitLink refused the PTX, or could not be used; ``log`` holds its error log."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log


def _candidates() -> list[Path]:
    """Where the library may lie, in the order tried."""
    homes = [Path(home) for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"))
             if home] + [Path("/usr/local/cuda")]
    folders = [home / sub for home in homes
               for sub in ("lib64", "lib", "targets/x86_64-linux/lib")]
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    for root in (spec.submodule_search_locations or []) if spec is not None else []:
        folders += [Path(root) / "cu13" / "lib", Path(root) / "nvjitlink" / "lib"]
    return [folder / name for folder in folders for name in _NAMES]


class Assembler:
    """nvJitLink, loaded: `assemble` turns PTX into a cubin and ptxas's ``-v`` report."""

    def __init__(self, library: ctypes.CDLL) -> None:
        self._library = library
        size_p = ctypes.POINTER(ctypes.c_size_t)
        handle_p = ctypes.POINTER(ctypes.c_void_p)
        signatures = {
            "nvJitLinkCreate": [handle_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p)],
            "nvJitLinkDestroy": [handle_p],
            "nvJitLinkAddData": [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
                                 ctypes.c_char_p],
            "nvJitLinkComplete": [ctypes.c_void_p],
            "nvJitLinkGetLinkedCubinSize": [ctypes.c_void_p, size_p],
            "nvJitLinkGetLinkedCubin": [ctypes.c_void_p, ctypes.c_void_p],
            "nvJitLinkGetErrorLogSize": [ctypes.c_void_p, size_p],
            "nvJitLinkGetErrorLog": [ctypes.c_void_p, ctypes.c_char_p],
            "nvJitLinkGetInfoLogSize": [ctypes.c_void_p, size_p],
            "nvJitLinkGetInfoLog": [ctypes.c_void_p, ctypes.c_char_p],
        }
        for name, arguments in signatures.items():
            function = getattr(library, name)  # AttributeError: not this library
            function.argtypes = arguments
            function.restype = ctypes.c_int

    def _log(self, handle: ctypes.c_void_p, kind: str) -> str:
        size = ctypes.c_size_t()
        if getattr(self._library, f"nvJitLinkGet{kind}LogSize")(handle, ctypes.byref(size)):
            return ""
        text = ctypes.create_string_buffer(size.value + 1)
        getattr(self._library, f"nvJitLinkGet{kind}Log")(handle, text)
        return text.value.decode(errors="replace").strip()

    def assemble(self, ptx: str, arch: str, name: str) -> tuple[bytes, str]:
        """(the cubin, ptxas's ``-v`` report) of ``ptx`` for ``arch`` (``sm_90a``); raises
        `JitLinkError` with nvJitLink's error log where it fails."""
        library = self._library
        options = [f"-arch={arch}", "-O3", "-Xptxas=-v", "-verbose", "-no-cache"]
        handle = ctypes.c_void_p()
        status = library.nvJitLinkCreate(ctypes.byref(handle), len(options),
                                         (ctypes.c_char_p * len(options))(
                                             *(option.encode() for option in options)))
        if status:
            raise JitLinkError(f"nvJitLinkCreate failed (status {status})")
        try:
            data = ptx.encode()
            status = library.nvJitLinkAddData(handle, _INPUT_PTX, data, len(data),
                                              name.encode())
            if not status:
                status = library.nvJitLinkComplete(handle)
            if status:
                raise JitLinkError(f"nvJitLink could not assemble {name!r} (status {status})",
                                   self._log(handle, "Error"))
            size = ctypes.c_size_t()
            library.nvJitLinkGetLinkedCubinSize(handle, ctypes.byref(size))
            cubin = ctypes.create_string_buffer(size.value)
            library.nvJitLinkGetLinkedCubin(handle, cubin)
            return cubin.raw, self._log(handle, "Info")
        finally:
            library.nvJitLinkDestroy(ctypes.byref(handle))


def _load(arch: str, ptx_version: str) -> Assembler | None:
    """The assembler, started (one small assembly for ``arch`` done), or None where none
    loads."""
    for candidate in [*(path for path in _candidates() if path.is_file()), *_NAMES]:
        try:
            assembler = Assembler(ctypes.CDLL(str(candidate)))
            assembler.assemble(_WARM_UP_PTX.format(version=ptx_version, arch=arch), arch,
                               "warm_up")
            return assembler
        except (OSError, AttributeError, JitLinkError):
            continue
    return None


# The smallest kernel: assembling it once for the target the compiles will assemble for loads
# what their first assembly would (on the H200 host, a first sm_90a assembly after an sm_80
# warm-up took about 5 ms more than the next ones).
_WARM_UP_PTX = """.version {version}
.target {arch}
.address_size 64
.visible .entry warm_up() {{ ret; }}
"""

_LOCK = threading.Lock()
_LOADED: list[Assembler | None] = []  # [the assembler or None] once the load has finished
_LOADING: list[threading.Thread] = []


def _load_in_background(arch: str, ptx_version: str) -> None:
    _LOADED.append(_load(arch, ptx_version))


def ready(arch: str = "sm_80", ptx_version: str = "7.0") -> Assembler | None:
    """The loaded assembler; None while it loads (the first call starts that, warming it up on
    target ``arch`` with PTX ISA ``ptx_version``), where there is none, where it failed
    (`disable`), and where ``TILECRAFT_PTXAS`` or ``TILECRAFT_JITLINK=0`` choose the ptxas
    subprocess."""
    if os.environ.get("TILECRAFT_PTXAS") or os.environ.get(SWITCH, "1") == "0":
        return None
    if _LOADED:
        return _LOADED[0]
    with _LOCK:
        if not _LOADING:
            thread = threading.Thread(target=_load_in_background, args=(arch, ptx_version),
                                      name="tilecraft-jitlink", daemon=True)
            _LOADING.append(thread)
            thread.start()
    return None


def wait() -> Assembler | None:
    """The assembler once its load (started here if it was not) has finished, or None."""
    ready()
    if _LOADING:
        _LOADING[0].join()
    return _LOADED[0] if _LOADED else None


def disable() -> None:
    """Keeps every later assembly of this process on the ptxas subprocess (after nvJitLink
    refused PTX that ptxas accepted)."""
    _LOADED[:] = [None]
