// triton-combine: Triton's peepholes (dot + add, addptr chains, select of a masked load,
// broadcast-multiply-reduce into dot, truncf of min/max and of a power-of-two division,
// broadcast/splat chains, reshapes read by reductions, rank-reduced descriptor loads), and the
// cases where they must not fire.
// RUN: tilecraft-opt %s --split-input-file -triton-combine | filecheck %s

// CHECK-LABEL: tt.func @dot_add
// CHECK-NEXT:    %0 = tt.dot %arg0, %arg1, %arg2 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT:    %1 = tt.dot %arg0, %arg1, %arg2 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT:    %2 = tt.dot %arg3, %arg3, %arg4 : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT:    %3 = tt.dot %arg3, %arg3, %arg4 : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT:    tt.return %0, %1, %2, %3
tt.func @dot_add(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>, %x: tensor<16x16xi8>, %ci: tensor<16x16xi32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xi32>) {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %zi = arith.constant dense<0> : tensor<16x16xi32>
  %d0 = tt.dot %a, %b, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r0 = arith.addf %d0, %c : tensor<16x16xf32>
  %d1 = tt.dot %a, %b, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r1 = arith.addf %c, %d1 : tensor<16x16xf32>
  %d2 = tt.dot %x, %x, %zi : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %r2 = arith.addi %ci, %d2 : tensor<16x16xi32>
  %d3 = tt.dot %x, %x, %zi : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %r3 = arith.addi %d3, %ci : tensor<16x16xi32>
  tt.return %r0, %r1, %r2, %r3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xi32>
}

// -----

// Not fired: an accumulator that is not zero, a dot with another use, and imprecise
// accumulation (maxNumImpreciseAcc != 0) with addf.
// CHECK-LABEL: tt.func @dot_add_no
// CHECK-COUNT-3: arith.addf
tt.func @dot_add_no(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r0 = arith.addf %d0, %c : tensor<16x16xf32>
  %d1 = tt.dot %a, %b, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r1 = arith.addf %d1, %c : tensor<16x16xf32>
  %d2 = tt.dot %a, %b, %z {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r2 = arith.addf %d2, %c : tensor<16x16xf32>
  tt.return %r0, %r1, %d1, %r2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// addptr chains merge with 64-bit offsets, and with constant offsets whose sum fits.
// CHECK-LABEL: tt.func @addptr
// CHECK:         %[[SUM:.+]] = arith.addi %arg1, %arg2 : tensor<8xi64>
// CHECK-NEXT:    %[[P:.+]] = tt.addptr %arg0, %[[SUM]] : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-NOT:     tt.addptr %{{[0-9]+}}
// CHECK:         %[[Q:.+]] = tt.addptr %arg0, %{{.+}} : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
// CHECK-NEXT:    tt.return %[[P]], %[[Q]]
tt.func @addptr(%p: tensor<8x!tt.ptr<f32>>, %i: tensor<8xi64>, %j: tensor<8xi64>) -> (tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>) {
  %0 = tt.addptr %p, %i : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %1 = tt.addptr %0, %j : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %c10 = arith.constant dense<10> : tensor<8xi32>
  %c15 = arith.constant 15 : i32
  %s15 = tt.splat %c15 : i32 -> tensor<8xi32>
  %2 = tt.addptr %p, %c10 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %3 = tt.addptr %2, %s15 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.return %1, %3 : tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>
}

// -----

// Not fired: 32-bit offsets that are not constants (the sum could overflow), constants whose
// sum overflows, and offsets of different types.
// CHECK-LABEL: tt.func @addptr_no
// CHECK-NOT:     arith.addi
// CHECK-COUNT-6: tt.addptr
tt.func @addptr_no(%p: tensor<8x!tt.ptr<f32>>, %i: tensor<8xi32>, %j: tensor<8xi32>, %k: tensor<8xi64>) -> (tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>) {
  %0 = tt.addptr %p, %i : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %1 = tt.addptr %0, %j : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %big = arith.constant dense<2147483000> : tensor<8xi32>
  %2 = tt.addptr %p, %big : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %3 = tt.addptr %2, %big : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %4 = tt.addptr %p, %i : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %5 = tt.addptr %4, %k : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  tt.return %1, %3, %5 : tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>
}

// -----

// A merged addptr keeps the outer one's hints for the axis analysis (tt.divisibility,
// tt.contiguity, tt.constancy), not its other attributes, nor the inner one's.
// CHECK-LABEL: tt.func @addptr_hints
// CHECK:         tt.addptr %arg0, %{{.+}} {tt.constancy = 8 : i32, tt.divisibility = 16 : i32} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-NOT:     tt.addptr
tt.func @addptr_hints(%p: tensor<8x!tt.ptr<f32>>, %i: tensor<8xi64>, %j: tensor<8xi64>) -> tensor<8x!tt.ptr<f32>> {
  %0 = tt.addptr %p, %i {tt.contiguity = 8 : i32} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %1 = tt.addptr %0, %j {tt.divisibility = 16 : i32, tt.constancy = 8 : i32, tt.other = 1 : i32} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  tt.return %1 : tensor<8x!tt.ptr<f32>>
}

// -----

// A reshape to one dimension that only reductions and histograms read may reorder; one that
// something else reads, or to more dimensions, may not.
// CHECK-LABEL: tt.func @reshape_reduce
// CHECK-NEXT:    %[[R:.+]] = tt.reshape %arg0 allow_reorder : tensor<4x8xi32> -> tensor<32xi32>
// CHECK:         tt.histogram %[[R]]
// CHECK:         tt.reshape %arg0 : tensor<4x8xi32> -> tensor<32xi32>
// CHECK:         tt.reshape %arg0 : tensor<4x8xi32> -> tensor<2x16xi32>
tt.func @reshape_reduce(%x: tensor<4x8xi32>) -> (i32, tensor<16xi32>, tensor<32xi32>, i32) {
  %0 = tt.reshape %x : tensor<4x8xi32> -> tensor<32xi32>
  %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<32xi32>) -> i32
  %2 = tt.histogram %0 : tensor<32xi32> -> tensor<16xi32>
  %3 = tt.reshape %x : tensor<4x8xi32> -> tensor<32xi32>
  %4 = tt.reshape %x : tensor<4x8xi32> -> tensor<2x16xi32>
  %5 = "tt.reduce"(%4) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<2x16xi32>) -> tensor<16xi32>
  %6 = "tt.reduce"(%5) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<16xi32>) -> i32
  tt.return %1, %2, %3, %6 : i32, tensor<16xi32>, tensor<32xi32>, i32
}

// -----

// A reshape that drops leading unit dimensions of a descriptor load becomes a rank-reduced
// load; not when the load has another use or a dropped dimension is not 1.
// CHECK-LABEL: tt.func @rank_reduced_load
// CHECK-NEXT:    %[[C:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[L:.+]] = tt.descriptor_load %arg0[%[[C]], %[[C]], %[[C]]] : !tt.tensordesc<1x16x8xf16> -> tensor<16x8xf16>
// CHECK-NEXT:    %[[M:.+]] = tt.descriptor_load %arg0[%[[C]], %[[C]], %[[C]]] : !tt.tensordesc<1x16x8xf16> -> tensor<1x16x8xf16>
// CHECK-NEXT:    %[[R:.+]] = tt.reshape %[[M]]
// CHECK-NEXT:    %[[N:.+]] = tt.descriptor_load %arg1
// CHECK-NEXT:    %[[S:.+]] = tt.reshape %[[N]] : tensor<2x8x8xf16> -> tensor<16x8xf16>
// CHECK-NEXT:    tt.return %[[L]], %[[R]], %[[M]], %[[S]]
tt.func @rank_reduced_load(%d: !tt.tensordesc<1x16x8xf16>, %e: !tt.tensordesc<2x8x8xf16>) -> (tensor<16x8xf16>, tensor<16x8xf16>, tensor<1x16x8xf16>, tensor<16x8xf16>) {
  %c0 = arith.constant 0 : i32
  %0 = tt.descriptor_load %d[%c0, %c0, %c0] : !tt.tensordesc<1x16x8xf16> -> tensor<1x16x8xf16>
  %1 = tt.reshape %0 : tensor<1x16x8xf16> -> tensor<16x8xf16>
  %2 = tt.descriptor_load %d[%c0, %c0, %c0] : !tt.tensordesc<1x16x8xf16> -> tensor<1x16x8xf16>
  %3 = tt.reshape %2 : tensor<1x16x8xf16> -> tensor<16x8xf16>
  %4 = tt.descriptor_load %e[%c0, %c0, %c0] : !tt.tensordesc<2x8x8xf16> -> tensor<2x8x8xf16>
  %5 = tt.reshape %4 : tensor<2x8x8xf16> -> tensor<16x8xf16>
  tt.return %1, %3, %2, %5 : tensor<16x8xf16>, tensor<16x8xf16>, tensor<1x16x8xf16>, tensor<16x8xf16>
}

// -----

// select(c, load(p, splat(c)), other) is a load with `other`; a tensor condition equal to the
// mask, and broadcasts of one mask, work the same way.
// CHECK-LABEL: tt.func @select_load
// CHECK-NEXT:    %[[M:.+]] = tt.splat %arg1 : i1 -> tensor<8xi1>
// CHECK-NEXT:    %[[X:.+]] = tt.load %arg0, %[[M]], %arg2 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT:    %[[Y:.+]] = tt.load %arg0, %arg3, %arg2 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %arg4
// CHECK-NEXT:    %[[Z:.+]] = tt.load %arg5, %[[B]], %arg6 : tensor<4x8x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return %[[X]], %[[Y]], %[[Z]]
tt.func @select_load(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %o: tensor<8xf32>, %m: tensor<8xi1>, %m2: tensor<1x8xi1>, %p2: tensor<4x8x!tt.ptr<f32>>, %o2: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32>) {
  %s = tt.splat %c : i1 -> tensor<8xi1>
  %x = tt.load %p, %s : tensor<8x!tt.ptr<f32>>
  %r = arith.select %c, %x, %o : tensor<8xf32>
  %y = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  %r2 = arith.select %m, %y, %o : tensor<8xi1>, tensor<8xf32>
  %b1 = tt.broadcast %m2 : tensor<1x8xi1> -> tensor<4x8xi1>
  %b2 = tt.broadcast %m2 : tensor<1x8xi1> -> tensor<4x8xi1>
  %z = tt.load %p2, %b1 : tensor<4x8x!tt.ptr<f32>>
  %r3 = arith.select %b2, %z, %o2 : tensor<4x8xi1>, tensor<4x8xf32>
  tt.return %r, %r2, %r3 : tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32>
}

// -----

// Not fired: another condition, a load with another user, a volatile load, a load without
// mask, the load as the false value.
// CHECK-LABEL: tt.func @select_load_no
// CHECK-COUNT-5: arith.select
tt.func @select_load_no(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %d: i1, %o: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %s = tt.splat %c : i1 -> tensor<8xi1>
  %x = tt.load %p, %s : tensor<8x!tt.ptr<f32>>
  %r0 = arith.select %d, %x, %o : tensor<8xf32>
  %y = tt.load %p, %s : tensor<8x!tt.ptr<f32>>
  %r1 = arith.select %c, %y, %o : tensor<8xf32>
  %v = tt.load %p, %s {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %r2 = arith.select %c, %v, %o : tensor<8xf32>
  %u = tt.load %p : tensor<8x!tt.ptr<f32>>
  %r3 = arith.select %c, %u, %o : tensor<8xf32>
  %w = tt.load %p, %s : tensor<8x!tt.ptr<f32>>
  %r4 = arith.select %c, %o, %w : tensor<8xf32>
  tt.return %r0, %r1, %y, %r2, %r3, %r4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// sum(x[:, :, None] * y[None, :, :], 1) -> dot(x, y)
// CHECK-LABEL: tt.func @mul_reduce
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK-DAG:     %[[X:.+]] = tt.reshape %{{.+}} : tensor<16x8x1xf32> -> tensor<16x8xf32>
// CHECK-DAG:     %[[Y:.+]] = tt.reshape %{{.+}} : tensor<1x8x32xf32> -> tensor<8x32xf32>
// CHECK:         %[[D:.+]] = tt.dot %[[X]], %[[Y]], %[[ZERO]] : tensor<16x8xf32> * tensor<8x32xf32> -> tensor<16x32xf32>
// CHECK-NEXT:    tt.return %[[D]]
tt.func @mul_reduce(%x: tensor<16x8xf32>, %y: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
  %1 = tt.broadcast %0 : tensor<16x8x1xf32> -> tensor<16x8x32xf32>
  %2 = tt.expand_dims %y {axis = 0 : i32} : tensor<8x32xf32> -> tensor<1x8x32xf32>
  %3 = tt.broadcast %2 : tensor<1x8x32xf32> -> tensor<16x8x32xf32>
  %4 = arith.mulf %1, %3 : tensor<16x8x32xf32>
  %5 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8x32xf32>) -> tensor<16x32xf32>
  tt.return %5 : tensor<16x32xf32>
}

// -----

// Not fired: reducing another axis, a max reduction, too small M.
// CHECK-LABEL: tt.func @mul_reduce_no
// CHECK-NOT:     tt.dot
tt.func @mul_reduce_no(%x: tensor<16x8xf32>, %y: tensor<8x32xf32>, %x2: tensor<8x8xf32>) -> (tensor<16x8xf32>, tensor<16x32xf32>, tensor<8x32xf32>) {
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
  %1 = tt.broadcast %0 : tensor<16x8x1xf32> -> tensor<16x8x32xf32>
  %2 = tt.expand_dims %y {axis = 0 : i32} : tensor<8x32xf32> -> tensor<1x8x32xf32>
  %3 = tt.broadcast %2 : tensor<1x8x32xf32> -> tensor<16x8x32xf32>
  %4 = arith.mulf %1, %3 : tensor<16x8x32xf32>
  %5 = "tt.reduce"(%4) <{axis = 2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8x32xf32>) -> tensor<16x8xf32>
  %6 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxnumf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8x32xf32>) -> tensor<16x32xf32>
  %7 = tt.expand_dims %x2 {axis = 2 : i32} : tensor<8x8xf32> -> tensor<8x8x1xf32>
  %8 = tt.broadcast %7 : tensor<8x8x1xf32> -> tensor<8x8x32xf32>
  %9 = tt.broadcast %2 : tensor<1x8x32xf32> -> tensor<8x8x32xf32>
  %10 = arith.mulf %8, %9 : tensor<8x8x32xf32>
  %11 = "tt.reduce"(%10) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8x8x32xf32>) -> tensor<8x32xf32>
  tt.return %5, %6, %11 : tensor<16x8xf32>, tensor<16x32xf32>, tensor<8x32xf32>
}

// -----

// truncf(maxnumf(extf(a), extf(b))) -> maxnumf(a, b); a constant exact in f16 works too.
// truncf(divf(extf(x), 4.0)) -> mulf(x, 0.25)
// CHECK-LABEL: tt.func @trunc
// CHECK-DAG:     %[[QUARTER:.+]] = arith.constant dense<2.500000e-01> : tensor<8xf16>
// CHECK-DAG:     %[[HALF:.+]] = arith.constant dense<5.000000e-01> : tensor<8xf16>
// CHECK-DAG:     %[[MAX:.+]] = arith.maxnumf %arg0, %arg1 : tensor<8xf16>
// CHECK-DAG:     %[[MIN:.+]] = arith.minimumf %arg0, %[[HALF]] : tensor<8xf16>
// CHECK-DAG:     %[[SCALED:.+]] = arith.mulf %arg0, %[[QUARTER]] : tensor<8xf16>
// CHECK:         tt.return %[[MAX]], %[[MIN]], %[[SCALED]]
tt.func @trunc(%x: tensor<8xf16>, %y: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %a = arith.extf %x : tensor<8xf16> to tensor<8xf32>
  %b = arith.extf %y : tensor<8xf16> to tensor<8xf32>
  %m = arith.maxnumf %a, %b : tensor<8xf32>
  %t = arith.truncf %m : tensor<8xf32> to tensor<8xf16>
  %half = arith.constant dense<0.5> : tensor<8xf32>
  %n = arith.minimumf %a, %half : tensor<8xf32>
  %t1 = arith.truncf %n : tensor<8xf32> to tensor<8xf16>
  %c4 = arith.constant dense<4.0> : tensor<8xf32>
  %d = arith.divf %a, %c4 : tensor<8xf32>
  %t2 = arith.truncf %d : tensor<8xf32> to tensor<8xf16>
  tt.return %t, %t1, %t2 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

// -----

// Not fired: a constant inexact in f16, a divisor that is not a power of two, bf16 from f32
// (same exponent range: x / c may round in f32), an addf (not min/max).
// CHECK-LABEL: tt.func @trunc_no
// CHECK-COUNT-4: arith.truncf
tt.func @trunc_no(%x: tensor<8xf16>, %z: tensor<8xbf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xbf16>, tensor<8xf16>) {
  %a = arith.extf %x : tensor<8xf16> to tensor<8xf32>
  %c = arith.constant dense<0.1> : tensor<8xf32>
  %m = arith.maxnumf %a, %c : tensor<8xf32>
  %t0 = arith.truncf %m : tensor<8xf32> to tensor<8xf16>
  %c3 = arith.constant dense<3.0> : tensor<8xf32>
  %d = arith.divf %a, %c3 : tensor<8xf32>
  %t1 = arith.truncf %d : tensor<8xf32> to tensor<8xf16>
  %zb = arith.extf %z : tensor<8xbf16> to tensor<8xf32>
  %c4 = arith.constant dense<4.0> : tensor<8xf32>
  %e = arith.divf %zb, %c4 : tensor<8xf32>
  %t2 = arith.truncf %e : tensor<8xf32> to tensor<8xbf16>
  %s = arith.addf %a, %a : tensor<8xf32>
  %t3 = arith.truncf %s : tensor<8xf32> to tensor<8xf16>
  tt.return %t0, %t1, %t2, %t3 : tensor<8xf16>, tensor<8xf16>, tensor<8xbf16>, tensor<8xf16>
}

// -----

// broadcast(splat(x)) -> splat(x); broadcast(broadcast(x)) -> broadcast(x); a broadcast
// constant is a constant.
// CHECK-LABEL: tt.func @chains
// CHECK-DAG:     %[[C:.+]] = arith.constant dense<3.000000e+00> : tensor<4x8xf32>
// CHECK-DAG:     %[[S:.+]] = tt.splat %arg0 : f32 -> tensor<4x8xf32>
// CHECK-DAG:     %[[B:.+]] = tt.broadcast %arg1 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK:         tt.return %[[S]], %[[B]], %[[C]]
tt.func @chains(%x: f32, %y: tensor<1x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tt.splat %x : f32 -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  %2 = tt.broadcast %y : tensor<1x1xf32> -> tensor<1x8xf32>
  %3 = tt.broadcast %2 : tensor<1x8xf32> -> tensor<4x8xf32>
  %c = arith.constant dense<3.0> : tensor<1x8xf32>
  %4 = tt.broadcast %c : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %1, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
