// tritongpu-coalesce: the width of a thread's access from the pointers' contiguity and
// alignment (through layout conversions), the order from contiguity (a column-major store), a
// narrower load widened to its neighbour's width while a store keeps its own, atomics, and
// accesses it must leave as they are (pointers without contiguity, a width the tensor is too
// small for).
// RUN: tilecraft-opt %s --split-input-file -tritongpu-coalesce | filecheck %s

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[$V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: @through_convert
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<1024x!tt.ptr<f32>, #[[$V4]]>
// CHECK: %[[X:.*]] = tt.load %[[P]] : tensor<1024x!tt.ptr<f32>, #[[$V4]]>
// CHECK: ttg.convert_layout %[[X]] : tensor<1024xf32, #[[$V4]]> -> tensor<1024xf32, #{{.*}}>
tt.func @through_convert(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<1024xf32, #b1> {
  %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b2>
  %1 = ttg.convert_layout %0 : tensor<1024xi32, #b2> -> tensor<1024xi32, #b1>
  %2 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
  %3 = tt.addptr %2, %1 : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
  %4 = tt.load %3 : tensor<1024x!tt.ptr<f32>, #b1>
  tt.return %4 : tensor<1024xf32, #b1>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// A store whose pointers run along dim 0: dim 0 first in the order, 4 elements per thread.
// CHECK: #[[$COL:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: @column_major_store
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[$COL]]>
tt.func @column_major_store(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}, %v: tensor<64x64xf32, #b>) {
  %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
  %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
  %3 = tt.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %4 = tt.splat %arg1 : i32 -> tensor<1x64xi32, #b>
  %5 = arith.muli %3, %4 : tensor<1x64xi32, #b>
  %6 = tt.broadcast %1 : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
  %7 = tt.broadcast %5 : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %8 = arith.addi %6, %7 : tensor<64x64xi32, #b>
  %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
  %10 = tt.addptr %9, %8 : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
  tt.store %10, %v : tensor<64x64x!tt.ptr<f32>, #b>
  tt.return
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The f16 load may read 8 elements; the f32 load shares its width, the f32 store keeps 4.
// CHECK-DAG: #[[$W8:.*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$W4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: @shared_width
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[$W8]]>
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$W8]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$W4]]>
tt.func @shared_width(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
  %1 = tt.splat %a : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>
  %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>
  %3 = tt.load %2 : tensor<1024x!tt.ptr<f16>, #b>
  %4 = tt.splat %b : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
  %5 = tt.addptr %4, %0 : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
  %6 = tt.load %5 : tensor<1024x!tt.ptr<f32>, #b>
  %7 = arith.extf %3 : tensor<1024xf16, #b> to tensor<1024xf32, #b>
  %8 = arith.addf %6, %7 : tensor<1024xf32, #b>
  tt.store %5, %8 : tensor<1024x!tt.ptr<f32>, #b>
  tt.return
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[$A4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: @atomic
// CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<512x!tt.ptr<f32>, #[[$A4]]>
tt.func @atomic(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<512xf32, #b>) -> tensor<512xf32, #b> {
  %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
  %1 = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
  %2 = tt.addptr %1, %0 : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
  %3 = tt.atomic_rmw fadd, relaxed, gpu, %2, %v : (tensor<512x!tt.ptr<f32>, #b>, tensor<512xf32, #b>) -> tensor<512xf32, #b>
  tt.return %3 : tensor<512xf32, #b>
}
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// Must not widen: one pointer splat (no contiguity), and 128 elements over 128 threads.
// CHECK-NOT: sizePerThread = [{{[248]}}]
// CHECK-LABEL: @stays_narrow
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>
tt.func @stays_narrow(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
  %1 = tt.load %0 : tensor<1024x!tt.ptr<f32>, #b>
  %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
  %3 = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
  %4 = tt.addptr %3, %2 : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
  %5 = tt.load %4 : tensor<128x!tt.ptr<f32>, #b>
  tt.return
}
}

// -----

// A poison value joined with the pointers (a branch that never reads it) does not narrow them.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[$V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: @poison_branch
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[$V4]]>
tt.func @poison_branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: i1) {
  %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
  %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
  %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
  %p = ub.poison : tensor<1024x!tt.ptr<f32>, #b>
  %3 = scf.if %c -> (tensor<1024x!tt.ptr<f32>, #b>) {
    scf.yield %p : tensor<1024x!tt.ptr<f32>, #b>
  } else {
    scf.yield %2 : tensor<1024x!tt.ptr<f32>, #b>
  }
  %4 = tt.load %3 : tensor<1024x!tt.ptr<f32>, #b>
  tt.return
}
}

// -----

// Descriptor loads and stores: row-major, 128 bits per thread along the last dim at most,
// and no more than the thread's share; the rows of a gather keep their layout.
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
#r = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[$D4:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$D2:.*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: @descriptors
// CHECK-SAME: tensor<32xi32, #[[ROWS:[a-z0-9]+]]>
// CHECK: %[[L:.*]] = tt.descriptor_load %{{.*}} : !tt.tensordesc<32x128xf32> -> tensor<32x128xf32, #[[$D4]]>
// CHECK: %[[S:.*]] = ttg.convert_layout %{{.*}} : tensor<4x64xf16, #{{.*}}> -> tensor<4x64xf16, #[[$D2]]>
// CHECK: tt.descriptor_store %{{.*}}, %[[S]] : !tt.tensordesc<4x64xf16>, tensor<4x64xf16, #[[$D2]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<1x128xf32>, tensor<32xi32, #[[ROWS]]>, i32) -> tensor<32x128xf32, #[[$D4]]>
tt.func @descriptors(%d: !tt.tensordesc<32x128xf32>, %h: !tt.tensordesc<4x64xf16>, %g: !tt.tensordesc<1x128xf32>,
                     %v: tensor<4x64xf16, #b>, %rows: tensor<32xi32, #r>) {
  %c0 = arith.constant 0 : i32
  %l = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<32x128xf32> -> tensor<32x128xf32, #b>
  tt.descriptor_store %h[%c0, %c0], %v : !tt.tensordesc<4x64xf16>, tensor<4x64xf16, #b>
  %x = tt.descriptor_gather %g[%rows, %c0] : (!tt.tensordesc<1x128xf32>, tensor<32xi32, #r>, i32) -> tensor<32x128xf32, #b>
  tt.return
}
}
