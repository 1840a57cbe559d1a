// tritongpu-remove-layout-conversions drops loop-carried values that nothing live needs, also
// when they pass through an scf.if inside the loop (a liveness analysis, as MLIR's); a value
// that reaches a store, or the loop's live result, stays.
// RUN: tilecraft-opt %s -tritongpu-remove-layout-conversions | filecheck %s

// CHECK-LABEL: @dead_through_if
// CHECK: %[[R:.+]] = scf.for {{.*}} iter_args(%[[K:.+]] = %{{.+}}) -> (tensor<32xf32, #blocked>)
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[K]], %[[K]]
// CHECK-NEXT: scf.yield %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]
// CHECK-LABEL: @stored_through_if
// CHECK: scf.for {{.*}} iter_args(%[[A:.+]] = %{{.+}}) -> (tensor<32xf32, #blocked>)
// CHECK: scf.if
// CHECK: } else {
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[A]]
// CHECK-NEXT: tt.store %{{.+}}, %[[S]]
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @dead_through_if(%n: i32, %p: tensor<32x!tt.ptr<f32>, #b>) -> tensor<32xf32, #b> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.000000e+00> : tensor<32xf32, #b>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one, %keep = %one) -> (tensor<32xf32, #b>, tensor<32xf32, #b>) : i32 {
    %first = arith.cmpi eq, %i, %c0 : i32
    %v = scf.if %first -> (tensor<32xf32, #b>) {
      scf.yield %one : tensor<32xf32, #b>
    } else {
      %a = arith.addf %acc, %one : tensor<32xf32, #b>
      scf.yield %a : tensor<32xf32, #b>
    }
    %k = arith.mulf %keep, %keep : tensor<32xf32, #b>
    scf.yield %v, %k : tensor<32xf32, #b>, tensor<32xf32, #b>
  }
  tt.return %r#1 : tensor<32xf32, #b>
}
tt.func @stored_through_if(%n: i32, %p: tensor<32x!tt.ptr<f32>, #b>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.000000e+00> : tensor<32xf32, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> (tensor<32xf32, #b>) : i32 {
    %first = arith.cmpi eq, %i, %c0 : i32
    %v = scf.if %first -> (tensor<32xf32, #b>) {
      scf.yield %one : tensor<32xf32, #b>
    } else {
      %a = arith.addf %acc, %one : tensor<32xf32, #b>
      tt.store %p, %a : tensor<32x!tt.ptr<f32>, #b>
      scf.yield %a : tensor<32xf32, #b>
    }
    scf.yield %v : tensor<32xf32, #b>
  }
  tt.return
}
}
