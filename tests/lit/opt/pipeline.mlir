// Pass flags and textual pipelines, nesting and options.
// RUN: tilecraft-opt %s -test-func -test-options | filecheck %s --check-prefix=FLAGS
// RUN: tilecraft-opt %s --pass-pipeline='builtin.module(tt.func(test-func,test-options{factor=3}))' \
// RUN:   | filecheck %s --check-prefix=NESTED
// RUN: tilecraft-opt %s --pass-pipeline='test-options{factor=2 label="two words" flag sizes=4,8}' \
// RUN:   | filecheck %s --check-prefix=OPTIONS
// RUN: tilecraft-opt %s -pass-pipeline='builtin.module(any(test-options{factor=5}))' \
// RUN:   | filecheck %s --check-prefix=ANY
// RUN: tilecraft-opt %s '--test-options{factor=7}' --mlir-print-ir-after-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=DUMP
// RUN: tilecraft-opt %s --pass-pipeline='builtin.module()' | filecheck %s --check-prefix=EMPTY
// RUN: tilecraft-opt --list-passes | filecheck %s --check-prefix=LIST

// A flag whose pass runs on functions is nested in the module, as mlir-opt does.
// FLAGS:      module attributes {test.options = "factor=1 label= flag=false sizes="} {
// FLAGS-NEXT:   tt.func @one() attributes {test.visit = 1 : i64} {
// FLAGS:        tt.func @two() attributes {test.visit = 2 : i64} {

// NESTED:      module {
// NESTED-NEXT:   tt.func @one() attributes {test.options = "factor=3 label= flag=false sizes=", test.visit = 1 : i64} {
// NESTED:        tt.func @two() attributes {test.options = "factor=3 label= flag=false sizes=", test.visit = 2 : i64} {

// OPTIONS: module attributes {test.options = "factor=2 label='two words' flag=true sizes=4,8"} {

// ANY:      tt.func @one() attributes {test.options = "factor=5
// ANY:      tt.func @two() attributes {test.options = "factor=5

// DUMP: // -----// IR Dump After TestOptions (test-options) //----- //
// DUMP-NEXT: module attributes {test.options = "factor=7

// EMPTY:      module {
// EMPTY-NEXT:   tt.func @one() {

// LIST: --test-func {{ +}}Numbers the functions it runs on (attribute test.visit)
// LIST: --test-options {{ +}}Writes its options
// LIST-NEXT: factor=<int> {{ +}}a number (default: 1)
// LIST-NEXT: label=<str> {{ +}}a string (default: )
// LIST-NEXT: flag=<bool> {{ +}}a switch (default: False)
// LIST-NEXT: sizes=<int-list> {{ +}}numbers

tt.func @one() {
  tt.return
}
tt.func @two() {
  tt.return
}
