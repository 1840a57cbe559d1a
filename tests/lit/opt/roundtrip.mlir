// Printing what was parsed, in custom and generic form, and reading either back.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tilecraft-opt %s --mlir-print-op-generic | tilecraft-opt | filecheck %s
// RUN: tilecraft-opt %s | tilecraft-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tilecraft-opt -mlir-print-debuginfo %s | filecheck %s --check-prefix=LOC
// RUN: tilecraft-opt < %s | filecheck %s
// RUN: tilecraft-opt - -o %t < %s && filecheck %s --input-file=%t

// CHECK-LABEL: tt.func @add(%arg0: i32, %arg1: tensor<4xf32>) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:    %1 = arith.addf %arg1, %arg1 : tensor<4xf32>
// CHECK-NEXT:    tt.return %0 : i32
// CHECK-NEXT:  }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "tt.func"() <{function_type = (i32, tensor<4xf32>) -> i32, sym_name = "add"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32, %arg1: tensor<4xf32>):
// GENERIC-NEXT:     %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:     %1 = "arith.addi"(%arg0, %0) : (i32, i32) -> i32
// GENERIC-NEXT:     %2 = "arith.addf"(%arg1, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT:     "tt.return"(%1) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

// LOC: arith.addi %arg0, %c1_i32 : i32 loc([[ADD:#loc[0-9]*]])
// LOC: [[ADD]] = loc("{{.*}}roundtrip.mlir":[[# @LINE + 5]]:5)

module {
  tt.func @add(%a: i32, %t: tensor<4xf32>) -> i32 {
    %c1 = arith.constant 1 : i32
    %0 = arith.addi %a, %c1 : i32
    %1 = arith.addf %t, %t : tensor<4xf32>
    tt.return %0 : i32
  }
}
