// convert-triton-to-tritongpu must not fire on a module already in ttg form. Its layouts are
// for 4 warps, so it runs with the default options only (other warp counts would make the
// module invalid, as in Triton).
// RUN: tilecraft-opt %s -convert-triton-to-tritongpu='target=cuda:90' | filecheck %s

// Must not fire: every op of a module in ttg form is legal, even where its layouts are not
// the defaults, so nothing is converted; only the module attributes are set from the options.
// CHECK-DAG:   #[[T:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG:   #[[ACC:.+]] = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK:       module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-NEXT:    tt.func @already(%arg0: tensor<32x32xf32, #[[T]]>, %arg1: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #[[ACC]]}>>, %arg2: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #[[ACC]]}>>) -> tensor<32x32xf32, #[[ACC]]>
// CHECK-NEXT:      %[[S:.+]] = arith.addf %arg0, %arg0 : tensor<32x32xf32, #[[T]]>
// CHECK-NEXT:      %[[C:.+]] = ttg.convert_layout %[[S]] : tensor<32x32xf32, #[[T]]> -> tensor<32x32xf32, #[[ACC]]>
// CHECK-NEXT:      %[[D:.+]] = tt.dot %arg1, %arg2, %[[C]] : {{.+}} -> tensor<32x32xf32, #[[ACC]]>
// CHECK-NEXT:      tt.return %[[D]] : tensor<32x32xf32, #[[ACC]]>
#t = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @already(%x: tensor<32x32xf32, #t>, %a: tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>) -> tensor<32x32xf32, #acc> {
    %s = arith.addf %x, %x : tensor<32x32xf32, #t>
    %c = ttg.convert_layout %s : tensor<32x32xf32, #t> -> tensor<32x32xf32, #acc>
    %d = tt.dot %a, %b, %c : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}
