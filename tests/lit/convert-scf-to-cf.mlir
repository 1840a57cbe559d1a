// convert-scf-to-cf: scf.for, scf.if and scf.while become blocks joined by cf branches, as
// MLIR's SCFToControlFlow lowers them; the lowered IR verifies (tilecraft-opt verifies after
// the pass) and reads back.
// RUN: tilecraft-opt %s --split-input-file -convert-scf-to-cf | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -convert-scf-to-cf | tilecraft-opt --split-input-file \
// RUN:   | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -convert-scf-to-cf --verify-diagnostics > /dev/null

// A loop with a carried value: a condition block takes the induction variable and the value,
// the body steps the induction variable, the result is the condition block's argument.
// CHECK-LABEL: tt.func @for_loop(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
// CHECK-NEXT:    cf.br ^bb1(%arg0, %arg3 : index, f32)
// CHECK-NEXT:  ^bb1(%0: index, %1: f32):
// CHECK-NEXT:    %2 = arith.cmpi slt, %0, %arg1 : index
// CHECK-NEXT:    cf.cond_br %2, ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %3 = arith.addf %1, %1 : f32
// CHECK-NEXT:    %4 = arith.addi %0, %arg2 : index
// CHECK-NEXT:    cf.br ^bb1(%4, %3 : index, f32)
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    tt.return %1 : f32
tt.func @for_loop(%lb: index, %ub: index, %step: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  tt.return %r : f32
}

// -----

// unsignedCmp compares with ult.
// CHECK-LABEL: tt.func @unsigned_loop
// CHECK:         arith.cmpi ult, %0, %arg1 : i32
tt.func @unsigned_loop(%lb: i32, %ub: i32, %step: i32) {
  scf.for unsigned %i = %lb to %ub step %step : i32 {
    "tt.print"(%i) <{hex = false, isSigned = array<i32: 1>, prefix = ""}> : (i32) -> ()
  }
  tt.return
}

// -----

// An if with results: each branch jumps to the continuation with its yielded values; an if
// without an else jumps straight there.
// CHECK-LABEL: tt.func @if_else(%arg0: i1, %arg1: i32, %arg2: !tt.ptr<i32>) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%0 : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    cf.br ^bb3(%arg1 : i32)
// CHECK-NEXT:  ^bb3(%1: i32):
// CHECK-NEXT:    cf.cond_br %arg0, ^bb4, ^bb5
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    tt.store %arg2, %1 : !tt.ptr<i32>
// CHECK-NEXT:    cf.br ^bb5
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    tt.return %1 : i32
tt.func @if_else(%c: i1, %x: i32, %p: !tt.ptr<i32>) -> i32 {
  %r = scf.if %c -> (i32) {
    %d = arith.addi %x, %x : i32
    scf.yield %d : i32
  } else {
    scf.yield %x : i32
  }
  scf.if %c {
    tt.store %p, %r : !tt.ptr<i32>
  }
  tt.return %r : i32
}

// -----

// A while loop: before, then after or out with the condition's values, which are the
// results; after branches back to before.
// CHECK-LABEL: tt.func @while_loop(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:  ^bb1(%0: i32):
// CHECK-NEXT:    %1 = arith.cmpi slt, %0, %arg1 : i32
// CHECK-NEXT:    cf.cond_br %1, ^bb2(%0 : i32), ^bb3
// CHECK-NEXT:  ^bb2(%2: i32):
// CHECK-NEXT:    %3 = arith.addi %2, %2 : i32
// CHECK-NEXT:    cf.br ^bb1(%3 : i32)
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    tt.return %0 : i32
tt.func @while_loop(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %lt = arith.cmpi slt, %a, %n : i32
    scf.condition(%lt) %a : i32
  } do {
  ^bb0(%a: i32):
    %d = arith.addi %a, %a : i32
    scf.yield %d : i32
  }
  tt.return %r : i32
}

// -----

// Nested ops are lowered too, in func.func as in tt.func.
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     scf.
// CHECK:         return
func.func @nested(%lb: index, %ub: index, %step: index, %c: i1, %x: i32) -> i32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (i32) {
    %t = scf.if %c -> (i32) {
      %w = scf.while (%a = %acc) : (i32) -> i32 {
        %lt = arith.cmpi slt, %a, %x : i32
        scf.condition(%lt) %a : i32
      } do {
      ^bb0(%a: i32):
        %d = arith.addi %a, %a : i32
        scf.yield %d : i32
      }
      scf.yield %w : i32
    } else {
      scf.yield %acc : i32
    }
    scf.yield %t : i32
  }
  return %r : i32
}

// -----

// A region that may hold one block only (a tt.reduce combine region) keeps its scf ops.
// CHECK-LABEL: tt.func @in_reduce
// CHECK:         scf.if
tt.func @in_reduce(%t: tensor<4xi32>, %c: i1) -> i32 {
  %r = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    // expected-remark @+1 {{not lowered: 'tt.reduce' holds it in a region of a single block}}
    %m = scf.if %c -> (i32) {
      scf.yield %a : i32
    } else {
      scf.yield %b : i32
    }
    tt.reduce.return %m : i32
  }) : (tensor<4xi32>) -> i32
  tt.return %r : i32
}
