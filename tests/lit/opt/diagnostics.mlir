// Warnings and remarks a pass reports without failing: printed, or checked.
// RUN: tilecraft-opt %s -test-diagnostics --verify-diagnostics
// RUN: tilecraft-opt %s -test-diagnostics 2>&1 >/dev/null | filecheck %s

// CHECK:      diagnostics.mlir:[[# @LINE + 7]]:1: warning: on the function
// CHECK:      diagnostics.mlir:[[# @LINE + 8]]:3: warning: an addition
// CHECK-NEXT:   %0 = arith.addi %a, %a {test.warning = "an addition"} : i32
// CHECK-NEXT:   ^
// CHECK:      diagnostics.mlir:[[# @LINE + 6]]:3: remark: a product
// CHECK:      remark: nowhere
// expected-warning @+1 {{on the function}}
tt.func @f(%a: i32) -> i32 attributes {test.warning = "on the function"} {
  // expected-warning @below {{an addition}}
  %0 = arith.addi %a, %a {test.warning = "an addition"} : i32
  %1 = arith.muli %0, %0 {test.remark = "a product"} : i32
  // expected-remark @above {{a product}}
  // expected-remark @unknown {{nowhere}}
  %2 = arith.subi %1, %1 {test.remark = "nowhere"} : i32 loc(unknown)
  %3 = arith.addi %2, %2 {test.warning = "same line"} : i32  // expected-warning {{same line}}
  tt.return %3 : i32
}
