// -canonicalize: int_to_ptr of a pointer's integer plus a constant byte offset becomes an
// addptr by whole elements; expand_dims of a broadcast is swapped also when the tensors have
// layouts (a slice expands into its parent).
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// CHECK-LABEL: tt.func @byte_offset_f32
// CHECK-NEXT:    %[[C:.+]] = arith.constant dense<2> : tensor<8xi64>
// CHECK-NEXT:    %[[P:.+]] = tt.addptr %arg0, %[[C]] : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-NEXT:    tt.return %[[P]]
tt.func @byte_offset_f32(%p: tensor<8x!tt.ptr<f32>>) -> tensor<8x!tt.ptr<f32>> {
  %c = arith.constant dense<8> : tensor<8xi64>
  %i = tt.ptr_to_int %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %s = arith.addi %i, %c : tensor<8xi64>
  %r = tt.int_to_ptr %s : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  tt.return %r : tensor<8x!tt.ptr<f32>>
}

// -----

// A scalar pointer to i8: every byte is an element.
// CHECK-LABEL: tt.func @byte_offset_scalar_i8
// CHECK-NEXT:    %[[C:.+]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[P:.+]] = tt.addptr %arg0, %[[C]] : !tt.ptr<i8>, i64
// CHECK-NEXT:    tt.return %[[P]]
tt.func @byte_offset_scalar_i8(%p: !tt.ptr<i8>) -> !tt.ptr<i8> {
  %c = arith.constant 3 : i64
  %i = tt.ptr_to_int %p : !tt.ptr<i8> -> i64
  %s = arith.addi %i, %c : i64
  %r = tt.int_to_ptr %s : i64 -> !tt.ptr<i8>
  tt.return %r : !tt.ptr<i8>
}

// -----

// Not fired: a byte offset that is not a whole number of f32s, and an offset that is not a
// constant.
// CHECK-LABEL: tt.func @byte_offset_no
// CHECK-NOT:     tt.addptr
// CHECK-COUNT-2: tt.int_to_ptr
tt.func @byte_offset_no(%p: !tt.ptr<f32>, %o: i64) -> (!tt.ptr<f32>, !tt.ptr<f32>) {
  %c = arith.constant 6 : i64
  %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %s = arith.addi %i, %c : i64
  %r = tt.int_to_ptr %s : i64 -> !tt.ptr<f32>
  %t = arith.addi %i, %o : i64
  %q = tt.int_to_ptr %t : i64 -> !tt.ptr<f32>
  tt.return %r, %q : !tt.ptr<f32>, !tt.ptr<f32>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
// CHECK-LABEL: tt.func @expand_broadcast_slice
// CHECK-NEXT:    %[[E:.+]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xf32, #{{.+}}> -> tensor<1x1xf32, #blocked>
// CHECK-NEXT:    %[[B:.+]] = tt.broadcast %[[E]] : tensor<1x1xf32, #blocked> -> tensor<32x1xf32, #blocked>
// CHECK-NEXT:    tt.return %[[B]]
tt.func @expand_broadcast_slice(%x: tensor<1xf32, #slice>) -> tensor<32x1xf32, #blocked> {
  %b = tt.broadcast %x : tensor<1xf32, #slice> -> tensor<32xf32, #slice>
  %e = tt.expand_dims %b {axis = 1 : i32} : tensor<32xf32, #slice> -> tensor<32x1xf32, #blocked>
  tt.return %e : tensor<32x1xf32, #blocked>
}
}
