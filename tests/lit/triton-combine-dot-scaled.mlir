// triton-combine folds an addf into the zero accumulator of a tt.dot_scaled, with the dot on
// either side, and leaves it when the accumulator is not zero or the dot has another use.
// RUN: tilecraft-opt %s --split-input-file -triton-combine | filecheck %s

// CHECK-LABEL: tt.func @dot_scaled_add
// CHECK-NEXT:    %0 = tt.dot_scaled %arg0 scale %arg1, %arg0 scale %arg1, %arg2 lhs = e4m3 rhs = e4m3 {fastMath = false}
// CHECK-NEXT:    %1 = tt.dot_scaled %arg0 scale %arg1, %arg0 scale %arg1, %arg2 lhs = e4m3 rhs = e4m3 {fastMath = true}
// CHECK-NEXT:    tt.return %0, %1
tt.func @dot_scaled_add(%a: tensor<32x32xf8E4M3FN>, %s: tensor<32x1xi8>, %c: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d0 = tt.dot_scaled %a scale %s, %a scale %s, %z lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x32xf8E4M3FN>, tensor<32x1xi8> * tensor<32x32xf8E4M3FN>, tensor<32x1xi8> -> tensor<32x32xf32>
  %r0 = arith.addf %d0, %c : tensor<32x32xf32>
  %d1 = tt.dot_scaled %a scale %s, %a scale %s, %z lhs = e4m3 rhs = e4m3 {fastMath = true} : tensor<32x32xf8E4M3FN>, tensor<32x1xi8> * tensor<32x32xf8E4M3FN>, tensor<32x1xi8> -> tensor<32x32xf32>
  %r1 = arith.addf %c, %d1 : tensor<32x32xf32>
  tt.return %r0, %r1 : tensor<32x32xf32>, tensor<32x32xf32>
}

// -----

// Not fired: an accumulator that is not zero, and a dot whose result is used again.
// CHECK-LABEL: tt.func @dot_scaled_add_no
// CHECK-COUNT-2: arith.addf
tt.func @dot_scaled_add_no(%a: tensor<32x32xf8E4M3FN>, %s: tensor<32x1xi8>, %c: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d0 = tt.dot_scaled %a scale %s, %a scale %s, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x32xf8E4M3FN>, tensor<32x1xi8> * tensor<32x32xf8E4M3FN>, tensor<32x1xi8> -> tensor<32x32xf32>
  %r0 = arith.addf %d0, %c : tensor<32x32xf32>
  %d1 = tt.dot_scaled %a scale %s, %a scale %s, %z lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x32xf8E4M3FN>, tensor<32x1xi8> * tensor<32x32xf8E4M3FN>, tensor<32x1xi8> -> tensor<32x32xf32>
  %r1 = arith.addf %d1, %c : tensor<32x32xf32>
  tt.return %r0, %r1, %d1 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}
