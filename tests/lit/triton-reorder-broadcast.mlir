// triton-reorder-broadcast: elementwise(splat(x), ...) -> splat(elementwise(x, ...)) and
// elementwise(broadcast(x), splat/constant ...) -> broadcast(elementwise(x, ...)), only when
// every other operand is a splat or a splat constant.
// RUN: tilecraft-opt %s --split-input-file -triton-reorder-broadcast | filecheck %s

// CHECK-LABEL: tt.func @splats
// CHECK-DAG:     %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[ADD:.+]] = arith.addf %arg0, %arg1 : f32
// CHECK:         %[[MUL:.+]] = arith.mulf %[[ADD]], %[[TWO]] : f32
// CHECK-NEXT:    %[[S:.+]] = tt.splat %[[MUL]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    tt.return %[[S]]
tt.func @splats(%a: f32, %b: f32) -> tensor<128xf32> {
  %0 = tt.splat %a : f32 -> tensor<128xf32>
  %1 = tt.splat %b : f32 -> tensor<128xf32>
  %c = arith.constant dense<2.0> : tensor<128xf32>
  %2 = arith.addf %0, %1 : tensor<128xf32>
  %3 = arith.mulf %2, %c : tensor<128xf32>
  tt.return %3 : tensor<128xf32>
}

// -----

// Results of another element type (cmpi gives i1), and pointers (addptr) work as well.
// CHECK-LABEL: tt.func @splat_kinds
// CHECK-DAG:     %[[CMP:.+]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-DAG:     %[[PTR:.+]] = tt.addptr %arg2, %arg0 : !tt.ptr<f32>, i32
// CHECK-DAG:     tt.splat %[[CMP]] : i1 -> tensor<64xi1>
// CHECK-DAG:     tt.splat %[[PTR]] : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
tt.func @splat_kinds(%a: i32, %b: i32, %p: !tt.ptr<f32>) -> (tensor<64xi1>, tensor<64x!tt.ptr<f32>>) {
  %0 = tt.splat %a : i32 -> tensor<64xi32>
  %1 = tt.splat %b : i32 -> tensor<64xi32>
  %2 = arith.cmpi slt, %0, %1 : tensor<64xi32>
  %3 = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %4 = tt.addptr %3, %0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.return %2, %4 : tensor<64xi1>, tensor<64x!tt.ptr<f32>>
}

// -----

// One broadcast operand, the others splats or constants: the op runs on the small shape.
// CHECK-LABEL: tt.func @broadcast
// CHECK-DAG:     %[[C:.+]] = arith.constant dense<2.000000e+00> : tensor<1x128xf32>
// CHECK-DAG:     %[[S:.+]] = tt.splat %arg1 : f32 -> tensor<1x128xf32>
// CHECK:         %[[ADD:.+]] = arith.addf %arg0, %[[S]] : tensor<1x128xf32>
// CHECK-NEXT:    %[[CMP:.+]] = arith.cmpf olt, %[[ADD]], %[[C]] : tensor<1x128xf32>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %[[CMP]] : tensor<1x128xi1> -> tensor<128x128xi1>
// CHECK-NEXT:    tt.return %[[B]]
tt.func @broadcast(%a: tensor<1x128xf32>, %b: f32) -> tensor<128x128xi1> {
  %0 = tt.broadcast %a : tensor<1x128xf32> -> tensor<128x128xf32>
  %1 = tt.splat %b : f32 -> tensor<128x128xf32>
  %c = arith.constant dense<2.0> : tensor<128x128xf32>
  %2 = arith.addf %0, %1 : tensor<128x128xf32>
  %3 = arith.cmpf olt, %2, %c : tensor<128x128xf32>
  tt.return %3 : tensor<128x128xi1>
}

// -----

// A unary elementwise op on a broadcast.
// CHECK-LABEL: tt.func @unary
// CHECK-NEXT:    %[[E:.+]] = arith.extf %arg0 : tensor<1x64xf16> to tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %[[E]] : tensor<1x64xf32> -> tensor<32x64xf32>
tt.func @unary(%a: tensor<1x64xf16>) -> tensor<32x64xf32> {
  %0 = tt.broadcast %a : tensor<1x64xf16> -> tensor<32x64xf16>
  %1 = arith.extf %0 : tensor<32x64xf16> to tensor<32x64xf32>
  tt.return %1 : tensor<32x64xf32>
}

// -----

// Not fired: two broadcast operands, a full tensor operand, a load (memory effects).
// CHECK-LABEL: tt.func @no_reorder
// CHECK:         %[[B0:.+]] = tt.broadcast %arg0
// CHECK-NEXT:    %[[B1:.+]] = tt.broadcast %arg1
// CHECK-NEXT:    arith.addf %[[B0]], %[[B1]] : tensor<64x64xf32>
// CHECK-NEXT:    arith.addf %[[B0]], %arg2 : tensor<64x64xf32>
// CHECK-NEXT:    tt.splat
// CHECK-NEXT:    tt.load
// CHECK-NEXT:    arith.addf {{.+}} : tensor<64xf32>
tt.func @no_reorder(%a: tensor<1x64xf32>, %b: tensor<64x1xf32>, %t: tensor<64x64xf32>, %p: !tt.ptr<f32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>) {
  %0 = tt.broadcast %a : tensor<1x64xf32> -> tensor<64x64xf32>
  %1 = tt.broadcast %b : tensor<64x1xf32> -> tensor<64x64xf32>
  %2 = arith.addf %0, %1 : tensor<64x64xf32>
  %3 = arith.addf %0, %t : tensor<64x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %x = tt.load %ps : tensor<64x!tt.ptr<f32>>
  %c = arith.constant dense<1.0> : tensor<64xf32>
  %4 = arith.addf %x, %c : tensor<64xf32>
  tt.return %2, %3, %4 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>
}

// -----

// Chains: broadcast(splat(x)) becomes splat(x) first, then the elementwise op moves.
// CHECK-LABEL: tt.func @chain
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:    %[[S:.+]] = tt.splat %[[M]] : f32 -> tensor<16x16xf32>
// CHECK-NEXT:    tt.return %[[S]]
tt.func @chain(%x: f32) -> tensor<16x16xf32> {
  %0 = tt.splat %x : f32 -> tensor<1x16xf32>
  %1 = tt.broadcast %0 : tensor<1x16xf32> -> tensor<16x16xf32>
  %2 = arith.mulf %1, %1 : tensor<16x16xf32>
  tt.return %2 : tensor<16x16xf32>
}
