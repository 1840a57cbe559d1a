// Cases separated by `// -----` are processed one by one; the outputs are joined by `// -----`.
// RUN: tilecraft-opt %s --split-input-file | filecheck %s
// RUN: not tilecraft-opt %s 2>&1 | filecheck %s --check-prefix=WHOLE
// RUN: not tilecraft-opt %s --split-input-file -test-fail{op-name=arith.muli} 2>&1 \
// RUN:   | filecheck %s --check-prefix=FAIL

// CHECK:      module {
// CHECK-NEXT:   tt.func @first
// CHECK:      // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @second
// CHECK:      // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @first

// Without splitting the file holds two functions named @first in one module.
// WHOLE: error: redefinition of symbol named 'first'

// A case that fails does not stop the others; its error has its line in the whole file.
// FAIL:     split-input-file.mlir:[[# @LINE + 15]]:3: error: 'arith.muli' op test pass failure
// FAIL:     module {
// FAIL-NEXT:  tt.func @first
// FAIL:     // -----
// FAIL-NEXT: // -----
// FAIL-NEXT: module {

tt.func @first(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}

// -----

tt.func @second(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  tt.return %0 : i32
}

// -----

tt.func @first() {
  tt.return
}
