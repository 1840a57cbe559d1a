// The arith folders (MLIR's rules) through -canonicalize: constant folding with two's
// complement wrap-around, identities, comparisons, select, casts, and the places where
// nothing may fold.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// Integer arithmetic wraps at the width; the results are constants at the top.
// CHECK-LABEL: tt.func @fold_int_arith
// CHECK-DAG:     arith.constant -128 : i8
// CHECK-DAG:     arith.constant -2 : i32
// CHECK-DAG:     arith.constant -3 : i32
// CHECK-DAG:     arith.constant 25 : i8
// CHECK-DAG:     arith.constant -4 : i32
// CHECK-DAG:     arith.constant -1 : i32
// CHECK-DAG:     arith.constant 2147483642 : i32
// CHECK-DAG:     arith.constant 5 : i8
// CHECK-NOT:     arith.addi
// CHECK-NOT:     arith.muli
// CHECK-NOT:     arith.div
// CHECK-NOT:     arith.rem
// CHECK:         tt.return
tt.func @fold_int_arith() -> (i8, i32, i32, i32, i8, i32, i32, i32, i8) {
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %big = arith.constant 2147483647 : i32
  %c2 = arith.constant 2 : i32
  %cm7 = arith.constant -7 : i32
  %cm1_i8 = arith.constant -1 : i8
  %c10_i8 = arith.constant 10 : i8
  %0 = arith.addi %c127, %c1_i8 : i8
  %1 = arith.muli %big, %c2 : i32
  %2 = arith.divsi %cm7, %c2 : i32
  %3 = arith.ceildivsi %cm7, %c2 : i32
  %4 = arith.divui %cm1_i8, %c10_i8 : i8
  %5 = arith.floordivsi %cm7, %c2 : i32
  %6 = arith.remsi %cm7, %c2 : i32
  %7 = arith.subi %cm7, %big : i32
  %8 = arith.remui %cm1_i8, %c10_i8 : i8
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i8, i32, i32, i32, i8, i32, i32, i32, i8
}

// -----

// Division by zero and the overflowing INT_MIN / -1 are not folded.
// CHECK-LABEL: tt.func @no_fold_division
// CHECK:         arith.divsi
// CHECK:         arith.divui
// CHECK:         arith.remsi
// CHECK:         arith.remui
// CHECK:         arith.divsi
// CHECK:         arith.ceildivsi
// CHECK:         arith.floordivsi
tt.func @no_fold_division() -> (i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %min = arith.constant -2147483648 : i32
  %cm1 = arith.constant -1 : i32
  %0 = arith.divsi %c7, %c0 : i32
  %1 = arith.divui %c7, %c0 : i32
  %2 = arith.remsi %c7, %c0 : i32
  %3 = arith.remui %c7, %c0 : i32
  %4 = arith.divsi %min, %cm1 : i32
  %5 = arith.ceildivsi %min, %cm1 : i32
  %6 = arith.floordivsi %min, %cm1 : i32
  tt.return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i32, i32, i32
}

// -----

// Bitwise ops and shifts; a shift by the width or more is not folded.
// CHECK-LABEL: tt.func @fold_bits
// CHECK-DAG:     %[[AND:.+]] = arith.constant 8 : i8
// CHECK-DAG:     %[[OR:.+]] = arith.constant -2 : i8
// CHECK-DAG:     %[[XOR:.+]] = arith.constant -10 : i8
// CHECK-DAG:     %[[SHL:.+]] = arith.constant 64 : i8
// CHECK-DAG:     %[[SHRS:.+]] = arith.constant -3 : i8
// CHECK-DAG:     %[[SHRU:.+]] = arith.constant 125 : i8
// CHECK:         %[[BIG:.+]] = arith.shli %{{.+}}, %[[AND]] : i8
// CHECK:         tt.return %[[AND]], %[[OR]], %[[XOR]], %[[SHL]], %[[SHRS]], %[[SHRU]], %[[BIG]]
tt.func @fold_bits() -> (i8, i8, i8, i8, i8, i8, i8) {
  %a = arith.constant -6 : i8
  %b = arith.constant 12 : i8
  %c2 = arith.constant 2 : i8
  %c5 = arith.constant 5 : i8
  %c8 = arith.constant 8 : i8
  %c1 = arith.constant 1 : i8
  %0 = arith.andi %a, %b : i8
  %1 = arith.ori %a, %b : i8
  %2 = arith.xori %a, %b : i8
  %3 = arith.shli %a, %c5 : i8
  %4 = arith.shrsi %a, %c1 : i8
  %5 = arith.shrui %a, %c1 : i8
  %6 = arith.shli %c1, %c8 : i8
  tt.return %0, %1, %2, %3, %4, %5, %6 : i8, i8, i8, i8, i8, i8, i8
}

// -----

// Signed and unsigned min/max.
// CHECK-LABEL: tt.func @fold_min_max
// CHECK-DAG:     %[[M1:.+]] = arith.constant -1 : i8
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1 : i8
// CHECK:         tt.return %[[ONE]], %[[M1]], %[[M1]], %[[ONE]]
tt.func @fold_min_max() -> (i8, i8, i8, i8) {
  %a = arith.constant -1 : i8
  %b = arith.constant 1 : i8
  %0 = arith.maxsi %a, %b : i8
  %1 = arith.minsi %a, %b : i8
  %2 = arith.maxui %a, %b : i8
  %3 = arith.minui %a, %b : i8
  tt.return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----

// Integer identities.
// CHECK-LABEL: tt.func @int_identities(%arg0: i32, %arg1: i32)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONES:.+]] = arith.constant -1 : i32
// CHECK:         tt.return %arg0, %arg0, %[[ZERO]], %[[ZERO]], %arg0, %[[ZERO]], %arg0, %arg0, %[[ONES]], %[[ZERO]], %arg0, %arg0, %arg0, %[[ZERO]], %arg0, %arg0, %arg0, %arg1
tt.func @int_identities(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %x, %c1 : i32
  %2 = arith.muli %x, %c0 : i32
  %3 = arith.subi %x, %x : i32
  %4 = arith.subi %x, %c0 : i32
  %5 = arith.andi %x, %c0 : i32
  %6 = arith.andi %x, %cm1 : i32
  %7 = arith.ori %x, %c0 : i32
  %8 = arith.ori %x, %cm1 : i32
  %9 = arith.xori %x, %x : i32
  %10 = arith.xori %x, %c0 : i32
  %11 = arith.shli %x, %c0 : i32
  %12 = arith.divsi %x, %c1 : i32
  %13 = arith.remui %x, %c1 : i32
  %14 = arith.andi %x, %x : i32
  %15 = arith.ori %x, %x : i32
  %16 = arith.maxsi %x, %x : i32
  %17 = arith.divui %y, %c1 : i32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// Identities through the defining ops: (a - b) + b, (a + b) - b, (x ^ a) ^ a, x & ~x, x | ~x.
// CHECK-LABEL: tt.func @identities_through_defs(%arg0: i32, %arg1: i32)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONES:.+]] = arith.constant -1 : i32
// CHECK:         tt.return %arg0, %arg0, %arg1, %arg0, %[[ZERO]], %[[ONES]]
tt.func @identities_through_defs(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32) {
  %cm1 = arith.constant -1 : i32
  %0 = arith.subi %a, %b : i32
  %1 = arith.addi %0, %b : i32
  %2 = arith.addi %a, %b : i32
  %3 = arith.subi %2, %b : i32
  %4 = arith.subi %2, %a : i32
  %5 = arith.xori %a, %b : i32
  %6 = arith.xori %5, %b : i32
  %not = arith.xori %a, %cm1 : i32
  %7 = arith.andi %a, %not : i32
  %8 = arith.ori %not, %a : i32
  tt.return %1, %3, %4, %6, %7, %8 : i32, i32, i32, i32, i32, i32
}

// -----

// min/max with the extreme values.
// CHECK-LABEL: tt.func @min_max_bounds(%arg0: i8)
// CHECK-DAG:     %[[MAX:.+]] = arith.constant 127 : i8
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i8
// CHECK-DAG:     %[[UMAX:.+]] = arith.constant -1 : i8
// CHECK:         tt.return %[[MAX]], %arg0, %[[ZERO]], %arg0, %[[UMAX]]
tt.func @min_max_bounds(%x: i8) -> (i8, i8, i8, i8, i8) {
  %max = arith.constant 127 : i8
  %min = arith.constant -128 : i8
  %zero = arith.constant 0 : i8
  %umax = arith.constant 255 : i8
  %0 = arith.maxsi %x, %max : i8
  %1 = arith.maxsi %x, %min : i8
  %2 = arith.minui %x, %zero : i8
  %3 = arith.minui %x, %umax : i8
  %4 = arith.maxui %umax, %x : i8
  tt.return %0, %1, %2, %3, %4 : i8, i8, i8, i8, i8
}

// -----

// Must not fold: no identity applies, the operands are not constants.
// CHECK-LABEL: tt.func @no_int_identity(%arg0: i32, %arg1: i32)
// CHECK:         arith.addi %arg0, %{{.+}} : i32
// CHECK-NEXT:    arith.muli %arg0, %{{.+}} : i32
// CHECK-NEXT:    arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    arith.divsi %arg1, %arg0 : i32
// CHECK-NEXT:    arith.andi %arg0, %arg1 : i32
tt.func @no_int_identity(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.muli %x, %c2 : i32
  %2 = arith.subi %x, %y : i32
  %3 = arith.divsi %y, %x : i32
  %4 = arith.andi %x, %y : i32
  tt.return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// A constant operand of a commutative op moves to the right.
// CHECK-LABEL: tt.func @commutative_order(%arg0: i32, %arg1: f32)
// CHECK-DAG:     %[[C:.+]] = arith.constant 3 : i32
// CHECK-DAG:     %[[F:.+]] = arith.constant 2.000000e+00 : f32
// CHECK:         arith.addi %arg0, %[[C]] : i32
// CHECK:         arith.mulf %arg1, %[[F]] : f32
// CHECK:         arith.subi %[[C]], %arg0 : i32
tt.func @commutative_order(%x: i32, %f: f32) -> (i32, f32, i32) {
  %c = arith.constant 3 : i32
  %two = arith.constant 2.0 : f32
  %0 = arith.addi %c, %x : i32
  %1 = arith.mulf %two, %f : f32
  %2 = arith.subi %c, %x : i32
  tt.return %0, %1, %2 : i32, f32, i32
}

// -----

// Splat tensors fold to splats, other dense constants element by element; identities hold
// with splat constants.
// CHECK-LABEL: tt.func @fold_tensors(%arg0: tensor<4xi32>)
// CHECK-DAG:     %[[SPLAT:.+]] = arith.constant dense<5> : tensor<4xi32>
// CHECK-DAG:     %[[DENSE:.+]] = arith.constant dense<[11, 22, 33, 44]> : tensor<4xi32>
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant dense<0> : tensor<4xi32>
// CHECK:         tt.return %[[SPLAT]], %[[DENSE]], %arg0, %[[ZERO]]
tt.func @fold_tensors(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = arith.constant dense<2> : tensor<4xi32>
  %b = arith.constant dense<3> : tensor<4xi32>
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %d = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %zero = arith.constant dense<0> : tensor<4xi32>
  %0 = arith.addi %a, %b : tensor<4xi32>
  %1 = arith.addi %c, %d : tensor<4xi32>
  %2 = arith.addi %x, %zero : tensor<4xi32>
  %3 = arith.muli %x, %zero : tensor<4xi32>
  tt.return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Floats: IEEE arithmetic rounded to the type; division by zero gives an infinity.
// CHECK-LABEL: tt.func @fold_float
// CHECK-DAG:     %[[SUM:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG:     %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[REM:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[H:.+]] = arith.constant 2.048000e+03 : f16
// CHECK-DAG:     %[[MAX:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[NUM:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[NEG:.+]] = arith.constant -1.000000e+00 : f32
// CHECK:         tt.return %[[SUM]], %[[INF]], %[[REM]], %[[H]], %[[MAX]], %[[NUM]], %[[NEG]]
tt.func @fold_float() -> (f32, f32, f32, f16, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %zero = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %h = arith.constant 2048.0 : f16
  %h1 = arith.constant 1.0 : f16
  %0 = arith.addf %one, %two : f32
  %1 = arith.divf %one, %zero : f32
  %2 = arith.remf %three, %two : f32
  %3 = arith.addf %h, %h1 : f16
  %4 = arith.maximumf %nan, %two : f32
  %5 = arith.maxnumf %nan, %two : f32
  %6 = arith.negf %one : f32
  tt.return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f16, f32, f32, f32
}

// -----

// Float identities: x + -0.0, x - 0.0, x * 1.0, x / 1.0, max(x, x), maxnumf(x, NaN),
// maximumf(x, -inf), -(-x).
// CHECK-LABEL: tt.func @float_identities(%arg0: f32)
// CHECK-NEXT:    tt.return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0
tt.func @float_identities(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %nzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %0 = arith.addf %x, %nzero : f32
  %1 = arith.subf %x, %zero : f32
  %2 = arith.mulf %x, %one : f32
  %3 = arith.divf %x, %one : f32
  %4 = arith.maximumf %x, %x : f32
  %5 = arith.maxnumf %x, %nan : f32
  %6 = arith.maximumf %x, %ninf : f32
  %n = arith.negf %x : f32
  %7 = arith.negf %n : f32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// Not identities for floats: x + 0.0 (-0.0 + 0.0 is 0.0), x * 0.0 (NaN, infinities), x - x.
// CHECK-LABEL: tt.func @no_float_identity(%arg0: f32)
// CHECK:         arith.addf %arg0, %{{.+}} : f32
// CHECK-NEXT:    arith.mulf %arg0, %{{.+}} : f32
// CHECK-NEXT:    arith.subf %arg0, %arg0 : f32
// CHECK-NEXT:    arith.maximumf %arg0, %{{.+}} : f32
tt.func @no_float_identity(%x: f32) -> (f32, f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.addf %x, %zero : f32
  %1 = arith.mulf %x, %zero : f32
  %2 = arith.subf %x, %x : f32
  %3 = arith.maximumf %x, %nan : f32
  tt.return %0, %1, %2, %3 : f32, f32, f32, f32
}

// -----

// cmpi: every predicate on -1 and 1 (signed -1 < 1, unsigned 0xFFFFFFFF > 1).
// CHECK-LABEL: tt.func @fold_cmpi
// CHECK-DAG:     %[[T:.+]] = arith.constant true
// CHECK-DAG:     %[[F:.+]] = arith.constant false
// CHECK:         tt.return %[[F]], %[[T]], %[[T]], %[[T]], %[[F]], %[[F]], %[[F]], %[[F]], %[[T]], %[[T]]
tt.func @fold_cmpi() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %a = arith.constant -1 : i32
  %b = arith.constant 1 : i32
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %a, %b : i32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// cmpi of a value with itself; a constant left operand moves right with the swapped
// predicate; a tensor comparison folds to a splat.
// CHECK-LABEL: tt.func @cmpi_identities(%arg0: i32, %arg1: tensor<8xi32>)
// CHECK-DAG:     %[[T:.+]] = arith.constant true
// CHECK-DAG:     %[[F:.+]] = arith.constant false
// CHECK-DAG:     %[[C:.+]] = arith.constant 5 : i32
// CHECK-DAG:     %[[TT:.+]] = arith.constant dense<true> : tensor<8xi1>
// CHECK:         %[[SW:.+]] = arith.cmpi sgt, %arg0, %[[C]] : i32
// CHECK:         tt.return %[[T]], %[[F]], %[[T]], %[[F]], %[[SW]], %[[TT]]
tt.func @cmpi_identities(%x: i32, %t: tensor<8xi32>) -> (i1, i1, i1, i1, i1, tensor<8xi1>) {
  %c5 = arith.constant 5 : i32
  %0 = arith.cmpi eq, %x, %x : i32
  %1 = arith.cmpi ne, %x, %x : i32
  %2 = arith.cmpi uge, %x, %x : i32
  %3 = arith.cmpi slt, %x, %x : i32
  %4 = arith.cmpi slt, %c5, %x : i32
  %5 = arith.cmpi sle, %t, %t : tensor<8xi32>
  tt.return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, tensor<8xi1>
}

// -----

// cmpf: ordered predicates are false and unordered ones true with a NaN, whatever the other
// operand; false/true fold without constants.
// CHECK-LABEL: tt.func @fold_cmpf(%arg0: f32)
// CHECK-DAG:     %[[T:.+]] = arith.constant true
// CHECK-DAG:     %[[F:.+]] = arith.constant false
// CHECK:         tt.return %[[F]], %[[T]], %[[T]], %[[F]], %[[T]], %[[F]], %[[T]], %[[F]], %[[T]]
tt.func @fold_cmpf(%x: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %0 = arith.cmpf olt, %nan, %x : f32
  %1 = arith.cmpf ult, %x, %nan : f32
  %2 = arith.cmpf uno, %nan, %one : f32
  %3 = arith.cmpf ord, %nan, %one : f32
  %4 = arith.cmpf olt, %one, %two : f32
  %5 = arith.cmpf one, %nzero, %zero : f32
  %6 = arith.cmpf oeq, %nzero, %zero : f32
  %7 = arith.cmpf false, %x, %x : f32
  %8 = arith.cmpf true, %x, %one : f32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// No fold: cmpf of a value with itself may be false (NaN).
// CHECK-LABEL: tt.func @no_fold_cmpf(%arg0: f32)
// CHECK:         arith.cmpf oeq, %arg0, %arg0 : f32
tt.func @no_fold_cmpf(%x: f32) -> i1 {
  %0 = arith.cmpf oeq, %x, %x : f32
  tt.return %0 : i1
}

// -----

// select with a constant condition, equal arms, the i1 identity, and the cmpi equality.
// CHECK-LABEL: tt.func @fold_select(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>)
// CHECK-NEXT:    tt.return %arg1, %arg2, %arg1, %arg0, %arg2, %arg1, %arg3
tt.func @fold_select(%c: i1, %a: i32, %b: i32, %t: tensor<4xf32>, %u: tensor<4xf32>) -> (i32, i32, i32, i1, i32, i32, tensor<4xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %all = arith.constant dense<true> : tensor<4xi1>
  %0 = arith.select %true, %a, %b : i32
  %1 = arith.select %false, %a, %b : i32
  %2 = arith.select %c, %a, %a : i32
  %3 = arith.select %c, %true, %false : i1
  %eq = arith.cmpi eq, %a, %b : i32
  %4 = arith.select %eq, %a, %b : i32
  %ne = arith.cmpi ne, %a, %b : i32
  %5 = arith.select %ne, %a, %b : i32
  %6 = arith.select %all, %t, %u : tensor<4xi1>, tensor<4xf32>
  tt.return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i1, i32, i32, tensor<4xf32>
}

// -----

// select patterns: false/true -> xori, true/x -> ori, x/false -> andi, 1/0 -> extui,
// nested selects on the same condition.
// CHECK-LABEL: tt.func @select_patterns(%arg0: i1, %arg1: i1, %arg2: i32, %arg3: i32, %arg4: i32)
// CHECK-DAG:     %[[TRUE:.+]] = arith.constant true
// CHECK-DAG:     %[[NOT:.+]] = arith.xori %arg0, %[[TRUE]] : i1
// CHECK-DAG:     %[[OR:.+]] = arith.ori %arg0, %arg1 : i1
// CHECK-DAG:     %[[AND:.+]] = arith.andi %arg0, %arg1 : i1
// CHECK-DAG:     %[[EXT:.+]] = arith.extui %arg0 : i1 to i32
// CHECK-DAG:     %[[SEL:.+]] = arith.select %arg0, %arg2, %arg4 : i32
// CHECK-DAG:     %[[SEL2:.+]] = arith.select %arg0, %arg4, %arg3 : i32
// CHECK:         tt.return %[[NOT]], %[[OR]], %[[AND]], %[[EXT]], %[[SEL]], %[[SEL2]]
tt.func @select_patterns(%c: i1, %d: i1, %a: i32, %b: i32, %e: i32) -> (i1, i1, i1, i32, i32, i32) {
  %true = arith.constant true
  %false = arith.constant false
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %0 = arith.select %c, %false, %true : i1
  %1 = arith.select %c, %true, %d : i1
  %2 = arith.select %c, %d, %false : i1
  %3 = arith.select %c, %one, %zero : i32
  %inner = arith.select %c, %a, %b : i32
  %4 = arith.select %c, %inner, %e : i32
  %5 = arith.select %c, %e, %inner : i32
  tt.return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i32, i32, i32
}

// -----

// No select pattern applies.
// CHECK-LABEL: tt.func @no_select_pattern(%arg0: i1, %arg1: i1, %arg2: i32, %arg3: i32)
// CHECK-NEXT:    %[[S:.+]] = arith.select %arg0, %arg2, %arg3 : i32
// CHECK-NEXT:    %[[N:.+]] = arith.select %arg1, %[[S]], %arg3 : i32
// CHECK-NEXT:    tt.return %[[N]]
tt.func @no_select_pattern(%c: i1, %d: i1, %a: i32, %b: i32) -> i32 {
  %0 = arith.select %c, %a, %b : i32
  %1 = arith.select %d, %0, %b : i32
  tt.return %1 : i32
}

// -----

// Casts of constants: sign and zero extension, truncation, int <-> float (rounding to the
// target), index casts and bitcasts.
// CHECK-LABEL: tt.func @fold_casts
// CHECK-DAG:     %[[SEXT:.+]] = arith.constant -1 : i32
// CHECK-DAG:     %[[ZEXT:.+]] = arith.constant 255 : i32
// CHECK-DAG:     %[[TRUNC:.+]] = arith.constant 1 : i8
// CHECK-DAG:     %[[SI:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[UI:.+]] = arith.constant 2.550000e+02 : f32
// CHECK-DAG:     %[[FSI:.+]] = arith.constant -2 : i32
// CHECK-DAG:     %[[IDX:.+]] = arith.constant -1 : index
// CHECK-DAG:     %[[BITS:.+]] = arith.constant 1065353216 : i32
// CHECK-DAG:     %[[BIG:.+]] = arith.constant 1.6777216e+07 : f32
// CHECK:         tt.return %[[SEXT]], %[[ZEXT]], %[[TRUNC]], %[[SI]], %[[UI]], %[[FSI]], %[[IDX]], %[[BITS]], %[[BIG]]
tt.func @fold_casts() -> (i32, i32, i8, f32, f32, i32, index, i32, f32) {
  %m1 = arith.constant -1 : i8
  %c257 = arith.constant 257 : i32
  %f = arith.constant -2.7 : f32
  %one = arith.constant 1.0 : f32
  %odd = arith.constant 16777217 : i32
  %0 = arith.extsi %m1 : i8 to i32
  %1 = arith.extui %m1 : i8 to i32
  %2 = arith.trunci %c257 : i32 to i8
  %3 = arith.sitofp %m1 : i8 to f32
  %4 = arith.uitofp %m1 : i8 to f32
  %5 = arith.fptosi %f : f32 to i32
  %6 = arith.index_cast %m1 : i8 to index
  %7 = arith.bitcast %one : f32 to i32
  %8 = arith.sitofp %odd : i32 to f32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i8, f32, f32, i32, index, i32, f32
}

// -----

// Float casts round to the target: 0.1 to f16, 1e10 to f16 overflows to infinity; extf is
// exact (0.1 through f32 and back to f64 keeps the f32 rounding).
// CHECK-LABEL: tt.func @fold_float_casts
// CHECK-DAG:     %[[TENTH:.+]] = arith.constant 9.997559e-02 : f16
// CHECK-DAG:     %[[INF:.+]] = arith.constant 0x7C00 : f16
// CHECK-DAG:     %[[EXT:.+]] = arith.constant 1.0000000149011612e-01 : f64
// CHECK:         tt.return %[[TENTH]], %[[INF]], %[[EXT]]
tt.func @fold_float_casts() -> (f16, f16, f64) {
  %tenth = arith.constant 0.1 : f32
  %big = arith.constant 1.0e10 : f32
  %d = arith.constant 0.1 : f16
  %0 = arith.truncf %tenth : f32 to f16
  %1 = arith.truncf %big : f32 to f16
  %half = arith.constant 0.1 : f64
  %2 = arith.extf %d : f16 to f64
  %3 = arith.truncf %half : f64 to f32
  %4 = arith.extf %3 : f32 to f64
  tt.return %0, %1, %4 : f16, f16, f64
}

// -----

// Out of range float -> int conversions are not folded (poison in MLIR).
// CHECK-LABEL: tt.func @no_fold_fptoi
// CHECK:         arith.fptosi
// CHECK:         arith.fptoui
// CHECK:         arith.fptosi
tt.func @no_fold_fptoi() -> (i32, i32, i8) {
  %big = arith.constant 1.0e10 : f32
  %neg = arith.constant -1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.fptosi %big : f32 to i32
  %1 = arith.fptoui %neg : f32 to i32
  %2 = arith.fptosi %nan : f32 to i8
  tt.return %0, %1, %2 : i32, i32, i8
}

// -----

// Cast chains: ext(ext(x)), trunci(ext(x)) back to x, truncf(extf(x)), index_cast and
// bitcast round trips, extsi(extui(x)).
// CHECK-LABEL: tt.func @cast_chains(%arg0: i8, %arg1: f16, %arg2: i32, %arg3: f32)
// CHECK-DAG:     %[[SEXT:.+]] = arith.extsi %arg0 : i8 to i64
// CHECK-DAG:     %[[NARROW:.+]] = arith.extsi %arg0 : i8 to i16
// CHECK-DAG:     %[[ZEXT:.+]] = arith.extui %arg0 : i8 to i64
// CHECK:         tt.return %[[SEXT]], %arg0, %[[NARROW]], %arg1, %arg2, %arg3, %[[ZEXT]]
tt.func @cast_chains(%x: i8, %h: f16, %i: i32, %f: f32) -> (i64, i8, i16, f16, i32, f32, i64) {
  %0 = arith.extsi %x : i8 to i32
  %1 = arith.extsi %0 : i32 to i64
  %2 = arith.trunci %0 : i32 to i8
  %3 = arith.trunci %0 : i32 to i16
  %4 = arith.extf %h : f16 to f32
  %5 = arith.truncf %4 : f32 to f16
  %6 = arith.index_cast %i : i32 to index
  %7 = arith.index_cast %6 : index to i32
  %8 = arith.bitcast %f : f32 to i32
  %9 = arith.bitcast %8 : i32 to f32
  %10 = arith.extui %x : i8 to i32
  %11 = arith.extsi %10 : i32 to i64
  tt.return %1, %2, %3, %5, %7, %9, %11 : i64, i8, i16, f16, i32, f32, i64
}

// -----

// Chains of constants are reassociated: (x + 1) + 2, (x - 5) + 2, 10 - (x + 3), (x * 2) * 3.
// CHECK-LABEL: tt.func @reassociate(%arg0: i32)
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : i32
// CHECK-DAG:     %[[CM3:.+]] = arith.constant -3 : i32
// CHECK-DAG:     %[[C7:.+]] = arith.constant 7 : i32
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : i32
// CHECK-DAG:     %[[A:.+]] = arith.addi %arg0, %[[C3]] : i32
// CHECK-DAG:     %[[B:.+]] = arith.addi %arg0, %[[CM3]] : i32
// CHECK-DAG:     %[[S:.+]] = arith.subi %[[C7]], %arg0 : i32
// CHECK-DAG:     %[[M:.+]] = arith.muli %arg0, %[[C6]] : i32
// CHECK:         tt.return %[[A]], %[[B]], %[[S]], %[[M]]
tt.func @reassociate(%x: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  %2 = arith.subi %x, %c5 : i32
  %3 = arith.addi %2, %c2 : i32
  %4 = arith.addi %x, %c3 : i32
  %5 = arith.subi %c10, %4 : i32
  %6 = arith.muli %x, %c2 : i32
  %7 = arith.muli %6, %c3 : i32
  tt.return %1, %3, %5, %7 : i32, i32, i32, i32
}

// -----

// xori(cmp, true) is the inverse comparison.
// CHECK-LABEL: tt.func @not_of_cmp(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32)
// CHECK-DAG:     %[[I:.+]] = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-DAG:     %[[F:.+]] = arith.cmpf uge, %arg2, %arg3 : f32
// CHECK:         tt.return %[[I]], %[[F]]
tt.func @not_of_cmp(%a: i32, %b: i32, %x: f32, %y: f32) -> (i1, i1) {
  %true = arith.constant true
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %true : i1
  %2 = arith.cmpf olt, %x, %y : f32
  %3 = arith.xori %2, %true : i1
  tt.return %1, %3 : i1, i1
}

// -----

// math functions of constants: exact ones for every float type, host functions for f32/f64
// only; integer bit counting.
// CHECK-LABEL: tt.func @fold_math
// CHECK-DAG:     %[[FLOOR:.+]] = arith.constant -3.000000e+00 : f16
// CHECK-DAG:     %[[SQRT:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG:     %[[EXP:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[CLZ:.+]] = arith.constant 28 : i32
// CHECK-DAG:     %[[POP:.+]] = arith.constant 2 : i32
// CHECK:         %[[NOFOLD:.+]] = math.exp %{{.+}} : f16
// CHECK:         tt.return %[[FLOOR]], %[[SQRT]], %[[EXP]], %[[CLZ]], %[[POP]], %[[NOFOLD]]
tt.func @fold_math() -> (f16, f32, f32, i32, i32, f16) {
  %a = arith.constant -2.5 : f16
  %nine = arith.constant 9.0 : f32
  %zero = arith.constant 0.0 : f32
  %ten = arith.constant 10 : i32
  %h = arith.constant 1.0 : f16
  %0 = math.floor %a : f16
  %1 = math.sqrt %nine : f32
  %2 = math.exp %zero : f32
  %3 = math.ctlz %ten : i32
  %4 = math.ctpop %ten : i32
  %5 = math.exp %h : f16
  tt.return %0, %1, %2, %3, %4, %5 : f16, f32, f32, i32, i32, f16
}

// -----

// trunci of a zero- or sign-extension to a width between the source's and the extension's
// extends the source less; a truncation to the source's width or below is a fold.
// CHECK-LABEL: tt.func @trunci_of_ext(%arg0: i8, %arg1: tensor<4xi8>)
// CHECK-DAG:     %[[ZEXT:.+]] = arith.extui %arg0 : i8 to i16
// CHECK-DAG:     %[[SEXT:.+]] = arith.extsi %arg1 : tensor<4xi8> to tensor<4xi32>
// CHECK:         tt.return %[[ZEXT]], %[[SEXT]], %arg0
tt.func @trunci_of_ext(%x: i8, %t: tensor<4xi8>) -> (i16, tensor<4xi32>, i8) {
  %0 = arith.extui %x : i8 to i64
  %1 = arith.trunci %0 : i64 to i16
  %2 = arith.extsi %t : tensor<4xi8> to tensor<4xi64>
  %3 = arith.trunci %2 : tensor<4xi64> to tensor<4xi32>
  %4 = arith.trunci %0 : i64 to i8
  tt.return %1, %3, %4 : i16, tensor<4xi32>, i8
}
