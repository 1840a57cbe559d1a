// The FileCheck of these tests checks CHECK-NOT patterns up to the *start* of the next match,
// as LLVM FileCheck does: the excluded string may appear in the line the next CHECK matches.
// RUN: tilecraft-opt %s | filecheck %s
// A string between the previous match and the next one still fails the check.
// RUN: tilecraft-opt %s | not filecheck %s --check-prefix=BEFORE
// RUN: tilecraft-opt %s | not filecheck %s --check-prefix=NEXT
// RUN: tilecraft-opt %s | not filecheck %s --check-prefix=AFTER

// CHECK-LABEL: tt.func @f
// CHECK:         arith.addi
// CHECK-NOT:     arith.muli
// CHECK:         arith.muli
// CHECK-NOT:     arith.muli
// CHECK-NEXT:    tt.return %{{.*}} : i32

// BEFORE-LABEL: tt.func @f
// BEFORE-NOT:     arith.addi
// BEFORE:         arith.muli

// NEXT:         arith.addi
// NEXT-NOT:     %1
// NEXT-NEXT:    arith.muli

// AFTER:        arith.addi
// AFTER-NOT:    tt.return
tt.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %0 : i32
  tt.return %1 : i32
}
