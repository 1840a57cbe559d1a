"""The CPU engine and driver on hand-written LLVM IR that follows the kernel ABI: every program
of the grid runs once with its pid, on one thread or several; arguments of every kind arrive;
assertions stop the launch and say where; prints read like the interpreter's; bad IR and bad
objects are Python errors; cached object bytes run with no compilation."""

from __future__ import annotations

import itertools

import llvmlite.binding as llvm
import numpy as np
import pytest

from tilecraft.backends.cpu import engine, thread_pool
from tilecraft.runtime import cpu_driver
from tilecraft.runtime.cpu_driver import CPUKernel, DeviceAssertionError

CALLBACKS = """
declare void @tilecraft_print(ptr, i32, i32, i32, i32, i64, i32, i64)
declare void @tilecraft_assert_fail(ptr, i32, i32, i32, i32, i64)
"""


def kernel_ir(body: str, name: str = "kernel") -> str:
    """A kernel with the driver's ABI whose programs each run ``body``, which sees %args,
    %ctx, %lin (i64) and %px, %py, %pz (i32) and falls through at its end."""
    return CALLBACKS + f"""
define void @{name}(ptr %args, i32 %gx, i32 %gy, i32 %gz, i64 %begin, i64 %end, ptr %ctx) {{
entry:
  %gx64 = sext i32 %gx to i64
  %gy64 = sext i32 %gy to i64
  %gxy = mul i64 %gx64, %gy64
  %empty = icmp sge i64 %begin, %end
  br i1 %empty, label %exit, label %loop
loop:
  %lin = phi i64 [ %begin, %entry ], [ %next, %continue ]
  %abort = load atomic i32, ptr %ctx monotonic, align 4
  %stop = icmp ne i32 %abort, 0
  br i1 %stop, label %exit, label %body
body:
  %px64 = urem i64 %lin, %gx64
  %row = udiv i64 %lin, %gx64
  %py64 = urem i64 %row, %gy64
  %pz64 = udiv i64 %lin, %gxy
  %px = trunc i64 %px64 to i32
  %py = trunc i64 %py64 to i32
  %pz = trunc i64 %pz64 to i32
{body}
  br label %continue
continue:
  %next = add i64 %lin, 1
  %more = icmp slt i64 %next, %end
  br i1 %more, label %loop, label %exit
exit:
  ret void
}}
"""


def load(body: str, arg_kinds: list[str], prints=(), asserts=()) -> CPUKernel:
    compiled = engine.compile_module(kernel_ir(body), "test")
    return CPUKernel(engine.JITLibrary(compiled.obj), "kernel", arg_kinds, list(prints),
                     list(asserts))


def address(array: np.ndarray) -> int:
    return array.ctypes.data


@pytest.fixture
def use_threads(monkeypatch):
    """Sets TILECRAFT_CPU_THREADS for the test, and makes launches use every thread however
    cheap their programs."""

    def use(count: str) -> None:
        monkeypatch.setenv("TILECRAFT_CPU_THREADS", count)
        monkeypatch.setattr(cpu_driver, "MIN_CHUNK_SECONDS", 1e-15)
        cpu_driver.thread_count.cache_clear()

    yield use
    cpu_driver.thread_count.cache_clear()


# out[lin] = px + 100 py + 10000 pz; counts[lin] += 1; threads[lin] = pthread_self()
PID_BODY = """
  %out = load ptr, ptr %args
  %counts.slot = getelementptr i8, ptr %args, i64 8
  %counts = load ptr, ptr %counts.slot
  %threads.slot = getelementptr i8, ptr %args, i64 16
  %threads = load ptr, ptr %threads.slot
  %thread = call i64 @pthread_self()
  %thread.lin = getelementptr i64, ptr %threads, i64 %lin
  store i64 %thread, ptr %thread.lin
  %y100 = mul i32 %py, 100
  %z10000 = mul i32 %pz, 10000
  %xy = add i32 %px, %y100
  %code = add i32 %xy, %z10000
  %code64 = sext i32 %code to i64
  %out.lin = getelementptr i64, ptr %out, i64 %lin
  store i64 %code64, ptr %out.lin
  %count.lin = getelementptr i64, ptr %counts, i64 %lin
  %old = atomicrmw add ptr %count.lin, i64 1 monotonic
"""


def pid_kernel_ir(name: str) -> str:
    return "declare i64 @pthread_self()\n" + kernel_ir(PID_BODY, name)


@pytest.fixture(scope="module")
def pid_kernel() -> CPUKernel:
    """The pid kernel, launched once already (its programs timed: no first-launch probe)."""
    compiled = engine.compile_module(pid_kernel_ir("kernel"), "pids")
    kernel = CPUKernel(engine.JITLibrary(compiled.obj), "kernel", ["ptr"] * 3, [], [])
    run_pid_kernel(kernel, (1, 1, 1))
    return kernel


def run_pid_kernel(kernel: CPUKernel, grid: tuple[int, int, int]) -> np.ndarray:
    """Checks that each program ran once with its pid; returns the thread of each."""
    gx, gy, gz = grid
    out = np.full(gx * gy * gz, -1, np.int64)
    counts = np.zeros(gx * gy * gz, np.int64)
    threads = np.zeros(gx * gy * gz, np.int64)
    kernel.launch(grid, [address(out), address(counts), address(threads)])
    z, y, x = np.meshgrid(range(gz), range(gy), range(gx), indexing="ij")
    np.testing.assert_array_equal(out, (x + 100 * y + 10000 * z).reshape(-1))
    np.testing.assert_array_equal(counts, 1)
    return threads


@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("grid", [(7, 3, 2), (3, 1, 1), (1, 1, 1), (1, 5, 3)])
def test_every_program_runs_once_with_its_pid(pid_kernel, use_threads, threads, grid):
    use_threads(str(threads))
    ran_on = run_pid_kernel(pid_kernel, grid)
    used = min(threads, len(ran_on))
    chunks = 1 if used == 1 else min(len(ran_on), used * cpu_driver.CHUNKS_PER_THREAD)
    bounds = [len(ran_on) * i // chunks for i in range(chunks + 1)]
    for begin, end in itertools.pairwise(bounds):  # a chunk runs in one thread
        assert len(set(ran_on[begin:end])) == 1


# each program sleeps for 2 ms, then notes its thread
SLOW_BODY = """
  %threads = load ptr, ptr %args
  %slept = call i32 @usleep(i32 2000)
  %thread = call i64 @pthread_self()
  %thread.lin = getelementptr i64, ptr %threads, i64 %lin
  store i64 %thread, ptr %thread.lin
"""


def test_pool_fields_do_not_overlap():
    sizes = {"mutex": 40, "work_posted": 48, "work_done": 48, "grid": 12}
    fields = sorted((offset, offset + sizes.get(name, 8)) for name, offset in
                    vars(thread_pool.LAYOUT).items())
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(fields))
    assert fields[-1][1] <= thread_pool.POOL_BYTES


def test_the_pool_is_compiled_once_per_host_then_loaded_from_the_cache(tmp_path,
                                                                      monkeypatch):
    """The pool's object goes into the compile cache: a later process (here, a second call)
    loads it without compiling; an entry that does not define the pool's functions is
    discarded and compiled again."""
    from tilecraft.runtime import cache

    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    compiles = []
    compile_pool = thread_pool.compile_pool
    monkeypatch.setattr(thread_pool, "compile_pool",
                        lambda: compiles.append(1) or compile_pool())
    for expected in (1, 1):
        library = cpu_driver._pool_library()
        assert len(compiles) == expected
        assert all(library.address(symbol) for symbol in thread_pool.SYMBOLS)
    (key,) = [entry.name for entry in tmp_path.iterdir() if not entry.name.startswith(".")]
    cache.discard(key)
    cache.put(key, {cpu_driver._POOL_FILE: b"\x7fELF, but not an object"}, {})
    library = cpu_driver._pool_library()
    assert len(compiles) == 2 and library.address(thread_pool.SYMBOLS[0])
    assert cache.get(key)[cpu_driver._POOL_FILE][:4] == b"\x7fELF"
    assert thread_pool.SYMBOLS[1].encode() in cache.get(key)[cpu_driver._POOL_FILE]


def test_chunks_run_in_parallel_on_the_pool(use_threads):
    """Sixteen chunks of slow programs on four threads: the workers, which wait in compiled
    code, take chunks while the calling thread runs its own, and a second launch reuses them."""
    use_threads("4")
    compiled = engine.compile_module(
        "declare i64 @pthread_self()\ndeclare i32 @usleep(i32)\n" +
        kernel_ir(SLOW_BODY, "slow"), "slow")
    kernel = CPUKernel(engine.JITLibrary(compiled.obj), "slow", ["ptr"], [], [])
    for _ in range(2):
        threads = np.zeros(16, np.int64)
        kernel.launch((16, 1, 1), [address(threads)])
        assert np.all(threads != 0)
        assert len(set(threads)) > 1


@pytest.mark.parametrize("cost", ["cheap", "slow"])
def test_a_first_launch_times_its_first_program_before_choosing_threads(use_threads,
                                                                        monkeypatch, cost):
    """The first launch of more programs than threads runs program 0 alone in this thread,
    then the others, here on this thread too when they are cheap (no pool) and on the pool's
    threads, in chunks after program 0, when they are not."""
    use_threads("2")
    if cost == "cheap":
        monkeypatch.setattr(cpu_driver, "MIN_CHUNK_SECONDS", 1.0)
        monkeypatch.setattr(cpu_driver, "_pool", lambda: pytest.fail("the pool was used"))
    compiled = engine.compile_module(pid_kernel_ir("probed"), "probed")
    kernel = CPUKernel(engine.JITLibrary(compiled.obj), "probed", ["ptr"] * 3, [], [])
    ran_on = run_pid_kernel(kernel, (9, 1, 1))
    assert kernel.program_seconds is not None
    if cost == "cheap":
        assert len(set(ran_on)) == 1
    else:
        chunks = 2 * cpu_driver.CHUNKS_PER_THREAD
        bounds = [1 + 8 * i // chunks for i in range(chunks + 1)]
        for begin, end in itertools.pairwise(bounds):
            assert len(set(ran_on[begin:end])) == 1


def test_cheap_programs_run_on_fewer_threads():
    assert cpu_driver.plan_threads(1000, 8, None) == 8
    assert cpu_driver.plan_threads(3, 8, None) == 3
    assert cpu_driver.plan_threads(1000, 8, 1e-9) == 1
    assert cpu_driver.plan_threads(1000, 8, 3.5 * cpu_driver.MIN_CHUNK_SECONDS / 1000) == 3
    assert cpu_driver.plan_threads(1000, 8, 1e-3) == 8


def test_empty_and_invalid_grids(pid_kernel):
    pid_kernel.launch((0, 4, 1), [0, 0, 0])
    with pytest.raises(ValueError, match="invalid grid"):
        pid_kernel.launch((-1, 1, 1), [0, 0, 0])


def test_thread_count_from_the_environment(use_threads):
    use_threads("3")
    assert cpu_driver.thread_count() == 3
    for bad in ("many", "0", "-2", "2.5", " "):
        use_threads(bad)
        with pytest.raises(ValueError, match="TILECRAFT_CPU_THREADS"):
            cpu_driver.thread_count()


SCALAR_KINDS = ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "fp32",
                "fp64"]
LLVM_TYPES = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "u8": "i8",
              "u16": "i16", "u32": "i32", "u64": "i64", "fp16": "half", "fp32": "float",
              "fp64": "double"}


def store_scalar_args_body() -> str:
    """out[k] = scalar argument k, integers extended to i64 and floats to double."""
    lines = ["  %out = load ptr, ptr %args"]
    for k, kind in enumerate(SCALAR_KINDS):
        ty = LLVM_TYPES[kind]
        lines.append(f"  %slot{k} = getelementptr i8, ptr %args, i64 {8 * (k + 1)}")
        lines.append(f"  %v{k} = load {ty}, ptr %slot{k}")
        if kind.startswith("fp"):
            extend = "bitcast double" if kind == "fp64" else f"fpext {ty}"
            lines.append(f"  %w{k} = {extend} %v{k} to double")
        else:
            extend = "sext" if kind.startswith("i") and kind not in ("i1", "i64") else "zext"
            extend = "bitcast" if ty == "i64" else extend
            lines.append(f"  %w{k} = {extend} {ty} %v{k} to i64")
        lines.append(f"  %dst{k} = getelementptr i64, ptr %out, i64 {k}")
        lines.append(f"  store {'double' if kind.startswith('fp') else 'i64'} %w{k}, "
                     f"ptr %dst{k}")
    return "\n".join(lines)


def test_every_argument_kind_arrives():
    kernel = load(store_scalar_args_body(), ["ptr"] + SCALAR_KINDS)
    values = [True, -5, -300, -70000, -2**40, 200, 60000, 4_000_000_000, 2**64 - 1, 1.5,
              -2.25, 1e300]
    out = np.zeros(len(values), np.int64)
    kernel.launch((1, 1, 1), [address(out)] + values)
    ints, floats = out.view(np.int64), out.view(np.float64)
    assert list(ints[:8]) == [1, -5, -300, -70000, -2**40, 200, 60000, 4_000_000_000]
    assert out.view(np.uint64)[8] == 2**64 - 1
    assert list(floats[9:]) == [1.5, -2.25, 1e300]


def test_arguments_that_do_not_fit_their_kind():
    kernel = load("", ["ptr", "i8"])
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        kernel.launch((1, 1, 1), [0])
    with pytest.raises(TypeError, match=r"argument 1 \(300\) is not a valid i8"):
        kernel.launch((1, 1, 1), [0, 300])
    with pytest.raises(ValueError, match="unknown kinds"):
        CPUKernel(kernel.library, "kernel", ["f32"], [], [])


# out[lin] = 1; program 4 fails assertion 0 at element 5
ASSERT_BODY = """
  %out = load ptr, ptr %args
  %dst = getelementptr i64, ptr %out, i64 %lin
  store i64 1, ptr %dst
  %fails = icmp eq i64 %lin, 4
  br i1 %fails, label %fail, label %done
fail:
  call void @tilecraft_assert_fail(ptr %ctx, i32 0, i32 %px, i32 %py, i32 %pz, i64 5)
  br label %done
done:
"""
ASSERTION = {"message": "x must be positive", "file": "kernel.py", "line": 12,
             "function": "kernel_name"}


def test_failed_assertion_stops_the_launch(use_threads):
    use_threads("1")
    kernel = load(ASSERT_BODY, ["ptr"], asserts=[ASSERTION])
    out = np.full(10, -1, np.int64)
    with pytest.raises(DeviceAssertionError) as info:
        kernel.launch((5, 2, 1), [address(out)])
    assert str(info.value) == ("kernel.py:12: device assertion failed in kernel_name, "
                               "pid (4, 0, 0) idx (5): x must be positive")
    assert info.value.pid == (4, 0, 0) and isinstance(info.value, AssertionError)
    assert list(out) == [1] * 5 + [-1] * 5


def test_failed_assertion_with_several_threads_and_a_tile_shape(use_threads):
    use_threads("2")
    kernel = load(ASSERT_BODY, ["ptr"], asserts=[{**ASSERTION, "shape": [2, 3]}])
    out = np.full(40, -1, np.int64)
    with pytest.raises(DeviceAssertionError, match=r"pid \(4, 0, 0\) idx \(1, 2\): x must"):
        kernel.launch((40, 1, 1), [address(out)])
    assert (out[:5] == 1).all()
    kernel.launch((4, 1, 1), [address(out)])  # the next launch starts afresh


PRINT_BODY = """
  %x0 = mul i32 %px, 10
  %x0.64 = sext i32 %x0 to i64
  call void @tilecraft_print(ptr %ctx, i32 0, i32 %px, i32 %py, i32 %pz, i64 0, i32 0, i64 %x0.64)
  %x1 = sub i32 -1, %px
  %x1.64 = sext i32 %x1 to i64
  call void @tilecraft_print(ptr %ctx, i32 0, i32 %px, i32 %py, i32 %pz, i64 1, i32 0, i64 %x1.64)
  %half = bitcast double 1.5 to i64
  call void @tilecraft_print(ptr %ctx, i32 1, i32 %px, i32 %py, i32 %pz, i64 -1, i32 0, i64 %half)
  call void @tilecraft_print(ptr %ctx, i32 1, i32 %px, i32 %py, i32 %pz, i64 -1, i32 1, i64 255)
  call void @tilecraft_print(ptr %ctx, i32 1, i32 %px, i32 %py, i32 %pz, i64 -1, i32 2, i64 -1)
  call void @tilecraft_print(ptr %ctx, i32 1, i32 %px, i32 %py, i32 %pz, i64 -1, i32 3,
                             i64 4000000000)
  %one = bitcast double 1.0 to i64
  call void @tilecraft_print(ptr %ctx, i32 2, i32 %px, i32 %py, i32 %pz, i64 3, i32 0, i64 -1)
  call void @tilecraft_print(ptr %ctx, i32 2, i32 %px, i32 %py, i32 %pz, i64 3, i32 1, i64 %one)
  call void @tilecraft_print(ptr %ctx, i32 3, i32 %px, i32 %py, i32 %pz, i64 -1, i32 -1, i64 0)
"""
PRINTS = [
    {"prefix": " x: ", "hex": False, "kinds": ["i32"], "shape": [2]},
    {"prefix": " scalars: ", "hex": False, "kinds": ["fp32", "u8", "u64", "i32"], "shape": []},
    {"prefix": " bits: ", "hex": True, "kinds": ["i32", "fp32"]},
    {"prefix": " here", "hex": False, "kinds": [], "shape": []},
]


def test_prints_read_like_the_interpreter(capsys, use_threads):
    use_threads("1")
    load(PRINT_BODY, [], prints=PRINTS).launch((2, 1, 1), [])
    lines = capsys.readouterr().out.splitlines()
    scalars = "idx () scalars: 1.5, 255, 18446744073709551615, 4000000000"
    assert lines == [
        line
        for pid, x in ((0, 0), (1, 10))
        for line in (f"pid ({pid}, 0, 0) idx (0) x: {x}",
                     f"pid ({pid}, 0, 0) idx (1) x: {-1 - pid}",
                     f"pid ({pid}, 0, 0) {scalars}",
                     f"pid ({pid}, 0, 0) idx (3) bits: 0xffffffff, 0x3f800000",
                     f"pid ({pid}, 0, 0) idx () here")
    ]


def test_a_failing_callback_stops_the_launch(use_threads):
    use_threads("1")
    kernel = load(PRINT_BODY, [], prints=PRINTS[:1])  # print ids 1.. are unknown
    with pytest.raises(IndexError):
        kernel.launch((2, 1, 1), [])


def test_invalid_ir_is_a_python_error():
    with pytest.raises(engine.LLVMError, match=r"(?s)invalid LLVM IR for bad:.*bad:1:18: error"):
        engine.compile_module("define void @f( {", "bad")
    undominated = "define void @f() {\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n  ret void\n}"
    with pytest.raises(engine.LLVMError, match="Instruction does not dominate all uses"):
        engine.compile_module(undominated, "bad")


def test_unresolved_symbols_and_bad_objects_are_python_errors():
    compiled = engine.compile_module(
        "declare void @nowhere()\ndefine void @f() {\n  call void @nowhere()\n  ret void\n}", "m")
    with pytest.raises(engine.LLVMError, match="symbols nothing defines: nowhere"):
        engine.JITLibrary(compiled.obj).address("f")
    for bad in (b"", b"not an object file at all", compiled.obj[:200]):
        with pytest.raises(engine.LLVMError, match="invalid object file"):
            engine.JITLibrary(bad)


def test_compiled_object_has_every_stage_and_reloads_without_compiling(monkeypatch):
    compiled = engine.compile_module(pid_kernel_ir("pids"), "pids")
    assert "define void @pids" in compiled.llir and 'target triple = "' in compiled.llir
    assert "pids:" in compiled.asm and compiled.obj.startswith(b"\x7fELF")

    def no_compilation(*args, **kwargs):
        raise AssertionError("a cache hit must not compile")

    # one thread: a launch on several would compile the thread pool where no earlier test of
    # the process has (as on a 16-core host, where the first program's time may call for more)
    monkeypatch.setattr(cpu_driver, "thread_count", lambda: 1)
    monkeypatch.setattr(llvm.TargetMachine, "emit_object", no_compilation)
    monkeypatch.setattr(llvm.TargetMachine, "emit_assembly", no_compilation)
    monkeypatch.setattr(engine, "compile_module", no_compilation)
    library = engine.JITLibrary(bytes(compiled.obj))
    with pytest.raises(KeyError, match="no symbol 'kernel'"):
        library.address("kernel")
    run_pid_kernel(CPUKernel(library, "pids", ["ptr"] * 3, [], []), (3, 2, 1))


def test_assembly_is_generated_only_when_read(monkeypatch):
    emitted = []
    original = llvm.TargetMachine.emit_assembly

    def counting(machine, module):
        emitted.append(module.name)
        return original(machine, module)

    monkeypatch.setattr(llvm.TargetMachine, "emit_assembly", counting)
    compiled = engine.compile_module(pid_kernel_ir("pids"), "pids")
    assert emitted == []
    assert "pids:" in compiled.asm and compiled.asm is compiled.asm
    assert len(emitted) == 1
    with pytest.raises(engine.LLVMError, match="invalid LLVM IR for assembly"):
        engine.assembly("define void @f( {")


def test_host_cache_key_parts():
    parts = engine.host_cache_key_parts()
    target = engine.host_target()
    assert target.cpu in parts and target.features in parts
    assert any(part.startswith("LLVM ") for part in parts)


def test_long_loop_bodies_are_interleaved(monkeypatch):
    """The lowering asks LLVM to interleave four vectors an iteration in an innermost loop with a
    long floating-point body (an exp per element), and in no other loop; results stay exact.
    (Streaming stores are off: each store is one loop.)"""
    import numpy as np

    import tilecraft as tc
    import tilecraft.language as tl
    from tilecraft.backends.cpu import streaming
    from tilecraft.backends.cpu.lowering import lower_kernel
    from tilecraft.ir import parse_module

    monkeypatch.setattr(streaming, "applies", lambda *args: False)

    @tc.jit
    def exp_and_add(x_ptr, out_ptr, out2_ptr, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offsets)
        tl.store(out_ptr + offsets, tl.exp(x))
        tl.store(out2_ptr + offsets, x + 1)

    x = np.linspace(-3, 3, 1024, dtype=np.float32)
    out, out2 = np.zeros_like(x), np.zeros_like(x)
    compiled = exp_and_add.warmup(x, out, out2, BLOCK=1024)
    module = str(lower_kernel(parse_module(compiled.asm["ttir"]))[0])
    assert module.count('!"llvm.loop.interleave.count", i32 4') == 1
    assert module.count("!llvm.loop") == 1  # the exp's loop, not the add's
    exp_and_add[(1,)](x, out, out2, BLOCK=1024)
    np.testing.assert_allclose(out, np.exp(x.astype(np.float64)), rtol=2e-7)
    np.testing.assert_array_equal(out2, x + 1)
