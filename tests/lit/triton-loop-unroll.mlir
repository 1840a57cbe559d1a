// triton-loop-unroll: scf.for loops with tt.loop_unroll_factor get factor copies of their
// body per iteration of a loop with a multiplied step, and an epilogue loop (tt.num_stages = 1)
// for the remaining iterations; the attribute goes.
// RUN: tilecraft-opt %s --split-input-file -triton-loop-unroll | filecheck %s

// Dynamic bounds: the bound of the unrolled loop is computed before it.
// CHECK-LABEL: tt.func @dynamic
// CHECK:         %[[DIFF:.+]] = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT:    %[[TC:.+]] = arith.ceildivsi %[[DIFF]], %arg2 : i32
// CHECK-NEXT:    %[[F:.+]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[REM:.+]] = arith.remsi %[[TC]], %[[F]] : i32
// CHECK-NEXT:    %[[EVEN:.+]] = arith.subi %[[TC]], %[[REM]] : i32
// CHECK-NEXT:    %[[SPAN:.+]] = arith.muli %[[EVEN]], %arg2 : i32
// CHECK-NEXT:    %[[UB:.+]] = arith.addi %arg0, %[[SPAN]] : i32
// CHECK-NEXT:    %[[F2:.+]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[STEP:.+]] = arith.muli %arg2, %[[F2]] : i32
// CHECK-NEXT:    %[[MAIN:.+]] = scf.for %[[IV:.+]] = %arg0 to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32) : i32 {
// CHECK-NEXT:      %[[F0:.+]] = arith.sitofp %[[IV]] : i32 to f32
// CHECK-NEXT:      %[[A0:.+]] = arith.addf %[[ACC]], %[[F0]] : f32
// CHECK-NEXT:      %[[IV1:.+]] = arith.addi %[[IV]], %arg2 : i32
// CHECK-NEXT:      %[[F1:.+]] = arith.sitofp %[[IV1]] : i32 to f32
// CHECK-NEXT:      %[[A1:.+]] = arith.addf %[[A0]], %[[F1]] : f32
// CHECK-NEXT:      scf.yield %[[A1]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[EPI:.+]] = scf.for %[[IV2:.+]] = %[[UB]] to %arg1 step %arg2 iter_args(%[[ACC2:.+]] = %[[MAIN]]) -> (f32) : i32 {
// CHECK-NEXT:      arith.sitofp %[[IV2]]
// CHECK-NEXT:      arith.addf %[[ACC2]]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {tt.num_stages = 1 : i32}
// CHECK-NEXT:    tt.return %[[EPI]] : f32
// CHECK-NOT:     tt.loop_unroll_factor
tt.func @dynamic(%lb: i32, %ub: i32, %step: i32) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0) -> (f32) : i32 {
    %f = arith.sitofp %i : i32 to f32
    %a = arith.addf %acc, %f : f32
    scf.yield %a : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// Constant trip count 12, factor 4: no epilogue; the step and offsets are constants.
// CHECK-LABEL: tt.func @static_even
// CHECK:         %[[STEP:.+]] = arith.constant 8 : index
// CHECK:         scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %[[STEP]] iter_args
// CHECK-COUNT-4:   arith.muli
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
tt.func @static_even(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  %r = scf.for %i = %c0 to %c24 step %c2 iter_args(%acc = %x) -> (i32) {
    %m = arith.muli %acc, %x : i32
    scf.yield %m : i32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : i32
}

// -----

// Constant trip count 10, factor 4: 8 iterations unrolled, an epilogue for 2.
// CHECK-LABEL: tt.func @static_rest
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : i32
// CHECK-DAG:     %[[C10:.+]] = arith.constant 10 : i32
// CHECK:         %[[MAIN:.+]] = scf.for %{{.+}} = %{{.+}} to %[[C8]] step
// CHECK:         scf.for %{{.+}} = %[[C8]] to %[[C10]] step %{{.+}} iter_args(%{{.+}} = %[[MAIN]])
// CHECK:         } {tt.num_stages = 1 : i32}
tt.func @static_rest() -> i32 {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : i32
}

// -----

// A factor above the trip count is lowered to it: 3 iterations, 3 copies, no epilogue.
// CHECK-LABEL: tt.func @small
// CHECK:         scf.for
// CHECK-COUNT-3:   arith.addi %{{.+}}, %{{.+}} : i32
// CHECK:           scf.yield
// CHECK-NOT:     scf.for
tt.func @small(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (i32) : i32 {
    %a = arith.addi %acc, %x : i32
    scf.yield %a : i32
  } {tt.loop_unroll_factor = 8 : i32}
  tt.return %r : i32
}

// -----

// Not unrolled: no attribute, a factor of 1 (the attribute goes), a loop that never runs.
// CHECK-LABEL: tt.func @not_unrolled
// CHECK-COUNT-3: scf.for
// CHECK-NOT:     tt.loop_unroll_factor
// CHECK:         } {other = 1 : i32}
tt.func @not_unrolled(%lb: i32, %ub: i32, %x: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  %r0 = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %x) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  %r1 = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %r0) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  } {tt.loop_unroll_factor = 1 : i32}
  %r2 = scf.for %i = %c5 to %c1 step %c1 iter_args(%acc = %r1) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  } {other = 1 : i32, tt.loop_unroll_factor = 2 : i32}
  tt.return %r2 : i32
}

// -----

// Loops without iter_args, and nested loops, each unrolled by its own factor: the inner one
// first, so that the outer loop's copies (in the main loop and in the epilogue) hold the
// unrolled inner loop.
// CHECK-LABEL: tt.func @nested
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-COUNT-2:     tt.store
// CHECK:           } {tt.num_stages = 1 : i32}
// CHECK:           scf.for
// CHECK-COUNT-2:     tt.store
// CHECK:           } {tt.num_stages = 1 : i32}
// CHECK:           scf.for
// CHECK-COUNT-2:     tt.store
// CHECK:           } {tt.num_stages = 1 : i32}
// CHECK-NOT:     tt.loop_unroll_factor
tt.func @nested(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
      tt.store %p, %j : !tt.ptr<i32>
    } {tt.loop_unroll_factor = 2 : i32}
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}
