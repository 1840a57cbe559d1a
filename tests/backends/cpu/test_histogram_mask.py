"""`tt.histogram` with its optional mask on the CPU backend (the language does not emit the
mask yet; Triton's IR may carry it): masked-off values are not counted."""

from __future__ import annotations

import numpy as np

from tilecraft.backends.cpu import compiler, engine
from tilecraft.ir import parse_module
from tilecraft.runtime.cpu_driver import CPUKernel

MASKED_HISTOGRAM = """
tt.func public @masked_histogram(%x: !tt.ptr<i32>, %m: !tt.ptr<i8>, %out: !tt.ptr<i32>) {
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %xp = tt.addptr %xs, %range : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  %values = tt.load %xp : tensor<16x!tt.ptr<i32>>
  %ms = tt.splat %m : !tt.ptr<i8> -> tensor<16x!tt.ptr<i8>>
  %mp = tt.addptr %ms, %range : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
  %bytes = tt.load %mp : tensor<16x!tt.ptr<i8>>
  %zero = arith.constant dense<0> : tensor<16xi8>
  %mask = arith.cmpi ne, %bytes, %zero : tensor<16xi8>
  %counts = tt.histogram %values, %mask : tensor<16xi32> -> tensor<8xi32>
  %bins = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %op = tt.addptr %os, %bins : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  tt.store %op, %counts : tensor<8x!tt.ptr<i32>>
  tt.return
}
"""


def test_masked_off_values_are_not_counted():
    binary = compiler.compile_ttir(parse_module(MASKED_HISTOGRAM))
    info = binary.info
    kernel = CPUKernel(engine.JITLibrary(binary.obj), info.grid_symbol, info.arg_kinds,
                       info.prints, info.asserts)
    rng = np.random.default_rng(3)
    values = rng.integers(-2, 10, 16).astype(np.int32)
    mask = rng.integers(0, 2, 16).astype(np.int8)
    out = np.full(8, -1, np.int32)
    kernel.launch((1, 1, 1), [a.ctypes.data for a in (values, mask, out)])
    kept = values[(mask != 0) & (values >= 0) & (values < 8)]
    np.testing.assert_array_equal(out, np.bincount(kept, minlength=8)[:8])
