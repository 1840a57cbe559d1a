// #ttg.partitioned_shared allocations: one buffer per partition, holding numGroups of the
// numPartitions * numGroups equal pieces of the tensor (laid out by the partition layout,
// padding included). With a physical partition size, buffers of one allocation that start in
// the same physical partition are moved to the next one; other buffers, and partitions that
// already lie apart, stay where they are.
// RUN: tilecraft-opt %s -test-print-allocation -verify-diagnostics -o /dev/null
// RUN: tilecraft-opt %s '-test-print-allocation=partition-size=4096' -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=PART
// RUN: tilecraft-opt %s -allocate-shared-memory | filecheck %s

// The attribute prints back with the alias of its partition layout.
// CHECK-DAG: #[[SW:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #[[SW]]}>
#sw = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#pad = #ttg.padded_shared<[256:+8] {order = [1, 0], shape = [16, 32]}>
#two = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #sw}>
#four = #ttg.partitioned_shared<{numPartitions = 4, numGroups = 1, partitionDim = 1, partitionLayout = #pad}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// 64x32xf16 = 4096 bytes in 4 pieces of 1024: two buffers of two pieces each.
// CHECK-LABEL: @two_partitions
// CHECK: ttg.local_alloc {allocation.offset = [0 : i32, 2048 : i32]}
// PART-LABEL: remark: two_partitions
// PART:       remark: offset = 0, size = 2048
// PART:       remark: offset = 4096, size = 2048
// PART:       remark: size = 6144
// expected-remark @below {{two_partitions}}
// expected-remark @below {{size = 4096}}
tt.func @two_partitions() {
  // expected-remark @below {{offset = 0, size = 2048}}
  // expected-remark @below {{offset = 2048, size = 2048}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #two, #smem, mutable>
  tt.return
}

// The padded layout pads the whole 64x32 tensor (2048 + 7 * 8 elements): four buffers of
// 1052 bytes, each aligned to 16.
// CHECK-LABEL: @padded_partitions
// CHECK: ttg.local_alloc {allocation.offset = [0 : i32, 1056 : i32, 2112 : i32, 3168 : i32]}
// expected-remark @below {{padded_partitions}}
// expected-remark @below {{size = 4220}}
tt.func @padded_partitions() {
  // expected-remark @below {{offset = 0, size = 1052}}
  // expected-remark @below {{offset = 1056, size = 1052}}
  // expected-remark @below {{offset = 2112, size = 1052}}
  // expected-remark @below {{offset = 3168, size = 1052}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #four, #smem, mutable>
  tt.return
}

// A plain buffer fills the first physical partition; the two partitions after it both start
// in the second one, so the smaller-colored one moves to the third. The plain buffer stays.
// CHECK-LABEL: @beside_a_plain_buffer
// CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
// CHECK: ttg.local_alloc {allocation.offset = [4096 : i32, 5120 : i32]}
// PART-LABEL: remark: beside_a_plain_buffer
// PART:       remark: offset = 0, size = 4096
// PART:       remark: offset = 4096, size = 1024
// PART:       remark: offset = 8192, size = 1024
// PART:       remark: size = 9216
// expected-remark @below {{beside_a_plain_buffer}}
// expected-remark @below {{size = 6144}}
tt.func @beside_a_plain_buffer() {
  // expected-remark @below {{offset = 0, size = 4096}}
  %p = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #sw, #smem, mutable>
  // expected-remark @below {{offset = 4096, size = 1024}}
  // expected-remark @below {{offset = 5120, size = 1024}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #two, #smem, mutable>
  ttg.local_dealloc %p : !ttg.memdesc<64x32xf16, #sw, #smem, mutable>
  tt.return
}

// Partitions of a whole physical partition each already lie apart: nothing moves.
// PART-LABEL: remark: already_apart
// PART:       remark: offset = 0, size = 4096
// PART:       remark: offset = 4096, size = 4096
// PART:       remark: size = 8192
// expected-remark @below {{already_apart}}
// expected-remark @below {{size = 8192}}
tt.func @already_apart() {
  // expected-remark @below {{offset = 0, size = 4096}}
  // expected-remark @below {{offset = 4096, size = 4096}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #two, #smem, mutable>
  tt.return
}
}
