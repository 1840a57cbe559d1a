// tritongpu-accelerate-matmul on sm_90: which wgmma operands go to shared memory and in what
// order. A is read from shared memory when it is a load or a block argument (through layout
// conversions and transposes), and stays in registers when it is computed; 8-bit operands are
// stored K-major, with a warning when the registers hold them the other way. Must not fire:
// no warning for 16-bit operands in any order, none for an 8-bit operand already K-major, and
// mma.sync (v2) for an M that is not a multiple of 64.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul -verify-diagnostics | filecheck %s

// Block arguments: both operands stored to shared memory in the order they are held in.
// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #[[SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: @args
// CHECK-DAG: %[[A:.+]] = ttg.local_alloc %arg0 {{.*}} -> !ttg.memdesc<64x64xf16, #[[SH]], #smem>
// CHECK-DAG: %[[B:.+]] = ttg.local_alloc %arg1 {{.*}} -> !ttg.memdesc<64x64xf16, #[[SH]], #smem>
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], {{.*}} -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @args(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// A transposed after its load: the transpose's result is stored, not the load's.
// CHECK-LABEL: @trans_of_load
// CHECK: %[[L:.+]] = tt.load %arg0
// CHECK: %[[T:.+]] = tt.trans %[[L]]
// CHECK-NEXT: %[[A:.+]] = ttg.local_alloc %[[T]]
// CHECK: ttng.warp_group_dot %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_of_load(%p: tensor<64x64x!tt.ptr<f16>, #rows>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %l = tt.load %p : tensor<64x64x!tt.ptr<f16>, #rows>
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #cols>
    %a = ttg.convert_layout %t : tensor<64x64xf16, #cols> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// A computed in registers stays there, as a dot operand of the v3 accumulator.
// CHECK-LABEL: @computed_a
// CHECK: %[[X:.+]] = arith.truncf %arg0
// CHECK-NOT: ttg.local_alloc %[[X]]
// CHECK: %[[A:.+]] = ttg.convert_layout {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @computed_a(%x: tensor<64x64xf32, #blocked>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %h = arith.truncf %x : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %a = ttg.convert_layout %h : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// fp8 B held with N contiguous: stored K-major (transposed), with a warning; A, already
// K-major, without one.
// CHECK-DAG: #[[SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SHT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: @fp8_b_rows
// CHECK-DAG: ttg.local_alloc %arg0 {{.*}} -> !ttg.memdesc<64x64xf8E5M2, #[[SH]], #smem>
// CHECK-DAG: ttg.local_alloc %arg1 {{.*}} -> !ttg.memdesc<64x64xf8E5M2, #[[SHT]], #smem>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_b_rows(%a: tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    // expected-warning @below {{Forcing a different order [0, 1] on SMEM than the register order for the operand 1}}
    %d = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 32 : i32} : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// M = 32 is less than a warp group's 64 rows: mma.sync, nothing in shared memory.
// CHECK-LABEL: @small_m
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.dot {{.*}} -> tensor<32x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @small_m(%a: tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<32x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #blocked>
    tt.return %d : tensor<32x64xf32, #blocked>
  }
}
