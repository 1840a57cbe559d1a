// Malformed IR: one error at file:line:col with the source line and a caret, exit status 1.
// RUN: not tilecraft-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// CHECK: parse-errors.mlir:[[# @LINE + 6]]:22: error: expected ',' but found ':'
// CHECK-NEXT: %0 = arith.addi %a : i32
// CHECK-NEXT: {{^}}                     ^
// CHECK-NOT: Traceback
tt.func @missing_operand(%a: i32) -> i32 {
  // expected-error @+1 {{expected ',' but found ':'}}
  %0 = arith.addi %a : i32
  tt.return %0 : i32
}

// -----

// CHECK: parse-errors.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: {{.*}}'arith.nosuchop'
tt.func @unknown_op(%a: i32) -> i32 {
  // expected-error @+1 {{'arith.nosuchop'}}
  %0 = arith.nosuchop %a, %a : i32
  tt.return %0 : i32
}

// -----

// CHECK: parse-errors.mlir:[[# @LINE + 3]]:3: error: unregistered operation 'test.op'
// expected-error @+2 {{unregistered operation 'test.op'}}
tt.func @unregistered() {
  "test.op"() : () -> ()
  tt.return
}

// -----

// CHECK: parse-errors.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: {{.*}}
tt.func @bad_type(%a: i32) {
  // expected-error @+1 {{}}
  %0 = arith.addi %a, %a : tensor<4xnotatype>
  tt.return
}
