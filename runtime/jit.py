"""``@tilecraft.jit``: kernels, their specialization and their launch.

``kernel[grid](*args, BLOCK=..., num_warps=...)`` specializes the kernel for its arguments
(as Triton does: the types of tensors and scalars, constexpr values, integers equal to 1 and
integers and pointers divisible by 16), compiles it to `tt` IR, then for the selected backend
(see `tilecraft.runtime.compiler`: the CPU unless ``TILECRAFT_BACKEND`` says otherwise), runs it
and returns the `CompiledKernel` (``.asm`` has each stage's text). ``TILECRAFT_INTERPRET=1``,
``TILECRAFT_BACKEND=interpret`` or ``@tilecraft.jit(interpret=True)`` runs the numpy
interpreter instead, on numpy arrays and CPU torch tensors. ``kernel.ttir(*args, **constexprs)`` returns the verified `tt` module as
text; arguments may be arrays, scalars, language types (``tl.pointer_type(tl.float32)``) or
Triton's signature strings (``"*fp32"``, ``"i32"``, ``"*fp16:16"`` for divisibility by 16).
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Sequence

from tilecraft.language import core as tl

from . import cache, fast_launch
from .arguments import (address_of, element_type_of, is_array_like, is_tensor_descriptor,
                        scalar_type_of)
from .arguments import reinterpret  # noqa: F401 (tilecraft.runtime.jit.reinterpret, as before)
from .compiler import (compile_module, compile_modules, get_backend, launch_arguments,
                       quick_builds, scratch_arguments, selected_backend)

LAUNCH_OPTIONS = frozenset({
    "num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "warmup", "debug",
    "launch_cooperative_grid", "num_buffers_warp_spec", "num_consumer_groups",
    "reg_dec_producer", "reg_inc_consumer", "enable_warp_specialization", "stream", "arch",
})

def _debug() -> bool:
    return os.environ.get("TILECRAFT_DEBUG", "") not in ("", "0")


def _signature_string(text: str):
    """``"*fp32"``, ``"i32"`` and, with divisibility by 16, ``"*fp32:16"``."""
    divisible = text.endswith(":16")
    if divisible:
        text = text[:-3]
    return tl.str_to_ty(text), divisible


class Specialization:
    """What a launch's arguments specialize a kernel for."""

    __slots__ = ("key", "arg_types", "constexprs", "attrs", "bound")

    def __init__(self, key: tuple, arg_types: dict, constexprs: dict, attrs: dict,
                 bound: dict) -> None:
        self.key = key
        self.arg_types = arg_types  # runtime parameter -> language type
        self.constexprs = constexprs  # constexpr parameter (and specialized ones) -> value
        self.attrs = attrs  # runtime parameter -> {attribute: value}
        self.bound = bound  # every parameter -> the value given (for the grid, the interpreter)


def _hashable(value):
    try:
        hash(value)
        return value
    except TypeError:
        return ("id", id(value))


class JITFunction:
    """A kernel (or a function kernels call) written in the kernel language."""

    __tilecraft_jit__ = True

    def __init__(self, fn, *, interpret: bool | None = None, noinline: bool = False,
                 do_not_specialize=(), debug: bool | None = None, **_ignored) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.interpret = interpret
        self.noinline = noinline
        self.debug = debug
        self.signature = inspect.signature(fn)
        self.params = list(self.signature.parameters.values())
        self.arg_names = [p.name for p in self.params]
        self.constexpr_names = {p.name for p in self.params
                                if tl.is_constexpr_annotation(p.annotation)}
        dns = set()
        for item in do_not_specialize:
            dns.add(self.arg_names[item] if isinstance(item, int) else item)
        self.do_not_specialize = dns
        self._source = None
        self._cache: dict = {}
        self._binaries: dict = {}
        self._fast: dict = {}  # launch fast path: key -> fast_launch.Entry
        self._dispatch = None  # made at the first launch (fast_launch.make_dispatcher)
        # the last kernel[grid]: the same grid object (a tuple or a function made once and
        # launched often) gets it back (the grid is resolved at each launch, not here)
        self._bound: functools.partial | None = None
        self._key_of = None
        self._interpreted = None

    def __repr__(self) -> str:
        return f"JITFunction({self.fn.__module__}:{self.fn.__qualname__})"

    def source(self):
        if self._source is None:
            from tilecraft.frontend.code_generator import get_function_source

            self._source = get_function_source(self.fn)
        return self._source

    # -- launching
    def __getitem__(self, grid):
        """``kernel[grid]``: calling it launches the kernel over ``grid``, through the launch
        fast path (`fast_launch`) when an earlier launch's arguments specialized alike."""
        bound = self._bound
        if bound is not None and bound.args[0] is grid:  # a grid made once and launched often
            return bound
        dispatch = self._dispatch
        if dispatch is None:
            dispatch = self._make_dispatcher()
        self._bound = bound = functools.partial(dispatch, grid)
        return bound

    def run(self, *args, grid, **kwargs):
        """Launches the kernel over ``grid``, as ``kernel[grid](*args, **kwargs)``."""
        return self[grid](*args, **kwargs)

    def _make_dispatcher(self):
        made = None if self.interpret else fast_launch.make_dispatcher(
            self.signature, self.__name__, self.constexpr_names, self.do_not_specialize,
            self._fast, _resolve_grid, LAUNCH_OPTIONS, self._run_slow)
        if made is None:
            self._dispatch = self._launch_slowly
        else:
            self._dispatch, self._key_of = made
        return self._dispatch

    def _launch_slowly(self, grid, /, *args, **kwargs):
        """The dispatcher of kernels the fast path does not take (``interpret=True``)."""
        return self._run_slow(args, kwargs, grid)

    def _run_slow(self, args: tuple, kwargs: dict, grid):
        """A launch that the fast path could not take: specializes, compiles (or finds the
        compiled kernel), launches, and makes the fast path's entry for the next launches."""
        launch_kwargs, options = self._split_options(kwargs)
        stream = options.pop("stream", None)
        backend = "interpret" if self.interpret else selected_backend()
        try:
            spec = self.specialize(args, launch_kwargs)
            if backend == "interpret":
                from .interpreter import run_grid

                return run_grid(self, _resolve_grid(grid, spec.bound), spec.bound)
            compiled = self._compiled(spec, backend, options, quick=quick_builds())
            launched = launch_arguments(spec, compiled.metadata["arg_kinds"], backend,
                                        compiled.metadata.get("tensormaps", ()))
            resolved = _resolve_grid(grid, spec.bound)
            # (a kernel with global scratch has one more argument than its parameters: the
            # fast path does not take it, each launch gets scratch for its own grid)
            launched += scratch_arguments(compiled.metadata, resolved, stream)
            compiled.launch(resolved, launched, stream=stream)
        except Exception as error:
            from tilecraft.frontend.errors import CompilationError, without_traceback

            if isinstance(error, CompilationError) and not _debug():
                raise without_traceback(error) from error.__cause__
            raise
        self._fast_store(grid, args, kwargs, backend, spec, compiled, launched)
        return compiled

    def forget_compiled(self) -> None:
        """Drops the compiled kernels held in memory (the disk cache keeps its entries), as a
        new process would start."""
        self._binaries.clear()
        self._fast.clear()
        # a binding held across this must not reuse the native dispatcher's last launch
        forget = getattr(self._dispatch, "forget", None)
        if forget is not None:
            forget()
        self._dispatch = self._key_of = self._bound = None

    def _fast_store(self, grid, args: tuple, kwargs: dict, backend: str, spec: Specialization,
                    compiled, launched: list) -> None:
        """Makes the fast path's entry for launches whose arguments specialize as these did,
        when the values the dispatcher reads are exactly those that were launched."""
        if self._key_of is None:
            return
        fast_launch.BACKEND_BY_ENVIRONMENT.setdefault(fast_launch.environment_key(), backend)
        keyed = self._key_of(grid, *args, **kwargs)
        if keyed is fast_launch.MISS:
            return
        key, values = keyed  # a value per parameter that is not constexpr
        candidates = [name for name in self.arg_names if name not in self.constexpr_names]
        runtime = [position for position, name in enumerate(candidates)
                   if name in spec.arg_types]
        if not fast_launch.same_values([values[position] for position in runtime], launched):
            return
        self._fast[key] = fast_launch.Entry(compiled, compiled.launcher.launch_values, runtime,
                                            len(candidates))

    def _compiled(self, spec: Specialization, backend: str, options: dict, *,
                  quick: bool = False):
        """The kernel compiled for ``spec`` on ``backend`` with the launch ``options``
        (memoized per specialization and options). A launch's compile may be ``quick``
        (`compile_module`); any other gets the optimized build, made now if the kernel was
        built quickly for a launch before."""
        key = (spec.key, backend, tuple(sorted(options.items())))
        compiled = self._binaries.get(key)
        if compiled is None:
            target = get_backend(backend)
            target.prepare()  # (what its compiles need, while the frontend runs)
            cache.prefetch_source_fingerprint()  # (for the cache key, meanwhile too)
            compiled = compile_module(self._compile(spec), target, options,
                                      list(spec.arg_types), quick=quick)
            self._binaries[key] = compiled
        if not quick:
            compiled.optimize()
        return compiled

    def compile_all(self, calls: Sequence[tuple[tuple, dict]]) -> list:
        """Compiles for each ``(args, kwargs)`` as `warmup` does, the backend stages of those
        not compiled yet at once in worker processes (`compile_workers`); returns per call the
        `CompiledKernel`, or the exception its compile raised."""
        backend = "interpret" if self.interpret else selected_backend()
        outcomes: list = []
        jobs, keys, places = [], [], []
        for args, kwargs in calls:
            kwargs, options = self._split_options(kwargs)
            options.pop("stream", None)
            try:
                if backend == "interpret":  # launches do not compile: the verified tt module
                    outcomes.append(self.ir(*args, **kwargs))
                    continue
                spec = self.specialize(args, kwargs)
                key = (spec.key, backend, tuple(sorted(options.items())))
                compiled = self._binaries.get(key)
                if compiled is None:
                    module = self._compile(spec)
                else:
                    compiled.optimize()
            except Exception as error:  # noqa: BLE001 - each call's own outcome
                outcomes.append(error)
                continue
            outcomes.append(compiled)
            if compiled is None:
                places.append(len(outcomes) - 1)
                keys.append(key)
                jobs.append((module, get_backend(backend), options, list(spec.arg_types)))
        for place, key, compiled in zip(places, keys, compile_modules(jobs)):
            outcomes[place] = compiled
            if not isinstance(compiled, Exception):
                self._binaries[key] = compiled
        return outcomes

    def __call__(self, *args, **kwargs):
        if tl.is_interpreting():
            from .interpreter import call_interpreted

            return call_interpreted(self, args, kwargs)
        raise RuntimeError(f"'{self.__name__}' is a @tilecraft.jit function: launch it with "
                           f"{self.__name__}[grid](...); it can be called directly only from "
                           "another @jit function")

    # -- compiling
    def specialize(self, args, kwargs, *, for_ir: bool = False) -> Specialization:
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self.__name__}: {error}") from None
        bound.apply_defaults()
        arg_types, constexprs, attrs, key = {}, {}, {}, []
        for name, value in bound.arguments.items():
            param = self.signature.parameters[name]
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise TypeError(f"{self.__name__}: kernels cannot take *args or **kwargs")
            if name in self.constexpr_names or isinstance(value, tl.constexpr) or value is None:
                value = tl._unwrap(value)
                constexprs[name] = value
                key.append((name, "c", _hashable(value)))
                continue
            specialize = name not in self.do_not_specialize
            divisible = False
            if isinstance(value, tl.dtype):
                ty = value
            elif isinstance(value, str):
                ty, divisible = _signature_string(value)
            elif is_array_like(value):
                ty = tl.pointer_type(element_type_of(value))
                divisible = specialize and address_of(value) % 16 == 0
            elif is_tensor_descriptor(value):
                ty = value.language_type()
                divisible = True  # the base is 16-byte aligned (checked when made)
                from tilecraft.transforms import rewrite_tensor_descriptor as rewrite

                divisors = [16 if specialize and size % 16 == 0 else 1
                            for size in (*value.shape, *value.strides)]
                attrs[name] = {rewrite.HOST_DESCRIPTOR: value.padding,
                               rewrite.HOST_DIVISIBILITY: divisors}
                key.append((name, value.padding, tuple(divisors)))
            elif isinstance(value, (bool, int, float)) or _is_numpy_scalar(value):
                value = value.item() if _is_numpy_scalar(value) else value
                ty = scalar_type_of(value)
                if isinstance(value, int) and not isinstance(value, bool) and specialize:
                    if value == 1:
                        constexprs[name] = 1
                        key.append((name, "c", 1))
                        continue
                    divisible = value % 16 == 0
            else:
                raise TypeError(f"{self.__name__}: unsupported argument {name}={value!r} of "
                                f"type {type(value).__name__}")
            arg_types[name] = ty
            if divisible:
                attrs.setdefault(name, {})["tt.divisibility"] = 16
            key.append((name, str(ty), divisible))
        return Specialization(tuple(key), arg_types, constexprs, attrs, dict(bound.arguments))

    def _compile(self, spec: Specialization):
        module = self._cache.get(spec.key)
        if module is None:
            from tilecraft.frontend.code_generator import compile_to_ttir

            module = compile_to_ttir(self, spec.arg_types, spec.constexprs, spec.attrs)
            self._cache[spec.key] = module
        return module

    def ir(self, *args, **kwargs):
        """The verified `tt` module (a `builtin.module` op) for these arguments (launch
        options such as ``num_warps`` are accepted and do not change it)."""
        kwargs, _ = self._split_options(kwargs)
        try:
            return self._compile(self.specialize(args, kwargs, for_ir=True))
        except Exception as error:
            from tilecraft.frontend.errors import CompilationError, without_traceback

            if isinstance(error, CompilationError) and not _debug():
                raise without_traceback(error) from error.__cause__
            raise

    def ttir(self, *args, **kwargs) -> str:
        """The verified `tt` module for these arguments, as MLIR text."""
        from tilecraft.ir import print_op

        return print_op(self.ir(*args, **kwargs))

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles the kernel for these arguments as ``kernel[grid](*args, **kwargs)`` would,
        without launching it, and returns the `CompiledKernel` (arguments may also be language
        types or signature strings such as ``"*fp32"``; ``grid`` is accepted and unused, as
        Triton's). With the interpreter selected, the launch would not compile: the kernel is
        compiled to verified `tt` IR and the module returned."""
        kwargs, options = self._split_options(kwargs)
        options.pop("stream", None)
        backend = "interpret" if self.interpret else selected_backend()
        if backend == "interpret":
            return self.ir(*args, **kwargs)
        try:
            return self._compiled(self.specialize(args, kwargs), backend, options)
        except Exception as error:
            from tilecraft.frontend.errors import CompilationError, without_traceback

            if isinstance(error, CompilationError) and not _debug():
                raise without_traceback(error) from error.__cause__
            raise


    def _split_options(self, kwargs: dict) -> tuple[dict, dict]:
        """``kwargs`` without the launch options (``num_warps``, ``stream``...), and those
        options; a parameter of the kernel named like an option stays an argument."""
        kwargs = dict(kwargs)
        options = {k: kwargs.pop(k) for k in list(kwargs)
                   if k in LAUNCH_OPTIONS and k not in self.signature.parameters}
        return kwargs, options


def _is_numpy_scalar(value) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "item") and \
        getattr(value, "shape", None) == ()


def _resolve_grid(grid, bound: dict | None) -> tuple[int, int, int]:
    if type(grid) is tuple and len(grid) == 1 and type(grid[0]) is int and grid[0] >= 0:
        return (grid[0], 1, 1)
    if callable(grid):
        grid = grid(dict(bound))
    if isinstance(grid, int) or _is_numpy_scalar(grid):
        grid = (grid,)
    grid = tuple(int(tl._unwrap(g)) for g in grid)
    if not 1 <= len(grid) <= 3:
        raise ValueError(f"the grid must have 1 to 3 dimensions, got {grid}")
    if any(g < 0 for g in grid):
        raise ValueError(f"grid dimensions must not be negative, got {grid}")
    return grid + (1,) * (3 - len(grid))


def jit(fn=None, *, interpret: bool | None = None, noinline: bool = False,
        do_not_specialize=(), debug: bool | None = None, **kwargs):
    """Makes ``fn`` a kernel: ``@tilecraft.jit`` or ``@tilecraft.jit(interpret=True)``."""

    def decorate(function):
        return JITFunction(function, interpret=interpret, noinline=noinline,
                           do_not_specialize=do_not_specialize, debug=debug, **kwargs)

    if fn is not None:
        return decorate(fn)
    return decorate


def cdiv(x: int, y: int) -> int:
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()
