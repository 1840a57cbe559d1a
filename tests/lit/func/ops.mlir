// MLIR's func dialect: functions, direct and indirect calls, function constants, returns.
// Inside a func.func the func prefix is left out, as MLIR prints it; the generic form reads
// back to the same IR.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s -mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tilecraft-opt %s -mlir-print-op-generic | tilecraft-opt | filecheck %s

// CHECK-LABEL: func.func @main(%arg0: i32, %arg1: f32 {tt.divisibility = 16 : i32}) -> (i32, f32) attributes {llvm.emit_c_interface} {
// CHECK-NEXT:    %0 = call @add_one(%arg0) : (i32) -> i32
// CHECK-NEXT:    %f = constant @add_one : (i32) -> i32
// CHECK-NEXT:    %1 = call_indirect %f(%0) : (i32) -> i32
// CHECK-NEXT:    %2 = call @ext(%arg1) {no_inline} : (f32) -> f32
// CHECK-NEXT:    return %1, %2 : i32, f32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @add_one(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @ext(f32) -> f32
// CHECK-NEXT:  func.func nested @nothing() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// A tt.func keeps its own ops' prefixes, a func.call in it included.
// CHECK-NEXT:  tt.func @kernel(%arg0: i32) -> (i32 {tt.res = 1 : i32}) {
// CHECK-NEXT:    %0 = func.call @add_one(%arg0) : (i32) -> i32
// CHECK-NEXT:    tt.return %0 : i32

// GENERIC:      "func.func"() <{arg_attrs = [{}, {tt.divisibility = 16 : i32}], function_type = (i32, f32) -> (i32, f32), sym_name = "main"}> ({
// GENERIC:        "func.call"(%arg0) <{callee = @add_one}> : (i32) -> i32
// GENERIC:        "func.constant"() <{value = @add_one}> : () -> ((i32) -> i32)
// GENERIC:        "func.call_indirect"(%{{.*}}, %0) : ((i32) -> i32, i32) -> i32
// GENERIC:        "func.call"(%arg1) <{callee = @ext, no_inline}> : (f32) -> f32
// GENERIC:        "func.return"(%2, %3) : (i32, f32) -> ()
// GENERIC:      "func.func"() <{function_type = (f32) -> f32, sym_name = "ext", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) : () -> ()
module {
  func.func @main(%a: i32, %b: f32 {tt.divisibility = 16 : i32}) -> (i32, f32)
      attributes {llvm.emit_c_interface} {
    %0 = func.call @add_one(%a) : (i32) -> i32
    %f = func.constant @add_one : (i32) -> i32
    %1 = func.call_indirect %f(%0) : (i32) -> i32
    %2 = call @ext(%b) {no_inline} : (f32) -> f32
    func.return %1, %2 : i32, f32
  }
  func.func private @add_one(%x: i32) -> i32 {
    %c1 = arith.constant 1 : i32
    %0 = arith.addi %x, %c1 : i32
    return %0 : i32
  }
  func.func private @ext(f32) -> f32
  func.func nested @nothing() {
    return
  }
  tt.func @kernel(%x: i32) -> (i32 {tt.res = 1 : i32}) {
    %0 = func.call @add_one(%x) : (i32) -> i32
    tt.return %0 : i32
  }
}
