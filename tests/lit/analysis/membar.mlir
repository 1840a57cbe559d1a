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
