// ttng's TMA copies print as Triton writes them (coordinates in brackets, the barrier and
// predicate, the cache and eviction clauses) and read back the same.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s | tilecraft-opt | filecheck %s

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
// CHECK-LABEL: tt.func @tma_copies
// CHECK-NEXT:    %[[BUF:.+]] = ttg.local_alloc
// CHECK-NEXT:    %[[BAR:.+]] = ttg.local_alloc
// CHECK-NEXT:    ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1] %[[BUF]], %[[BAR]], %arg2 : !tt.tensordesc<64x64xf16, #{{.+}}>, !ttg.memdesc<1xi64, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable>
// CHECK-NEXT:    ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1] %[[BUF]], %[[BAR]], %arg2 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : !tt.tensordesc<64x64xf16, #{{.+}}>, !ttg.memdesc<1xi64, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable>
// CHECK-NEXT:    ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg1] %[[BUF]] : !tt.tensordesc<64x64xf16, #{{.+}}>, !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable>
tt.func @tma_copies(%d: !tt.tensordesc<64x64xf16, #shared>, %x: i32, %p: i1) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
  ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %b, %p : !tt.tensordesc<64x64xf16, #shared>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %b, %p cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : !tt.tensordesc<64x64xf16, #shared>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  ttng.async_tma_copy_local_to_global %d[%x, %x] %buf : !tt.tensordesc<64x64xf16, #shared>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  tt.return
}
}
