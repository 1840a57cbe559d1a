// Under --allow-unregistered-dialect, passes treat an unknown op as having unknown side
// effects: it is neither erased when unused (nor is an scf.if holding one), nor merged with
// an identical op, nor hoisted out of a loop, and it comes out as it went in.
// RUN: tilecraft-opt %s --allow-unregistered-dialect -canonicalize | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -cse | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -dce | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -sccp | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -loop-invariant-code-motion | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -triton-licm | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect \
// RUN:   -canonicalize -cse -dce -sccp -loop-invariant-code-motion -triton-licm -symbol-dce \
// RUN:   | filecheck %s
// Without the flag the first unknown op is an error at its line and column.
// RUN: not tilecraft-opt %s -cse 2>&1 | filecheck %s --check-prefix=ERROR

// CHECK-LABEL: func.func @effects(%arg0: i32, %arg1: i32, %arg2: i1) -> i32 {
// CHECK:         %0 = "mine.read"(%arg0) <{kind = 1 : i64}> : (i32) -> i32
// CHECK-NEXT:    %1 = "mine.read"(%arg0) <{kind = 1 : i64}> : (i32) -> i32
// CHECK-NEXT:    %2 = "mine.unused"(%arg0) {note = #mine.note<"kept">} : (i32) -> !mine.value
// CHECK:         scf.for
// CHECK-NEXT:      "mine.invariant"(%arg0) : (i32) -> i32
// CHECK:         scf.if %arg2
// CHECK-NEXT:      "mine.sink"(%arg1) : (i32) -> ()
// CHECK:         arith.addi %0, %1 : i32
// ERROR: unregistered-passes.mlir:[[# @LINE + 2]]:8: error: unregistered operation 'mine.read'
func.func @effects(%a: i32, %n: i32, %c: i1) -> i32 {
  %0 = "mine.read"(%a) <{kind = 1 : i64}> : (i32) -> i32
  %1 = "mine.read"(%a) <{kind = 1 : i64}> : (i32) -> i32
  %2 = "mine.unused"(%a) {note = #mine.note<"kept">} : (i32) -> !mine.value
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %h = "mine.invariant"(%a) : (i32) -> i32
  }
  %unused = scf.if %c -> (i32) {
    "mine.sink"(%n) : (i32) -> ()
    scf.yield %a : i32
  } else {
    scf.yield %n : i32
  }
  %s = arith.addi %0, %1 : i32
  return %s : i32
}
