// Verifier hooks (hasVerifier) of arith, cf and tt ops that the other verify/ files leave out:
// each case is an op its own custom_verify rejects, with the message it gives.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @select_cond(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %m, %a, %b : tensor<8xi1>, tensor<4xf32>
  tt.return
}

// -----

tt.func @br_args(%a: i32) {
  // expected-error @+1 {{'cf.br' op branch has 1 operands for successor #0, but target block has 0}}
  cf.br ^bb1(%a : i32)
^bb1:
  tt.return
}

// -----

tt.func @cond_br_args(%c: i1, %a: i32) {
  // expected-error @+1 {{'cf.cond_br' op branch has 1 operands for successor #0, but target block has 0}}
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1:
  tt.return
^bb2:
  tt.return
}

// -----

tt.func @fp_to_fp(%a: f32) {
  // expected-error @+1 {{'tt.fp_to_fp' op Rounding mode is required for FP downcast}}
  %0 = tt.fp_to_fp %a : f32 -> f16
  tt.return
}

// -----

tt.func @make_range(%a: f32) {
  // expected-error @+1 {{'tt.make_range' op number of elements in returned tensor, 16, must match size of range [0, 8), which has 8 elements}}
  %0 = tt.make_range {start = 0 : i32, end = 8 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @trans(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of 0..n-1}}
  %0 = tt.trans %a {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @broadcast(%a: tensor<4x2xf32>) {
  // expected-error @+1 {{'tt.broadcast' op Different dimensions at index 1 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %a : tensor<4x2xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @reshape(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %a : tensor<4x8xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @cat(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tt.cat' op result element count must equal the sum of the operand element counts, expected 8 but got 16}}
  %0 = tt.cat %a, %b : tensor<4xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @join(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tt.join' op result shape must be (4, 2), but got 8, 2}}
  %0 = tt.join %a, %b : tensor<4xf32> -> tensor<8x2xf32>
  tt.return
}

// -----

tt.func @split(%a: tensor<4x4xf32>) {
  // expected-error @+2 {{last dimension of input tensor must be 2}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %a : tensor<4x4xf32> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @addptr(%p: !tt.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tt.addptr' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, tensor<4xi32>
  tt.return
}

// -----

tt.func @ret(%a: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op type of return operand 0 (i32) doesn't match function result type (f32) in function @ret}}
  tt.return %a : i32
}

// -----

tt.func @callee(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func @call(%a: f32) {
  // expected-error @+1 {{'tt.call' op operand type mismatch: expected operand type i32, but provided f32 for operand number 0}}
  %0 = tt.call @callee(%a) : (f32) -> i32
  tt.return
}

// -----

tt.func @unsplat(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tt.unsplat' op source tensor must have exactly one element}}
  %0 = tt.unsplat %a : tensor<4xf32>
  tt.return
}
