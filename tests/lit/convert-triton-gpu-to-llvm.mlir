// The passes of a Triton reproducer's make_llir pipeline on a small ttg kernel (a load in a
// loop, a store): the kernel becomes an llvm.func of the CUDA backend's lowering with
// nvvm.kernel and nvvm.reqntid, the module gets ttg.shared and the triple, and enable-line-info
// fuses a di_subprogram into the function's location.
// RUN: tilecraft-opt %s --mlir-print-debuginfo --pass-pipeline='builtin.module(convert-scf-to-cf,convert-index-to-llvm{index-bitwidth=0},convert-triton-gpu-to-llvm{compute-capability=90},convert-nv-gpu-to-llvm,convert-arith-to-llvm{index-bitwidth=0},canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse,symbol-dce,enable-line-info)' | filecheck %s
// RUN: tilecraft-opt %s --pass-pipeline='builtin.module(convert-triton-gpu-to-llvm{compute-capability=80})' | filecheck %s --check-prefix=SM80

// CHECK: module attributes {llvm.data_layout = "", llvm.target_triple = "nvptx64-nvidia-cuda", {{.*}}ttg.shared = 0 : i32
// CHECK-NOT: tt.func
// CHECK: llvm.func @scale(%arg0: !llvm.ptr<1>{{.*}}, %arg1: i32{{.*}}) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
// CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK: llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.icmp "slt" %{{.*}}, %arg1 : i32
// CHECK: llvm.cond_br %{{.*}}, ^bb{{[0-9]+}}, ^bb{{[0-9]+}}
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.return
// CHECK: } loc(#[[FLOC:loc[0-9]+]])
// CHECK-NOT: tt.
// CHECK: #[[FLOC]] = loc(fused<#llvm.di_subprogram<compileUnit = #llvm.di_compile_unit<sourceLanguage = DW_LANG_C, file = #llvm.di_file<"convert-triton-gpu-to-llvm.mlir" in "{{.*}}">, producer = "triton", isOptimized = true, emissionKind = LineTablesOnly>, scope = #llvm.di_file<{{.*}}>, name = "scale", linkageName = "scale", file = #llvm.di_file<{{.*}}>, line = [[# @LINE + 7]], scopeLine = [[# @LINE + 7]], subprogramFlags = "Definition|Optimized", type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #llvm.di_null_type, #llvm.di_derived_type<tag = DW_TAG_pointer_type, name = "pointer", baseType = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "unknown_type", sizeInBits = 0, encoding = DW_ATE_signed>, sizeInBits = 64, dwarfAddressSpace = 1>, #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>>>>[

// SM80: llvm.func @scale
// SM80-NOT: nvvm.maxnreg

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scale(%x: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %f2 = arith.constant dense<2.000000e+00> : tensor<128xf32, #blocked>
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f2) -> (tensor<128xf32, #blocked>)  : i32 {
      %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
      %s = arith.mulf %v, %acc : tensor<128xf32, #blocked>
      scf.yield %s : tensor<128xf32, #blocked>
    }
    tt.store %ptrs, %r : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
