"""``@tilecraft.autotune`` and ``@tilecraft.heuristics``, with Triton's API.

``@autotune(configs=[Config({"BLOCK": 128}, num_warps=4), ...], key=["n"])`` above
``@jit`` (or above ``@heuristics``) makes a kernel that, the first time it is launched with a
new *tuning key* (the values of the ``key`` arguments and the dtypes of the array
arguments), launches it with each configuration under `tilecraft.testing.do_bench`, measures
the three fastest (of those within 25% of the fastest) again in three rounds that alternate
between them (`Autotuner._recheck`), keeps the fastest of those by the median time and launches
with it from then on; ``kernel.best_config`` is the configuration of the last launch. Tuning
runs the kernel many times: ``reset_to_zero`` names arrays zeroed before each run and
``restore_value`` arrays put back as they were, and both are left as they were given before the
real launch.

A configuration that fails (it does not compile, needs more shared memory than the device has,
does not launch) is skipped with an `AutotuneWarning` that gives its reason; when every one
fails, `AutotuneError` names the kernel and each reason. ``prune_configs_by`` takes Triton's
``early_config_prune(configs, named_args, **kwargs)`` and ``perf_model(**named_args, **kwargs,
**config_kwargs)`` with ``top_k`` (a count, or a fraction of the configurations).

The choice is kept in memory per tuning key and on disk in the compile cache
(`tilecraft.runtime.autotune_cache`), so that another process skips the benchmark;
``cache_results=False`` keeps it in memory only. ``TILECRAFT_PRINT_AUTOTUNING=1`` prints each
choice, with every configuration's time; on a terminal, tuning shows a tqdm progress bar when
tqdm is installed (``pip install 'tilecraft[progress]'``).

Where several GPUs of one model are visible, configurations are measured on all of them at
once, with copies of the launch's tensors (`tilecraft.runtime.tuning_devices`;
``TILECRAFT_AUTOTUNE_DEVICES`` limits how many). Before benchmarking, the configurations are
compiled together (`JITFunction.compile_all`):
when they take long enough to compile, in worker processes on every core
(`tilecraft.runtime.compile_workers`; ``TILECRAFT_COMPILE_WORKERS`` sets how many).

The autotuner never names a target: it launches through the kernel and times with
``do_bench`` on the device the selected backend runs on.
"""

from __future__ import annotations

import functools
import inspect
import os
import statistics
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tilecraft.language import core as tl

from .arguments import is_array_like
from .autotune_cache import choice_key, dtype_name, load_choice, plain, store_choice
from .compiler import selected_backend
from .jit import LAUNCH_OPTIONS, JITFunction
from .model_search import ModelSearch, kernel_features
from .tuning_devices import copy_to, measuring_devices
from .tuning_space import Space

_QUANTILES = (0.5, 0.2, 0.8)
# After measuring, the _RECHECKED fastest configurations whose medians are within _CLOSE times
# the fastest (the spread of one configuration's medians between moments on a loaded CPU) are
# measured again in _RECHECK_ROUNDS rounds that alternate between them (`Autotuner._recheck`).
_RECHECKED = 3
_CLOSE = 1.25
_RECHECK_ROUNDS = 3
_PRUNE_FIELDS = frozenset({"early_config_prune", "perf_model", "top_k"})
_PLAIN_KEYS = frozenset({int, float, bool, str, type(None)})


class AutotuneError(RuntimeError):
    """No configuration of an autotuned kernel could run (each one's reason is given), or the
    autotuner was set up wrongly (a key naming no argument, a conflicting meta-parameter)."""


class AutotuneWarning(UserWarning):
    """A configuration skipped while tuning, and why."""


class Config:
    """One configuration to try, as ``triton.Config``: the meta-parameters ``kwargs`` given to
    the kernel (its constexpr parameters), the launch options (``num_warps``, ``num_stages``,
    ``num_ctas``, ``maxnreg``) and a ``pre_hook`` called with the launch's named arguments
    before each launch with this configuration."""

    def __init__(self, kwargs: dict[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: int | None = None,
                 pre_hook: Callable[[dict[str, Any]], Any] | None = None) -> None:
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self) -> dict[str, Any]:
        """The meta-parameters and the launch options that are set, as a launch takes them."""
        options = {"num_warps": self.num_warps, "num_stages": self.num_stages,
                   "num_ctas": self.num_ctas, "maxnreg": self.maxnreg}
        return {**self.kwargs, **{k: v for k, v in options.items() if v is not None}}

    def describe(self) -> dict[str, Any]:
        """What the disk cache knows this configuration by (JSON values; a pre-hook by its
        qualified name)."""
        hook = self.pre_hook
        return {"kwargs": {k: plain(v) for k, v in self.kwargs.items()},
                "num_warps": self.num_warps, "num_stages": self.num_stages,
                "num_ctas": self.num_ctas, "maxnreg": self.maxnreg,
                "pre_hook": None if hook is None else
                f"{getattr(hook, '__module__', '?')}.{getattr(hook, '__qualname__', repr(hook))}"}

    def __repr__(self) -> str:
        text = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
        options = f"num_warps={self.num_warps}, num_stages={self.num_stages}"
        if self.num_ctas != 1:
            options += f", num_ctas={self.num_ctas}"
        if self.maxnreg is not None:
            options += f", maxnreg={self.maxnreg}"
        return f"Config({{{text}}}, {options})"


def space_configs(space: Space) -> list[Config]:
    """A `Config` per point of ``space``, in its order."""
    configs = []
    for position in range(len(space)):
        kwargs, options = space.config_parts(position)
        configs.append(Config(kwargs, **options))
    return configs


def _base_jit(fn: Any) -> JITFunction:
    """The `JITFunction` under ``@autotune``/``@heuristics`` wrappers."""
    while not isinstance(fn, JITFunction):
        if not hasattr(fn, "fn"):
            raise TypeError(f"@autotune and @heuristics go above @tilecraft.jit, got {fn!r}")
        fn = fn.fn
    return fn


def _check_names(kernel: JITFunction, names: Sequence[str], what: str,
                 options: bool = False) -> list[str]:
    """``names`` as a list; an error names the first that is not a parameter of ``kernel``
    (nor, with ``options``, a launch option such as ``num_warps``)."""
    for name in names:
        if name not in kernel.signature.parameters and not (options and name in LAUNCH_OPTIONS):
            raise AutotuneError(f"kernel '{kernel.__name__}': {what} names {name!r}, which is "
                                f"not a parameter (parameters: {', '.join(kernel.arg_names)})")
    return list(names)


class _Wrapper:
    """What ``@autotune`` and ``@heuristics`` share: ``kernel[grid](...)`` calls ``run``, and
    other attributes are the wrapped kernel's."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.base = _base_jit(fn)
        functools.update_wrapper(self, self.base.fn)
        self.arg_names = self.base.arg_names

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        return functools.partial(self.run, grid=grid)

    def __getattr__(self, name: str) -> Any:
        if name in ("fn", "base"):  # not set yet: copy and pickle make instances bare
            raise AttributeError(name)
        return getattr(self.fn, name)

    def named_args(self, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The arguments of a launch by parameter name (defaults not filled in)."""
        return {**dict(zip(self.arg_names, args)), **kwargs}

    def run(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


class Autotuner(_Wrapper):
    """A kernel tuned per key (see the module docstring): made by `autotune`."""

    def __init__(self, fn: Any, configs: Sequence[Config] | None, key: Sequence[str],
                 prune_configs_by: dict[str, Any] | None = None,
                 reset_to_zero: Sequence[str] | None = None,
                 restore_value: Sequence[str] | None = None,
                 warmup: float | None = None, rep: float | None = None,
                 do_bench: Callable[..., Any] | None = None, cache_results: bool = True,
                 space: Space | None = None, budget: int | None = None,
                 search_seed: int = 0) -> None:
        super().__init__(fn)
        name = self.base.__name__
        self.space, self.budget, self.search_seed = space, budget, search_seed
        if space is not None:
            if configs:
                raise AutotuneError(f"kernel '{name}': give configs or a space, not both")
            if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
                raise AutotuneError(f"kernel '{name}': a space is searched within a budget of "
                                    f"measurements (budget=N >= 1), got budget={budget!r}")
            configs = space_configs(space)
        elif budget is not None:
            raise AutotuneError(f"kernel '{name}': budget= goes with space=tc.Space(...)")
        self.configs = list(configs or ()) or [Config({})]
        self.keys = _check_names(self.base, key, "key")
        self.reset_to_zero = _check_names(self.base, reset_to_zero or (), "reset_to_zero")
        self.restore_value = _check_names(self.base, restore_value or (), "restore_value")
        for config in self.configs:
            _check_names(self.base, config.kwargs, f"{config}", options=True)
        prune = dict(prune_configs_by or {})
        unknown = set(prune) - _PRUNE_FIELDS
        if unknown:
            raise AutotuneError(f"kernel '{name}': prune_configs_by takes "
                                f"{', '.join(sorted(_PRUNE_FIELDS))}, not "
                                f"{', '.join(sorted(unknown))}")
        self.early_config_prune = prune.get("early_config_prune")
        self.perf_model = prune.get("perf_model")
        self.top_k = prune.get("top_k", 1.0)
        self.warmup_ms = 25.0 if warmup is None else warmup
        self.rep_ms = 100.0 if rep is None else rep
        self.custom_do_bench = do_bench
        self.cache_results = cache_results
        self._tuned_names = frozenset(name for config in self.configs for name in config.kwargs)
        self._key_positions = [(self.arg_names.index(k), k) for k in self.keys]
        self.cache: dict[tuple, Config] = {}
        self.best_config: Config | None = None
        self.configs_timings: dict[Config, list[float] | None] = {}
        self.bench_time = 0.0
        self.measured_on: list[int] = []  # the GPUs of the last tuning, when several

    # -- launching
    def run(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        """Launches over ``grid`` with the best configuration for these arguments' tuning key,
        tuning first when the key is new."""
        if kwargs and not self._tuned_names.isdisjoint(kwargs):
            conflicts = ", ".join(sorted(self._tuned_names.intersection(kwargs)))
            raise AutotuneError(f"kernel '{self.base.__name__}': {conflicts} given at launch "
                                "and tuned by the autotuner: give it one way")
        config = self._config_for(args, kwargs, grid)
        self.best_config = config
        return self._launch(config, args, kwargs, grid)

    def _launch(self, config: Config, args: tuple, kwargs: dict[str, Any], grid: Any) -> Any:
        if config.pre_hook is not None:
            config.pre_hook({**self.named_args(args, kwargs), **config.all_kwargs()})
        return self.fn.run(*args, grid=grid, **kwargs, **config.all_kwargs())

    def _config_for(self, args: tuple, kwargs: dict[str, Any], grid: Any) -> Config:
        if len(self.configs) == 1:
            return self.configs[0]
        key = self.tuning_key(args, kwargs)
        config = self.cache.get(key)
        if config is None:
            config = self._tune(key, args, kwargs, grid)
            self.cache[key] = config
        return config

    def tuning_key(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """The values of the ``key`` arguments, then the ``dtype`` of each argument that has one
        (arrays, numpy scalars), as Triton keys its choice."""
        values = []
        for index, name in self._key_positions:
            if index < len(args):
                value = args[index]
            elif name in kwargs:
                value = kwargs[name]
            else:
                value = self.base.signature.parameters[name].default
                if value is inspect.Parameter.empty:
                    raise AutotuneError(f"kernel '{self.base.__name__}': key argument "
                                        f"{name!r} was not given")
            values.append(value if type(value) in _PLAIN_KEYS else _key_value(value))
        dtypes = [getattr(value, "dtype", None) for value in args]
        if kwargs:
            dtypes += [getattr(value, "dtype", None) for value in kwargs.values()]
        values.append(tuple(dtype for dtype in dtypes if dtype is not None))
        return tuple(values)

    # -- tuning
    def prune_configs(self, named: dict[str, Any], kwargs: dict[str, Any]) -> list[Config]:
        """The configurations to benchmark for a launch: ``early_config_prune``'s, then the
        ``top_k`` that ``perf_model`` predicts fastest."""
        configs = self.configs
        name = self.base.__name__
        if self.early_config_prune is not None:
            configs = list(self.early_config_prune(configs, named, **kwargs))
            if not configs:
                raise AutotuneError(f"kernel '{name}': early_config_prune left no configuration")
        if self.perf_model is not None:
            top_k = self.top_k
            if isinstance(top_k, float) and 0 < top_k <= 1:
                top_k = max(1, int(len(configs) * top_k))
            if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
                raise AutotuneError(f"kernel '{name}': top_k must be a count >= 1 or a fraction "
                                    f"in (0, 1], got {self.top_k!r}")
            predicted = {config: self.perf_model(**{**named, **config.all_kwargs()})
                         for config in configs}
            configs = sorted(configs, key=predicted.__getitem__)[:top_k]
        return configs

    def _tune(self, key: tuple, args: tuple, kwargs: dict[str, Any], grid: Any) -> Config:
        named = self.named_args(args, kwargs)
        configs = self.prune_configs(named, kwargs)
        if len(configs) == 1:
            return configs[0]
        backend = "interpret" if self.base.interpret else selected_backend()
        disk_key = choice_key(self.base, key, configs, backend) if self.cache_results else None
        chosen = None if disk_key is None else load_choice(disk_key, configs)
        if chosen is not None:
            self._report(key, configs[chosen], None)
            return configs[chosen]
        start = time.perf_counter()
        timings: dict[Config, list[float] | None] = {}
        reasons = []
        saved = {name: _copy(named[name]) for name in self.restore_value}
        best = None
        try:
            if self.space is not None:
                best = self._search(configs, timings, reasons, args, kwargs, grid, named,
                                    saved, backend)
            else:
                if backend != "interpret":
                    self._compile_configs(configs, args, kwargs)
                devices = measuring_devices([*args, *kwargs.values()]) \
                    if backend == "cuda" else []
                self.measured_on = devices if len(devices) > 1 else []
                if self.measured_on:
                    self._measure_on_devices(devices, configs, timings, reasons, args, kwargs,
                                             grid)
                else:
                    for config in _progress(configs, self.base.__name__):
                        self._measure(config, timings, reasons, args, kwargs, grid, named,
                                      saved, backend)
                best = self._recheck(_fastest(configs, timings), timings, args, kwargs, grid,
                                     named, saved, backend)
        finally:
            self._reset(named, saved)
        self.bench_time = time.perf_counter() - start
        self.configs_timings = timings
        measured = [config for config in configs if timings.get(config) is not None]
        if not measured:
            raise AutotuneError(f"kernel '{self.base.__name__}': every configuration failed "
                                f"for key {key}:\n  " + "\n  ".join(reasons))
        best = best or min(measured, key=lambda config: timings[config])
        if disk_key is not None:
            store_choice(disk_key, self.base.__name__, key, configs, timings, best)
        self._report(key, best, timings)
        return best

    def _measure(self, config: Config, timings: dict[Config, list[float] | None],
                 reasons: list[str], args: tuple, kwargs: dict[str, Any], grid: Any,
                 named: dict[str, Any], saved: dict[str, Any], backend: str) -> None:
        """``config``'s times into ``timings``; a configuration that fails gets None there,
        its reason in ``reasons`` and an `AutotuneWarning`."""
        try:
            timings[config] = self._bench(config, args, kwargs, grid, named, saved, backend)
        except Exception as error:  # noqa: BLE001 - a failing configuration is skipped
            timings[config] = None
            reason = f"{type(error).__name__}: {error}"
            reasons.append(f"{config}: {reason}")
            warnings.warn(f"autotuning kernel '{self.base.__name__}': skipping {config}: "
                          f"{reason}", AutotuneWarning, stacklevel=5)

    def _measure_on_devices(self, devices: list[int], configs: list[Config],
                            timings: dict[Config, list[float] | None], reasons: list[str],
                            args: tuple, kwargs: dict[str, Any], grid: Any) -> None:
        """Measures ``configs`` on the GPUs ``devices`` at once (`tuning_devices`): a thread
        per GPU takes the next configuration and measures it with the launch's tensors (on the
        first GPU) or copies of them."""
        from tilecraft.backends.cuda import driver

        queue = list(configs)
        lock = threading.Lock()
        bar = _progress(configs, self.base.__name__)
        ticks = iter(bar)

        def work(device: int) -> None:
            driver.use_device(device)
            here_args = tuple(copy_to(value, device) for value in args) \
                if device != devices[0] else args
            here_kwargs = {name: copy_to(value, device) for name, value in kwargs.items()} \
                if device != devices[0] else kwargs
            named = self.named_args(here_args, here_kwargs)
            saved = {name: _copy(named[name]) for name in self.restore_value}
            while True:
                with lock:
                    if not queue:
                        return
                    config = queue.pop(0)
                    next(ticks, None)
                self._measure(config, timings, reasons, here_args, here_kwargs, grid, named,
                              saved, "cuda")

        with ThreadPoolExecutor(max_workers=len(devices)) as threads:
            list(threads.map(work, devices))
        if hasattr(bar, "close"):
            bar.close()

    def _search(self, configs: list[Config], timings: dict[Config, list[float] | None],
                reasons: list[str], args: tuple, kwargs: dict[str, Any], grid: Any,
                named: dict[str, Any], saved: dict[str, Any], backend: str) -> Config | None:
        """The model-guided search (`model_search.ModelSearch`) over the space: ``configs``
        are its points in order; the measured ones get their times in ``timings``, the
        failures their reasons in ``reasons``. Returns the choice (`_recheck`), None when
        nothing could be measured."""
        search = ModelSearch(self.space, self.budget, seed=self.search_seed)
        bar = _progress(range(search.budget), self.base.__name__)
        ticks = iter(bar)

        def measure(position: int) -> float | None:
            config = configs[position]
            next(ticks, None)
            try:
                timings[config] = self._bench(config, args, kwargs, grid, named, saved, backend)
            except Exception as error:  # noqa: BLE001 - a failing configuration is skipped
                timings[config] = None
                reasons.append(f"{config}: {type(error).__name__}: {error}")
                return None
            return timings[config][0]

        def compile_features(positions: list[int]) -> list[dict[str, float] | None]:
            chosen = [configs[position] for position in positions]
            out = []
            for config, compiled in zip(chosen, self._compile_configs(chosen, args, kwargs)):
                if isinstance(compiled, Exception):  # it is not measured
                    reasons.append(f"{config}: {type(compiled).__name__}: {compiled}")
                    out.append(None)
                else:
                    out.append(kernel_features(compiled))
            return out

        search.run(measure, compile_features)
        self.search = search
        if hasattr(bar, "close"):
            bar.close()
        return self._recheck(_fastest(configs, timings), timings, args, kwargs, grid, named,
                             saved, backend)

    def _recheck(self, finalists: list[Config], timings: dict[Config, list[float] | None],
                 args: tuple, kwargs: dict[str, Any], grid: Any, named: dict[str, Any],
                 saved: dict[str, Any], backend: str) -> Config | None:
        """The fastest of ``finalists`` (the fastest configurations measured) when measured again
        in `_RECHECK_ROUNDS` rounds that alternate between them; their times in ``timings``
        become the medians of those rounds.

        The fastest of many noisy medians is likely to have been lucky, or measured while
        the machine ran faster (a CPU's speed drifts over seconds); alternating rounds see
        the same drift for each finalist. The points measured once are not compared with
        these times, which were taken at another moment: the choice is among the finalists."""
        if len(finalists) < 2:
            return finalists[0] if finalists else None
        rounds: dict[Config, list[list[float]]] = {config: [] for config in finalists}
        for _ in range(_RECHECK_ROUNDS):
            for config in finalists:
                try:
                    rounds[config].append(self._bench(config, args, kwargs, grid, named, saved,
                                                      backend))
                except Exception:  # noqa: BLE001 - it ran once: keep that measurement
                    continue
        for config, runs in rounds.items():
            if runs:
                timings[config] = [statistics.median(run[i] for run in runs)
                                   for i in range(len(runs[0]))]
        return min(finalists, key=lambda config: timings[config][0])

    def _compile_configs(self, configs: Sequence[Config], args: tuple,
                         kwargs: dict[str, Any]) -> list[Any]:
        """The kernel compiled for these arguments with each configuration, at once in worker
        processes (`JITFunction.compile_all`): per configuration the `CompiledKernel` or the
        exception its compile raised."""
        calls = [(args, _base_kwargs(self.fn, args, {**kwargs, **config.all_kwargs()}))
                 for config in configs]
        return self.base.compile_all(calls)

    def _bench(self, config: Config, args: tuple, kwargs: dict[str, Any], grid: Any,
               named: dict[str, Any], saved: dict[str, Any], backend: str) -> list[float]:
        """[median, 20%, 80%] times in ms of launches with ``config``; the arrays to reset are
        reset before each launch."""

        def launch() -> None:
            self._reset(named, saved)
            self._launch(config, args, kwargs, grid)

        if self.custom_do_bench is not None:
            times = self.custom_do_bench(launch, quantiles=_QUANTILES)
        else:
            from tilecraft import testing

            device = "cuda" if backend == "cuda" else "cpu"
            times = testing.do_bench(launch, warmup=self.warmup_ms, rep=self.rep_ms,
                                     quantiles=_QUANTILES, device=device)
        return [float(t) for t in times]

    def _reset(self, named: dict[str, Any], saved: dict[str, Any]) -> None:
        for name in self.reset_to_zero:
            _zero(named[name])
        for name, copy in saved.items():
            _restore(named[name], copy)

    def warmup(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Compiles the kernel for these arguments with every configuration that pruning keeps,
        without launching; returns what the kernel's ``warmup`` returns for each."""
        named = self.named_args(args, kwargs)
        return [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                for config in self.prune_configs(named, kwargs)]

    # -- the disk cache and the report
    def _report(self, key: tuple, best: Config,
                timings: dict[Config, list[float] | None] | None) -> None:
        if os.environ.get("TILECRAFT_PRINT_AUTOTUNING", "") in ("", "0"):
            return
        described = ", ".join([*(f"{name}={value!r}" for name, value in zip(self.keys, key)),
                               *(f"dtypes {'/'.join(dtype_name(d) for d in key[-1])}",)])
        head = f"tilecraft autotuning: kernel '{self.base.__name__}' ({described}):"
        if timings is None:
            print(f"{head} {best} (from the disk cache)")
            return
        space = "" if self.space is None else f" of a space of {len(self.space)}"
        if self.measured_on:
            space += f" on GPUs {', '.join(map(str, self.measured_on))}"
        print(f"{head} benchmarked {len(timings)} configurations{space} in "
              f"{self.bench_time:.2f} s; best {best}")
        for config, times in timings.items():
            measured = "failed" if times is None else f"{times[0]:.4f} ms"
            print(f"  {config}: {measured}")


def _fastest(configs: Sequence[Config], timings: dict[Config, list[float] | None]
             ) -> list[Config]:
    """The `_RECHECKED` configurations of ``configs`` with the lowest median time measured, of
    those within `_CLOSE` times the lowest: the ones that measurement noise could reorder."""
    measured = sorted((config for config in configs if timings.get(config) is not None),
                      key=lambda config: timings[config][0])
    return [config for config in measured[:_RECHECKED]
            if timings[config][0] <= _CLOSE * timings[measured[0]][0]]


def _base_kwargs(fn: Any, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments that the ``@jit`` kernel under ``fn`` gets when ``fn`` is
    launched with these: each ``@heuristics`` wrapper on the way adds its values."""
    while not isinstance(fn, JITFunction):
        if isinstance(fn, Heuristics):
            kwargs = fn._with_values(args, kwargs)
        fn = fn.fn
    return kwargs


def _progress(configs: Sequence[Any], name: str) -> Iterable[Any]:
    """``configs``, under a tqdm progress bar when tqdm is installed and stderr is a terminal."""
    if not sys.stderr.isatty():
        return configs
    try:
        from tqdm import tqdm
    except ImportError:
        return configs
    return tqdm(configs, desc=f"autotuning {name}", unit="config", leave=False)


def _key_value(value: Any) -> Any:
    """A tuning-key argument that is not a plain value as the key holds it: a constexpr by its
    value, an array by its shape, anything unhashable by its repr."""
    value = tl._unwrap(value)
    if is_array_like(value):
        return ("array", tuple(int(d) for d in getattr(value, "shape", ())))
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _zero(array: Any) -> None:
    if hasattr(array, "zero_"):
        array.zero_()
    else:
        array[...] = 0


def _copy(array: Any) -> Any:
    return array.clone() if hasattr(array, "clone") else array.copy()


def _restore(array: Any, saved: Any) -> None:
    if hasattr(array, "copy_"):
        array.copy_(saved)
    else:
        array[...] = saved


def autotune(configs: Sequence[Config] | None = None, key: Sequence[str] = (),
             prune_configs_by: dict[str, Any] | None = None,
             reset_to_zero: Sequence[str] | None = None,
             restore_value: Sequence[str] | None = None, warmup: float | None = None,
             rep: float | None = None, do_bench: Callable[..., Any] | None = None,
             cache_results: bool = True, space: Space | None = None,
             budget: int | None = None, search_seed: int = 0) -> Callable[[Any], Autotuner]:
    """Tunes a ``@jit`` kernel over ``configs`` per value of the ``key`` arguments, as
    ``triton.autotune`` (see the module docstring): ``warmup`` and ``rep`` are do_bench's
    (ms, default 25 and 100), ``do_bench(fn, quantiles=...)`` replaces the benchmark,
    ``cache_results=False`` keeps choices in memory only. Instead of ``configs``,
    ``space=tc.Space(...)`` with ``budget=N`` searches the space guided by a cost model,
    measuring at most ``N`` configurations (`model_search`; ``search_seed`` seeds it)."""

    def decorate(fn: Any) -> Autotuner:
        return Autotuner(fn, configs, key, prune_configs_by=prune_configs_by,
                         reset_to_zero=reset_to_zero, restore_value=restore_value,
                         warmup=warmup, rep=rep, do_bench=do_bench, cache_results=cache_results,
                         space=space, budget=budget, search_seed=search_seed)

    return decorate


class Heuristics(_Wrapper):
    """A kernel whose meta-parameters are computed from its arguments: made by `heuristics`."""

    def __init__(self, fn: Any, values: dict[str, Callable[[dict[str, Any]], Any]]) -> None:
        super().__init__(fn)
        _check_names(self.base, values, "heuristics", options=True)
        self.values = dict(values)

    def _with_values(self, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
        named = self.named_args(args, kwargs)
        kwargs = dict(kwargs)
        for name, rule in self.values.items():
            kwargs[name] = named[name] = rule(named)
        return kwargs

    def run(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        """Launches over ``grid`` with each heuristic's value added to the arguments."""
        return self.fn.run(*args, grid=grid, **self._with_values(args, kwargs))

    def warmup(self, *args: Any, **kwargs: Any) -> Any:
        """Compiles, as the kernel's ``warmup``, with each heuristic's value added."""
        return self.fn.warmup(*args, **self._with_values(args, kwargs))


def heuristics(values: dict[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    """Computes meta-parameters from the launch's arguments, as ``triton.heuristics``:
    ``@heuristics({"BLOCK": lambda args: tc.next_power_of_2(args["n"])})`` above ``@jit``; each
    function gets the arguments by name (and the values computed before it)."""

    def decorate(fn: Any) -> Heuristics:
        return Heuristics(fn, values)

    return decorate
