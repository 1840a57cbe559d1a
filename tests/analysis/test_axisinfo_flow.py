"""Axis info through kernels and control flow: loops, ifs, branches, calls; vector widths."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.analysis import AxisInfo, AxisInfoAnalysis
from tilecraft.analysis.axisinfo import RANGE_MAX_DIVISOR as R

from .util import func, op_named, parse, value

SAMPLES = Path(__file__).parent.parent / "dialects" / "samples"


def ax(con, div, cst, constant=None) -> AxisInfo:
    return AxisInfo(tuple(con), tuple(div), tuple(cst), constant)


VECADD_128 = """
tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                           %y: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                           %h: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                           %n: i32 {tt.divisibility = 16 : i32}) {
  %c128 = arith.constant 128 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c128 : i32 loc("start")
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %base = tt.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %base, %range : tensor<128xi32> loc("offs")
  %limit = tt.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %limit : tensor<128xi32> loc("mask")
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc("xp")
  %a = tt.load %xp, %mask : tensor<128x!tt.ptr<f32>> loc("a")
  %hs = tt.splat %h : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %hp = tt.addptr %hs, %offs : tensor<128x!tt.ptr<f16>>, tensor<128xi32> loc("hp")
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc("yp")
  tt.store %yp, %a, %mask : tensor<128x!tt.ptr<f32>>
  tt.return
}
"""


def test_vector_add_block_128():
    module = parse(VECADD_128)
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "start")) == ax([1], [128], [1])
    assert analysis.get(value(module, "offs")) == ax([128], [128], [1])
    assert analysis.get(value(module, "mask")) == ax([1], [1], [16])
    xp = value(module, "xp")
    assert analysis.get(xp) == ax([128], [16], [1])
    assert analysis.alignment(xp) == 4
    assert analysis.vector_width(xp, 32) == 4  # 16 bytes / 4-byte floats
    assert analysis.vector_width(xp) == 4  # element size from the pointee
    assert analysis.vector_width(xp, 32, max_bits=64) == 2
    assert analysis.vector_width(xp, mask=value(module, "mask")) == 4
    assert analysis.vector_width(value(module, "hp")) == 8
    assert analysis.vector_width(value(module, "start")) == 1  # scalars


def test_vector_add_sample_as_triton_prints_it():
    module = parse((SAMPLES / "triton_vecadd.mlir").read_text())
    analysis = AxisInfoAnalysis(module)
    kernel = func(module, "add_kernel")
    ops = [op for op in kernel.walk() if op.name in ("tt.load", "tt.store")]
    assert len(ops) == 3
    for op in ops:
        ptr, mask = op.operands[0], op.operands[-1]
        assert analysis.get(ptr) == ax([1024], [16], [1])
        assert analysis.get(mask) == ax([1], [1], [16])
        assert analysis.vector_width(ptr, mask=mask) == 4


def test_vector_width_limited_by_mask_and_alignment():
    module = parse("""
    tt.func @k(%p: !tt.ptr<i8> {tt.divisibility = 4 : i32}, %m: i32) {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %s = tt.splat %p : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>>
      %q = tt.addptr %s, %r : tensor<64x!tt.ptr<i8>>, tensor<64xi32> loc("q")
      %lim = tt.splat %m : i32 -> tensor<64xi32>
      %mask = arith.cmpi slt, %r, %lim : tensor<64xi32> loc("mask")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    q = value(module, "q")
    assert analysis.vector_width(q) == 4  # 4-byte aligned bytes
    assert analysis.vector_width(q, mask=value(module, "mask")) == 1  # unknown bound


def test_2d_tile_with_strided_rows():
    module = parse("""
    tt.func public @tile(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                         %stride: i32 {tt.divisibility = 16 : i32}) {
      %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
      %col = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %s = tt.splat %stride : i32 -> tensor<64x1xi32>
      %rows = arith.muli %col, %s : tensor<64x1xi32> loc("rows")
      %rowsb = tt.broadcast %rows : tensor<64x1xi32> -> tensor<64x32xi32> loc("rowsb")
      %row = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %colsb = tt.broadcast %row : tensor<1x32xi32> -> tensor<64x32xi32> loc("colsb")
      %offs = arith.addi %rowsb, %colsb : tensor<64x32xi32> loc("offs")
      %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
      %ptrs = tt.addptr %as, %offs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32> loc("ptrs")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "rows")) == ax([1, 1], [16, 16], [1, 1])
    assert analysis.get(value(module, "rowsb")) == ax([1, 1], [16, 16], [1, 32])
    assert analysis.get(value(module, "colsb")) == ax([1, 32], [1, R], [64, 1])
    assert analysis.get(value(module, "offs")) == ax([1, 32], [1, 16], [1, 1])
    ptrs = value(module, "ptrs")
    assert analysis.get(ptrs) == ax([1, 32], [2, 16], [1, 1])
    assert analysis.vector_width(ptrs) == 8  # 8 halves along the contiguous dimension
    assert analysis.vector_width(ptrs, dim=0) == 1


def test_matmul_sample_loop_carried_pointers():
    module = parse((SAMPLES / "triton_matmul.mlir").read_text())
    analysis = AxisInfoAnalysis(module)
    loop = next(op for op in module.walk() if op.name == "scf.for")
    body = loop.regions[0].blocks[0]
    k, _acc, pa, pb = body.arguments
    assert analysis.get(k) == ax([1], [32], [1])  # lower bound 0, step 32
    # the sample adds row and column indices without a stride: contiguous in both dims
    assert analysis.get(pa) == ax([64, 32], [2, 2], [1, 1])
    assert analysis.get(pa) == analysis.get(loop.results[1])
    assert analysis.get(pb) == analysis.get(loop.results[2])
    assert analysis.vector_width(pa) == 1


LOOP = """
tt.func public @loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %step = tt.splat %c128 : i32 -> tensor<128xi32>
  %r:4 = scf.for %i = %c0 to %n step %c16
      iter_args(%ptr = %ptrs, %k = %c0, %j = %c0, %same = %c64)
      -> (tensor<128x!tt.ptr<f32>>, i32, i32, i32) : i32 {
    %next = tt.addptr %ptr, %step : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc("next")
    %k2 = arith.addi %k, %c64 : i32
    %j2 = arith.addi %j, %c1 : i32
    scf.yield %next, %k2, %j2, %same : tensor<128x!tt.ptr<f32>>, i32, i32, i32
  } loc("for")
  tt.return
}
"""


def test_scf_for_iter_args_reach_a_fixpoint():
    module = parse(LOOP)
    analysis = AxisInfoAnalysis(module)
    loop = op_named(module, "for")
    iv, ptr, k, j, same = loop.regions[0].blocks[0].arguments
    assert analysis.get(iv) == ax([1], [16], [1])
    assert analysis.get(ptr) == ax([128], [16], [1])
    assert analysis.get(value(module, "next")) == ax([128], [16], [1])
    assert analysis.get(k) == ax([1], [64], [1])  # 0, 64, 128, ...
    assert analysis.get(j) == ax([1], [1], [1])  # 0, 1, 2, ...
    assert analysis.get(same) == ax([1], [64], [1], 64)  # loop-invariant constant
    results = [analysis.get(r) for r in loop.results]
    assert results == [analysis.get(v) for v in (ptr, k, j, same)]
    assert analysis.vector_width(ptr) == 4


def test_scf_for_shrinking_facts_converge():
    module = parse("""
    tt.func @f(%n: i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c1024 = arith.constant 1024 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c1024) -> (i32) : i32 {
        %h = arith.divsi %x, %c3 : i32
        %s = arith.muli %h, %c3 : i32
        %t = arith.addi %s, %x : i32
        scf.yield %t : i32
      } loc("for")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    result = op_named(module, "for").results[0]
    assert analysis.get(result) == ax([1], [1], [1])
    assert analysis.visits < 100


def test_scf_if_joins_both_branches():
    module = parse("""
    tt.func @f(%c: i1, %n: i32 {tt.divisibility = 32 : i32}) {
      %c256 = arith.constant 256 : i32
      %c8 = arith.constant 8 : i32
      %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %s = tt.splat %c256 : i32 -> tensor<128xi32>
      %r:2 = scf.if %c -> (tensor<128xi32>, i32) {
        scf.yield %range, %n : tensor<128xi32>, i32
      } else {
        %shift = arith.addi %range, %s : tensor<128xi32>
        scf.yield %shift, %c8 : tensor<128xi32>, i32
      } loc("if")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    op = op_named(module, "if")
    # range + 256 has its divisibility clamped to its contiguity, 128 (Triton's add rule)
    assert analysis.get(op.results[0]) == ax([128], [128], [1])
    assert analysis.get(op.results[1]) == ax([1], [8], [1])


def test_if_inside_loop():
    module = parse("""
    tt.func @f(%c: i1, %n: i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (i32) : i32 {
        %y = scf.if %c -> (i32) {
          %a = arith.addi %x, %c32 : i32
          scf.yield %a : i32
        } else {
          %b = arith.addi %x, %c64 : i32
          scf.yield %b : i32
        }
        scf.yield %y : i32
      } loc("for")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(op_named(module, "for").results[0]) == ax([1], [32], [1])


def test_scf_while():
    module = parse("""
    tt.func @f(%n: i32) {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %r = scf.while (%a = %c0) : (i32) -> i32 {
        %lt = arith.cmpi slt, %a, %n : i32
        scf.condition(%lt) %a : i32
      } do {
      ^bb0(%b: i32 loc("b")):
        %next = arith.addi %b, %c8 : i32
        scf.yield %next : i32
      } loc("while")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    op = op_named(module, "while")
    assert analysis.get(op.regions[0].blocks[0].arguments[0]) == ax([1], [8], [1])
    assert analysis.get(value(module, "b")) == ax([1], [8], [1])
    assert analysis.get(op.results[0]) == ax([1], [8], [1])


def test_cf_branches_join_into_block_arguments():
    module = parse("""
    tt.func @f(%c: i1, %n: i32) {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %c256 = arith.constant 256 : i32
      %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %s = tt.splat %c256 : i32 -> tensor<128xi32>
      %shift = arith.addi %range, %s : tensor<128xi32>
      cf.cond_br %c, ^bb1(%range : tensor<128xi32>), ^bb1(%shift : tensor<128xi32>)
    ^bb1(%t: tensor<128xi32> loc("t")):
      cf.br ^bb2(%c0 : i32)
    ^bb2(%i: i32 loc("i")):
      %next = arith.addi %i, %c4 : i32
      %more = arith.cmpi slt, %next, %n : i32
      cf.cond_br %more, ^bb2(%next : i32), ^bb3
    ^bb3:
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "t")) == ax([128], [128], [1])
    assert analysis.get(value(module, "i")) == ax([1], [4], [1])


CALLS = """
module {
  tt.func private @helper(%x: i32 loc("x"), %y: i32 loc("y")) -> i32 {
    %c2 = arith.constant 2 : i32
    %r = arith.muli %x, %c2 : i32
    tt.return %r : i32
  }
  tt.func public @api(%x: i32 loc("api_x")) -> i32 {
    tt.return %x : i32
  }
  tt.func private @rec(%x: i32 loc("rec_x")) -> i32 {
    %c32 = arith.constant 32 : i32
    %a = arith.addi %x, %c32 : i32
    %r = tt.call @rec(%a) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func public @main(%n: i32 {tt.divisibility = 8 : i32}, %u: i32) {
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %a = tt.call @helper(%n, %u) : (i32, i32) -> i32 loc("call1")
    %b = tt.call @helper(%c16, %u) : (i32, i32) -> i32 loc("call2")
    %c = tt.call @api(%c16) : (i32) -> i32 loc("call3")
    %d = tt.call @rec(%c64) : (i32) -> i32 loc("call4")
    tt.return
  }
}
"""


def test_private_functions_get_facts_from_their_call_sites():
    module = parse(CALLS)
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "x")) == ax([1], [8], [1])  # gcd(8, 16)
    assert analysis.get(value(module, "y")) == ax([1], [1], [1])
    assert analysis.get(value(module, "call1")) == ax([1], [16], [1])
    assert analysis.get(value(module, "call2")) == ax([1], [16], [1])
    # public functions may be called from outside: nothing known
    assert analysis.get(value(module, "api_x")) == ax([1], [1], [1])
    assert analysis.get(value(module, "call3")) == ax([1], [1], [1])
    # recursion converges: 64, 96, 128, ... are multiples of 32
    assert analysis.get(value(module, "rec_x")) == ax([1], [32], [1])


def test_intraprocedural_mode_ignores_call_sites():
    module = parse(CALLS)
    analysis = AxisInfoAnalysis(module, interprocedural=False)
    assert analysis.get(value(module, "x")) == ax([1], [1], [1])
    assert analysis.get(value(module, "call1")) == ax([1], [1], [1])


def test_analysis_of_one_function():
    module = parse(VECADD_128)
    kernel = func(module, "add_kernel")
    analysis = AxisInfoAnalysis(kernel)
    assert analysis.get(value(module, "xp")) == ax([128], [16], [1])


def test_vector_width_of_offsets_and_rank_zero():
    module = parse("""
    tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32> loc("r")
      %z = tt.splat %p : !tt.ptr<f32> -> tensor<!tt.ptr<f32>> loc("z")
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    r = value(module, "r")
    assert analysis.vector_width(r, 16) == 8
    assert analysis.vector_width(r, 8, max_bits=32) == 4
    with pytest.raises(TypeError):
        analysis.vector_width(r)
    assert analysis.get(value(module, "z")) == ax([], [], [])
    assert analysis.vector_width(value(module, "z")) == 1
