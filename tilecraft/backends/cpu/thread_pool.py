"""A thread pool in compiled code, so that a launch hands its chunks to threads with no Python
and no GIL in between.

The pool's state is one `POOL_BYTES` block (`PoolLayout` gives the offsets): a pthread mutex,
two condition variables (work posted, work done), a generation counter, and the job: the
kernel's grid entry point and its arguments, the range of programs to run, the number of
chunks, the next chunk to claim and how many are done. Two functions are compiled once per host
(`compile_pool`; the runtime keeps the object in the compile cache):

* ``tilecraft_pool_worker(pool)``: a worker's whole life. It waits until the generation
  changes, copies the job, then claims chunks and runs each with the kernel's grid entry point,
  then waits again; it never returns. The runtime calls it, through ctypes (which releases the
  GIL), from daemon threads it started with large stacks.
* ``tilecraft_pool_launch(pool, fn, args, gx, gy, gz, first, programs, ctx, chunks)``: posts a
  job (programs ``[first, programs)``), wakes the workers, claims chunks itself like a worker,
  and returns once every chunk is done.

Chunk ``c`` of ``n`` runs the programs ``[first + count * c / n, first + count * (c + 1) / n)``
(``count = programs - first``): each chunk is a contiguous range, so neighbouring programs
(grouped orderings) run on one core. Claiming in order means one chunk per thread when every
thread is awake, and a thread that wakes late simply finds its chunk taken. The claim counter
holds the job's generation beside the next chunk and moves by compare-and-swap, so a thread that
comes back late from one job cannot claim a chunk of the next with the old job's fields.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.ir as ir

I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()

# glibc's pthread_mutex_t is 40 bytes and pthread_cond_t 48 on x86-64 and aarch64; each gets a
# 64-byte slot (its own cache line).
SYNC_SLOT = 64
POOL_BYTES = 512


@dataclass(frozen=True)
class PoolLayout:
    """Byte offsets of the pool's fields (`POOL_BYTES` in all; the test checks they do not
    overlap)."""

    mutex: int = 0
    work_posted: int = SYNC_SLOT
    work_done: int = 2 * SYNC_SLOT
    generation: int = 3 * SYNC_SLOT  # i64
    function: int = 3 * SYNC_SLOT + 16  # ptr
    args: int = 3 * SYNC_SLOT + 24  # ptr
    grid: int = 3 * SYNC_SLOT + 32  # 3 x i32
    programs: int = 3 * SYNC_SLOT + 48  # i64
    ctx: int = 3 * SYNC_SLOT + 56  # ptr
    chunks: int = 3 * SYNC_SLOT + 64  # i64
    first: int = 3 * SYNC_SLOT + 72  # i64
    next_chunk: int = 5 * SYNC_SLOT  # i64, claimed atomically (its own line)
    done: int = 6 * SYNC_SLOT  # i64, counted atomically (its own line)


LAYOUT = PoolLayout()
KERNEL = ir.FunctionType(VOID, [PTR, I32, I32, I32, I64, I64, PTR]).as_pointer()


def pool_module() -> str:
    """The LLVM IR text of the pool's functions."""
    module = ir.Module(name="tilecraft_pool")
    libc = _Libc(module)
    run_chunks = _run_chunks(module, libc)
    _worker(module, libc, run_chunks)
    _launch(module, libc, run_chunks)
    return str(module)


# The functions the pool's object defines.
SYMBOLS = ("tilecraft_pool_worker", "tilecraft_pool_launch")


def compile_pool() -> bytes:
    """The object code of the pool's functions for this host (a quick build, about 10 ms of
    building the IR and generating code: the runtime keeps it in the compile cache). They wait,
    claim chunks and call the kernel: LLVM's optimization and its full code generation (about
    20 ms more) would take longer than they could ever save."""
    from . import engine

    return engine.compile_module(pool_module(), "tilecraft_pool", quick=True).obj


class _Libc:
    """Declarations of the pthread functions the pool calls."""

    def __init__(self, module: ir.Module) -> None:
        def declare(name: str, params: list) -> ir.Function:
            return ir.Function(module, ir.FunctionType(I32, params), name)

        self.lock = declare("pthread_mutex_lock", [PTR])
        self.unlock = declare("pthread_mutex_unlock", [PTR])
        self.wait = declare("pthread_cond_wait", [PTR, PTR])
        self.broadcast = declare("pthread_cond_broadcast", [PTR])


class _Fields:
    """Pointers to the fields of the pool at ``pool``, for one function's builder."""

    def __init__(self, b: ir.IRBuilder, pool: ir.Value) -> None:
        self.b, self.pool = b, pool

    def at(self, offset: int) -> ir.Value:
        return self.b.gep(self.pool, [ir.Constant(I64, offset)], source_etype=I8, inbounds=True)

    def load(self, offset: int, ty: ir.Type) -> ir.Value:
        return self.b.load(self.at(offset), typ=ty)

    def store(self, offset: int, value: ir.Value) -> None:
        self.b.store(value, self.at(offset))


def _function(module: ir.Module, name: str, result: ir.Type, params: list,
              internal: bool = False) -> tuple[ir.Function, ir.IRBuilder]:
    fn = ir.Function(module, ir.FunctionType(result, params), name)
    if internal:
        fn.linkage = "internal"
    return fn, ir.IRBuilder(fn.append_basic_block("entry"))


def _run_chunks(module: ir.Module, libc: _Libc) -> ir.Function:
    """``run_chunks(pool, generation, kernel, args, gx, gy, gz, first, programs, ctx, chunks)``:
    claims and runs chunks of the job of ``generation`` (its fields, read under the mutex, are
    the other arguments) until none is left; whoever finishes the last one wakes the launching
    thread. The claim counter holds ``generation << 32 | next chunk`` and is advanced by
    compare-and-swap, so a thread still running after its job ended claims nothing of the
    next."""
    fn, b = _function(module, "tilecraft_pool_run_chunks", VOID,
                      [PTR, I64, KERNEL, PTR, I32, I32, I32, I64, I64, PTR, I64],
                      internal=True)
    pool, generation, kernel, args, gx, gy, gz, first, programs, ctx, chunks = fn.args
    f = _Fields(b, pool)
    claim = fn.append_basic_block("claim")
    try_claim = fn.append_basic_block("try_claim")
    run = fn.append_basic_block("run")
    last = fn.append_basic_block("last")
    out = fn.append_basic_block("out")
    b.branch(claim)

    b.position_at_end(claim)
    word = b.load_atomic(f.at(LAYOUT.next_chunk), "seq_cst", 8, typ=I64)
    chunk = b.and_(word, ir.Constant(I64, 0xFFFFFFFF))
    ours = b.icmp_unsigned("==", b.lshr(word, ir.Constant(I64, 32)),
                           b.and_(generation, ir.Constant(I64, 0xFFFFFFFF)))
    b.cbranch(b.and_(ours, b.icmp_signed("<", chunk, chunks)), try_claim, out)

    b.position_at_end(try_claim)
    swapped = b.cmpxchg(f.at(LAYOUT.next_chunk), word, b.add(word, ir.Constant(I64, 1)),
                        "seq_cst", "seq_cst")
    b.cbranch(b.extract_value(swapped, 1), run, claim)

    b.position_at_end(run)
    count = b.sub(programs, first)
    begin = b.add(first, b.sdiv(b.mul(count, chunk), chunks))
    end = b.add(first, b.sdiv(b.mul(count, b.add(chunk, ir.Constant(I64, 1))), chunks))
    b.call(kernel, [args, gx, gy, gz, begin, end, ctx])
    finished = b.atomic_rmw("add", f.at(LAYOUT.done), ir.Constant(I64, 1), "seq_cst")
    b.cbranch(b.icmp_signed("==", b.add(finished, ir.Constant(I64, 1)), chunks), last, claim)

    b.position_at_end(last)
    b.call(libc.lock, [f.at(LAYOUT.mutex)])
    b.call(libc.broadcast, [f.at(LAYOUT.work_done)])
    b.call(libc.unlock, [f.at(LAYOUT.mutex)])
    b.branch(claim)

    b.position_at_end(out)
    b.ret_void()
    return fn


def _wait_while(b: ir.IRBuilder, fn: ir.Function, libc: _Libc, f: _Fields, condition,
                variable: int) -> None:
    """With the mutex held: waits on the condition variable at ``variable`` while
    ``condition()`` (emitted afresh on each check) holds."""
    check = fn.append_basic_block("check")
    wait = fn.append_basic_block("wait")
    after = fn.append_basic_block("after")
    b.branch(check)
    b.position_at_end(check)
    b.cbranch(condition(), wait, after)
    b.position_at_end(wait)
    b.call(libc.wait, [f.at(variable), f.at(LAYOUT.mutex)])
    b.branch(check)
    b.position_at_end(after)


def _job(f: _Fields) -> list[ir.Value]:
    """The posted job's fields, read with the mutex held (`_run_chunks`'s arguments after the
    pool and the generation)."""
    return [f.load(LAYOUT.function, KERNEL), f.load(LAYOUT.args, PTR),
            *(f.load(LAYOUT.grid + 4 * d, I32) for d in range(3)), f.load(LAYOUT.first, I64),
            f.load(LAYOUT.programs, I64),
            f.load(LAYOUT.ctx, PTR), f.load(LAYOUT.chunks, I64)]


def _worker(module: ir.Module, libc: _Libc, run_chunks: ir.Function) -> None:
    fn, b = _function(module, "tilecraft_pool_worker", VOID, [PTR])
    pool = fn.args[0]
    f = _Fields(b, pool)
    seen = b.alloca(I64)
    b.store(f.load(LAYOUT.generation, I64), seen)
    top = fn.append_basic_block("top")
    b.branch(top)

    b.position_at_end(top)
    b.call(libc.lock, [f.at(LAYOUT.mutex)])
    _wait_while(b, fn, libc, f, lambda: b.icmp_unsigned(
        "==", f.load(LAYOUT.generation, I64), b.load(seen, typ=I64)), LAYOUT.work_posted)
    generation = f.load(LAYOUT.generation, I64)
    b.store(generation, seen)
    job = _job(f)
    b.call(libc.unlock, [f.at(LAYOUT.mutex)])
    b.call(run_chunks, [pool, generation, *job])
    b.branch(top)


def _launch(module: ir.Module, libc: _Libc, run_chunks: ir.Function) -> None:
    fn, b = _function(module, "tilecraft_pool_launch", VOID,
                      [PTR, KERNEL, PTR, I32, I32, I32, I64, I64, PTR, I64])
    pool, kernel, args, gx, gy, gz, first, programs, ctx, chunks = fn.args
    f = _Fields(b, pool)
    b.call(libc.lock, [f.at(LAYOUT.mutex)])
    f.store(LAYOUT.function, kernel)
    f.store(LAYOUT.args, args)
    for d, size in enumerate((gx, gy, gz)):
        f.store(LAYOUT.grid + 4 * d, size)
    f.store(LAYOUT.first, first)
    f.store(LAYOUT.programs, programs)
    f.store(LAYOUT.ctx, ctx)
    f.store(LAYOUT.chunks, chunks)
    generation = b.add(f.load(LAYOUT.generation, I64), ir.Constant(I64, 1))
    f.store(LAYOUT.generation, generation)
    # atomic stores (exchanges: llvmlite stores atomically only through typed pointers)
    b.atomic_rmw("xchg", f.at(LAYOUT.done), ir.Constant(I64, 0), "seq_cst")
    b.atomic_rmw("xchg", f.at(LAYOUT.next_chunk), b.shl(generation, ir.Constant(I64, 32)),
                 "seq_cst")
    b.call(libc.broadcast, [f.at(LAYOUT.work_posted)])
    b.call(libc.unlock, [f.at(LAYOUT.mutex)])
    b.call(run_chunks, [pool, generation, kernel, args, gx, gy, gz, first, programs, ctx,
                        chunks])
    b.call(libc.lock, [f.at(LAYOUT.mutex)])
    _wait_while(b, fn, libc, f, lambda: b.icmp_signed(
        "<", b.load_atomic(f.at(LAYOUT.done), "seq_cst", 8, typ=I64), chunks), LAYOUT.work_done)
    b.call(libc.unlock, [f.at(LAYOUT.mutex)])
    b.ret_void()
