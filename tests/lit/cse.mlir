// -cse: equivalent ops without side effects are merged into the first one that dominates
// them, scoped by region.
// RUN: tilecraft-opt %s --split-input-file -cse | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -cse --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=STATS

// STATS:      CSE
// STATS-NEXT:   (S) {{[1-9][0-9]*}} num-cse'd - ops replaced by an earlier one
// STATS-NEXT:   (S) {{[0-9]+}} num-dce'd - dead ops erased

// Equal ops and constants merge; commutative operands may come in either order.
// CHECK-LABEL: tt.func @simple(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[C:.+]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %[[M:.+]] = arith.muli %[[A]], %[[C]] : i32
// CHECK-NEXT:    tt.return %[[A]], %[[A]], %[[M]], %[[M]]
tt.func @simple(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1_0 = arith.constant 1 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.muli %0, %c1 : i32
  %3 = arith.muli %1, %c1_0 : i32
  tt.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Different attributes, operand orders of non-commutative ops, or result types: not merged.
// CHECK-LABEL: tt.func @different(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    arith.cmpi slt, %arg0, %arg1
// CHECK-NEXT:    arith.cmpi sgt, %arg0, %arg1
// CHECK-NEXT:    arith.subi %arg0, %arg1
// CHECK-NEXT:    arith.subi %arg1, %arg0
// CHECK-NEXT:    arith.constant 1 : i32
// CHECK-NEXT:    arith.constant 1 : i64
tt.func @different(%a: i32, %b: i32) -> (i1, i1, i32, i32, i32, i64) {
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.cmpi sgt, %a, %b : i32
  %2 = arith.subi %a, %b : i32
  %3 = arith.subi %b, %a : i32
  %4 = arith.constant 1 : i32
  %5 = arith.constant 1 : i64
  tt.return %0, %1, %2, %3, %4, %5 : i1, i1, i32, i32, i32, i64
}

// -----

// Ops with memory effects are not merged: loads, stores, atomics.
// CHECK-LABEL: tt.func @effects(%arg0: !tt.ptr<f32>, %arg1: f32)
// CHECK-NEXT:    %[[L0:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT:    tt.store %arg0, %arg1 : !tt.ptr<f32>
// CHECK-NEXT:    %[[L1:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT:    %[[L2:.+]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT:    tt.store %arg0, %arg1 : !tt.ptr<f32>
// CHECK-NEXT:    tt.return %[[L0]], %[[L1]], %[[L2]]
tt.func @effects(%p: !tt.ptr<f32>, %v: f32) -> (f32, f32, f32) {
  %0 = tt.load %p : !tt.ptr<f32>
  tt.store %p, %v : !tt.ptr<f32>
  %1 = tt.load %p : !tt.ptr<f32>
  %2 = tt.load %p : !tt.ptr<f32>
  tt.store %p, %v : !tt.ptr<f32>
  tt.return %0, %1, %2 : f32, f32, f32
}

// -----

// An op in a loop body reuses one of the enclosing function; the body's own ops do not leak
// out of the loop.
// CHECK-LABEL: tt.func @nested(%arg0: i32, %arg1: index)
// CHECK:         %[[A:.+]] = arith.addi %arg0, %arg0 : i32
// CHECK:         scf.for
// CHECK-NEXT:      %[[M:.+]] = arith.muli %{{.+}}, %[[A]] : i32
// CHECK-NEXT:      scf.yield %[[M]] : i32
// CHECK:         %[[M2:.+]] = arith.muli %{{.+}}, %[[A]] : i32
// CHECK-NEXT:    tt.return
tt.func @nested(%a: i32, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = arith.addi %a, %a : i32
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) : index {
    %2 = arith.addi %a, %a : i32
    %3 = arith.muli %acc, %2 : i32
    scf.yield %3 : i32
  }
  %4 = arith.muli %1, %0 : i32
  tt.return %1, %4 : i32, i32
}

// -----

// The two branches of an scf.if do not see each other's ops, nor does the code after it.
// CHECK-LABEL: tt.func @branches(%arg0: i1, %arg1: i32)
// CHECK:         scf.if %arg0
// CHECK-NEXT:      arith.muli %arg1, %arg1
// CHECK:         } else {
// CHECK-NEXT:      arith.muli %arg1, %arg1
// CHECK:         }
// CHECK-NEXT:    arith.muli %arg1, %arg1
tt.func @branches(%c: i1, %a: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %1 = arith.muli %a, %a : i32
    scf.yield %1 : i32
  } else {
    %1 = arith.muli %a, %a : i32
    scf.yield %1 : i32
  }
  %2 = arith.muli %a, %a : i32
  tt.return %0, %2 : i32, i32
}

// -----

// Ops with regions are compared structurally: two equal pure scf.ifs merge, a different one
// stays; equal reductions merge.
// CHECK-LABEL: tt.func @regions(%arg0: i1, %arg1: i32, %arg2: tensor<8xf32>)
// CHECK:         %[[I:.+]] = scf.if %arg0 -> (i32) {
// CHECK:         %[[J:.+]] = scf.if %arg0 -> (i32) {
// CHECK:         %[[R:.+]] = "tt.reduce"(%arg2)
// CHECK-NOT:     "tt.reduce"
// CHECK:         tt.return %[[I]], %[[I]], %[[J]], %[[R]], %[[R]]
tt.func @regions(%c: i1, %a: i32, %t: tensor<8xf32>) -> (i32, i32, i32, f32, f32) {
  %0 = scf.if %c -> (i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %1 = scf.if %c -> (i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %2 = scf.if %c -> (i32) {
    %x = arith.muli %a, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %3 = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  %4 = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return %0, %1, %2, %3, %4 : i32, i32, i32, f32, f32
}

// -----

// An scf.if that stores is not merged with an equal one.
// CHECK-LABEL: tt.func @region_effects(%arg0: i1, %arg1: !tt.ptr<i32>, %arg2: i32)
// CHECK-COUNT-2: scf.if %arg0
tt.func @region_effects(%c: i1, %p: !tt.ptr<i32>, %a: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    tt.store %p, %a : !tt.ptr<i32>
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  %1 = scf.if %c -> (i32) {
    tt.store %p, %a : !tt.ptr<i32>
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  tt.return %0, %1 : i32, i32
}

// -----

// In a CFG, a block reuses the ops of the blocks that dominate it, not of its siblings.
// CHECK-LABEL: tt.func @cfg(%arg0: i1, %arg1: i32)
// CHECK-NEXT:    %[[A:.+]] = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[M:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:    cf.br ^bb3(%[[M]] : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %[[M2:.+]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:    cf.br ^bb3(%[[M2]] : i32)
// CHECK-NEXT:  ^bb3(%[[X:.+]]: i32):
// CHECK-NEXT:    tt.return %[[X]], %[[A]]
tt.func @cfg(%c: i1, %a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %1, %1 : i32
  cf.br ^bb3(%2 : i32)
^bb2:
  %3 = arith.muli %0, %0 : i32
  cf.br ^bb3(%3 : i32)
^bb3(%x: i32):
  %4 = arith.addi %a, %a : i32
  tt.return %x, %4 : i32, i32
}

// -----

// Functions are isolated from above: equal ops of two functions stay; unused pure ops go.
// CHECK-LABEL: tt.func @first(%arg0: i32)
// CHECK-NEXT:    arith.addi %arg0, %arg0
// CHECK-NEXT:    tt.return
// CHECK-LABEL: tt.func @second(%arg0: i32)
// CHECK-NEXT:    arith.addi %arg0, %arg0
// CHECK-NEXT:    tt.return
tt.func @first(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %unused = arith.muli %a, %a : i32
  tt.return %0 : i32
}
tt.func @second(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}

// -----

// Calls are not merged (they may have effects).
// CHECK-LABEL: tt.func @calls(%arg0: i32)
// CHECK-COUNT-2: tt.call @callee
tt.func private @callee(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func @calls(%a: i32) -> (i32, i32) {
  %0 = tt.call @callee(%a) : (i32) -> i32
  %1 = tt.call @callee(%a) : (i32) -> i32
  tt.return %0, %1 : i32, i32
}
