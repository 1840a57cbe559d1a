// AMD accumulator layouts, padded shared layouts and fp4 unpacking, in Triton's printed forms.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#mma1 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>
#shared = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [16, 32]}>
#shared1 = #ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @amd(%arg0: tensor<64x32xi8, #blocked>, %arg1: tensor<64x64xf32, #mma>, %arg2: !ttg.memdesc<2x16x32xf16, #shared, #smem, mutable>, %arg3: !ttg.memdesc<8x4xf16, #shared1, #smem>) {
    %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked1>
    %1 = ttg.convert_layout %arg1 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma1>
    %2 = ttg.convert_layout %0 : tensor<64x64xbf16, #blocked1> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    tt.return
  }
}
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma(%arg0: tensor<32x32xf16, #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {register = [[0, 2]], warp = [[0, 1], [1, 0]]}}>>) {
    %0 = ttg.convert_layout %arg0 : tensor<32x32xf16, #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {register = [[0, 2]], warp = [[0, 1], [1, 0]]}}>> -> tensor<32x32xf16, #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 32]}>>
    tt.return
  }
}
