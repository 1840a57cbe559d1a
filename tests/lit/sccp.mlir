// -sccp: sparse conditional constant propagation over values, block arguments, cf branches
// and scf regions.
// RUN: tilecraft-opt %s --split-input-file -sccp | filecheck %s

// Constants propagate through arithmetic; the computations go.
// CHECK-LABEL: tt.func @arith()
// CHECK-NEXT:    %[[C:.+]] = arith.constant 7 : i32
// CHECK-NEXT:    tt.return %[[C]] : i32
tt.func @arith() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %c2, %c3 : i32
  %1 = arith.addi %0, %c1 : i32
  tt.return %1 : i32
}

// -----

// Folding sees partial constants: x * 0 is 0 whatever x is; x + 1 is not a constant.
// CHECK-LABEL: tt.func @partial(%arg0: i32)
// CHECK-DAG:     %[[Z:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[A:.+]] = arith.addi %arg0, %{{.+}} : i32
// CHECK:         tt.return %[[Z]], %[[A]]
tt.func @partial(%x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.muli %c0, %x : i32
  %1 = arith.addi %x, %c1 : i32
  tt.return %0, %1 : i32, i32
}

// -----

// A branch on a known condition: only one successor runs; the other block goes and the
// branch becomes cf.br; the block argument is the constant passed.
// CHECK-LABEL: tt.func @known_branch(%arg0: i32)
// CHECK-DAG:     %[[TEN:.+]] = arith.constant 10 : i32
// CHECK:         cf.br ^bb1
// CHECK-NEXT:  ^bb1(%{{.+}}: i32):
// CHECK-NEXT:    tt.return %[[TEN]] : i32
// CHECK-NOT:   ^bb2
tt.func @known_branch(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %lt = arith.cmpi slt, %c1, %c5 : i32
  cf.cond_br %lt, ^bb1(%c5 : i32), ^bb2(%a : i32)
^bb1(%x: i32):
  %y = arith.addi %x, %x : i32
  tt.return %y : i32
^bb2(%z: i32):
  tt.return %z : i32
}

// -----

// Two predecessors passing the same constant make the argument constant; different values
// do not.
// CHECK-LABEL: tt.func @merge(%arg0: i1)
// CHECK-DAG:     %[[C:.+]] = arith.constant 4 : i32
// CHECK:       ^bb3(%{{.+}}: i32, %[[D:.+]]: i32):
// CHECK-NEXT:    tt.return %[[C]], %[[D]] : i32, i32
tt.func @merge(%c: i1) -> (i32, i32) {
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%c4, %c4 : i32, i32)
^bb2:
  cf.br ^bb3(%c4, %c5 : i32, i32)
^bb3(%x: i32, %y: i32):
  tt.return %x, %y : i32, i32
}

// -----

// A CFG loop: a value that goes around unchanged stays constant, a counter does not.
// CHECK-LABEL: tt.func @cfg_loop(%arg0: i32)
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1 : i32
// CHECK:       ^bb1(%[[I:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    %[[N:.+]] = arith.addi %[[I]], %[[ONE]] : i32
// CHECK:         tt.return %[[ONE]], %[[N]] : i32, i32
tt.func @cfg_loop(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^bb1(%c0, %c1 : i32, i32)
^bb1(%i: i32, %k: i32):
  %next = arith.addi %i, %c1 : i32
  %same = arith.muli %k, %c1 : i32
  %done = arith.cmpi sge, %next, %n : i32
  cf.cond_br %done, ^bb2, ^bb1(%next, %same : i32, i32)
^bb2:
  tt.return %same, %next : i32, i32
}

// -----

// scf.if: a known condition runs one region (the if goes); with an unknown condition a
// result is constant when every branch yields the same constant.
// CHECK-LABEL: tt.func @if(%arg0: i1, %arg1: i32)
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : i32
// CHECK:         %[[U:.+]] = scf.if %arg0 -> (i32) {
// CHECK:         tt.return %[[C2]], %[[C3]], %[[U]]
tt.func @if(%c: i1, %a: i32) -> (i32, i32, i32) {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = scf.if %true -> (i32) {
    %s = arith.addi %c1, %c1 : i32
    scf.yield %s : i32
  } else {
    scf.yield %a : i32
  }
  %1 = scf.if %c -> (i32) {
    scf.yield %c3 : i32
  } else {
    %t = arith.addi %c1, %c2 : i32
    scf.yield %t : i32
  }
  %2 = scf.if %c -> (i32) {
    scf.yield %c3 : i32
  } else {
    scf.yield %a : i32
  }
  tt.return %0, %1, %2 : i32, i32, i32
}

// -----

// scf.for: a loop-carried value the body keeps constant is constant, as is the result of a
// loop with no iteration; a value the body changes is not.
// CHECK-LABEL: tt.func @for(%arg0: index, %arg1: i32)
// CHECK-DAG:     %[[C5:.+]] = arith.constant 5 : i32
// CHECK:         %[[R:.+]]:2 = scf.for
// CHECK:         tt.return %[[C5]], %[[R]]#1, %[[C5]]
tt.func @for(%n: index, %a: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c5, %j = %c5) -> (i32, i32) : index {
    %same = arith.muli %k, %one : i32
    %inc = arith.addi %j, %one : i32
    scf.yield %same, %inc : i32, i32
  }
  %z = scf.for %i = %c1 to %c0 step %c1 iter_args(%x = %c5) -> (i32) : index {
    %y = arith.addi %x, %one : i32
    scf.yield %y : i32
  }
  tt.return %r#0, %r#1, %z : i32, i32, i32
}

// -----

// scf.while whose condition is false from the start returns the initial values.
// CHECK-LABEL: tt.func @while()
// CHECK:         %[[C:.+]] = arith.constant 10 : i32
// CHECK:         tt.return %[[C]] : i32
tt.func @while() -> i32 {
  %c10 = arith.constant 10 : i32
  %c5 = arith.constant 5 : i32
  %0 = scf.while (%x = %c10) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %c5 : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %z = arith.addi %y, %y : i32
    scf.yield %z : i32
  }
  tt.return %0 : i32
}

// -----

// Function arguments, loads and call results are unknown; tt ops fold with constants.
// CHECK-LABEL: tt.func @unknowns(%arg0: i32, %arg1: !tt.ptr<i32>)
// CHECK-DAG:     %[[S:.+]] = arith.constant dense<2> : tensor<8xi32>
// CHECK-DAG:     %[[L:.+]] = tt.load %arg1
// CHECK-DAG:     %[[C:.+]] = tt.call @id(%arg0)
// CHECK:         tt.return %[[S]], %[[L]], %[[C]]
tt.func private @id(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func @unknowns(%a: i32, %p: !tt.ptr<i32>) -> (tensor<8xi32>, i32, i32) {
  %c2 = arith.constant 2 : i32
  %0 = tt.splat %c2 : i32 -> tensor<8xi32>
  %1 = tt.load %p : !tt.ptr<i32>
  %2 = tt.call @id(%a) : (i32) -> i32
  tt.return %0, %1, %2 : tensor<8xi32>, i32, i32
}

// -----

// On a function (a nested pipeline), SCCP starts from its entry block: the unreached block
// goes, the block arguments and the branch condition are resolved.
// RUN: tilecraft-opt %s --split-input-file --pass-pipeline='builtin.module(tt.func(sccp))' \
// RUN:   | filecheck %s --check-prefix=FUNC
// FUNC-LABEL: tt.func @on_function(%arg0: i32)
// FUNC-NEXT:    %[[ONE:.+]] = arith.constant 1 : i32
// FUNC-NEXT:    cf.br ^bb1(%[[ONE]] : i32)
// FUNC-NEXT:  ^bb1(%{{.+}}: i32):
// FUNC-NEXT:    cf.br ^bb2(%[[ONE]] : i32)
// FUNC-NEXT:  ^bb2(%{{.+}}: i32):
// FUNC-NEXT:    tt.return %[[ONE]] : i32
// CHECK-LABEL: tt.func @on_function
tt.func @on_function(%a: i32) -> i32 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  cf.cond_br %true, ^bb1(%c1 : i32), ^bb2(%a : i32)
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2(%y: i32):
  cf.br ^bb3(%y : i32)
^bb3(%z: i32):
  tt.return %z : i32
}
