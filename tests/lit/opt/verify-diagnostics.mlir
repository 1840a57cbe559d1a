// Verifier and parser errors checked with --verify-diagnostics, one case per split.
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

tt.func @mismatched(%a: i32, %b: i64) -> i32 {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  tt.return %0 : i32
}

// -----

tt.func @float_operands(%a: f32) -> f32 {
  %0 = arith.addi %a, %a : f32  // expected-error {{operand #0 must be signless-integer-like}}
  tt.return %0 : f32
}

// -----

tt.func @integer_operands(%a: i32) -> i32 {
  // expected-error @below {{'arith.addf' op operand #0 must be floating-point-like}}
  %0 = arith.addf %a, %a : i32
  tt.return %0 : i32
}

// -----

tt.func @result_type(%a: i32) {
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> i32
  // expected-error @-1 {{result #0 must be bool-like}}
  tt.return
}

// -----

tt.func @select_shape(%c: tensor<4xi1>, %a: tensor<8xi32>) -> tensor<8xi32> {
  %0 = arith.select %c, %a, %a : tensor<4xi1>, tensor<8xi32>
  // expected-error @above {{failed to verify that condition is signless i1 or has matching shape}}
  tt.return %0 : tensor<8xi32>
}

// -----

tt.func @parse_error(%a: i32) -> i32 {
  // expected-error @+1 {{expected ',' but found ':'}}
  %0 = arith.addi %a : i32
  tt.return %0 : i32
}

// -----

tt.func @undefined_value() {
  // expected-error @+1 {{use of undeclared SSA value %nope}}
  %0 = arith.addi %nope, %nope : i32
  tt.return
}

// -----

// A case without errors is printed as usual.
tt.func @fine(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}

// -----

// Notes come with their error.
// expected-note @+1 {{see existing symbol definition here}}
tt.func @twice() {
  tt.return
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
tt.func @twice() {
  tt.return
}
