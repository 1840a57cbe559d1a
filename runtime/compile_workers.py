"""A pool of worker processes that run the backend stages of several kernels at once.

The autotuner compiles one specialization per configuration. The frontend (Python to `tt`)
needs the kernel's Python objects and stays in the calling process; what follows it (the pass
pipeline, LLVM, ptxas), most of a compile's time, is handed to workers as `tt` text and comes
back as the files and metadata of a compile-cache entry, which the backend loads as it loads a
cache entry (`compiler.compile_modules`).

Workers are ``python -m tilecraft.runtime.compile_workers`` processes that read requests on
stdin and answer on stdout (length-prefixed pickles), not a ``multiprocessing`` pool: a spawned
``multiprocessing`` child imports the user's main script again, which reruns a script without
an ``if __name__ == "__main__"`` guard. They are started on first use, kept for the next batch
and end with the process (a worker exits when its stdin closes).

``TILECRAFT_COMPILE_WORKERS`` sets how many run (default: the number of CPUs this process may
use; 1 compiles in the calling process). A request that fails in a worker, or a worker that
dies, gives None: the caller compiles that kernel itself, which raises the error where it
belongs.
"""

from __future__ import annotations

import atexit
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .environment import count_variable

_HEADER = struct.Struct("<Q")
_ENVIRONMENT_VARIABLE = "TILECRAFT_COMPILE_WORKERS"
_START_SECONDS = 1.0  # a worker's start (python, tilecraft, the backend), on a quiet core


@dataclass(frozen=True)
class Request:
    """One backend compile: the backend's name and compute capability (CUDA), the module as
    MLIR text with its locations, the backend's options object, and the caller's
    ``TILECRAFT_*`` environment variables (a worker outlives the environment it started in)."""

    backend: str
    capability: int | None
    text: str
    options: Any
    environment: dict[str, str] = field(default_factory=lambda: tilecraft_environment())


def tilecraft_environment() -> dict[str, str]:
    """This process's ``TILECRAFT_*`` environment variables."""
    return {name: value for name, value in os.environ.items() if name.startswith("TILECRAFT_")}


Result = tuple[dict, dict] | None  # (files, metadata) of a cache entry, or None: compile here


def worker_count() -> int:
    """How many workers `compile_all` uses (see the module docstring)."""
    count = count_variable(_ENVIRONMENT_VARIABLE, "processes")
    if count is not None:
        return count
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worth_workers(seconds_per_compile: float, count: int) -> bool:
    """Whether ``count`` compiles of about ``seconds_per_compile`` each are worth handing to
    workers: more than one worker allowed, and the time saved larger than starting the
    workers (which start side by side; nothing once they run)."""
    workers = min(worker_count(), count)
    if workers < 2:
        return False
    saved = seconds_per_compile * count * (1 - 1 / workers)
    with _lock:
        running = sum(worker.alive() for worker in _workers)
    return saved > (_START_SECONDS if running < workers else 0.0)


class _Worker:
    """One worker process and the pipes to it; `compile` sends a request and waits for its
    answer (one at a time)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tilecraft.runtime.compile_workers"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def alive(self) -> bool:
        return self.process.poll() is None

    def compile(self, request: Request) -> Result:
        try:
            _send(self.process.stdin, request)
            answer = _receive(self.process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError):
            self.close()
            return None
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()


_workers: list[_Worker] = []
_lock = threading.Lock()


def start(count: int) -> list[_Worker]:
    """``count`` live workers, started where needed."""
    with _lock:
        _workers[:] = [worker for worker in _workers if worker.alive()]
        while len(_workers) < count:
            if not _workers:
                atexit.register(shutdown)
            _workers.append(_Worker())
        return _workers[:count]


def shutdown() -> None:
    """Ends the workers (they are started again when needed)."""
    with _lock:
        for worker in _workers:
            worker.close()
        _workers.clear()


def compile_all(requests: Sequence[Request]) -> list[Result]:
    """Each request compiled by a worker, in order (as many workers as `worker_count` allows,
    at most one per request)."""
    count = min(worker_count(), len(requests))
    workers = start(count)
    pending = list(enumerate(requests))
    results: list[Result] = [None] * len(requests)
    queue_lock = threading.Lock()

    def drain(worker: _Worker) -> None:
        while True:
            with queue_lock:
                if not pending:
                    return
                index, request = pending.pop(0)
            results[index] = worker.compile(request) if worker.alive() else None

    with ThreadPoolExecutor(max_workers=count) as threads:
        list(threads.map(drain, workers))
    return results


def _send(stream: BinaryIO, value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the worker closed its pipe")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the worker closed its pipe")
    return pickle.loads(data)


def _compile_request(request: Request) -> Result:
    """What a worker answers: the cache files and metadata of ``request``'s kernel, or None
    when it does not compile (the caller compiles it again and reports the error)."""
    from tilecraft.ir import parse_module

    from .compiler import get_backend

    for name in [name for name in os.environ if name.startswith("TILECRAFT_")]:
        del os.environ[name]
    os.environ.update(request.environment)
    try:
        backend = get_backend(request.backend, request.capability)
        module = parse_module(request.text)
        return backend.cache_files(backend.compile(module, request.options))
    except Exception:  # noqa: BLE001 - the caller compiles it again and raises the error
        return None


def _serve() -> None:
    """A worker's loop: answer requests until stdin closes. Whatever the compile prints goes
    to stderr, so that stdout carries only answers."""
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while True:
        try:
            request = _receive(requests)
        except EOFError:
            return
        _send(answers, _compile_request(request))


if __name__ == "__main__":
    _serve()
