"""Barrier insertion: RAW/WAR hazards get one barrier right before the second access; loops,
branches, scratch buffers and existing barriers are taken into account."""

from __future__ import annotations

from tilecraft.analysis.allocation import Interval
from tilecraft.analysis.membar import ModuleMembar, Slice

from .util import op_named, parse

HEAD = """
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
"""


def _barriers_before(text: str) -> tuple[object, list[str]]:
    """The names (``loc``) of the ops that got a barrier right before them."""
    module = parse(HEAD + text + "\n}")
    barriers = ModuleMembar(module).run()
    names = [str(b.next_op.location.name) for b in barriers if b.next_op is not None]
    return module, names


def test_raw_and_war() -> None:
    _, names = _barriers_before("""
tt.func @f(%t: tensor<32x32xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<32x32xf16, #blk> -> !md loc("store")
  %v = ttg.local_load %a : !md -> tensor<32x32xf16, #blk> loc("load")
  %w = ttg.local_load %a : !md -> tensor<32x32xf16, #blk> loc("load2")
  ttg.local_store %v, %a : tensor<32x32xf16, #blk> -> !md loc("store2")
  tt.return
}""")
    assert names == ["load", "store2"]  # no barrier between the two reads


def test_loop_back_edge_and_no_duplicate_barrier() -> None:
    module, names = _barriers_before("""
tt.func @f(%t: tensor<32x32xf16, #blk>, %lb: index, %ub: index, %st: index) {
  %a = ttg.local_alloc : () -> !md
  scf.for %i = %lb to %ub step %st {
    %v = ttg.local_load %a : !md -> tensor<32x32xf16, #blk> loc("load")
    ttg.local_store %v, %a : tensor<32x32xf16, #blk> -> !md loc("store")
  }
  tt.return
}""")
    assert sorted(names) == ["load", "store"]
    # running again finds the barriers already there
    assert ModuleMembar(module).run() == []


def test_scratch_conflicts_with_live_buffer_reuse() -> None:
    _, names = _barriers_before("""
tt.func @f(%t: tensor<32x32xf16, #blk>) {
  %a = ttg.local_alloc %t : (tensor<32x32xf16, #blk>) -> !ttg.memdesc<32x32xf16, #sh, #smem> loc("alloc")
  %v = ttg.local_load %a : !ttg.memdesc<32x32xf16, #sh, #smem> -> tensor<32x32xf16, #blk> loc("load")
  %c = ttg.convert_layout %v : tensor<32x32xf16, #blk> -> tensor<32x32xf16, #row> loc("cvt")
  tt.return
}""")
    # the scratch of the conversion reuses the dead buffer's bytes: write after read
    assert names == ["load", "cvt"]


def test_disjoint_branches_need_no_barrier() -> None:
    _, names = _barriers_before("""
tt.func @f(%t: tensor<32x32xf16, #blk>, %c: i1) {
  %a = ttg.local_alloc : () -> !md
  scf.if %c {
    ttg.local_store %t, %a : tensor<32x32xf16, #blk> -> !md
  } else {
    ttg.local_store %t, %a : tensor<32x32xf16, #blk> -> !md
  }
  ttg.local_dealloc %a : !md
  tt.return
}""")
    assert names == []


def test_slices_of_disjoint_boxes_do_not_intersect() -> None:
    whole = Interval(0, 2048)
    top = Slice(whole, (0, 0), (16, 32), "enc")
    bottom = Slice(whole, (16, 0), (16, 32), "enc")
    left = Slice(whole, (0, 0), (32, 16), "enc")
    assert not top.intersects(bottom)
    assert top.intersects(left) and bottom.intersects(left)
    # unknown boxes, other layouts and other intervals
    assert top.intersects(Slice(whole)) and Slice(whole).intersects(bottom)
    assert top.intersects(Slice(whole, (16, 0), (16, 32), "other"))
    assert not Slice(Interval(0, 16)).intersects(Slice(Interval(16, 32)))
    assert bottom.shifted(64).interval == Interval(64, 2112)
