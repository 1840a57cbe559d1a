// tritongpu-pipeline makes the wgmma of every loop of one stage or more asynchronous, also
// loops with nothing to pipeline and outer loops: a dot that reads memory that stays put
// (defined before the loop, or carried by it) and only feeds its loop-carried f32 accumulator
// leaves one dot in flight per iteration and is waited for after the loop; any other dot is
// waited for right after it. Must not fire: a loop marked tt.num_stages = 0 keeps its dot
// synchronous; a dot whose result is read in the body, one whose operand is stored in the body,
// and one into an f16 accumulator get a wait for all dots right after them.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-pipeline=num-stages=3 -canonicalize | filecheck %s

// Loop-invariant operands, the result only carried: one dot in flight, all waited for after.
// CHECK-LABEL: @invariant_operands
// CHECK: scf.for
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot {{.*}}isAsync = true
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %arg0, %arg1 {pendings = 1 : i32}
// CHECK-NEXT: scf.yield %[[W]]#0
// CHECK-NEXT: }
// CHECK-NEXT: ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @invariant_operands(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// The inner loop of two: its dot is in flight across iterations; the outer loop's body waits
// for it after the inner loop.
// CHECK-LABEL: @nested
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttng.warp_group_dot {{.*}}isAsync = true
// CHECK-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nested(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %inner = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %outer) -> (tensor<64x64xf32, #mma>) : i32 {
        %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      scf.yield %inner : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Must not fire: tt.num_stages = 0.
// CHECK-LABEL: @no_stages
// CHECK-NOT: isAsync
// CHECK-NOT: ttng.warp_group_dot_wait
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_stages(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.num_stages = 0 : i32}
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Must not fire: the result read in the body, an operand stored in the body, an f16
// accumulator: each dot is waited for at once.
// CHECK-LABEL: @read_in_body
// CHECK: %[[D:.+]] = ttng.warp_group_dot {{.*}}isAsync = true
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %{{.+}}, %{{.+}} {pendings = 0 : i32}
// CHECK-NEXT: arith.addf %[[W]]#0
// CHECK-LABEL: @stored_in_body
// CHECK: ttg.local_alloc
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot {{.*}}isAsync = true
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], {{.*}} {pendings = 0 : i32}
// CHECK-LABEL: @f16_accumulator
// CHECK: %[[D:.+]] = ttng.warp_group_dot {{.*}}isAsync = true
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], {{.*}} {pendings = 0 : i32}
// CHECK-NOT: pendings = 1
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @read_in_body(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %e = arith.addf %d, %d : tensor<64x64xf32, #mma>
      scf.yield %e : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func @stored_in_body(%x: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func @f16_accumulator(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf16, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf16, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #mma>
      scf.yield %d : tensor<64x64xf16, #mma>
    }
    tt.return %r : tensor<64x64xf16, #mma>
  }
}
