// tritongpu-pipeline makes the descriptor stores of loops of more than one stage asynchronous on
// sm_90: each waits for the TMA stores before it, writes one buffer allocated before the loop,
// fences and starts a TMA store; after the loop, a wait and the buffers are freed. Stores of one
// shape and element type share the buffer. Must not fire: a store outside any loop, a loop of
// one stage or none, a store of a descriptor TMA cannot move, an sm_80 module, and a store in
// a nested loop for the outer loop. Loops that make descriptors: see
// tritongpu-pipeline-made-descriptors.mlir.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-pipeline=num-stages=3 | filecheck %s

// One store in a loop; the descriptor names no layout: the buffer takes its TMA layout.
// CHECK: #[[TMA:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: @one_store
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[TMA]], #smem, mutable>
// CHECK-NEXT: scf.for %[[I:.+]] = 
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg0, %[[BUF]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg1[%[[I]], %c0_i32] %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NOT: tt.descriptor_store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_store(%v: tensor<64x64xf16, #blocked>, %d: !tt.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    scf.for %i = %c0 to %n step %c64 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// Two stores of one shape share a buffer, a store of another shape gets its own; the store
// under an scf.if waits and stores there. The descriptors' own layouts are kept.
// CHECK-LABEL: @shared_buffers
// CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
// CHECK-NEXT: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<32x64xf32, #shared1, #smem, mutable>
// CHECK-NEXT: scf.for
// CHECK: ttg.local_store %{{.+}}, %[[A]]
// CHECK: ttng.async_tma_copy_local_to_global %arg2[{{.+}}] %[[A]]
// CHECK: ttg.local_store %{{.+}}, %[[B]]
// CHECK: ttng.async_tma_copy_local_to_global %arg3[{{.+}}] %[[B]]
// CHECK: scf.if
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %{{.+}}, %[[A]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg2[{{.+}}] %[[A]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[A]]
// CHECK-NEXT: ttg.local_dealloc %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90a", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_buffers(%v: tensor<64x64xf32, #blocked>, %w: tensor<32x64xf32, #blocked>, %d: !tt.tensordesc<64x64xf32, #shared>, %e: !tt.tensordesc<32x64xf32, #shared1>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf32, #shared>, tensor<64x64xf32, #blocked>
      tt.descriptor_store %e[%i, %c0], %w : !tt.tensordesc<32x64xf32, #shared1>, tensor<32x64xf32, #blocked>
      scf.if %c {
        tt.descriptor_store %d[%c0, %i], %v : !tt.tensordesc<64x64xf32, #shared>, tensor<64x64xf32, #blocked>
      }
    }
    tt.return
  }
}

// -----

// Must not fire: a store after the loop, loops of one stage and of none, a descriptor whose
// blocks TMA cannot move (one dimension, no layout); the inner loop's store is the inner
// loop's, the outer loop gets nothing of it.
// CHECK-LABEL: @left_alone
// CHECK-COUNT-3: tt.descriptor_store
// CHECK: scf.for
// CHECK-NEXT: %[[BUF:.+]] = ttg.local_alloc
// CHECK-NEXT: scf.for
// CHECK: ttng.async_tma_copy_local_to_global %arg1[{{.+}}] %[[BUF]]
// CHECK: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: tt.descriptor_store %arg1
// CHECK-NOT: ttng.async_tma_store_wait
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%v: tensor<64x64xf16, #blocked>, %d: !tt.tensordesc<64x64xf16>, %r: tensor<128xf16, #blocked1>, %d1: !tt.tensordesc<128xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    } {tt.num_stages = 1 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    } {tt.num_stages = 0 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d1[%i], %r : !tt.tensordesc<128xf16>, tensor<128xf16, #blocked1>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
      }
    }
    tt.descriptor_store %d[%c0, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// Must not fire on sm_80 (no TMA).
// CHECK-LABEL: @sm80
// CHECK-NOT: ttng.
// CHECK: tt.descriptor_store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm80(%v: tensor<64x64xf16, #blocked>, %d: !tt.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}
