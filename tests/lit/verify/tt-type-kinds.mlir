// Type directives constrained to tensors reject other kinds while parsing, with MLIR's
// "invalid kind of type specified" (tt.join, tt.split, tt.make_range); tensors still parse.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @join_scalars(%a: f32, %b: f32) {
  // expected-error @+1 {{invalid kind of type specified}}
  %r = tt.join %a, %b : f32 -> tensor<2xf32>
  tt.return
}

// -----

tt.func @split_scalar(%a: f32) {
  // expected-error @+1 {{invalid kind of type specified}}
  %x, %y = tt.split %a : f32 -> f16
  tt.return
}

// -----

tt.func @make_range_scalar() {
  // expected-error @+1 {{invalid kind of type specified}}
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : i32
  tt.return
}

// -----

// Not fired: the same ops on tensors (0-d results of a split included).
tt.func @tensors_parse(%a: tensor<4xf32>, %b: tensor<2xf32>) {
  %r = tt.join %a, %a : tensor<4xf32> -> tensor<4x2xf32>
  %x, %y = tt.split %b : tensor<2xf32> -> tensor<f32>
  %m = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}
