// IR dumps around passes, on stderr.
// RUN: tilecraft-opt %s -test-options -test-func --print-ir-before-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=BEFORE
// RUN: tilecraft-opt %s -test-func --print-ir-after-all --print-ir-module-scope 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=SCOPE
// RUN: env TILECRAFT_DUMP_IR=1 tilecraft-opt %s -test-options 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=ENV
// RUN: not tilecraft-opt %s -test-invalid-ir --print-ir-after-failure 2>&1 \
// RUN:   | filecheck %s --check-prefix=FAILED
// RUN: tilecraft-opt %s -test-options --print-ir-after-all --mlir-print-op-generic 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=GENERIC

// BEFORE:      // -----// IR Dump Before TestOptions (test-options) //----- //
// BEFORE-NEXT: module {
// BEFORE:      // -----// IR Dump Before TestFunc (test-func) //----- //
// BEFORE-NEXT: tt.func @f(%arg0: i32) -> i32 {
// BEFORE-NOT:  IR Dump

// SCOPE:      // -----// IR Dump After TestFunc (test-func) ('tt.func' operation: @f) //----- //
// SCOPE-NEXT: module {
// SCOPE-NEXT:   tt.func @f(%arg0: i32) -> i32 attributes {test.visit = 1 : i64} {

// ENV:      // -----// IR Dump Before TestOptions (test-options) ('builtin.module' operation) //----- //
// ENV-NEXT: module {
// ENV-NOT:  IR Dump After

// FAILED:      // -----// IR Dump After TestInvalidIR Failed (test-invalid-ir) //----- //
// FAILED-NEXT: module {
// FAILED:        %0 = arith.addi %arg0, %arg0 : i1
// FAILED:      error: 'arith.addi' op requires the same type for all operands and results (the IR is invalid after pass 'test-invalid-ir')

// GENERIC:      // -----// IR Dump After TestOptions (test-options) //----- //
// GENERIC-NEXT: "builtin.module"() ({

tt.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
