// TritonGPU layouts and ops in the forms triton-opt prints them.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CGALayout = [[0, 1]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]], instrShape = [16, 64, 16]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
#shared3 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}, alignment = 16>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
// Layouts on one CTA; those spread over two CTAs are in the second module, whose ttg.num-ctas
// they match.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @layouts(%arg0: tensor<64x64xf16, #blocked>, %arg1: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %0 = ttg.convert_layout %arg0 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %1 = ttg.convert_layout %arg0 {allocation.offset = 0 : i32} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %2 = ttg.convert_layout %arg1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
    tt.return
  }
  tt.func public @memory(%arg0: tensor<32x16xf16, #blocked>, %arg1: tensor<32x16x!tt.ptr<f16>, #blocked>, %arg2: tensor<32x16xi1, #blocked>, %i: i32) {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable>
    %1 = ttg.memdesc_index %0[%i] : !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    ttg.local_store %arg0, %1 : tensor<32x16xf16, #blocked> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
    %2 = ttg.async_copy_global_to_local %arg1, %1 mask %arg2 other %arg0 cacheModifier = ca : tensor<32x16x!tt.ptr<f16>, #blocked> -> <32x16xf16, #shared, #smem, mutable>
    %3 = ttg.async_copy_global_to_local %arg1, %1 {contiguity = 4 : i32} : tensor<32x16x!tt.ptr<f16>, #blocked> -> <32x16xf16, #shared, #smem, mutable>
    %4 = ttg.async_commit_group tokens %2, %3
    %5 = ttg.async_commit_group
    %6 = ttg.async_wait %4 {num = 0 : i32}
    %7 = ttg.local_load %1 token %6 : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #linear>
    %8 = ttg.memdesc_subslice %1[0, 8] : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x8xf16, #shared, #smem, mutable, 32x16>
    %9 = ttg.local_alloc %arg0 {alignment = 16 : i32} : (tensor<32x16xf16, #blocked>) -> !ttg.memdesc<32x16xf16, #shared1, #smem>
    %10 = ttg.memdesc_trans %9 {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf16, #shared1, #smem> -> !ttg.memdesc<16x32xf16, #shared4, #smem>
    %11 = ttg.memdesc_reshape %9 : !ttg.memdesc<32x16xf16, #shared1, #smem> -> !ttg.memdesc<2x16x16xf16, #shared2, #smem>
    %12 = ttg.memdesc_reinterpret %9 : !ttg.memdesc<32x16xf16, #shared1, #smem> -> !ttg.memdesc<16x16xf32, #shared1, #smem>
    ttg.barrier local|global_read
    ttg.barrier all
    ttg.barrier none
    ttg.local_dealloc %0 : !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable>
    tt.return
  }
  tt.func public @warp_specialize(%arg0: i32, %arg1: i64) -> i64 {
    %0 = ttg.warp_specialize(%arg0) attributes {warpGroupStartIds = array<i32: 4, 8>}
    default {
      ttg.warp_yield %arg1 : i64
    }
    partition0(%arg2: i32) num_warps(4) {
      %1 = arith.addi %arg2, %arg2 : i32
      ttg.warp_return
    }
    partition1(%arg2: i32) num_warps(2) {
      ttg.warp_return
    } : (i32) -> i64
    tt.return %0 : i64
  }
}
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_ctas(%arg0: tensor<64x64xf16, #blocked1>, %arg1: !ttg.memdesc<4x4xf32, #shared3, #smem>) {
    %0 = ttg.convert_layout %arg0 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #mma1>
    %1 = ttg.local_load %arg1 : !ttg.memdesc<4x4xf32, #shared3, #smem> -> tensor<4x4xf32, #blocked1>
    tt.return
  }
}
