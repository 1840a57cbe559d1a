// Ops with several declared results name them after their `.td` results, as MLIR's ODS
// generates getAsmResultNames: each non-empty group is `%<name>` (made unique with the shared
// `_<N>` counter), an absent optional result gets no name, a lone unnamed op keeps `%N`. The
// generic form numbers every value.
// RUN: tilecraft-opt %s -split-input-file | filecheck %s
// RUN: tilecraft-opt %s -split-input-file --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: tt.func @split(%arg0: tensor<16x2xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %outLHS, %outRHS = tt.split %arg0 : tensor<16x2xf32> -> tensor<16xf32>
// CHECK-NEXT:    %outLHS_0, %outRHS_1 = tt.split %arg0 : tensor<16x2xf32> -> tensor<16xf32>
// CHECK-NEXT:    %0 = arith.addf %outLHS, %outRHS_1 : tensor<16xf32>
// CHECK-NEXT:    %1 = arith.addf %0, %outLHS_0 : tensor<16xf32>
// CHECK-NEXT:    %2 = arith.addf %1, %outRHS : tensor<16xf32>
// CHECK-NEXT:    tt.return %2 : tensor<16xf32>

// GENERIC:      %0:2 = "tt.split"(%arg0) : (tensor<16x2xf32>) -> (tensor<16xf32>, tensor<16xf32>)
// GENERIC-NEXT: %1:2 = "tt.split"(%arg0)
// GENERIC-NEXT: %2 = "arith.addf"(%0#0, %1#1)
tt.func @split(%j: tensor<16x2xf32>) -> tensor<16xf32> {
  %l, %r = tt.split %j : tensor<16x2xf32> -> tensor<16xf32>
  %a, %b = tt.split %j : tensor<16x2xf32> -> tensor<16xf32>
  %s = arith.addf %l, %b : tensor<16xf32>
  %t = arith.addf %s, %a : tensor<16xf32>
  %u = arith.addf %t, %r : tensor<16xf32>
  tt.return %u : tensor<16xf32>
}

// -----

// CHECK-LABEL: tt.func @tmem
// CHECK-NEXT:    %result, %token = ttng.tmem_alloc : () -> (!ttg.memdesc
// CHECK-NEXT:    %result_0 = ttng.tmem_load %result : !ttg.memdesc
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @tmem() -> tensor<128x64xf32, #blocked> {
  %m, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %l = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #blocked>
  tt.return %l : tensor<128x64xf32, #blocked>
}
}
