// tt verifier errors, one per split, checked with --verify-diagnostics.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @splat_count(%f: f32) {
  // expected-error @+1 {{'tt.splat' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
  %0 = tt.splat %f : f32 -> tensor<3xf32>
  tt.return
}

// -----

tt.func @splat_of_tensor(%t: tensor<16xf32>) {
  // expected-error @+1 {{'tt.splat' op source must be a scalar or a 0-d tensor, but got tensor<16xf32>}}
  %0 = tt.splat %t : tensor<16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @bitcast_width(%f: f32) {
  // expected-error @+1 {{'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 16}}
  %0 = tt.bitcast %f : f32 -> f16
  tt.return
}

// -----

tt.func @expand_dims_axis(%t: tensor<16xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range for a tensor of rank 1}}
  %0 = tt.expand_dims %t {axis = 2 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  tt.return
}

// -----

tt.func @store_value_type(%p: !tt.ptr<f32>, %h: f16) {
  // expected-error @+1 {{'tt.store' op failed to verify that value type matches ptr type}}
  "tt.store"(%p, %h) : (!tt.ptr<f32>, f16) -> ()
  tt.return
}

// -----

tt.func @addptr_result(%p: !tt.ptr<f32>, %i: i32) {
  // expected-error @+1 {{'tt.addptr' op failed to verify that result type matches ptr type}}
  %0 = "tt.addptr"(%p, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
  tt.return
}

// -----

tt.func @parse_error(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected}}
  %0 = tt.load %p cacheModifier = : !tt.ptr<f32>
  tt.return
}

// -----

// The ops of a block verify before the block's missing terminator is reported.
tt.func @op_error_before_missing_terminator(%p: !tt.ptr<f32>, %i: i32) {
  // expected-error @+1 {{'tt.addptr' op failed to verify that result type matches ptr type}}
  %0 = "tt.addptr"(%p, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
}

// -----

// With valid ops, the missing terminator is the error.
tt.func @missing_terminator(%p: !tt.ptr<f32>, %i: i32) {
  // expected-error @+1 {{block with no terminator, has 'tt.addptr'}}
  %0 = tt.addptr %p, %i : !tt.ptr<f32>, i32
}
