// The layouts tt.trans, tt.join, tt.split, tt.reshape and ttg.memdesc_trans infer for their
// results from TritonGPU layouts: a result layout is accepted when it is the inferred one or
// the same map (a #ttg.linear equal to a blocked one), and refused with the inference's
// message (followed by MLIR's "failed to infer returned types" where the op infers its type).
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// Valid: each result takes the inferred layout, or one with the same map.
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#j_linear = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#split_linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @valid(%x: tensor<32x64xf32, #b>, %y: tensor<128xf32, #b1>, %z: tensor<128x2xf32, #j_linear>) {
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32, #b> -> tensor<64x32xf32, #t>
  %1 = tt.join %y, %y : tensor<128xf32, #b1> -> tensor<128x2xf32, #j>
  %2 = tt.join %y, %y : tensor<128xf32, #b1> -> tensor<128x2xf32, #j_linear>
  %3, %4 = tt.split %1 : tensor<128x2xf32, #j> -> tensor<128xf32, #b1>
  %5, %6 = tt.split %z : tensor<128x2xf32, #j_linear> -> tensor<128xf32, #split_linear>
  %7, %8 = tt.split %z : tensor<128x2xf32, #j_linear> -> tensor<128xf32, #b1>
  tt.return
}
}

// -----

// A transpose keeps each element in its thread: the result is the permuted layout.
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @trans(%x: tensor<32x64xf32, #b>) {
  // expected-error @+2 {{'tt.trans' op inferred type(s) 'tensor<64x32xf32, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>' are incompatible with return type(s) of operation 'tensor<64x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
  // expected-error @+1 {{'tt.trans' op failed to infer returned types}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32, #b> -> tensor<64x32xf32, #b>
  tt.return
}
}

// -----

// A split needs both halves of each pair in one thread's registers.
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @split_across_lanes(%x: tensor<64x2xf32, #lanes>) {
  // expected-error @+2 {{Fp4ToFpOp/SplitOp requires at least 2 elements per thread in the axis/last dimension}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<64x2xf32, #lanes> -> tensor<64xf32, #b1>
  tt.return
}
}

// -----

// The halves of a split keep the source's layout of the other dimensions.
#j = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @split_result(%x: tensor<256x2xf32, #j>) {
  // expected-error @+2 {{op inferred type(s)}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<256x2xf32, #j> -> tensor<256xf32, #b2>
  tt.return
}
}

// -----

// A join's operands must have the layout that splitting its result gives.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j2 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @join_layout(%x: tensor<256xf32, #b1>) {
  // expected-error @+1 {{'tt.join' op incompatible join layout}}
  %0 = tt.join %x, %x : tensor<256xf32, #b1> -> tensor<256x2xf32, #j2>
  tt.return
}
}

// -----

// A joined layout whose pairs lie across lanes has no source layout.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @join_across_lanes(%x: tensor<64xf32, #b1>) {
  // expected-error @+1 {{Fp4ToFpOp/SplitOp requires at least 2 elements per thread in the axis/last dimension}}
  %0 = tt.join %x, %x : tensor<64xf32, #b1> -> tensor<64x2xf32, #lanes>
  tt.return
}
}

// -----

// ttg.memdesc_trans: the view's layout keeps every element at its offset (swizzled layouts
// permute their order, an NVMMA layout transposed by [1, 0] flips `transposed`, a linear one
// permutes its bases); the allocation shape's last dimensions are permuted too.
#sw = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [2, 1, 0]}>
#sw_t = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 2, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv_t = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @memdesc_trans(%a: !ttg.memdesc<2x8x16xf16, #sw, #smem>, %b: !ttg.memdesc<32x64xf16, #nv, #smem, mutable, 2x32x64>) {
  %0 = ttg.memdesc_trans %a {order = array<i32: 0, 2, 1>} : !ttg.memdesc<2x8x16xf16, #sw, #smem> -> !ttg.memdesc<2x16x8xf16, #sw_t, #smem>
  %1 = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nv, #smem, mutable, 2x32x64> -> !ttg.memdesc<64x32xf16, #nv_t, #smem, mutable, 2x64x32>
  tt.return
}
}

// -----

#sw = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @memdesc_trans_layout(%a: !ttg.memdesc<8x16xf16, #sw, #smem>) {
  // expected-error @+2 {{'ttg.memdesc_trans' op inferred type(s) '!ttg.memdesc<16x8xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [0, 1]}>, #ttg.shared_memory>' are incompatible with return type(s) of operation '!ttg.memdesc<16x8xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>, #ttg.shared_memory>'}}
  // expected-error @+1 {{'ttg.memdesc_trans' op failed to infer returned types}}
  %0 = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<8x16xf16, #sw, #smem> -> !ttg.memdesc<16x8xf16, #sw, #smem>
  tt.return
}
}

// -----

#sw = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @memdesc_trans_order(%a: !ttg.memdesc<8x16xf16, #sw, #smem>) {
  // expected-error @+1 {{order must be a permutation of 0..n-1}}
  %0 = ttg.memdesc_trans %a {order = array<i32: 1, 1>} : !ttg.memdesc<8x16xf16, #sw, #smem> -> !ttg.memdesc<16x8xf16, #sw, #smem>
  tt.return
}
}

// -----

// A reshape that keeps the order moves no element between threads: its result holds in each
// thread the elements the source held there (one with allow_reorder may take any layout).
#fits = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#four = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#four_linear = #ttg.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = [], block = []}>
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @reshape(%x: tensor<16x8xf32, #fits>) {
  %0 = tt.reshape %x : tensor<16x8xf32, #fits> -> tensor<128xf32, #four>
  %1 = tt.reshape %x : tensor<16x8xf32, #fits> -> tensor<128xf32, #four_linear>
  %2 = tt.reshape %x allow_reorder : tensor<16x8xf32, #fits> -> tensor<128xf32, #one>
  // expected-error @+1 {{Expected result encoding #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}> but was #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>}}
  %3 = tt.reshape %x : tensor<16x8xf32, #fits> -> tensor<128xf32, #one>
  tt.return
}
}
