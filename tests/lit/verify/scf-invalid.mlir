// scf verifier errors (MLIR's messages), one per split, checked with --verify-diagnostics.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @for_carried_count(%lb: index, %ub: index, %s: index, %x: i32) {
  // expected-error @+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
  "scf.for"(%lb, %ub, %s, %x) ({
  ^bb0(%i: index, %a: i32):
    "scf.yield"(%a) : (i32) -> ()
  }) : (index, index, index, i32) -> ()
  tt.return
}

// -----

tt.func @for_induction_type(%lb: index, %ub: index, %s: index) {
  // expected-error @+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: i32):
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  tt.return
}

// -----

tt.func @if_needs_else(%c: i1, %x: i32) {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (i32) {
    scf.yield %x : i32
  }
  tt.return
}

// -----

tt.func @if_yield_type(%c: i1, %x: i32, %y: i64) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Region #1 to parent results: source type #0 'i64' should match input type #0 'i32'}}
  %r = "scf.if"(%c) ({
    "scf.yield"(%x) : (i32) -> ()
  }, {
    "scf.yield"(%y) : (i64) -> ()
  }) : (i1) -> i32
  tt.return
}

// -----

tt.func @while_after_args(%x: i32) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Region #0 to Region #1: source type #0 'i32' should match input type #0 'i64'}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    %t = arith.constant true
    "scf.condition"(%t, %a) : (i1, i32) -> ()
  }, {
  ^bb0(%b: i64):
    "scf.yield"(%x) : (i32) -> ()
  }) : (i32) -> i32
  tt.return
}
