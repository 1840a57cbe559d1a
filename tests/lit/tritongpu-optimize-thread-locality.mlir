// tritongpu-optimize-thread-locality: a reduction of a loaded tile that only updates a loop's
// accumulator is done within each thread in the loop and across threads after it; an
// allow_reorder reshape read by reductions gets a layout that keeps their axis in threads;
// gathers get warp-local layouts. Each rewrite also has cases where it must not fire.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-optimize-thread-locality | filecheck %s

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.slice<{dim = 1, parent = #b}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// 8 elements per thread along dim 1 (4 per thread, twice): 16x64 splits into 16x8x8.
// CHECK: #[[$SPLIT:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: @sum_rows
// CHECK: %[[START:.*]] = arith.constant dense<1.500000e+00> : tensor<16xf32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf32, #ttg.slice<{dim = 2, parent = #[[$SPLIT]]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[START]], %[[PART:.*]] = %[[ZERO]])
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[OLD:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: %[[V:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<16x64xf32, #{{.*}}> -> tensor<16x8x8xf32, #[[$SPLIT]]>
// CHECK-NEXT: %[[R:.*]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: arith.addf
// CHECK: tt.reduce.return
// CHECK: %[[NEW:.*]] = arith.addf %[[PART]], %[[R]] : tensor<16x8xf32
// CHECK: arith.addf %[[ACC]], %[[OLD]]
// CHECK-NEXT: scf.yield %[[ACC]], %[[NEW]]
// CHECK: %[[T:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[T]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #[[$SPLIT]]}>}>> -> tensor<16xf32, #{{.*}}>
// CHECK-NEXT: %[[F:.*]] = arith.addf %[[START]], %[[C]]
// CHECK-NEXT: tt.return %[[F]]
tt.func @sum_rows(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<1.5> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.addf %acc, %s : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// The update may read the reduction first; a minimum starts at +inf; every use of the loop's
// result reads the combined value.
// CHECK-LABEL: @min_rows_two_uses
// CHECK: %[[START:.*]] = arith.constant dense<2.000000e+00>
// CHECK-NEXT: %[[INF:.*]] = arith.constant dense<0x7F800000> : tensor<16x8xf32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[START]], %[[PART:.*]] = %[[INF]])
// CHECK: %[[R:.*]] = "tt.reduce"(%{{.*}}) <{axis = 2 : i32}>
// CHECK: %[[NEW:.*]] = arith.minimumf %[[PART]], %[[R]]
// CHECK: scf.yield %{{.*}}, %[[NEW]]
// CHECK: %[[C:.*]] = ttg.convert_layout
// CHECK-NEXT: %[[F:.*]] = arith.minimumf %[[START]], %[[C]]
// CHECK-NEXT: arith.addf %[[F]], %[[F]]
tt.func @min_rows_two_uses(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<2.0> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.minimumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.minimumf %s, %acc : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  %twice = arith.addf %r, %r : tensor<16xf32, #s>
  tt.return %twice : tensor<16xf32, #s>
}
}

// -----

#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 2, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#s3 = #ttg.slice<{dim = 2, parent = #b3}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A product over the last of three dims: the accumulator starts at 1; 8 elements per thread
// along dim 2 (2 per thread, 4 times), so 4x4x64 splits into 4x4x8x8.
// CHECK: #[[$SPLIT:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1, 2], threadsPerWarp = [2, 2, 8, 1], warpsPerCTA = [2, 2, 1, 1], order = [3, 2, 1, 0]}>
// CHECK-LABEL: @product_3d
// CHECK: arith.constant dense<1.000000e+00> : tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #[[$SPLIT]]}>>
// CHECK: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<4x4x64xf32, #{{.*}}> -> tensor<4x4x8x8xf32, #[[$SPLIT]]>
// CHECK-NEXT: "tt.reduce"(%{{.*}}) <{axis = 3 : i32}>
// CHECK: arith.mulf
// CHECK: "tt.reduce"(%{{.*}}#1) <{axis = 2 : i32}>
// CHECK: arith.mulf
tt.func @product_3d(%p: tensor<4x4x64x!tt.ptr<f32>, #b3>, %n: i32) -> tensor<4x4xf32, #s3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<1.0> : tensor<4x4xf32, #s3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<4x4xf32, #s3>) : i32 {
    %x = tt.load %p : tensor<4x4x64x!tt.ptr<f32>, #b3>
    %s = "tt.reduce"(%x) <{axis = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.mulf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<4x4x64xf32, #b3>) -> tensor<4x4xf32, #s3>
    %next = arith.mulf %acc, %s : tensor<4x4xf32, #s3>
    scf.yield %next : tensor<4x4xf32, #s3>
  }
  tt.return %r : tensor<4x4xf32, #s3>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.slice<{dim = 1, parent = #b}>
#s0 = #ttg.slice<{dim = 0, parent = #b}>
#so = #ttg.slice<{dim = 1, parent = #one}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not fire: the update is not the reduction's combiner (a sum multiplied into the
// accumulator: starting the partials at 0 would make it 0).
// CHECK-LABEL: @update_is_another_op
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @update_is_another_op(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<1.0> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.mulf %acc, %s : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// Must not fire: the accumulator starts from an argument, not a constant.
// CHECK-LABEL: @start_not_constant
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @start_not_constant(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32, %start: tensor<16xf32, #s>) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.addf %acc, %s : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// Must not fire: the reduced tensor is computed, not loaded.
// CHECK-LABEL: @operand_not_loaded
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @operand_not_loaded(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %y = arith.mulf %x, %x : tensor<16x64xf32, #b>
    %s = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.addf %acc, %s : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// Must not fire: the reduction runs along the first axis, not the last.
// CHECK-LABEL: @axis_not_last
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @axis_not_last(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<64xf32, #s0> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<64xf32, #s0>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<64xf32, #s0>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<64xf32, #s0>
    %next = arith.addf %acc, %s : tensor<64xf32, #s0>
    scf.yield %next : tensor<64xf32, #s0>
  }
  tt.return %r : tensor<64xf32, #s0>
}

// Must not fire: each thread holds one element along the axis.
// CHECK-LABEL: @one_element_per_thread
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @one_element_per_thread(%p: tensor<16x32x!tt.ptr<f32>, #one>, %n: i32) -> tensor<16xf32, #so> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<16xf32, #so>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #so>) : i32 {
    %x = tt.load %p : tensor<16x32x!tt.ptr<f32>, #one>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x32xf32, #one>) -> tensor<16xf32, #so>
    %next = arith.addf %acc, %s : tensor<16xf32, #so>
    scf.yield %next : tensor<16xf32, #so>
  }
  tt.return %r : tensor<16xf32, #so>
}

// Must not fire: the sum goes into the other slot's accumulator (slot 0 yields %b + s).
// CHECK-LABEL: @update_reads_other_slot
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @update_reads_other_slot(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<16xf32, #s>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start, %other = %start) -> (tensor<16xf32, #s>, tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %next = arith.addf %other, %s : tensor<16xf32, #s>
    scf.yield %next, %acc : tensor<16xf32, #s>, tensor<16xf32, #s>
  }
  tt.return %r#0 : tensor<16xf32, #s>
}

// Must not fire: the reduction's result has a second use.
// CHECK-LABEL: @reduction_used_twice
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @reduction_used_twice(%p: tensor<16x64x!tt.ptr<f32>, #b>, %q: tensor<16x!tt.ptr<f32>, #s>, %n: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    tt.store %q, %s : tensor<16x!tt.ptr<f32>, #s>
    %next = arith.addf %acc, %s : tensor<16xf32, #s>
    scf.yield %next : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// Must not fire: the update is yielded by an scf.if inside the loop, not by the loop.
// CHECK-LABEL: @update_in_branch
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @update_in_branch(%p: tensor<16x64x!tt.ptr<f32>, #b>, %n: i32, %c: i1) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0.0> : tensor<16xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xf32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #s>
    %y = scf.if %c -> (tensor<16xf32, #s>) {
      %next = arith.addf %acc, %s : tensor<16xf32, #s>
      scf.yield %next : tensor<16xf32, #s>
    } else {
      scf.yield %acc : tensor<16xf32, #s>
    }
    scf.yield %y : tensor<16xf32, #s>
  }
  tt.return %r : tensor<16xf32, #s>
}

// Must not fire: an integer maximum is not one of the float combiners.
// CHECK-LABEL: @integer_max
// CHECK-NOT: tt.reshape
// CHECK: tt.return
tt.func @integer_max(%p: tensor<16x64x!tt.ptr<i32>, #b>, %n: i32) -> tensor<16xi32, #s> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %start = arith.constant dense<0> : tensor<16xi32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %start) -> (tensor<16xi32, #s>) : i32 {
    %x = tt.load %p : tensor<16x64x!tt.ptr<i32>, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.maxsi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<16x64xi32, #b>) -> tensor<16xi32, #s>
    %next = arith.maxsi %acc, %s : tensor<16xi32, #s>
    scf.yield %next : tensor<16xi32, #s>
  }
  tt.return %r : tensor<16xi32, #s>
}
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#in = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#pairs = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A reorderable reshape read by a reduction along dim 1: dim 1 goes last in the order (one
// thread holds whole rows) and a conversion gives the reduction its old layout.
// CHECK-DAG: #[[$OLD:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-LABEL: @reshape_for_rows
// CHECK: %[[V:.*]] = tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<32x32xf32, #{{.*}}> -> tensor<128x8xf32, #[[$ROWS]]>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[V]] : tensor<128x8xf32, #[[$ROWS]]> -> tensor<128x8xf32, #[[$OLD]]>
// CHECK-NEXT: "tt.reduce"(%[[C]]) <{axis = 1 : i32}>
tt.func @reshape_for_rows(%x: tensor<32x32xf32, #src>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>> {
  %v = tt.reshape %x allow_reorder : tensor<32x32xf32, #src> -> tensor<128x8xf32, #dst>
  %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<128x8xf32, #dst>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>>
  tt.return %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>>
}

// Must not fire: the reshape keeps the element order (its layout is the one it must have).
// CHECK-LABEL: @reshape_in_order
// CHECK-NOT: efficient_layout
// CHECK: tt.return
tt.func @reshape_in_order(%x: tensor<64x16xf32, #pairs>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #lanes}>> {
  %v = tt.reshape %x : tensor<64x16xf32, #pairs> -> tensor<32x32xf32, #lanes>
  %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32x32xf32, #lanes>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #lanes}>>
  tt.return %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #lanes}>>
}

// Must not fire: reductions along two axes read the reshape.
// CHECK-LABEL: @reshape_two_axes
// CHECK-NOT: efficient_layout
// CHECK: tt.return
tt.func @reshape_two_axes(%x: tensor<32x32xf32, #src>) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>>, tensor<8xf32, #ttg.slice<{dim = 0, parent = #dst}>>) {
  %v = tt.reshape %x allow_reorder : tensor<32x32xf32, #src> -> tensor<128x8xf32, #dst>
  %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<128x8xf32, #dst>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>>
  %z = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<128x8xf32, #dst>) -> tensor<8xf32, #ttg.slice<{dim = 0, parent = #dst}>>
  tt.return %s, %z : tensor<128xf32, #ttg.slice<{dim = 1, parent = #dst}>>, tensor<8xf32, #ttg.slice<{dim = 0, parent = #dst}>>
}

// Must not fire: each thread already holds whole rows.
// CHECK-LABEL: @reshape_rows_in_threads
// CHECK-NOT: efficient_layout
// CHECK: tt.return
tt.func @reshape_rows_in_threads(%x: tensor<32x32xf32, #src>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #in}>> {
  %v = tt.reshape %x allow_reorder : tensor<32x32xf32, #src> -> tensor<128x8xf32, #in>
  %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<128x8xf32, #in>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #in}>>
  tt.return %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #in}>>
}
}

// -----

#g = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#g1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Gathering along dim 1 (16 wide) of 32x16: 16 lanes along dim 1, the other 2 along dim 0,
// one warp along dim 1 and the 4 warps along dim 0; 16 / 16 = 1 element per thread.
// CHECK: #[[$WARP:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: @gather_columns
// CHECK-NEXT: %[[S:.*]] = ttg.convert_layout %arg0 : tensor<32x16xf32, #{{.*}}> -> tensor<32x16xf32, #[[$WARP]]>
// CHECK-NEXT: %[[I:.*]] = ttg.convert_layout %arg1 : tensor<32x4xi32, #{{.*}}> -> tensor<32x4xi32, #[[$WARP]]>
// CHECK-NEXT: %[[G:.*]] = tt.gather %[[S]][%[[I]]] {axis = 1 : i32, efficient_layout} : (tensor<32x16xf32, #[[$WARP]]>, tensor<32x4xi32, #[[$WARP]]>) -> tensor<32x4xf32, #[[$WARP]]>
// CHECK-NEXT: %[[R:.*]] = ttg.convert_layout %[[G]] : tensor<32x4xf32, #[[$WARP]]> -> tensor<32x4xf32, #{{.*}}>
// CHECK-NEXT: tt.return %[[R]]
tt.func @gather_columns(%src: tensor<32x16xf32, #g>, %idx: tensor<32x4xi32, #g>) -> tensor<32x4xf32, #g> {
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x16xf32, #g>, tensor<32x4xi32, #g>) -> tensor<32x4xf32, #g>
  tt.return %0 : tensor<32x4xf32, #g>
}

// Must not fire: the gather's layout was chosen already.
// CHECK-LABEL: @gather_efficient
// CHECK-NEXT: tt.gather %arg0[%arg1] {axis = 1 : i32, efficient_layout}
// CHECK-NEXT: tt.return
tt.func @gather_efficient(%src: tensor<32x16xf32, #g>, %idx: tensor<32x4xi32, #g>) -> tensor<32x4xf32, #g> {
  %0 = tt.gather %src[%idx] {axis = 1 : i32, efficient_layout} : (tensor<32x16xf32, #g>, tensor<32x4xi32, #g>) -> tensor<32x4xf32, #g>
  tt.return %0 : tensor<32x4xf32, #g>
}

// Must not fire: a 1-D gather.
// CHECK-LABEL: @gather_1d
// CHECK-NEXT: tt.gather %arg0[%arg1] {axis = 0 : i32}
// CHECK-NEXT: tt.return
tt.func @gather_1d(%src: tensor<128xf32, #g1>, %idx: tensor<64xi32, #g1>) -> tensor<64xf32, #g1> {
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128xf32, #g1>, tensor<64xi32, #g1>) -> tensor<64xf32, #g1>
  tt.return %0 : tensor<64xf32, #g1>
}
}
