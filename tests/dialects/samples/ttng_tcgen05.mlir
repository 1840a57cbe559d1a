// Blackwell's tcgen05 MMAs as Triton prints them: with and without the accumulator token,
// asynchronous with a completion barrier, and block-scaled with scales in tensor memory.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tcgen05(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared1, #smem>,
                   %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %tok: !ttg.async.token,
                   %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %p: i1,
                   %a8: !ttg.memdesc<128x64xf8E4M3FN, #shared2, #smem>, %b8: !ttg.memdesc<64x128xf8E4M3FN, #shared2, #smem>,
                   %sa: !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>) {
    %t = ttng.tc_gen5_mma %a, %b, %d[%tok], %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %p, %p, %bar[%p] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %t2 = ttng.tc_gen5_mma_scaled %a8, %b8, %d[%t], %sa, %sa, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xf8E4M3FN, #shared2, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #shared2, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
}
