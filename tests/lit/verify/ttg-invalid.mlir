// ttg attribute and op verifier errors, one per split, checked with --verify-diagnostics.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @mask_of_another_type(%ptrs: tensor<32x32x!tt.ptr<f16>, #blocked>,
      %buf: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>,
      %mask: tensor<32x32xi8, #blocked>) { // expected-note {{prior use here}}
    // expected-error @+1 {{use of value '%mask' expects different type than prior uses}}
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}
