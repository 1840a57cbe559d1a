// tritongpu-prefetch: in a loop, an mma.sync dot reads its operands one K slice (16 for f16)
// at a time, and the first slice of the next iteration is loaded before the loop ends. Must
// not fire: dots outside loops, loops with two dots, a K of one slice or less, operands
// stored in the body (nothing to recompute ahead), dots on CUDA cores.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-prefetch -canonicalize | filecheck %s

// The pipeliner's form: the operands are views of a ring of buffers at a loop-carried slot,
// loaded after an async_wait. The prologue waits and loads slot 0's first slices; the views
// and the wait (once per operand) are carried into the loop, where each iteration multiplies
// the carried slices, loads its second slices from the carried views, then makes the next
// slot's views and waits (again once per operand), loads their first slices before its last
// dot and yields views, waits and slices.
// CHECK-LABEL: @ring
// CHECK-DAG: %[[A0:.+]] = ttg.memdesc_index %[[ABUF:.+]][%c0_i32]
// CHECK-DAG: %[[B0:.+]] = ttg.memdesc_index %[[BBUF:.+]][%c0_i32]
// CHECK-DAG: %[[W0:.+]] = ttg.async_wait {num = 1 : i32}
// CHECK-DAG: %[[A0S:.+]] = ttg.memdesc_subslice %[[A0]][0, 0] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
// CHECK-DAG: %[[AH:.+]] = ttg.local_load %[[A0S]] token %[[W0]] : {{.*}} -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-DAG: %[[B0S:.+]] = ttg.memdesc_subslice %[[B0]][0, 0] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 32x64>
// CHECK-DAG: %[[BH:.+]] = ttg.local_load %[[B0S]] token %[[W0]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[SLOT:.+]] = %c0_i32, %[[ACC:.+]] = %{{.+}}, %[[AV:.+]] = %[[A0]], %[[BV:.+]] = %[[B0]], %[[AW:.+]] = %[[W0]], %[[BW:.+]] = %[[W0]], %[[AARG:.+]] = %[[AH]], %[[BARG:.+]] = %[[BH]])
// CHECK: ttg.async_wait {num = 1 : i32}
// CHECK-DAG: %[[A1S:.+]] = ttg.memdesc_subslice %[[AV]][0, 16]
// CHECK-DAG: %[[A1:.+]] = ttg.local_load %[[A1S]] token %[[AW]]
// CHECK-DAG: %[[B1S:.+]] = ttg.memdesc_subslice %[[BV]][16, 0]
// CHECK-DAG: %[[B1:.+]] = ttg.local_load %[[B1S]] token %[[BW]]
// CHECK: %[[D0:.+]] = tt.dot %[[AARG]], %[[BARG]], %[[ACC]]
// CHECK: %[[NEXT:.+]] = arith.select
// CHECK-NEXT: %[[AN:.+]] = ttg.memdesc_index %[[ABUF]][%[[NEXT]]]
// CHECK-NEXT: %[[BN:.+]] = ttg.memdesc_index %[[BBUF]][%[[NEXT]]]
// CHECK-NEXT: %[[AWN:.+]] = ttg.async_wait {num = 1 : i32}
// CHECK-NEXT: %[[BWN:.+]] = ttg.async_wait {num = 1 : i32}
// CHECK-DAG: %[[ANS:.+]] = ttg.memdesc_subslice %[[AN]][0, 0]
// CHECK-DAG: %[[ANH:.+]] = ttg.local_load %[[ANS]] token %[[AWN]]
// CHECK-DAG: %[[BNS:.+]] = ttg.memdesc_subslice %[[BN]][0, 0]
// CHECK-DAG: %[[BNH:.+]] = ttg.local_load %[[BNS]] token %[[BWN]]
// CHECK: %[[D1:.+]] = tt.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK-NEXT: scf.yield %[[NEXT]], %[[D1]], %[[AN]], %[[BN]], %[[AWN]], %[[BWN]], %[[ANH]], %[[BNH]]
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ring(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%slot = %c0, %acc = %zero) -> (i32, tensor<64x64xf32, #mma>) : i32 {
      %w = ttg.async_wait {num = 1 : i32}
      %av = ttg.memdesc_index %a[%slot] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %x = ttg.local_load %av token %w : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bv = ttg.memdesc_index %b[%slot] : !ttg.memdesc<3x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      %y = ttg.local_load %bv token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %s1 = arith.addi %slot, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %wrap, %c0, %s1 : i32
      scf.yield %next, %d : i32, tensor<64x64xf32, #mma>
    }
    tt.return %r#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// Loop-carried buffers and an fp8 A widened after its load: the widening is repeated on each
// slice, before the loop and at the end of the body.
// CHECK-LABEL: @carried_widened
// CHECK: %[[AH:.+]] = ttg.local_load %{{.+}} : !ttg.memdesc<64x16xf8E5M2, {{.*}}> -> tensor<64x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[AHW:.+]] = tt.fp_to_fp %[[AH]] : tensor<64x16xf8E5M2, {{.*}}> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[BH:.+]] = ttg.local_load
// CHECK: scf.for {{.*}} iter_args(%[[ABUF:.+]] = %arg0, %[[BBUF:.+]] = %arg1, %[[ACC:.+]] = %{{.+}}, %[[AARG:.+]] = %[[AHW]], %[[BARG:.+]] = %[[BH]])
// CHECK: ttg.memdesc_subslice %[[ABUF]][0, 16]
// CHECK: tt.fp_to_fp
// CHECK: ttg.memdesc_subslice %[[BBUF]][16, 0]
// CHECK: %[[D0:.+]] = tt.dot %[[AARG]], %[[BARG]], %[[ACC]]
// CHECK: ttg.memdesc_subslice %arg3[0, 0]
// CHECK: %[[ANW:.+]] = tt.fp_to_fp
// CHECK: %[[BN:.+]] = ttg.local_load
// CHECK: %[[D1:.+]] = tt.dot {{.*}}, %[[D0]]
// CHECK-NEXT: scf.yield %arg3, %arg4, %[[D1]], %[[ANW]], %[[BN]]
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried_widened(%a0: !ttg.memdesc<64x32xf8E5M2, #shared, #smem>, %b0: !ttg.memdesc<32x64xf16, #shared, #smem>, %n: i32, %a1: !ttg.memdesc<64x32xf8E5M2, #shared, #smem>, %b1: !ttg.memdesc<32x64xf16, #shared, #smem>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %zero) -> (!ttg.memdesc<64x32xf8E5M2, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) : i32 {
      %x8 = ttg.local_load %a : !ttg.memdesc<64x32xf8E5M2, #shared, #smem> -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %x = tt.fp_to_fp %x8 : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %a1, %b1, %d : !ttg.memdesc<64x32xf8E5M2, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// Left alone: a dot outside a loop, a loop with two dots, a K of one slice, and operands
// stored in the body.
// CHECK-LABEL: @outside_loop
// CHECK-NOT: ttg.memdesc_subslice
// CHECK-LABEL: @two_dots
// CHECK-NOT: ttg.memdesc_subslice
// CHECK-LABEL: @one_slice
// CHECK-NOT: ttg.memdesc_subslice
// CHECK-LABEL: @stored_in_body
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @outside_loop(%a: !ttg.memdesc<32x32xf16, #shared, #smem>, %b: !ttg.memdesc<32x32xf16, #shared, #smem>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    %x = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %x, %y, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
  tt.func @two_dots(%a0: !ttg.memdesc<32x32xf16, #shared, #smem>, %b0: !ttg.memdesc<32x32xf16, #shared, #smem>, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %zero) -> (!ttg.memdesc<32x32xf16, #shared, #smem>, !ttg.memdesc<32x32xf16, #shared, #smem>, tensor<32x32xf32, #mma>) : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %x2 = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y2 = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %e = tt.dot %x2, %y2, %d : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      scf.yield %a, %b, %e : !ttg.memdesc<32x32xf16, #shared, #smem>, !ttg.memdesc<32x32xf16, #shared, #smem>, tensor<32x32xf32, #mma>
    }
    tt.return %r#2 : tensor<32x32xf32, #mma>
  }
  tt.func @one_slice(%a0: !ttg.memdesc<32x8xf16, #shared, #smem>, %b0: !ttg.memdesc<8x32xf16, #shared, #smem>, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %zero) -> (!ttg.memdesc<32x8xf16, #shared, #smem>, !ttg.memdesc<8x32xf16, #shared, #smem>, tensor<32x32xf32, #mma>) : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<32x8xf16, #shared, #smem> -> tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %b : !ttg.memdesc<8x32xf16, #shared, #smem> -> tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      scf.yield %a, %b, %d : !ttg.memdesc<32x8xf16, #shared, #smem>, !ttg.memdesc<8x32xf16, #shared, #smem>, tensor<32x32xf32, #mma>
    }
    tt.return %r#2 : tensor<32x32xf32, #mma>
  }
  tt.func @stored_in_body(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #mma>) : i32 {
      %l = tt.load %p : tensor<32x32x!tt.ptr<f16>, #blocked>
      %s = ttg.local_alloc %l : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %x = ttg.local_load %s : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %s : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      scf.yield %d : tensor<32x32xf32, #mma>
    }
    tt.return %r : tensor<32x32xf32, #mma>
  }
}
