// Verifier errors of the tcgen05 MMAs (Triton's messages), one per split.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @kinds_differ(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xi8, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    // expected-error @+1 {{LHS and RHS operand dtypes kinds don't match: LHS kind is f16 but RHS kind is i8}}
    ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xi8, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @bf16_into_f16(%a: !ttg.memdesc<128x64xbf16, #shared, #smem>, %b: !ttg.memdesc<64x128xbf16, #shared, #smem>, %d: !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    // expected-error @+1 {{unsupported accumulator dtype for operand types bf16 and bf16, accumulator dtype is f16 but must be one of [f32]}}
    ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xbf16, #shared, #smem>, !ttg.memdesc<64x128xbf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @sync_with_barrier(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{The op is synchronous but a barrier is present.}}
    ttng.tc_gen5_mma %a, %b, %d, %p, %p, %bar[%p] : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @col_stride(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    // expected-error @+1 {{The col stride of the return operand must be 32 / 32 but got 2}}
    ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>
#scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scaled_block_m(%a: !ttg.memdesc<128x64xi8, #shared, #smem>, %b: !ttg.memdesc<64x128xi8, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %p: i1) {
    // expected-error @+1 {{only supports instruction shape blockM=128}}
    ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xi8, #shared, #smem>, !ttg.memdesc<64x128xi8, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scaled_kinds(%a: !ttg.memdesc<128x64xi8, #shared, #smem>, %b: !ttg.memdesc<64x128xbf16, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %p: i1) {
    // expected-error @+1 {{LHS and RHS operand dtypes kinds don't match: LHS kind is f8f6f4 but RHS kind is f16}}
    ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e4m3 rhs = bf16 : !ttg.memdesc<128x64xi8, #shared, #smem>, !ttg.memdesc<64x128xbf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
    tt.return
  }
}

// -----

// The barriers a tcgen05 MMA arrives on are mbarriers: one i64 each.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @barrier_expect_shape(%bar: !ttg.memdesc<2xi64, #bar, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
    ttng.barrier_expect %bar, 16384, %p : !ttg.memdesc<2xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @inval_barrier_type(%bar: !ttg.memdesc<1xi32, #bar, #smem, mutable>) {
    // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
    ttng.inval_barrier %bar : !ttg.memdesc<1xi32, #bar, #smem, mutable>
    tt.return
  }
}
