// AMD accumulator layouts, padded and linear shared layouts, memdesc_subslice and fp4_to_fp:
// what parses, verifies and prints back (the rules' must-not-fire cases).
// RUN: tilecraft-opt %s --split-input-file | filecheck %s

// CHECK-DAG: #[[MFMA:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
// CHECK-DAG: #[[MFMA64:.*]] = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = true, elementBitWidth = 64}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #ttg.amd_mfma<{isTransposed = false, instrShape = [32, 32, 8], warpsPerCTA = [2, 2], version = 3, tilesPerWarp = [1, 1]}>
#mfma64 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = true, elementBitWidth = 64}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: @mfma
  tt.func @mfma(%a: tensor<64x64xf32, #mfma>, %b: tensor<64x64xf16, #blocked>) {
    // CHECK: -> tensor<64x64xf32, #[[MFMA64]]>
    %0 = ttg.convert_layout %a : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #mfma64>
    // CHECK: #ttg.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 8}>
    %1 = ttg.convert_layout %b : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mfma, kWidth = 8}>>
    tt.return
  }
}

// -----

// The empty basis lists are left out; rank is printed only when no basis gives it.
// CHECK-DAG: #ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}}>
// CHECK-DAG: #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = [[0, 0, 2]], warp = [[0, 1, 0], [0, 0, 1]]}, instrShape = [16, 16, 64]}>
// CHECK-DAG: #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {}}>
#wmma = #ttg.amd_wmma<{version = 1, ctaLayout = {register = [], warp = [[0, 1], [1, 0]]}}>
#wmma3 = #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = [[0, 0, 2]], warp = [[0, 1, 0], [0, 0, 1]]}, instrShape = [16, 16, 64]}>
#wmma1 = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = []}}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma(%a: tensor<32x32xf16, #wmma>, %b: tensor<2x32x32xf32, #wmma3>) {
    %0 = ttg.convert_layout %a : tensor<32x32xf16, #wmma> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 16}>>
    tt.return
  }
  tt.func @one_warp(%a: tensor<16x16xf16, #wmma1>) attributes {"ttg.num-warps" = 1 : i32} {
    tt.return
  }
}

// -----

// An identity map prints in the short form, any other map as its bases.
// CHECK-DAG: #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [16, 32]}>
// CHECK-DAG: #ttg.padded_shared<[4:+4] {order = [0, 1], shape = [4, 4]}>
// CHECK-DAG: #ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], block = []}>
// CHECK-DAG: #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>
#padded = #ttg.padded_shared<[32:+4, 64:+8] {shape = [16, 32], order = [1, 0]}>
#padded1 = #ttg.padded_shared<[4:+4] {offset = [[1, 0], [2, 0], [0, 1], [0, 2]], block = []}>
#padded2 = #ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]]}>
#linear = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @padded
  tt.func @padded(%a: !ttg.memdesc<3x16x32xf16, #padded, #smem, mutable>, %b: !ttg.memdesc<4x4xf32, #padded1, #smem>,
                  %c: !ttg.memdesc<8x4xf16, #padded2, #smem>, %d: !ttg.memdesc<2x2xf16, #linear, #smem>) {
    // A padded layout of the memdesc's rank may be split.
    // CHECK: ttg.memdesc_subslice %{{.*}}[2, 0]
    %0 = ttg.memdesc_subslice %b[2, 0] : !ttg.memdesc<4x4xf32, #padded1, #smem> -> !ttg.memdesc<2x4xf32, #padded1, #smem, 4x4>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @subslices
  tt.func @subslices(%a: !ttg.memdesc<8x8xf32, #shared, #smem>) {
    // Whole rows of the swizzle pattern (4 rows), and whole columns of a row-major layout.
    // CHECK: ttg.memdesc_subslice %{{.*}}[4, 0]
    %0 = ttg.memdesc_subslice %a[4, 0] : !ttg.memdesc<8x8xf32, #shared, #smem> -> !ttg.memdesc<4x8xf32, #shared, #smem, 8x8>
    // CHECK: ttg.memdesc_subslice %{{.*}}[0, 2]
    %1 = ttg.memdesc_subslice %a[0, 2] : !ttg.memdesc<8x8xf32, #shared, #smem> -> !ttg.memdesc<8x2xf32, #shared, #smem, 8x8>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  // CHECK-LABEL: @subslice_in_one_cta
  tt.func @subslice_in_one_cta(%b: !ttg.memdesc<16x8xf32, #shared, #smem>) {
    // CHECK: ttg.memdesc_subslice %{{.*}}[0, 4]
    %0 = ttg.memdesc_subslice %b[0, 4] : !ttg.memdesc<16x8xf32, #shared, #smem> -> !ttg.memdesc<16x4xf32, #shared, #smem, 16x8>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @fp4
  tt.func @fp4(%a: tensor<64x32xi8, #blocked>, %b: tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %c: tensor<32x32xi8, #blocked>) {
    // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32} : tensor<64x32xi8, #{{.*}}> -> tensor<64x64xbf16, #{{.*}}>
    %0 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked1>
    // CHECK: ttg.fp4_to_fp
    %1 = ttg.fp4_to_fp %b {axis = 1 : i32} : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    // Along a slower dimension.
    // CHECK: ttg.fp4_to_fp
    %2 = ttg.fp4_to_fp %c {axis = 0 : i32} : tensor<32x32xi8, #blocked> -> tensor<64x32xf16, #blocked2>
    // Without layouts.
    // CHECK: ttg.fp4_to_fp
    %3 = arith.constant dense<1> : tensor<2xi8>
    %4 = ttg.fp4_to_fp %3 {axis = 0 : i32} : tensor<2xi8> -> tensor<4xbf16>
    tt.return
  }
}
