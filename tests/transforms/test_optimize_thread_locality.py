"""`tritongpu-optimize-thread-locality` (Triton's pass; its lit cases are in
tests/lit/tritongpu-optimize-thread-locality.mlir): a reduction carried by a loop keeps what the
program computes, and a kernel written as Triton's language test writes it gets the thread-local
reduction in its GPU IR, whose lowering moves nothing between threads inside the loop."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda.compiler import CUDAOptions, make_llir, make_ttgir
from tilecraft.ir import parse_module
from tilecraft.transforms import PassManager

from .evaluator import evaluate

_LOOP = """
#b = #ttg.blocked<{{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>
#s = #ttg.slice<{{dim = 1, parent = #b}}>
module attributes {{"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
tt.func @f(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block = arith.constant dense<1024> : tensor<16x64xi32, #b>
  %start = arith.constant dense<{start}> : tensor<16xf32, #s>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start, %q = %p) -> (tensor<16xf32, #s>, tensor<16x64x!tt.ptr<f32>, #b>) : i32 {{
    %x = tt.load %q : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{{axis = 1 : i32}}> ({{
    ^bb0(%a: f32, %b: f32):
      %t = arith.{op} %a, %b : f32
      tt.reduce.return %t : f32
    }}) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.{op} %acc, %s : tensor<16xf32, #s>
    %step = tt.addptr %q, %block : tensor<16x64x!tt.ptr<f32>, #b>, tensor<16x64xi32, #b>
    scf.yield %next, %step : tensor<16xf32, #s>, tensor<16x64x!tt.ptr<f32>, #b>
  }}
  tt.return %r#0 : tensor<16xf32, #s>
}}
}}
"""


@pytest.mark.parametrize("op, start", [("addf", 0.5), ("mulf", 1.0), ("maximumf", 0.0),
                                       ("maxnumf", -2.0), ("minimumf", 0.0), ("minnumf", 2.0)])
def test_loop_reduction_keeps_the_values(op: str, start: float) -> None:
    """Three loads of 16x64 floats reduced along the rows and folded into the accumulator give
    the same rows after the rewrite (sums up to rounding: the order of the adds changes)."""
    rng = np.random.default_rng(3)
    data = rng.uniform(0.9, 1.1, 3 * 1024).astype(np.float32)
    module = parse_module(_LOOP.format(op=op, start=start))
    pointers = np.arange(1024, dtype=np.int64).reshape(16, 64)
    args = [pointers, np.array(3, dtype=np.int64)]
    (before,) = evaluate(module, "f", args, memory={"f32": data})
    PassManager.parse("builtin.module(tritongpu-optimize-thread-locality, canonicalize)"
                      ).run(module)
    text = str(module)
    assert text.count('"tt.reduce"') == 2 and "allow_reorder efficient_layout" in text
    (after,) = evaluate(parse_module(text), "f", args, memory={"f32": data})
    np.testing.assert_allclose(after, before, rtol=1e-5)


@tc.jit
def _row_sums(X, Y, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Each program sums every ``num_programs(1)``-th block of columns of its rows."""
    pid_n = tl.program_id(1)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    total = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start in range(pid_n, tl.cdiv(N, BLOCK_N), tl.num_programs(1)):
        cols = start * BLOCK_N + tl.arange(0, BLOCK_N)
        total = total + tl.sum(tl.load(X + rows[:, None] * N + cols[None, :]), axis=1)
    tl.store(Y + rows * tl.num_programs(1) + pid_n, total)


def test_kernel_reduces_within_threads_in_its_loop() -> None:
    """The kernel runs (on this machine's backend); its GPU IR reduces twice, within threads in
    the loop and across them after it, and the loop of its GPU code has no barrier, shuffle
    or shared memory access (the reshape keeps each thread's registers)."""
    x = np.random.default_rng(0).standard_normal((32, 512)).astype(np.float32)
    y = np.zeros((32, 2), dtype=np.float32)
    compiled = _row_sums[(1, 2, 1)](x, y, 512, BLOCK_M=32, BLOCK_N=64)
    np.testing.assert_allclose(y.sum(axis=1), x.sum(axis=1), rtol=1e-4, atol=1e-4)

    ttgir = make_ttgir(parse_module(compiled.asm["ttir"]), CUDAOptions(num_warps=4))
    assert str(ttgir).count('"tt.reduce"') == 2
    llir = make_llir(ttgir, CUDAOptions(num_warps=4), {})
    loop = llir[llir.index("for.body:"):llir.index("for.end:")]
    assert "barrier" not in loop and "shfl" not in loop and "addrspace(3)" not in loop
