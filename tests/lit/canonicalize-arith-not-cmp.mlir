// xori(cmp(p, a, b), true) is the comparison with the inverse predicate (MLIR's XOrINotCmpI
// and XOrINotCmpF): for integers the complementary one, for floats the unordered form of an
// ordered predicate and back, so NaN operands still give the negation.
// RUN: tilecraft-opt %s -canonicalize | filecheck %s

// CHECK-LABEL: tt.func @not_cmpi(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[A:.+]] = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NEXT:    %[[B:.+]] = arith.cmpi ne, %arg0, %arg1 : i32
// CHECK-NEXT:    %[[C:.+]] = arith.cmpi ugt, %arg0, %arg1 : i32
// CHECK-NEXT:    tt.return %[[A]], %[[B]], %[[C]] : i1, i1, i1
tt.func @not_cmpi(%a: i32, %b: i32) -> (i1, i1, i1) {
  %true = arith.constant true
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %true : i1
  %2 = arith.cmpi eq, %a, %b : i32
  %3 = arith.xori %2, %true : i1
  %4 = arith.cmpi ule, %a, %b : i32
  %5 = arith.xori %4, %true : i1
  tt.return %1, %3, %5 : i1, i1, i1
}

// CHECK-LABEL: tt.func @not_cmpf(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>)
// CHECK-NEXT:    %[[A:.+]] = arith.cmpf uge, %arg0, %arg1 : tensor<8xf32>
// CHECK-NEXT:    %[[B:.+]] = arith.cmpf one, %arg0, %arg1 : tensor<8xf32>
// CHECK-NEXT:    tt.return %[[A]], %[[B]] : tensor<8xi1>, tensor<8xi1>
tt.func @not_cmpf(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %0 = arith.cmpf olt, %a, %b : tensor<8xf32>
  %1 = arith.xori %0, %true : tensor<8xi1>
  %2 = arith.cmpf ueq, %a, %b : tensor<8xf32>
  %3 = arith.xori %2, %true : tensor<8xi1>
  tt.return %1, %3 : tensor<8xi1>, tensor<8xi1>
}

// An xori with false, or with a value that is not constant, keeps the comparison.
// CHECK-LABEL: tt.func @not_a_negation(%arg0: i32, %arg1: i32, %arg2: i1)
// CHECK-NEXT:    %[[A:.+]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:    %[[B:.+]] = arith.xori %[[A]], %arg2 : i1
// CHECK-NEXT:    tt.return %[[A]], %[[B]] : i1, i1
tt.func @not_a_negation(%a: i32, %b: i32, %c: i1) -> (i1, i1) {
  %false = arith.constant false
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %false : i1
  %2 = arith.xori %0, %c : i1
  tt.return %1, %2 : i1, i1
}
