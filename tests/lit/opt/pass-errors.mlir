// Unknown passes, bad options and malformed pipelines: one error with a caret, exit status 1.
// RUN: not tilecraft-opt %s -test-nosuch 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not tilecraft-opt %s -test-option 2>&1 | filecheck %s --check-prefix=CLOSE
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(test-options,nosuch)' 2>&1 \
// RUN:   | filecheck %s --check-prefix=PIPELINE
// RUN: not tilecraft-opt %s '-test-options{factor=four}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not tilecraft-opt %s '-test-options{size=4}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(test-options{factor=4' 2>&1 \
// RUN:   | filecheck %s --check-prefix=BRACE
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(tt.func(test-func)' 2>&1 \
// RUN:   | filecheck %s --check-prefix=PAREN
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(test-func)' 2>&1 \
// RUN:   | filecheck %s --check-prefix=ANCHOR
// RUN: not tilecraft-opt %s --pass-pipeline='builtin.module(test-options)' -test-func 2>&1 \
// RUN:   | filecheck %s --check-prefix=BOTH
// RUN: not tilecraft-opt %s --no-such-option 2>&1 | filecheck %s --check-prefix=OPTFLAG
// RUN: not tilecraft-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING

// FLAG: tilecraft-opt: error: '-test-nosuch' is neither an option nor a registered pass
// CLOSE: error: '-test-option' is neither an option nor a registered pass; did you mean '-test-options'?
// PIPELINE: <pass-pipeline>:1:29: error: 'nosuch' does not refer to a registered pass
// PIPELINE-NEXT: builtin.module(test-options,nosuch)
// PIPELINE-NEXT: {{^}}                            ^
// VALUE: <command line>:1:14: error: invalid value 'four' for option 'factor' of pass 'test-options': expected int
// VALUE-NEXT: test-options{factor=four}
// VALUE-NEXT: {{^}}             ^
// OPTION: error: pass 'test-options' has no option 'size' (options: factor, label, flag, sizes)
// BRACE: <pass-pipeline>:1:28: error: unbalanced '{': the pass options are not closed
// PAREN: <pass-pipeline>:1:15: error: expected ',' or ')' closing the pipeline opened here
// ANCHOR: <pass-pipeline>:1:16: error: pass 'test-func' runs on 'tt.func' ops, not on 'builtin.module': nest it as 'tt.func(test-func)'
// BOTH: error: --pass-pipeline cannot be combined with pass flags (-test-func)
// OPTFLAG: error: '--no-such-option' is neither an option nor a registered pass
// RUN: not tilecraft-opt %s --split-input 2>&1 | filecheck %s --check-prefix=CLOSEOPT
// CLOSEOPT: error: '--split-input' is neither an option nor a registered pass; did you mean '--split-input-file'?
// MISSING: tilecraft-opt: error: cannot read '{{.*}}pass-errors.mlir.missing'

// FLAG-NOT: Traceback
tt.func @f() {
  tt.return
}
