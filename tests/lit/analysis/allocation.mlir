// Shared-memory allocation: buffers live at the same time never overlap, dead ones are reused,
// scratch buffers live only at their op, calls reserve the callee's memory; and
// allocate-shared-memory records the offsets and the module's total.
// RUN: tilecraft-opt %s -split-input-file -test-print-allocation -verify-diagnostics -o /dev/null
// RUN: tilecraft-opt %s -split-input-file -allocate-shared-memory | filecheck %s

#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// CHECK-LABEL: module attributes
// CHECK-SAME: ttg.shared = 3072 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// %x and %y are live together; %z comes after %x died and takes its place.
// CHECK-LABEL: @overlap_and_reuse
// expected-remark @below {{overlap_and_reuse}}
// expected-remark @below {{size = 3072}}
tt.func @overlap_and_reuse() {
  // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
  // expected-remark @below {{offset = 0, size = 2048}}
  %x = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
  // CHECK: ttg.local_alloc {allocation.offset = 2048 : i32}
  // expected-remark @below {{offset = 2048, size = 1024}}
  %y = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #sh, #smem, mutable>
  ttg.local_dealloc %x : !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
  // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
  // expected-remark @below {{offset = 0, size = 2048}}
  %z = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
  ttg.local_dealloc %y : !ttg.memdesc<16x32xf16, #sh, #smem, mutable>
  ttg.local_dealloc %z : !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
  tt.return
}

// A conversion between layouts that exchange elements across warps needs the whole tensor in
// scratch memory, only while it runs; one that keeps elements in place needs none.
// CHECK-LABEL: @scratch_at_op
// expected-remark @below {{scratch_at_op}}
// expected-remark @below {{size = 2048}}
tt.func @scratch_at_op(%t: tensor<32x32xf16, #blk>) {
  // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
  // expected-remark @below {{scratch offset = 0, size = 2048}}
  %0 = ttg.convert_layout %t : tensor<32x32xf16, #blk> -> tensor<32x32xf16, #row>
  // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
  // expected-remark @below {{scratch offset = 0, size = 2048}}
  %1 = ttg.convert_layout %0 : tensor<32x32xf16, #row> -> tensor<32x32xf16, #blk>
  // CHECK: ttg.convert_layout %{{.*}} :
  %2 = ttg.convert_layout %1 : tensor<32x32xf16, #blk> -> tensor<32x32xf16, #blk>
  tt.return
}

// A buffer used inside a loop lives across the whole loop: the one allocated in the body
// cannot take its place.
// expected-remark @below {{loop_keeps_outer}}
// expected-remark @below {{size = 1024}}
tt.func @loop_keeps_outer(%lb: index, %ub: index, %st: index) {
  // expected-remark @below {{offset = 0, size = 512}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  scf.for %i = %lb to %ub step %st {
    // expected-remark @below {{offset = 512, size = 512}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
    %v = ttg.local_load %a : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
    ttg.local_store %v, %b : tensor<16x16xf16, #blk> -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  }
  tt.return
}

// expected-remark @below {{callee}}
// expected-remark @below {{size = 512}}
tt.func @callee() {
  // expected-remark @below {{offset = 0, size = 512}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  tt.return
}

// The call reserves the callee's 512 bytes next to the live buffer.
// CHECK-LABEL: @caller
// expected-remark @below {{caller}}
// expected-remark @below {{size = 1024}}
tt.func @caller() {
  // expected-remark @below {{offset = 0, size = 512}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #sh, #smem, mutable>
  // CHECK: tt.call @callee() {allocation.offset = 512 : i32}
  // expected-remark @below {{virtual offset = 512, size = 512}}
  tt.call @callee() : () -> ()
  %v = ttg.local_load %a : !ttg.memdesc<16x16xf16, #sh, #smem, mutable> -> tensor<16x16xf16, #blk>
  tt.return
}

}

// -----

// ttg.warp_specialize: the function keeps one byte per partition warp (the largest total of
// its warp_specialize ops) for its whole life, the op packs its explicit captures into scratch
// memory (8 bytes of base plus 4 per dimension for a shared-memory descriptor, a scalar's own
// bytes), buffers of regions that run at the same time never share memory even when their
// live ranges do not meet, and a result of the op aliases what the default region yields.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<4xi32, #sh, #smem, mutable>

module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// CHECK-LABEL: tt.func @concurrent_regions() attributes {allocation.offset = 48 : i32}
// expected-remark @below {{concurrent_regions}}
// expected-remark @below {{size = 54}}
// expected-remark @below {{scratch offset = 48, size = 6}}
tt.func @concurrent_regions() {
  ttg.warp_specialize()
  default {
    // expected-remark @below {{offset = 0, size = 16}}
    %a = ttg.local_alloc : () -> !md
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    // expected-remark @below {{offset = 16, size = 16}}
    %b = ttg.local_alloc : () -> !md
    ttg.warp_return
  }
  partition1() num_warps(2) {
    // The two buffers of one partition are not live together: they share memory.
    // expected-remark @below {{offset = 32, size = 16}}
    %c = ttg.local_alloc : () -> !md
    // expected-remark @below {{offset = 32, size = 16}}
    %d = ttg.local_alloc : () -> !md
    ttg.warp_return
  } : () -> ()
  tt.return
}

// The 21 bytes of captures come first (largest first), %a after them at its alignment.
// expected-remark @below {{captures}}
// expected-remark @below {{size = 49}}
// expected-remark @below {{scratch offset = 48, size = 1}}
tt.func @captures(%x: i8, %p: !tt.ptr<f32>) {
  // expected-remark @below {{offset = 32, size = 16}}
  %a = ttg.local_alloc : () -> !md
  // expected-remark @below {{scratch offset = 0, size = 21}}
  ttg.warp_specialize(%a, %x, %p)
  default {
    ttg.warp_yield
  }
  partition0(%arg0: !md, %arg1: i8, %arg2: !tt.ptr<f32>) num_warps(1) {
    ttg.warp_return
  } : (!md, i8, !tt.ptr<f32>) -> ()
  tt.return
}

// %r is %a: %b, allocated while %r is still used, cannot take %a's place.
// expected-remark @below {{alias_through_results}}
// expected-remark @below {{size = 33}}
// expected-remark @below {{scratch offset = 32, size = 1}}
tt.func @alias_through_results() {
  // expected-remark @below {{offset = 0, size = 16}}
  %a = ttg.local_alloc : () -> !md
  %r = ttg.warp_specialize()
  default {
    ttg.warp_yield %a : !md
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> !md
  // expected-remark @below {{offset = 16, size = 16}}
  %b = ttg.local_alloc : () -> !md
  %v = ttg.local_load %r : !md -> tensor<4xi32>
  tt.return
}

}

// -----

// A padded shared buffer holds its padding: after every 32 elements 4 more and after every 64
// another 8, none after the last element (16x32 = 512 elements: 15 * 4 + 7 * 8 = 116 more);
// a buffer shorter than the interval gets none.
#p = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [16, 32]}>
#q = #ttg.padded_shared<[32:+4] {order = [0], shape = [16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// expected-remark @below {{padded}}
// expected-remark @below {{size = 1296}}
tt.func @padded() {
  // expected-remark @below {{offset = 0, size = 1256}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #p, #smem, mutable>
  // expected-remark @below {{offset = 1264, size = 32}}
  %b = ttg.local_alloc : () -> !ttg.memdesc<16xi16, #q, #smem, mutable>
  %v = ttg.local_load %a : !ttg.memdesc<16x32xf16, #p, #smem, mutable> -> tensor<16x32xf16>
  tt.return
}
}
