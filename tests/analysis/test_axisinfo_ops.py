"""Axis info, one rule at a time: each test writes a few ops and checks the lattice values."""

from __future__ import annotations

import pytest

from tilecraft.analysis import MAX_DIVISOR as M
from tilecraft.analysis import AxisInfo, AxisInfoAnalysis
from tilecraft.analysis.axisinfo import RANGE_MAX_DIVISOR as R
from tilecraft.analysis.axisinfo import dense_axis_info, highest_pow2_divisor

from .util import parse, value

# %p: f32 pointer, 16-byte aligned; %n: multiple of 8; %u: unknown; %cond: unknown i1
HEADER = """
tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("p"),
                  %n: i32 {tt.divisibility = 8 : i32} loc("n"),
                  %u: i32 loc("u"), %cond: i1 loc("cond")) {
  %c0 = arith.constant 0 : i32 loc("c0")
  %c1 = arith.constant 1 : i32 loc("c1")
  %c2 = arith.constant 2 : i32 loc("c2")
  %c4 = arith.constant 4 : i32 loc("c4")
  %c16 = arith.constant 16 : i32 loc("c16")
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32> loc("range")
  %sn = tt.splat %n : i32 -> tensor<128xi32> loc("sn")
  %su = tt.splat %u : i32 -> tensor<128xi32> loc("su")
  %s0 = tt.splat %c0 : i32 -> tensor<128xi32> loc("s0")
  %s1 = tt.splat %c1 : i32 -> tensor<128xi32> loc("s1")
  %s2 = tt.splat %c2 : i32 -> tensor<128xi32> loc("s2")
  %s4 = tt.splat %c4 : i32 -> tensor<128xi32> loc("s4")
  %s16 = tt.splat %c16 : i32 -> tensor<128xi32> loc("s16")
"""


def analyse(body: str) -> tuple:
    module = parse(HEADER + body + "\n  tt.return\n}\n")
    module.verify()
    return module, AxisInfoAnalysis(module)


def info(body: str, name: str) -> AxisInfo:
    module, analysis = analyse(body)
    return analysis.get(value(module, name))


def ax(con, div, cst, constant=None) -> AxisInfo:
    return AxisInfo(tuple(con), tuple(div), tuple(cst), constant)


# -- helpers of the lattice


def test_highest_pow2_divisor():
    assert highest_pow2_divisor(0) == M
    assert highest_pow2_divisor(48) == 16
    assert highest_pow2_divisor(-12) == 4
    assert highest_pow2_divisor(7) == 1


def test_join_keeps_common_facts():
    a = ax([128], [M], [1])
    b = ax([128], [256], [1])
    assert a.join(b) == ax([128], [256], [1])
    # contiguity shrinks: group starts of the smaller groups inside the larger
    assert ax([8], [64], [1]).join(ax([2], [64], [1])) == ax([2], [2], [1])
    assert ax([1], [8], [4], 8).join(ax([1], [16], [4], 16)) == ax([1], [8], [4])
    assert ax([1], [8], [4], 8).join(ax([1], [8], [4], 8)) == ax([1], [8], [4], 8)


# -- sources


def test_function_arguments_from_hints():
    module, analysis = analyse("")
    assert analysis.get(value(module, "p")) == ax([1], [16], [1])
    assert analysis.get(value(module, "n")) == ax([1], [8], [1])
    assert analysis.get(value(module, "u")) == ax([1], [1], [1])


def test_tensor_argument_hints_per_dimension():
    module = parse("""
    tt.func @k(%t: tensor<4x8xi32> {tt.contiguity = dense<[1, 8]> : tensor<2xi32>,
                                    tt.divisibility = dense<[4, 16]> : tensor<2xi32>,
                                    tt.constancy = 4 : i32} loc("t")) {
      tt.return
    }""")
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "t")) == ax([1, 8], [4, 16], [4, 4])


def test_generic_form_arg_attrs():
    module = parse("""
    "tt.func"() <{function_type = (!tt.ptr<f16>) -> (), sym_name = "g",
                  arg_attrs = [{tt.divisibility = 32 : i32}]}> ({
    ^bb0(%p: !tt.ptr<f16> loc("p")):
      "tt.return"() : () -> ()
    }) : () -> ()""")
    assert AxisInfoAnalysis(module).get(value(module, "p")) == ax([1], [32], [1])


def test_constant_scalar():
    module, analysis = analyse("""
  %a = arith.constant 48 : i32 loc("a")
  %t = arith.constant true loc("t")
  %i = arith.constant 64 : index loc("i")
""")
    assert analysis.get(value(module, "a")) == ax([1], [16], [1], 48)
    assert analysis.get(value(module, "c0")) == ax([1], [M], [1], 0)
    assert analysis.get(value(module, "t")) == ax([1], [1], [1], 1)
    assert analysis.get(value(module, "i")) == ax([1], [64], [1], 64)


def test_constant_dense_splat():
    assert info("""
  %d = arith.constant dense<8> : tensor<4x16xi32> loc("d")
""", "d") == ax([1, 1], [8, 8], [4, 16], 8)


def test_constant_dense_float_splat_is_not_tracked():
    # as in Triton: float constants carry no axis info
    assert info("""
  %d = arith.constant dense<1.0> : tensor<8xf32> loc("d")
""", "d") == ax([1], [1], [1])


def test_constant_dense_values():
    module, analysis = analyse("""
  %d = arith.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32> loc("d")
  %e = arith.constant dense<[[4, 4], [4, 4], [6, 6], [6, 6]]> : tensor<4x2xi32> loc("e")
""")
    assert analysis.get(value(module, "d")) == ax([4], [8], [1])
    assert analysis.get(value(module, "e")) == ax([1, 1], [2, 2], [2, 2])


def test_dense_axis_info_matches_brute_force():
    assert dense_axis_info([3, 4, 5, 6], [4]) == ax([4], [1], [1])
    assert dense_axis_info([16, 17, 5, 6], [4]) == ax([2], [1], [1])
    assert dense_axis_info([0, 0, 0, 0], [2, 2]) == ax([1, 1], [M, M], [2, 2])


def test_make_range():
    module, analysis = analyse("""
  %r = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32> loc("r")
""")
    assert analysis.get(value(module, "range")) == ax([128], [R], [1])
    assert analysis.get(value(module, "r")) == ax([64], [64], [1])


def test_splat():
    module, analysis = analyse("""
  %t = tt.splat %n : i32 -> tensor<4x8xi32> loc("t")
""")
    assert analysis.get(value(module, "t")) == ax([1, 1], [8, 8], [4, 8])
    assert analysis.get(value(module, "s16")) == ax([1], [16], [128], 16)


def test_expand_dims():
    module, analysis = analyse("""
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32> loc("row")
  %col = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32> loc("col")
  %s = tt.splat %n : i32 -> tensor<16xi32>
  %srow = tt.expand_dims %s {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32> loc("srow")
""")
    assert analysis.get(value(module, "row")) == ax([1, 16], [1, R], [1, 1])
    assert analysis.get(value(module, "col")) == ax([16, 1], [R, 1], [1, 1])
    assert analysis.get(value(module, "srow")) == ax([1, 1], [8, 8], [1, 16])


def test_broadcast():
    module, analysis = analyse("""
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %col = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b0 = tt.broadcast %row : tensor<1x16xi32> -> tensor<8x16xi32> loc("b0")
  %b1 = tt.broadcast %col : tensor<16x1xi32> -> tensor<16x8xi32> loc("b1")
""")
    assert analysis.get(value(module, "b0")) == ax([1, 16], [1, R], [8, 1])
    assert analysis.get(value(module, "b1")) == ax([16, 1], [R, 1], [1, 8])


def test_trans():
    module, analysis = analyse("""
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %b0 = tt.broadcast %row : tensor<1x16xi32> -> tensor<8x16xi32>
  %t = tt.trans %b0 {order = array<i32: 1, 0>} : tensor<8x16xi32> -> tensor<16x8xi32> loc("t")
""")
    assert analysis.get(value(module, "t")) == ax([16, 1], [R, 1], [1, 8])


# -- arithmetic


def test_addi():
    module, analysis = analyse("""
  %a = arith.addi %sn, %range : tensor<128xi32> loc("a")
  %b = arith.addi %sn, %sn : tensor<128xi32> loc("b")
  %c = arith.addi %range, %range : tensor<128xi32> loc("c")
  %d = arith.addi %c4, %c16 : i32 loc("d")
""")
    assert analysis.get(value(module, "a")) == ax([128], [8], [1])
    assert analysis.get(value(module, "b")) == ax([1], [8], [128])
    assert analysis.get(value(module, "c")) == ax([1], [2], [1])  # 0, 2, 4, ...: even
    assert analysis.get(value(module, "d")) == ax([1], [4], [1], 20)


def test_addi_constant_wraps_to_the_type():
    assert info("""
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %s = arith.addi %a, %b : i8 loc("s")
""", "s") == ax([1], [128], [1], -128)


def test_subi():
    module, analysis = analyse("""
  %a = arith.subi %range, %sn : tensor<128xi32> loc("a")
  %b = arith.subi %sn, %range : tensor<128xi32> loc("b")
  %d = arith.subi %c4, %c16 : i32 loc("d")
""")
    assert analysis.get(value(module, "a")) == ax([128], [8], [1])
    assert analysis.get(value(module, "b")) == ax([1], [1], [1])  # decreasing
    assert analysis.get(value(module, "d")) == ax([1], [4], [1], -12)


def test_muli():
    module, analysis = analyse("""
  %a = arith.muli %range, %s4 : tensor<128xi32> loc("a")
  %b = arith.muli %sn, %s16 : tensor<128xi32> loc("b")
  %c = arith.muli %range, %s1 : tensor<128xi32> loc("c")
  %d = arith.muli %su, %s0 : tensor<128xi32> loc("d")
  %e = arith.muli %c4, %c16 : i32 loc("e")
""")
    assert analysis.get(value(module, "a")) == ax([1], [4], [1])
    assert analysis.get(value(module, "b")) == ax([1], [128], [128])
    assert analysis.get(value(module, "c")) == ax([128], [R], [1])
    assert analysis.get(value(module, "d")) == ax([1], [M], [128], 0)
    assert analysis.get(value(module, "e")) == ax([1], [64], [1], 64)


def test_divsi():
    module, analysis = analyse("""
  %a = arith.divsi %range, %s16 : tensor<128xi32> loc("a")
  %b = arith.divsi %sn, %s4 : tensor<128xi32> loc("b")
  %c = arith.divsi %range, %s1 : tensor<128xi32> loc("c")
  %d = arith.divsi %range, %su : tensor<128xi32> loc("d")
  %e = arith.divsi %c16, %c4 : i32 loc("e")
  %m7 = arith.constant -7 : i32
  %f = arith.divsi %m7, %c2 : i32 loc("f")
""")
    assert analysis.get(value(module, "a")) == ax([1], [1], [16])  # 0 x16, 1 x16, ...
    assert analysis.get(value(module, "b")) == ax([1], [2], [128])
    assert analysis.get(value(module, "c")) == ax([128], [R], [1])
    assert analysis.get(value(module, "d")) == ax([1], [1], [1])
    assert analysis.get(value(module, "e")) == ax([1], [4], [1], 4)
    assert analysis.get(value(module, "f")).constant == -3  # truncates toward zero


def test_divui_and_floordiv_and_ceildiv():
    module, analysis = analyse("""
  %a = arith.divui %range, %s16 : tensor<128xi32> loc("a")
  %b = arith.floordivsi %range, %s16 : tensor<128xi32> loc("b")
  %c = arith.ceildivsi %range, %s16 : tensor<128xi32> loc("c")
  %m7 = arith.constant -7 : i32
  %d = arith.floordivsi %m7, %c2 : i32 loc("d")
  %e = arith.ceildivsi %m7, %c2 : i32 loc("e")
  %f = arith.divui %m7, %c2 : i32 loc("f")
""")
    assert analysis.get(value(module, "a")) == ax([1], [1], [16])
    assert analysis.get(value(module, "b")) == ax([1], [1], [16])
    assert analysis.get(value(module, "c")) == ax([1], [1], [1])  # 0, 1 x16, 2 x16, ...
    assert analysis.get(value(module, "d")).constant == -4
    assert analysis.get(value(module, "e")).constant == -3
    assert analysis.get(value(module, "f")).constant == (2**32 - 7) // 2


def test_remsi():
    module, analysis = analyse("""
  %a = arith.remsi %range, %s16 : tensor<128xi32> loc("a")
  %b = arith.remsi %su, %s1 : tensor<128xi32> loc("b")
  %c = arith.remsi %sn, %range : tensor<128xi32> loc("c")
  %d = arith.remsi %c16, %c4 : i32 loc("d")
  %m7 = arith.constant -7 : i32
  %e = arith.remsi %m7, %c2 : i32 loc("e")
  %f = arith.remui %m7, %c2 : i32 loc("f")
""")
    assert analysis.get(value(module, "a")) == ax([16], [16], [1])  # 0..15, 0..15, ...
    assert analysis.get(value(module, "b")) == ax([1], [M], [128], 0)
    assert analysis.get(value(module, "c")) == ax([1], [1], [1])
    assert analysis.get(value(module, "d")) == ax([1], [M], [1], 0)
    assert analysis.get(value(module, "e")).constant == -1
    assert analysis.get(value(module, "f")).constant == 1


def test_andi_ori_xori():
    module, analysis = analyse("""
  %c3 = arith.constant 3 : i32
  %s3 = tt.splat %c3 : i32 -> tensor<128xi32>
  %a = arith.andi %sn, %s3 : tensor<128xi32> loc("a")
  %o = arith.ori %sn, %s3 : tensor<128xi32> loc("o")
  %x = arith.xori %sn, %s16 : tensor<128xi32> loc("x")
  %k = arith.andi %c16, %c4 : i32 loc("k")
  %m = arith.andi %cond, %cond : i1 loc("m")
""")
    # as Triton: only constants fold and runs of equal elements stay; no divisibility is kept
    assert analysis.get(value(module, "a")) == ax([1], [1], [128])
    assert analysis.get(value(module, "o")) == ax([1], [1], [128])
    assert analysis.get(value(module, "x")) == ax([1], [1], [128])
    assert analysis.get(value(module, "k")) == ax([1], [M], [1], 0)
    assert analysis.get(value(module, "m")) == ax([1], [1], [1])


def test_shifts():
    module, analysis = analyse("""
  %a = arith.shli %range, %s2 : tensor<128xi32> loc("a")
  %b = arith.shli %sn, %s2 : tensor<128xi32> loc("b")
  %c = arith.shrsi %sn, %s2 : tensor<128xi32> loc("c")
  %d = arith.shrui %range, %s0 : tensor<128xi32> loc("d")
  %e = arith.shli %sn, %su : tensor<128xi32> loc("e")
  %f = arith.shrui %sn, %su : tensor<128xi32> loc("f")
  %g = arith.shli %c4, %c2 : i32 loc("g")
  %m8 = arith.constant -8 : i32
  %h = arith.shrui %m8, %c1 : i32 loc("h")
  %i = arith.shrsi %m8, %c1 : i32 loc("i")
""")
    assert analysis.get(value(module, "a")) == ax([1], [4], [1])
    assert analysis.get(value(module, "b")) == ax([1], [32], [128])
    assert analysis.get(value(module, "c")) == ax([1], [2], [128])
    assert analysis.get(value(module, "d")) == ax([128], [R], [1])
    assert analysis.get(value(module, "e")) == ax([1], [8], [128])  # shifting left keeps zeros
    assert analysis.get(value(module, "f")) == ax([1], [1], [128])
    assert analysis.get(value(module, "g")).constant == 16
    assert analysis.get(value(module, "h")).constant == (2**32 - 8) >> 1
    assert analysis.get(value(module, "i")).constant == -4


def test_min_max():
    module, analysis = analyse("""
  %a = arith.maxsi %range, %sn : tensor<128xi32> loc("a")
  %b = arith.minsi %sn, %s16 : tensor<128xi32> loc("b")
  %c = arith.maxui %c4, %c16 : i32 loc("c")
  %m1 = arith.constant -1 : i32
  %d = arith.minui %m1, %c4 : i32 loc("d")
  %e = arith.minsi %m1, %c4 : i32 loc("e")
""")
    assert analysis.get(value(module, "a")) == ax([1], [1], [1])
    assert analysis.get(value(module, "b")) == ax([1], [8], [128])
    assert analysis.get(value(module, "c")).constant == 16
    assert analysis.get(value(module, "d")).constant == 4
    assert analysis.get(value(module, "e")).constant == -1


def test_cmpi():
    module, analysis = analyse("""
  %lt = arith.cmpi slt, %range, %sn : tensor<128xi32> loc("lt")
  %ge = arith.cmpi uge, %range, %sn : tensor<128xi32> loc("ge")
  %gt = arith.cmpi sgt, %sn, %range : tensor<128xi32> loc("gt")
  %eq = arith.cmpi eq, %range, %sn : tensor<128xi32> loc("eq")
  %bad = arith.cmpi slt, %sn, %range : tensor<128xi32> loc("bad")
  %cc = arith.cmpi slt, %sn, %su : tensor<128xi32> loc("cc")
  %k = arith.cmpi slt, %c4, %c16 : i32 loc("k")
  %m1 = arith.constant -1 : i32
  %ku = arith.cmpi ult, %m1, %c4 : i32 loc("ku")
""")
    assert analysis.get(value(module, "lt")) == ax([1], [1], [8])  # runs of 8 vs multiples of 8
    assert analysis.get(value(module, "ge")) == ax([1], [1], [8])
    assert analysis.get(value(module, "gt")) == ax([1], [1], [8])
    assert analysis.get(value(module, "eq")) == ax([1], [1], [1])
    assert analysis.get(value(module, "bad")) == ax([1], [1], [1])
    assert analysis.get(value(module, "cc")) == ax([1], [1], [128])
    # as Triton, scalar comparisons are not analysed, even of constants
    assert analysis.get(value(module, "k")) == ax([1], [1], [1])
    assert analysis.get(value(module, "ku")) == ax([1], [1], [1])


def test_select():
    module, analysis = analyse("""
  %c256 = arith.constant 256 : i32
  %s256 = tt.splat %c256 : i32 -> tensor<128xi32>
  %shift = arith.addi %range, %s256 : tensor<128xi32>
  %a = arith.select %cond, %range, %shift : tensor<128xi32> loc("a")
  %mask = arith.cmpi slt, %range, %s16 : tensor<128xi32>
  %b = arith.select %mask, %range, %shift : tensor<128xi1>, tensor<128xi32> loc("b")
  %true = arith.constant true
  %d = arith.select %true, %range, %shift : tensor<128xi32> loc("d")
  %e = arith.select %cond, %c4, %c4 : i32 loc("e")
""")
    # %shift's divisibility is clamped to its contiguity (Triton's add rule): 128, not 256
    assert analysis.get(value(module, "a")) == ax([128], [128], [1])
    assert analysis.get(value(module, "b")) == ax([16], [16], [1])
    assert analysis.get(value(module, "d")) == ax([128], [R], [1])
    assert analysis.get(value(module, "e")) == ax([1], [4], [1], 4)


def test_casts():
    module, analysis = analyse("""
  %a = arith.extsi %range : tensor<128xi32> to tensor<128xi64> loc("a")
  %c300 = arith.constant 257 : i32
  %b = arith.trunci %c300 : i32 to i8 loc("b")
  %m1 = arith.constant -1 : i8
  %c = arith.extui %m1 : i8 to i32 loc("c")
  %d = arith.extsi %m1 : i8 to i32 loc("d")
  %e = arith.index_cast %c16 : i32 to index loc("e")
""")
    assert analysis.get(value(module, "a")) == ax([128], [R], [1])
    assert analysis.get(value(module, "b")) == ax([1], [1], [1], 1)
    assert analysis.get(value(module, "c")) == ax([1], [1], [1], 255)
    assert analysis.get(value(module, "d")) == ax([1], [1], [1], -1)
    assert analysis.get(value(module, "e")) == ax([1], [16], [1], 16)


# -- pointers and memory


def test_addptr_scales_offsets_by_the_element_size():
    module, analysis = analyse("""
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>> loc("ps")
  %a = tt.addptr %ps, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc("a")
  %h = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<f16> loc("h")
  %b = tt.addptr %h, %n : !tt.ptr<f16>, i32 loc("b")
  %d = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<f64>
  %e = tt.addptr %d, %c1 : !tt.ptr<f64>, i32 loc("e")
  %c0i64 = arith.constant 64 : i64
  %z = tt.int_to_ptr %c0i64 : i64 -> !tt.ptr<i32> loc("z")
  %f = tt.addptr %z, %c4 : !tt.ptr<i32>, i32 loc("f")
""")
    assert analysis.get(value(module, "ps")) == ax([1], [16], [128])
    assert analysis.get(value(module, "a")) == ax([128], [16], [1])
    assert analysis.get(value(module, "h")) == ax([1], [16], [1])
    assert analysis.get(value(module, "b")) == ax([1], [16], [1])  # gcd(16, 8 * 2)
    assert analysis.get(value(module, "e")) == ax([1], [8], [1])  # 16-aligned + 8 bytes
    assert analysis.get(value(module, "f")) == ax([1], [16], [1], 80)


def test_load_is_unknown_but_keeps_constancy():
    module, analysis = analyse("""
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a = tt.load %ps : tensor<128x!tt.ptr<f32>> loc("a")
  %mask = arith.cmpi slt, %range, %sn : tensor<128xi32>
  %b = tt.load %ps, %mask : tensor<128x!tt.ptr<f32>> loc("b")
  %pa = tt.addptr %ps, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %c = tt.load %pa : tensor<128x!tt.ptr<f32>> loc("c")
  %pi = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %d = tt.load %pi : !tt.ptr<i32> loc("d")
""")
    assert analysis.get(value(module, "a")) == ax([1], [1], [128])
    assert analysis.get(value(module, "b")) == ax([1], [1], [8])
    assert analysis.get(value(module, "c")) == ax([1], [1], [1])
    assert analysis.get(value(module, "d")) == ax([1], [1], [1])


def test_unknown_ops_are_pessimistic():
    module, analysis = analyse("""
  %pid = tt.get_program_id x : i32 loc("pid")
  %h = tt.histogram %range : tensor<128xi32> -> tensor<8xi32> loc("h")
""")
    assert analysis.get(value(module, "pid")) == ax([1], [1], [1])
    assert analysis.get(value(module, "h")) == ax([1], [1], [1])


def test_unregistered_op_in_generic_form():
    module = parse("""
    "tt.func"() <{function_type = (i32) -> (), sym_name = "g",
                  arg_attrs = [{tt.divisibility = 32 : i32}]}> ({
    ^bb0(%x: i32):
      %y = "my.op"(%x) : (i32) -> i32 loc("y")
      %z = "arith.addi"(%x, %x) : (i32, i32) -> i32 loc("z")
      "tt.return"() : () -> ()
    }) : () -> ()""", unregistered=True)
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "y")) == ax([1], [1], [1])
    assert analysis.get(value(module, "z")) == ax([1], [32], [1])


@pytest.mark.parametrize("hint, expected", [
    ("{tt.divisibility = 16 : i32}", ax([1], [16], [1])),
    ("{tt.contiguity = 4 : i32, tt.divisibility = 64 : i32}", ax([4], [64], [1])),
    ("{tt.constancy = dense<32> : tensor<1xi32>}", ax([1], [1], [32])),
])
def test_op_hints_override_the_rule(hint, expected):
    assert info(f"""
  %h = arith.muli %range, %su {hint} : tensor<128xi32> loc("h")
""", "h") == expected


def test_queries_and_unreached_values():
    module, analysis = analyse("""
  %a = arith.addi %sn, %range : tensor<128xi32> loc("a")
""")
    a = value(module, "a")
    assert analysis.contiguity(a) == (128,)
    assert analysis.divisibility(a) == (8,)
    assert analysis.constancy(a) == (1,)
    assert analysis.constant(value(module, "c16")) == 16
    assert analysis.known(a)
    assert str(analysis.get(value(module, "c4"))) == (
        "contiguity = [1], divisibility = [4], constancy = [1], constant_value = 4")


def test_pointer_casts_keep_contiguity_only_for_the_same_unit():
    module, analysis = analyse("""
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a = tt.addptr %ps, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %i = tt.bitcast %a : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<i32>> loc("i")
  %h = tt.bitcast %a : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<f16>> loc("h")
  %q = tt.ptr_to_int %a : tensor<128x!tt.ptr<f32>> -> tensor<128xi64> loc("q")
  %r64 = arith.extsi %range : tensor<128xi32> to tensor<128xi64>
  %b = tt.int_to_ptr %r64 : tensor<128xi64> -> tensor<128x!tt.ptr<i8>> loc("b")
""")
    assert analysis.get(value(module, "i")) == ax([128], [16], [1])
    assert analysis.get(value(module, "h")) == ax([1], [4], [1])  # every other half
    assert analysis.get(value(module, "q")) == ax([1], [4], [1])  # addresses step by 4
    assert analysis.get(value(module, "b")) == ax([128], [R], [1])  # bytes are bytes


def test_reshape_splits_and_merges_blocks_of_dims():
    module, analysis = analyse("""
  %r = tt.reshape %range : tensor<128xi32> -> tensor<8x16xi32> loc("r")
  %f = tt.reshape %r : tensor<8x16xi32> -> tensor<128xi32> loc("f")
  %v = tt.reshape %range : tensor<128xi32> -> tensor<1x128xi32> loc("v")
""")
    assert analysis.get(value(module, "r")) == ax([1, 16], [1, 16], [1, 1])  # rows start at 16k
    assert analysis.get(value(module, "f")) == ax([16], [16], [1])  # rows are not continued
    assert analysis.get(value(module, "v")) == ax([1, 128], [1, R], [1, 1])


def test_reshape_constancy_spans_wholly_constant_inner_dims():
    module = parse("""
tt.func @f(%a: tensor<4x4xi32> {tt.constancy = dense<[2, 4]> : tensor<2xi32>}) {
  %r = tt.reshape %a : tensor<4x4xi32> -> tensor<16xi32> loc("r")
  %s = tt.reshape %r : tensor<16xi32> -> tensor<2x8xi32> loc("s")
  tt.return
}""")
    analysis = AxisInfoAnalysis(module)
    assert analysis.get(value(module, "r")).constancy == (8,)
    assert analysis.get(value(module, "s")).constancy == (1, 8)


def test_select_of_equal_constants_is_that_constant():
    module, analysis = analyse("""
  %m = arith.cmpi slt, %range, %su : tensor<128xi32> loc("m")
  %s = arith.select %m, %s4, %s4 : tensor<128xi1>, tensor<128xi32> loc("s")
""")
    assert analysis.get(value(module, "s")) == ax([1], [4], [128], 4)
