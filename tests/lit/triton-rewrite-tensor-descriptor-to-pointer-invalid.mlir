// triton-rewrite-tensor-descriptor-to-pointer: errors of the rewrite.
// RUN: tilecraft-opt %s --split-input-file -triton-rewrite-tensor-descriptor-to-pointer --verify-diagnostics

// A float min has no atomic fallback.
module {
  tt.func @float_min(%d: !tt.tensordesc<8x16xf32>, %x: tensor<8x16xf32>, %i: i32) {
    // expected-error @+1 {{Cannot fallback on descriptor atomic op, unsupported for type f32}}
    tt.descriptor_reduce min, %d[%i, %i], %x : !tt.tensordesc<8x16xf32>, tensor<8x16xf32>
    tt.return
  }
}

// -----

// The result of tt.make_tensor_descriptor must be a descriptor type.
tt.func @not_a_descriptor(%p: !tt.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{invalid kind of type specified: expected TensorDescType, but found 'tensor<8xf16>'}}
  %d = tt.make_tensor_descriptor %p, [%m], [%s] : <f16>, tensor<8xf16>
  tt.return
}
