// -dce: ops whose results are not needed and that have no effects beyond reading memory go,
// including values that only flow around (loop-carried values, block arguments).
// RUN: tilecraft-opt %s --split-input-file -dce | filecheck %s
// RUN: tilecraft-opt %s -dce --split-input-file --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=STATS

// STATS:      DCE
// STATS-NEXT:   (S) 3 num-erased - dead ops erased

// A dead chain goes entirely; what the return uses stays.
// CHECK-LABEL: tt.func @chain(%arg0: i32)
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.return %[[A]] : i32
tt.func @chain(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %a : i32
  %3 = arith.muli %2, %2 : i32
  tt.return %0 : i32
}

// -----

// Unused loads go (they only read), volatile loads, stores, asserts and calls stay.
// CHECK-LABEL: tt.func @effects(%arg0: !tt.ptr<i32>, %arg1: i32)
// CHECK-NEXT:    tt.load %arg0 {isVolatile = true}
// CHECK-NEXT:    tt.store %arg0, %arg1
// CHECK-NEXT:    tt.call @callee(%arg1)
// CHECK-NEXT:    tt.return
tt.func private @callee(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func @effects(%p: !tt.ptr<i32>, %a: i32) {
  %0 = tt.load %p : !tt.ptr<i32>
  %1 = tt.load %p {isVolatile = true} : !tt.ptr<i32>
  tt.store %p, %a : !tt.ptr<i32>
  %2 = tt.call @callee(%a) : (i32) -> i32
  tt.return
}

// -----

// A pure loop nobody needs goes; a loop with a store stays but loses the loop-carried value
// that only feeds itself and the unused if result.
// CHECK-LABEL: tt.func @loops(%arg0: i32, %arg1: index, %arg2: !tt.ptr<i32>, %arg3: i1)
// CHECK:         %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %arg1 step %{{.+}} iter_args(%[[ACC:.+]] = %arg0) -> (i32) {
// CHECK-NEXT:      %[[X:.+]] = arith.addi %[[ACC]], %arg0 : i32
// CHECK-NEXT:      tt.store %arg2, %[[X]] : !tt.ptr<i32>
// CHECK-NEXT:      scf.yield %[[X]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg3 {
// CHECK-NEXT:      tt.store %arg2, %arg0 : !tt.ptr<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %[[R]] : i32
tt.func @loops(%a: i32, %n: index, %p: !tt.ptr<i32>, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dead = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) : index {
    %x = arith.addi %acc, %acc : i32
    scf.yield %x : i32
  }
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %self = %a) -> (i32, i32) : index {
    %x = arith.addi %acc, %a : i32
    %y = arith.muli %self, %x : i32
    tt.store %p, %x : !tt.ptr<i32>
    scf.yield %x, %y : i32, i32
  }
  %s = scf.if %c -> (i32) {
    tt.store %p, %a : !tt.ptr<i32>
    %z = arith.muli %a, %a : i32
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  tt.return %r#0 : i32
}

// -----

// A loop-carried value the result of the loop needs stays.
// CHECK-LABEL: tt.func @live_loop(%arg0: i32, %arg1: index)
// CHECK:         scf.for {{.+}} iter_args(%{{.+}} = %arg0, %{{.+}} = %arg0) -> (i32, i32)
tt.func @live_loop(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %a) -> (i32, i32) : index {
    %s = arith.addi %x, %y : i32
    scf.yield %y, %s : i32, i32
  }
  tt.return %r#0 : i32
}

// -----

// Block arguments that only go around the CFG loop are dead, with their computations.
// CHECK-LABEL: tt.func @cfg(%arg0: i32, %arg1: i1)
// CHECK-NEXT:    cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:  ^bb1(%[[X:.+]]: i32):
// CHECK-NEXT:    %[[N:.+]] = arith.addi %[[X]], %arg0 : i32
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%[[N]] : i32), ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    tt.return %[[N]] : i32
tt.func @cfg(%a: i32, %c: i1) -> i32 {
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32, %cycle: i32):
  %next = arith.addi %x, %a : i32
  %cnext = arith.muli %cycle, %cycle : i32
  cf.cond_br %c, ^bb1(%next, %cnext : i32, i32), ^bb2
^bb2:
  tt.return %next : i32
}
