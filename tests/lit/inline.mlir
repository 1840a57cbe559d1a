// inline: calls (tt.call, func.call) of functions (tt.func, func.func) of the module, callees
// first; recursive, noinline and external functions stay called; inlined private functions
// nothing refers to go.
// RUN: tilecraft-opt %s --split-input-file -inline | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -inline --mlir-print-debuginfo \
// RUN:   | filecheck %s --check-prefix=LOC
// RUN: tilecraft-opt %s --split-input-file -inline --verify-diagnostics > /dev/null

// A chain: @inner is inlined into @middle first, then @middle into @outer.
// CHECK-LABEL: tt.func @outer(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %arg0 : i32
// CHECK-NEXT:    tt.return %1 : i32
// CHECK-NEXT:  }
// CHECK-NOT:   tt.func private
// The inlined ops keep the callee's locations.
// LOC-LABEL: tt.func @outer
// LOC-NEXT:    arith.muli {{.*}} loc([[MUL:#loc[0-9]*]])
// LOC-NEXT:    arith.addi {{.*}} loc([[ADD:#loc[0-9]*]])
// LOC-NEXT:    tt.return {{.*}} loc([[RET:#loc[0-9]*]])
// LOC-DAG:     [[MUL]] = loc("{{.*}}inline.mlir":[[# @LINE + 4]]:3)
// LOC-DAG:     [[ADD]] = loc("{{.*}}inline.mlir":[[# @LINE + 8]]:3)
// LOC-DAG:     [[RET]] = loc("{{.*}}inline.mlir":[[# @LINE + 12]]:3)
tt.func private @inner(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  tt.return %0 : i32
}
tt.func private @middle(%a: i32) -> i32 {
  %0 = tt.call @inner(%a) : (i32) -> i32
  %1 = arith.addi %0, %a : i32
  tt.return %1 : i32
}
tt.func @outer(%a: i32) -> i32 {
  %0 = tt.call @middle(%a) : (i32) -> i32
  tt.return %0 : i32
}

// -----

// A public callee stays after being inlined; calls without results and several results work.
// CHECK-LABEL: tt.func @pair(%arg0: i32) -> (i32, i32) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.return %arg0, %0 : i32, i32
// CHECK-LABEL: tt.func @user(%arg0: i32, %arg1: !tt.ptr<i32>) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    tt.store %arg1, %0 : !tt.ptr<i32>
// CHECK-NEXT:    %1 = arith.addi %arg0, %0 : i32
// CHECK-NEXT:    tt.return %1 : i32
tt.func @pair(%a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  tt.return %a, %0 : i32, i32
}
tt.func private @store(%p: !tt.ptr<i32>, %v: i32) {
  tt.store %p, %v : !tt.ptr<i32>
  tt.return
}
tt.func @user(%a: i32, %p: !tt.ptr<i32>) -> i32 {
  %0:2 = tt.call @pair(%a) : (i32) -> (i32, i32)
  tt.call @store(%p, %0#1) : (!tt.ptr<i32>, i32) -> ()
  %1 = arith.addi %0#0, %0#1 : i32
  tt.return %1 : i32
}

// -----

// Calls nested in scf regions are inlined in place.
// CHECK-LABEL: tt.func @in_loop
// CHECK:         scf.for
// CHECK-NEXT:      %[[SQ:.+]] = arith.mulf %arg5, %arg5 : f32
// CHECK-NEXT:      scf.yield %[[SQ]] : f32
// CHECK-NOT:     tt.call
tt.func private @square(%x: f32) -> f32 {
  %0 = arith.mulf %x, %x : f32
  tt.return %0 : f32
}
tt.func @in_loop(%x: f32, %lb: i32, %ub: i32, %st: i32) -> f32 {
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (f32) : i32 {
    %s = tt.call @square(%acc) : (f32) -> f32
    scf.yield %s : f32
  }
  tt.return %r : f32
}

// -----

// A callee with several blocks and returns: the caller's block is split, each tt.return
// branches to the continuation, whose argument replaces the call's result.
// CHECK-LABEL: tt.func @use_abs(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %0 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK-NEXT:    cf.cond_br %0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %1 = arith.subi %c0_i32, %arg0 : i32
// CHECK-NEXT:    cf.br ^bb3(%1 : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    cf.br ^bb3(%arg0 : i32)
// CHECK-NEXT:  ^bb3(%2: i32):
// CHECK-NEXT:    %3 = arith.addi %2, %arg0 : i32
// CHECK-NEXT:    tt.return %3 : i32
tt.func private @abs(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2
^bb1:
  %n = arith.subi %c0, %a : i32
  tt.return %n : i32
^bb2:
  tt.return %a : i32
}
tt.func @use_abs(%a: i32) -> i32 {
  %0 = tt.call @abs(%a) : (i32) -> i32
  %1 = arith.addi %0, %a : i32
  tt.return %1 : i32
}

// -----

// In a single-block scf region, a callee whose blocks form a tree of branches (each block
// reached by one branch, the leaves returning) becomes nested scf.ifs yielding what it returns.
// CHECK-NOT:   @abs2
// CHECK-LABEL: tt.func @abs_in_if(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    %0 = scf.if %arg1 -> (i32) {
// CHECK-NEXT:      %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:      %1 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK-NEXT:      %2 = scf.if %1 -> (i32) {
// CHECK-NEXT:        %3 = arith.subi %c0_i32, %arg0 : i32
// CHECK-NEXT:        scf.yield %3 : i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %3 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:        scf.yield %3 : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %2 : i32
tt.func private @abs2(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2(%a : i32)
^bb1:
  %n = arith.subi %c0, %a : i32
  tt.return %n : i32
^bb2(%b: i32):
  cf.br ^bb3
^bb3:
  %d = arith.addi %b, %b : i32
  tt.return %d : i32
}
tt.func @abs_in_if(%a: i32, %c: i1) -> i32 {
  %r = scf.if %c -> (i32) {
    %0 = tt.call @abs2(%a) : (i32) -> i32
    scf.yield %0 : i32
  } else {
    scf.yield %a : i32
  }
  tt.return %r : i32
}

// -----

// ... but not a callee whose branches meet again: a remark says why, and the callee stays.
// CHECK-LABEL: tt.func private @abs3
// CHECK-LABEL: tt.func @abs_in_for
// CHECK:         tt.call @abs3
tt.func private @abs3(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2(%a : i32)
^bb1:
  %n = arith.subi %c0, %a : i32
  cf.br ^bb2(%n : i32)
^bb2(%b: i32):
  tt.return %b : i32
}
tt.func @abs_in_for(%a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {
    // expected-remark @+1 {{not inlined: @abs3 has several blocks, which cannot replace a call nested in 'scf.for'}}
    %0 = tt.call @abs3(%x) : (i32) -> i32
    scf.yield %0 : i32
  }
  tt.return %r : i32
}

// -----

// Recursion stays: a self-recursive function and a cycle of two; their non-recursive callee
// is still inlined into them (and then erased).
// CHECK-NOT:   @helper
// CHECK-LABEL: tt.func @self
// CHECK-NEXT:    arith.addi %arg0, %arg0
// CHECK-NEXT:    tt.call @self
// CHECK-LABEL: tt.func @ping
// CHECK-NEXT:    tt.call @pong
// CHECK-LABEL: tt.func @pong
// CHECK-NEXT:    tt.call @ping
// CHECK-LABEL: tt.func @caller
// CHECK-NEXT:    tt.call @self
// CHECK-NEXT:    tt.call @ping
tt.func private @helper(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
tt.func @self(%a: i32) -> i32 {
  %0 = tt.call @helper(%a) : (i32) -> i32
  %1 = tt.call @self(%0) : (i32) -> i32
  tt.return %1 : i32
}
tt.func @ping(%a: i32) -> i32 {
  %0 = tt.call @pong(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func @pong(%a: i32) -> i32 {
  %0 = tt.call @ping(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func @caller(%a: i32) -> i32 {
  %0 = tt.call @self(%a) : (i32) -> i32
  %1 = tt.call @ping(%0) : (i32) -> i32
  tt.return %1 : i32
}

// -----

// noinline = true and external declarations are not inlined.
// CHECK-LABEL: tt.func private @kept
// CHECK-LABEL: tt.func private @external
// CHECK-LABEL: tt.func @calls
// CHECK-NEXT:    tt.call @kept
// CHECK-NEXT:    tt.call @external
tt.func private @kept(%a: i32) -> i32 attributes {noinline = true} {
  tt.return %a : i32
}
tt.func private @external(%a: i32) -> i32
tt.func @calls(%a: i32) -> i32 {
  %0 = tt.call @kept(%a) : (i32) -> i32
  %1 = tt.call @external(%0) : (i32) -> i32
  tt.return %1 : i32
}

// -----

// func.func and func.call inline as tt.func and tt.call do, chains and several blocks
// included (each func.return becomes a branch to the continuation), and across dialects;
// a no_inline call, an indirect call and a recursive func.func stay.
// CHECK-NOT:   @f_inner
// CHECK-NOT:   @f_middle
// CHECK-LABEL: func.func @f_outer(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %arg0 : i32
// CHECK-NEXT:    return %1 : i32
// CHECK-NOT:   @f_abs(
// CHECK-LABEL: func.func @f_abs_user(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %0 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK-NEXT:    cf.cond_br %0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %1 = arith.subi %c0_i32, %arg0 : i32
// CHECK-NEXT:    cf.br ^bb3(%1 : i32)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    cf.br ^bb3(%arg0 : i32)
// CHECK-NEXT:  ^bb3(%2: i32):
// CHECK-NEXT:    return %2 : i32
// CHECK-LABEL: tt.func @f_from_tt(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    tt.return %0 : i32
// CHECK-LABEL: func.func private @f_kept
// CHECK-LABEL: func.func @f_stays(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = call @f_kept(%arg0) {no_inline} : (i32) -> i32
// CHECK-NEXT:    %f = constant @f_kept : (i32) -> i32
// CHECK-NEXT:    %1 = call_indirect %f(%0) : (i32) -> i32
// CHECK-NEXT:    %2 = call @f_rec(%1) : (i32) -> i32
// CHECK-NEXT:    return %2 : i32
func.func private @f_inner(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func private @f_middle(%a: i32) -> i32 {
  %0 = call @f_inner(%a) : (i32) -> i32
  %1 = arith.addi %0, %a : i32
  return %1 : i32
}
func.func @f_outer(%a: i32) -> i32 {
  %0 = call @f_middle(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @f_abs(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %c0 : i32
  cf.cond_br %neg, ^bb1, ^bb2
^bb1:
  %n = arith.subi %c0, %a : i32
  return %n : i32
^bb2:
  return %a : i32
}
func.func @f_abs_user(%a: i32) -> i32 {
  %0 = call @f_abs(%a) : (i32) -> i32
  return %0 : i32
}
tt.func @f_from_tt(%a: i32) -> i32 {
  %0 = func.call @f_inner(%a) : (i32) -> i32
  tt.return %0 : i32
}
func.func private @f_kept(%a: i32) -> i32 {
  return %a : i32
}
func.func private @f_rec(%a: i32) -> i32 {
  %0 = call @f_rec(%a) : (i32) -> i32
  return %0 : i32
}
func.func @f_stays(%a: i32) -> i32 {
  %0 = call @f_kept(%a) {no_inline} : (i32) -> i32
  %f = constant @f_kept : (i32) -> i32
  %1 = call_indirect %f(%0) : (i32) -> i32
  %2 = call @f_rec(%1) : (i32) -> i32
  return %2 : i32
}
