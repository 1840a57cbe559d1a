// Blackwell's tcgen05 MMAs and the tensor-memory scales layout print as they parse.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s --mlir-print-op-generic | tilecraft-opt | filecheck %s

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#scales = #ttng.tensor_memory_scales_encoding<>
// CHECK: #[[SCALES:.+]] = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @mma
  tt.func @mma(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared1, #smem>,
               %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %tok: !ttg.async.token,
               %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %p: i1) {
    // CHECK: %{{.+}} = ttng.tc_gen5_mma %arg0, %arg1, %arg2[%arg3], %arg5, %arg5 : !ttg.memdesc<128x64xf16, #{{.+}}, #smem>, !ttg.memdesc<64x128xf16, #{{.+}}, #smem>, !ttg.memdesc<128x128xf32, #{{.+}}, #ttng.tensor_memory, mutable>
    %t = ttng.tc_gen5_mma %a, %b, %d[%tok], %p, %p : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg5, %arg5, %arg4[%arg5] {is_async} : {{.+}}, !ttg.memdesc<1xi64, #{{.+}}, #smem, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %p, %p, %bar[%p] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: @mma_scaled
  tt.func @mma_scaled(%a: !ttg.memdesc<128x64xi8, #shared8, #smem>, %b: !ttg.memdesc<64x128xi8, #shared8, #smem>,
                      %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
                      %sa: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %sb: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %p: i1) {
    // CHECK: %{{.+}} = ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2[], %arg3, %arg4, %arg5, %arg5 lhs = e4m3 rhs = e2m1 : {{.+}}, !ttg.memdesc<128x2xi8, #[[SCALES]], #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #[[SCALES]], #ttng.tensor_memory>
    %t = ttng.tc_gen5_mma_scaled %a, %b, %d[], %sa, %sb, %p, %p lhs = e4m3 rhs = e2m1 : !ttg.memdesc<128x64xi8, #shared8, #smem>, !ttg.memdesc<64x128xi8, #shared8, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
    tt.return
  }
}
