// The verifier hooks of tt ops reject invalid IR: Triton's tensor size rule, which every tt
// op checks (the only check of the element-wise ops), and the ops' own rules.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @clampf(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.clampf' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
  %0 = tt.clampf %x, %x, %x, propagateNan = none : tensor<3xf32>
  tt.return
}

// -----

tt.func @precise_sqrt(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.precise_sqrt' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
  %0 = tt.precise_sqrt %x : tensor<3xf32>
  tt.return
}

// -----

tt.func @precise_divf(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.precise_divf' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
  %0 = tt.precise_divf %x, %x : tensor<3xf32>
  tt.return
}

// -----

tt.func @mulhiui(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tt.mulhiui' op number of elements must be power-of-two, but tensor<3xi32> has 3}}
  %0 = tt.mulhiui %x, %x : tensor<3xi32>
  tt.return
}

// -----

tt.func @addptr(%p: tensor<3x!tt.ptr<f32>>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'tt.addptr' op number of elements must be power-of-two, but tensor<3x!tt.ptr<f32>> has 3}}
  %0 = tt.addptr %p, %o : tensor<3x!tt.ptr<f32>>, tensor<3xi32>
  tt.return
}

// -----

tt.func @int_to_ptr(%x: tensor<3xi64>) {
  // expected-error @+1 {{'tt.int_to_ptr' op number of elements must be power-of-two, but tensor<3xi64> has 3}}
  %0 = tt.int_to_ptr %x : tensor<3xi64> -> tensor<3x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @ptr_to_int(%p: tensor<3x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.ptr_to_int' op number of elements must be power-of-two, but tensor<3x!tt.ptr<f32>> has 3}}
  %0 = tt.ptr_to_int %p : tensor<3x!tt.ptr<f32>> -> tensor<3xi64>
  tt.return
}

// -----

tt.func @extern_elementwise(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.extern_elementwise' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "expf"} : (tensor<3xf32>) -> tensor<3xf32>
  tt.return
}

// -----

tt.func @load(%p: tensor<3x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op number of elements must be power-of-two, but tensor<3x!tt.ptr<f32>> has 3}}
  %0 = tt.load %p : tensor<3x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @store(%p: tensor<3x!tt.ptr<f32>>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.store' op number of elements must be power-of-two, but tensor<3x!tt.ptr<f32>> has 3}}
  tt.store %p, %x : tensor<3x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @atomic_rmw(%p: tensor<3x!tt.ptr<f32>>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'tt.atomic_rmw' op number of elements must be power-of-two, but tensor<3x!tt.ptr<f32>> has 3}}
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %x : (tensor<3x!tt.ptr<f32>>, tensor<3xf32>) -> tensor<3xf32>
  tt.return
}

// -----

tt.func @atomic_cas(%p: tensor<3x!tt.ptr<i32>>, %x: tensor<3xi32>) {
  // expected-error @+1 {{'tt.atomic_cas' op number of elements must be power-of-two, but tensor<3x!tt.ptr<i32>> has 3}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %x, %x : (tensor<3x!tt.ptr<i32>>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  tt.return
}

// -----

tt.func @histogram(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tt.histogram' op number of elements must be power-of-two, but tensor<3xi32> has 3}}
  %0 = tt.histogram %x : tensor<3xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @gather(%x: tensor<16x4xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.gather' op indices and output shapes must match}}
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<16x4xf32>, tensor<8x4xi32>) -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @print(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tt.print' op number of elements must be power-of-two, but tensor<3xi32> has 3}}
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<3xi32>
  tt.return
}

// -----

tt.func @assert(%x: tensor<3xi1>) {
  // expected-error @+1 {{'tt.assert' op number of elements must be power-of-two, but tensor<3xi1> has 3}}
  tt.assert %x, "bad" : tensor<3xi1>
  tt.return
}

// -----

tt.func @reduce(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op operand types and result types must agree}}
  %0 = "tt.reduce"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) {axis = 0 : i32} : (tensor<16xf32>) -> f16
  tt.return
}

// -----

tt.func @scan(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op operand types and result types must agree}}
  %0 = "tt.scan"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) {axis = 0 : i32, reverse = false} : (tensor<16xf32>) -> tensor<16xf16>
  tt.return
}

// -----

tt.func @make_tensor_ptr(%p: !tt.ptr<f32>, %n: i64, %i: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op expected 2 shape, 2 stride and 2 offset values for a block of rank 2, but got 3 values}}
  %0 = tt.make_tensor_ptr %p, [%n], [%n], [%i] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @advance(%b: !tt.ptr<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.advance' op expected 2 offsets for a block of rank 2, but got 1}}
  %0 = tt.advance %b, [%i] : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// expected-error @+1 {{'tt.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"tt.func"() <{arg_attrs = [{}, {}], function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%x: i32):
  tt.return
}) : () -> ()

// -----

tt.func @dot_scaled(%a: tensor<3x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<3x16xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op number of elements must be power-of-two, but tensor<3x32xbf16> has 96}}
  %0 = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<3x32xbf16> * tensor<32x16xbf16> -> tensor<3x16xf32>
  tt.return
}

// -----

tt.func @descriptor_load(%d: !tt.tensordesc<8x16xf32>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op descriptor block and tensor must have the same number of elements, but got descriptor block with 128 elements tensor with 64 elements}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<8x16xf32> -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @descriptor_store(%d: !tt.tensordesc<8x16xf32>, %i: i32, %x: tensor<8x16xf16>) {
  // expected-error @+1 {{'tt.descriptor_store' op descriptor block and tensor element types must match, but got descriptor element type 'f32' and tensor element type 'f16'}}
  tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<8x16xf32>, tensor<8x16xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce(%d: !tt.tensordesc<8x16xf32>, %i: i32, %x: tensor<8x8xf32>) {
  // expected-error @+1 {{'tt.descriptor_reduce' op descriptor block and tensor must have the same number of elements, but got descriptor block with 128 elements tensor with 64 elements}}
  tt.descriptor_reduce add, %d[%i, %i], %x : !tt.tensordesc<8x16xf32>, tensor<8x8xf32>
  tt.return
}

// -----

tt.func @descriptor_gather(%d: !tt.tensordesc<2x128xf32>, %rows: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op descriptor block must have exactly 1 row, but got 'tensor<2x128xf32>'}}
  %g = tt.descriptor_gather %d[%rows, %y] : (!tt.tensordesc<2x128xf32>, tensor<32xi32>, i32) -> tensor<32x128xf32>
  tt.return
}

// -----

tt.func @descriptor_scatter(%d: !tt.tensordesc<2x128xf32>, %rows: tensor<32xi32>, %y: i32, %g: tensor<32x128xf32>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op descriptor block must have exactly 1 row, but got 'tensor<2x128xf32>'}}
  tt.descriptor_scatter %d[%rows, %y], %g : !tt.tensordesc<2x128xf32>, tensor<32xi32>, i32, tensor<32x128xf32>
  tt.return
}

// -----

tt.func @inline_asm(%x: tensor<16xi8>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op number of input elements 16 must be a multiple of the op's packed_element attribute, 3}}
  %0 = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %x : tensor<16xi8> -> tensor<16xi8>
  tt.return
}

// -----

tt.func @reduce_region(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op expected combine operation to return 1 values but got 2}}
  %0 = "tt.reduce"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s, %s : f32, f32
  }) {axis = 0 : i32} : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_region(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op nested block must take 2 arguments, but given block with 1 arguments}}
  %0 = "tt.scan"(%x) ({
  ^bb0(%a: f32):
    tt.scan.return %a : f32
  }) {axis = 0 : i32, reverse = false} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_return(%x: tensor<16xf32>, %y: tensor<3xf32>) {
  %0 = "tt.reduce"(%x) ({
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tt.reduce.return' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
    tt.reduce.return %y : tensor<3xf32>
  }) {axis = 0 : i32} : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_return(%x: tensor<16xf32>, %y: tensor<3xf32>) {
  %0 = "tt.scan"(%x) ({
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tt.scan.return' op number of elements must be power-of-two, but tensor<3xf32> has 3}}
    tt.scan.return %y : tensor<3xf32>
  }) {axis = 0 : i32, reverse = false} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptors must not wrap tensor types; use !tt.tensordesc<shape x element-type[, layout]> instead}}
tt.func @tensordesc_of_tensor(%d: !tt.tensordesc<tensor<16xf32>>) {
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptors must not wrap tensor types; use !tt.tensordesc<shape x element-type[, layout]> instead}}
tt.func @descriptor_of_tensor(%d: !tt.tensordesc<tensor<8x16xf32>>) {
  tt.return
}
