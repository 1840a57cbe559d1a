"""`tt` IR to LLVM IR for the host.

A kernel (`tt.func`, after the tile passes have inlined its calls) becomes

* ``@<name>.program(ptr args, i32 pid_x, pid_y, pid_z, i32 gx, gy, gz, ptr ctx)``: one program,
  its arguments read from 8-byte slots at ``args``;
* ``@<name>.grid(ptr args, i32 gx, gy, gz, i64 begin, i64 end, ptr ctx)``: the programs with
  linear ids in ``[begin, end)``, stopping early when the i32 abort flag at ``ctx`` is set (a
  failed ``device_assert``). The runtime calls it from several threads over slices of the grid.

Scalars become LLVM values; tensors become `Tile`s (see `tiles`): element-wise ops build
expressions, and loops are emitted only where a value must be stored or memory touched. Each op
name maps to a lowering function registered with `lowers`; the functions live in the modules
named after what they lower (`elementwise`, `shapes`, `memory`, `control`, `reductions`, `dot`,
`atomics`, `debug`). The last four are imported when a kernel first has an op none of the
others lowers (most kernels have no dot, reduction, atomic or debug op).
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Callable, Iterator, Sequence

import llvmlite.ir as ir

from tilecraft.analysis.axisinfo import AxisInfoAnalysis
from tilecraft.frontend.errors import CompilationError
from tilecraft.ir import Block, Operation, RankedTensorType, Value

from . import mathlib
from . import types as T
from .tiles import (I32, I64, BufferTile, ExprTile, MappedTile, Tile, index_plus, index_times,
                    splat)

Lowering = Callable[["FunctionLowering", Operation], None]
LOWERINGS: dict[str, Lowering] = {}

# The global holding the AMX tile configuration of a module whose dots use AMX tiles (`dot_amx`):
# its grid function configures the tiles before its programs and releases them after.
AMX_TILE_CONFIG = "tilecraft.amx_tile_config"
# A module flag: the kernel streams some of its stores (`streaming`); its grid function then
# ends with a fence.
STREAMING_FLAG = "tilecraft.streams"

# An expression used by more than one consumer is stored once it costs this many instructions
# per element (recomputing a few adds is cheaper than a round trip through memory).
MATERIALIZE_COST = 6
# A 1-D expression stored at this many instructions per element or more (softmax's
# exponential) prefetches what the next program reads, `PREFETCH_STRIP` elements per strip
# (`next_program`).
PREFETCHING_LOOP_COST = 10
PREFETCH_STRIP = 64
CACHE_LINE = 64


def lowers(*names: str) -> Callable[[Lowering], Lowering]:
    """Registers the decorated function as the lowering of the ops ``names``."""

    def register(fn: Lowering) -> Lowering:
        for name in names:
            LOWERINGS[name] = fn
        return fn

    return register


def error_at(op: Operation, message: str) -> CompilationError:
    """A `CompilationError` at ``op``'s source line (the kernel's Python line)."""
    loc, source = op.location.diagnostic_position()
    return CompilationError(message, loc, source)


class KernelInfo:
    """What the runtime needs besides the code: argument kinds and debug-op tables."""

    __slots__ = ("name", "arg_kinds", "prints", "asserts")

    def __init__(self, name: str, arg_kinds: list[str], prints: list[dict] | None = None,
                 asserts: list[dict] | None = None) -> None:
        self.name = name
        self.arg_kinds = arg_kinds
        self.prints: list[dict] = [] if prints is None else prints
        self.asserts: list[dict] = [] if asserts is None else asserts

    @property
    def grid_symbol(self) -> str:
        return f"{self.name}.grid"


class FunctionLowering:
    """The state of lowering one `tt.func` into an LLVM function: the builder, the map from
    IR values to LLVM values or tiles, and the loop and buffer helpers lowerings use."""

    # whether f16 and bf16 convert with LLVM's fpext/fptrunc (true on the GPU, where they are
    # single instructions); the CPU emulates them with integer operations, which need no
    # libcalls
    native_half = False
    # whether floating-point multiplies and adds may be contracted into fused multiply-adds
    # (the GPU's `enable_fp_fusion` option, on by default as in Triton)
    fp_fusion = False

    def __init__(self, module: ir.Module, func: ir.Function, info: KernelInfo,
                 axis_info: AxisInfoAnalysis | None = None) -> None:
        self.module = module
        self.func = func
        self.info = info
        # contiguity, divisibility and constancy of the kernel's values (vector loads, loops
        # that carry a tensor advanced by a uniform step)
        self.axis_info = axis_info
        entry = func.append_basic_block("entry")
        self.alloca_builder = ir.IRBuilder(entry)
        body = func.append_basic_block("body")
        self.alloca_builder.branch(body)
        self.alloca_builder.position_at_start(entry)
        self.builder = ir.IRBuilder(body)
        self.values: dict[Value, object] = {}
        self._memo: list[dict] = [{}]
        self.pid: tuple[ir.Value, ...] = ()
        self.grid: tuple[ir.Value, ...] = ()
        self.ctx: ir.Value | None = None
        self.reduction_depth = 0
        self._loops = 0  # loops emitted so far
        self._holding: list[Tile] = []
        self._splitting = False  # lowering the two versions of a block's tail (`lower_ops`)
        # buffers written more than once: the storage of values carried along control flow
        self.carrier_roots: set[ir.Value] = set()
        # what the next program reads, to prefetch (`prefetch_next_read`): what emits the first
        # address, the bytes, and the memo scope of the load
        self._next_reads: list[tuple[Callable[[], ir.Value], int, dict]] = []

    # -- values
    def get(self, value: Value):
        try:
            return self.values[value]
        except KeyError:
            raise AssertionError(f"value {value} used before it was lowered") from None

    def tile(self, value: Value) -> Tile:
        """The tile of a tensor value."""
        lowered = self.get(value)
        if not isinstance(lowered, Tile):
            raise AssertionError(f"expected a tensor for {value}")
        return lowered

    def set(self, value: Value, lowered) -> None:
        """Record ``lowered`` for ``value``; a costly expression with several consumers (or one
        inside a loop nested below its definition) is stored first."""
        if isinstance(lowered, (ExprTile, MappedTile)) and lowered.cost >= MATERIALIZE_COST \
                and _consumer_count(value) > 1:
            lowered = self.materialize(lowered)
        self.values[value] = lowered

    # -- ops and blocks
    def lower_op(self, op: Operation) -> None:
        lowering = LOWERINGS.get(op.name)
        if lowering is None:
            for module in ("reductions", "dot", "atomics", "debug"):
                importlib.import_module(f"{__package__}.{module}")
            lowering = LOWERINGS.get(op.name)
        if lowering is None:
            raise error_at(op, f"the CPU backend cannot lower '{op.name}'")
        try:
            lowering(self, op)
        except T.UnsupportedType as error:
            raise error_at(op, str(error)) from None

    def lower_block(self, block: Block, args: Sequence) -> list:
        """Lower ``block``'s ops with its arguments bound to ``args``; returns the lowered
        operands of its terminator (which is not lowered)."""
        for arg, value in zip(block.arguments, args):
            self.values[arg] = value
        ops = list(block)
        if not ops:
            return []
        *body, terminator = ops
        self.lower_ops(body, terminator.name in _PLAIN_ENDS and not terminator.operands)
        if not _is_terminator(terminator):
            self.lower_op(terminator)
            return []
        return [self.get(v) for v in terminator.operands]

    def lower_ops(self, ops: Sequence[Operation], split: bool) -> None:
        """Lowers ``ops`` in order. Where ``split`` (the block ends with them, and nothing after
        reads their values), the rest of them from a masked load that `memory.tail_mask` picks
        is lowered twice: once taking every element of its mask as true, for the programs where
        it all holds (all but the last of a grid over ``offsets < n``), so that the loads and
        stores under that mask need no per-element checks; once as it is."""
        for index, op in enumerate(ops):
            if split and self._split_at(ops, index):
                return
            self.lower_op(op)

    def _split_at(self, ops: Sequence[Operation], start: int) -> bool:
        from .memory import tail_mask  # (memory's lowerings import this module)

        if self._splitting:
            return False
        found = tail_mask(self, ops, start)
        if found is None:
            return False
        mask, holds = found
        tail = ops[start:]

        def lower_tail() -> None:
            for op in tail:
                self.lower_op(op)

        def unmasked() -> None:
            with self.assuming(mask):
                lower_tail()

        self._splitting = True
        try:
            self.if_else(holds, unmasked, lower_tail)
        finally:
            self._splitting = False
        return True

    def intrinsic(self, name: str, result: ir.Type, params: list) -> ir.Function:
        """The LLVM intrinsic ``name`` overloaded on ``result`` and ``params`` (mangled as LLVM
        does: ``llvm.fptosi.sat.i32.f32``), declared once per module."""
        full = intrinsic_name(name, result, params)
        existing = self.module.globals.get(full)
        if existing is None:
            existing = ir.Function(self.module, ir.FunctionType(result, params), full)
        return existing

    def math(self, name: str, args: list) -> ir.Value:
        """The math function ``name`` (`mathlib.MATH_FUNCTIONS`) of scalar ``args``."""
        return mathlib.emit_math(self.builder, name, args)

    # -- memory
    def alloca(self, ty: ir.Type, count: int = 1, name: str = "") -> ir.Value:
        """Stack memory in the function's entry block (so loops reuse it)."""
        slot = self.alloca_builder.alloca(ty, ir.Constant(I64, count) if count != 1 else None,
                                          name=name)
        slot.align = 64 if count > 1 else None
        return slot

    def new_buffer(self, shape: Sequence[int], ty: ir.Type) -> BufferTile:
        """A fresh row-major stack buffer for elements of register type ``ty``."""
        storage = T.I8 if ty == T.I1 else ty
        numel = 1
        for size in shape:
            numel *= size
        return BufferTile(self.alloca(storage, max(numel, 1)), shape, ty)

    def store_element(self, buffer: BufferTile, idx, value: ir.Value) -> None:
        self.builder.store(T.to_buffer(self, value), self.buffer_pointer(buffer, idx))

    def load_element(self, buffer: BufferTile, idx) -> ir.Value:
        storage = T.I8 if buffer.ty == T.I1 else buffer.ty
        raw = self.builder.load(self.buffer_pointer(buffer, idx), typ=storage)
        return T.from_buffer(self, raw, buffer.ty)

    def load_vector(self, buffer: BufferTile, idx, lanes: int) -> ir.Value:
        """``lanes`` consecutive elements of a buffer whose last stride is 1, from ``idx`` on."""
        return self.builder.load(self.buffer_pointer(buffer, idx),
                                 typ=ir.VectorType(buffer.ty, lanes), align=T.byte_size(buffer.ty))

    def store_vector(self, buffer: BufferTile, idx, value: ir.Value) -> None:
        """Stores the vector ``value`` into consecutive elements of ``buffer`` from ``idx`` on."""
        # built directly: `IRBuilder.store` refuses a vector through the element-typed pointer
        # that llvmlite gives a stack buffer (LLVM's own pointers are opaque)
        store = ir.instructions.StoreInstr(self.builder.block, value,
                                           self.buffer_pointer(buffer, idx))
        store.align = T.byte_size(buffer.ty)
        self.builder._insert(store)

    def buffer_pointer(self, buffer: BufferTile, idx) -> ir.Value:
        storage = T.I8 if buffer.ty == T.I1 else buffer.ty
        offset = self.linear_index(idx, buffer.strides)
        return self.builder.gep(buffer.ptr, [self.builder.zext(offset, I64)],
                                source_etype=storage, inbounds=True)

    def materialize(self, tile: Tile, into: BufferTile | None = None) -> BufferTile:
        """``tile`` stored in a buffer (``into``, or a new one): one loop nest over its shape,
        which prefetches what the next program reads (`prefetch_next_read`) where ``tile`` is
        a costly 1-D expression."""
        if into is None and isinstance(tile, BufferTile):
            return tile
        target = into if into is not None else self.new_buffer(tile.shape, tile.ty)

        def body(idx: tuple) -> None:
            self.store_element(target, idx, tile.emit(self, idx))

        dims = [d for d, size in enumerate(tile.shape) if size != 1]
        if len(dims) == 1 and isinstance(tile, ExprTile) and \
                tile.cost >= PREFETCHING_LOOP_COST and self._next_reads:
            self._prefetching_loop(tile.shape, dims[0], body)
        else:
            self.loop_nest(tile.shape, body)
        return target

    def prefetch_next_read(self, address: Callable[[], ir.Value], size: int) -> None:
        """Has the next costly 1-D loop that `materialize` emits in the current scope prefetch
        the ``size`` bytes from the address that ``address()`` emits (there, before the loop)
        on, a few lines at a time (`next_program`)."""
        self._next_reads.append((address, size, self._memo[-1]))

    def _prefetching_loop(self, shape: Sequence[int], dim: int,
                          body: Callable[[tuple], None]) -> None:
        """``body`` over every index of ``shape`` (larger than 1 along ``dim`` only), in
        strips of `PREFETCH_STRIP` indices that each prefetch their share of the lines of the
        pending next reads (those whose address this scope sees; the others are dropped)."""
        reads = [(address(), size) for address, size, scope in self._next_reads
                 if any(scope is open_scope for open_scope in self._memo)]
        self._next_reads = []
        strips = shape[dim] // PREFETCH_STRIP if shape[dim] % PREFETCH_STRIP == 0 else 1
        strip = shape[dim] // strips
        b = self.builder
        with self.loop(strips) as s:
            for address, size in reads:
                lines = size // CACHE_LINE + 1  # (the row may start inside a line)
                per_strip = -(-lines // strips)
                first = b.mul(b.zext(s, I64), ir.Constant(I64, per_strip * CACHE_LINE))
                for k in range(per_strip):
                    offset = b.add(first, ir.Constant(I64, k * CACHE_LINE))
                    prefetch(self, b.gep(address, [offset], source_etype=T.I8))
            start = b.mul(s, ir.Constant(I32, strip), flags=("nuw", "nsw"))
            with self.loop(strip) as i:
                idx = [ir.Constant(I32, 0)] * len(shape)
                idx[dim] = b.add(start, i, flags=("nuw", "nsw"))
                body(tuple(idx))

    # -- index arithmetic
    def linear_index(self, idx, strides: Sequence[int]) -> ir.Value:
        b = self.builder
        total = None
        for i, stride in zip(idx, strides):
            if stride == 0 or (isinstance(i, ir.Constant) and i.constant == 0):
                continue
            term = i if stride == 1 else b.mul(i, ir.Constant(I32, stride), flags=("nuw", "nsw"))
            total = term if total is None else b.add(total, term, flags=("nuw", "nsw"))
        return total if total is not None else ir.Constant(I32, 0)

    # -- loops and branches
    @contextlib.contextmanager
    def loop(self, count: int | ir.Value, start: int = 0,
             interleave: bool = True) -> Iterator[ir.Value]:
        """``for (i = start; i < count; ++i)`` over i32; ``count`` > ``start`` when constant.
        An innermost loop with a long floating-point body asks LLVM to interleave vectors
        (`INTERLEAVED_VECTORS`) unless ``interleave`` is false."""
        b = self.builder
        pre = b.block
        head = b.append_basic_block("loop")
        exit_ = b.append_basic_block("loop.end")
        if isinstance(count, int):
            b.branch(head)
        else:
            b.cbranch(b.icmp_signed("<", ir.Constant(I32, start), count), head, exit_)
        b.position_at_end(head)
        iv = b.phi(I32, name="i")
        iv.add_incoming(ir.Constant(I32, start), pre)
        self._loops += 1
        serial = self._loops  # still the last loop after the body: no loop nested in it
        self._memo.append({})
        try:
            yield iv
        finally:
            self._memo.pop()
        nxt = b.add(iv, ir.Constant(I32, 1), flags=("nuw", "nsw"))
        bound = ir.Constant(I32, count) if isinstance(count, int) else count
        iv.add_incoming(nxt, b.block)
        latch = b.cbranch(b.icmp_signed("<", nxt, bound), head, exit_)
        if interleave and serial == self._loops and _long_body(head, exit_):
            latch.set_metadata("llvm.loop", _interleaved(self.module))
        b.position_at_end(exit_)

    def strided(self, count: int, step: int, body: Callable[[ir.Value], None],
                start: int = 0) -> None:
        """``body(start + step * i)`` for ``i`` in ``range(count)``, in a loop when ``count >
        1``."""
        if count <= 0:
            return
        if count == 1:
            body(ir.Constant(I32, start))
            return
        with self.loop(count) as i:
            at = index_times(self.builder, i, step)
            body(index_plus(self.builder, at, start))

    def loop_nest(self, shape: Sequence[int], body: Callable[[tuple], None],
                  limit: tuple[int, ir.Value] | None = None) -> None:
        """Calls ``body(idx)`` inside loops over every index of ``shape`` (row-major; dims of
        size 1 get no loop). Up to two dims get a loop each; more (the [2, 2, ..., 2] shapes of
        bitonic sorts) share one loop over their linear index, with the innermost dim kept
        apart when it is wide enough to vectorize, so LLVM does not unroll deep nests. A
        ``limit`` ``(d, count)`` runs dim ``d`` (larger than 1, of at most two such dims)
        over its first ``count`` indices only (an i32 value, at most its size)."""
        shape = tuple(shape)
        zero = ir.Constant(I32, 0)
        active = [d for d, size in enumerate(shape) if size != 1]
        bounds: list[int | ir.Value] = list(shape)
        if limit is not None:
            if len(active) > 2 or limit[0] not in active:
                raise ValueError(f"a loop nest over {shape} takes no limit on dim {limit[0]}")
            bounds[limit[0]] = limit[1]
        if len(active) <= 2:
            idx = [zero] * len(shape)

            def nest(position: int) -> None:
                if position == len(active):
                    body(tuple(idx))
                    return
                with self.loop(bounds[active[position]]) as iv:
                    idx[active[position]] = iv
                    nest(position + 1)

            nest(0)
            return
        inner = active[-1] if shape[active[-1]] >= 8 else None
        flat = [d for d in active if d != inner]
        count = 1
        for d in flat:
            count *= shape[d]
        with self.loop(count) as linear:
            idx = [zero] * len(shape)
            step = 1
            for d in reversed(flat):
                quotient = self.builder.udiv(linear, ir.Constant(I32, step)) if step > 1 \
                    else linear
                idx[d] = self.builder.urem(quotient, ir.Constant(I32, shape[d])) \
                    if step * shape[d] < count else quotient
                step *= shape[d]
            if inner is None:
                body(tuple(idx))
                return
            with self.loop(shape[inner]) as iv:
                idx[inner] = iv
                body(tuple(idx))

    @contextlib.contextmanager
    def if_then(self, condition: ir.Value) -> Iterator[None]:
        """Code emitted inside runs only when ``condition`` (i1) holds."""
        b = self.builder
        then = b.append_basic_block("if.then")
        merge = b.append_basic_block("if.end")
        b.cbranch(condition, then, merge)
        b.position_at_end(then)
        self._memo.append({})
        try:
            yield
        finally:
            self._memo.pop()
        b.branch(merge)
        b.position_at_end(merge)

    def if_else(self, condition: ir.Value, then: Callable[[], None],
                otherwise: Callable[[], None]) -> None:
        """Emits ``then()`` on the branch where ``condition`` (i1) holds, ``otherwise()`` on the
        other."""
        b = self.builder
        blocks = b.append_basic_block("if.then"), b.append_basic_block("if.else")
        merge = b.append_basic_block("if.end")
        b.cbranch(condition, *blocks)
        for block, emit in zip(blocks, (then, otherwise)):
            b.position_at_end(block)
            with self.new_memo_scope():
                emit()
            b.branch(merge)
        b.position_at_end(merge)

    @contextlib.contextmanager
    def assuming(self, mask: Tile) -> Iterator[None]:
        """Code emitted inside may take every element of the i1 tile ``mask`` as true (the
        caller checked it): masked loads and stores under it become plain ones."""
        self._holding.append(mask)
        try:
            yield
        finally:
            self._holding.pop()

    def holds(self, mask: Tile | None) -> bool:
        """Whether every element of ``mask`` is known to be true here (see `assuming`)."""
        return any(mask is held for held in self._holding)

    def select_or_default(self, condition: ir.Value, compute: Callable[[], ir.Value],
                          default: Callable[[], ir.Value]) -> ir.Value:
        """``condition ? compute() : default()`` with ``compute`` emitted only on its branch
        (a guarded load); LLVM if-converts it to a masked vector operation."""
        b = self.builder
        start = b.block
        then = b.append_basic_block("sel.then")
        merge = b.append_basic_block("sel.end")
        fallback = default()
        b.cbranch(condition, then, merge)
        b.position_at_end(then)
        self._memo.append({})
        try:
            value = compute()
        finally:
            self._memo.pop()
        then_end = b.block
        b.branch(merge)
        b.position_at_end(merge)
        phi = b.phi(value.type)
        phi.add_incoming(value, then_end)
        phi.add_incoming(fallback, start)
        return phi

    # -- expression memo (per loop body and branch)
    def memo_get(self, key):
        for scope in reversed(self._memo):
            found = scope.get(key)
            if found is not None:
                return found[0]
        return None

    def memo_put(self, key, value: ir.Value, *alive: object) -> None:
        """Remembers ``value`` under ``key`` in the current scope. Keys may hold ``id()``s of
        the objects in ``alive``: the entry keeps them alive, so that no other object takes
        one of those ids while the entry can be found."""
        self._memo[-1][key] = (value, alive)

    def new_memo_scope(self) -> contextlib.AbstractContextManager:
        @contextlib.contextmanager
        def scope():
            self._memo.append({})
            try:
                yield
            finally:
                self._memo.pop()

        return scope()

    # -- scalars as tiles
    def as_tile(self, value: Value) -> Tile:
        """A tensor's tile, or a scalar splatted to shape ``()``."""
        lowered = self.get(value)
        if isinstance(lowered, Tile):
            return lowered
        return splat(lowered, ())


PROGRAM_ARGS = ("args", "pid_x", "pid_y", "pid_z", "grid_x", "grid_y", "grid_z", "ctx")
GRID_ARGS = ("args", "grid_x", "grid_y", "grid_z", "begin", "end", "ctx")


def lower_kernel(module_op: Operation) -> tuple[ir.Module, KernelInfo]:
    """The LLVM module of the kernel in ``module_op`` (a `builtin.module` holding one public
    `tt.func` once calls are inlined) and what the runtime needs to launch it."""
    from . import control, elementwise, memory, shapes  # noqa: F401 (their lowerings)

    funcs = [op for op in module_op.regions[0].blocks[0] if op.name == "tt.func"]
    kernels = [f for f in funcs if f.sym_visibility != "private"] or funcs
    if not kernels:
        raise CompilationError("no tt.func to compile in the module")
    kernel = kernels[0]
    name = kernel.sym_name
    arg_types = list(kernel.function_type.inputs)
    info = KernelInfo(name, [T.arg_kind(t) for t in arg_types])
    module = ir.Module(name=name)
    program_ty = ir.FunctionType(ir.VoidType(), [T.PTR, I32, I32, I32, I32, I32, I32, T.PTR])
    program = ir.Function(module, program_ty, f"{name}.program")
    program.linkage = "internal"
    for arg, arg_name in zip(program.args, PROGRAM_ARGS):
        arg.name = arg_name
    fl = FunctionLowering(module, program, info, AxisInfoAnalysis(module_op))
    fl.pid, fl.grid, fl.ctx = tuple(program.args[1:4]), tuple(program.args[4:7]), program.args[7]
    args = [_load_argument(fl, program.args[0], index, t) for index, t in enumerate(arg_types)]
    from .control import lower_region

    lower_region(fl, kernel.body, args)
    if not fl.builder.block.is_terminated:
        fl.builder.ret_void()
    _grid_function(module, program, info)
    return module, info


def _load_argument(fl: FunctionLowering, slots: ir.Value, index: int, t) -> ir.Value:
    """Argument ``index`` from its 8-byte slot (see `KernelInfo.arg_kinds`)."""
    b = fl.builder
    slot = b.gep(slots, [ir.Constant(I64, 8 * index)], source_etype=T.I8, inbounds=True)
    ty = T.reg_type(t)
    if ty == T.I1:
        return b.trunc(b.load(slot, typ=T.I8), T.I1)
    value = b.load(slot, typ=ty)
    return T.round_narrow(fl, value, t)


def _grid_function(module: ir.Module, program: ir.Function, info: KernelInfo) -> None:
    """``@<name>.grid``: runs the programs with linear ids in [begin, end) (between loading
    and releasing the AMX tile configuration when the programs use AMX tiles, and then a fence
    when they stream stores)."""
    ty = ir.FunctionType(ir.VoidType(), [T.PTR, I32, I32, I32, I64, I64, T.PTR])
    grid = ir.Function(module, ty, info.grid_symbol)
    for arg, arg_name in zip(grid.args, GRID_ARGS):
        arg.name = arg_name
    args, gx, gy, gz, begin, end, ctx = grid.args
    b = ir.IRBuilder(grid.append_basic_block("entry"))
    loop = grid.append_basic_block("program")
    done = grid.append_basic_block("done")
    tile_config = module.globals.get(AMX_TILE_CONFIG)
    if tile_config is not None:
        from .dot_amx import configure_tiles

        configure_tiles(b, tile_config)
    b.cbranch(b.icmp_signed("<", begin, end), loop, done)
    b.position_at_end(loop)
    linear = b.phi(I64, name="linear")
    linear.add_incoming(begin, grid.entry_basic_block)
    gx64, gy64 = b.zext(gx, I64), b.zext(gy, I64)
    rest = b.udiv(linear, gx64)
    pid_x = b.trunc(b.urem(linear, gx64), I32)
    pid_y = b.trunc(b.urem(rest, gy64), I32)
    pid_z = b.trunc(b.udiv(rest, gy64), I32)
    b.call(program, [args, pid_x, pid_y, pid_z, gx, gy, gz, ctx])
    flag = b.load_atomic(ctx, "monotonic", 4, typ=I32)
    following = b.add(linear, ir.Constant(I64, 1))
    linear.add_incoming(following, b.block)
    go_on = b.and_(b.icmp_signed("<", following, end), b.icmp_unsigned("==", flag,
                                                                       ir.Constant(I32, 0)))
    b.cbranch(go_on, loop, done)
    b.position_at_end(done)
    if tile_config is not None:
        from .dot_amx import release_tiles

        release_tiles(b)
    if STREAMING_FLAG in module.globals:  # its non-temporal stores done before the runtime reads
        _store_fence(module, b)
    b.ret_void()


def _store_fence(module: ir.Module, b: ir.IRBuilder) -> None:
    """Orders the non-temporal stores before it before every later store: ``sfence`` on x86
    (LLVM's ``fence`` gives a locked instruction there), else a sequentially consistent
    fence."""
    if T.is_x86():
        intrinsic = module.globals.get("llvm.x86.sse.sfence")
        if intrinsic is None:
            intrinsic = ir.Function(module, ir.FunctionType(ir.VoidType(), []),
                                    "llvm.x86.sse.sfence")
        b.call(intrinsic, [])
    else:
        b.fence("seq_cst")


def prefetch(fl: FunctionLowering, pointer: ir.Value) -> None:
    """Asks the CPU to bring the line at ``pointer`` into its caches (a read, kept close)."""
    intrinsic = fl.module.globals.get("llvm.prefetch.p0")
    if intrinsic is None:
        intrinsic = ir.Function(fl.module, ir.FunctionType(ir.VoidType(), [T.PTR, I32, I32, I32]),
                                "llvm.prefetch.p0")
    fl.builder.call(intrinsic, [pointer, ir.Constant(I32, 0), ir.Constant(I32, 3),
                                ir.Constant(I32, 1)])


# An innermost loop whose body holds at least this many floating-point operations (`exp`'s
# alone holds 11 or 12) is vectorized four vectors at a time. LLVM's vectorizer interleaves only
# small bodies by itself, and a long one runs its iterations' dependency chains nearly one
# after another. On the 2-core CI-like machine (Zen 3, AVX2), in A/Bs within one process, the
# softmax of 256 x 4096 floats (an `exp` per element) took 1-7% less time with two vectors
# than with none, and four took 8-13% less than two (1.174 -> 1.075 and 1.052 -> 0.910 ms on
# one thread; 4096 rows on two threads 11.65 -> 9.42 ms); three took 24% more than two.
LONG_BODY_FLOAT_OPS = 10
INTERLEAVED_VECTORS = 4
_FLOAT_OPS = frozenset({"fadd", "fsub", "fmul", "fdiv", "fneg"})
_FLOAT_TYPES = (ir.FloatType(), ir.DoubleType())


class _LoopID(ir.values.MDValue):
    """A loop's ``llvm.loop`` metadata: distinct, its first operand itself, then the hints
    (llvmlite's metadata nodes cannot refer to themselves)."""

    def descr(self, buf: list) -> None:
        hints = ", ".join(hint.get_reference() for hint in self.operands)
        buf += (f"distinct !{{ {self.get_reference()}, {hints} }}", "\n")

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


def _interleaved(module: ir.Module) -> _LoopID:
    """A fresh loop ID asking LLVM to interleave `INTERLEAVED_VECTORS` vectors an iteration."""
    hint = module.add_metadata([ir.MetaDataString(module, "llvm.loop.interleave.count"),
                                ir.Constant(I32, INTERLEAVED_VECTORS)])
    return _LoopID(module, [hint], name=str(len(module.metadata)))


def _long_body(head: ir.Block, exit_: ir.Block) -> bool:
    """Whether the loop from ``head`` (whose body's blocks were appended after ``exit_``)
    holds `LONG_BODY_FLOAT_OPS` floating-point operations or more, counting the intrinsics that
    return a float (``fmuladd``, ``ldexp``...)."""
    blocks = head.function.blocks
    count = 0
    for block in [head, *blocks[blocks.index(exit_) + 1:]]:
        for instruction in block.instructions:
            if instruction.opname in _FLOAT_OPS:
                count += 1
            elif instruction.opname == "call" and instruction.type in _FLOAT_TYPES and \
                    getattr(instruction.callee, "name", "").startswith("llvm."):
                count += 1
    return count >= LONG_BODY_FLOAT_OPS


_CONVERSIONS = {"llvm.fptosi.sat", "llvm.fptoui.sat"}  # mangled by result and source types


def intrinsic_name(name: str, result: ir.Type, params: list) -> str:
    """The full name of the overloaded LLVM intrinsic ``name`` (``llvm.fptosi.sat.i32.f32``)."""
    overloads = [result, params[0]] if name in _CONVERSIONS else [result]
    return ".".join([name, *(_mangle(t) for t in overloads)])


def _mangle(ty: ir.Type) -> str:
    if isinstance(ty, ir.IntType):
        return f"i{ty.width}"
    if isinstance(ty, ir.FloatType):
        return "f32"
    if isinstance(ty, ir.DoubleType):
        return "f64"
    raise TypeError(f"no intrinsic overload for {ty}")


def _consumer_count(value: Value) -> int:
    """How many times a value is read, counting a read inside a loop nested below its
    definition as several."""
    count = 0
    home = value.parent_region
    for use in value.uses:
        count += 1
        user = use.owner
        if home is not None and user.parent_region is not home:
            count += 1
    return count


# The ops that end a block with nothing after them reading the block's values (when they take
# no operands).
_PLAIN_ENDS = ("tt.return", "scf.yield", "cf.br")


def _is_terminator(op: Operation) -> bool:
    return op.name in ("scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return")


def is_tensor(value: Value) -> bool:
    return isinstance(value.type, RankedTensorType)


__all__ = ["LOWERINGS", "lowers", "error_at", "FunctionLowering", "KernelInfo", "is_tensor",
           "lower_kernel", "I32", "I64"]
