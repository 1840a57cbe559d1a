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

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:32: error: unknown flag 'nsx'; expected one of nsw, nuw
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

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 2]]:18: error: unknown linkage 'nowhere'
// expected-error @+1 {{unknown linkage 'nowhere'}}
llvm.mlir.global nowhere @g() : i32

// -----

llvm.func @bad_constant() {
  // expected-error @+1 {{'llvm.mlir.constant' op value of type i64 does not match the result type i32}}
  %0 = llvm.mlir.constant(1 : i64) : i32
  llvm.return
}

// -----

llvm.func @float_icmp(%a: f32) {
  // expected-error @+1 {{'llvm.icmp' op operands must be integers or pointers (or vectors of them)}}
  %0 = "llvm.icmp"(%a, %a) <{predicate = 2 : i64}> : (f32, f32) -> i1
  llvm.return
}

// -----

llvm.func @vector_fcmp(%a: vector<2xf32>) {
  // expected-error @+1 {{'llvm.fcmp' op result must be vector<2xi1>}}
  %0 = "llvm.fcmp"(%a, %a) <{predicate = 4 : i64}> : (vector<2xf32>, vector<2xf32>) -> i1
  llvm.return
}

// -----

llvm.func @gep_without_its_index(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.getelementptr' op expected 1 dynamic indices, got 0}}
  %0 = "llvm.getelementptr"(%p) <{elem_type = f32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @extract_of_another_type(%s: !llvm.struct<(i32, f32)>) {
  // expected-error @+1 {{'llvm.extractvalue' op result type f32 does not match the member type i32}}
  %0 = "llvm.extractvalue"(%s) <{position = array<i64: 0>}> : (!llvm.struct<(i32, f32)>) -> f32
  llvm.return
}

// -----

llvm.func @insert_of_another_type(%s: !llvm.struct<(i32, f32)>, %f: f32) {
  // expected-error @+1 {{'llvm.insertvalue' op value type f32 does not match the member type i32}}
  %0 = "llvm.insertvalue"(%s, %f) <{position = array<i64: 0>}> : (!llvm.struct<(i32, f32)>, f32) -> !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @bad_cond_branch(%c: i1, %x: i32) {
  // expected-error @+1 {{'llvm.cond_br' op branch has 0 operands for successor #1, but target block has 1}}
  llvm.cond_br %c, ^bb1(%x : i32), ^bb1
^bb1(%y: i32):
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:29: error: position 18446744073709551616 is out of range [0, 9223372036854775808)
llvm.func @position_beyond_i64(%s: !llvm.struct<(i32, f32)>) {
  // expected-error @+1 {{position 18446744073709551616 is out of range}}
  %0 = llvm.extractvalue %s[18446744073709551616] : !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

// CHECK: llvm-invalid.mlir:[[# @LINE + 3]]:30: error: constant index 4294967296 does not fit in 32 bits
llvm.func @gep_index_beyond_i32(%p: !llvm.ptr) {
  // expected-error @+1 {{constant index 4294967296 does not fit in 32 bits}}
  %0 = llvm.getelementptr %p[4294967296] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return
}
