// tt.map_elementwise verifier errors, one per split, with Triton's wording.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// SameOperandsAndResultShape rejects it first (Triton's own "must have at least 1 operand"
// check comes after the traits).
tt.func @no_operand() {
  // expected-error @+1 {{'tt.map_elementwise' op expected 1 or more operands, but found 0}}
  "tt.map_elementwise"() <{pack = 1 : i32}> ({
  ^bb0:
    tt.map_elementwise.return
  }) : () -> ()
  tt.return
}

// -----

tt.func @pack_not_power_of_two(%x: tensor<256xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op Pack must be a power of 2}}
  %r = "tt.map_elementwise"(%x) <{pack = 3 : i32}> ({
  ^bb0(%a: i32, %b: i32, %c: i32):
    tt.map_elementwise.return %a, %b, %c : i32, i32, i32
  }) : (tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @pack_two_arguments(%x: tensor<256xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region has wrong number of arguments}}
  %r = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: i32):
    tt.map_elementwise.return %a, %a : i32, i32
  }) : (tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @argument_order(%x: tensor<256xi32>, %y: tensor<256xf32>) {
  // expected-error @+1 {{argument types did not match}}
  %r = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%a: i32, %b: f32, %c: i32, %d: f32):
    tt.map_elementwise.return %a, %c : i32, i32
  }) : (tensor<256xi32>, tensor<256xf32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @return_count(%x: tensor<256xi32>) {
  %r = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{region return does not match map_elementwise result}}
    tt.map_elementwise.return %a : i32
  }) : (tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @atomic_inside(%p: tensor<256x!tt.ptr<i32>>, %x: tensor<256xi32>) {
  %r = "tt.map_elementwise"(%p, %x) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i32>, %v: i32):
    // expected-error @+1 {{'tt.atomic_rmw' op Stores are not supported inside map_elementwise}}
    %old = tt.atomic_rmw add, relaxed, gpu, %q, %v : (!tt.ptr<i32>, i32) -> i32
    tt.map_elementwise.return %old : i32
  }) : (tensor<256x!tt.ptr<i32>>, tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @return_outside() {
  // expected-error @+1 {{'tt.map_elementwise.return' op expects parent op 'tt.map_elementwise'}}
  tt.map_elementwise.return
}

// -----

// The return is a tt op: Triton's tensor size rule holds for its operands too (checked before
// the parent's region).
tt.func @return_tensor_size(%x: tensor<256xi32>, %t: tensor<3xi32>) {
  %r = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: i32):
    // expected-error @+1 {{'tt.map_elementwise.return' op number of elements must be power-of-two, but tensor<3xi32> has 3}}
    tt.map_elementwise.return %t : tensor<3xi32>
  }) : (tensor<256xi32>) -> tensor<256xi32>
  tt.return
}
