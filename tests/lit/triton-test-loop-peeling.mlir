// triton-test-loop-peeling: the last iteration of an scf.for marked __test_peel_epilogue
// runs after the loop, in an scf.if (lb < ub) at the last induction value; the loop stops one
// step earlier. Unmarked loops are left alone.
// RUN: tilecraft-opt %s --split-input-file -triton-test-loop-peeling | filecheck %s

// Two iter_args: the scf.if's then region reads the loop's results; its results replace the
// loop's uses after it.
// CHECK-LABEL: tt.func @two_iter_args
// CHECK:         %[[NUB:.+]] = arith.subi %arg1, %arg2 : index
// CHECK-NEXT:    %[[FOR:.+]]:2 = scf.for %[[IV:.+]] = %arg0 to %[[NUB]] step %arg2 iter_args
// CHECK:         } {__test_peel_epilogue}
// CHECK-NEXT:    %[[RANGE:.+]] = arith.subi %arg1, %arg0 : index
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[RANGE_M1:.+]] = arith.subi %[[RANGE]], %[[ONE]] : index
// CHECK-NEXT:    %[[STEPS:.+]] = arith.divsi %[[RANGE_M1]], %arg2 : index
// CHECK-NEXT:    %[[DELTA:.+]] = arith.muli %[[STEPS]], %arg2 : index
// CHECK-NEXT:    %[[LAST:.+]] = arith.addi %[[DELTA]], %arg0 : index
// CHECK-NEXT:    %[[COND:.+]] = arith.cmpi slt, %arg0, %arg1 : index
// CHECK-NEXT:    %[[IF:.+]]:2 = scf.if %[[COND]] -> (f32, index) {
// CHECK-NEXT:      %[[X:.+]] = tt.load %arg3 : !tt.ptr<f32>
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[FOR]]#0, %[[X]] : f32
// CHECK-NEXT:      %[[N:.+]] = arith.addi %[[FOR]]#1, %[[LAST]] : index
// CHECK-NEXT:      scf.yield %[[S]], %[[N]] : f32, index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[FOR]]#0, %[[FOR]]#1 : f32, index
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[U:.+]] = arith.addf %[[IF]]#0, %[[IF]]#0 : f32
// CHECK-NEXT:    tt.return %[[U]], %[[IF]]#1 : f32, index
tt.func @two_iter_args(%lb: index, %ub: index, %step: index, %p: !tt.ptr<f32>) -> (f32, index) {
  %init = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%acc = %init, %k = %c0) -> (f32, index) {
    %x = tt.load %p : !tt.ptr<f32>
    %s = arith.addf %acc, %x : f32
    %n = arith.addi %k, %i : index
    scf.yield %s, %n : f32, index
  } {__test_peel_epilogue}
  %u = arith.addf %r#0, %r#0 : f32
  tt.return %u, %r#1 : f32, index
}

// -----

// An unsigned loop: max(ub, step) - step (no wrap-around when ub < step), divui and ult.
// CHECK-LABEL: tt.func @unsigned
// CHECK-NEXT:    %[[TOP:.+]] = arith.maxui %arg1, %arg2 : i32
// CHECK-NEXT:    %[[NUB:.+]] = arith.subi %[[TOP]], %arg2 : i32
// CHECK-NEXT:    scf.for unsigned %{{.+}} = %arg0 to %[[NUB]] step %arg2 : i32 {
// CHECK:         arith.divui
// CHECK:         %[[COND:.+]] = arith.cmpi ult, %arg0, %arg1 : i32
// CHECK-NEXT:    scf.if %[[COND]] {
// CHECK-NEXT:      tt.store %arg3, %arg4 : !tt.ptr<f32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return
tt.func @unsigned(%lb: i32, %ub: i32, %step: i32, %p: !tt.ptr<f32>, %v: f32) {
  scf.for unsigned %j = %lb to %ub step %step : i32 {
    tt.store %p, %v : !tt.ptr<f32>
  } {__test_peel_epilogue}
  tt.return
}

// -----

// Must not fire: a loop without the attribute, and one nested in a marked loop is only
// copied (the outer loop's body, inner loop included, lands in the scf.if).
// CHECK-LABEL: tt.func @unmarked
// CHECK-NOT:     arith.subi
// CHECK-NOT:     scf.if
// CHECK:         scf.for %{{.+}} = %arg0 to %arg1 step %arg2 : i32 {
// CHECK-NEXT:      tt.store
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return
tt.func @unmarked(%lb: i32, %ub: i32, %step: i32, %p: !tt.ptr<f32>, %v: f32) {
  scf.for %j = %lb to %ub step %step : i32 {
    tt.store %p, %v : !tt.ptr<f32>
  }
  tt.return
}

// CHECK-LABEL: tt.func @nested
// CHECK:         scf.for %{{.+}} = %arg0 to %{{.+}} step %arg2 : i32 {
// CHECK-NEXT:      scf.for %{{.+}} = %arg0 to %arg1 step %arg2 : i32 {
// CHECK:         scf.if
// CHECK-NEXT:      scf.for %{{.+}} = %arg0 to %arg1 step %arg2 : i32 {
tt.func @nested(%lb: i32, %ub: i32, %step: i32, %p: !tt.ptr<f32>, %v: f32) {
  scf.for %i = %lb to %ub step %step : i32 {
    scf.for %j = %lb to %ub step %step : i32 {
      tt.store %p, %v : !tt.ptr<f32>
    }
  } {__test_peel_epilogue}
  tt.return
}
