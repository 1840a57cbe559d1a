// tritongpu-remove-layout-conversions: element-wise code takes the layout of the memory
// access it feeds (forward) or comes from (backward), ranges and constants are made again in
// the new layout, a reduction's chain is made again in the layout its result is converted to,
// loops carry the new layout; conversions it must keep: between two loads' layouts, into a
// scan a slice layout, and to a dot operand.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-remove-layout-conversions | filecheck %s

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: @elementwise_takes_access_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} : tensor<1024xi32, #[[$B4:.*]]>
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$B4]]>
// CHECK: arith.addf %{{.*}} : tensor<1024xf32, #[[$B4]]>
// CHECK: tt.store %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$B4]]>
tt.func @elementwise_takes_access_layout(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
  %1 = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
  %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
  %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<f32>, #b1> -> tensor<1024x!tt.ptr<f32>, #b4>
  %4 = tt.load %3 : tensor<1024x!tt.ptr<f32>, #b4>
  %5 = ttg.convert_layout %4 : tensor<1024xf32, #b4> -> tensor<1024xf32, #b1>
  %cst = arith.constant dense<1.000000e+00> : tensor<1024xf32, #b1>
  %6 = arith.addf %5, %cst : tensor<1024xf32, #b1>
  %7 = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
  %8 = tt.addptr %7, %0 : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
  %9 = ttg.convert_layout %8 : tensor<1024x!tt.ptr<f32>, #b1> -> tensor<1024x!tt.ptr<f32>, #b4>
  %10 = ttg.convert_layout %6 : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
  tt.store %9, %10 : tensor<1024x!tt.ptr<f32>, #b4>
  tt.return
}
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The loop carries the load's layout.
// CHECK-LABEL: @loop_carries_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[$L:.*]]>)
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$L]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
tt.func @loop_carries_layout(%p: tensor<1024x!tt.ptr<f32>, #b4>, %n: index) -> tensor<1024xf32, #b4> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #b1>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b1>) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #b4>
    %y = ttg.convert_layout %x : tensor<1024xf32, #b4> -> tensor<1024xf32, #b1>
    %s = arith.addf %acc, %y : tensor<1024xf32, #b1>
    scf.yield %s : tensor<1024xf32, #b1>
  }
  %out = ttg.convert_layout %r : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
  tt.return %out : tensor<1024xf32, #b4>
}
}

// -----

#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The reduction and the range feeding it are made again in the layout of its converted result.
// CHECK-LABEL: @reduction_made_again
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reduce
// CHECK: -> tensor<1xi32, #ttg.slice<{dim = 1, parent = #[[$C:.*]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
tt.func @reduction_made_again() -> tensor<1xi32, #ttg.slice<{dim = 1, parent = #c}>> {
  %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>>
  %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
  %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    tt.reduce.return %s : i32
  }) : (tensor<1x32xi32, #a>) -> tensor<1xi32, #ttg.slice<{dim = 1, parent = #a}>>
  %3 = ttg.convert_layout %2 : tensor<1xi32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<1xi32, #ttg.slice<{dim = 1, parent = #c}>>
  tt.return %3 : tensor<1xi32, #ttg.slice<{dim = 1, parent = #c}>>
}
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: two loads with their own layouts meet in one add; both loads keep their
// layouts (the add takes the second's), so conversions stay.
// CHECK-LABEL: @two_loads_keep_one_conversion
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$L1:.*]]>
// CHECK: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$L4:.*]]>
// CHECK: arith.addf {{.*}} : tensor<1024xf32, #[[$L4]]>
// CHECK: ttg.convert_layout
// CHECK: tt.return
tt.func @two_loads_keep_one_conversion(%p: tensor<1024x!tt.ptr<f32>, #b1>, %q: tensor<1024x!tt.ptr<f32>, #b4>) -> tensor<1024xf32, #b1> {
  %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #b1>
  %y = tt.load %q : tensor<1024x!tt.ptr<f32>, #b4>
  %z = ttg.convert_layout %y : tensor<1024xf32, #b4> -> tensor<1024xf32, #b1>
  %s = arith.addf %x, %z : tensor<1024xf32, #b1>
  tt.return %s : tensor<1024xf32, #b1>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: a scan keeps its blocked layout; the slice layout stays outside it.
// CHECK-LABEL: @scan_stays_blocked
// CHECK: ttg.convert_layout
// CHECK: tt.scan
// CHECK: ttg.convert_layout
tt.func @scan_stays_blocked(%arg: tensor<1024xi32, #ttg.slice<{dim = 1, parent = #b}>>) -> tensor<1024xi32, #ttg.slice<{dim = 1, parent = #b}>> {
  %0 = ttg.convert_layout %arg : tensor<1024xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<1024xi32, #b1>
  %1 = "tt.scan"(%0) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    tt.scan.return %s : i32
  }) : (tensor<1024xi32, #b1>) -> tensor<1024xi32, #b1>
  %2 = ttg.convert_layout %1 : tensor<1024xi32, #b1> -> tensor<1024xi32, #ttg.slice<{dim = 1, parent = #b}>>
  tt.return %2 : tensor<1024xi32, #ttg.slice<{dim = 1, parent = #b}>>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: a dot reads its operands in dot_op layouts.
// CHECK-LABEL: @dot_operands_stay
// CHECK-COUNT-2: ttg.convert_layout {{.*}} -> tensor<32x32xf32, #ttg.dot_op
// CHECK: tt.dot
tt.func @dot_operands_stay(%a: tensor<32x32xf32, #b>, %c: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
  %0 = ttg.convert_layout %a : tensor<32x32xf32, #b> -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>>
  %1 = ttg.convert_layout %a : tensor<32x32xf32, #b> -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>>
  %2 = tt.dot %0, %1, %c : tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<32x32xf32, #b>
  tt.return %2 : tensor<32x32xf32, #b>
}
}
