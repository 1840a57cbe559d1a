"""Compiled kernels: which backend runs a launch, the compile cache, and the launch itself.

``TILECRAFT_BACKEND`` picks the backend: ``cuda`` (NVPTX through llvmlite, ptxas, cuda-python),
``cpu`` (host LLVM through llvmlite's JIT) or ``interpret`` (the numpy interpreter, as
``TILECRAFT_INTERPRET=1``). Left unset, a launch runs on CUDA when cuda-python finds a GPU, and
on the CPU otherwise.

Each compiled backend is a `Backend` here: its compile stages (in
``tilecraft.backends.<target>.compiler``), what its cache entries hold, and its launcher. A
`CompiledKernel` keeps each stage's text in ``asm`` (``ttir``, ``ttgir``, ``llir``, ``ptx``,
``cubin`` for CUDA; ``ttir``, ``llir``, ``asm`` for the CPU), as Triton's does, and compiled
kernels are cached on disk (`tilecraft.runtime.cache`) under a key made of the kernel's `tt` IR
(which holds the kernel's source and that of every ``@jit`` function it calls, inlined or as
private functions, the constexpr globals it read and its specialization), the options, the
target and the hash of tilecraft's own source. An entry is checked before it is used: against
its manifest (`cache.get`), against the kernel's own signature (its name and the kind of each
argument, derived from the `tt` module, not from the entry) and by the backend (the CPU's object
file is read as ELF and must define the kernel's entry point); one that fails is discarded and
compiled again. ``TILECRAFT_ALWAYS_COMPILE=1`` compiles without reading the cache.

``compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32))`` compiles
for any target on any machine; launching needs the target's device.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from . import cache

BACKENDS = ("cpu", "cuda", "interpret")


class BackendError(RuntimeError):
    """A backend that was asked for and cannot run here."""


class InvalidEntry(ValueError):
    """A compile-cache entry that does not describe the kernel it was looked up for."""


def selected_backend() -> str:
    """The backend launches use now (see the module docstring)."""
    if os.environ.get("TILECRAFT_INTERPRET", "") not in ("", "0"):
        return "interpret"
    name = os.environ.get("TILECRAFT_BACKEND", "").strip().lower()
    if not name:
        return "cuda" if _cuda_usable() else "cpu"
    if name not in BACKENDS:
        raise BackendError(f"TILECRAFT_BACKEND={name!r}: choose one of {', '.join(BACKENDS)}")
    if name == "cuda" and not _cuda_usable():
        raise BackendError("TILECRAFT_BACKEND=cuda: no usable CUDA device (cuda-python and a "
                           "GPU with its driver are needed); use 'cpu' or 'interpret'")
    return name


def _cuda_usable() -> bool:
    from tilecraft.backends.cuda import driver

    return driver.is_available()


class GPUTarget(NamedTuple):
    """Where a kernel is compiled for, as Triton's: ``GPUTarget("cuda", 90, 32)``."""

    backend: str
    arch: int | str
    warp_size: int = 32


class ASTSource:
    """A kernel and its specialization, as Triton's: ``signature`` maps each parameter to a
    type string (``"*fp32"``, ``"i32"``, ``"*fp16:16"`` for divisibility by 16, or
    ``"constexpr"``); ``constexprs`` gives the constexpr values."""

    def __init__(self, fn: Any, signature: dict, constexprs: dict | None = None,
                 attrs: dict | None = None) -> None:
        self.fn = fn
        self.signature = signature
        self.constexprs = {} if constexprs is None else constexprs
        self.attrs = {} if attrs is None else attrs

    def __repr__(self) -> str:
        return (f"ASTSource(fn={self.fn!r}, signature={self.signature!r}, "
                f"constexprs={self.constexprs!r}, attrs={self.attrs!r})")


class CompiledKernel:
    """A kernel compiled for one specialization on one backend: ``asm`` has each stage's text,
    ``metadata`` what launching needs; ``launch(grid, args)`` runs it.

    A quick build (see `compile_module`) has ``finish``, which makes the optimized build and
    puts it in the disk cache; `optimize` replaces the quick build by it, and ``asm`` is the
    optimized build's."""

    def __init__(self, name: str, asm: dict, metadata: dict, backend: Backend,
                 binary: Any, finish: Callable[[], Any] | None = None) -> None:
        self.name = name
        self._asm = asm
        self.metadata = metadata
        self.backend = backend
        self._binary = binary
        self._finish = finish
        self._lock = threading.Lock()
        self._launcher = None

    def __repr__(self) -> str:
        return f"CompiledKernel({self.name}, stages={list(self._asm)})"

    @property
    def asm(self) -> dict:
        """Each stage's text (of the optimized build: a quick build is optimized first)."""
        self.optimize()
        return self._asm

    @property
    def quick(self) -> bool:
        """Whether this is still a quick build."""
        return self._finish is not None

    def optimize(self) -> None:
        """Replaces a quick build by the optimized one, in the launcher too: once, for the
        first thread that asks (the launcher asks once the quick build has run long enough).
        Nothing for any other build."""
        if self._finish is None:
            return
        with self._lock:
            if self._finish is None:
                return
            binary = self._finish()
            self._binary = binary
            self._asm = self.backend.describe(binary)[1]
            self._finish = None
            if self._launcher is not None:
                self._launcher.replace(binary)

    @property
    def launcher(self):
        """The backend's launcher, made on first use (compiling needs no device)."""
        if self._launcher is None:
            with self._lock:
                if self._launcher is None:
                    quick = self._finish is not None
                    self._launcher = self.backend.launcher(self._binary,
                                                           self.optimize if quick else None)
        return self._launcher

    def launch(self, grid: tuple[int, int, int], args: list, **options) -> None:
        self.launcher.launch(grid, args, **options)

    @property
    def n_regs(self) -> int | None:
        return self.metadata.get("registers")

    @property
    def n_spills(self) -> int | None:
        return self.metadata.get("spills")


class Backend:
    """A compiled backend: its options, compile stages, cache entries and launcher."""

    name = ""

    def prepare(self) -> None:
        """Starts, in the background, what this backend's compiles will need and take long to
        load, so that it loads while the frontend runs (nothing by default)."""

    def options(self, launch_options: dict) -> Any:
        raise NotImplementedError

    def cache_key_parts(self, options: Any) -> tuple:
        raise NotImplementedError

    def compile(self, module, options: Any, quick: bool = False) -> Any:
        """The binary of ``module``; with ``quick``, the backend may make a quick build
        instead (`is_quick`), whose code runs slower and which `optimized` completes."""
        raise NotImplementedError

    def is_quick(self, binary: Any) -> bool:
        """Whether ``binary`` is a quick build (none is, unless the backend makes them)."""
        return False

    def optimized(self, binary: Any) -> Any:
        """The optimized build of the quick build ``binary``."""
        raise NotImplementedError

    def from_cache(self, files: dict, metadata: dict) -> Any:
        """The binary a cache entry holds; raises (any exception) when the entry is not one
        this backend wrote and can load."""
        raise NotImplementedError

    def arg_kind(self, ty: Any) -> str:
        """The launch kind (``"ptr"``, ``"i32"``, ``"fp32"``...) of a kernel parameter of
        `tt` type ``ty``."""
        raise NotImplementedError

    def cache_files(self, binary: Any) -> tuple[dict, dict]:
        raise NotImplementedError

    def describe(self, binary: Any) -> tuple[str, dict, dict]:
        """(name, asm, metadata) of a binary."""
        raise NotImplementedError

    def launcher(self, binary: Any, optimize: Callable[[], None] | None = None):
        """The launcher of ``binary``; for a quick build, ``optimize`` (its kernel's
        `CompiledKernel.optimize`) is what the launcher calls once the quick build has run long
        enough, and the launcher's ``replace(binary)`` then takes the optimized build."""
        raise NotImplementedError


class CPUBackend(Backend):
    """The host CPU (`tilecraft.backends.cpu`), launched by `cpu_driver.CPUKernel`."""

    name = "cpu"

    def options(self, launch_options: dict) -> None:
        return None

    def cache_key_parts(self, options: None) -> tuple:
        from tilecraft.backends.cpu import engine

        return engine.host_cache_key_parts()

    def compile(self, module, options: None, quick: bool = False):
        from tilecraft.backends.cpu import compiler

        return compiler.compile_ttir(module, quick=quick)

    def is_quick(self, binary) -> bool:
        return binary.quick

    def optimized(self, binary):
        from tilecraft.backends.cpu import compiler

        return compiler.optimized(binary)

    def from_cache(self, files: dict, metadata: dict):
        from tilecraft.backends.cpu import compiler, engine

        from .cpu_driver import debug_tables

        binary = compiler.binary_from_cache(metadata["name"], files, metadata)
        info = binary.info
        if not isinstance(binary.obj, bytes):
            raise InvalidEntry("the object file is stored as text")
        if info.grid_symbol not in engine.object_symbols(binary.obj).defined:
            raise InvalidEntry(f"the object file does not define {info.grid_symbol!r}")
        debug_tables(info.grid_symbol, info.arg_kinds, info.prints, info.asserts)
        return binary

    def arg_kind(self, ty) -> str:
        from tilecraft.backends.cpu import types

        return types.arg_kind(ty)

    def cache_files(self, binary) -> tuple[dict, dict]:
        from tilecraft.backends.cpu import compiler

        return compiler.cache_files(binary), compiler.cache_metadata(binary)

    def describe(self, binary) -> tuple[str, dict, dict]:
        return binary.name, binary.asm, binary.metadata()

    def launcher(self, binary, optimize: Callable[[], None] | None = None):
        from .cpu_driver import CPUKernel

        info = binary.info
        kernel = CPUKernel(_cpu_library(binary), info.grid_symbol, info.arg_kinds, info.prints,
                           info.asserts, optimize)
        return _CPULauncher(kernel)


def _cpu_library(binary):
    """The object code of a `CPUBinary`, loaded."""
    from tilecraft.backends.cpu import engine, mathlib

    library = engine.JITLibrary(binary.obj)
    if library.imports:  # (finding libm runs ldconfig: only for code that calls out)
        mathlib.load_libm()
    return library


class _CPULauncher:
    """Launches a `cpu_driver.CPUKernel`: ``launch(grid, args)``, or ``launch_values(grid,
    stream, *args)`` as the launch fast path calls every launcher."""

    def __init__(self, kernel) -> None:
        self.kernel = kernel
        self.launch_values = kernel.launch_values

    def launch(self, grid, args: list, **_options) -> None:
        self.kernel.launch(grid, args)

    def replace(self, binary) -> None:
        """Runs ``binary``, the optimized build of the quick one launched so far."""
        self.kernel.replace_code(_cpu_library(binary))


def parse_arch(arch: str | int) -> int:
    """The compute capability that Triton's ``arch`` launch option names: ``"sm80"``,
    ``"sm_90a"`` or ``90``."""
    text = str(arch).lower().removeprefix("sm").removeprefix("_").rstrip("a")
    if not text.isdigit() or int(text) < 70:
        raise ValueError(f"arch must name a CUDA target such as 'sm80' or 'sm_90a', got {arch!r}")
    return int(text)


class CUDABackend(Backend):
    """NVIDIA GPUs (`tilecraft.backends.cuda`), launched by `driver.CudaFunction`."""

    name = "cuda"

    def __init__(self, capability: int | None = None) -> None:
        self.capability = capability

    def prepare(self) -> None:
        """Starts loading nvJitLink (`jitlink`), which takes 0.02-0.4 s (the longer from a cold
        disk): a compile that reaches its assembly before the load has ended runs a ptxas
        subprocess, the later ones assemble in the process. It is warmed up on this backend's
        target (the device's, where none was chosen; sm_80 where there is no device)."""
        from tilecraft.backends.cuda import driver, toolchain

        capability = self.capability
        if capability is None and driver.is_available():
            capability = driver.device_properties()["capability"]
        toolchain.start_assembler(capability or 80)

    def options(self, launch_options: dict):
        from tilecraft.backends.cuda.compiler import CUDAOptions

        capability = self.capability
        if capability is None:
            from tilecraft.backends.cuda import driver

            capability = driver.device_properties()["capability"]
        known = {"num_warps", "num_stages", "num_ctas", "debug", "enable_fp_fusion", "maxnreg"}
        chosen = {k: v for k, v in launch_options.items() if k in known and v is not None}
        arch = launch_options.get("arch")
        if arch is not None and parse_arch(arch) != capability:
            # Triton's launch option: the code of another target ("sm80"), which ptxas
            # assembles for this GPU
            return CUDAOptions(capability=parse_arch(arch), assemble_for=int(capability),
                               **chosen)
        return CUDAOptions(capability=int(capability), **chosen)

    def cache_key_parts(self, options) -> tuple:
        from dataclasses import astuple

        return astuple(options)

    def compile(self, module, options, quick: bool = False):
        from tilecraft.backends.cuda import compiler

        return compiler.compile_ttir(module, options)

    def from_cache(self, files: dict, metadata: dict):
        from tilecraft.backends.cuda import compiler

        binary = compiler.binary_from_cache(files, metadata)
        if not isinstance(binary.asm["cubin"], bytes):
            raise InvalidEntry("the cubin is stored as text")
        for field_name in ("shared", "num_warps"):
            value = metadata[field_name]
            if type(value) is not int or value < 0:
                raise InvalidEntry(f"metadata {field_name}={value!r}")
        return binary

    def arg_kind(self, ty) -> str:
        from tilecraft.backends.cpu import types  # the CUDA lowering passes arguments alike

        return types.arg_kind(ty)

    def cache_files(self, binary) -> tuple[dict, dict]:
        from tilecraft.backends.cuda import compiler

        return compiler.cache_files(binary), binary.metadata

    def describe(self, binary) -> tuple[str, dict, dict]:
        return binary.name, binary.asm, binary.metadata

    def launcher(self, binary, optimize: Callable[[], None] | None = None):
        from tilecraft.backends.cuda import driver

        meta = binary.metadata
        return _CUDALauncher(driver.CudaFunction(
            binary.asm["cubin"], meta["name"], meta["shared"], meta["num_warps"],
            meta["arg_kinds"], arg_names=meta.get("arg_names")))


class _CUDALauncher:
    """Launches a `driver.CudaFunction` on the given stream, else torch's current one:
    ``launch(grid, args, stream=None)``, or ``launch_values(grid, stream, *args)`` (the
    function's generated launcher) as the launch fast path calls every launcher."""

    def __init__(self, function) -> None:
        self.function = function
        self.launch_values = function.launch_values

    def launch(self, grid, args: list, stream: int | None = None, **_options) -> None:
        self.function.launch(grid, args, stream)


def get_backend(name: str, capability: int | None = None) -> Backend:
    if name == "cpu":
        return CPUBackend()
    if name == "cuda":
        return CUDABackend(capability)
    raise BackendError(f"no compiled backend named {name!r}")


def compile_module(module, backend: Backend, launch_options: dict | None = None,
                   arg_names: list[str] | None = None, *, quick: bool = False
                   ) -> CompiledKernel:
    """``module`` (the frontend's `tt` module) compiled by ``backend``, from the disk cache
    when it holds an entry that passes the checks of the module docstring.

    With ``quick`` (a launch's compile), the backend may make a quick build (the CPU's, for
    kernels that run straight through), and a quick build found in the cache is kept: the
    kernel's `CompiledKernel.optimize` makes the optimized build and puts that in the cache in
    its place. Without it, a quick build is optimized before this returns."""
    options, key = _options_and_key(module, backend, launch_options)
    binary = None if always_compile() else _cached_binary(key, module, backend)
    if binary is None:
        binary = _compile_and_store(module, backend, options, key, quick)
    return _compiled_kernel(module, backend, binary, arg_names, key, quick=quick)


def _compile_and_store(module, backend: Backend, options: Any, key: str,
                       quick: bool = False) -> Any:
    """``module`` compiled by ``backend`` with ``options`` (a quick build where ``quick`` asks
    and the backend makes one), put in the cache under ``key``."""
    binary = backend.compile(module, options, quick)
    _store(backend, binary, key)
    return binary


def _optimize_and_store(backend: Backend, binary: Any, key: str) -> Any:
    """The optimized build of the quick ``binary``, put in the cache under ``key`` in place of
    the quick build's entry."""
    binary = backend.optimized(binary)
    cache.discard(key)
    _store(backend, binary, key)
    return binary


def _store(backend: Backend, binary: Any, key: str) -> None:
    files, metadata = backend.cache_files(binary)
    cache.put(key, files, metadata)


def compile_modules(jobs: Sequence[tuple[Any, Backend, dict, list[str]]]
                    ) -> list[CompiledKernel | Exception]:
    """Each job's ``compile_module(module, backend, launch_options, arg_names)``, or the
    exception it raises. The first two jobs the cache does not hold are compiled here, the
    second timed; when the rest would take long enough to pay for worker processes
    (`compile_workers.worth_workers`), their backend stages run at once in them. A job that
    fails in a worker is compiled here again, which raises its error."""
    import time

    from tilecraft.ir import print_op

    from . import compile_workers

    outcomes: list[CompiledKernel | Exception | None] = [None] * len(jobs)
    prepared = [_options_and_key(module, backend, options) for module, backend, options, _ in jobs]
    missing = []
    for index, ((module, backend, _, arg_names), (_, key)) in enumerate(zip(jobs, prepared)):
        binary = None if always_compile() else _cached_binary(key, module, backend)
        if binary is None:
            missing.append(index)
        else:
            outcomes[index] = _compiled_kernel(module, backend, binary, arg_names, key)

    def compile_here(index: int) -> None:  # (the cache was read above)
        module, backend, _, arg_names = jobs[index]
        try:
            binary = _compile_and_store(module, backend, *prepared[index])
            outcomes[index] = _compiled_kernel(module, backend, binary, arg_names,
                                               prepared[index][1])
        except Exception as error:  # noqa: BLE001 - each job's own outcome
            outcomes[index] = error

    if len(missing) > 2:
        compile_here(missing[0])  # (the process's first compile also pays one-off costs)
        start = time.perf_counter()
        compile_here(missing[1])
        missing = missing[2:]
        if compile_workers.worth_workers(time.perf_counter() - start, len(missing)):
            requests = [compile_workers.Request(
                jobs[i][1].name, getattr(jobs[i][1], "capability", None),
                print_op(jobs[i][0], print_debuginfo=True), prepared[i][0]) for i in missing]
            for index, result in zip(missing, compile_workers.compile_all(requests)):
                if result is None:
                    continue
                files, metadata = result
                module, backend, _, arg_names = jobs[index]
                try:
                    binary = _checked_binary(files, metadata, module, backend)
                except Exception:  # noqa: BLE001 - compiled again below, here
                    continue
                cache.put(prepared[index][1], files, metadata)
                outcomes[index] = _compiled_kernel(module, backend, binary, arg_names,
                                                   prepared[index][1])
    for index in missing:
        if outcomes[index] is None:
            compile_here(index)
    return outcomes


def _options_and_key(module, backend: Backend, launch_options: dict | None) -> tuple[Any, str]:
    """The backend's options for ``launch_options`` and the cache key of ``module`` compiled
    with them."""
    from tilecraft import __version__
    from tilecraft.ir import print_op

    try:
        options = backend.options(launch_options or {})
    except ValueError as error:
        from tilecraft.frontend.errors import CompilationError

        raise CompilationError(f"kernel '{_kernel_name(module)}': {error}") from None
    key = cache.cache_key(backend.name, __version__, cache.source_fingerprint(), print_op(module),
                          backend.cache_key_parts(options))
    return options, key


def _compiled_kernel(module, backend: Backend, binary: Any, arg_names: list[str] | None,
                     key: str, *, quick: bool = False) -> CompiledKernel:
    """The `CompiledKernel` of ``binary``, cached under ``key``; a quick build stays one only
    where ``quick`` allows it, else it is optimized now."""
    name, asm, metadata = backend.describe(binary)
    if arg_names is not None:
        metadata["arg_names"] = _launched_names(module, arg_names,
                                                metadata.get("tensormaps", ()))
        if metadata.get("global_scratch"):
            metadata["arg_names"].append("global_scratch")
    finish = None
    if backend.is_quick(binary):
        finish = functools.partial(_optimize_and_store, backend, binary, key)
    compiled = CompiledKernel(name, asm, metadata, backend, binary, finish)
    if not quick:
        compiled.optimize()
    return compiled


def scratch_arguments(metadata: dict, grid: tuple[int, int, int], stream: object) -> list:
    """The launch's global scratch memory, as the last argument of a kernel that needs it
    (``metadata["global_scratch"]`` bytes per program), else nothing."""
    per_program = metadata.get("global_scratch", 0)
    if not per_program:
        return []
    from tilecraft.backends.cuda.tensormap import global_scratch

    return [global_scratch(per_program * grid[0] * grid[1] * grid[2], stream)]


def _launched_names(module, arg_names: list[str], tensormaps: Sequence[dict]) -> list[str]:
    """The names of the kernel's parameters as launched: a tensor descriptor passed as its
    pack names each value after it (``a_desc.shape.0``...)."""
    from tilecraft.generated.tt import TensorDescType
    from tilecraft.transforms.rewrite_tensor_descriptor import pack_name_suffixes

    kernel = _kernel_func(module)
    maps = {parameter["index"] for parameter in tensormaps}
    names = []
    for index, name in enumerate(arg_names):
        ty = kernel.function_type.inputs[index] if kernel is not None else None
        if isinstance(ty, TensorDescType) and index not in maps:
            names += [f"{name}.{suffix}" if suffix else name
                      for suffix in pack_name_suffixes(ty)]
        else:
            names.append(name)
    return names


def quick_builds() -> bool:
    """Whether a launch's compile may make a quick build (`compile_module`): yes unless
    ``TILECRAFT_QUICK_BUILDS=0``."""
    return os.environ.get("TILECRAFT_QUICK_BUILDS", "") != "0"


def always_compile() -> bool:
    """Whether ``TILECRAFT_ALWAYS_COMPILE`` asks to compile without reading the cache."""
    return os.environ.get("TILECRAFT_ALWAYS_COMPILE", "") not in ("", "0")


def _cached_binary(key: str, module, backend: Backend) -> Any:
    """The binary the cache holds under ``key`` for ``module``, or None. An entry that does not
    load, or that describes another kernel than ``module``'s, is discarded."""
    entry = cache.get(key)
    if entry is None:
        return None
    try:
        return _checked_binary(entry, entry[cache.METADATA_FILE], module, backend)
    except Exception:  # noqa: BLE001 - whatever a damaged entry raises, it is compiled again
        cache.discard(key)
        return None


def _checked_binary(files: dict, metadata: dict, module, backend: Backend) -> Any:
    """The binary that cache ``files`` and ``metadata`` hold, checked against ``module``'s
    kernel (its name and the kind of each argument); raises when it does not match."""
    binary = backend.from_cache(files, metadata)
    name, _, described = backend.describe(binary)
    kernel = _kernel_func(module)
    if kernel is None:
        raise InvalidEntry("the module has no tt.func")
    expected = [backend.arg_kind(ty) for ty in _launched_types(
        kernel.function_type.inputs, metadata.get("tensormaps", ()))]
    expected += ["ptr"] if metadata.get("global_scratch") else []
    if name != kernel.sym_name or described["name"] != kernel.sym_name:
        raise InvalidEntry(f"it holds kernel {name!r}")
    if described["arg_kinds"] != expected:
        raise InvalidEntry(f"argument kinds {described['arg_kinds']} where the kernel's "
                           f"signature has {expected}")
    return binary


def _launched_types(types, tensormaps: Sequence[dict]) -> list:
    """The kernel's parameter types as launched: a tensor descriptor as a pointer to its
    ``CUtensorMap`` where ``tensormaps`` names it, else as its pack."""
    from tilecraft.generated.tt import PointerType, TensorDescType
    from tilecraft.transforms.rewrite_tensor_descriptor import descriptor_pack_types

    maps = {parameter["index"] for parameter in tensormaps}
    launched = []
    for index, ty in enumerate(types):
        if isinstance(ty, TensorDescType):
            launched += ([PointerType(ty.element_type)] if index in maps
                         else descriptor_pack_types(ty))
        else:
            launched.append(ty)
    return launched


def _kernel_func(module):
    """The kernel of a `tt` module: its public ``tt.func`` (the first function if none is
    public), as the backends' lowerings choose it; None when there is no function."""
    funcs = [op for op in module.regions[0].blocks[0] if op.name == "tt.func"]
    public = [op for op in funcs if op.sym_visibility != "private"] or funcs
    return public[0] if public else None


def _kernel_name(module) -> str:
    kernel = _kernel_func(module)
    return "?" if kernel is None else kernel.sym_name


def compile(src: ASTSource, target: GPUTarget | None = None,  # noqa: A001 - Triton's name
            options: dict | None = None) -> CompiledKernel:
    """Compiles ``src`` for ``target`` (default: where launches run now), as
    ``triton.compile`` does; no device is needed."""
    from tilecraft.language import core as tl

    cache.prefetch_source_fingerprint()  # (for the cache key, while the frontend runs)
    fn = src.fn
    args = {}
    for name in fn.arg_names:
        if name in src.constexprs:
            args[name] = tl.constexpr(src.constexprs[name])
        elif src.signature.get(name) == "constexpr":
            raise TypeError(f"{fn.__name__}: constexpr parameter {name!r} has no value")
        elif name in src.signature:
            args[name] = src.signature[name]
        else:
            raise TypeError(f"{fn.__name__}: parameter {name!r} is not in the signature")
    module = fn.ir(**args)
    if target is None:
        backend = get_backend(selected_backend())
    else:
        arch = target.arch
        capability = parse_arch(arch) if arch else None
        backend = get_backend(target.backend, capability)
    spec = fn.specialize((), args, for_ir=True)
    return compile_module(module, backend, options, list(spec.arg_types))


def launch_arguments(spec, arg_kinds: list[str], backend: str,
                     tensormaps: Sequence[dict] = ()) -> list:
    """The runtime arguments of a specialization in launch order: addresses for arrays (a host
    array given to a CUDA kernel is an error naming it), integers wrapped to their width (an
    unsigned value given for a signed slot), floats; a tensor descriptor is the address of its
    encoded ``CUtensorMap`` where ``tensormaps`` (the kernel's metadata) names its parameter,
    else its pack."""
    from .arguments import (address_of, is_array_like, is_tensor_descriptor, is_torch_tensor,
                            reinterpret)

    by_index = {parameter["index"]: parameter for parameter in tensormaps}
    given = []
    for index, name in enumerate(spec.arg_types):
        value = spec.bound[name]
        if is_tensor_descriptor(value) and index in by_index:
            from tilecraft.backends.cuda.tensormap import tensormap_address

            given.append((name, tensormap_address(value, by_index[index], name)))
        elif is_tensor_descriptor(value):
            from .tensor_descriptor import descriptor_pack_values

            given += [(name, v) for v in descriptor_pack_values(value, value.base)]
        else:
            given.append((name, value))
    values = []
    for (name, value), kind in zip(given, arg_kinds):
        if is_array_like(value):
            if backend == "cuda":
                from tilecraft.backends.cuda import driver

                base = value.base if isinstance(value, reinterpret) else value
                values.append(driver.pointer_of(base, name))
                continue
            if is_torch_tensor(value) and getattr(value, "is_cuda", False):
                raise BackendError(f"argument '{name}' is a CUDA tensor, but the kernel runs on "
                                   "the CPU backend")
            values.append(address_of(value))
        elif kind.startswith("i") and not isinstance(value, float):
            width = int(kind[1:])
            value = int(value) & ((1 << width) - 1)
            values.append(value - (1 << width) if width > 1 and value >> (width - 1) else value)
        else:
            values.append(float(value) if kind.startswith("fp") else value)
    return values
