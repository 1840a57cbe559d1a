// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// Two transposes that compose to the identity between different (here equivalent: #c is #a
// as a linear layout) layouts become one ttg.convert_layout.
// CHECK-LABEL: @trans_trans_to_convert
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg0 : tensor<32x16xf32, #{{.+}}> -> tensor<32x16xf32, #{{.+}}>
// CHECK-NEXT:    tt.return %[[C]]
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.linear<{register = [[0, 8], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_trans_to_convert(%x: tensor<32x16xf32, #a>) -> tensor<32x16xf32, #c> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x16xf32, #a> -> tensor<16x32xf32, #b>
    %u = tt.trans %t {order = array<i32: 1, 0>} : tensor<16x32xf32, #b> -> tensor<32x16xf32, #c>
    tt.return %u : tensor<32x16xf32, #c>
  }
}

// -----

// Must not fire: orders that do not compose to the identity leave one transpose.
// CHECK-LABEL: @trans_trans_composed
// CHECK-NEXT:    %[[T:.+]] = tt.trans %arg0 {order = array<i32: 2, 0, 1>}
// CHECK-NEXT:    tt.return %[[T]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_trans_composed(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
    %t = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
    %u = tt.trans %t {order = array<i32: 2, 1, 0>} : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
    tt.return %u : tensor<8x2x4xf32>
  }
}
