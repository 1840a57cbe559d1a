// tritongpu-accelerate-matmul: dots whose types mma.sync takes get #ttg.nvidia_mma (v2)
// accumulators and #ttg.dot_op operands of it on sm_80 and newer; it must leave alone dots on
// older targets, f32 dots with ieee precision, dots smaller than one instruction and modules
// without a CUDA target.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul | filecheck %s

// 128x32 f16 -> f32 with 4 warps: 8 tiles of 16 rows against 4 of 8 columns, so a warp
// along M, then (4 against 4, M on ties) another along M.
// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: @f16
// CHECK: %[[A:.+]] = ttg.convert_layout %arg0 {{.*}} -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[B:.+]] = ttg.convert_layout %arg1 {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[C:.+]] = ttg.convert_layout {{.*}} -> tensor<128x32xf32, #[[MMA]]>
// CHECK: %[[D:.+]] = tt.dot %[[A]], %[[B]], %[[C]] {{.*}} -> tensor<128x32xf32, #[[MMA]]>
// CHECK: %[[R:.+]] = ttg.convert_layout %[[D]] : tensor<128x32xf32, #[[MMA]]> -> tensor<128x32xf32, #blocked>
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<128x32xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x32xf32, #blocked>
    tt.return %d : tensor<128x32xf32, #blocked>
  }
}

// -----

// Two chained dots share one layout with every warp along the larger dim of the last one.
// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK-LABEL: @chained
// CHECK: tt.dot {{.*}} -> tensor<32x32xf32, #[[MMA]]>
// CHECK: tt.dot {{.*}} -> tensor<32x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained(%a: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %v: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<32x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
    %zero1 = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #blocked>
    %s = tt.dot %a, %b, %zero : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    %p = arith.truncf %s : tensor<32x32xf32, #blocked> to tensor<32x32xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %pa, %v, %zero1 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #blocked>
    tt.return %o : tensor<32x64xf32, #blocked>
  }
}

// -----

// fp8 operands: kWidth 4 (four per 32-bit register); sm_90 has no fp8 mma.sync, so they are
// widened to f16 after the conversion; sm_89 keeps them.
// CHECK-LABEL: @fp8_sm90
// CHECK: %[[A:.+]] = ttg.convert_layout %arg0 {{.*}} -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %[[B:.+]] = ttg.convert_layout %arg1 {{.*}} -> tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %[[A16:.+]] = tt.fp_to_fp %[[A]] : tensor<64x32xf8E5M2, {{.*}}> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %[[B16:.+]] = tt.fp_to_fp %[[B]]
// CHECK: tt.dot %[[A16]], %[[B16]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_sm90(%a: tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// CHECK-LABEL: @fp8_sm89
// CHECK-NOT: tt.fp_to_fp
// CHECK: tt.dot {{.*}} : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:89", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_sm89(%a: tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// An f16 dot loaded as fp8: kWidth follows the load.
// CHECK-LABEL: @loaded_as_fp8
// CHECK: tt.dot {{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loaded_as_fp8(%pa: tensor<64x32x!tt.ptr<f8E5M2>, #blocked>, %pb: tensor<32x64x!tt.ptr<f8E5M2>, #blocked>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %la = tt.load %pa : tensor<64x32x!tt.ptr<f8E5M2>, #blocked>
    %lb = tt.load %pb : tensor<32x64x!tt.ptr<f8E5M2>, #blocked>
    %wa = tt.fp_to_fp %la : tensor<64x32xf8E5M2, #blocked> -> tensor<64x32xf16, #blocked>
    %wb = tt.fp_to_fp %lb : tensor<32x64xf8E5M2, #blocked> -> tensor<32x64xf16, #blocked>
    %a = ttg.convert_layout %wa : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.convert_layout %wb : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Must not fire: sm_75 (the f16 operands are widened for CUDA cores instead), an f32 dot with
// ieee precision, a dot with 8 rows, and a dot whose K is less than one instruction's.
// CHECK-NOT: nvidia_mma
// CHECK-LABEL: @sm75
// CHECK: %[[A:.+]] = arith.extf %arg0
// CHECK: %[[B:.+]] = arith.extf %arg1
// CHECK: tt.dot %[[A]], %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:75", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm75(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// CHECK-NOT: nvidia_mma
// CHECK-LABEL: @ieee
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #blocked>
// CHECK-LABEL: @eight_rows
// CHECK: tt.dot {{.*}} -> tensor<8x64xf32, #blocked>
// CHECK-LABEL: @short_k
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ieee(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero, inputPrecision = ieee : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func @eight_rows(%a: tensor<8x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<8x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<8x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<8x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x64xf32, #blocked>
    tt.return %d : tensor<8x64xf32, #blocked>
  }
  tt.func @short_k(%a: tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// B is two f16 loads joined and reshaped: layout propagation halves the elements per thread
// along K through the join, so the operands take twice the kWidth (4) to keep the loads
// 32 bits wide; A alone would take kWidth 2.
// CHECK-LABEL: @joined_operand
// CHECK: tt.dot {{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#b4 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @joined_operand(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %p: tensor<64x32x!tt.ptr<f16>, #b2>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #b2>
    %y = tt.load %p : tensor<64x32x!tt.ptr<f16>, #b2>
    %j = tt.join %x, %y : tensor<64x32xf16, #b2> -> tensor<64x32x2xf16, #b3>
    %r = tt.reshape %j : tensor<64x32x2xf16, #b3> -> tensor<64x64xf16, #b4>
    %b = ttg.convert_layout %r : tensor<64x64xf16, #b4> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Must not fire: no CUDA target.
// CHECK-LABEL: @no_target
// CHECK-NOT: nvidia_mma
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_target(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}
