// The verifiers of ttg's shared-memory ops and of ttg.warp_specialize, one error per split,
// with Triton's messages (checked with --verify-diagnostics).
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#tmem = #ttng.tensor_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_in_tensor_memory(%t: tensor<32x32xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op should create a buffer of shared memory}}
    %0 = ttg.local_alloc %t : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #tmem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_of_a_subview() {
    // expected-error @+1 {{'ttg.local_alloc' op result shape and its alloc shape must match}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @immutable_alloc_without_initializer() {
    // expected-error @+1 {{'ttg.local_alloc' op uninitialized alloc must have a mutable memdesc type}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_of_another_element_type(%t: tensor<32x32xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op source element type tensor<32x32xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> must match destination element type f32}}
    %0 = ttg.local_alloc %t : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_of_another_shape(%t: tensor<32x32xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op source shape [32, 32] must match [destination shape 64, 32]}}
    %0 = ttg.local_alloc %t : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @load_of_another_shape(%buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_load' op source shape [64, 32] must match [destination shape 32, 32]}}
    %0 = ttg.local_load %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_into_immutable_memory(%t: tensor<32x32xf16, #blocked>) {
    %0 = ttg.local_alloc %t : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    // expected-error @+1 {{'ttg.local_store' op Cannot store into immutable memory}}
    ttg.local_store %t, %0 : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_of_another_element_type(%t: tensor<32x32xf16, #blocked>, %buf: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_store' op source element type tensor<32x32xf16, }}
    ttg.local_store %t, %buf : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @index_keeping_the_rank(%buf: !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>, %i: i32) {
    // expected-error @+1 {{result rank must be input rank - 1}}
    %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @index_into_another_shape(%buf: !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>, %i: i32) {
    // expected-error @+1 {{result shape must equal to srcShape[1:]}}
    %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @index_of_an_index(%buf: !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable, 2x2x32x32>, %i: i32) {
    // expected-error @+1 {{We don't allow taking memdesc_index of a memdesc_index}}
    %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable, 2x2x32x32> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @index_into_a_view(%buf: !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>, %i: i32) {
    // expected-error @+1 {{alloc shape must match shape for both result and src}}
    %0 = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reshape_changing_the_size(%buf: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
    %0 = ttg.memdesc_reshape %buf : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reshape_of_a_subslice(%buf: !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x32>) {
    // expected-error @+1 {{NYI: memdesc_reshape of memdesc_subslice}}
    %0 = ttg.memdesc_reshape %buf : !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x32> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @async_copy_into_immutable_memory(%ptrs: tensor<32x32x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<32x32xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.async_copy_global_to_local' op Cannot store into immutable memory}}
    %0 = ttg.async_copy_global_to_local %ptrs, %buf : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partition_of_3_warps() {
    // expected-error @+1 {{'ttg.warp_specialize' op partition #0 number of warps (3) must be a power of 2}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(3) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @nested_warp_specialize() {
    ttg.warp_specialize()
    default {
      // expected-error @+1 {{'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op}}
      ttg.warp_specialize()
      default {
        ttg.warp_yield
      } : () -> ()
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @two_warps() {
    // expected-error @+1 {{warp-specialized kernels requires num_warps to be a multiple of 4}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partition_without_the_capture(%x: i32) {
    ttg.warp_specialize(%x)
    default {
      ttg.warp_yield
    }
    // expected-error @+1 {{'ttg.warp_specialize.partitions' op partition region #0 has 0 arguments but expected 1}}
    partition0() num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partition_argument_of_another_type(%x: i32) {
    ttg.warp_specialize(%x)
    default {
      ttg.warp_yield
    }
    // expected-error @+1 {{'ttg.warp_specialize.partitions' op partition region #0 argument #0 has type i64 but corresponding capture has type i32}}
    partition0(%a: i64) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @yield_of_nothing() -> i32 {
    %0 = ttg.warp_specialize()
    default {
      // expected-error @+1 {{'ttg.warp_yield' op has 0 operands but parent op expected 1}}
      ttg.warp_yield
    } : () -> i32
    tt.return %0 : i32
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @yield_of_another_type(%x: i64) -> i32 {
    %0 = ttg.warp_specialize()
    default {
      // expected-error @+1 {{'ttg.warp_yield' op operand #0 has type i64 but parent op expected i32}}
      ttg.warp_yield %x : i64
    } : () -> i32
    tt.return %0 : i32
  }
}
