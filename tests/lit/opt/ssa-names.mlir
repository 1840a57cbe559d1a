// Result names of arith.constant, as MLIR's getAsmResultNames and SSANameState give them:
// `true`/`false` for i1, `c<value>_<type>` for integers (`c<value>` for index), `cst` for the
// rest; a taken name gets `_<N>` from one counter shared by every name. Nested regions see the
// names of the regions around them; sibling regions may reuse each other's. The generic form
// numbers every value.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: tt.func @names(%arg0: i1) -> i32 {
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %cst = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %cst_1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %c0_i32_2 = arith.constant 0 : i32
// CHECK-NEXT:    %0 = arith.addi %c0_i32, %c0_i32_0 : i32
// CHECK-NEXT:    %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %c0_i32_3 = arith.constant 0 : i32
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      %3 = arith.addi %c0_i32_3, %c7_i32 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      scf.yield %c7_i32 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = arith.addi %0, %1 : i32
// CHECK-NEXT:    tt.return %2 : i32

// GENERIC:      %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT: %1 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NOT:  %c
// GENERIC-NOT:  %cst
tt.func @names(%cond: i1) -> i32 {
  %a = arith.constant 0 : i32
  %b = arith.constant 0 : i32
  %t = arith.constant true
  %f = arith.constant false
  %m = arith.constant -1 : i32
  %w = arith.constant 255 : i8
  %i = arith.constant 3 : index
  %d = arith.constant dense<1.0> : tensor<4xf32>
  %s = arith.constant 1.0 : f32
  %e = arith.constant 0 : i32
  %sum = arith.addi %a, %b : i32
  %r = scf.if %cond -> i32 {
    %z = arith.constant 0 : i32
    %k = arith.constant 7 : i32
    %x = arith.addi %z, %k : i32
    scf.yield %x : i32
  } else {
    %k = arith.constant 7 : i32
    scf.yield %k : i32
  }
  %out = arith.addi %sum, %r : i32
  tt.return %out : i32
}
