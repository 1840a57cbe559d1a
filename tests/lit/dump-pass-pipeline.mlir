// --dump-pass-pipeline prints the pipeline to stderr before running it, as MLIR's
// OpPassManager::dump: "Pass Manager with N passes:" (N counting the top-level elements, a
// nested manager as one), then one element a line, nested managers indented, and every
// option of a pass in name order. --run-reproducer reads the pipeline of a trailer that
// comments follow.
// RUN: tilecraft-opt %s --run-reproducer --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s
// RUN: tilecraft-opt %s --run-reproducer | filecheck %s --check-prefix=OUT
// Must not fire: without the flag nothing is printed on stderr.
// RUN: tilecraft-opt %s --run-reproducer 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

module {
  tt.func public @f(%a: i32) -> i32 {
    %c = arith.constant 0 : i32
    %s = arith.addi %a, %c : i32
    tt.return %s : i32
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(any(canonicalize{top-down=false},cse),symbol-dce)",
      disable_threading: false,
      verify_each: false
    }
  }
#-}

// CHECK:      Pass Manager with 2 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   any(
// CHECK-NEXT:     canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=false},
// CHECK-NEXT:     cse
// CHECK-NEXT:   ),
// CHECK-NEXT:   symbol-dce
// CHECK-NEXT: )
// CHECK-EMPTY:

// OUT:      tt.func public @f(%arg0: i32) -> i32 {
// OUT-NEXT:   tt.return %arg0 : i32

// QUIET-NOT: Pass Manager
