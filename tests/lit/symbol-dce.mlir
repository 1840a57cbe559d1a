// -symbol-dce: private symbols that nothing live references go, transitively.
// RUN: tilecraft-opt %s --split-input-file --allow-unregistered-dialect -symbol-dce | filecheck %s
// RUN: tilecraft-opt %s --split-input-file --allow-unregistered-dialect -symbol-dce --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=STATS

// STATS:      SymbolDCE
// STATS-NEXT:   (S) 4 num-dce'd - symbols erased

// Public functions stay with what they call; private functions reached only from dead ones
// go, recursive ones with no outside caller too, and unused declarations.
// CHECK-LABEL: module
// CHECK-NOT:     @dead
// CHECK-NOT:     @recursive
// CHECK-NOT:     @unused_decl
// CHECK:         tt.func private @live_leaf
// CHECK:         tt.func private @live
// CHECK:         tt.func private @used_decl
// CHECK:         tt.func @kernel
// CHECK-NOT:     @dead
module {
  tt.func private @dead_leaf(%a: i32) -> i32 {
    tt.return %a : i32
  }
  tt.func private @dead(%a: i32) -> i32 {
    %0 = tt.call @dead_leaf(%a) : (i32) -> i32
    tt.return %0 : i32
  }
  tt.func private @live_leaf(%a: i32) -> i32 {
    tt.return %a : i32
  }
  tt.func private @live(%a: i32) -> i32 {
    %0 = tt.call @live_leaf(%a) : (i32) -> i32
    tt.return %0 : i32
  }
  tt.func private @recursive(%a: i32) -> i32 {
    %0 = tt.call @recursive(%a) : (i32) -> i32
    tt.return %0 : i32
  }
  tt.func private @unused_decl(i32) -> i32
  tt.func private @used_decl(i32) -> i32
  tt.func @kernel(%a: i32) -> i32 {
    %0 = tt.call @live(%a) : (i32) -> i32
    %1 = tt.call @used_decl(%0) : (i32) -> i32
    tt.return %1 : i32
  }
}

// -----

// Public functions stay even when nothing calls them; a reference from a non-call op (here
// an attribute of an op outside any function) keeps a private function.
// CHECK-LABEL: module
// CHECK:         tt.func private @referenced
// CHECK:         tt.func public @entry
// CHECK:         tt.func @other
module {
  tt.func private @referenced() {
    tt.return
  }
  tt.func public @entry() {
    tt.return
  }
  tt.func @other() {
    tt.return
  }
  "test.uses"() {callbacks = [@referenced]} : () -> ()
}

// -----

// A private function called only from a private function that is itself dead goes, even
// through a cycle.
// CHECK-LABEL: module
// CHECK-NEXT:    tt.func @kernel
// CHECK-NOT:     tt.func
module {
  tt.func private @ping(%a: i32) -> i32 {
    %0 = tt.call @pong(%a) : (i32) -> i32
    tt.return %0 : i32
  }
  tt.func private @pong(%a: i32) -> i32 {
    %0 = tt.call @ping(%a) : (i32) -> i32
    tt.return %0 : i32
  }
  tt.func @kernel() {
    tt.return
  }
}

// -----

// func.func alike: a private function reached only through a func.constant (an indirect
// call) stays, one reached only from dead functions goes, and a tt.func calling a func.func
// keeps it.
// CHECK-LABEL: module
// CHECK-NOT:     @f_dead
// CHECK:         func.func private @f_by_value
// CHECK:         func.func private @f_from_tt
// CHECK:         func.func @f_entry
// CHECK-NEXT:      %f = constant @f_by_value
// CHECK:         tt.func @kernel
// CHECK-NOT:     @f_dead
module {
  func.func private @f_dead_leaf() {
    return
  }
  func.func private @f_dead() {
    call @f_dead_leaf() : () -> ()
    return
  }
  func.func private @f_by_value() {
    return
  }
  func.func private @f_from_tt() {
    return
  }
  func.func @f_entry() {
    %f = constant @f_by_value : () -> ()
    call_indirect %f() : () -> ()
    return
  }
  tt.func @kernel() {
    func.call @f_from_tt() : () -> ()
    tt.return
  }
}
