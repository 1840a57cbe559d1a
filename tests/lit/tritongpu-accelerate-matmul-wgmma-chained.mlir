// tritongpu-accelerate-matmul on sm_90 with 8 warps: a dot whose result reaches another dot
// (through its users, and through every op inside the regions of a user) puts all its warps
// along M, even where M = 64 leaves the second warp group a copy of the first's rows; a dot
// that only consumes another's result chooses its warps on its own. Must not fire: a dot
// whose result reaches no dot (its producer being a dot does not count), and a dot whose
// result only reaches a dot through a loop's yield (the yield has no results to follow).
// RUN: tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul | filecheck %s

// The first product feeds the second: [8, 1] for it, [4, 2] for the consumer.
// CHECK-DAG: #[[FIRST:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[SECOND:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK-LABEL: @chain_m64
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[FIRST]]>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[SECOND]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chain_m64(%q: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %k: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %v: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %s = tt.dot %q, %k, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %h = arith.truncf %s : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %p = ttg.convert_layout %h : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %p, %v, %zero : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %o : tensor<64x64xf32, #blocked>
  }
}

// -----

// The product is an init value of a loop whose body holds a dot: the slice takes in the
// loop's body, so the product's warps go all along M.
// CHECK-DAG: #[[ALONG_M:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 16]}>
// CHECK-LABEL: @into_loop
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[ALONG_M]]>
// CHECK: scf.for
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @into_loop(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (tensor<64x64xf32, #blocked>) : i32 {
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}

// -----

// Must not fire: the loop's dot reaches the next iteration's dot only through the yield, so
// it splits its warps as an unchained dot does: [4, 1] doubled along N for M = 64.
// CHECK-DAG: #[[SPLIT:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK-LABEL: @through_yield
// CHECK: scf.for
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[SPLIT]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @through_yield(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}
