"""Satisfied waits (`wait_is_satisfied`): a ``ttg.async_wait`` that every path reaches with its
copies already waited for, as the pipeliner's wait at the top of a loop whose next operands
the prefetch pass loads after a wait at the end of the previous trip, gets no barrier when the
analysis is asked (``skip_satisfied_waits``, the CUDA backend); without it, Triton's rule, every
wait is followed by one."""

from __future__ import annotations

import pytest

from tilecraft.analysis.membar import (ModuleMembar, annotate_synced_via_async_wait,
                                       cuda_membar_filter, wait_is_satisfied)
from tilecraft.ir import Operation

from .test_membar_filter import HEAD
from .util import op_named, parse

LOOP = """
tt.func @f(%p: !ptrs, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = ttg.local_alloc : () -> !md2
  %s0 = ttg.memdesc_index %buf[%c0] : !md2 -> !md
  %s1 = ttg.memdesc_index %buf[%c1] : !md2 -> !md
  %t0 = ttg.async_copy_global_to_local %p, %s0 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %g0 = ttg.async_commit_group tokens %t0
  %w0 = ttg.async_wait {num = BEFORE : i32} loc("before")
  %v0 = ttg.local_load %s0 token %w0 : !md -> tensor<16x16xf16, #blk> loc("first")
  scf.for %i = %c0 to %n step %c1 : i32 {
    %top = ttg.async_wait {num = TOP : i32} loc("top")
    %t1 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
    %g1 = ttg.async_commit_group tokens %t1 loc("commit")
    %end = ttg.async_wait {num = END : i32} loc("end")
    %v1 = ttg.local_load %s0 token %end : !md -> tensor<16x16xf16, #blk> loc("next")
    TAIL
    scf.yield
  }
  tt.return
}"""


def _module(before: int = 0, top: int = 0, end: int = 0, tail: str = "") -> Operation:
    body = (LOOP.replace("BEFORE", str(before)).replace("TOP", str(top))
            .replace("END", str(end)).replace("TAIL", tail))
    return parse(HEAD + body + "\n}")


def _satisfied(module: Operation, name: str) -> bool:
    wait = op_named(module, name)
    return wait_is_satisfied(wait, wait.num)


def _followed_by_barrier(module: Operation, name: str) -> bool:
    following = op_named(module, name).next_op
    return following is not None and following.name == "ttg.barrier"


def test_top_of_loop_wait_after_waits_on_both_paths_is_satisfied() -> None:
    module = _module()
    assert _satisfied(module, "top")
    # a commit comes before each of the others
    assert not _satisfied(module, "end") and not _satisfied(module, "before")


def test_a_wait_for_fewer_pending_groups_satisfies_one_for_more() -> None:
    assert _satisfied(_module(before=0, end=0, top=1), "top")
    # must not fire: an earlier wait that leaves more groups in flight
    assert not _satisfied(_module(before=1, end=0, top=0), "top")
    assert not _satisfied(_module(before=0, end=1, top=0), "top")


@pytest.mark.parametrize("tail", [
    # a commit after the last wait of the body reaches the top through the back edge
    "%t2 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> <16x16xf16, #sh, #smem, mutable>"
    "\n    %g2 = ttg.async_commit_group tokens %t2",
    # so does one inside a nested region
    "scf.if %c {\n      %t2 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> "
    "<16x16xf16, #sh, #smem, mutable>\n      %g2 = ttg.async_commit_group tokens %t2\n    }",
])
def test_a_commit_after_the_last_wait_of_the_body_unsatisfies_the_top(tail: str) -> None:
    if "scf.if" in tail:
        tail = "%c = arith.cmpi slt, %i, %c1 : i32\n    " + tail
    assert not _satisfied(_module(tail=tail), "top")


def test_without_a_wait_before_the_loop_the_top_is_not_satisfied() -> None:
    module = _module()
    op_named(module, "before").results[0].replace_all_uses_with(
        op_named(module, "commit").results[0])
    op_named(module, "before").erase()
    assert not _satisfied(module, "top")


def _cuda_barriers(module: Operation, skip: bool) -> Operation:
    """``module`` after the CUDA backend's analysis (its filter: the copy into the other stage
    needs no barrier after the load synchronized by a wait)."""
    annotate_synced_via_async_wait(module)
    ModuleMembar(module, filter=cuda_membar_filter, skip_satisfied_waits=skip).run()
    return module


def test_the_cuda_analysis_leaves_out_the_satisfied_waits_barrier() -> None:
    skipping = _cuda_barriers(_module(), skip=True)
    assert not _followed_by_barrier(skipping, "top")
    assert _followed_by_barrier(skipping, "end") and _followed_by_barrier(skipping, "before")
    barriers = [op for op in skipping.walk() if op.name == "ttg.barrier"]
    assert len(barriers) == 2
    # Triton's rule: a barrier after every wait
    every = _cuda_barriers(_module(), skip=False)
    assert all(_followed_by_barrier(every, name) for name in ("before", "top", "end"))
    # must not fire: a wait that is not satisfied keeps its barrier
    unsatisfied = _cuda_barriers(_module(before=1), skip=True)
    assert _followed_by_barrier(unsatisfied, "top")
