// tritongpu-prefetch: an mma dot whose operands are local_loads becomes a chain of dots over
// one mma.sync K slice each (16 for f16), each loading its memdesc_subslice views; it must
// leave alone dots of one slice, dots on CUDA cores and operands with other users.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-prefetch | filecheck %s

// CHECK-LABEL: @two_slices
// CHECK: %[[A0:.+]] = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem, 32x32>
// CHECK: %[[LA0:.+]] = ttg.local_load %[[A0]] : {{.*}} -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[B0:.+]] = ttg.memdesc_subslice %arg1[0, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem, 32x32>
// CHECK: %[[LB0:.+]] = ttg.local_load %[[B0]]
// CHECK: %[[D0:.+]] = tt.dot %[[LA0]], %[[LB0]], %arg2
// CHECK: %[[A1:.+]] = ttg.memdesc_subslice %arg0[0, 16]
// CHECK: %[[LA1:.+]] = ttg.local_load %[[A1]]
// CHECK: %[[B1:.+]] = ttg.memdesc_subslice %arg1[16, 0]
// CHECK: %[[LB1:.+]] = ttg.local_load %[[B1]]
// CHECK: %[[D1:.+]] = tt.dot %[[LA1]], %[[LB1]], %[[D0]]
// CHECK: tt.return %[[D1]]
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_slices(%a: !ttg.memdesc<32x32xf16, #shared, #smem>, %b: !ttg.memdesc<32x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    %x = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %x, %y, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
}

// -----

// K is one slice: nothing to split.
// CHECK-LABEL: @one_slice
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.dot
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_slice(%a: !ttg.memdesc<32x16xf16, #shared, #smem>, %b: !ttg.memdesc<16x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    %x = ttg.local_load %a : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<16x32xf16, #shared, #smem> -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %x, %y, %c : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
}

// -----

// An operand that something else reads too keeps its whole load.
// CHECK-LABEL: @shared_operand
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.dot
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_operand(%a: !ttg.memdesc<32x32xf16, #shared, #smem>, %b: !ttg.memdesc<32x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #mma>) -> (tensor<32x32xf32, #mma>, tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %x = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %x, %y, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d, %x : tensor<32x32xf32, #mma>, tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}
