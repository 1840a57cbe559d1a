// Shared-memory barriers: read after write, write after read, through loops and branches, and
// the cases that need none.
// RUN: tilecraft-opt %s -split-input-file -test-print-membar | filecheck %s

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<16x16xf16, #sh, #smem, mutable>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// CHECK-LABEL: @raw_then_war
// CHECK:      ttg.local_store
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
tt.func @raw_then_war(%t: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md
  %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk>
  ttg.local_store %v, %a : tensor<16x16xf16, #blk> -> !md
  tt.return
}

// Reads after reads, and accesses to different buffers, need no barrier.
// CHECK-LABEL: @no_conflict
// CHECK-NOT: ttg.barrier
// CHECK: tt.return
tt.func @no_conflict(%t: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  %b = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md
  ttg.local_store %t, %b : tensor<16x16xf16, #blk> -> !md
  ttg.local_dealloc %a : !md
  ttg.local_dealloc %b : !md
  tt.return
}

// The store at the end of an iteration conflicts with the load at the start of the next.
// CHECK-LABEL: @loop_carried
// CHECK:      scf.for
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
tt.func @loop_carried(%t: tensor<16x16xf16, #blk>, %lb: index, %ub: index, %st: index) {
  %a = ttg.local_alloc : () -> !md
  scf.for %i = %lb to %ub step %st {
    %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk>
    ttg.local_store %v, %a : tensor<16x16xf16, #blk> -> !md
  }
  tt.return
}

// A write in one branch conflicts with the read after the if.
// CHECK-LABEL: @branch
// CHECK:      scf.if
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: }
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
tt.func @branch(%t: tensor<16x16xf16, #blk>, %c: i1) {
  %a = ttg.local_alloc : () -> !md
  scf.if %c {
    ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md
  }
  %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk>
  tt.return
}

// An existing barrier already separates the accesses.
// CHECK-LABEL: @existing_barrier
// CHECK:      ttg.local_store
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
// CHECK-NOT:  ttg.barrier
tt.func @existing_barrier(%t: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<16x16xf16, #blk> -> !md
  ttg.barrier local
  %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk>
  tt.return
}

}

// -----

// Views of disjoint boxes of one buffer (subslices of the whole buffer in the same layout)
// need no barrier between them; overlapping boxes, or a box and the whole buffer, do.
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!whole = !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
!box = !ttg.memdesc<16x16xf16, #sh, #smem, mutable, 32x32>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// CHECK-LABEL: @disjoint_subslices
// CHECK:      ttg.local_store
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
tt.func @disjoint_subslices(%t: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !whole
  %top = ttg.memdesc_subslice %a[0, 0] : !whole -> !box
  %bottom = ttg.memdesc_subslice %a[16, 0] : !whole -> !box
  %half = ttg.memdesc_subslice %a[16, 0] : !whole -> !ttg.memdesc<16x32xf16, #sh, #smem, mutable, 32x32>
  ttg.local_store %t, %top : tensor<16x16xf16, #blk> -> !box
  %v = ttg.local_load %bottom : !box -> tensor<16x16xf16, #blk>
  %w = ttg.local_load %half : !ttg.memdesc<16x32xf16, #sh, #smem, mutable, 32x32> -> tensor<16x32xf16, #blk>
  ttg.local_store %t, %bottom : tensor<16x16xf16, #blk> -> !box
  %x = ttg.local_load %a : !whole -> tensor<32x32xf16, #blk>
  tt.return
}

}

// -----

// ttg.warp_specialize: the default region runs between what comes before and after the op;
// the partitions start after a barrier (the partitions op) and their explicit captures alias
// the captured buffers.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<4xi32, #sh, #smem, mutable>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// CHECK-LABEL: @into_default_region
// CHECK:      default {
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.warp_yield
// CHECK:      } : () -> ()
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
tt.func @into_default_region(%t: tensor<4xi32>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<4xi32> -> !md
  ttg.warp_specialize()
  default {
    %v = ttg.local_load %a : !md -> tensor<4xi32>
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  } : () -> ()
  ttg.local_store %t, %a : tensor<4xi32> -> !md
  tt.return
}

// The store before the op is synchronized by the partitions op: no barrier before the first
// access of a partition, but one between its own store and load of the captured buffer.
// CHECK-LABEL: @partition_captures
// CHECK:      partition0(%{{.*}}: !ttg.memdesc<4xi32, #shared, #smem, mutable>) num_warps(4) {
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.warp_return
tt.func @partition_captures(%t: tensor<4xi32>) {
  %a = ttg.local_alloc : () -> !md
  ttg.local_store %t, %a : tensor<4xi32> -> !md
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%arg0: !md) num_warps(4) {
    %v = ttg.local_load %arg0 : !md -> tensor<4xi32>
    ttg.local_store %v, %arg0 : tensor<4xi32> -> !md
    ttg.warp_return
  } : (!md) -> ()
  tt.return
}

}

// -----

// ttng.warp_group_dot reads its shared-memory operands (through views), so a later write into
// one of them waits for a barrier; a write into another buffer does not.
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<64x64xf16, #sh, #smem, mutable>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// CHECK-LABEL: @wgmma_reads_operands
// CHECK:      ttng.warp_group_dot
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[OTHER:.*]] :
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store
tt.func @wgmma_reads_operands(%t: tensor<64x64xf16, #blk>, %c: tensor<64x64xf32, #mma>) {
  %a = ttg.local_alloc : () -> !md
  %b = ttg.local_alloc : () -> !md
  %other = ttg.local_alloc : () -> !md
  %bt = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !md -> !ttg.memdesc<64x64xf16, #shT, #smem, mutable>
  %d = ttng.warp_group_dot %a, %bt, %c : !md * !ttg.memdesc<64x64xf16, #shT, #smem, mutable> -> tensor<64x64xf32, #mma>
  ttg.local_store %t, %other : tensor<64x64xf16, #blk> -> !md
  ttg.local_store %t, %b : tensor<64x64xf16, #blk> -> !md
  tt.return
}

}

// -----

// An asynchronous copy into a buffer (its type written with or without `!ttg.memdesc`) and a
// read of that buffer: the read waits for a barrier.
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: @async_copy_then_load
// CHECK:      ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
tt.func @async_copy_then_load(%p: tensor<16x16x!tt.ptr<f16>, #blk>) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  %t = ttg.async_copy_global_to_local %p, %a : tensor<16x16x!tt.ptr<f16>, #blk> -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  %u = ttg.async_copy_global_to_local %p, %b : tensor<16x16x!tt.ptr<f16>, #blk> -> <16x16xf16, #sh, #smem, mutable>
  %v = ttg.local_load %a : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}
}

// -----

// Adjacent async waits (the prefetch pass waits once per operand for the next iteration) are
// followed by one barrier, after the last of them. Must not fire: waits with an op between
// them each get their barrier.
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: @adjacent_waits
// CHECK:      ttg.async_wait {num = 1 : i32}
// CHECK-NEXT: ttg.async_wait {num = 1 : i32}
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
// CHECK-NOT:  ttg.barrier
// CHECK:      tt.return
tt.func @adjacent_waits() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  %w0 = ttg.async_wait {num = 1 : i32}
  %w1 = ttg.async_wait {num = 1 : i32}
  %v = ttg.local_load %a token %w0 : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}

// CHECK-LABEL: @separate_waits
// CHECK:      ttg.async_wait {num = 1 : i32}
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.async_wait {num = 1 : i32}
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_load
tt.func @separate_waits(%i: i32) {
  %a = ttg.local_alloc : () -> !ttg.memdesc<2x16x16xf16, #sh, #smem, mutable>
  %w0 = ttg.async_wait {num = 1 : i32}
  %v0 = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x16x16xf16, #sh, #smem, mutable> -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  %w1 = ttg.async_wait {num = 1 : i32}
  %v = ttg.local_load %v0 token %w1 : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}
}
