// tritongpu-optimize-dot-operands with Blackwell's tcgen05 MMAs: a transposed operand is
// stored untransposed and read through ttg.memdesc_trans (the NVMMA layout's CGA bases
// transposed too), and block scales that are read from shared memory and shuffled into the
// tensor-memory scales layout are read through the same shuffle as memory views (no
// tmem_alloc). Must not fire: scales whose shared rows are narrower than 32 x 128 bits.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-optimize-dot-operands | filecheck %s

// CHECK-DAG: #[[INNER:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = {{\[\[1, 0\]\]}}}>
// CHECK-DAG: #[[OUTER:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[0, 1\]\]}}}>
// CHECK-LABEL: @b_transposed
// CHECK: %[[BUF:.+]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, {{.+}}>) -> !ttg.memdesc<128x64xf16, #[[INNER]], #smem>
// CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %[[BUF]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #[[INNER]], #smem> -> !ttg.memdesc<64x128xf16, #[[OUTER]], #smem>
// CHECK: ttng.tc_gen5_mma %arg1, %[[VIEW]]
#rows = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0]]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CGALayout = [[0, 1]]}>
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CGALayout = [[1, 0]]>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @b_transposed(%bt: tensor<128x64xf16, #rows>, %a: !ttg.memdesc<256x64xf16, #a, #smem>, %d: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    %t = tt.trans %bt {order = array<i32: 1, 0>} : tensor<128x64xf16, #rows> -> tensor<64x128xf16, #cols>
    %b = ttg.local_alloc %t : (tensor<64x128xf16, #cols>) -> !ttg.memdesc<64x128xf16, #b, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<256x64xf16, #a, #smem>, !ttg.memdesc<64x128xf16, #b, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// CHECK-LABEL: @scales_from_shared
// CHECK: %[[ROWS:.+]] = ttg.memdesc_reshape %arg0 : !ttg.memdesc<1x512xi8, {{.+}}> -> !ttg.memdesc<1x1x32x4x4xi8, {{.+}}>
// CHECK: %[[SHUFFLED:.+]] = ttg.memdesc_trans %[[ROWS]] {order = array<i32: 0, 3, 2, 1, 4>}
// CHECK: %[[SCALES:.+]] = ttg.memdesc_reshape %[[SHUFFLED]] : !ttg.memdesc<1x4x32x1x4xi8, {{.+}}> -> !ttg.memdesc<128x4xi8, {{.+}}>
// CHECK-NOT: ttng.tmem_alloc
// CHECK: %[[SCALES2:.+]] = ttg.memdesc_reshape %{{.+}} : !ttg.memdesc<1x4x32x1x4xi8, {{.+}}> -> !ttg.memdesc<128x4xi8, {{.+}}>
// CHECK-NOT: ttng.tmem_alloc
// CHECK: ttng.tc_gen5_mma_scaled %arg1, %arg2, %arg3, %[[SCALES]], %[[SCALES2]],
// CHECK-LABEL: @narrow_rows_stay
// CHECK: ttng.tmem_alloc
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#flat = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#five = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 8, 4, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 3, 2, 1, 0]}>
#shuffled = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 4, 8, 1, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 1, 2, 3, 0]}>
#scales = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[32, 0], [64, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#five2 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 16, 0, 0]], lane = [[0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0]], warp = [[0, 0, 8, 0, 0], [0, 0, 0, 0, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scales_from_shared(%buf: !ttg.memdesc<1x512xi8, #plain, #smem, mutable>, %a: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    %l = ttg.local_load %buf : !ttg.memdesc<1x512xi8, #plain, #smem, mutable> -> tensor<1x512xi8, #flat>
    %r = tt.reshape %l : tensor<1x512xi8, #flat> -> tensor<1x1x32x4x4xi8, #five>
    %t = tt.trans %r {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #five> -> tensor<1x4x32x1x4xi8, #shuffled>
    %s = tt.reshape %t : tensor<1x4x32x1x4xi8, #shuffled> -> tensor<128x4xi8, #scales>
    %m = ttng.tmem_alloc %s : (tensor<128x4xi8, #scales>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    %m2 = ttng.tmem_alloc %s : (tensor<128x4xi8, #scales>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %m, %m2, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
  tt.func @narrow_rows_stay(%buf: !ttg.memdesc<2x256xi8, #plain, #smem, mutable>, %a: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    %l = ttg.local_load %buf : !ttg.memdesc<2x256xi8, #plain, #smem, mutable> -> tensor<2x256xi8, #flat>
    %r0 = tt.reshape %l : tensor<2x256xi8, #flat> -> tensor<1x1x32x4x4xi8, #five2>
    %r = ttg.convert_layout %r0 : tensor<1x1x32x4x4xi8, #five2> -> tensor<1x1x32x4x4xi8, #five>
    %t = tt.trans %r {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #five> -> tensor<1x4x32x1x4xi8, #shuffled>
    %s = tt.reshape %t : tensor<1x4x32x1x4xi8, #shuffled> -> tensor<128x4xi8, #scales>
    %m = ttng.tmem_alloc %s : (tensor<128x4xi8, #scales>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %m, %m, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
}
