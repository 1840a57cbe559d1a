// tritongpu-accelerate-matmul on Blackwell (sm_100 to sm_11x): a dot becomes a
// ttng.tc_gen5_mma reading its operands from NVMMA-swizzled shared memory and accumulating in
// tensor memory (blocks of min(M, 128) x min(N, 256), one 32-bit column per element), the
// accumulator copied in and loaded back in the 32x32b message layout; a scaled dot with both
// scales becomes a ttng.tc_gen5_mma_scaled whose scales go to tensor memory too (loaded
// scales through an unswizzled shared buffer first). Must not fire: f32 without tf32 (stays on
// the CUDA cores), 2 warps (mma.sync), int8 on sm_103 (mma.sync), a scaled dot with M < 128
// (decomposed, then tcgen05).
// RUN: tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul | filecheck %s
// RUN: env TRITON_PREFER_TMEM_16x256_LAYOUT=1 tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul | filecheck %s --check-prefix=WIDE

// CHECK-DAG: #[[REGS:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[0, 2\], \[0, 4\], \[0, 8\], \[0, 16\], \[0, 32\]\]}}, lane = {{\[\[1, 0\], \[2, 0\], \[4, 0\], \[8, 0\], \[16, 0\]\]}}, warp = {{\[\[32, 0\], \[64, 0\], \[0, 64\]\]}}, block = []}>
// CHECK-DAG: #[[A:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[B:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK-DAG: #[[TMEM:.+]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// WIDE-DAG: #ttg.linear<{register = {{\[\[0, 1\], \[8, 0\], \[0, 8\], \[0, 16\], \[0, 32\], \[0, 64\]\]}}, lane = {{\[\[0, 2\], \[0, 4\], \[1, 0\], \[2, 0\], \[4, 0\]\]}}, warp = {{\[\[32, 0\], \[64, 0\], \[16, 0\]\]}}, block = []}>
// CHECK-LABEL: @f16_dot
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK-DAG: %[[SA:.+]] = ttg.local_alloc %arg0 : (tensor<128x32xf16, {{.+}}>) -> !ttg.memdesc<128x32xf16, #[[A]], #smem>
// CHECK-DAG: %[[SB:.+]] = ttg.local_alloc %arg1 : (tensor<32x128xf16, {{.+}}>) -> !ttg.memdesc<32x128xf16, #[[B]], #smem>
// CHECK: %[[C:.+]] = ttg.convert_layout %arg2 : tensor<128x128xf32, {{.+}}> -> tensor<128x128xf32, #[[REGS]]>
// CHECK: %[[ACC:.+]], %[[TOK:.+]] = ttng.tmem_alloc %[[C]] : (tensor<128x128xf32, #[[REGS]]>) -> (!ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %[[DONE:.+]] = ttng.tc_gen5_mma %[[SA]], %[[SB]], %[[ACC]][%[[TOK]]], %[[TRUE]], %[[TRUE]]
// CHECK: %[[R:.+]], %{{.+}} = ttng.tmem_load %[[ACC]][%[[DONE]]] : {{.+}} -> tensor<128x128xf32, #[[REGS]]>
// CHECK: ttg.convert_layout %[[R]] : tensor<128x128xf32, #[[REGS]]> -> tensor<128x128xf32, #blocked
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>
#d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_dot(%a: tensor<128x32xf16, #a>, %b: tensor<32x128xf16, #b>, %c: tensor<128x128xf32, #d>) -> tensor<128x128xf32, #d> {
    %ad = ttg.convert_layout %a : tensor<128x32xf16, #a> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #d}>>
    %bd = ttg.convert_layout %b : tensor<32x128xf16, #b> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #d}>>
    %r = tt.dot %ad, %bd, %c : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #d}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #d}>> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
}

// -----

// CHECK-LABEL: @fp32_ieee_stays
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot {{.+}} -> tensor<128x64xf32, #blocked>
// CHECK-LABEL: @two_warps
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot {{.+}} -> tensor<128x64xf32, #mma>
#d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp32_ieee_stays(%a: tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #d}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #d}>>, %c: tensor<128x64xf32, #d>) -> tensor<128x64xf32, #d> {
    %r = tt.dot %a, %b, %c : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #d}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #d}>> -> tensor<128x64xf32, #d>
    tt.return %r : tensor<128x64xf32, #d>
  }
  tt.func @two_warps(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #d2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #d2}>>, %c: tensor<128x64xf32, #d2>) -> tensor<128x64xf32, #d2> attributes {"ttg.num-warps" = 2 : i32} {
    %r = tt.dot %a, %b, %c : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #d2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #d2}>> -> tensor<128x64xf32, #d2>
    tt.return %r : tensor<128x64xf32, #d2>
  }
}

// -----

// CHECK-LABEL: @int8_sm103
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot {{.+}} -> tensor<128x128xi32, #mma>
#d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:103", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @int8_sm103(%a: tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #d}>>, %b: tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #d}>>, %c: tensor<128x128xi32, #d>) -> tensor<128x128xi32, #d> {
    %r = tt.dot %a, %b, %c : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #d}>> * tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #d}>> -> tensor<128x128xi32, #d>
    tt.return %r : tensor<128x128xi32, #d>
  }
}

// -----

// CHECK-DAG: #[[SCALES_REGS:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[0, 2\], \[32, 0\], \[64, 0\]\]}}, lane = {{\[\[1, 0\], \[2, 0\], \[4, 0\], \[8, 0\], \[16, 0\]\]}}, warp = {{\[\[0, 0\], \[0, 0\]\]}}, block = []}>
// CHECK-DAG: #[[PADDED:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8, fp4Padded = true}>
// CHECK-DAG: #[[PLAIN:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SCALES:.+]] = #ttng.tensor_memory_scales_encoding<>
// CHECK-LABEL: @fp8_times_fp4
// CHECK-DAG: ttg.local_alloc %arg2 : (tensor<64x128xi8, {{.+}}>) -> !ttg.memdesc<64x128xi8, #[[PADDED]], #smem>
// CHECK: %[[LOADED:.+]] = tt.load %arg1
// CHECK: %[[STAGE:.+]] = ttg.local_alloc %[[LOADED]] : (tensor<128x4xi8, {{.+}}>) -> !ttg.memdesc<128x4xi8, #[[PLAIN]], #smem>
// CHECK: %[[READ:.+]] = ttg.local_load %[[STAGE]]
// CHECK: %[[SA:.+]] = ttg.convert_layout %[[READ]] : tensor<128x4xi8, {{.+}}> -> tensor<128x4xi8, #[[SCALES_REGS]]>
// CHECK: %[[TA:.+]] = ttng.tmem_alloc %[[SA]] : (tensor<128x4xi8, #[[SCALES_REGS]]>) -> !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory>
// CHECK: %[[TB:.+]] = ttng.tmem_alloc %{{.+}} : (tensor<128x4xi8, #[[SCALES_REGS]]>) -> !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory>
// CHECK: ttng.tc_gen5_mma_scaled %{{.+}}, %{{.+}}, %{{.+}}[%{{.+}}], %[[TA]], %[[TB]], %{{.+}}, %{{.+}} lhs = e4m3 rhs = e2m1
// CHECK-NOT: tt.dot_scaled
// CHECK-LABEL: @short_m_decomposed
// CHECK: ttg.fp4_to_fp
// CHECK-NOT: ttng.tc_gen5_mma_scaled
// CHECK: ttng.tc_gen5_mma
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#s = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_times_fp4(%a: tensor<128x128xf8E4M3FN, #a>, %sa_ptr: tensor<128x4x!tt.ptr<i8>, #s>, %b: tensor<64x128xi8, #b>, %sb: tensor<128x4xi8, #s>, %c: tensor<128x128xf32, #d>) -> tensor<128x128xf32, #d> {
    %sa = tt.load %sa_ptr : tensor<128x4x!tt.ptr<i8>, #s>
    %r = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x128xf8E4M3FN, #a>, tensor<128x4xi8, #s> * tensor<64x128xi8, #b>, tensor<128x4xi8, #s> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
  tt.func @short_m_decomposed(%a: tensor<64x64xi8, #a>, %sa: tensor<64x4xi8, #s>, %b: tensor<64x128xi8, #b>, %sb: tensor<128x4xi8, #s>, %c: tensor<64x128xf32, #d>) -> tensor<64x128xf32, #d> {
    %r = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<64x64xi8, #a>, tensor<64x4xi8, #s> * tensor<64x128xi8, #b>, tensor<128x4xi8, #s> -> tensor<64x128xf32, #d>
    tt.return %r : tensor<64x128xf32, #d>
  }
}

// -----

// sm_12x keeps an fp8 x fp8 (or fp4 x fp4) scaled dot scaled, on mma.sync: operands in the
// dot-operand layouts of an mma v2 accumulator, each scale in its own linear layout (A's rows
// of a warp 16 apart in lane halves 8 apart, B's 8; the warps along K hold copies).
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[SA:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[32, 0\], \[64, 0\]\]}}, lane = {{\[\[8, 0\], \[0, 0\], \[1, 0\], \[2, 0\], \[4, 0\]\]}}, warp = {{\[\[0, 0\], \[16, 0\]\]}}, block = []}>
// CHECK-DAG: #[[SB:.+]] = #ttg.linear<{register = {{\[\[0, 1\], \[16, 0\], \[32, 0\], \[64, 0\]\]}}, lane = {{\[\[0, 0\], \[0, 0\], \[1, 0\], \[2, 0\], \[4, 0\]\]}}, warp = {{\[\[8, 0\], \[0, 0\]\]}}, block = []}>
// CHECK-LABEL: @sm120_fp8
// CHECK: tt.dot_scaled %{{.+}} scale %{{.+}}, %{{.+}} scale %{{.+}}, %{{.+}} lhs = e5m2 rhs = e4m3 {fastMath = true} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>, tensor<128x2xi8, #[[SA]]> * tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>, tensor<128x2xi8, #[[SB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-LABEL: @sm120_mixed_decomposed
// CHECK-NOT: tt.dot_scaled
// CHECK: tt.dot
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#s = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:120", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm120_fp8(%a: tensor<128x64xf8E5M2, #d>, %sa: tensor<128x2xi8, #s>, %b: tensor<64x128xf8E4M3FN, #d>, %sb: tensor<128x2xi8, #s>, %c: tensor<128x128xf32, #d>) -> tensor<128x128xf32, #d> {
    %r = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e5m2 rhs = e4m3 {fastMath = true} : tensor<128x64xf8E5M2, #d>, tensor<128x2xi8, #s> * tensor<64x128xf8E4M3FN, #d>, tensor<128x2xi8, #s> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
  tt.func @sm120_mixed_decomposed(%a: tensor<128x64xf8E5M2, #d>, %sa: tensor<128x2xi8, #s>, %b: tensor<64x128xbf16, #d>, %c: tensor<128x128xf32, #d>) -> tensor<128x128xf32, #d> {
    %r = tt.dot_scaled %a scale %sa, %b, %c lhs = e5m2 rhs = bf16 {fastMath = true} : tensor<128x64xf8E5M2, #d>, tensor<128x2xi8, #s> * tensor<64x128xbf16, #d> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
}
