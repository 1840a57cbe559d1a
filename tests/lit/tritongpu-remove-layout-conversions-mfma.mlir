// tritongpu-remove-layout-conversions knows AMD's mfma accumulator as a map: a loop that
// accumulates a dot in a blocked layout carries the mfma layout instead, converting once after
// the loop; an element-wise op between a load and a dot takes the mfma layout; an expensive load
// is not made again in it (its conversion stays).
// RUN: tilecraft-opt %s -tritongpu-remove-layout-conversions | filecheck %s

#acc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
// CHECK-LABEL: @loop_carries_mfma
// CHECK: %[[R:.+]] = scf.for {{.*}} -> (tensor<64x64xf32, #mma>)
// CHECK-NEXT: %[[D:.+]] = tt.dot %arg0, %arg1, %{{.+}} : {{.*}} -> tensor<64x64xf32, #mma>
// CHECK-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #mma>
// CHECK-NEXT: }
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %[[R]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: tt.store %arg2, %[[C]]
tt.func @loop_carries_mfma(%arg0: tensor<64x32xf16, #a>, %arg1: tensor<32x64xf16, #b>, %arg2: tensor<64x64x!tt.ptr<f32>, #acc>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #mfma>
    %d = tt.dot %arg0, %arg1, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mfma>
    %e = ttg.convert_layout %d : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #acc>
    scf.yield %e : tensor<64x64xf32, #acc>
  }
  tt.store %arg2, %r : tensor<64x64x!tt.ptr<f32>, #acc>
  tt.return
}

// An element-wise op reached from the load (blocked) and the dot (mfma) takes the mfma layout.
// CHECK-LABEL: @sum_takes_mfma
// CHECK: %[[L:.+]] = tt.load %arg2 : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %[[LC:.+]] = ttg.convert_layout %[[L]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK-NEXT: %[[D:.+]] = tt.dot {{.*}} -> tensor<64x64xf32, #mma>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[D]], %[[LC]] : tensor<64x64xf32, #mma>
// CHECK-NEXT: ttg.convert_layout %[[S]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
tt.func @sum_takes_mfma(%arg0: tensor<64x32xf16, #a>, %arg1: tensor<32x64xf16, #b>, %arg2: tensor<64x64x!tt.ptr<f32>, #acc>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mfma>
  %l = tt.load %arg2 : tensor<64x64x!tt.ptr<f32>, #acc>
  %d = tt.dot %arg0, %arg1, %zero : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mfma>
  %e = ttg.convert_layout %d : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #acc>
  %s = arith.addf %e, %l : tensor<64x64xf32, #acc>
  tt.store %arg2, %s : tensor<64x64x!tt.ptr<f32>, #acc>
  tt.return
}

// The accumulator comes from an expensive load: it is not loaded again in the mfma layout,
// both conversions stay.
// CHECK-LABEL: @loaded_accumulator_is_converted
// CHECK: %[[L:.+]] = tt.load %arg2 : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %[[L]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK-NEXT: %[[D:.+]] = tt.dot %arg0, %arg1, %[[C]]
// CHECK-NEXT: %[[B:.+]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: tt.store %arg2, %[[B]]
tt.func @loaded_accumulator_is_converted(%arg0: tensor<64x32xf16, #a>, %arg1: tensor<32x64xf16, #b>, %arg2: tensor<64x64x!tt.ptr<f32>, #acc>) {
  %l = tt.load %arg2 : tensor<64x64x!tt.ptr<f32>, #acc>
  %c = ttg.convert_layout %l : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #mfma>
  %d = tt.dot %arg0, %arg1, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mfma>
  %e = ttg.convert_layout %d : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #acc>
  tt.store %arg2, %e : tensor<64x64x!tt.ptr<f32>, #acc>
  tt.return
}
}
