// convert-triton-gpu-to-llvm on kernels the CUDA lowering cannot take: an error at the kernel,
// never a traceback.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm=compute-capability=90

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{argument 0 of 'takes_shared_memory': a kernel cannot take a !ttg.memdesc<16x16xf16}}
  tt.func @takes_shared_memory(%buf: !ttg.memdesc<16x16xf16, #shared, #smem>) {
    tt.return
  }
}
