"""Shared memory descriptors carried by ``scf.for`` (the prefetch pass carries the views of
the pipeliner's ring of buffers): the lowering keeps each one's address in a loop slot, and
refuses a loop that yields a descriptor with another view corner than its init."""

from __future__ import annotations

import pytest

from tilecraft.backends.cuda.kernel import lower_kernel
from tilecraft.frontend.errors import CompilationError
from tilecraft.ir.parser import parse_module

_HEADER = """
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!ring = !ttg.memdesc<2x16x16xf16, #sh, #smem, mutable>
!buf = !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
!half = !ttg.memdesc<16x8xf16, #sh, #smem, mutable, 16x16>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%out: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<16x8xf16, #blk>
    %ring = ttg.local_alloc : () -> !ring
    %first = ttg.memdesc_index %ring[%c0] : !ring -> !buf
"""

_CARRIED = _HEADER + """
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%view = %first, %acc = %zero) -> (!buf, tensor<16x8xf16, #blk>) : i32 {
      %part = ttg.memdesc_subslice %view[0, 8] : !buf -> !half
      %v = ttg.local_load %part : !half -> tensor<16x8xf16, #blk>
      %sum = arith.addf %acc, %v : tensor<16x8xf16, #blk>
      %slot = arith.remsi %i, %c1 : i32
      %next = ttg.memdesc_index %ring[%slot] : !ring -> !buf
      scf.yield %next, %sum : !buf, tensor<16x8xf16, #blk>
    }
    tt.return
  }
}
"""

_OTHER_CORNER = _HEADER + """
    %start = ttg.memdesc_subslice %first[0, 0] : !buf -> !half
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%view = %start) -> (!half) : i32 {
      %v = ttg.local_load %view : !half -> tensor<16x8xf16, #blk>
      %next = ttg.memdesc_subslice %first[0, 8] : !buf -> !half
      scf.yield %next : !half
    }
    tt.return
  }
}
"""


def test_a_carried_view_keeps_its_address_in_a_loop_slot() -> None:
    module, _ = lower_kernel(parse_module(_CARRIED), num_warps=4, capability=80)
    text = str(module)
    assert "alloca ptr addrspace(3)" in text


def test_a_view_yielded_with_another_corner_is_refused() -> None:
    with pytest.raises(CompilationError, match="carries a shared memory descriptor only"):
        lower_kernel(parse_module(_OTHER_CORNER), num_warps=4, capability=80)
