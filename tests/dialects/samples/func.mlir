// MLIR's func dialect: a public function calling a private one directly and through a
// function value, a declaration, and a nested function with no results.
module {
  func.func @main(%x: i32, %y: f32 {tt.divisibility = 16 : i32}) -> (i32, f32)
      attributes {llvm.emit_c_interface} {
    %0 = func.call @twice(%x) : (i32) -> i32
    %f = func.constant @twice : (i32) -> i32
    %1 = func.call_indirect %f(%0) : (i32) -> i32
    %2 = func.call @external(%y) {no_inline} : (f32) -> f32
    func.return %1, %2 : i32, f32
  }
  func.func private @twice(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    return %0 : i32
  }
  func.func private @external(f32) -> f32
  func.func nested @nothing() {
    return
  }
}
