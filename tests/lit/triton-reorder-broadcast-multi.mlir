// triton-reorder-broadcast with several broadcast operands and with splat constants alone, as
// Triton's pass moves them: broadcasts from one shape (any number of them, with splats and
// splat constants beside) move after the elementwise op; broadcasts from different shapes,
// or an operand that is neither a broadcast nor a splat, stop it.
// RUN: tilecraft-opt %s --split-input-file -triton-reorder-broadcast | filecheck %s

// Two broadcasts from 128x1 and a splat: the select runs on 128x1.
// CHECK-LABEL: tt.func @same_shape
// CHECK-NEXT:    %[[S:.+]] = tt.splat %arg1 : f32 -> tensor<128x1xf32>
// CHECK-NEXT:    %[[SEL:.+]] = arith.select %arg2, %arg0, %[[S]] : tensor<128x1xi1>, tensor<128x1xf32>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %[[SEL]] : tensor<128x1xf32> -> tensor<128x64xf32>
// CHECK-NEXT:    tt.return %[[B]]
tt.func @same_shape(%a: tensor<128x1xf32>, %s: f32, %c: tensor<128x1xi1>) -> tensor<128x64xf32> {
  %0 = tt.broadcast %a : tensor<128x1xf32> -> tensor<128x64xf32>
  %1 = tt.splat %s : f32 -> tensor<128x64xf32>
  %2 = tt.broadcast %c : tensor<128x1xi1> -> tensor<128x64xi1>
  %3 = arith.select %2, %0, %1 : tensor<128x64xi1>, tensor<128x64xf32>
  tt.return %3 : tensor<128x64xf32>
}

// -----

// The same broadcast twice: a product on 128x1.
// CHECK-LABEL: tt.func @square
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %arg0, %arg0 : tensor<128x1xf32>
// CHECK-NEXT:    tt.broadcast %[[M]] : tensor<128x1xf32> -> tensor<128x64xf32>
tt.func @square(%a: tensor<128x1xf32>) -> tensor<128x64xf32> {
  %0 = tt.broadcast %a : tensor<128x1xf32> -> tensor<128x64xf32>
  %1 = arith.mulf %0, %0 : tensor<128x64xf32>
  tt.return %1 : tensor<128x64xf32>
}

// -----

// Splat constants alone: an op its folder leaves becomes a scalar op and a splat.
// CHECK-LABEL: tt.func @constants
// CHECK-NEXT:    %[[C:.+]] = arith.constant 16 : i64
// CHECK-NEXT:    %[[P:.+]] = tt.int_to_ptr %[[C]] : i64 -> !tt.ptr<f16>
// CHECK-NEXT:    %[[S:.+]] = tt.splat %[[P]] : !tt.ptr<f16> -> tensor<8x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return %[[S]]
tt.func @constants() -> tensor<8x!tt.ptr<f16>> {
  %c = arith.constant dense<16> : tensor<8xi64>
  %p = tt.int_to_ptr %c : tensor<8xi64> -> tensor<8x!tt.ptr<f16>>
  tt.return %p : tensor<8x!tt.ptr<f16>>
}

// -----

// Must not fire: broadcasts from 128x1 and 1x64 (the op needs the full shape), and a
// broadcast beside a block argument.
// CHECK-LABEL: tt.func @different_shapes
// CHECK-NEXT:    %[[A:.+]] = tt.broadcast %arg0 : tensor<128x1xf32> -> tensor<128x64xf32>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %arg1 : tensor<1x64xf32> -> tensor<128x64xf32>
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[A]], %[[B]] : tensor<128x64xf32>
// CHECK-NEXT:    %[[N:.+]] = arith.addf %[[A]], %arg2 : tensor<128x64xf32>
// CHECK-NEXT:    tt.return %[[M]], %[[N]]
tt.func @different_shapes(%a: tensor<128x1xf32>, %b: tensor<1x64xf32>, %t: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %0 = tt.broadcast %a : tensor<128x1xf32> -> tensor<128x64xf32>
  %1 = tt.broadcast %b : tensor<1x64xf32> -> tensor<128x64xf32>
  %2 = arith.mulf %0, %1 : tensor<128x64xf32>
  %3 = arith.addf %0, %t : tensor<128x64xf32>
  tt.return %2, %3 : tensor<128x64xf32>, tensor<128x64xf32>
}
