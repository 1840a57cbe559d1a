// A reproducer of Triton's make_llir stage runs with its own pipeline. Its passes sit in an
// `any(...)` manager nested in the module's, and convert-triton-gpu-to-llvm and
// enable-line-info run only on `builtin.module` ops: by MLIR's scheduling rule (an `any`
// manager runs on a child op only when every pass in it can), the manager runs on no child,
// so the kernel is left as it is and the run succeeds, as with triton-opt.
// RUN: tilecraft-opt --verify-diagnostics --dump-pass-pipeline --run-reproducer %s 2>&1 >/dev/null | filecheck %s
// RUN: tilecraft-opt --verify-diagnostics --run-reproducer %s | filecheck %s --check-prefix=IR

// CHECK: Pass Manager with 1 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   any(
// CHECK-NEXT:     convert-scf-to-cf,
// CHECK-NEXT:     convert-index-to-llvm{index-bitwidth=0},
// CHECK-NEXT:     convert-triton-gpu-to-llvm{compute-capability=90 ptx-version=0},
// CHECK-NEXT:     convert-nv-gpu-to-llvm,
// CHECK-NEXT:     convert-arith-to-llvm{index-bitwidth=0},
// CHECK:          enable-line-info

// IR:      tt.func public @triton__() {
// IR-NEXT:   tt.return

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @triton__() {
    tt.return
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(any(convert-scf-to-cf,convert-index-to-llvm{index-bitwidth=0},convert-triton-gpu-to-llvm{compute-capability=90},convert-nv-gpu-to-llvm,convert-arith-to-llvm{index-bitwidth=0},canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse,symbol-dce,enable-line-info))",
      disable_threading: false,
      verify_each: false
    }
  }
#-}
