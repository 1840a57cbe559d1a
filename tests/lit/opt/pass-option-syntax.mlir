// MLIR's command-line forms of pass options: -pass=opts (quoted by the shell) and -pass{opts}.
// RUN: tilecraft-opt %s -test-options='flag=true factor=3' | filecheck %s
// RUN: tilecraft-opt %s --test-options='flag=true factor=3' | filecheck %s
// RUN: tilecraft-opt %s '-test-options{flag=true factor=3}' | filecheck %s
// RUN: tilecraft-opt %s --pass-pipeline='builtin.module(test-options{flag=true factor=3})' | filecheck %s
// RUN: not tilecraft-opt %s -test-options='nope=1' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not tilecraft-opt %s -verify-diagnostics=sometimes 2>&1 | filecheck %s --check-prefix=MODE

// CHECK: test.options = "factor=3 label= flag=true sizes="
// BAD: error: pass 'test-options' has no option 'nope'
// MODE: invalid choice: 'sometimes'
tt.func @f() {
  tt.return
}
