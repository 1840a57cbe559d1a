"""Golden tt IR (FileCheck) of the classic kernels: what the frontend emits, verified, for the
signatures Triton would specialize them to."""

from __future__ import annotations

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.ir import parse_module, print_op

from . import classic_kernels as k
from .filecheck_util import filecheck


def _roundtrip(text: str) -> None:
    """The printed module parses back, verifies and prints the same."""
    module = parse_module(text)
    module.verify()
    assert print_op(module) == text


def test_vector_add():
    text = k.add_kernel.ttir("*fp32:16", "*fp32:16", "*fp32:16", "i32:16", BLOCK_SIZE=1024)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @add_kernel(
    // CHECK-SAME: %[[X:arg[0-9]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[Y:arg[0-9]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[OUT:arg[0-9]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[N:arg[0-9]+]]: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false}
    // CHECK: %[[PID:.+]] = tt.get_program_id x : i32
    // CHECK: %[[C:.+]] = arith.constant 1024 : i32
    // CHECK: %[[START:.+]] = arith.muli %[[PID]], %[[C]] : i32
    // CHECK: %[[RANGE:.+]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    // CHECK: %[[SPLAT:.+]] = tt.splat %[[START]] : i32 -> tensor<1024xi32>
    // CHECK: %[[OFFS:.+]] = arith.addi %[[SPLAT]], %[[RANGE]] : tensor<1024xi32>
    // CHECK: %[[NS:.+]] = tt.splat %[[N]] : i32 -> tensor<1024xi32>
    // CHECK: %[[MASK:.+]] = arith.cmpi slt, %[[OFFS]], %[[NS]] : tensor<1024xi32>
    // CHECK: %[[XS:.+]] = tt.splat %[[X]] : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    // CHECK: %[[XP:.+]] = tt.addptr %[[XS]], %[[OFFS]] : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    // CHECK: %[[XV:.+]] = tt.load %[[XP]], %[[MASK]] : tensor<1024x!tt.ptr<f32>>
    // CHECK: %[[YV:.+]] = tt.load {{.*}}, %[[MASK]] : tensor<1024x!tt.ptr<f32>>
    // CHECK: %[[SUM:.+]] = arith.addf %[[XV]], %[[YV]] : tensor<1024xf32>
    // CHECK: %[[OS:.+]] = tt.splat %[[OUT]]
    // CHECK: %[[OP:.+]] = tt.addptr %[[OS]], %[[OFFS]]
    // CHECK: tt.store %[[OP]], %[[SUM]], %[[MASK]] : tensor<1024x!tt.ptr<f32>>
    // CHECK-NEXT: tt.return
    """)
    _roundtrip(text)


def test_fused_softmax():
    text = k.softmax_kernel.ttir("*fp32:16", "*fp32:16", "i32", "i32", "i32", "i32",
                                 BLOCK_SIZE=128, num_stages=3)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @softmax_kernel(
    // CHECK: %[[PID:.+]] = tt.get_program_id x : i32
    // CHECK: %[[STEP:.+]] = tt.get_num_programs x : i32
    // CHECK: scf.for %[[ROW:.+]] = %[[PID]] to %{{.+}} step %[[STEP]] : i32 {
    // CHECK: %[[NEG_INF:.+]] = arith.constant dense<0xFF800000> : tensor<128xf32>
    // CHECK: %[[ROWV:.+]] = tt.load %{{.+}}, %[[MASK:.+]], %[[NEG_INF]] : tensor<128x!tt.ptr<f32>>
    // CHECK: %[[MAX:.+]] = "tt.reduce"(%[[ROWV]]) <{axis = 0 : i32}> ({
    // CHECK: arith.maxnumf
    // CHECK: tt.reduce.return
    // CHECK: }) : (tensor<128xf32>) -> f32
    // CHECK: %[[MAXS:.+]] = tt.splat %[[MAX]] : f32 -> tensor<128xf32>
    // CHECK: %[[SUB:.+]] = arith.subf %[[ROWV]], %[[MAXS]] : tensor<128xf32>
    // CHECK: %[[NUM:.+]] = math.exp %[[SUB]] : tensor<128xf32>
    // CHECK: %[[DEN:.+]] = "tt.reduce"(%[[NUM]]) <{axis = 0 : i32}> ({
    // CHECK: arith.addf
    // CHECK: %[[DENS:.+]] = tt.splat %[[DEN]] : f32 -> tensor<128xf32>
    // CHECK: %[[Y:.+]] = arith.divf %[[NUM]], %[[DENS]] : tensor<128xf32>
    // CHECK: tt.store %{{.+}}, %[[Y]], %[[MASK]] : tensor<128x!tt.ptr<f32>>
    // CHECK: } {tt.num_stages = 3 : i32}
    // CHECK-NEXT: tt.return
    """)
    _roundtrip(text)


def test_layer_norm_forward():
    text = k.layer_norm_fwd.ttir("*fp16:16", "*fp16:16", "*fp16:16", "*fp16:16", "*fp32:16",
                                 "*fp32:16", "i32", "i32", "fp32", BLOCK_SIZE=256)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @_layer_norm_fwd_fused(
    // CHECK-SAME: %[[X:arg0]]: !tt.ptr<f16>
    // CHECK-SAME: %[[EPS:arg[0-9]+]]: f32)
    // CHECK: %[[XROW:.+]] = tt.addptr %[[X]], %{{.+}} : !tt.ptr<f16>, i32
    // CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<256xf32>
    // CHECK: %[[MEAN_ACC:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (tensor<256xf32>) : i32 {
    // CHECK: %[[A:.+]] = tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<256x!tt.ptr<f16>>
    // CHECK: %[[A32:.+]] = arith.extf %[[A]] : tensor<256xf16> to tensor<256xf32>
    // CHECK: %[[NEXT:.+]] = arith.addf %[[ACC]], %[[A32]] : tensor<256xf32>
    // CHECK: scf.yield %[[NEXT]] : tensor<256xf32>
    // CHECK: "tt.reduce"(%[[MEAN_ACC]])
    // CHECK: arith.sitofp %{{.+}} : i32 to f32
    // CHECK: arith.divf
    // CHECK: scf.for
    // CHECK: arith.select
    // CHECK: arith.mulf
    // CHECK: scf.yield
    // CHECK: %[[VAR_EPS:.+]] = arith.addf %{{.+}}, %[[EPS]] : f32
    // CHECK: %[[SQRT:.+]] = math.sqrt %[[VAR_EPS]] : f32
    // CHECK: %[[RSTD:.+]] = arith.divf %{{.+}}, %[[SQRT]] : f32
    // CHECK: tt.store %{{.+}}, %[[RSTD]] : !tt.ptr<f32>
    // CHECK: scf.for
    // CHECK: arith.extf %{{.+}} : tensor<256xf16> to tensor<256xf32>
    // CHECK: arith.truncf %{{.+}} : tensor<256xf32> to tensor<256xf16>
    // CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor<256x!tt.ptr<f16>>
    // CHECK: tt.return
    """)
    _roundtrip(text)


def test_matmul_k_loop():
    text = k.matmul_kernel.ttir("*fp16:16", "*fp16:16", "*fp16:16", "i32", "i32", "i32",
                                "i32:16", 1, "i32:16", 1, "i32:16", 1, BLOCK_SIZE_M=64,
                                BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @matmul_kernel(
    // CHECK-SAME: %{{.+}}: i32 {tt.divisibility = 16 : i32}, %{{.+}}: i32 {tt.divisibility = 16 : i32}, %{{.+}}: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false}
    // CHECK: arith.minsi
    // CHECK: %[[A_PTRS:.+]] = tt.addptr %{{.+}}, %{{.+}} : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    // CHECK: %[[B_PTRS:.+]] = tt.addptr %{{.+}}, %{{.+}} : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    // CHECK: %[[ACC0:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    // CHECK: %[[LOOP:.+]]:3 = scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[ACC0]], %[[PA:.+]] = %[[A_PTRS]], %[[PB:.+]] = %[[B_PTRS]]) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>) : i32 {
    // CHECK: %[[A:.+]] = tt.load %[[PA]], %{{.+}}, %{{.+}} : tensor<64x32x!tt.ptr<f16>>
    // CHECK: %[[B:.+]] = tt.load %[[PB]], %{{.+}}, %{{.+}} : tensor<32x64x!tt.ptr<f16>>
    // CHECK: %[[D:.+]] = tt.dot %[[A]], %[[B]], %[[ACC]], inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    // CHECK: %[[NA:.+]] = tt.addptr %[[PA]], %{{.+}} : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    // CHECK: %[[NB:.+]] = tt.addptr %[[PB]], %{{.+}} : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    // CHECK: scf.yield %[[D]], %[[NA]], %[[NB]] : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
    // CHECK: %[[C:.+]] = arith.truncf %[[LOOP]]#0 : tensor<64x64xf32> to tensor<64x64xf16>
    // CHECK: %[[MASK:.+]] = arith.andi %{{.+}}, %{{.+}} : tensor<64x64xi1>
    // CHECK: tt.store %{{.+}}, %[[C]], %[[MASK]] : tensor<64x64x!tt.ptr<f16>>
    """)
    # strides equal to 1 are specialized away: they are not arguments of the function
    assert text.count("%arg") and "%arg12" not in text.split("{\n")[0]
    _roundtrip(text)


def test_while_loop():
    text = k.while_kernel.ttir("*fp32", "*fp32", "i32", "fp32", BLOCK=16)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @while_kernel(
    // CHECK: %[[T0:.+]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[S0:.+]] = arith.constant 0 : i32
    // CHECK: %[[W:.+]]:2 = scf.while (%[[T:.+]] = %[[T0]], %[[S:.+]] = %[[S0]]) : (f32, i32) -> (f32, i32) {
    // CHECK: %[[C1:.+]] = arith.cmpi slt, %[[S]], %{{.+}} : i32
    // CHECK: %[[C2:.+]] = arith.cmpf olt, %[[T]], %{{.+}} : f32
    // CHECK: %[[C:.+]] = arith.andi %[[C1]], %[[C2]] : i1
    // CHECK: scf.condition(%[[C]]) %[[T]], %[[S]] : f32, i32
    // CHECK: } do {
    // CHECK: ^bb0(%[[T2:.+]]: f32, %[[S2:.+]]: i32):
    // CHECK: "tt.reduce"
    // CHECK: %[[NT:.+]] = arith.addf %[[T2]], %{{.+}} : f32
    // CHECK: %[[NS:.+]] = arith.addi %[[S2]], %{{.+}} : i32
    // CHECK: scf.yield %[[NT]], %[[NS]] : f32, i32
    // CHECK: tt.store %{{.+}}, %[[W]]#0 : !tt.ptr<f32>
    // CHECK: arith.sitofp %[[W]]#1 : i32 to f32
    """)
    _roundtrip(text)


def test_nested_jit_calls():
    text = k.nested_call_kernel.ttir("*fp32", "*fp32", "*fp32", "*fp32", "i32", BLOCK=64)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @nested_call_kernel(
    // CHECK: %[[R:.+]]:2 = tt.call @[[F:add_sub_scaled_.+]](%{{.+}}, %{{.+}}) : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
    // CHECK: tt.store %{{.+}}, %[[R]]#0, %{{.+}}
    // CHECK: tt.store %{{.+}}, %[[R]]#1, %{{.+}}
    // CHECK: tt.func private @[[G:scale_.+]](%{{.+}}: tensor<64xf32>) -> tensor<64xf32> attributes {noinline = false}
    // CHECK: arith.constant dense<2.000000e+00> : tensor<64xf32>
    // CHECK: arith.mulf
    // CHECK: tt.return %{{.+}} : tensor<64xf32>
    // CHECK: tt.func private @[[F]](%[[X:arg[0-9]+]]: tensor<64xf32>, %[[Y:arg[0-9]+]]: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
    // CHECK: %[[S:.+]] = arith.addf %[[X]], %[[Y]]
    // CHECK: %[[SS:.+]] = tt.call @[[G]](%[[S]])
    // CHECK: %[[D:.+]] = arith.subf %[[X]], %[[Y]]
    // CHECK: %[[DS:.+]] = tt.call @[[G]](%[[D]])
    // CHECK: tt.return %[[SS]], %[[DS]] : tensor<64xf32>, tensor<64xf32>
    """)
    # one function per specialization: `scale` is generated once and called twice
    assert text.count("tt.func private @scale_") == 1
    _roundtrip(text)


def test_reduce_with_custom_combine():
    text = k.max_abs_kernel.ttir("*fp32", "*fp32", "i32", BLOCK=64)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @max_abs_kernel(
    // CHECK: %[[R:.+]] = "tt.reduce"(%{{.+}}) <{axis = 0 : i32}> ({
    // CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32):
    // CHECK-NEXT: %[[C:.+]] = tt.call @[[F:max_abs_combine_.+]](%[[A]], %[[B]]) : (f32, f32) -> f32
    // CHECK-NEXT: tt.reduce.return %[[C]] : f32
    // CHECK-NEXT: }) : (tensor<64xf32>) -> f32
    // CHECK: tt.store %{{.+}}, %[[R]] : !tt.ptr<f32>
    // CHECK: tt.func private @[[F]](%[[X:arg[0-9]+]]: f32, %[[Y:arg[0-9]+]]: f32) -> f32
    // CHECK: math.absf %[[X]] : f32
    // CHECK: arith.cmpf ogt
    // CHECK: arith.select
    """)
    _roundtrip(text)


def test_early_return_and_scf_if():
    text = k.early_exit_kernel.ttir("*fp32", "*fp32", "i32", BLOCK=64)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @early_exit_kernel(
    // CHECK: %[[C:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : i32
    // CHECK: cf.cond_br %[[C]], ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
    // CHECK: ^[[THEN]]:
    // CHECK-NEXT: tt.return
    // CHECK: ^[[ELSE]]:
    // CHECK-NEXT: cf.br ^[[END:bb[0-9]+]]
    // CHECK: ^[[END]]:
    // CHECK: %[[X:.+]] = tt.load
    // CHECK: %[[IS0:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : i32
    // CHECK: %[[R:.+]] = scf.if %[[IS0]] -> (tensor<64xf32>) {
    // CHECK: %[[M:.+]] = arith.mulf %[[X]], %{{.+}} : tensor<64xf32>
    // CHECK: scf.yield %[[M]] : tensor<64xf32>
    // CHECK: } else {
    // CHECK: %[[A:.+]] = arith.addf %[[X]], %{{.+}} : tensor<64xf32>
    // CHECK: scf.yield %[[A]] : tensor<64xf32>
    // CHECK: tt.store %{{.+}}, %[[R]], %{{.+}}
    // CHECK: tt.return
    """)
    _roundtrip(text)


def test_dropout_philox():
    text = k.dropout_kernel.ttir("*fp32", "*fp32", "i32", "fp32", "i32", BLOCK_SIZE=128)
    filecheck(text, """
    // CHECK-LABEL: tt.func public @_seeded_dropout(
    // CHECK: arith.extsi %{{.+}} : i32 to i64
    // CHECK: tt.mulhiui %{{.+}}, %{{.+}} : tensor<128xi32>
    // CHECK: arith.xori
    // CHECK: arith.sitofp %{{.+}} : tensor<128xi32> to tensor<128xf32>
    // CHECK: arith.cmpf ogt
    // CHECK: arith.select
    // CHECK: tt.store
    """)
    assert text.count("tt.mulhiui") == 20  # ten Philox rounds, two products each


# -- specialization and locations ----------------------------------------------------------------


@tc.jit
def specialized(x_ptr, stride, n, flag: tl.int1 = True, BLOCK: tl.constexpr = 16):
    offs = tl.arange(0, BLOCK) * stride
    if flag:
        tl.store(x_ptr + offs, n, mask=offs < n)


def test_specialization_from_values():
    import numpy as np

    x = np.zeros(64, np.int32)
    text = specialized.ttir(x, 1, 48, True)
    # pointers and integers divisible by 16 get tt.divisibility; 1 becomes a constant
    header = text.splitlines()[1]
    assert header.count("tt.divisibility = 16 : i32") == 2
    # stride == 1 is a constant, not an argument: x_ptr, n and flag remain
    assert "%arg1: i32 {tt.divisibility" in header and "%arg2: i1" in header
    assert "%arg3" not in header and "arith.constant dense<1> : tensor<16xi32>" in text
    other = specialized.ttir(x, 3, 47, True)
    assert "arith.muli" in other and other.splitlines()[1].count("tt.divisibility") == 1


def test_constexpr_if_folds_and_tensor_if_becomes_scf_if():
    text = specialized.ttir("*i32", "i32", "i32", "i1")
    assert "scf.if" in text
    compile_time = specialized.ttir("*i32", "i32", "i32", tl.constexpr(False))
    assert "scf.if" not in compile_time and "tt.store" not in compile_time


def test_locations_are_the_users_file_line_col():
    module = k.add_kernel.ir("*fp32", "*fp32", "*fp32", "i32", BLOCK_SIZE=64)
    text = print_op(module, print_debuginfo=True)
    import inspect

    lines, first = inspect.getsourcelines(k.add_kernel.fn)
    load_line = first + next(i for i, line in enumerate(lines) if "x = tl.load" in line)
    assert f'01_vector_add.py":{load_line}:' in text
    store = next(line for line in text.splitlines() if "tt.store" in line)
    alias = store.rsplit("loc(", 1)[1].rstrip(")")  # an op's location prints as its alias
    definition = next(line for line in text.splitlines() if line.startswith(f"{alias} = "))
    assert f'01_vector_add.py":{load_line + 3}:5)' in definition


@pytest.mark.parametrize("kernel,args,kwargs", [
    (k.softmax_kernel, ("*fp16", "*fp16", "i32", "i32", "i32", "i32"),
     {"BLOCK_SIZE": 256, "num_stages": 2}),
    (k.dropout_kernel, ("*fp16", "*fp16", "i32", "fp32", "i32"), {"BLOCK_SIZE": 64}),
])
def test_other_specializations_verify(kernel, args, kwargs):
    _roundtrip(kernel.ttir(*args, **kwargs))
