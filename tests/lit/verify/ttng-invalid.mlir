// ttng attribute and op verifier errors (Triton's messages; the tensormap_create rules are ours),
// one per split.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_needs_hopper_mma(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<128x64xf32, #mma2>) {
    // expected-error @+1 {{WGMMA result layout must be Hopper NVMMA}}
    %r = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma2>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_b_needs_nvmma_shared(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #sw, #smem>, %c: tensor<128x64xf32, #mma>) {
    // expected-error @+1 {{WGMMA B operand must have NVMMA shared layout}}
    %r = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #sw, #smem> -> tensor<128x64xf32, #mma>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_m_multiple_of_64(%a: !ttg.memdesc<32x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<32x64xf32, #mma>) {
    // expected-error @+1 {{WGMMA result M dimension must be divisible by 64}}
    %r = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<32x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<32x64xf32, #mma>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_fp8_imprecise_acc(%a: !ttg.memdesc<128x64xf8E5M2, #shared, #smem>, %b: !ttg.memdesc<64x64xf8E5M2, #shared, #smem>, %c: tensor<128x64xf32, #mma>) {
    // expected-error @+1 {{Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32}}
    %r = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf8E5M2, #shared, #smem> * !ttg.memdesc<64x64xf8E5M2, #shared, #smem> -> tensor<128x64xf32, #mma>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_register_a_kwidth(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<128x64xf32, #mma>) {
    // expected-error @+1 {{in-register LHS operand must have a kWidth of 2 but got 4}}
    %r = ttng.warp_group_dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
    tt.return
  }
}

// -----

module {
  tt.func @wait_on_nothing() {
    // expected-error @+1 {{expected to be waiting on at least one dependency}}
    ttng.warp_group_dot_wait {pendings = 0 : i32} :
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tma_into_immutable(%d: !tt.tensordesc<64x64xf16, #shared>, %x: i32, %p: i1, %buf: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    // expected-error @+1 {{Cannot store into immutable memory}}
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %b, %p : !tt.tensordesc<64x64xf16, #shared>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

// expected-error @+1 {{blockM must be 64 or 128 but got 32}}
#tmem = #ttng.tensor_memory_encoding<blockM = 32, blockN = 64, colStride = 1>

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tmem_alloc_needs_tmem_encoding() {
    // expected-error @+1 {{should use tensor memory encoding}}
    %m = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #shared, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tmem_load_from_shared(%m: !ttg.memdesc<128x64xf32, #tmem, #smem, mutable>) {
    // expected-error @+1 {{source must be a tensor memory buffer.}}
    %t = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tmem, #smem, mutable> -> tensor<128x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tmem_store_immutable(%t: tensor<128x64xf32, #blocked>, %m: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>, %p: i1) {
    // expected-error @+1 {{Cannot store into an immutable alloc}}
    ttng.tmem_store %t, %m, %p : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tmem_store_shape(%t: tensor<128x32xf32, #blocked>, %m: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    // expected-error @+1 {{source shape [128, 32] does not match the buffer shape [128, 64]}}
    ttng.tmem_store %t, %m, %p : tensor<128x32xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @barrier_of_i32(%b: !ttg.memdesc<1xi32, #bar, #smem, mutable>) {
    // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
    ttng.init_barrier %b, 1 : !ttg.memdesc<1xi32, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two_barriers(%b: !ttg.memdesc<2xi64, #bar, #smem, mutable>, %phase: i32) {
    // expected-error @+1 {{barrier allocation must be a descriptor of 1xi64 type}}
    ttng.wait_barrier %b, %phase : !ttg.memdesc<2xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensormap_sizes_of_another_rank(%map: !tt.ptr<i8>, %p: !tt.ptr<f32>, %n: i32, %s: i64) {
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{expected 2 global_dim and element_stride operands as box_dim, got 1 and 2}}
    ttng.tensormap_create %map, %p, [%c1, %c1], [%n], [%s], [%c1, %c1] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i64, i32, i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensormap_stride_of_the_innermost(%map: !tt.ptr<i8>, %p: !tt.ptr<f32>, %n: i32, %s: i64) {
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{expected 1 global_stride operands (the dimensions after the innermost), got 2}}
    ttng.tensormap_create %map, %p, [%c1, %c1], [%n, %n], [%s, %s], [%c1, %c1] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensormap_of_rank_six(%map: !tt.ptr<i8>, %p: !tt.ptr<f32>, %s: i64) {
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{a TMA descriptor has rank 1 to 5, got 6 box sizes}}
    ttng.tensormap_create %map, %p, [%c1, %c1, %c1, %c1, %c1, %c1], [%c1, %c1, %c1, %c1, %c1, %c1], [%s, %s, %s, %s, %s], [%c1, %c1, %c1, %c1, %c1, %c1] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i64, i64, i64, i64, i64, i32, i32, i32, i32, i32, i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensormap_swizzle_code(%map: !tt.ptr<i8>, %p: !tt.ptr<f32>, %n: i32, %s: i64) {
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{attribute 'swizzle_mode'}}
    ttng.tensormap_create %map, %p, [%c1, %c1], [%n, %n], [%s], [%c1, %c1] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 4 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
    tt.return
  }
}
