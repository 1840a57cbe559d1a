// triton-loop-aware-cse: CSE, plus merging scf.for iter_args that provably always hold the
// same value (same init, and equal yields assuming they are equal).
// RUN: tilecraft-opt %s --split-input-file -triton-loop-aware-cse | filecheck %s

// Two accumulators and two pointers advancing the same way: one of each remains, and the
// uses of the removed results read the kept ones.
// CHECK-LABEL: tt.func @merge
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.+]]:3 = scf.for %[[IV:.+]] = %arg0 to %arg1 step %arg2 iter_args(%[[A:.+]] = %[[C0]], %[[P:.+]] = %arg4, %[[D:.+]] = %[[C0]]) -> (i32, tensor<8x!tt.ptr<f32>>, i32) : i32 {
// CHECK-NEXT:      %[[A1:.+]] = arith.addi %[[A]], %arg3 : i32
// CHECK-NEXT:      %[[P1:.+]] = tt.addptr %[[P]], %arg5
// CHECK-NEXT:      %[[D1:.+]] = arith.addi %[[D]], %[[IV]] : i32
// CHECK-NEXT:      scf.yield %[[A1]], %[[P1]], %[[D1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.+]] = arith.addi %[[R]]#0, %[[R]]#0 : i32
// CHECK-NEXT:    %[[T:.+]] = arith.addi %[[S]], %[[R]]#2 : i32
// CHECK-NEXT:    tt.return %[[T]], %[[R]]#0, %[[R]]#1
tt.func @merge(%lb: i32, %ub: i32, %st: i32, %x: i32, %p: tensor<8x!tt.ptr<f32>>, %o: tensor<8xi32>) -> (i32, i32, tensor<8x!tt.ptr<f32>>) {
  %c0 = arith.constant 0 : i32
  %c0b = arith.constant 0 : i32
  %r:5 = scf.for %i = %lb to %ub step %st iter_args(%a = %c0, %b = %c0b, %q1 = %p, %q2 = %p, %d = %c0) -> (i32, i32, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, i32) : i32 {
    %a1 = arith.addi %a, %x : i32
    %b1 = arith.addi %b, %x : i32
    %n1 = tt.addptr %q1, %o : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %n2 = tt.addptr %q2, %o : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %d1 = arith.addi %d, %i : i32
    scf.yield %a1, %b1, %n1, %n2, %d1 : i32, i32, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, i32
  }
  %s = arith.addi %r#0, %r#1 : i32
  %t = arith.addi %s, %r#4 : i32
  tt.return %t, %r#1, %r#3 : i32, i32, tensor<8x!tt.ptr<f32>>
}

// -----

// Equal only by co-induction: each yields a value computed from the other one.
// CHECK-LABEL: tt.func @crossed
// CHECK:         scf.for {{.+}} iter_args(%[[A:.+]] = %arg3) -> (i32) : i32 {
// CHECK-NEXT:      %[[N:.+]] = arith.muli %[[A]], %arg3 : i32
// CHECK-NEXT:      scf.yield %[[N]] : i32
tt.func @crossed(%lb: i32, %ub: i32, %st: i32, %x: i32) -> (i32, i32) {
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%a = %x, %b = %x) -> (i32, i32) : i32 {
    %na = arith.muli %b, %x : i32
    %nb = arith.muli %a, %x : i32
    scf.yield %na, %nb : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}

// -----

// Not merged: different inits, different updates, updates through an op with memory effects,
// and a carried value against the induction variable.
// CHECK-LABEL: tt.func @distinct
// CHECK:         scf.for {{.+}} -> (i32, i32, i32, i32, f32, f32) : i32 {
tt.func @distinct(%lb: i32, %ub: i32, %st: i32, %x: i32, %y: i32, %p: !tt.ptr<f32>) -> (i32, i32, i32, i32, f32, f32) {
  %f = arith.constant 0.0 : f32
  %r:6 = scf.for %i = %lb to %ub step %st iter_args(%a = %x, %b = %y, %c = %x, %d = %lb, %e = %f, %g = %f) -> (i32, i32, i32, i32, f32, f32) : i32 {
    %a1 = arith.addi %a, %x : i32
    %b1 = arith.addi %b, %x : i32
    %c1 = arith.subi %c, %x : i32
    %l1 = tt.load %p : !tt.ptr<f32>
    %l2 = tt.load %p : !tt.ptr<f32>
    scf.yield %a1, %b1, %c1, %i, %l1, %l2 : i32, i32, i32, i32, f32, f32
  }
  tt.return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : i32, i32, i32, i32, f32, f32
}

// -----

// Plain CSE, in nested regions too: the inner duplicate reuses the outer value.
// CHECK-LABEL: tt.func @cse
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %[[I:.+]] = scf.if %arg2 -> (i32) {
// CHECK-NEXT:      %[[M:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:      scf.yield %[[M]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[A]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.+]] = arith.addi %[[A]], %[[I]] : i32
tt.func @cse(%a: i32, %b: i32, %c: i1) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = scf.if %c -> (i32) {
    %3 = arith.addi %a, %b : i32
    %4 = arith.muli %3, %1 : i32
    scf.yield %4 : i32
  } else {
    scf.yield %1 : i32
  }
  %5 = arith.addi %0, %2 : i32
  tt.return %5 : i32
}
