// scf's canonicalization patterns, and the region simplification of -canonicalize.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// scf.if on a constant condition becomes the region that runs.
// CHECK-LABEL: tt.func @if_constant(%arg0: i32, %arg1: !tt.ptr<i32>)
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.store %arg1, %[[A]] : !tt.ptr<i32>
// CHECK-NEXT:    tt.return %[[A]] : i32
tt.func @if_constant(%a: i32, %p: !tt.ptr<i32>) -> i32 {
  %true = arith.constant true
  %false = arith.constant false
  %0 = scf.if %true -> (i32) {
    %1 = arith.addi %a, %a : i32
    tt.store %p, %1 : !tt.ptr<i32>
    scf.yield %1 : i32
  } else {
    %1 = arith.muli %a, %a : i32
    scf.yield %1 : i32
  }
  scf.if %false {
    tt.store %p, %a : !tt.ptr<i32>
  }
  tt.return %0 : i32
}

// -----

// Unused results go; yields of values defined outside become selects (or the value); an i1
// result yielding true/false is the condition (false/true its negation).
// CHECK-LABEL: tt.func @if_results(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: !tt.ptr<i32>)
// CHECK-DAG:     %[[TRUE:.+]] = arith.constant true
// CHECK-DAG:     %[[SEL:.+]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-DAG:     %[[NOT:.+]] = arith.xori %arg0, %[[TRUE]] : i1
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      tt.store %arg3, %arg1
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %[[SEL]], %arg1, %arg0, %[[NOT]]
tt.func @if_results(%c: i1, %a: i32, %b: i32, %p: !tt.ptr<i32>) -> (i32, i32, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %0:5 = scf.if %c -> (i32, i32, i1, i1, i32) {
    tt.store %p, %a : !tt.ptr<i32>
    scf.yield %a, %a, %true, %false, %b : i32, i32, i1, i1, i32
  } else {
    scf.yield %b, %a, %false, %true, %a : i32, i32, i1, i1, i32
  }
  tt.return %0#0, %0#1, %0#2, %0#3 : i32, i32, i1, i1
}

// -----

// A result computed inside a branch stays a result; an empty else goes.
// CHECK-LABEL: tt.func @if_computed(%arg0: i1, %arg1: i32, %arg2: !tt.ptr<i32>)
// CHECK-NEXT:    %[[R:.+]] = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %[[M:.+]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:      scf.yield %[[M]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      tt.store %arg2, %arg1 : !tt.ptr<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %[[R]]
tt.func @if_computed(%c: i1, %a: i32, %p: !tt.ptr<i32>) -> i32 {
  %0 = scf.if %c -> (i32) {
    %1 = arith.muli %a, %a : i32
    scf.yield %1 : i32
  } else {
    scf.yield %a : i32
  }
  scf.if %c {
    tt.store %p, %a : !tt.ptr<i32>
  } else {
  }
  tt.return %0 : i32
}

// -----

// A negated condition swaps the branches; inside a branch the condition is known.
// CHECK-LABEL: tt.func @if_condition(%arg0: i1, %arg1: !tt.ptr<i1>)
// CHECK-DAG:     %[[T:.+]] = arith.constant true
// CHECK-DAG:     %[[F:.+]] = arith.constant false
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      tt.store %arg1, %[[T]] : !tt.ptr<i1>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tt.store %arg1, %[[F]] : !tt.ptr<i1>
// CHECK-NEXT:    }
tt.func @if_condition(%c: i1, %p: !tt.ptr<i1>) {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  scf.if %n {
    tt.store %p, %c : !tt.ptr<i1>
  } else {
    tt.store %p, %c : !tt.ptr<i1>
  }
  tt.return
}

// -----

// scf.for with no iteration is its initial values; with one iteration, its body (where the
// induction variable is the lower bound).
// CHECK-LABEL: tt.func @for_trips(%arg0: i32, %arg1: i32, %arg2: index)
// CHECK-NEXT:    %[[C3:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg1, %[[C3]] : i32
// CHECK-NEXT:    tt.return %arg0, %[[A]], %arg0
tt.func @for_trips(%a: i32, %b: i32, %n: index) -> (i32, i32, i32) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %0 = scf.for %i = %c10 to %c3 step %c1 iter_args(%acc = %a) -> (i32) : index {
    %x = arith.muli %acc, %acc : i32
    scf.yield %x : i32
  }
  %1 = scf.for %i = %c3 to %c4 step %c1 iter_args(%acc = %b) -> (i32) : index {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %acc, %ii : i32
    scf.yield %x : i32
  }
  %2 = scf.for %i = %n to %n step %c1 iter_args(%acc = %a) -> (i32) : index {
    %x = arith.muli %acc, %acc : i32
    scf.yield %x : i32
  }
  tt.return %0, %1, %2 : i32, i32, i32
}

// -----

// Loop-carried values that never change and unused ones go; the others stay, including one
// that only feeds itself (-dce removes that one). The loop with a store stays.
// CHECK-LABEL: tt.func @for_iter_args(%arg0: i32, %arg1: i32, %arg2: index, %arg3: !tt.ptr<i32>)
// CHECK:         %[[R:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %arg2 step %{{.+}} iter_args(%[[ACC:.+]] = %arg0, %[[SELF:.+]] = %arg1) -> (i32, i32) {
// CHECK-NEXT:      %[[X:.+]] = arith.addi %[[ACC]], %arg1 : i32
// CHECK-NEXT:      %[[Z:.+]] = arith.muli %[[SELF]], %[[SELF]] : i32
// CHECK-NEXT:      tt.store %arg3, %arg1 : !tt.ptr<i32>
// CHECK-NEXT:      scf.yield %[[X]], %[[Z]] : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %[[R]]#0, %arg1, %arg0
tt.func @for_iter_args(%a: i32, %b: i32, %n: index, %p: !tt.ptr<i32>) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:5 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %same = %b, %init = %a, %unused = %b, %self = %b) -> (i32, i32, i32, i32, i32) : index {
    %x = arith.addi %acc, %same : i32
    %y = arith.muli %b, %b : i32
    %z = arith.muli %self, %self : i32
    tt.store %p, %same : !tt.ptr<i32>
    scf.yield %x, %same, %a, %y, %z : i32, i32, i32, i32, i32
  }
  tt.return %0#0, %0#1, %0#2 : i32, i32, i32
}

// -----

// A loop known to run at least twice whose body is only a yield of values defined outside
// it is those values. It must not fire when the trip count is unknown (zero trips give the
// initial value), when the body computes something, or when it yields a region argument.
// CHECK-LABEL: tt.func @for_empty_body(%arg0: i32, %arg1: i32, %arg2: index)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C5:.+]] = arith.constant 5 : index
// CHECK-NEXT:    %[[DYN:.+]] = scf.for %{{.+}} = %[[C0]] to %arg2 step %[[C1]] iter_args(%{{.+}} = %arg0) -> (i32) {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[BODY:.+]] = scf.for %{{.+}} = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%{{.+}} = %arg0) -> (i32) {
// CHECK-NEXT:      %[[M:.+]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:      scf.yield %[[M]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SWAP:.+]]:2 = scf.for %{{.+}} = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%[[X:.+]] = %arg0, %[[Y:.+]] = %arg1) -> (i32, i32) {
// CHECK-NEXT:      scf.yield %[[Y]], %[[X]] : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %arg1, %[[DYN]], %[[BODY]], %[[SWAP]]#0
tt.func @for_empty_body(%a: i32, %b: i32, %n: index) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %0 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %a) -> (i32) : index {
    scf.yield %b : i32
  }
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) : index {
    scf.yield %b : i32
  }
  %2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %a) -> (i32) : index {
    %m = arith.muli %b, %b : i32
    scf.yield %m : i32
  }
  %3:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %a, %y = %b) -> (i32, i32) : index {
    scf.yield %y, %x : i32, i32
  }
  tt.return %0, %1, %2, %3#0 : i32, i32, i32, i32
}

// -----

// Loop-carried values with the same initial value and the same yielded value are one value:
// the later one goes and its uses (inside and after the loop) take the earlier one. Not when
// only the initial values agree, or only the yielded values.
// CHECK-LABEL: tt.func @for_same_iter_args(%arg0: i32, %arg1: i32, %arg2: index)
// CHECK:         %[[R:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %arg2 step %{{.+}} iter_args(%[[A:.+]] = %arg0, %[[B:.+]] = %arg0, %[[C:.+]] = %arg1) -> (i32, i32, i32) {
// CHECK-NEXT:      %[[X:.+]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:      %[[Y:.+]] = arith.muli %[[B]], %[[C]] : i32
// CHECK-NEXT:      scf.yield %[[X]], %[[Y]], %[[Y]] : i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return %[[R]]#0, %[[R]]#0, %[[R]]#1, %[[R]]#2
tt.func @for_same_iter_args(%a: i32, %b: i32, %n: index) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:4 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %a, %q = %a, %r = %a, %s = %b) -> (i32, i32, i32, i32) : index {
    %x = arith.addi %p, %q : i32
    %y = arith.muli %r, %s : i32
    scf.yield %x, %x, %y, %y : i32, i32, i32, i32
  }
  tt.return %0#0, %0#1, %0#2, %0#3 : i32, i32, i32, i32
}

// -----

// A pure loop whose results nobody uses is dead; a loop with an unknown trip count that
// computes something stays.
// CHECK-LABEL: tt.func @for_dead(%arg0: i32, %arg1: index)
// CHECK-NOT:     scf.for
// CHECK:         tt.return %arg0
tt.func @for_dead(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) : index {
    %x = arith.addi %acc, %acc : i32
    scf.yield %x : i32
  }
  tt.return %a : i32
}

// -----

// In the after region of scf.while, an argument receiving the condition is true.
// CHECK-LABEL: tt.func @while_condition(%arg0: i32, %arg1: !tt.ptr<i1>)
// CHECK:         %[[T:.+]] = arith.constant true
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%{{.+}}: i32, %{{.+}}: i1):
// CHECK-NEXT:      tt.store %arg1, %[[T]] : !tt.ptr<i1>
tt.func @while_condition(%a: i32, %p: !tt.ptr<i1>) -> i32 {
  %c10 = arith.constant 10 : i32
  %0:2 = scf.while (%x = %a) : (i32) -> (i32, i1) {
    %c = arith.cmpi slt, %x, %c10 : i32
    scf.condition(%c) %x, %c : i32, i1
  } do {
  ^bb0(%y: i32, %b: i1):
    tt.store %p, %b : !tt.ptr<i1>
    %z = arith.addi %y, %y : i32
    scf.yield %z : i32
  }
  tt.return %0#0 : i32
}

// -----

// Region simplification: a constant cf.cond_br becomes cf.br, the unreachable block goes,
// the blocks merge and the dead block argument goes.
// CHECK-LABEL: tt.func @cfg(%arg0: i32)
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.return %[[A]] : i32
// CHECK-NEXT:  }
tt.func @cfg(%a: i32) -> i32 {
  %true = arith.constant true
  cf.cond_br %true, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  %y = arith.addi %x, %x : i32
  cf.br ^bb3(%y, %a : i32, i32)
^bb2:
  %z = arith.muli %a, %a : i32
  cf.br ^bb3(%z, %a : i32, i32)
^bb3(%r: i32, %unused: i32):
  tt.return %r : i32
}

// -----

// A loop in the CFG stays; its unused block argument goes from the block and the branches.
// CHECK-LABEL: tt.func @cfg_loop(%arg0: i32, %arg1: i1)
// CHECK-NEXT:    cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:  ^bb1(%[[X:.+]]: i32):
// CHECK-NEXT:    %[[Y:.+]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%[[Y]] : i32), ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    tt.return %[[Y]] : i32
tt.func @cfg_loop(%a: i32, %c: i1) -> i32 {
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32, %unused: i32):
  %y = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1(%y, %x : i32, i32), ^bb2
^bb2:
  tt.return %y : i32
}
