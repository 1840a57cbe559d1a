// canonicalize on the func dialect: a call_indirect of a func.constant becomes a func.call
// (then the constant, unused, goes); a call through an argument stays. Inlining follows.
// RUN: tilecraft-opt %s -canonicalize | filecheck %s
// RUN: tilecraft-opt %s -canonicalize -inline | filecheck %s --check-prefix=INLINE

// CHECK-LABEL: func.func @main(%arg0: i32, %arg1: (i32) -> i32) -> (i32, i32) {
// CHECK-NEXT:    %0 = call @add_one(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = call_indirect %arg1(%0) : (i32) -> i32
// CHECK-NEXT:    return %0, %1 : i32, i32
// INLINE-LABEL: func.func @main
// INLINE-NEXT:    %c1_i32 = arith.constant 1 : i32
// INLINE-NEXT:    %0 = arith.addi %arg0, %c1_i32 : i32
// INLINE-NEXT:    %1 = call_indirect %arg1(%0) : (i32) -> i32
// INLINE-NOT:   @add_one
func.func private @add_one(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  return %0 : i32
}
func.func @main(%a: i32, %g: (i32) -> i32) -> (i32, i32) {
  %f = constant @add_one : (i32) -> i32
  %0 = call_indirect %f(%a) : (i32) -> i32
  %1 = call_indirect %g(%0) : (i32) -> i32
  return %0, %1 : i32, i32
}
