// The canonicalization of ttg.convert_layout (Triton's CanonicalizeConvertFrom* patterns: a
// conversion folded into the op that produces or consumes it) and local_alloc's folder, with
// the cases where they must not fire.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// A conversion to the same type goes; two conversions become one.
// CHECK-LABEL: tt.func @same_and_chain
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg0 : tensor<128xf32, #[[B0:[a-z0-9_]+]]> -> tensor<128xf32, #[[B4:[a-z0-9_]+]]>
// CHECK-NEXT:    tt.return %arg0, %[[C]]
tt.func @same_and_chain(%x: tensor<128xf32, #b0>) -> (tensor<128xf32, #b0>, tensor<128xf32, #b4>) {
  %0 = ttg.convert_layout %x : tensor<128xf32, #b0> -> tensor<128xf32, #b0>
  %1 = ttg.convert_layout %x : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
  %2 = ttg.convert_layout %1 : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  tt.return %0, %2 : tensor<128xf32, #b0>, tensor<128xf32, #b4>
}

// Splats, ranges and splat constants are made in the target layout.
// CHECK-LABEL: tt.func @producers
// CHECK-NOT:     ttg.convert_layout
// CHECK-DAG:     arith.constant dense<1.000000e+00> : tensor<128xf32, #[[B1:[a-z0-9_]+]]>
// CHECK-DAG:     tt.splat %arg0 : f32 -> tensor<128xf32, #[[B1]]>
// CHECK-DAG:     tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B1]]>
// CHECK:         tt.return
tt.func @producers(%x: f32) -> (tensor<128xf32, #b1>, tensor<128xi32, #b1>, tensor<128xf32, #b1>) {
  %s = tt.splat %x : f32 -> tensor<128xf32, #b0>
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b0>
  %k = arith.constant dense<1.0> : tensor<128xf32, #b0>
  %0 = ttg.convert_layout %s : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
  %1 = ttg.convert_layout %r : tensor<128xi32, #b0> -> tensor<128xi32, #b1>
  %2 = ttg.convert_layout %k : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
  tt.return %0, %1, %2 : tensor<128xf32, #b1>, tensor<128xi32, #b1>, tensor<128xf32, #b1>
}

// Not from an mma layout to a dot operand (Triton's heuristic for fused attention).
// CHECK-LABEL: tt.func @mma_to_dot_operand
// CHECK-NEXT:    %[[S:.+]] = tt.splat %arg0 : f32 -> tensor<16x16xf32, #mma>
// CHECK-NEXT:    ttg.convert_layout %[[S]]
tt.func @mma_to_dot_operand(%x: f32) -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
  %s = tt.splat %x : f32 -> tensor<16x16xf32, #mma>
  %0 = ttg.convert_layout %s : tensor<16x16xf32, #mma> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  tt.return %0 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
}

// A cat produces the target layout unless it holds fewer elements per thread.
// CHECK-LABEL: tt.func @cat
// CHECK-NEXT:    %[[A:.+]] = tt.cat %arg0, %arg1 : tensor<32xf32, #[[B0]]> -> tensor<64xf32, #[[B4]]>
// CHECK-NEXT:    %[[B:.+]] = tt.cat %arg0, %arg1 : tensor<32xf32, #[[B0]]> -> tensor<64xf32, #[[B4]]>
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %[[B]] : tensor<64xf32, #[[B4]]> -> tensor<64xf32, #[[B0]]>
// CHECK-NEXT:    tt.return %[[A]], %[[C]]
tt.func @cat(%x: tensor<32xf32, #b0>, %y: tensor<32xf32, #b0>) -> (tensor<64xf32, #b4>, tensor<64xf32, #b0>) {
  %0 = tt.cat %x, %y : tensor<32xf32, #b0> -> tensor<64xf32, #b0>
  %1 = ttg.convert_layout %0 : tensor<64xf32, #b0> -> tensor<64xf32, #b4>
  %2 = tt.cat %x, %y : tensor<32xf32, #b0> -> tensor<64xf32, #b4>
  %3 = ttg.convert_layout %2 : tensor<64xf32, #b4> -> tensor<64xf32, #b0>
  tt.return %1, %3 : tensor<64xf32, #b4>, tensor<64xf32, #b0>
}

// The histogram takes its source's layout (its mask follows) and gives the target layout.
// CHECK-LABEL: tt.func @histogram
// CHECK-NEXT:    %[[M:.+]] = ttg.convert_layout %arg1 : tensor<128xi1, #[[B1]]> -> tensor<128xi1, #[[B0]]>
// CHECK-NEXT:    %[[H:.+]] = tt.histogram %arg0, %[[M]] : tensor<128xi32, #[[B0]]> -> tensor<64xi32, #[[B4]]>
// CHECK-NEXT:    tt.return %[[H]]
tt.func @histogram(%x: tensor<128xi32, #b0>, %m: tensor<128xi1, #b1>) -> tensor<64xi32, #b4> {
  %0 = ttg.convert_layout %x : tensor<128xi32, #b0> -> tensor<128xi32, #b1>
  %1 = tt.histogram %0, %m : tensor<128xi32, #b1> -> tensor<64xi32, #b0>
  %2 = ttg.convert_layout %1 : tensor<64xi32, #b0> -> tensor<64xi32, #b4>
  tt.return %2 : tensor<64xi32, #b4>
}
}

// -----

// Reshapes: a conversion of a reordering reshape's result is the reshape's, unless the view
// becomes expensive (here: the target replicates over lanes and warps), the reshape keeps its
// order, or its layout was chosen on purpose.
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lz = #ttg.linear<{register = [[1], [2], [4]], lane = [[0], [8], [16], [32], [64]], warp = [[128], [0]], block = []}>
#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#row_linear = #ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [0, 64]], block = []}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
#col_flat = #ttg.linear<{register = [[64]], lane = [[1], [2], [4], [8], [128]], warp = [[16], [32]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @convert_of_reshape
// CHECK-SAME:    (%arg0: tensor<2x128xf32, #[[ROW:[a-z0-9_]+]]>) -> (tensor<256xf32, #[[B1:[a-z0-9_]+]]>, tensor<256xf32, #[[LZ:[a-z0-9_]+]]>,
// CHECK-NEXT:    %[[A:.+]] = tt.reshape %arg0 allow_reorder : tensor<2x128xf32, #[[ROW]]> -> tensor<256xf32, #[[B0:[a-z0-9_]+]]>
// CHECK-NEXT:    %[[R:.+]] = tt.reshape %arg0 allow_reorder : tensor<2x128xf32, #[[ROW]]> -> tensor<256xf32, #[[B1]]>
// CHECK-NEXT:    %[[E:.+]] = ttg.convert_layout %[[A]] : tensor<256xf32, #[[B0]]> -> tensor<256xf32, #[[LZ]]>
// CHECK-NEXT:    %[[B:.+]] = tt.reshape %arg0 : tensor<2x128xf32, #[[ROW]]> -> tensor<256xf32, #[[B0]]>
// CHECK-NEXT:    %[[BC:.+]] = ttg.convert_layout %[[B]]
// CHECK-NEXT:    %[[C:.+]] = tt.reshape %arg0 allow_reorder efficient_layout
// CHECK-NEXT:    %[[CC:.+]] = ttg.convert_layout %[[C]]
// CHECK-NEXT:    tt.return %[[R]], %[[E]], %[[BC]], %[[CC]]
tt.func @convert_of_reshape(%x: tensor<2x128xf32, #row>) -> (tensor<256xf32, #b1>, tensor<256xf32, #lz>, tensor<256xf32, #b1>, tensor<256xf32, #b1>) {
  %a = tt.reshape %x allow_reorder : tensor<2x128xf32, #row> -> tensor<256xf32, #b0>
  %0 = ttg.convert_layout %a : tensor<256xf32, #b0> -> tensor<256xf32, #b1>
  %1 = ttg.convert_layout %a : tensor<256xf32, #b0> -> tensor<256xf32, #lz>
  %b = tt.reshape %x : tensor<2x128xf32, #row> -> tensor<256xf32, #b0>
  %2 = ttg.convert_layout %b : tensor<256xf32, #b0> -> tensor<256xf32, #b1>
  %c = tt.reshape %x allow_reorder efficient_layout : tensor<2x128xf32, #row> -> tensor<256xf32, #b0>
  %3 = ttg.convert_layout %c : tensor<256xf32, #b0> -> tensor<256xf32, #b1>
  tt.return %0, %1, %2, %3 : tensor<256xf32, #b1>, tensor<256xf32, #lz>, tensor<256xf32, #b1>, tensor<256xf32, #b1>
}

// A reshape of a conversion: a conversion between two spellings of one layout always goes
// (the reshape keeps its flags); another one only into a reordering reshape that is not an
// expensive view from the conversion's source.
// CHECK-LABEL: tt.func @reshape_of_convert
// CHECK-NEXT:    %[[T:.+]] = tt.reshape %arg0 : tensor<2x128xf32, #[[ROWL:[a-z0-9_]+]]> -> tensor<256xf32, #[[B0]]>
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg1 : tensor<2x128xf32, #[[ROW]]> -> tensor<2x128xf32, #[[COL:[a-z0-9_]+]]>
// CHECK-NEXT:    %[[K:.+]] = tt.reshape %[[C]] : tensor<2x128xf32, #[[COL]]> -> tensor<256xf32, #{{.+}}>
// CHECK-NEXT:    %[[R:.+]] = tt.reshape %arg1 allow_reorder : tensor<2x128xf32, #[[ROW]]> -> tensor<256xf32, #[[B0]]>
// CHECK-NEXT:    %[[E:.+]] = tt.reshape %[[C]] allow_reorder : tensor<2x128xf32, #[[COL]]> -> tensor<256xf32, #[[LZ]]>
// CHECK-NEXT:    tt.return %[[T]], %[[K]], %[[R]], %[[E]]
tt.func @reshape_of_convert(%x: tensor<2x128xf32, #row_linear>, %y: tensor<2x128xf32, #row>) -> (tensor<256xf32, #b0>, tensor<256xf32, #col_flat>, tensor<256xf32, #b0>, tensor<256xf32, #lz>) {
  %0 = ttg.convert_layout %x : tensor<2x128xf32, #row_linear> -> tensor<2x128xf32, #row>
  %1 = tt.reshape %0 : tensor<2x128xf32, #row> -> tensor<256xf32, #b0>
  %2 = ttg.convert_layout %y : tensor<2x128xf32, #row> -> tensor<2x128xf32, #col>
  %3 = tt.reshape %2 : tensor<2x128xf32, #col> -> tensor<256xf32, #col_flat>
  %4 = tt.reshape %2 allow_reorder : tensor<2x128xf32, #col> -> tensor<256xf32, #b0>
  %5 = tt.reshape %2 allow_reorder : tensor<2x128xf32, #col> -> tensor<256xf32, #lz>
  tt.return %1, %3, %4, %5 : tensor<256xf32, #b0>, tensor<256xf32, #col_flat>, tensor<256xf32, #b0>, tensor<256xf32, #lz>
}
}

// -----

// Transposes: a conversion that moves nothing goes into the trans, another stays.
#r = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#r_linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#c = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @trans
// CHECK-SAME:    (%arg0: tensor<32x32xf32, #[[RL:[a-z0-9_]+]]>, %arg1: tensor<32x32xf32, #[[R:[a-z0-9_]+]]>) -> (tensor<32x32xf32, #[[C:[a-z0-9_]+]]>,
// CHECK-NEXT:    %[[T:.+]] = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #[[RL]]> -> tensor<32x32xf32, #[[C]]>
// CHECK-NEXT:    %[[CV:.+]] = ttg.convert_layout %arg1 : tensor<32x32xf32, #[[R]]> -> tensor<32x32xf32, #[[C]]>
// CHECK-NEXT:    %[[U:.+]] = tt.trans %[[CV]] {order = array<i32: 1, 0>}
// CHECK-NEXT:    tt.return %[[T]], %[[U]]
tt.func @trans(%x: tensor<32x32xf32, #r_linear>, %y: tensor<32x32xf32, #r>) -> (tensor<32x32xf32, #c>, tensor<32x32xf32, #r>) {
  %0 = ttg.convert_layout %x : tensor<32x32xf32, #r_linear> -> tensor<32x32xf32, #r>
  %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #r> -> tensor<32x32xf32, #c>
  %2 = ttg.convert_layout %y : tensor<32x32xf32, #r> -> tensor<32x32xf32, #c>
  %3 = tt.trans %2 {order = array<i32: 1, 0>} : tensor<32x32xf32, #c> -> tensor<32x32xf32, #r>
  tt.return %1, %3 : tensor<32x32xf32, #c>, tensor<32x32xf32, #r>
}
}

// -----

// Splits: the conversion goes when splitting its source gives the results' layout already
// (not from #s_lanes, whose pairs lie across lanes: a split of it is refused).
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#s_lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#s_pairs = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#s_cols = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @split
// CHECK-SAME:    (%arg0: tensor<128x2xf32, #[[SL:[a-z0-9_]+]]>, %arg1: tensor<128x2xf32, #[[S:[a-z0-9_]+]]>) -> (tensor<128xf32, #[[B0:[a-z0-9_]+]]>,
// CHECK-NEXT:    %[[A:[a-zA-Z0-9_]+]], %{{.+}} = tt.split %arg1 : tensor<128x2xf32, #[[S]]> -> tensor<128xf32, #[[B0]]>
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg0
// CHECK-NEXT:    %{{.+}}, %[[B:[a-zA-Z0-9_]+]] = tt.split %[[C]]
// CHECK-NEXT:    %[[D:.+]] = ttg.convert_layout %arg1
// CHECK-NEXT:    %[[E:[a-zA-Z0-9_]+]], %{{.+}} = tt.split %[[D]]
// CHECK-NEXT:    tt.return %[[A]], %[[B]], %[[E]]
tt.func @split(%x: tensor<128x2xf32, #s_lanes>, %y: tensor<128x2xf32, #s>) -> (tensor<128xf32, #b0>, tensor<128xf32, #b0>, tensor<128xf32, #b1>) {
  %0 = ttg.convert_layout %y : tensor<128x2xf32, #s> -> tensor<128x2xf32, #s_cols>
  %a, %b = tt.split %0 : tensor<128x2xf32, #s_cols> -> tensor<128xf32, #b0>
  %1 = ttg.convert_layout %x : tensor<128x2xf32, #s_lanes> -> tensor<128x2xf32, #s>
  %c, %d = tt.split %1 : tensor<128x2xf32, #s> -> tensor<128xf32, #b0>
  %2 = ttg.convert_layout %y : tensor<128x2xf32, #s> -> tensor<128x2xf32, #s_pairs>
  %e, %f = tt.split %2 : tensor<128x2xf32, #s_pairs> -> tensor<128xf32, #b1>
  tt.return %a, %d, %e : tensor<128xf32, #b0>, tensor<128xf32, #b0>, tensor<128xf32, #b1>
}
}

// -----

// Shared memory: stores and allocations take any layout, loads give any layout (where the
// load was: the barrier stays after it); local_alloc(local_load(b)) is b when the new buffer
// would be an immutable one of b's type.
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @store_and_alloc
// CHECK-SAME:    (%arg0: tensor<128xf32, #[[B0:[a-z0-9_]+]]>,
// CHECK-NEXT:    ttg.local_store %arg0, %arg1 : tensor<128xf32, #[[B0]]> -> !ttg.memdesc
// CHECK-NEXT:    %[[A:.+]] = ttg.local_alloc %arg0 {alignment = 16 : i32} : (tensor<128xf32, #[[B0]]>) -> !ttg.memdesc
// CHECK-NEXT:    tt.return %[[A]]
tt.func @store_and_alloc(%x: tensor<128xf32, #b0>, %buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>) -> !ttg.memdesc<128xf32, #shared, #smem> {
  %0 = ttg.convert_layout %x : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
  ttg.local_store %0, %buf : tensor<128xf32, #b1> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
  %1 = ttg.local_alloc %0 {alignment = 16 : i32} : (tensor<128xf32, #b1>) -> !ttg.memdesc<128xf32, #shared, #smem>
  tt.return %1 : !ttg.memdesc<128xf32, #shared, #smem>
}

// CHECK-LABEL: tt.func @load
// CHECK-NEXT:    %[[L:.+]] = ttg.local_load %arg0 token %arg1 : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #[[B1:[a-z0-9_]+]]>
// CHECK-NEXT:    ttg.barrier local
// CHECK-NEXT:    tt.return %[[L]]
tt.func @load(%buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %t: !ttg.async.token) -> tensor<128xf32, #b1> {
  %0 = ttg.local_load %buf token %t : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #b0>
  ttg.barrier local
  %1 = ttg.convert_layout %0 : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
  tt.return %1 : tensor<128xf32, #b1>
}

// CHECK-LABEL: tt.func @alloc_of_load
// CHECK-NEXT:    %[[B:.+]] = ttg.local_alloc %arg1 : (tensor<128xf32, #[[B0]]>) -> !ttg.memdesc<128xf32, #shared, #smem>
// CHECK-NEXT:    %[[L:.+]] = ttg.local_load %arg0
// CHECK-NEXT:    %[[M:.+]] = ttg.local_alloc %[[L]] : (tensor<128xf32, #[[B0]]>) -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
// CHECK-NEXT:    %[[N:.+]] = ttg.local_alloc %[[L]] : (tensor<128xf32, #[[B0]]>) -> !ttg.memdesc<128xf32, #shared1, #smem>
// CHECK-NEXT:    tt.return %[[B]], %[[M]], %[[N]]
tt.func @alloc_of_load(%mbuf: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %x: tensor<128xf32, #b0>) -> (!ttg.memdesc<128xf32, #shared, #smem>, !ttg.memdesc<128xf32, #shared, #smem, mutable>, !ttg.memdesc<128xf32, #shared1, #smem>) {
  %buf = ttg.local_alloc %x : (tensor<128xf32, #b0>) -> !ttg.memdesc<128xf32, #shared, #smem>
  %0 = ttg.local_load %buf : !ttg.memdesc<128xf32, #shared, #smem> -> tensor<128xf32, #b0>
  %1 = ttg.local_alloc %0 : (tensor<128xf32, #b0>) -> !ttg.memdesc<128xf32, #shared, #smem>
  %2 = ttg.local_load %mbuf : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #b0>
  %3 = ttg.local_alloc %2 : (tensor<128xf32, #b0>) -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
  %4 = ttg.local_alloc %2 : (tensor<128xf32, #b0>) -> !ttg.memdesc<128xf32, #shared1, #smem>
  tt.return %1, %3, %4 : !ttg.memdesc<128xf32, #shared, #smem>, !ttg.memdesc<128xf32, #shared, #smem, mutable>, !ttg.memdesc<128xf32, #shared1, #smem>
}
}

// -----

// A gather's source goes through shared memory: its conversion goes, unless the gather's
// layouts were chosen on purpose.
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @gather
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg0
// CHECK-NEXT:    %[[G:.+]] = tt.gather %arg0[%arg1] {axis = 1 : i32} : (tensor<32x16xf16, #[[B:[a-z0-9_]+]]>, tensor<32x8xi32, #[[B]]>) -> tensor<32x8xf16, #[[B]]>
// CHECK-NEXT:    %[[H:.+]] = tt.gather %[[C]][%arg1] {axis = 1 : i32, efficient_layout}
// CHECK-NEXT:    tt.return %[[G]], %[[H]]
tt.func @gather(%src: tensor<32x16xf16, #b0>, %idx: tensor<32x8xi32, #b0>) -> (tensor<32x8xf16, #b0>, tensor<32x8xf16, #b0>) {
  %0 = ttg.convert_layout %src : tensor<32x16xf16, #b0> -> tensor<32x16xf16, #b1>
  %1 = tt.gather %0[%idx] {axis = 1 : i32} : (tensor<32x16xf16, #b1>, tensor<32x8xi32, #b0>) -> tensor<32x8xf16, #b0>
  %2 = tt.gather %0[%idx] {axis = 1 : i32, efficient_layout} : (tensor<32x16xf16, #b1>, tensor<32x8xi32, #b0>) -> tensor<32x8xf16, #b0>
  tt.return %1, %2 : tensor<32x8xf16, #b0>, tensor<32x8xf16, #b0>
}
}

// -----

// AMD's mfma accumulator is a map like the others: a tt.trans of a conversion from #mma to
// the #ttg.linear of the same map transposes #mma itself; a conversion to another map (lane 32
// four rows further, not eight) stays.
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
#same = #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], warp = [], block = []}>
#other = #ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]], warp = [], block = []}>
#t = #ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp = [], block = []}>
#t2 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], warp = [], block = []}>
// CHECK-LABEL: tt.func @trans_of_mfma_convert
// CHECK-NEXT:    %[[T:.+]] = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #[[L:linear[0-9]*]]>
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #[[L2:linear[0-9]*]]>
// CHECK-NEXT:    %[[T2:.+]] = tt.trans %[[C]] {order = array<i32: 1, 0>} : tensor<32x32xf32, #[[L2]]> ->
// CHECK-NEXT:    tt.return %[[T]], %[[T2]]
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @trans_of_mfma_convert(%arg0: tensor<32x32xf32, #mma>) -> (tensor<32x32xf32, #t>, tensor<32x32xf32, #t2>) {
    %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #same>
    %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #same> -> tensor<32x32xf32, #t>
    %2 = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #other>
    %3 = tt.trans %2 {order = array<i32: 1, 0>} : tensor<32x32xf32, #other> -> tensor<32x32xf32, #t2>
    tt.return %1, %3 : tensor<32x32xf32, #t>, tensor<32x32xf32, #t2>
  }
}

// -----

// A conversion into ttng.tmem_store goes when the store takes the source's layout as well:
// #m256 is the 16x256b message layout of 128x64 f32 (a register pair on a column pair and row
// 8, lanes on columns 2 and 4 then rows 1-4, row 16 in a register), and in bf16 it packs
// column pairs into the 16x128b message. The conversion stays when the lanes do not start as
// a message's do (#lanes: the same lanes reordered), when warps 1 and 2 do not hold rows 32
// and 64 (#rows), and for bf16 whose first register is not the next column (#swapped: it
// cannot pack pairs).
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#m256 = #ttg.linear<{register = [[0, 1], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#lanes = #ttg.linear<{register = [[0, 1], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [0, 2], [0, 4]], warp = [[32, 0], [64, 0]], block = []}>
#rows = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[64, 0], [32, 0]], block = []}>
#swapped = #ttg.linear<{register = [[8, 0], [0, 1], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-LABEL: tt.func @tmem_store_of_convert
// CHECK-NEXT:    %[[TRUE:.+]] = arith.constant true
// CHECK-NEXT:    ttng.tmem_store %arg0, %arg5, %[[TRUE]] : tensor<128x64xf32, #[[M256:linear[0-9]*]]> ->
// CHECK-NEXT:    ttng.tmem_store %arg3, %arg6, %[[TRUE]] : tensor<128x64xbf16, #[[M256]]> ->
// CHECK-NEXT:    %[[L:.+]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<128x64xf32, #blocked>
// CHECK-NEXT:    ttng.tmem_store %[[L]], %arg5, %[[TRUE]] : tensor<128x64xf32, #blocked> ->
// CHECK-NEXT:    %[[R:.+]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<128x64xf32, #blocked>
// CHECK-NEXT:    ttng.tmem_store %[[R]], %arg5, %[[TRUE]] : tensor<128x64xf32, #blocked> ->
// CHECK-NEXT:    %[[S:.+]] = ttg.convert_layout %arg4 : {{.*}} -> tensor<128x64xbf16, #blocked>
// CHECK-NEXT:    ttng.tmem_store %[[S]], %arg6, %[[TRUE]] : tensor<128x64xbf16, #blocked> ->
// CHECK-NEXT:    tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tmem_store_of_convert(%arg0: tensor<128x64xf32, #m256>, %arg1: tensor<128x64xf32, #lanes>, %arg2: tensor<128x64xf32, #rows>, %arg3: tensor<128x64xbf16, #m256>, %arg4: tensor<128x64xbf16, #swapped>, %arg5: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %arg6: !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %0 = ttg.convert_layout %arg0 : tensor<128x64xf32, #m256> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %0, %arg5, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %1 = ttg.convert_layout %arg3 : tensor<128x64xbf16, #m256> -> tensor<128x64xbf16, #blocked>
    ttng.tmem_store %1, %arg6, %true : tensor<128x64xbf16, #blocked> -> !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>
    %2 = ttg.convert_layout %arg1 : tensor<128x64xf32, #lanes> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %2, %arg5, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %3 = ttg.convert_layout %arg2 : tensor<128x64xf32, #rows> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %3, %arg5, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %4 = ttg.convert_layout %arg4 : tensor<128x64xbf16, #swapped> -> tensor<128x64xbf16, #blocked>
    ttng.tmem_store %4, %arg6, %true : tensor<128x64xbf16, #blocked> -> !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
