"""The shared-memory allocation: live buffers never overlap, dead ones are reused, sizes follow
Triton's rules, calls reserve their callee's memory."""

from __future__ import annotations

import itertools

from tilecraft.analysis.allocation import Buffer, FunctionAllocation, ModuleAllocation

from .util import func, op_named, parse

HEAD = """
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
"""


def _alloc(text: str) -> tuple[object, ModuleAllocation]:
    module = parse(HEAD + text + "\n}")
    return module, ModuleAllocation(module)


def _assert_no_overlap(data: FunctionAllocation) -> None:
    for x, y in itertools.combinations(data.buffers, 2):
        if data.ranges[x].intersects(data.ranges[y]):
            assert not x.interval.intersects(y.interval), (x, y)
    assert data.interference_graph().number_of_edges() == 0


def _buffer(module, data: FunctionAllocation, name: str) -> Buffer:
    return data.value_buffer[op_named(module, name).results[0]]


def test_live_buffers_do_not_overlap_and_dead_ones_are_reused() -> None:
    module, allocation = _alloc("""
tt.func @f() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable> loc("a")
  %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable> loc("b")
  %c = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #sh, #smem, mutable> loc("c")
  ttg.local_dealloc %a : !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
  %d = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable> loc("d")
  ttg.local_dealloc %b : !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
  ttg.local_dealloc %c : !ttg.memdesc<16x32xf16, #sh, #smem, mutable>
  ttg.local_dealloc %d : !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
  tt.return
}""")
    data = allocation.of(func(module, "f"))
    _assert_no_overlap(data)
    a, d = _buffer(module, data, "a"), _buffer(module, data, "d")
    assert (a.size, _buffer(module, data, "b").size, _buffer(module, data, "c").size) == \
        (4096, 2048, 1024)
    assert a.offset == d.offset  # %d takes the place of the dead %a
    assert data.shared_memory_size == 4096 + 2048 + 1024
    assert allocation.shared_memory_size == data.shared_memory_size


def test_carried_buffers_alias_their_allocations() -> None:
    module, allocation = _alloc("""
tt.func @f(%lb: index, %ub: index, %st: index) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("a")
  %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("b")
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%x = %a, %y = %b) -> (!ttg.memdesc<16x16xf16, #sh, #smem, mutable>, !ttg.memdesc<16x16xf16, #sh, #smem, mutable>) {
    scf.yield %y, %x : !ttg.memdesc<16x16xf16, #sh, #smem, mutable>, !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  } loc("loop")
  %c = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("c")
  %v = ttg.local_load %r#0 : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}""")
    data = allocation.of(func(module, "f"))
    loop = op_named(module, "loop")
    a, b = op_named(module, "a").results[0], op_named(module, "b").results[0]
    assert data.aliases[loop.results[0]] == {a, b}
    # both stay live until the load of the loop's result: %c gets its own bytes
    _assert_no_overlap(data)
    assert data.shared_memory_size == 3 * 512


def test_scratch_sizes_and_alignment() -> None:
    module, allocation = _alloc("""
tt.func @f(%t: tensor<16x16xf16, #blk>, %p: !tt.ptr<i32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = "tt.reduce"(%t) ({
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    tt.reduce.return %s : f16
  }) {axis = 0 : i32} : (tensor<16x16xf16, #blk>) -> tensor<16xf16, #ttg.slice<{dim = 0, parent = #blk}>> loc("reduce")
  %q = "tt.reduce"(%t) ({
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    tt.reduce.return %s : f16
  }) {axis = 1 : i32} : (tensor<16x16xf16, #blk>) -> tensor<16xf16, #ttg.slice<{dim = 1, parent = #blk}>> loc("reduce_in_warp")
  %n = ttg.local_alloc : () -> !ttg.memdesc<1x64xi8, #nv, #smem, mutable> loc("nvmma")
  %o = tt.atomic_cas acq_rel, gpu, %p, %c0, %c0 : (!tt.ptr<i32>, i32, i32) -> i32 loc("cas")
  tt.return %o : i32
}""")
    data = allocation.of(func(module, "f"))
    assert data.op_scratch(op_named(module, "reduce")).size == 4 * 16 * 2  # 4 warps x 16 cols
    assert data.op_scratch(op_named(module, "reduce_in_warp")) is None
    assert data.op_scratch(op_named(module, "cas")).size == 4
    nvmma = _buffer(module, data, "nvmma")
    assert nvmma.alignment == 1024 and nvmma.offset % 1024 == 0
    for buffer in data.op_buffer.values():
        assert buffer.offset % 128 == 0
    _assert_no_overlap(data)


def test_call_reserves_callee_memory() -> None:
    module, allocation = _alloc("""
tt.func @callee() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #sh, #smem, mutable>
  tt.return
}
tt.func @caller() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("a")
  tt.call @callee() : () -> () loc("call")
  %v = ttg.local_load %a : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}""")
    data = allocation.of(func(module, "caller"))
    virtual = data.op_scratch(op_named(module, "call"))
    assert virtual.kind == "virtual" and virtual.size == 1024
    _assert_no_overlap(data)
    assert allocation.shared_memory_size == data.shared_memory_size == 1536


def test_warp_specialize_buffers() -> None:
    module, allocation = _alloc("""
tt.func @f(%x: i64, %b: i1) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("a")
  ttg.warp_specialize(%a, %x, %b)
  default {
    ttg.warp_yield
  }
  partition0(%m: !ttg.memdesc<16x16xf16, #sh, #smem, mutable>, %y: i64, %c: i1) num_warps(4) {
    %p = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("p")
    ttg.warp_return
  }
  partition1(%m: !ttg.memdesc<16x16xf16, #sh, #smem, mutable>, %y: i64, %c: i1) num_warps(2) {
    %q = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable> loc("q")
    ttg.warp_return
  } : (!ttg.memdesc<16x16xf16, #sh, #smem, mutable>, i64, i1) -> () loc("ws")
  tt.return
}""")
    fn = func(module, "f")
    data = allocation.of(fn)
    captures = data.op_scratch(op_named(module, "ws"))
    assert (captures.size, captures.alignment) == (8 + 2 * 4 + 8 + 1, 8)
    warp_indices = data.op_scratch(fn)
    assert (warp_indices.size, warp_indices.alignment) == (6, 4)
    # the partitions' buffers are never live together, but their regions run concurrently
    p, q = _buffer(module, data, "p"), _buffer(module, data, "q")
    assert not data.ranges[p].intersects(data.ranges[q])
    assert not p.interval.intersects(q.interval)
    # the partition arguments alias the captured buffer
    partitions = op_named(module, "ws").regions[1].blocks[0].first_op
    for region in partitions.regions:
        assert data.buffers_of(region.blocks[0].arguments[0]) == [_buffer(module, data, "a")]
    _assert_no_overlap(data)
