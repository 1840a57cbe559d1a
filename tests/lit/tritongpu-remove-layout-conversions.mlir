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

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Backward rematerialization through a loop-carried value: the loop carries the value in the
// layout the conversion wanted, and the old loop-carried value goes.
// CHECK-LABEL: @remat_through_loop
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[$L4:.*]]>)
// CHECK: arith.addf {{.*}} : tensor<1024xf32, #[[$L4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
tt.func @remat_through_loop(%q: tensor<1024x!tt.ptr<f32>, #b4>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #b1>
  %one = arith.constant dense<1.000000e+00> : tensor<1024xf32, #b1>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b1>) {
    %s = arith.addf %acc, %one : tensor<1024xf32, #b1>
    %w = ttg.convert_layout %s : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
    tt.store %q, %w : tensor<1024x!tt.ptr<f32>, #b4>
    scf.yield %s : tensor<1024xf32, #b1>
  }
  tt.return
}

// Forward propagation through a branch: the scf.if result and the loop take the load's layout.
// CHECK-LABEL: @branch_takes_load_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[$L1:.*]]>)
// CHECK: scf.if {{.*}} -> (tensor<1024xf32, #[[$L1]]>)
// CHECK: arith.addf {{.*}} : tensor<1024xf32, #[[$L1]]>
// CHECK: ttg.convert_layout {{.*}} #[[$L1]]> -> tensor<1024xf32, #[[$L4]]>
// CHECK-NEXT: tt.store
tt.func @branch_takes_load_layout(%p: tensor<1024x!tt.ptr<f32>, #b1>, %q: tensor<1024x!tt.ptr<f32>, #b4>, %c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #b4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b4>) {
    %v = scf.if %c -> tensor<1024xf32, #b1> {
      %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #b1>
      scf.yield %x : tensor<1024xf32, #b1>
    } else {
      %y = arith.constant dense<2.000000e+00> : tensor<1024xf32, #b1>
      scf.yield %y : tensor<1024xf32, #b1>
    }
    %w = ttg.convert_layout %v : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
    %s = arith.addf %acc, %w : tensor<1024xf32, #b4>
    scf.yield %s : tensor<1024xf32, #b4>
  }
  tt.store %q, %r : tensor<1024x!tt.ptr<f32>, #b4>
  tt.return
}

// A conversion of an extension moves above it, where the tensor is narrower.
// CHECK-LABEL: @hoist_over_extension
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[X]] : tensor<1024xf16, #[[$L1]]> -> tensor<1024xf16, #[[$L4]]>
// CHECK-NEXT: arith.extf %[[C]] : tensor<1024xf16, #[[$L4]]> to tensor<1024xf32, #[[$L4]]>
tt.func @hoist_over_extension(%p: tensor<1024x!tt.ptr<f16>, #b1>, %q: tensor<1024x!tt.ptr<f32>, #b4>) {
  %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #b1>
  %y = arith.extf %x : tensor<1024xf16, #b1> to tensor<1024xf32, #b1>
  %z = ttg.convert_layout %y : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
  tt.store %q, %z : tensor<1024x!tt.ptr<f32>, #b4>
  tt.return
}

// A load of fewer elements than the CTA has threads is cheap: it is done again in the layout
// the conversion wanted, with its pointers.
// CHECK-LABEL: @cheap_load_made_again
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>, #[[$L4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
tt.func @cheap_load_made_again(%x: !tt.ptr<f32>, %q: tensor<64x!tt.ptr<f32>, #b4>) {
  %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
  %1 = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b1>
  %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f32>, #b1>, tensor<64xi32, #b1>
  %3 = tt.load %2 : tensor<64x!tt.ptr<f32>, #b1>
  %4 = ttg.convert_layout %3 : tensor<64xf32, #b1> -> tensor<64xf32, #b4>
  tt.store %q, %4 : tensor<64x!tt.ptr<f32>, #b4>
  tt.return
}

// Must not fire: a load of as many elements as the CTA has threads is not done twice.
// CHECK-LABEL: @expensive_load_stays
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$L1]]>
// CHECK-NEXT: ttg.convert_layout
tt.func @expensive_load_stays(%x: !tt.ptr<f32>, %q: tensor<1024x!tt.ptr<f32>, #b4>) {
  %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
  %1 = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
  %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
  %3 = tt.load %2 : tensor<1024x!tt.ptr<f32>, #b1>
  %4 = ttg.convert_layout %3 : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
  tt.store %q, %4 : tensor<1024x!tt.ptr<f32>, #b4>
  tt.return
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A transpose passes the layout on: its result takes the permuted blocked layout, and the
// element-wise code after it follows.
// CHECK-LABEL: @trans_passes_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.trans {{.*}} -> tensor<32x64xf32, #[[$T:.*]]>
// CHECK: arith.mulf {{.*}} : tensor<32x64xf32, #[[$T]]>
// CHECK-NOT: ttg.convert_layout
tt.func @trans_passes_layout(%a: tensor<64x32xf32, #b>) -> tensor<32x64xf32, #t> {
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<64x32xf32, #b> -> tensor<32x64xf32, #t>
  %0 = ttg.convert_layout %t : tensor<32x64xf32, #t> -> tensor<32x64xf32, #b>
  %1 = arith.mulf %0, %0 : tensor<32x64xf32, #b>
  %2 = ttg.convert_layout %1 : tensor<32x64xf32, #b> -> tensor<32x64xf32, #t>
  tt.return %2 : tensor<32x64xf32, #t>
}
}

// -----

#b64 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#wmma = #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0], [2, 0]]}}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: a layout the pass has no map for is left where it is, with its conversions.
// CHECK-LABEL: @unmapped_layout_stays
// CHECK: ttg.convert_layout %{{.*}} -> tensor<64x32xf32, #mma>
// CHECK: arith.addf {{.*}} : tensor<64x32xf32, #mma>
// CHECK: ttg.convert_layout %{{.*}} -> tensor<64x32xf32, #blocked>
tt.func @unmapped_layout_stays(%a: tensor<64x32xf32, #b64>) -> tensor<64x32xf32, #b64> {
  %0 = ttg.convert_layout %a : tensor<64x32xf32, #b64> -> tensor<64x32xf32, #wmma>
  %1 = arith.addf %0, %0 : tensor<64x32xf32, #wmma>
  %2 = ttg.convert_layout %1 : tensor<64x32xf32, #wmma> -> tensor<64x32xf32, #b64>
  tt.return %2 : tensor<64x32xf32, #b64>
}
}

// -----

// A conversion to an mma dot operand moves up to the load over pure inline assembly (which
// moves no data between threads; the one left unused goes); inline assembly that is not pure
// stops it.
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
// CHECK-LABEL: @dot_operand_over_pure_inline_asm
// CHECK:      %[[L:.+]] = tt.load
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %[[L]] : tensor<32x32xi16, #blocked> -> tensor<32x32xi16, #ttg.dot_op
// CHECK-NEXT: tt.elementwise_inline_asm {{.*}} %[[C]]
// CHECK-NOT:  ttg.convert_layout
// CHECK-NOT:  tt.elementwise_inline_asm
// CHECK:      tt.dot
tt.func @dot_operand_over_pure_inline_asm(%p: tensor<32x32x!tt.ptr<i16>, #b>, %a: tensor<64x32xf16, #dota>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
  %0 = tt.load %p : tensor<32x32x!tt.ptr<i16>, #b>
  %1 = tt.elementwise_inline_asm "mov.b16 $0, $1;" {constraints = "=h,h", packed_element = 1 : i32, pure = true} %0 : tensor<32x32xi16, #b> -> tensor<32x32xf16, #b>
  %2 = ttg.convert_layout %1 : tensor<32x32xf16, #b> -> tensor<32x32xf16, #dotb>
  %3 = tt.dot %a, %2, %c : tensor<64x32xf16, #dota> * tensor<32x32xf16, #dotb> -> tensor<64x32xf32, #mma>
  tt.return %3 : tensor<64x32xf32, #mma>
}

// CHECK-LABEL: @dot_operand_stops_at_impure_inline_asm
// CHECK:      tt.load
// CHECK-NEXT: tt.elementwise_inline_asm
// CHECK-NEXT: ttg.convert_layout {{.*}} -> tensor<32x32xf16, #ttg.dot_op
tt.func @dot_operand_stops_at_impure_inline_asm(%p: tensor<32x32x!tt.ptr<i16>, #b>, %a: tensor<64x32xf16, #dota>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
  %0 = tt.load %p : tensor<32x32x!tt.ptr<i16>, #b>
  %1 = tt.elementwise_inline_asm "mov.b16 $0, $1;" {constraints = "=h,h", packed_element = 1 : i32, pure = false} %0 : tensor<32x32xi16, #b> -> tensor<32x32xf16, #b>
  %2 = ttg.convert_layout %1 : tensor<32x32xf16, #b> -> tensor<32x32xf16, #dotb>
  %3 = tt.dot %a, %2, %c : tensor<64x32xf16, #dota> * tensor<32x32xf16, #dotb> -> tensor<64x32xf32, #mma>
  tt.return %3 : tensor<64x32xf32, #mma>
}
}
