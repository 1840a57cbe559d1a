// The greedy driver through the test-greedy pass: addi(x, 0) -> x, muli(x, 2) -> addi(x, x),
// subi(x, x) -> 0; dead ops go, constants are unique and at the top of the function.
// RUN: tilecraft-opt %s --split-input-file -test-greedy | filecheck %s
// RUN: not tilecraft-opt %s --split-input-file '-test-greedy{max-iterations=1}' 2>&1 \
// RUN:   | filecheck %s --check-prefix=BOUND
// RUN: not tilecraft-opt %s --split-input-file '-test-greedy{swap=true}' 2>&1 \
// RUN:   | filecheck %s --check-prefix=CYCLE

// CHECK-LABEL: tt.func @chain(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.return %0 : i32
// CHECK-NEXT:  }
// BOUND: greedy.mlir:{{[0-9]+}}:3: error: greedy pattern rewriting did not converge within 1 iteration; still applying in the last one: {{.*}}pattern 'MulTwo'
// CYCLE: greedy.mlir:{{[0-9]+}}:3: error: greedy pattern rewriting did not converge: more than {{[0-9]+}} rewrites in one iteration, by pattern 'SwapOperands'
tt.func @chain(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.muli %0, %c2 : i32
  %2 = arith.subi %1, %1 : i32
  %3 = arith.addi %1, %2 : i32
  tt.return %3 : i32
}

// -----

// Nothing to rewrite: the IR stays as it is.
// CHECK-LABEL: tt.func @no_match(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:    %1 = arith.muli %0, %c3_i32 : i32
// CHECK-NEXT:    %2 = arith.subi %1, %arg0 : i32
// CHECK-NEXT:    tt.return %2 : i32
tt.func @no_match(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %a, %c1 : i32
  %1 = arith.muli %0, %c3 : i32
  %2 = arith.subi %1, %a : i32
  tt.return %2 : i32
}

// -----

// Equal constants become one, at the top of the function (out of the loop); unused ones go.
// CHECK-LABEL: tt.func @constants(%arg0: i32, %arg1: index) -> i32 {
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %0 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %arg0) -> (i32) {
// CHECK-NEXT:      %2 = arith.addi %arg3, %c7_i32 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = arith.addi %0, %c7_i32 : i32
// CHECK-NEXT:    tt.return %1 : i32
tt.func @constants(%a: i32, %n: index) -> i32 {
  %c7 = arith.constant 7 : i32
  %unused = arith.constant 9 : i32
  %one = arith.constant 1 : index
  %zero = arith.constant 0 : index
  %r = scf.for %i = %zero to %n step %one iter_args(%acc = %a) -> (i32) : index {
    %c7_again = arith.constant 7 : i32
    %x = arith.addi %acc, %c7_again : i32
    scf.yield %x : i32
  }
  %s = arith.addi %r, %c7 : i32
  tt.return %s : i32
}

// -----

// Ops with side effects stay even when unused; pure ones go.
// CHECK-LABEL: tt.func @effects(%arg0: !tt.ptr<i32>, %arg1: i32) {
// CHECK-NEXT:    %0 = tt.load %arg0 : !tt.ptr<i32>
// CHECK-NEXT:    tt.store %arg0, %arg1 : !tt.ptr<i32>
// CHECK-NEXT:    tt.return
tt.func @effects(%p: !tt.ptr<i32>, %v: i32) {
  %0 = tt.load %p : !tt.ptr<i32>
  %1 = arith.addi %v, %v : i32
  tt.store %p, %v : !tt.ptr<i32>
  tt.return
}
