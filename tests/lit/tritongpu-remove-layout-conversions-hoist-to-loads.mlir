// tritongpu-remove-layout-conversions, before an mma dot: conversions move over element-wise
// ops and views up to the loads they come from (also those not to a dot operand layout, which
// are on the way to one), so that the pipeliner finds them next to the loads; without a dot
// after them, conversions stay where they are.
// RUN: tilecraft-opt %s -tritongpu-remove-layout-conversions | filecheck %s

// CHECK-LABEL: @scaled_rows
// CHECK: %[[L:.+]] = tt.load
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %[[L]]
// CHECK-NEXT: math.exp %[[C]]
// CHECK-NEXT: tt.expand_dims
// CHECK-NEXT: tt.broadcast
// CHECK-NEXT: tt.dot
// CHECK-LABEL: @no_dot_keeps_place
// CHECK: %[[L:.+]] = tt.load
// CHECK-NEXT: %[[E:.+]] = math.exp %[[L]]
// CHECK-NEXT: ttg.convert_layout %[[E]]
#row = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @scaled_rows(%p: tensor<256x!tt.ptr<f16>, #row>, %b: tensor<64x16xf16, #opb>) -> tensor<256x16xf32, #mma> {
  %zero = arith.constant dense<0.000000e+00> : tensor<256x16xf32, #mma>
  %l = tt.load %p : tensor<256x!tt.ptr<f16>, #row>
  %e = math.exp %l : tensor<256xf16, #row>
  %s = ttg.convert_layout %e : tensor<256xf16, #row> -> tensor<256xf16, #ttg.slice<{dim = 1, parent = #b2}>>
  %x = tt.expand_dims %s {axis = 1 : i32} : tensor<256xf16, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<256x1xf16, #b2>
  %y = tt.broadcast %x : tensor<256x1xf16, #b2> -> tensor<256x64xf16, #b2>
  %a = ttg.convert_layout %y : tensor<256x64xf16, #b2> -> tensor<256x64xf16, #opa>
  %d = tt.dot %a, %b, %zero : tensor<256x64xf16, #opa> * tensor<64x16xf16, #opb> -> tensor<256x16xf32, #mma>
  tt.return %d : tensor<256x16xf32, #mma>
}
tt.func @no_dot_keeps_place(%p: tensor<256x!tt.ptr<f16>, #row>) -> tensor<256x64xf16, #b2> {
  %l = tt.load %p : tensor<256x!tt.ptr<f16>, #row>
  %e = math.exp %l : tensor<256xf16, #row>
  %s = ttg.convert_layout %e : tensor<256xf16, #row> -> tensor<256xf16, #ttg.slice<{dim = 1, parent = #b2}>>
  %x = tt.expand_dims %s {axis = 1 : i32} : tensor<256xf16, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<256x1xf16, #b2>
  %y = tt.broadcast %x : tensor<256x1xf16, #b2> -> tensor<256x64xf16, #b2>
  tt.return %y : tensor<256x64xf16, #b2>
}
}
