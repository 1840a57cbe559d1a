// triton-licm: loop-invariant-code-motion plus invariant tt.loads of loops that write no
// memory, guarded as Triton does by folding the trip-count condition lb < ub into the mask
// (no guard when the loop is known to run).
// RUN: tilecraft-opt %s --split-input-file -triton-licm | filecheck %s

// Unknown trip count: the mask becomes splat(lb < ub) & mask, or just the splat; as Triton
// emits them, each load gets its own compare and splat right before the loop.
// CHECK-LABEL: tt.func @guarded
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT:    %[[COND:.+]] = arith.cmpi slt, %arg2, %arg3 : i32
// CHECK-NEXT:    %[[SPLAT:.+]] = tt.splat %[[COND]] : i1 -> tensor<16xi1>
// CHECK-NEXT:    %[[MASK:.+]] = arith.andi %[[SPLAT]], %arg1 : tensor<16xi1>
// CHECK-NEXT:    %[[X:.+]] = tt.load %arg0, %[[MASK]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[COND2:.+]] = arith.cmpi slt, %arg2, %arg3 : i32
// CHECK-NEXT:    %[[SPLAT2:.+]] = tt.splat %[[COND2]] : i1 -> tensor<16xi1>
// CHECK-NEXT:    %[[Y:.+]] = tt.load %arg0, %[[SPLAT2]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addf %{{.+}}, %[[X]]
// CHECK-NEXT:      arith.addf %{{.+}}, %[[Y]]
// CHECK-NEXT:      scf.yield
tt.func @guarded(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %lb: i32, %ub: i32, %step: i32) -> tensor<16xf32> {
  %c0 = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0) -> (tensor<16xf32>) : i32 {
    %x = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
    %y = tt.load %p : tensor<16x!tt.ptr<f32>>
    %z = arith.addf %acc, %x : tensor<16xf32>
    %w = arith.addf %z, %y : tensor<16xf32>
    scf.yield %w : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A scalar load takes the condition itself as its mask; an unsigned loop compares with ult.
// CHECK-LABEL: tt.func @scalar_unsigned
// CHECK-NEXT:    %[[COND:.+]] = arith.cmpi ult, %arg1, %arg2 : i32
// CHECK-NEXT:    %[[X:.+]] = tt.load %arg0, %[[COND]] : !tt.ptr<f32>
// CHECK-NEXT:    scf.for unsigned
tt.func @scalar_unsigned(%p: !tt.ptr<f32>, %lb: i32, %ub: i32, %step: i32, %init: f32) -> f32 {
  %r = scf.for unsigned %i = %lb to %ub step %step iter_args(%acc = %init) -> (f32) : i32 {
    %x = tt.load %p : !tt.ptr<f32>
    %z = arith.addf %acc, %x : f32
    scf.yield %z : f32
  }
  tt.return %r : f32
}

// -----

// Constant bounds with lb < ub: the loop runs, no guard. The invariant pointer arithmetic
// feeding the load leaves first.
// CHECK-LABEL: tt.func @runs_once
// CHECK-NOT:     arith.cmpi
// CHECK:         %[[P:.+]] = tt.addptr %arg0, %arg1
// CHECK-NEXT:    %[[X:.+]] = tt.load %[[P]] : !tt.ptr<f32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addf %{{.+}}, %[[X]]
tt.func @runs_once(%p: !tt.ptr<f32>, %off: i32, %init: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) : i32 {
    %q = tt.addptr %p, %off : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %z = arith.addf %acc, %x : f32
    scf.yield %z : f32
  }
  tt.return %r : f32
}

// -----

// A loop that stores: loads stay (the store may change what they read); pure ops still go.
// CHECK-LABEL: tt.func @writes
// CHECK-NEXT:    %0 = tt.addptr %arg0, %arg1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %1 = tt.load %0
// CHECK-NEXT:      tt.store
tt.func @writes(%p: !tt.ptr<f32>, %off: i32, %lb: i32, %ub: i32) {
  scf.for %i = %lb to %ub step %off : i32 {
    %q = tt.addptr %p, %off : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    tt.store %p, %x : !tt.ptr<f32>
  }
  tt.return
}

// -----

// A store in a nested loop counts as well.
// CHECK-LABEL: tt.func @nested_write
// CHECK:         scf.for
// CHECK-NEXT:      tt.load %arg0
tt.func @nested_write(%p: !tt.ptr<f32>, %lb: i32, %ub: i32) {
  scf.for %i = %lb to %ub step %lb : i32 {
    %x = tt.load %p : !tt.ptr<f32>
    scf.for %j = %lb to %ub step %lb : i32 {
      tt.store %p, %x : !tt.ptr<f32>
    }
  }
  tt.return
}

// -----

// Loads whose pointer changes per iteration, and volatile loads, stay.
// CHECK-LABEL: tt.func @variant
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      tt.load %arg7
// CHECK-NEXT:      tt.load %arg0 {isVolatile = true}
tt.func @variant(%p: !tt.ptr<f32>, %lb: i32, %ub: i32, %st: i32, %init: f32) -> f32 {
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%acc = %init, %q = %p) -> (f32, !tt.ptr<f32>) : i32 {
    %x = tt.load %q : !tt.ptr<f32>
    %v = tt.load %p {isVolatile = true} : !tt.ptr<f32>
    %s = arith.addf %acc, %x : f32
    %t = arith.addf %s, %v : f32
    %q2 = tt.addptr %q, %st : !tt.ptr<f32>, i32
    scf.yield %t, %q2 : f32, !tt.ptr<f32>
  }
  tt.return %r#0 : f32
}

// -----

// A load under a condition in the loop is not a candidate (only ops of the body are).
// CHECK-LABEL: tt.func @conditional
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        tt.load
tt.func @conditional(%p: !tt.ptr<f32>, %c: i1, %lb: i32, %ub: i32, %init: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %lb iter_args(%acc = %init) -> (f32) : i32 {
    %v = scf.if %c -> (f32) {
      %x = tt.load %p : !tt.ptr<f32>
      scf.yield %x : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %v : f32
  }
  tt.return %r : f32
}

// -----

// scf.while: the before region always runs, so its invariant load leaves unguarded; the
// after region's does not.
// CHECK-LABEL: tt.func @while
// CHECK-NEXT:    %[[X:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT:    scf.while
// CHECK-NEXT:      arith.cmpf olt, %{{.+}}, %[[X]]
// CHECK:         } do {
// CHECK:           tt.load %arg1
tt.func @while(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %init: f32) -> f32 {
  %r = scf.while (%v = %init) : (f32) -> f32 {
    %lim = tt.load %p : !tt.ptr<f32>
    %c = arith.cmpf olt, %v, %lim : f32
    scf.condition(%c) %v : f32
  } do {
  ^bb0(%w: f32):
    %d = tt.load %q : !tt.ptr<f32>
    %n = arith.addf %w, %d : f32
    scf.yield %n : f32
  }
  tt.return %r : f32
}
