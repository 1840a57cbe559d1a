"""Where autotuning choices are kept between processes: an entry of the compile cache
(`tilecraft.runtime.cache`) per choice, keyed by the tuning key, the configurations benchmarked
(`Config.describe`: a pre-hook by its qualified name), the backend and its target, tilecraft's
version and own source, and the kernel's source fingerprint (`kernel_fingerprint`). The entry
holds every configuration's times and the index of the best; one that does not describe the
configurations it was looked up for is discarded.
"""

from __future__ import annotations

import hashlib
import inspect
from typing import TYPE_CHECKING, Any

from tilecraft.language import core as tl

from . import cache
from .compiler import get_backend
from .jit import JITFunction

if TYPE_CHECKING:
    from .autotuner import Config

_FORMAT = "tilecraft-autotune-1"


def choice_key(kernel: JITFunction, key: tuple, configs: list[Config], backend: str) -> str:
    """The compile-cache key of the choice among ``configs`` for the tuning ``key`` of
    ``kernel`` on ``backend`` (see the module docstring)."""
    from tilecraft import __version__

    if backend == "interpret":
        target: tuple = ()
    else:
        compiled = get_backend(backend)
        target = tuple(plain(part) for part in compiled.cache_key_parts(compiled.options({})))
    return cache.cache_key(_FORMAT, __version__, cache.source_fingerprint(), backend, target,
                           kernel_fingerprint(kernel), [plain(part) for part in key[:-1]],
                           [dtype_name(dtype) for dtype in key[-1]],
                           [config.describe() for config in configs])


def kernel_fingerprint(kernel: JITFunction) -> str:
    """The sha256 of a kernel's source and, transitively, of the ``@jit`` functions and
    constexpr globals its code names: what an autotuning choice depends on in the user's code.
    """
    digest = hashlib.sha256()
    seen: set[int] = set()
    pending = [kernel]
    while pending:
        function = pending.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        digest.update(f"{function.fn.__module__}.{function.fn.__qualname__}\0".encode())
        digest.update(function.source().text.lstrip("\n").encode())
        scope = function.fn.__globals__
        for name in sorted(_names_of(function.fn.__code__)):
            value = scope.get(name)
            if isinstance(value, JITFunction):
                pending.append(value)
            elif isinstance(value, tl.constexpr):
                digest.update(f"\0{name}={tl._unwrap(value)!r}".encode())
    return digest.hexdigest()


def _names_of(code: Any) -> set[str]:
    """The global names a code object and the code objects nested in it use."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if inspect.iscode(constant):
            names |= _names_of(constant)
    return names


def load_choice(disk_key: str, configs: list[Config]) -> int | None:
    """The index in ``configs`` of the choice the disk cache holds, or None; an entry that
    does not describe these configurations is discarded."""
    entry = cache.get(disk_key)
    if entry is None:
        return None
    metadata = entry[cache.METADATA_FILE]
    described = [config.describe() for config in configs]
    best = metadata.get("best") if isinstance(metadata, dict) else None
    if type(best) is not int or not 0 <= best < len(configs) or \
            metadata.get("configs") != described:
        cache.discard(disk_key)
        return None
    return best


def store_choice(disk_key: str, name: str, key: tuple, configs: list[Config],
                  timings: dict[Config, list[float] | None], best: Config) -> None:
    """Stores the choice of ``best`` among ``configs``, with their times (None for those that
    failed or, in a model-guided search, were not measured), under ``disk_key``."""
    cache.put(disk_key, {}, {
        "kernel": name, "key": repr(key), "configs": [config.describe() for config in configs],
        "timings_ms": [timings.get(config) for config in configs], "best": configs.index(best)})


def plain(value: Any) -> Any:
    """``value`` as a JSON value: None, bools, ints, floats and strings as they are, anything
    else (a language dtype, a tuple) by its repr."""
    value = tl._unwrap(value)
    return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)


def dtype_name(dtype: Any) -> str:
    """A numpy, torch or language dtype by its name (torch's without ``torch.``)."""
    return str(dtype).removeprefix("torch.")
