"""Running compiled CPU kernels over the grid.

The lowering emits, for each kernel, a function with this ABI (``tilecraft_*`` names are the
runtime's callbacks, resolved when the object is loaded)::

    void <symbol>(ptr args, i32 gx, i32 gy, i32 gz, i64 begin, i64 end, ptr ctx)

It runs the programs whose linear ids lie in [begin, end) (``pid_x = lin % gx``,
``pid_y = (lin / gx) % gy``, ``pid_z = lin / (gx * gy)``) and returns early once the i32 at
``ctx`` (the abort flag) is nonzero. ``args`` points to one 8-byte slot per runtime argument,
holding the value in its own type at the slot's start, little-endian.

Kinds name the type of an argument or of a printed value, with Triton's signature names:
``ptr`` (any pointer, passed as its address), ``i1``, ``i8``, ``i16``, ``i32``, ``i64``, ``u8``,
``u16``, ``u32``, ``u64``, ``fp16``, ``fp32``, ``fp64``; printed values may also be ``bf16``,
``fp8e4nv`` and ``fp8e5``.

A launch runs on one thread per CPU (``TILECRAFT_CPU_THREADS`` sets the count), or fewer when
the kernel's programs, timed on its previous launch, are too cheap to be worth a thread
(`plan_threads`). A kernel's first launch of more programs than threads runs its first program
alone in the calling thread to time it, then plans the rest: a cheap kernel then never starts
the pool (whose code is compiled once per host and kept in the compile cache). On one thread, the
kernel is called in this thread: for a kernel with no print and no assertion, by the native
launcher (`tilecraft.backends.native`'s ``CpuLauncher``, compiled C that packs the arguments and
calls the kernel: 0.6 us a launch where the Python launcher took 5.6 us, 2.7 of them in its
ctypes call of the kernel, side by side on the loaded 2-core CI-like machine), which hands every
other launch to the Python launcher. On several, the linear range is cut into `CHUNKS_PER_THREAD`
contiguous chunks per thread and one call (through ctypes, which releases the GIL) goes into a
thread pool written in compiled code (`tilecraft.backends.cpu.thread_pool`), created on the
first launch that needs it, whose workers never return to Python: the calling thread and the
workers claim the chunks in order, and no Python runs until every program has. Neighbouring
programs stay on one thread within a chunk, and a thread that runs ahead (its core not shared
with another process) takes more chunks.

A new specialization's launch may get a quick build (`tilecraft.backends.cpu.compiler`: no LLVM
optimization, level-0 code generation; for kernels with no loop, call or dot), whose code runs
several times slower but costs a tenth of the compile time. Its launches run in this thread, in
runs of programs, and count the time they take (`QUICK_SECONDS`); past it, the optimized build
is made in another thread while the launch goes on with the quick code, and the rest of the
launch, and every later one, runs the optimized code. A kernel launched once, or for a few short
launches, never waits for LLVM's optimization; one that runs long at once pays about that
time and the quick compile's, once (about 15 ms for a vector add of 2^24 elements here).
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from tilecraft.backends import native

from .environment import count_variable

if TYPE_CHECKING:
    from tilecraft.backends.cpu.engine import JITLibrary

# struct formats of the argument slots, each 8 bytes.
ARG_KINDS = {
    "ptr": "Q", "i1": "?7x", "i8": "b7x", "i16": "h6x", "i32": "i4x", "i64": "q",
    "u8": "B7x", "u16": "H6x", "u32": "I4x", "u64": "Q", "fp16": "e6x", "fp32": "f4x", "fp64": "d",
}
FLOAT_KINDS = frozenset({"fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"})
PRINT_KINDS = frozenset(ARG_KINDS) | FLOAT_KINDS
_UNSIGNED_WIDTHS = {"ptr": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}

POOL_STACK_SIZE = 64 << 20  # the lowering keeps tile buffers on the stack
MIN_CHUNK_SECONDS = 100e-6
# How long a quick build (see `CPUKernel`) runs, over all its launches, before the kernel is
# optimized: a few times less than O3 takes for a small kernel, so that a launch that would
# run long on quick code loses little, and a kernel launched once or for short runs never
# waits for O3.
QUICK_SECONDS = 2e-3
# How long a quick build's launch runs its programs between looks at whether the optimized
# build has come.
QUICK_STEP_SECONDS = 1e-3
# Chunks per thread of a launch on several: enough that a thread slowed by another process on
# its core leaves its later chunks to the others, few enough to keep neighbours together.
CHUNKS_PER_THREAD = 4

_KERNEL_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                                ctypes.c_int32, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
_PRINT_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                               ctypes.c_int32, ctypes.c_int32, ctypes.c_int64, ctypes.c_int32,
                               ctypes.c_int64)
_ASSERT_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                                ctypes.c_int32, ctypes.c_int32, ctypes.c_int64)


class DeviceAssertionError(AssertionError):
    """A ``tl.device_assert`` that failed in a compiled CPU kernel: the message names the
    kernel's source line, the program and the element; ``pid`` and ``index`` say them too."""

    def __init__(self, text: str, pid: tuple[int, int, int], index: str) -> None:
        super().__init__(text)
        self.pid = pid
        self.index = index


class _Print(NamedTuple):
    prefix: str
    hex: bool
    kinds: tuple[str, ...]
    shape: tuple[int, ...] | None


class _Assert(NamedTuple):
    message: str
    file: str
    line: int
    function: str
    shape: tuple[int, ...] | None


def _shape(spec: dict) -> tuple[int, ...] | None:
    shape = spec.get("shape")
    if shape is None:
        return None
    if not isinstance(shape, list) or not all(type(size) is int and size > 0 for size in shape):
        raise ValueError(f"invalid tile shape {shape!r}")
    return tuple(shape)


def _text(spec: dict, key: str) -> str:
    value = spec[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} {value!r} is not a string")
    return value


def debug_tables(symbol: str, arg_kinds: list[str], prints: list[dict], asserts: list[dict]
                 ) -> tuple[list[_Print], list[_Assert]]:
    """The print and assertion tables of a kernel (see `CPUKernel`), checked: raises ValueError
    naming the kernel for an unknown kind or a malformed entry (as a damaged cache entry may
    hold)."""
    try:
        unknown = [kind for kind in arg_kinds if kind not in ARG_KINDS]
        unknown += [kind for spec in prints for kind in spec["kinds"] if kind not in PRINT_KINDS]
        if unknown:
            raise ValueError(f"unknown kinds {unknown}")
        print_table = [_Print(_text(spec, "prefix"), bool(spec["hex"]), tuple(spec["kinds"]),
                              _shape(spec)) for spec in prints]
        assert_table = [_Assert(_text(spec, "message"), _text(spec, "file"), int(spec["line"]),
                                _text(spec, "function"), _shape(spec)) for spec in asserts]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{symbol}: invalid launch metadata: {error}") from None
    return print_table, assert_table


class CPUKernel:
    """A compiled kernel, ready to launch: ``symbol`` in ``library`` with the ABI above.

    ``arg_kinds`` gives the kind of each runtime argument. ``prints[i]`` describes the
    ``tilecraft_print`` calls with print id ``i``: ``{"prefix": str, "hex": bool, "kinds":
    [kind per operand]}``; ``asserts[i]`` describes assertion ``i``: ``{"message", "file",
    "line", "function"}``. Either may add ``"shape"`` (the tile's shape, ``[]`` for a scalar):
    the element index passed to the callback is then shown as a position in the tile, as the
    interpreter shows it, instead of a linear index.

    ``optimize``, given for a quick build, has the optimized build made; it calls
    `replace_code` with it (see the module docstring).
    """

    def __init__(self, library: JITLibrary, symbol: str, arg_kinds: list[str],
                 prints: list[dict], asserts: list[dict],
                 optimize: Callable[[], None] | None = None) -> None:
        self.library = library
        self.symbol = symbol
        self.arg_kinds = list(arg_kinds)
        self.prints, self.asserts = debug_tables(symbol, arg_kinds, prints, asserts)
        self._pack = struct.Struct("<" + "".join(ARG_KINDS[kind] for kind in arg_kinds)).pack
        _register_callbacks()
        self._address = library.address(symbol)
        self._function = _KERNEL_TYPE(self._address)
        # A quick build: what makes the optimized build (and calls `replace_code`), and how
        # long the quick build has run.
        self._optimize = optimize
        self._quick_seconds = 0.0
        self._retired: list[JITLibrary] = []  # quick code another thread may still be running
        if optimize is not None:
            _QUICK_KERNELS.add(self)
        # Kernels with no print and no assertion call back nothing; launched in one chunk, they
        # are given a context no one writes (the abort flag stays zero).
        self._silent = not self.prints and not self.asserts
        self._no_abort = _LaunchContext()
        self._no_abort_address = ctypes.addressof(self._no_abort)
        launchers = native.launchers() if self._silent else None
        self._timing: Any
        self.launch_values: Callable[..., None]
        if launchers is None:
            self._timing = _Timing()
            self.launch_values = self._launch_in_python
        else:
            # It runs the launches this thread would run alone and hands the others to
            # _launch_in_python; it keeps the timing that both read. A quick build's launches
            # all go to _launch_in_python, which counts their time.
            self._timing = launchers.CpuLauncher(tuple(self.arg_kinds), self._address,
                                                 self._no_abort_address,
                                                 self._launch_in_python, MIN_CHUNK_SECONDS,
                                                 direct=optimize is None)
            self.launch_values = self._timing

    @property
    def quick(self) -> bool:
        """Whether launches still run a quick build."""
        return self._optimize is not None

    def optimize(self) -> None:
        """Has the optimized build of a quick build made and run from now on (nothing for an
        optimized kernel)."""
        optimize = self._optimize
        if optimize is not None:
            optimize()

    def replace_code(self, library: JITLibrary) -> None:
        """Launches run ``library``'s code (the optimized build of this quick build) from now
        on. A launch running the quick code in another thread finishes with it."""
        address = library.address(self.symbol)
        self._retired.append(self.library)
        self.library = library
        self._address = address
        self._function = _KERNEL_TYPE(address)
        self._optimize = None
        _QUICK_KERNELS.discard(self)
        if isinstance(self._timing, _Timing):
            self._timing.program_seconds = None
        else:
            self._timing.retarget(address)

    @property
    def program_seconds(self) -> float | None:
        """What one program cost at the kernel's last timed launch (None: not yet timed)."""
        return self._timing.program_seconds

    def __repr__(self) -> str:
        return f"CPUKernel({self.symbol}, {self.arg_kinds})"

    def launch(self, grid: tuple[int, int, int], args: list) -> None:
        """Runs every program of ``grid`` once on ``args`` (integers, addresses for pointers,
        bools and floats); raises `DeviceAssertionError` if an assertion failed."""
        self.launch_values(grid, None, *args)

    def _launch_in_python(self, grid: tuple[int, int, int], stream: Any, *args: Any) -> None:
        """`launch` with the arguments spread, as the launch fast path calls it (``stream`` is
        the launchers' common parameter: the CPU has none): ``launch_values`` where there is
        no native launcher (`tilecraft.backends.native`), else what it hands on."""
        gx, gy, gz = grid
        if not (0 <= gx < 2**31 and 0 <= gy < 2**31 and 0 <= gz < 2**31):
            raise ValueError(f"{self.symbol}: invalid grid {tuple(grid)}")
        total = gx * gy * gz
        if total == 0:
            return
        try:
            packed = self._pack(*args)
        except struct.error:
            raise self._argument_error(list(args)) from None
        begin = 0
        if self._optimize is not None:
            begin = self._run_quick(packed, gx, gy, gz, total)
            if begin == total:
                return
        timing = self._timing
        count = total - begin
        threads = 1 if count == 1 else plan_threads(count, thread_count(),
                                                    timing.program_seconds)
        # (times the first program alone, to plan the threads)
        first = begin + int(timing.program_seconds is None and 1 < threads < count)
        if threads == 1 and self._silent:
            # One chunk, in this thread, and no callback to call: nothing can set the abort
            # flag, so the launch needs no context of its own.
            start = time.perf_counter()
            self._function(packed, gx, gy, gz, begin, total, self._no_abort_address)
            timing.program_seconds = (time.perf_counter() - start) / count
            return
        context = _LaunchContext()
        context.kernel = self
        address = ctypes.addressof(context)
        _LAUNCHES[address] = context  # keeps the context alive as long as a chunk holds it
        try:
            if first > begin:
                self._run_chunk(packed, gx, gy, gz, begin, first, address)
                threads = plan_threads(total - first, threads, timing.program_seconds)
            if threads == 1:
                self._run_chunk(packed, gx, gy, gz, first, total, address)
            else:
                start = time.perf_counter()
                chunks = min(total - first, threads * CHUNKS_PER_THREAD)
                _pool().run(self._address, packed, (gx, gy, gz), first, total, address, chunks,
                            threads)
                timing.program_seconds = ((time.perf_counter() - start) * threads
                                          / (total - first))
        finally:
            del _LAUNCHES[address]
        context.raise_failure()

    def _run_quick(self, packed: bytes, gx: int, gy: int, gz: int, total: int) -> int:
        """Runs the quick build's programs in this thread, a run of them at a time (about
        `QUICK_STEP_SECONDS` each), until all have run or the optimized build is in place.
        Once the quick build has run for `QUICK_SECONDS` in all (since its first launch), the
        optimized build is made in another thread while this one goes on; the launch waits for
        it before it returns. Returns how many programs ran: the launch runs the others with
        the optimized build."""
        context = _LaunchContext()
        context.kernel = self
        address = ctypes.addressof(context)
        _LAUNCHES[address] = context
        begin, length = 0, 1
        optimizing: _Optimizing | None = None
        before, launched = self._quick_seconds, time.perf_counter()
        try:
            while begin < total and context.failure is None:
                optimize = self._optimize
                if optimize is None:
                    break  # optimized: by this launch's thread or another launch's
                if optimizing is None and self._quick_seconds >= QUICK_SECONDS:
                    optimizing = _Optimizing(optimize)
                end = min(total, begin + length)
                start = time.perf_counter()
                self._function(packed, gx, gy, gz, begin, end, address)
                now = time.perf_counter()
                self._quick_seconds = before + now - launched
                begin = end
                if now - start < QUICK_STEP_SECONDS / 2:
                    length *= 2
        finally:
            del _LAUNCHES[address]
            if optimizing is not None:
                optimizing.join()
        context.raise_failure()
        return begin

    def _run_chunk(self, packed: bytes, gx: int, gy: int, gz: int, begin: int, end: int,
                   ctx: int) -> None:
        """Runs programs [begin, end) in this thread and notes what one program cost."""
        start = time.perf_counter()
        self._function(packed, gx, gy, gz, begin, end, ctx)
        self._timing.program_seconds = (time.perf_counter() - start) / (end - begin)

    def _argument_error(self, args: list) -> TypeError:
        if len(args) != len(self.arg_kinds):
            return TypeError(f"{self.symbol} takes {len(self.arg_kinds)} arguments, "
                             f"got {len(args)}")
        for position, (kind, value) in enumerate(zip(self.arg_kinds, args)):
            try:
                struct.pack("<" + ARG_KINDS[kind], value)
            except struct.error:
                return TypeError(f"{self.symbol}: argument {position} ({value!r}) is not a "
                                 f"valid {kind}")
        return TypeError(f"{self.symbol}: invalid arguments {args!r}")


_QUICK_KERNELS: weakref.WeakSet[CPUKernel] = weakref.WeakSet()


def optimize_quick_builds() -> None:
    """Has every kernel that still runs a quick build optimized now (benchmarks call this after
    a first launch, so that they time the code that a kernel run many times runs)."""
    for kernel in list(_QUICK_KERNELS):
        kernel.optimize()


def plan_threads(programs: int, threads: int, program_seconds: float | None) -> int:
    """How many threads a launch of ``programs`` programs runs on: all, but fewer when the cost
    of a program (as last measured, if it was) says that a thread would get less than
    `MIN_CHUNK_SECONDS` of work: a worker that waits on the pool's condition variable takes
    microseconds to wake and more to warm its caches."""
    if program_seconds is not None:
        threads = min(threads, max(1, int(programs * program_seconds / MIN_CHUNK_SECONDS)))
    return min(threads, programs)


@functools.cache
def thread_count() -> int:
    """How many threads launches use: ``TILECRAFT_CPU_THREADS``, or one per CPU (read at the
    first launch; ``thread_count.cache_clear()`` reads it again)."""
    count = count_variable("TILECRAFT_CPU_THREADS", "threads")
    return (os.cpu_count() or 1) if count is None else count


# -- launch contexts and the callbacks ----------------------------------------------------------


class _Optimizing(threading.Thread):
    """A quick build's kernel being optimized (its `CompiledKernel.optimize`) in a thread of
    its own, while the launch goes on with the quick code; `join` re-raises what it raised."""

    def __init__(self, optimize: Callable[[], None]) -> None:
        super().__init__(name="tilecraft-optimize", daemon=True)
        self._optimize = optimize
        self._error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self._optimize()
        except BaseException as error:  # noqa: BLE001 - re-raised by join
            self._error = error

    def join(self, timeout: float | None = None) -> None:
        super().join(timeout)
        if self._error is not None:
            raise self._error


class _Timing:
    """What one program of a kernel cost at its last timed launch (None: not yet timed), where
    no native launcher keeps it."""

    __slots__ = ("program_seconds",)

    def __init__(self) -> None:
        self.program_seconds: float | None = None


class _LaunchContext(ctypes.Structure):
    """The ``ctx`` of one launch: the abort flag the generated code reads, and on the Python
    side what the callbacks record."""

    _fields_ = [("abort", ctypes.c_int32)]
    kernel: CPUKernel
    failure: BaseException | None = None
    pending: dict[tuple, dict[int, str]] | None = None  # operands of elements being printed

    def fail(self, failure: BaseException) -> None:
        """Records the launch's first failure and tells the programs to stop."""
        with _FAILURE_LOCK:
            if self.failure is None:
                self.failure = failure
        self.abort = 1

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise self.failure

    def print_element(self, print_id: int, pid: tuple[int, int, int], index: int, operand: int,
                      bits: int) -> None:
        """One operand of one printed element; the line is written once all have come."""
        spec = self.kernel.prints[print_id]
        head = f"pid ({pid[0]}, {pid[1]}, {pid[2]}) idx ({_position(index, spec.shape)})"
        if not spec.kinds:
            sys.stdout.write(f"{head}{spec.prefix}\n")
            return
        if self.pending is None:
            self.pending = {}
        key = (print_id, pid, index)
        texts = self.pending.setdefault(key, {})
        texts[operand] = _format_operand(spec.kinds[operand], bits, spec.hex)
        if len(texts) == len(spec.kinds):
            del self.pending[key]
            values = ", ".join(texts[i] for i in range(len(spec.kinds)))
            sys.stdout.write(f"{head}{spec.prefix}{values}\n")

    def assertion_failed(self, assert_id: int, pid: tuple[int, int, int], index: int) -> None:
        spec = self.kernel.asserts[assert_id]
        position = _position(index, spec.shape)
        text = (f"{spec.file}:{spec.line}: device assertion failed in {spec.function}, "
                f"pid ({pid[0]}, {pid[1]}, {pid[2]}) idx ({position}): {spec.message}")
        self.fail(DeviceAssertionError(text, pid, position))


_LAUNCHES: dict[int, _LaunchContext] = {}
_FAILURE_LOCK = threading.Lock()


def _position(index: int, shape: tuple[int, ...] | None) -> str:
    """An element's index as the interpreter prints it: its position in the tile."""
    if shape is None:
        return str(index)
    position = []
    for size in reversed(shape):
        index, coordinate = divmod(index, size)
        position.append(coordinate)
    return ", ".join(str(coordinate) for coordinate in reversed(position))


def _format_operand(kind: str, bits: int, in_hex: bool) -> str:
    """A printed value as the interpreter formats it, from the i64 the kernel passed."""
    import numpy as np

    from tilecraft.language import core as tl

    from . import interpreter

    value: Any = bits  # signed kinds: already extended as the value's signedness says
    if kind in FLOAT_KINDS:
        value = struct.unpack("<d", struct.pack("<q", bits))[0]
    elif kind == "i1":
        value = bits != 0
    elif not kind.startswith("i"):
        value = bits & ((1 << _UNSIGNED_WIDTHS[kind]) - 1)
    if kind == "ptr":
        return f"0x{value:x}" if in_hex else str(value)
    scalar = tl.str_to_ty(kind)
    if in_hex:
        return f"0x{int(interpreter._bits(np.asarray(value), scalar).reshape(-1)[0]):x}"
    return interpreter._format_value(value, scalar)


# An exception raised by a callback stops the launch, which re-raises it. (A ctx that is no
# launch's raises in the lookup: ctypes reports it on stderr.)


def _on_print(ctx: int, print_id: int, pid_x: int, pid_y: int, pid_z: int, index: int,
              operand: int, bits: int) -> None:
    context = _LAUNCHES[ctx]
    try:
        context.print_element(print_id, (pid_x, pid_y, pid_z), index, operand, bits)
    except BaseException as error:  # noqa: BLE001
        context.fail(error)


def _on_assert_fail(ctx: int, assert_id: int, pid_x: int, pid_y: int, pid_z: int,
                    index: int) -> None:
    context = _LAUNCHES[ctx]
    try:
        context.assertion_failed(assert_id, (pid_x, pid_y, pid_z), index)
    except BaseException as error:  # noqa: BLE001
        context.fail(error)


_CALLBACKS = {
    "tilecraft_print": _PRINT_TYPE(_on_print),
    "tilecraft_assert_fail": _ASSERT_TYPE(_on_assert_fail),
}


@functools.cache
def _register_callbacks() -> None:
    from tilecraft.backends.cpu.engine import register_symbol

    for name, callback in _CALLBACKS.items():
        register_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value or 0)


# -- the thread pool ----------------------------------------------------------------------------


class _ThreadPool:
    """The compiled pool of `tilecraft.backends.cpu.thread_pool`: its state, and daemon threads
    with large stacks that spend their whole life in ``tilecraft_pool_worker`` (entered once,
    through ctypes, so they never hold the GIL). It grows to the largest number of threads a
    launch has asked for."""

    def __init__(self) -> None:
        from tilecraft.backends.cpu import thread_pool

        # (held as long as the pool: its workers run in that code for the process's life)
        self._library = library = _pool_library()
        layout = thread_pool.LAYOUT
        self._state = ctypes.create_string_buffer(thread_pool.POOL_BYTES)
        address = ctypes.addressof(self._state)
        libc = ctypes.CDLL(None)
        libc.pthread_mutex_init(ctypes.c_void_p(address + layout.mutex), None)
        for variable in (layout.work_posted, layout.work_done):
            libc.pthread_cond_init(ctypes.c_void_p(address + variable), None)
        self._address = address
        self._launch = _POOL_LAUNCH_TYPE(library.address("tilecraft_pool_launch"))
        self._worker = _POOL_WORKER_TYPE(library.address("tilecraft_pool_worker"))
        self._workers = 0
        self._lock = threading.Lock()

    def run(self, kernel: int, packed: bytes, grid: tuple[int, int, int], first: int,
            programs: int, ctx: int, chunks: int, threads: int) -> None:
        """Runs programs [first, programs) of the kernel at address ``kernel`` in ``chunks``
        contiguous chunks on ``threads`` threads, this one included, and returns when all are
        done."""
        self._grow(threads - 1)
        self._launch(self._address, kernel, packed, *grid, first, programs, ctx, chunks)

    def _grow(self, workers: int) -> None:
        if workers <= self._workers:
            return
        with self._lock:
            previous = threading.stack_size(POOL_STACK_SIZE)
            try:
                while self._workers < workers:
                    self._workers += 1
                    threading.Thread(target=self._worker, args=(self._address,),
                                     name=f"tilecraft-cpu-{self._workers}", daemon=True).start()
            finally:
                threading.stack_size(previous)


_POOL_FILE = "tilecraft_pool.o"


def _pool_library() -> JITLibrary:
    """The thread pool's functions for this host, loaded: from the compile cache where an
    earlier process put them, else compiled (`thread_pool.compile_pool`, about 30 ms) and put
    there. Keyed by tilecraft's source and the host, as kernels are; an entry whose object does
    not define the pool's functions is discarded and compiled again."""
    from tilecraft.backends.cpu import engine, thread_pool

    from . import cache

    key = cache.cache_key("cpu thread pool", cache.source_fingerprint(),
                          list(engine.host_cache_key_parts()))
    entry = cache.get(key)
    if entry is not None:
        obj = entry.get(_POOL_FILE)
        try:
            if isinstance(obj, bytes) and \
                    set(thread_pool.SYMBOLS) <= engine.object_symbols(obj).defined:
                return engine.JITLibrary(obj)
        except engine.LLVMError:
            pass  # not an object file: compiled again below
        cache.discard(key)
    obj = thread_pool.compile_pool()
    cache.put(key, {_POOL_FILE: obj}, {"contents": "the CPU backend's thread pool"})
    return engine.JITLibrary(obj)


_POOL_LAUNCH_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                                     ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                     ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                                     ctypes.c_int64)
_POOL_WORKER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_POOL: _ThreadPool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> _ThreadPool:
    global _POOL
    if _POOL is None:
        with _POOL_LOCK:
            if _POOL is None:
                _POOL = _ThreadPool()
    return _POOL


def _forget_pool() -> None:
    """In a forked child: the pool's threads stayed in the parent."""
    global _POOL
    _POOL = None


os.register_at_fork(after_in_child=_forget_pool)
