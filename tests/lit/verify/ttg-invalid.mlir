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
