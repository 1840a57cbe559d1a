"""Asynchronous ``wgmma`` the pipeliner makes in loops it does not pipeline: into f32 the
accumulator waits at the ``ttng.warp_group_dot_wait``, into f16 (packed in pairs around the
instructions) the dot waits for itself and the wait passes its result on as it is."""

from __future__ import annotations

import pytest

from tilecraft.backends.cuda.kernel import lower_kernel
from tilecraft.ir.parser import parse_module
from tilecraft.transforms.pass_manager import PassManager

_KERNEL = """
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %one : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xACC, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xACC, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xACC, #mma>
      scf.yield %d : tensor<64x64xACC, #mma>
    }
    tt.return
  }
}
"""


@pytest.mark.parametrize("accumulator, in_flight", [("f32", 1), ("f16", 0)])
def test_loop_dot_waits(accumulator: str, in_flight: int) -> None:
    module = parse_module(_KERNEL.replace("ACC", accumulator))
    PassManager.parse("builtin.module(tritongpu-pipeline{num-stages=3})").run(module)
    llvm_ir = str(lower_kernel(module, num_warps=4, capability=90)[0])
    waits = {int(line.split("wait_group.sync.aligned ")[1][0])
             for line in llvm_ir.splitlines() if "wgmma.wait_group.sync.aligned" in line}
    assert in_flight in waits and 0 in waits
