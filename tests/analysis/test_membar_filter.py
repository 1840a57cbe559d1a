"""Barrier filters: without one every conflict gets its barrier; a filter removes a barrier only
when every pair of conflicting ops behind it is filtered; AMD's filter (`amd_membar_filter`)
and the marks it reads (`annotate_synced_via_async_wait`)."""

from __future__ import annotations

from tilecraft.analysis.allocation import FunctionAllocation, ModuleAllocation
from tilecraft.analysis.membar import (SYNCED_VIA_ASYNC_WAIT, ModuleMembar, amd_membar_filter,
                                       annotate_synced_via_async_wait)
from tilecraft.ir import BoolAttr, Operation

from .util import func, op_named, parse

HEAD = """
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
!md2 = !ttg.memdesc<2x16x16xf16, #sh, #smem, mutable>
!ptrs = tensor<16x16x!tt.ptr<f16>, #blk>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
"""

STORES_THEN_LOAD = """
tt.func @f(%t: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md loc("store1")
  ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md loc("store2")
  %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk> loc("load")
  tt.return
}"""

PIPELINE = """
tt.func @f(%p: !ptrs, %x: tensor<16x16xf16, #blk>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = ttg.local_alloc : () -> !md2
  %other = ttg.local_alloc : () -> !md
  %s0 = ttg.memdesc_index %buf[%c0] : !md2 -> !md
  %s1 = ttg.memdesc_index %buf[%c1] : !md2 -> !md
  %t0 = ttg.async_copy_global_to_local %p, %s0 : !ptrs -> <16x16xf16, #sh, #smem, mutable> loc("copy0")
  %w = ttg.async_wait %t0 {num = 0 : i32}
  %v = ttg.local_load %s0 token %w : !md -> tensor<16x16xf16, #blk> loc("synced")
  %u = ttg.local_load %s0 : !md -> tensor<16x16xf16, #blk> loc("plain")
  %v2 = ttg.local_load %s0 token %t0 : !md -> tensor<16x16xf16, #blk> loc("copy_token")
  %t1 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> <16x16xf16, #sh, #smem, mutable> loc("copy1")
  %t2 = ttg.async_copy_global_to_local %p, %other : !ptrs -> <16x16xf16, #sh, #smem, mutable> loc("copy_other")
  ttg.local_store %x, %s1 : tensor<16x16xf16, #blk> -> !md loc("store")
  tt.return
}"""


def _module(body: str) -> Operation:
    return parse(HEAD + body + "\n}")


def _names(barriers: list[Operation]) -> list[str]:
    """The ``loc`` names of the ops right after the barriers."""
    return [str(b.next_op.location.name) for b in barriers if b.next_op is not None]


def _allocation(module: Operation) -> FunctionAllocation:
    return ModuleAllocation(module).of(func(module, "f"))


def test_no_filter_and_none_are_the_same() -> None:
    plain = _names(ModuleMembar(_module(STORES_THEN_LOAD)).run())
    explicit = _names(ModuleMembar(_module(STORES_THEN_LOAD), filter=None).run())
    assert plain == explicit == ["store2", "load"]


def test_filter_that_never_filters_changes_nothing() -> None:
    barriers = ModuleMembar(_module(STORES_THEN_LOAD),
                            filter=lambda *_: False).run()
    assert _names(barriers) == ["store2", "load"]


def test_filter_sees_earlier_and_later_op_and_whether_each_reads() -> None:
    calls: list[tuple[str, str, bool, bool]] = []

    def record(first: Operation, second: Operation, first_reads: bool, second_reads: bool,
               allocation: FunctionAllocation) -> bool:
        assert isinstance(allocation, FunctionAllocation)
        calls.append((str(first.location.name), str(second.location.name), first_reads,
                      second_reads))
        return False

    ModuleMembar(_module(STORES_THEN_LOAD), filter=record).run()
    # write after write, then read after write; the barrier cleared the first store
    assert calls == [("store1", "store2", False, False), ("store2", "load", False, True)]


def test_barrier_stays_unless_every_pair_is_filtered() -> None:
    def only_store1(first: Operation, second: Operation, *_: object) -> bool:
        return str(first.location.name) == "store1"

    # store1 -> store2 is filtered, so both stores are pending at the load; the pair
    # (store2, load) is not filtered: the barrier before the load stays
    barriers = ModuleMembar(_module(STORES_THEN_LOAD), filter=only_store1).run()
    assert _names(barriers) == ["load"]


def test_filter_that_always_filters_removes_conflict_barriers_only() -> None:
    module = _module(PIPELINE)
    barriers = ModuleMembar(module, filter=lambda *_: True).run()
    # the barrier after the async wait does not come from a conflict and stays
    assert len(barriers) == 1
    assert barriers[0].prev_op.name == "ttg.async_wait"


def test_annotation_marks_loads_by_their_token() -> None:
    module = _module(PIPELINE)
    annotate_synced_via_async_wait(module)
    marks = {name: op_named(module, name).get_attr(SYNCED_VIA_ASYNC_WAIT).value
             for name in ("synced", "plain", "copy_token")}
    assert marks == {"synced": True, "plain": False, "copy_token": False}


def test_annotation_keeps_an_existing_mark() -> None:
    module = _module(PIPELINE)
    op_named(module, "plain").attributes[SYNCED_VIA_ASYNC_WAIT] = BoolAttr(True)
    annotate_synced_via_async_wait(module)
    assert op_named(module, "plain").get_attr(SYNCED_VIA_ASYNC_WAIT).value is True


def test_amd_filter_pairs() -> None:
    module = _module(PIPELINE)
    annotate_synced_via_async_wait(module)
    allocation = _allocation(module)

    def filtered(first: str, second: str) -> bool:
        return amd_membar_filter(op_named(module, first), op_named(module, second),
                                 True, False, allocation)

    # a synced load and a copy into the same allocation, in either order
    assert filtered("synced", "copy1") and filtered("copy0", "synced")
    # must not fire: loads not synced via a wait, two copies, a copy into another buffer,
    # a store, two loads
    assert not filtered("plain", "copy1")
    assert not filtered("copy_token", "copy1")
    assert not filtered("copy0", "copy1")
    assert not filtered("synced", "copy_other")
    assert not filtered("synced", "store")
    assert not filtered("synced", "plain")


def test_amd_filter_without_marks_filters_nothing() -> None:
    module = _module(PIPELINE)
    allocation = _allocation(module)
    assert not amd_membar_filter(op_named(module, "synced"), op_named(module, "copy1"),
                                 True, False, allocation)


def test_amd_filter_in_the_analysis() -> None:
    prefetch = "\n".join(line for line in PIPELINE.splitlines()
                          if 'loc("plain")' not in line and 'loc("copy_token")' not in line)
    cases = {"only_synced": prefetch, "with_unsynced_loads": PIPELINE}
    found: dict[str, tuple[list[str], list[str]]] = {}
    for case, body in cases.items():
        amd = _module(body)
        annotate_synced_via_async_wait(amd)
        found[case] = (_names(ModuleMembar(_module(body)).run()),
                       _names(ModuleMembar(amd, filter=amd_membar_filter).run()))
    plain, amd_names = found["only_synced"]
    # the copy into stage 1 (the same allocation as the synced load of stage 0)
    assert "copy1" in plain and "copy1" not in amd_names
    # must not fire: a load of stage 0 that is not synced via a wait keeps the barrier
    plain, amd_names = found["with_unsynced_loads"]
    assert "copy1" in plain and "copy1" in amd_names
