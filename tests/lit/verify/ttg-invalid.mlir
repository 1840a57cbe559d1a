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

// -----

// expected-error @+1 {{version must be in the [0, 4] range}}
#mfma = #ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>

// -----

// expected-error @+1 {{invalid (mDim, nDim) combination: (32, 16)}}
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16, 8], isTransposed = false}>

// -----

// expected-error @+1 {{elementBitWidth must be 32 or 64}}
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false, elementBitWidth = 8}>

// -----

// expected-error @+1 {{invalid WMMA v2 instruction shape}}
#wmma = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[0, 1]]}, instrShape = [16, 16, 4]}>

// -----

// expected-error @+1 {{struct is missing required parameter: ctaLayout}}
#wmma = #ttg.amd_wmma<{version = 2}>

// -----

// expected-error @+2 {{ttg.dot_op kWidth parameter must be 8/16 for WMMA v1}}
#wmma = #ttg.amd_wmma<{version = 1, ctaLayout = {warp = []}}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 4}>

// -----

// expected-error @+2 {{ttg.dot_op kWidth parameter is mandatory for MFMA parent}}
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
#dot = #ttg.dot_op<{opIdx = 1, parent = #mfma}>

// -----

// expected-error @+1 {{Mismatch of shape and order ranks in padded layout}}
#shared = #ttg.padded_shared<[8:+2] {order = [0], shape = [4, 4]}>

// -----

// expected-error @+1 {{interval values must all be power of two}}
#shared = #ttg.padded_shared<[6:+2] {order = [1, 0], shape = [4, 4]}>

// -----

// expected-error @+1 {{Broadcasting in offset dimension is not supported.}}
#shared = #ttg.padded_shared<[8:+2] {offset = [[0, 1], [0, 0]], block = []}>

// -----

// expected-error @+1 {{Each offset basis must move in at most one dimension.}}
#shared = #ttg.padded_shared<[8:+2] {offset = [[0, 1], [1, 1]], block = []}>

// -----

#shared = #ttg.padded_shared<[8:+2] {order = [1, 0], shape = [4, 8]}>
// expected-error @+1 {{rank must be equal to or one less than the shape size. Got 2 and 4}}
!buf = !ttg.memdesc<2x2x4x8xf16, #shared, #ttg.shared_memory>

// -----

#shared = #ttg.padded_shared<[8:+2] {order = [1, 0], shape = [4, 8]}>
// expected-error @+1 {{Mismatch in expected shape for dimension 1. Expected: 16, got: 8}}
!buf = !ttg.memdesc<4x16xf16, #ttg.padded_shared<[8:+2] {order = [1, 0], shape = [4, 8]}>, #ttg.shared_memory>

// -----

// expected-error @+1 {{alignment must be specified outside of the linear layout braces}}
#shared = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], alignment = 16}>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @subslice_across_ctas(%buf: !ttg.memdesc<16x8xf32, #shared, #smem>) {
    // expected-error @+1 {{We don't support splitting along CTA dimensions}}
    %0 = ttg.memdesc_subslice %buf[0, 0] : !ttg.memdesc<16x8xf32, #shared, #smem> -> !ttg.memdesc<8x8xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[0, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @subslice_of_copies(%buf: !ttg.memdesc<16x8xf32, #shared, #smem>) {
    // expected-error @+1 {{We don't support splitting with broadcasted CTA outputs}}
    %0 = ttg.memdesc_subslice %buf[0, 0] : !ttg.memdesc<16x8xf32, #shared, #smem> -> !ttg.memdesc<16x4xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @subslice_rows_of_the_swizzle(%buf: !ttg.memdesc<8x8xf32, #shared, #smem>) {
    // expected-error @+1 {{We don't support splitting along the swizzling pattern}}
    %0 = ttg.memdesc_subslice %buf[0, 0] : !ttg.memdesc<8x8xf32, #shared, #smem> -> !ttg.memdesc<1x8xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @subslice_off_the_tile(%buf: !ttg.memdesc<8x8xf32, #shared, #smem>) {
    // expected-error @+1 {{The split offset may not touch the tile}}
    %0 = ttg.memdesc_subslice %buf[2, 0] : !ttg.memdesc<8x8xf32, #shared, #smem> -> !ttg.memdesc<4x8xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.padded_shared<[8:+2] {order = [1, 0], shape = [8, 8]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @subslice_padded_multibuffer(%buf: !ttg.memdesc<2x8x8xf32, #shared, #smem>) {
    // expected-error @+1 {{SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet}}
    %0 = ttg.memdesc_subslice %buf[0, 0, 0] : !ttg.memdesc<2x8x8xf32, #shared, #smem> -> !ttg.memdesc<2x4x8xf32, #shared, #smem, 2x8x8>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_not_twice(%a: tensor<32x32xi8, #blocked>) {
    // expected-error @+1 {{axis 1 dimension must be 2x source dimension (src=32, dst=32)}}
    %0 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<32x32xi8, #blocked> -> tensor<32x32xbf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_to_f32(%a: tensor<32x16xi8, #blocked>) {
    // expected-error @+1 {{only bf16 or f16 is supported for now, got f32}}
    %0 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp4_same_layout(%a: tensor<32x16xi8, #blocked>) {
    // expected-error @+1 {{Src and Dst encodings are not compatible}}
    %0 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16, #blocked>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// expected-error @+1 {{numPartitions must be a power of 2 and at least 2}}
#partitioned = #ttg.partitioned_shared<{numPartitions = 1, numGroups = 2, partitionDim = 0, partitionLayout = #shared}>

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// expected-error @+1 {{numGroups must be a power of 2 and greater than 0}}
#partitioned = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 3, partitionDim = 0, partitionLayout = #shared}>

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// expected-error @+1 {{partitionDim (2) must be less than the layout rank (2)}}
#partitioned = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 2, partitionLayout = #shared}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{partitionLayout must be a SharedEncodingTrait}}
#partitioned = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #blocked}>

// -----

// The partitioned layout has the rank of its partition layout.
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#partitioned = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #shared}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partitioned_rank() {
    // expected-error @+1 {{rank must be equal to or one less than the shape size. Got 2 and 4}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<2x4x64x32xf16, #partitioned, #ttg.shared_memory, mutable>
    tt.return
  }
}

// -----

// tt.dot operand layouts against the result's (Triton's verifyDotOpEncodingCompatibility).
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @kwidth_mismatch(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>,
      %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{mismatching kWidth between A and B operands}}
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @mma_operands_blocked_result(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
      %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #blocked>) {
    // expected-error @+1 {{mismatching MMA encoding}}
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #blocked>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 1, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @mma_versions_differ(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1}>>,
      %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{mismatched MMA version.}}
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

// f32 operands take mma only with tf32 precision.
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @ieee_f32(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>,
      %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{unsupported MMA version}}
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

// Must not fire: matching kWidths on one mma layout, tf32 f32 operands, dot operands of a
// blocked layout (FMA), and a dot without layouts.
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @valid_dots(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
      %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #mma>,
      %af: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>,
      %bf: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>,
      %ab: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>,
      %bb: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %cb: tensor<16x16xf32, #blocked>,
      %x: tensor<16x16xf32>) {
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    %1 = tt.dot %af, %bf, %c, inputPrecision = tf32 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x16xf32, #mma>
    %2 = tt.dot %ab, %bb, %cb : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    %3 = tt.dot %x, %x, %x : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    tt.return
  }
}

// -----

// mma version 5 needs M a multiple of 64 per CTA (and N of 16, K of 256 bits, 4 or 8 warps).
#mma = #ttg.nvidia_mma<{versionMajor = 5, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @v5_small_m(%a: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>>,
      %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma}>>, %c: tensor<32x16xf32, #mma>,
      %a64: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>>, %c64: tensor<64x16xf32, #mma>) {
    %ok = tt.dot %a64, %b, %c64 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma}>> -> tensor<64x16xf32, #mma>
    // expected-error @+1 {{unsupported MMA version}}
    %d = tt.dot %a, %b, %c : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma}>> -> tensor<32x16xf32, #mma>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @subslice_of_a_buffer_the_layout_cannot_map(%buf: !ttg.memdesc<32x33xf16, #shared, #smem>) {
    // expected-error @+1 {{the source's shared layout has no map: column count must be a power of two, got 33}}
    %0 = ttg.memdesc_subslice %buf[16, 0] : !ttg.memdesc<32x33xf16, #shared, #smem> -> !ttg.memdesc<16x33xf16, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @subslice_offset_beyond_i32(%buf: !ttg.memdesc<32x32xf16, #shared, #smem>) {
    // expected-error @+1 {{offsets [0, 99999999999999999999] do not fit in 32 bits}}
    %0 = ttg.memdesc_subslice %buf [0, 99999999999999999999] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem>
    tt.return
  }
}
