// tritongpu-remove-layout-conversions through particular ops: ttg.fp4_to_fp is made again in a
// layout whose threads hold the unpacked pairs along its axis (and not otherwise); layouts
// flow through ttng.warp_group_dot_wait, operand to result; a reshape of a blocked layout
// gives a blocked layout where one holds the same elements per thread (else a linear one).
// RUN: tilecraft-opt %s --split-input-file -tritongpu-remove-layout-conversions | filecheck %s

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#res = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#pairs = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [0, 16]], block = []}>
#split = #ttg.linear<{register = [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 1], [1, 0], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The wanted layout keeps each pair in one thread's registers: the unpacking is made in it.
// CHECK-LABEL: @fp4_made_in_wanted_layout
// CHECK: %[[CST:.+]] = arith.constant {{.*}} : tensor<64x32xi8, #linear1>
// CHECK-NEXT: %[[FP:.+]] = ttg.fp4_to_fp %[[CST]] {axis = 1 : i32} : tensor<64x32xi8, #linear1> -> tensor<64x64xf16, #linear>
// CHECK-NEXT: tt.return %[[FP]]
tt.func @fp4_made_in_wanted_layout() -> tensor<64x64xf16, #pairs> {
  %0 = arith.constant dense<7> : tensor<64x32xi8, #src>
  %1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<64x32xi8, #src> -> tensor<64x64xf16, #res>
  %2 = ttg.convert_layout %1 : tensor<64x64xf16, #res> -> tensor<64x64xf16, #pairs>
  tt.return %2 : tensor<64x64xf16, #pairs>
}

// Neighbours along the axis live in different lanes: the conversion stays.
// CHECK-LABEL: @fp4_pair_split_across_lanes
// CHECK: ttg.fp4_to_fp %{{.*}} : tensor<64x32xi8, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #linear2>
tt.func @fp4_pair_split_across_lanes() -> tensor<64x64xf16, #split> {
  %0 = arith.constant dense<7> : tensor<64x32xi8, #src>
  %1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<64x32xi8, #src> -> tensor<64x64xf16, #res>
  %2 = ttg.convert_layout %1 : tensor<64x64xf16, #res> -> tensor<64x64xf16, #split>
  tt.return %2 : tensor<64x64xf16, #split>
}
}

// -----

#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The argument's layout flows through the wait and the code after it.
// CHECK-LABEL: @through_warp_group_dot_wait
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[W:.+]] = ttng.warp_group_dot_wait %arg0 {pendings = 0 : i32} : tensor<64x64xf32, #blocked>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[W]], %[[W]] : tensor<64x64xf32, #blocked>
// CHECK-NEXT: tt.return %[[M]]
tt.func @through_warp_group_dot_wait(%arg0: tensor<64x64xf32, #rows>) -> tensor<64x64xf32, #rows> {
  %0 = ttg.convert_layout %arg0 : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
  %1 = ttng.warp_group_dot_wait %0 {pendings = 0 : i32} : tensor<64x64xf32, #cols>
  %2 = arith.mulf %1, %1 : tensor<64x64xf32, #cols>
  %3 = ttg.convert_layout %2 : tensor<64x64xf32, #cols> -> tensor<64x64xf32, #rows>
  tt.return %3 : tensor<64x64xf32, #rows>
}

// The store keeps its layout: one conversion stays, after the wait.
// CHECK-LABEL: @wait_before_store_keeps_one_conversion
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: ttng.warp_group_dot_wait %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK-NEXT: tt.store %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked1>
tt.func @wait_before_store_keeps_one_conversion(%p: tensor<64x64x!tt.ptr<f32>, #rows>, %q: tensor<64x64x!tt.ptr<f32>, #cols>) {
  %0 = tt.load %p : tensor<64x64x!tt.ptr<f32>, #rows>
  %1 = ttg.convert_layout %0 : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
  %2 = ttng.warp_group_dot_wait %1 {pendings = 0 : i32} : tensor<64x64xf32, #cols>
  tt.store %q, %2 : tensor<64x64x!tt.ptr<f32>, #cols>
  tt.return
}
}

// -----

#fits = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#wraps = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#four = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#lin = #ttg.linear<{register = [[1], [2], [64]], lane = [[4], [0], [8], [16], [32]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Each thread's four consecutive elements stay consecutive: the reshape gives #four, and the
// code after it takes that layout.
// CHECK-DAG: #[[$FOUR:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: @reshape_to_blocked
// CHECK-NEXT: %[[R:.+]] = tt.reshape %arg0 : tensor<16x8xf32, #{{.+}}> -> tensor<128xf32, #[[$FOUR]]>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[R]], %[[R]] : tensor<128xf32, #[[$FOUR]]>
// CHECK-NEXT: tt.return %[[M]]
tt.func @reshape_to_blocked(%arg0: tensor<16x8xf32, #fits>) -> tensor<128xf32, #four> {
  %0 = tt.reshape %arg0 : tensor<16x8xf32, #fits> -> tensor<128xf32, #four>
  %1 = ttg.convert_layout %0 : tensor<128xf32, #four> -> tensor<128xf32, #one>
  %2 = arith.mulf %1, %1 : tensor<128xf32, #one>
  %3 = ttg.convert_layout %2 : tensor<128xf32, #one> -> tensor<128xf32, #four>
  tt.return %3 : tensor<128xf32, #four>
}

// Lanes wrap along the rows (8 columns, 4 lanes of 4): no blocked layout holds the same
// elements, the reshape's result is linear and the conversion to #four stays.
// CHECK-LABEL: @reshape_to_linear
// CHECK-NEXT: tt.reshape %arg0 : tensor<16x8xf32, #{{.+}}> -> tensor<128xf32, #linear>
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<128xf32, #linear> -> tensor<128xf32, #[[$FOUR]]>
tt.func @reshape_to_linear(%arg0: tensor<16x8xf32, #wraps>) -> tensor<128xf32, #four> {
  %0 = tt.reshape %arg0 : tensor<16x8xf32, #wraps> -> tensor<128xf32, #lin>
  %1 = ttg.convert_layout %0 : tensor<128xf32, #lin> -> tensor<128xf32, #one>
  %2 = arith.mulf %1, %1 : tensor<128xf32, #one>
  %3 = ttg.convert_layout %2 : tensor<128xf32, #one> -> tensor<128xf32, #four>
  tt.return %3 : tensor<128xf32, #four>
}
}
