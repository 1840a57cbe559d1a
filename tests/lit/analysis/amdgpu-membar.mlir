// AMD's barrier filter (-test-tritonamdgpu-membar): a local load whose token comes from an
// async wait needs no barrier against async copies into the same buffer. Each function runs
// through both passes: PLAIN (no filter) shows the barrier the filter removes, or keeps.
// RUN: tilecraft-opt %s -split-input-file -test-print-membar | filecheck %s --check-prefix=PLAIN
// RUN: tilecraft-opt %s -split-input-file -test-tritonamdgpu-membar | filecheck %s --check-prefix=AMD

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
!md2 = !ttg.memdesc<2x16x16xf16, #sh, #smem, mutable>
!ptrs = tensor<16x16x!tt.ptr<f16>, #blk>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// Double buffering: the load of stage 0 waited for its copy; the copy into stage 1 (the same
// allocation) needs no barrier after it under AMD's filter. The wait's barrier stays.
// PLAIN-LABEL: @prefetch_after_synced_load
// PLAIN:      ttg.async_wait
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NEXT: ttg.local_load
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NEXT: ttg.async_copy_global_to_local
// AMD-LABEL: @prefetch_after_synced_load
// AMD:      ttg.async_wait
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = true}
// AMD-NEXT: ttg.async_copy_global_to_local
// AMD-NOT:  ttg.barrier
// AMD:      tt.return
tt.func @prefetch_after_synced_load(%p: !ptrs) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = ttg.local_alloc : () -> !md2
  %s0 = ttg.memdesc_index %buf[%c0] : !md2 -> !md
  %s1 = ttg.memdesc_index %buf[%c1] : !md2 -> !md
  %t0 = ttg.async_copy_global_to_local %p, %s0 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w = ttg.async_wait %t0 {num = 0 : i32}
  %v = ttg.local_load %s0 token %w : !md -> tensor<16x16xf16, #blk>
  %t1 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  tt.return
}

// The other order: copy first, then the synced load (read after the copy's write).
// PLAIN-LABEL: @synced_load_after_prefetch
// PLAIN:      ttg.async_wait
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NEXT: ttg.async_copy_global_to_local
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NEXT: ttg.local_load
// AMD-LABEL: @synced_load_after_prefetch
// AMD:      ttg.async_wait
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
// AMD-NEXT: ttg.local_load
// AMD-NEXT: tt.return
tt.func @synced_load_after_prefetch(%p: !ptrs) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = ttg.local_alloc : () -> !md2
  %s0 = ttg.memdesc_index %buf[%c0] : !md2 -> !md
  %s1 = ttg.memdesc_index %buf[%c1] : !md2 -> !md
  %t0 = ttg.async_copy_global_to_local %p, %s0 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w = ttg.async_wait %t0 {num = 0 : i32}
  %t1 = ttg.async_copy_global_to_local %p, %s1 : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %v = ttg.local_load %s0 token %w : !md -> tensor<16x16xf16, #blk>
  tt.return
}

// Must fire: a load without a token is not synced via a wait.
// PLAIN-LABEL: @load_without_token
// AMD-LABEL: @load_without_token
// AMD:      ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = false}
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
tt.func @load_without_token(%p: !ptrs) {
  %a = ttg.local_alloc : () -> !md
  %v = ttg.local_load %a : !md -> tensor<16x16xf16, #blk>
  %t = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  tt.return
}

// Must fire: the load's token is the copy's own, not a wait's.
// PLAIN-LABEL: @token_from_copy
// AMD-LABEL: @token_from_copy
// AMD:      ttg.async_copy_global_to_local
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = false}
tt.func @token_from_copy(%p: !ptrs) {
  %a = ttg.local_alloc : () -> !md
  %t = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %v = ttg.local_load %a token %t : !md -> tensor<16x16xf16, #blk>
  tt.return
}

// Must fire: only async copies are filtered; a local_store after a synced load keeps its
// barrier, and so does a second copy into the same buffer (write after write).
// PLAIN-LABEL: @store_and_second_copy
// AMD-LABEL: @store_and_second_copy
// AMD:      ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = true}
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.local_store
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
tt.func @store_and_second_copy(%p: !ptrs, %x: tensor<16x16xf16, #blk>) {
  %a = ttg.local_alloc : () -> !md
  %t0 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w = ttg.async_wait %t0 {num = 0 : i32}
  %v = ttg.local_load %a token %w : !md -> tensor<16x16xf16, #blk>
  ttg.local_store %x, %a : tensor<16x16xf16, #blk> -> !md
  %t1 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %t2 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  tt.return
}

// A copy into another allocation than the loaded one does not conflict with the load in
// either pass (the filter only ever removes barriers that conflicts would insert).
// PLAIN-LABEL: @different_buffers
// PLAIN:      ttg.async_wait
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NOT:  ttg.barrier local
// PLAIN:      tt.return
// AMD-LABEL: @different_buffers
// AMD:      ttg.async_wait
// AMD-NEXT: ttg.barrier local
// AMD-NOT:  ttg.barrier local
// AMD:      tt.return
tt.func @different_buffers(%p: !ptrs) {
  %a = ttg.local_alloc : () -> !md
  %b = ttg.local_alloc : () -> !md
  %t0 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w = ttg.async_wait %t0 {num = 0 : i32}
  %v = ttg.local_load %a token %w : !md -> tensor<16x16xf16, #blk>
  %t1 = ttg.async_copy_global_to_local %p, %b : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  tt.return
}

}

// -----

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
!ptrs = tensor<16x16x!tt.ptr<f16>, #blk>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// A loop in branches: the token reaches the load through a block argument that both the entry
// and the back edge fill with a wait's token, so the copy in the body needs no barrier; the
// wait at the end of the body keeps its own.
// PLAIN-LABEL: @loop_token_from_waits
// PLAIN:      ttg.local_load
// PLAIN-NEXT: ttg.barrier local
// PLAIN-NEXT: ttg.async_copy_global_to_local
// AMD-LABEL: @loop_token_from_waits
// AMD:      cf.br ^bb1
// AMD-NEXT: ^bb1
// AMD-NEXT: ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = true}
// AMD-NEXT: ttg.async_copy_global_to_local
// AMD-NEXT: ttg.async_wait
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: cf.cond_br
tt.func @loop_token_from_waits(%p: !ptrs, %c: i1) {
  %a = ttg.local_alloc : () -> !md
  %t0 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w0 = ttg.async_wait %t0 {num = 0 : i32}
  cf.br ^bb1(%w0 : !ttg.async.token)
^bb1(%tok: !ttg.async.token):
  %v = ttg.local_load %a token %tok : !md -> tensor<16x16xf16, #blk>
  %t1 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w1 = ttg.async_wait %t1 {num = 0 : i32}
  cf.cond_br %c, ^bb1(%w1 : !ttg.async.token), ^bb2
^bb2:
  tt.return
}

// Must fire: the same loop entered with the copy's token (not a wait's).
// PLAIN-LABEL: @loop_entry_token_from_copy
// AMD-LABEL: @loop_entry_token_from_copy
// AMD:      cf.br ^bb1
// AMD-NEXT: ^bb1
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = false}
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
tt.func @loop_entry_token_from_copy(%p: !ptrs, %c: i1) {
  %a = ttg.local_alloc : () -> !md
  %t0 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  cf.br ^bb1(%t0 : !ttg.async.token)
^bb1(%tok: !ttg.async.token):
  %v = ttg.local_load %a token %tok : !md -> tensor<16x16xf16, #blk>
  %t1 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w1 = ttg.async_wait %t1 {num = 0 : i32}
  cf.cond_br %c, ^bb1(%w1 : !ttg.async.token), ^bb2
^bb2:
  tt.return
}

// A block that passes its own argument back to itself adds no other definition, so the load
// is synced. Must fire: the copy still gets a barrier, for the previous iteration's copy into
// the same buffer (write after write between two copies is never filtered).
// PLAIN-LABEL: @self_loop_token
// AMD-LABEL: @self_loop_token
// AMD:      cf.br ^bb1
// AMD-NEXT: ^bb1
// AMD-NEXT: ttg.local_load {{.*}}{ttg.amdg.syncedViaAsyncWait = true}
// AMD-NEXT: ttg.barrier local
// AMD-NEXT: ttg.async_copy_global_to_local
// AMD-NEXT: cf.cond_br
tt.func @self_loop_token(%p: !ptrs, %c: i1) {
  %a = ttg.local_alloc : () -> !md
  %t0 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  %w0 = ttg.async_wait %t0 {num = 0 : i32}
  cf.br ^bb1(%w0 : !ttg.async.token)
^bb1(%tok: !ttg.async.token):
  %v = ttg.local_load %a token %tok : !md -> tensor<16x16xf16, #blk>
  %t1 = ttg.async_copy_global_to_local %p, %a : !ptrs -> <16x16xf16, #sh, #smem, mutable>
  cf.cond_br %c, ^bb1(%tok : !ttg.async.token), ^bb2
^bb2:
  tt.return
}

}
