// Diagnostics that were not expected, and expected ones that did not come, are errors.
// RUN: not tilecraft-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 6]]:3: error: unexpected error: 'arith.addi' op requires the same type for all operands and results
// CHECK-NEXT: %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
// CHECK-NEXT: ^
// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:6: error: expected error "requires the same type" was not produced
tt.func @wrong_line(%a: i32, %b: i64) -> i32 {
  // expected-error @+2 {{requires the same type}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  tt.return %0 : i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:3: error: unexpected error: 'arith.addi' op requires the same type
// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:53: error: expected error "something else" was not produced
tt.func @wrong_text(%a: i32, %b: i64) -> i32 {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32  // expected-error {{something else}}
  tt.return %0 : i32
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:6: error: expected warning "not an error" was not produced
tt.func @no_error() {
  // expected-warning @+1 {{not an error}}
  tt.return
}

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:1: error: malformed expected diagnostic
// CHECK-NOT: error:
// expected-error @+1 {{unterminated}
tt.func @malformed() {
  tt.return
}
