// func verifier and parser errors (MLIR's messages), one per split, checked with
// --verify-diagnostics.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

func.func @caller() {
  // expected-error @+1 {{'func.call' op 'nope' does not reference a valid function}}
  func.call @nope() : () -> ()
  return
}

// -----

tt.func private @tt_callee()
func.func @calls_a_tt_func() {
  // expected-error @+1 {{'func.call' op 'tt_callee' does not reference a valid function}}
  func.call @tt_callee() : () -> ()
  return
}

// -----

func.func private @two(i32, i32)
func.func @operand_count(%x: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  call @two(%x) : (i32) -> ()
  return
}

// -----

func.func private @one(i32)
func.func @operand_type(%x: f32) {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type i32, but provided f32 for operand number 0}}
  call @one(%x) : (f32) -> ()
  return
}

// -----

func.func private @gives() -> i32
func.func @result_count() {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  call @gives() : () -> ()
  return
}

// -----

func.func private @gives() -> i32
func.func @result_type() {
  // expected-error @+1 {{'func.call' op result type mismatch at index 0}}
  %0 = call @gives() : () -> f32
  return
}

// -----

func.func @indirect_operands(%f: (i32) -> i32, %x: f32) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %0 = "func.call_indirect"(%f, %x) : ((i32) -> i32, f32) -> i32
  return
}

// -----

func.func @indirect_results(%f: (i32) -> i32, %x: i32) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee result types match result types}}
  %0 = "func.call_indirect"(%f, %x) : ((i32) -> i32, i32) -> f32
  return
}

// -----

func.func @indirect_count(%f: (i32) -> i32) {
  // expected-error @+1 {{0 operands present, but expected 1}}
  %0 = call_indirect %f() : (i32) -> i32
  return
}

// -----

func.func @indirect_not_a_function(%f: i32) {
  // expected-error @+1 {{expected a function type, got 'i32'}}
  call_indirect %f() : i32
  return
}

// -----

func.func @constant_undefined() {
  // expected-error @+1 {{'func.constant' op reference to undefined function 'nope'}}
  %f = constant @nope : () -> ()
  return
}

// -----

func.func private @callee(i32) -> i32
func.func @constant_type() {
  // expected-error @+1 {{'func.constant' op reference to function with mismatched type}}
  %f = constant @callee : (i32) -> f32
  return
}

// -----

func.func @return_count(%x: i32) -> (i32, i32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_count) returns 2}}
  return %x : i32
}

// -----

func.func @return_type(%x: f32) -> i32 {
  // expected-error @+1 {{type of return operand 0 (f32) doesn't match function result type (i32) in function @return_type}}
  return %x : f32
}

// -----

tt.func @return_outside() {
  // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
  func.return
}

// -----

// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration(i32)

// -----

// expected-error @+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{function_type = (i32) -> (), sym_name = "attrs", sym_visibility = "private",
                arg_attrs = [{}, {}]}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @unknown_in_func() {
  // expected-error @+1 {{custom op 'yield' is unknown}}
  yield
}
