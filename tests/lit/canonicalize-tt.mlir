// Triton's folders and canonicalization patterns through -canonicalize.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// The transpose-chain peephole: trans(trans(x)) with inverse orders is x.
// CHECK-LABEL: tt.func @trans_trans(%arg0: tensor<16x32xf32>)
// CHECK-NEXT:    tt.return %arg0 : tensor<16x32xf32>
tt.func @trans_trans(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<32x16xf32> -> tensor<16x32xf32>
  tt.return %1 : tensor<16x32xf32>
}

// -----

// Orders that do not cancel compose into one trans.
// CHECK-LABEL: tt.func @trans_compose(%arg0: tensor<2x4x8xf32>)
// CHECK-NEXT:    %[[T:.+]] = tt.trans %arg0 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT:    tt.return %[[T]]
tt.func @trans_compose(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %0 = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %1 = tt.trans %0 {order = array<i32: 2, 1, 0>} : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
  tt.return %1 : tensor<8x2x4xf32>
}

// -----

// The transpose of a splat is a splat of the transposed shape.
// CHECK-LABEL: tt.func @trans_splat(%arg0: f32)
// CHECK-NEXT:    %[[S:.+]] = tt.splat %arg0 : f32 -> tensor<32x16xf32>
// CHECK-NEXT:    tt.return %[[S]]
tt.func @trans_splat(%x: f32) -> tensor<32x16xf32> {
  %0 = tt.splat %x : f32 -> tensor<16x32xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return %1 : tensor<32x16xf32>
}

// -----

// A chain of three transposes whose orders compose to the identity.
// CHECK-LABEL: tt.func @trans_three(%arg0: tensor<2x4x8xf32>)
// CHECK-NEXT:    tt.return %arg0
tt.func @trans_three(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tt.trans %x {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  %2 = tt.trans %1 {order = array<i32: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  tt.return %2 : tensor<2x4x8xf32>
}

// -----

// A single transpose stays; an identity order folds away.
// CHECK-LABEL: tt.func @trans_single(%arg0: tensor<16x32xf32>)
// CHECK-NEXT:    %[[T:.+]] = tt.trans %arg0 {order = array<i32: 1, 0>}
// CHECK-NEXT:    tt.return %[[T]], %arg0
tt.func @trans_single(%x: tensor<16x32xf32>) -> (tensor<32x16xf32>, tensor<16x32xf32>) {
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %1 = tt.trans %x {order = array<i32: 0, 1>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return %0, %1 : tensor<32x16xf32>, tensor<16x32xf32>
}

// -----

// Transposes of constants fold: splats and dense tensors.
// CHECK-LABEL: tt.func @trans_constant
// CHECK-DAG:     %[[S:.+]] = arith.constant dense<1.000000e+00> : tensor<4x2xf32>
// CHECK-DAG:     %[[D:.+]] = arith.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>
// CHECK-NOT:     tt.trans
// CHECK:         tt.return %[[S]], %[[D]]
tt.func @trans_constant() -> (tensor<4x2xf32>, tensor<2x2xi32>) {
  %c = arith.constant dense<1.0> : tensor<2x4xf32>
  %d = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = tt.trans %c {order = array<i32: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
  %1 = tt.trans %d {order = array<i32: 1, 0>} : tensor<2x2xi32> -> tensor<2x2xi32>
  tt.return %0, %1 : tensor<4x2xf32>, tensor<2x2xi32>
}

// -----

// splat, broadcast and expand_dims of constants are constants.
// CHECK-LABEL: tt.func @shape_constants
// CHECK-DAG:     %[[SPLAT:.+]] = arith.constant dense<7> : tensor<128xi32>
// CHECK-DAG:     %[[BC:.+]] = arith.constant dense<2.000000e+00> : tensor<32x64xf32>
// CHECK-DAG:     %[[EXP:.+]] = arith.constant dense<2.000000e+00> : tensor<1x64xf32>
// CHECK-DAG:     %[[RS:.+]] = arith.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-DAG:     %[[RANGE:.+]] = arith.constant dense<5> : tensor<1xi32>
// CHECK:         tt.return %[[SPLAT]], %[[BC]], %[[EXP]], %[[RS]], %[[RANGE]]
tt.func @shape_constants() -> (tensor<128xi32>, tensor<32x64xf32>, tensor<1x64xf32>, tensor<2x2xi32>, tensor<1xi32>) {
  %c7 = arith.constant 7 : i32
  %two = arith.constant dense<2.0> : tensor<1x64xf32>
  %row = arith.constant dense<2.0> : tensor<64xf32>
  %d = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = tt.splat %c7 : i32 -> tensor<128xi32>
  %1 = tt.broadcast %two : tensor<1x64xf32> -> tensor<32x64xf32>
  %2 = tt.expand_dims %row {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %3 = tt.reshape %d : tensor<4xi32> -> tensor<2x2xi32>
  %4 = tt.make_range {end = 6 : i32, start = 5 : i32} : tensor<1xi32>
  tt.return %0, %1, %2, %3, %4 : tensor<128xi32>, tensor<32x64xf32>, tensor<1x64xf32>, tensor<2x2xi32>, tensor<1xi32>
}

// -----

// broadcast(splat x) and expand_dims(splat x) are splats; broadcast(broadcast x) is one
// broadcast; a broadcast to the same type is its source.
// CHECK-LABEL: tt.func @splat_chains(%arg0: f32, %arg1: tensor<1x1xf32>, %arg2: tensor<4x8xf32>)
// CHECK-DAG:     %[[A:.+]] = tt.splat %arg0 : f32 -> tensor<4x8xf32>
// CHECK-DAG:     %[[B:.+]] = tt.splat %arg0 : f32 -> tensor<1x8xf32>
// CHECK-DAG:     %[[C:.+]] = tt.broadcast %arg1 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK:         tt.return %[[A]], %[[B]], %[[C]], %arg2
tt.func @splat_chains(%s: f32, %t: tensor<1x1xf32>, %u: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tt.splat %s : f32 -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  %2 = tt.splat %s : f32 -> tensor<8xf32>
  %3 = tt.expand_dims %2 {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %4 = tt.broadcast %t : tensor<1x1xf32> -> tensor<1x8xf32>
  %5 = tt.broadcast %4 : tensor<1x8xf32> -> tensor<4x8xf32>
  %6 = tt.broadcast %u : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return %1, %3, %5, %6 : tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// expand_dims of a broadcast moves the broadcast after it.
// CHECK-LABEL: tt.func @expand_dims_broadcast(%arg0: tensor<1xf32>)
// CHECK-NEXT:    %[[E:.+]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    tt.return %[[B]]
tt.func @expand_dims_broadcast(%x: tensor<1xf32>) -> tensor<8x1xf32> {
  %0 = tt.broadcast %x : tensor<1xf32> -> tensor<8xf32>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return %1 : tensor<8x1xf32>
}

// -----

// reshape(reshape x) is one reshape (reordering allowed if either allowed it), reshape of a
// splat is a splat, a reshape to the same type is its source; not when the reshape fixes an
// efficient layout.
// CHECK-LABEL: tt.func @reshape_chains(%arg0: tensor<4x8xf32>, %arg1: f32)
// CHECK-DAG:     %[[R:.+]] = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-DAG:     %[[S:.+]] = tt.splat %arg1 : f32 -> tensor<2x16xf32>
// CHECK-DAG:     %[[K:.+]] = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-DAG:     %[[E:.+]] = tt.reshape %[[K]] efficient_layout : tensor<32xf32> -> tensor<2x16xf32>
// CHECK:         tt.return %[[R]], %[[S]], %arg0, %[[E]]
tt.func @reshape_chains(%x: tensor<4x8xf32>, %s: f32) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<2x16xf32>) {
  %0 = tt.reshape %x allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  %1 = tt.reshape %0 : tensor<32xf32> -> tensor<2x16xf32>
  %2 = tt.splat %s : f32 -> tensor<32xf32>
  %3 = tt.reshape %2 : tensor<32xf32> -> tensor<2x16xf32>
  %4 = tt.reshape %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %6 = tt.reshape %5 efficient_layout : tensor<32xf32> -> tensor<2x16xf32>
  tt.return %1, %3, %4, %6 : tensor<2x16xf32>, tensor<2x16xf32>, tensor<4x8xf32>, tensor<2x16xf32>
}

// -----

// addptr of a zero offset is the pointer; a non-zero offset stays.
// CHECK-LABEL: tt.func @addptr_zero(%arg0: !tt.ptr<f32>, %arg1: tensor<128x!tt.ptr<f32>>)
// CHECK:         %[[P:.+]] = tt.addptr %arg0, %{{.+}} : !tt.ptr<f32>, i32
// CHECK-NEXT:    tt.return %arg0, %arg1, %[[P]]
tt.func @addptr_zero(%p: !tt.ptr<f32>, %ps: tensor<128x!tt.ptr<f32>>) -> (!tt.ptr<f32>, tensor<128x!tt.ptr<f32>>, !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zeros = arith.constant dense<0> : tensor<128xi32>
  %0 = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  %1 = tt.addptr %ps, %zeros : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %2 = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
  tt.return %0, %1, %2 : !tt.ptr<f32>, tensor<128x!tt.ptr<f32>>, !tt.ptr<f32>
}

// -----

// Loads and stores with constant masks: an all-true mask goes, an all-false store goes, an
// all-false load is its `other`; an unused non-volatile load goes, a volatile one stays.
// CHECK-LABEL: tt.func @masks(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf32>, %arg2: tensor<128xi1>)
// CHECK-NEXT:    %[[L:.+]] = tt.load %arg0 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    %[[M:.+]] = tt.load %arg0, %arg2 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    %{{.+}} = tt.load %arg0 {isVolatile = true} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %arg0, %arg1 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %arg0, %arg1, %arg2 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return %[[L]], %arg1, %[[M]]
tt.func @masks(%ptrs: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<128xi1>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %true = arith.constant dense<true> : tensor<128xi1>
  %false = arith.constant dense<false> : tensor<128xi1>
  %0 = tt.load %ptrs, %true : tensor<128x!tt.ptr<f32>>
  %1 = tt.load %ptrs, %false, %v : tensor<128x!tt.ptr<f32>>
  %2 = tt.load %ptrs, %m : tensor<128x!tt.ptr<f32>>
  %3 = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
  %4 = tt.load %ptrs {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %v, %true : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %v, %false : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %v, %m : tensor<128x!tt.ptr<f32>>
  tt.return %0, %1, %2 : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}

// -----

// An all-false load without `other` has an undefined value: it stays.
// CHECK-LABEL: tt.func @masked_load_no_other
// CHECK:         tt.load %arg0, %{{.+}} : tensor<128x!tt.ptr<f32>>
tt.func @masked_load_no_other(%ptrs: tensor<128x!tt.ptr<f32>>) -> tensor<128xf32> {
  %false = arith.constant dense<false> : tensor<128xi1>
  %0 = tt.load %ptrs, %false : tensor<128x!tt.ptr<f32>>
  tt.return %0 : tensor<128xf32>
}

// -----

// int_to_ptr(ptr_to_int p) is p; casts to the same type are their source; fp_to_fp of
// constants folds when exact (or rounded under rtne), not under rtz when inexact.
// CHECK-LABEL: tt.func @casts(%arg0: !tt.ptr<f32>, %arg1: tensor<8xf32>)
// CHECK-DAG:     %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<8xf16>
// CHECK-DAG:     %[[R:.+]] = arith.constant dense<9.997559e-02> : tensor<8xf16>
// CHECK-DAG:     %[[T:.+]] = tt.fp_to_fp %{{.+}}, rounding = rtz : tensor<8xf32> -> tensor<8xf16>
// CHECK:         tt.return %arg0, %arg1, %[[Z]], %[[R]], %[[T]]
tt.func @casts(%p: !tt.ptr<f32>, %x: tensor<8xf32>) -> (!tt.ptr<f32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %1 = tt.int_to_ptr %0 : i64 -> !tt.ptr<f32>
  %2 = tt.bitcast %x : tensor<8xf32> -> tensor<8xf32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %tenth = arith.constant dense<0.1> : tensor<8xf32>
  %3 = tt.fp_to_fp %zero, rounding = rtz : tensor<8xf32> -> tensor<8xf16>
  %4 = tt.fp_to_fp %tenth, rounding = rtne : tensor<8xf32> -> tensor<8xf16>
  %5 = tt.fp_to_fp %tenth, rounding = rtz : tensor<8xf32> -> tensor<8xf16>
  tt.return %1, %2, %3, %4, %5 : !tt.ptr<f32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

// -----

// int_to_ptr(ptr_to_int p) to another pointer type is a tt.bitcast.
// CHECK-LABEL: tt.func @int_to_ptr_other_type(%arg0: !tt.ptr<f32>)
// CHECK-NEXT:    %[[B:.+]] = tt.bitcast %arg0 : !tt.ptr<f32> -> !tt.ptr<i32>
// CHECK-NEXT:    tt.return %[[B]]
tt.func @int_to_ptr_other_type(%p: !tt.ptr<f32>) -> !tt.ptr<i32> {
  %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %1 = tt.int_to_ptr %0 : i64 -> !tt.ptr<i32>
  tt.return %1 : !tt.ptr<i32>
}

// -----

// Ops that must stay: a real broadcast, a real expand_dims, a make_range of several values.
// CHECK-LABEL: tt.func @no_fold_shapes(%arg0: tensor<1x8xf32>, %arg1: tensor<8xf32>)
// CHECK-NEXT:    tt.make_range
// CHECK-NEXT:    tt.broadcast %arg0
// CHECK-NEXT:    tt.expand_dims %arg1
tt.func @no_fold_shapes(%x: tensor<1x8xf32>, %y: tensor<8xf32>) -> (tensor<8xi32>, tensor<4x8xf32>, tensor<8x1xf32>) {
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %1 = tt.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf32>
  %2 = tt.expand_dims %y {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return %0, %1, %2 : tensor<8xi32>, tensor<4x8xf32>, tensor<8x1xf32>
}
