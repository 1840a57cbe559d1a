// tritongpu-optimize-dot-operands: transposes and reshapes of dot operands become views of
// shared memory. Must not fire: a transposed tensor converted for an op other than a dot, a
// transposed tensor stored for a load rather than a dot, a reshape into a transposed NVMMA
// buffer, and a reshape that changes the contiguous dim.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-optimize-dot-operands -canonicalize | filecheck %s

// mma.sync A transposed in registers: stored untransposed, swizzled for the operand it is read
// as, and loaded through a transposed view; the other use of the transpose keeps it.
// CHECK-DAG: #[[SH:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-DAG: #[[SHT:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: @mma_v2_trans
// CHECK: %[[BUF:.+]] = ttg.local_alloc %arg0 : ({{.*}}) -> !ttg.memdesc<64x64xf16, #[[SH]], #smem>
// CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %[[BUF]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[SH]], #smem> -> !ttg.memdesc<64x64xf16, #[[SHT]], #smem>
// CHECK: %[[A:.+]] = ttg.local_load %[[VIEW]] {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[T:.+]] = tt.trans %arg0
// CHECK: tt.dot %[[A]]
// CHECK: arith.extf %[[T]]
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2_trans(%x: tensor<64x64xf16, #cols>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #rows>) {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #cols> -> tensor<64x64xf16, #rows>
    %a = ttg.convert_layout %t : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %e = arith.extf %t : tensor<64x64xf16, #rows> to tensor<64x64xf32, #rows>
    tt.return %d, %e : tensor<64x64xf32, #mma>, tensor<64x64xf32, #rows>
  }
}

// -----

// The converted transpose feeds an addition, not the dot: left alone.
// CHECK-LABEL: @mma_v2_trans_not_to_dot
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.trans
// CHECK: ttg.convert_layout
// CHECK: arith.addf
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2_trans_not_to_dot(%x: tensor<64x64xf16, #cols>, %y: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #cols> -> tensor<64x64xf16, #rows>
    %a = ttg.convert_layout %t : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %s = arith.addf %a, %y : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %s, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// wgmma B stored from a transpose: the source is stored with the NVMMA layout transposed back
// and read through a transposed view.
// CHECK-DAG: #[[SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SHT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @wgmma_trans
// CHECK: %[[BUF:.+]] = ttg.local_alloc %arg1 : ({{.*}}) -> !ttg.memdesc<64x128xf16, #[[SHT]], #smem>
// CHECK: %[[B:.+]] = ttg.memdesc_trans %[[BUF]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #[[SHT]], #smem> -> !ttg.memdesc<128x64xf16, #[[SH]], #smem>
// CHECK: ttng.warp_group_dot %arg0, %[[B]]
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_trans(%a: !ttg.memdesc<64x128xf16, #shared, #smem>, %x: tensor<64x128xf16, #rows>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x128xf16, #rows> -> tensor<128x64xf16, #cols>
    %b = ttg.local_alloc %t : (tensor<128x64xf16, #cols>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x128xf16, #shared, #smem> * !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A transposed tensor stored for a load, not for a dot: left alone.
// CHECK-LABEL: @trans_stored_for_load
// CHECK-NOT: ttg.memdesc_trans
// CHECK: %[[T:.+]] = tt.trans %arg0
// CHECK: ttg.local_alloc %[[T]]
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_stored_for_load(%x: tensor<64x128xf16, #rows>) -> tensor<128x64xf16, #cols> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x128xf16, #rows> -> tensor<128x64xf16, #cols>
    %b = ttg.local_alloc %t : (tensor<128x64xf16, #cols>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %l = ttg.local_load %b : !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<128x64xf16, #cols>
    tt.return %l : tensor<128x64xf16, #cols>
  }
}

// -----

// A reshape that keeps the contiguous dim of a non-transposed NVMMA buffer: the source is
// stored in the NVMMA layout of its rank and viewed reshaped.
// CHECK-DAG: #[[SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SH3:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-LABEL: @reshape_rows
// CHECK: %[[BUF:.+]] = ttg.local_alloc %arg0 : ({{.*}}) -> !ttg.memdesc<2x32x64xf16, #[[SH3]], #smem>
// CHECK: %[[R:.+]] = ttg.memdesc_reshape %[[BUF]] : !ttg.memdesc<2x32x64xf16, #[[SH3]], #smem> -> !ttg.memdesc<64x64xf16, #[[SH]], #smem>
// CHECK: tt.return %[[R]]
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_rows(%x: tensor<2x32x64xf16, #b3>) -> !ttg.memdesc<64x64xf16, #shared, #smem> {
    %r = tt.reshape %x : tensor<2x32x64xf16, #b3> -> tensor<64x64xf16, #rows>
    %a = ttg.local_alloc %r : (tensor<64x64xf16, #rows>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #shared, #smem>
  }
}

// -----

// A transposed NVMMA buffer, and a reshape that splits the contiguous dim: left alone.
// CHECK-LABEL: @reshape_transposed
// CHECK-NOT: ttg.memdesc_reshape
// CHECK: tt.reshape
// CHECK-LABEL: @reshape_contiguous_dim
// CHECK-NOT: ttg.memdesc_reshape
// CHECK: tt.reshape
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#wide = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sharedT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_transposed(%x: tensor<2x32x64xf16, #b3>) -> !ttg.memdesc<64x64xf16, #sharedT, #smem> {
    %r = tt.reshape %x : tensor<2x32x64xf16, #b3> -> tensor<64x64xf16, #rows>
    %a = ttg.local_alloc %r : (tensor<64x64xf16, #rows>) -> !ttg.memdesc<64x64xf16, #sharedT, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #sharedT, #smem>
  }
  tt.func @reshape_contiguous_dim(%x: tensor<2x32x64xf16, #b3>) -> !ttg.memdesc<32x128xf16, #shared, #smem> {
    %r = tt.reshape %x : tensor<2x32x64xf16, #b3> -> tensor<32x128xf16, #wide>
    %a = ttg.local_alloc %r : (tensor<32x128xf16, #wide>) -> !ttg.memdesc<32x128xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<32x128xf16, #shared, #smem>
  }
}

// -----

// wgmma B stored from reshape(trans(x)) in a linear layout and read transposed: x is stored,
// the chain is replayed as views whose layouts map back to the same buffer.
// CHECK-DAG: #[[BASE:.+]] = #ttg.shared_linear<{offset = {{\[}}[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [1, 0, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32]]}, alignment = 128>
// CHECK-LABEL: @wgmma_view_chain
// CHECK: %[[BUF:.+]] = ttg.local_alloc %arg1 : ({{.*}}) -> !ttg.memdesc<2x16x64xf16, #[[BASE]], #smem>
// CHECK: %[[T:.+]] = ttg.memdesc_trans %[[BUF]] {order = array<i32: 1, 0, 2>} : !ttg.memdesc<2x16x64xf16, #[[BASE]], #smem> -> !ttg.memdesc<16x2x64xf16,
// CHECK: %[[R:.+]] = ttg.memdesc_reshape %[[T]] : !ttg.memdesc<16x2x64xf16, {{.*}}> -> !ttg.memdesc<16x128xf16, #shared
// CHECK: %[[B:.+]] = ttg.memdesc_trans %[[R]]
// CHECK: ttng.warp_group_dot %arg0, %[[B]]
// CHECK-NOT: tt.reshape
// CHECK-NOT: tt.trans
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#b3t = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [4, 1, 8], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#lin = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [0, 64], [0, 8], [0, 16], [0, 32]]}, alignment = 128>
#linT = #ttg.shared_linear<{offset = [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2], [0, 4], [0, 8], [64, 0], [8, 0], [16, 0], [32, 0]]}, alignment = 128>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_view_chain(%a: !ttg.memdesc<64x128xf16, #shared, #smem>, %x: tensor<2x16x64xf16, #b3>, %c: tensor<64x16xf32, #mma>) -> tensor<64x16xf32, #mma> {
    %t = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<2x16x64xf16, #b3> -> tensor<16x2x64xf16, #b3t>
    %r = tt.reshape %t : tensor<16x2x64xf16, #b3t> -> tensor<16x128xf16, #rows>
    %s = ttg.local_alloc %r : (tensor<16x128xf16, #rows>) -> !ttg.memdesc<16x128xf16, #lin, #smem>
    %b = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<16x128xf16, #lin, #smem> -> !ttg.memdesc<128x16xf16, #linT, #smem>
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x128xf16, #shared, #smem> * !ttg.memdesc<128x16xf16, #linT, #smem> -> tensor<64x16xf32, #mma>
    tt.return %d : tensor<64x16xf32, #mma>
  }
}
