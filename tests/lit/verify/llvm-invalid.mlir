// Malformed llvm ops: an error at file:line:col (parse errors with the source line and a
// caret), never a traceback, and the verifier's messages, one per split.
// RUN: not tilecraft-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// CHECK: llvm-invalid.mlir:[[# @LINE + 4]]:18: error: unknown predicate "less"; expected one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge
// CHECK-NOT: Traceback
llvm.func @bad_predicate(%a: i32) {
  // expected-error @+1 {{unknown predicate "less"}}
  %0 = llvm.icmp "less" %a, %a : i32
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:28: error: position 2 is out of bounds of !llvm.struct<(i32, f32)>
llvm.func @bad_position(%s: !llvm.struct<(i32, f32)>) {
  // expected-error @+1 {{position 2 is out of bounds}}
  %0 = llvm.extractvalue %s[2] : !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:33: error: unknown flag 'nsx'; expected one of nsw, nuw
llvm.func @bad_flag(%a: i32) {
  // expected-error @+1 {{unknown flag 'nsx'}}
  %0 = llvm.add %a, %a overflow<nsx> : i32
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:36: error: expected the types of the base and of 1 dynamic indices, and one result type
llvm.func @bad_gep(%p: !llvm.ptr, %i: i64) {
  // expected-error @+1 {{expected the types of the base and of 1 dynamic indices}}
  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 2]]:1: error: 'llvm.func' op entry block arguments do not match the function's parameters (i32)
// expected-error @+1 {{entry block arguments do not match the function's parameters (i32)}}
"llvm.func"() <{sym_name = "bad_entry", function_type = !llvm.func<void (i32)>}> ({
^bb0(%x: i64):
  llvm.return
}) : () -> ()

// -----

llvm.func @returns_i32() -> i32 {
  // expected-error @+1 {{'llvm.return' op returns nothing, but the enclosing function @returns_i32 returns i32}}
  llvm.return
}

// -----

llvm.func @callee(f32) -> f32
llvm.func @bad_call(%x: i32) {
  // expected-error @+1 {{'llvm.call' op operand types (i32) do not match the callee's type !llvm.func<f32 (f32)>}}
  %0 = llvm.call @callee(%x) : (i32) -> f32
  llvm.return
}

// -----

llvm.func @bad_branch(%x: i32) {
  // expected-error @+1 {{'llvm.br' op branch has 0 operands for successor #0, but target block has 1}}
  llvm.br ^bb1
^bb1(%y: i32):
  llvm.return
}

// -----

llvm.func @bad_intrinsic() {
  // expected-error @+1 {{'llvm.call_intrinsic' op intrinsic name must start with 'llvm.', got 'nvvm.barrier0'}}
  llvm.call_intrinsic "nvvm.barrier0"() : () -> ()
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: unknown flag 'quick'; expected one of nnan, ninf, nsz, arcp, contract, afn, reassoc
llvm.func @bad_fastmath(%a: f32) {
  // expected-error @+1 {{unknown flag 'quick'}}
  %0 = llvm.fadd %a, %a {fastmathFlags = #llvm.fastmath<quick>} : f32
  llvm.return
}
