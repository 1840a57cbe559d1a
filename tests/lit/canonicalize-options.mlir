// -canonicalize's options and statistics.
// RUN: tilecraft-opt %s -canonicalize | filecheck %s
// RUN: tilecraft-opt %s '-canonicalize{top-down=false}' | filecheck %s
// RUN: tilecraft-opt %s '-canonicalize{max-iterations=1}' | filecheck %s --check-prefix=ONE
// RUN: tilecraft-opt %s '-canonicalize{max-num-rewrites=1}' | filecheck %s --check-prefix=LIMIT
// RUN: tilecraft-opt %s -canonicalize --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=STATS
// RUN: tilecraft-opt %s '-canonicalize{region-simplify=disabled}' | filecheck %s --check-prefix=KEEP
// RUN: tilecraft-opt %s '-canonicalize{test-convergence=true}' | filecheck %s
// RUN: not tilecraft-opt %s '-canonicalize{max-iterations=1 test-convergence=true}' 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONVERGE
// RUN: not tilecraft-opt %s '-canonicalize{region-simplify=aggressive}' 2>&1 \
// RUN:   | filecheck %s --check-prefix=AGGRESSIVE
// CONVERGE: error: 'builtin.module' op canonicalize did not converge within max-iterations=1
// AGGRESSIVE: error: 'builtin.module' op canonicalize: region-simplify=aggressive is not supported

// Folding the condition lets the region simplification merge the blocks; the merged block
// folds in the next iteration. One iteration stops after the merge, quietly.
// CHECK-LABEL: tt.func @two_iterations
// CHECK-NEXT:    %[[C:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    tt.return %[[C]] : i32
// ONE-LABEL:   tt.func @two_iterations
// ONE-NOT:       cf.cond_br
// ONE:           %[[S:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// ONE-NEXT:      tt.return %[[S]] : i32
// Without the region simplification the branch still folds and the blocks merge (the cf ops'
// patterns do that), but the block no branch reaches any more stays.
// KEEP-LABEL:  tt.func @two_iterations
// KEEP-NEXT:     %[[C:.+]] = arith.constant 3 : i32
// KEEP-NEXT:     tt.return %[[C]] : i32
// KEEP-NEXT:   ^bb1(%[[Z:.+]]: i32):
// KEEP-NEXT:     tt.return %[[Z]] : i32
tt.func @two_iterations(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = arith.cmpi slt, %c1, %c2 : i32
  cf.cond_br %t, ^bb1(%c1 : i32), ^bb2(%c2 : i32)
^bb1(%x: i32):
  %y = arith.addi %x, %c2 : i32
  tt.return %y : i32
^bb2(%z: i32):
  tt.return %z : i32
}

// A chain of additions of constants needs two pattern applications; with a limit of one, the
// second addition of a constant stays.
// CHECK-LABEL: tt.func @chain
// CHECK-NEXT:    %[[C6:.+]] = arith.constant 6 : i32
// CHECK-NEXT:    %[[R:.+]] = arith.addi %arg0, %[[C6]] : i32
// CHECK-NEXT:    tt.return %[[R]] : i32
// LIMIT-LABEL: tt.func @chain
// LIMIT-NOT:     arith.constant 6
// LIMIT:         %[[B:.+]] = arith.addi %{{[0-9]+}}, %c3_i32 : i32
// LIMIT-NEXT:    tt.return %[[B]] : i32
tt.func @chain(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  %2 = arith.addi %1, %c3 : i32
  tt.return %2 : i32
}

// STATS:      Canonicalizer
// STATS-NEXT:   (S) 2 num-folded - ops folded
// STATS-NEXT:   (S) 2 num-rewrites - patterns applied
// STATS-NEXT:   (S) 9 num-erased - dead ops erased
