// Ops, types and attributes of unknown dialects need --allow-unregistered-dialect.
// RUN: tilecraft-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: tilecraft-opt %s -allow-unregistered-dialect -mlir-print-op-generic \
// RUN:   | tilecraft-opt -allow-unregistered-dialect | filecheck %s
// RUN: not tilecraft-opt %s 2>&1 | filecheck %s --check-prefix=ERROR

// CHECK:      tt.func @f(%arg0: i32) -> !mine.handle {
// CHECK-NEXT:   %0 = "mine.wrap"(%arg0) {how = #mine.way<fast>} : (i32) -> !mine.handle
// CHECK-NEXT:   tt.return %0 : !mine.handle
// ERROR: unregistered.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: {{.*}}mine
tt.func @f(%a: i32) -> !mine.handle {
  %0 = "mine.wrap"(%a) {how = #mine.way<fast>} : (i32) -> !mine.handle
  tt.return %0 : !mine.handle
}
