// A failing pass: its error (checked with --verify-diagnostics too), the reproducer it leaves,
// and running that reproducer again; a crashing pass is an internal error (exit status 2,
// checked in tests/transforms/test_opt.py).
// RUN: tilecraft-opt %s -test-fail{op-name=arith.muli} --verify-diagnostics
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(tt.func(test-func,test-fail{op-name=arith.muli}))' \
// RUN:   --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | filecheck %s --check-prefix=ERROR
// RUN: filecheck %s --check-prefix=REPRO --input-file=%t.repro.mlir
// RUN: not tilecraft-opt %t.repro.mlir --run-reproducer 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: not tilecraft-opt %s -test-invalid-ir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=INVALID
// RUN: not tilecraft-opt %s -test-crash 2>&1 | filecheck %s --check-prefix=CRASH

// ERROR:      pass-failure.mlir:[[# @LINE + 21]]:3: error: 'arith.muli' op test pass failure
// ERROR-NEXT:   %1 = arith.muli %0, %a : i32
// ERROR-NEXT:   ^
// ERROR-NEXT: tilecraft-opt: reproducer written to {{.*}}.repro.mlir

// REPRO:      // Failure: {{.*}}pass-failure.mlir:[[# @LINE + 16]]:3: error: 'arith.muli' op test pass failure
// REPRO-NEXT: // Full pipeline: builtin.module(tt.func(test-func,test-fail{op-name=arith.muli}))
// REPRO:      "tt.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
// REPRO:      }) {test.visit = 1 : i64} : () -> ()
// REPRO:      pipeline: "builtin.module(tt.func(test-fail{op-name=arith.muli}))",

// AGAIN: pass-failure.mlir:[[# @LINE + 10]]:3: error: 'arith.muli' op test pass failure

// INVALID: pass-failure.mlir:[[# @LINE + 6]]:3: error: unexpected error: 'arith.addi' op requires the same type for all operands and results (the IR is invalid after pass 'test-invalid-ir')

// CRASH:     tilecraft-opt: internal error: RuntimeError: the test pass crashed (while running pass 'test-crash' on 'builtin.module') (TILECRAFT_DEBUG=1 shows the traceback)
// CRASH-NOT: Traceback

tt.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  // expected-error @+1 {{'arith.muli' op test pass failure}}
  %1 = arith.muli %0, %a : i32
  tt.return %1 : i32
}
