// tritongpu-reduce-data-duplication: a conversion to an mma operand layout goes through
// shared memory with the swizzle for the operand (K along the rows or the columns); it must
// leave alone a conversion that only picks registers, and conversions to other layouts.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-reduce-data-duplication | filecheck %s

#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// K (64 f16) along the rows: vectors of 4 * kWidth, one row per phase, 8 / 2 phases.
// CHECK: #[[$S:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: @a_operand
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[M:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[$S]], #smem>
// CHECK: ttg.local_load %[[M]] : !ttg.memdesc<64x64xf16, #[[$S]], #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
tt.func @a_operand(%a: tensor<64x64xf16, #b>) -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
  %0 = ttg.convert_layout %a : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  tt.return %0 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// B with N fastest in memory (order [0, 1] has dim 0 = K first: K along the columns).
// CHECK: #[[$S:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: @b_operand
// CHECK: ttg.local_alloc %{{.*}} -> !ttg.memdesc<64x64xf16, #[[$S]], #smem>
// CHECK: ttg.local_load
tt.func @b_operand(%b: tensor<64x64xf16, #b>) -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> {
  %0 = ttg.convert_layout %b : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  tt.return %0 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: each thread already holds its whole row of K (registers only), and a
// conversion to a blocked layout is not this pass's.
// CHECK-LABEL: @registers_only
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %{{.*}} -> tensor<128x32xf32, #ttg.dot_op
// CHECK: ttg.convert_layout %{{.*}} -> tensor<128x32xf32, #
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.return
tt.func @registers_only(%a: tensor<128x32xf32, #b>) -> (tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #c}>>, tensor<128x32xf32, #c>) {
  %0 = ttg.convert_layout %a : tensor<128x32xf32, #b> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #c}>>
  %1 = ttg.convert_layout %a : tensor<128x32xf32, #b> -> tensor<128x32xf32, #c>
  tt.return %0, %1 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #c}>>, tensor<128x32xf32, #c>
}
}
