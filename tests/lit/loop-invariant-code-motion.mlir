// loop-invariant-code-motion: side-effect-free, speculatable ops whose operands are defined
// outside scf.for / scf.while bodies move before the loop; inner loops first.
// RUN: tilecraft-opt %s --split-input-file -loop-invariant-code-motion | filecheck %s

// A chain of invariants leaves at once; what reads the iter_arg stays.
// CHECK-LABEL: tt.func @chain
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %0 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT:    %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:    %2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %c0_i32) -> (i32) : i32 {
// CHECK-NEXT:      %3 = arith.addi %arg6, %1 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    }
tt.func @chain(%lb: i32, %ub: i32, %step: i32, %a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0) -> (i32) : i32 {
    %x = arith.addi %a, %b : i32
    %y = arith.muli %x, %x : i32
    %z = arith.addi %acc, %y : i32
    scf.yield %z : i32
  }
  tt.return %r : i32
}

// -----

// Ops using the induction variable stay.
// CHECK-LABEL: tt.func @uses_iv
// CHECK:         scf.for
// CHECK-NEXT:      arith.addi %arg4, %arg0
// CHECK-NEXT:      arith.muli
tt.func @uses_iv(%a: i32, %n: i32, %c1: i32, %c0: i32) -> i32 {
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %x = arith.addi %i, %a : i32
    %y = arith.muli %x, %acc : i32
    scf.yield %y : i32
  }
  tt.return %r : i32
}

// -----

// A division may trap: it stays unless its divisor is a safe constant.
// CHECK-LABEL: tt.func @division
// CHECK-NEXT:    %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:    %0 = arith.divsi %arg0, %c4_i32 : i32
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %2 = arith.divsi %arg0, %arg1 : i32
tt.func @division(%a: i32, %b: i32, %n: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %b to %n step %b iter_args(%acc = %a) -> (i32) : i32 {
    %q = arith.divsi %a, %b : i32
    %s = arith.divsi %a, %c4 : i32
    %t = arith.addi %q, %s : i32
    %u = arith.addi %t, %acc : i32
    scf.yield %u : i32
  }
  tt.return %r : i32
}

// -----

// Nothing with memory effects moves: loads and stores stay (triton-licm hoists loads).
// CHECK-LABEL: tt.func @memory
// CHECK-NEXT:    %0 = tt.splat %arg0
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      tt.load
// CHECK-NEXT:      tt.store
tt.func @memory(%p: !tt.ptr<f32>, %n: i32, %c1: i32) {
  scf.for %i = %c1 to %n step %c1 : i32 {
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x = tt.load %ps : tensor<8x!tt.ptr<f32>>
    tt.store %ps, %x : tensor<8x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Nested loops: the inner loop's invariant leaves both loops; the outer loop's induction
// variable keeps its user in the outer loop.
// CHECK-LABEL: tt.func @nested
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = scf.for %arg3 = %arg1 to %arg2 step %arg1 iter_args(%arg4 = %arg0) -> (i32) : i32 {
// CHECK-NEXT:      %2 = arith.addi %arg3, %arg3 : i32
// CHECK-NEXT:      %3 = scf.for %arg5 = %arg1 to %arg2 step %arg1 iter_args(%arg6 = %arg4) -> (i32) : i32 {
// CHECK-NEXT:        %4 = arith.addi %arg6, %0 : i32
// CHECK-NEXT:        %5 = arith.addi %4, %2 : i32
// CHECK-NEXT:        scf.yield %5 : i32
tt.func @nested(%a: i32, %c1: i32, %n: i32) -> i32 {
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %a) -> (i32) : i32 {
    %r2 = scf.for %j = %c1 to %n step %c1 iter_args(%acc2 = %acc) -> (i32) : i32 {
      %sq = arith.muli %a, %a : i32
      %ii = arith.addi %i, %i : i32
      %x = arith.addi %acc2, %sq : i32
      %y = arith.addi %x, %ii : i32
      scf.yield %y : i32
    }
    scf.yield %r2 : i32
  }
  tt.return %r : i32
}

// -----

// scf.while: invariants of both regions leave; the condition on the carried value stays.
// CHECK-LABEL: tt.func @while
// CHECK-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    %1 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    %2 = scf.while
// CHECK-NEXT:      %3 = arith.cmpi slt, %arg2, %0 : i32
tt.func @while(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %lim = arith.addi %n, %n : i32
    %c = arith.cmpi slt, %v, %lim : i32
    scf.condition(%c) %v : i32
  } do {
  ^bb0(%w: i32):
    %sq = arith.muli %n, %n : i32
    %next = arith.addi %w, %sq : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}

// -----

// An scf.if whose operands and nested values are all invariant moves as a whole.
// CHECK-LABEL: tt.func @whole_if
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK:         scf.for
// CHECK-NEXT:      arith.addi %arg{{[0-9]+}}, %0
tt.func @whole_if(%c: i1, %a: i32, %b: i32, %n: i32) -> i32 {
  %r = scf.for %i = %b to %n step %b iter_args(%acc = %a) -> (i32) : i32 {
    %v = scf.if %c -> (i32) {
      %s = arith.addi %a, %b : i32
      scf.yield %s : i32
    } else {
      scf.yield %b : i32
    }
    %t = arith.addi %acc, %v : i32
    scf.yield %t : i32
  }
  tt.return %r : i32
}

// -----

// An scf.if using the iter_arg inside its region is not invariant; its invariant contents
// stay too (only ops directly in the loop body are candidates).
// CHECK-LABEL: tt.func @variant_if
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        arith.muli %arg1, %arg1
// CHECK-NEXT:        arith.addi
tt.func @variant_if(%c: i1, %a: i32, %b: i32, %n: i32) -> i32 {
  %r = scf.for %i = %b to %n step %b iter_args(%acc = %a) -> (i32) : i32 {
    %v = scf.if %c -> (i32) {
      %m = arith.muli %a, %a : i32
      %s = arith.addi %acc, %m : i32
      scf.yield %s : i32
    } else {
      scf.yield %acc : i32
    }
    scf.yield %v : i32
  }
  tt.return %r : i32
}

// -----

// A loop without invariants is left alone.
// CHECK-LABEL: tt.func @nothing
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addi %arg4, %arg3
// CHECK-NEXT:      scf.yield
tt.func @nothing(%lb: i32, %ub: i32, %st: i32) -> i32 {
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %lb) -> (i32) : i32 {
    %x = arith.addi %acc, %i : i32
    scf.yield %x : i32
  }
  tt.return %r : i32
}
