// The arith folders that canonicalize.mlir leaves out: minimumf propagates a NaN, minnumf
// ignores it, fptoui truncates toward zero; each folds constants only.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// CHECK-LABEL: tt.func @fold_min_float
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[NEG:.*]] = arith.constant -2.500000e+00 : f32
// CHECK-DAG:     %[[U:.*]] = arith.constant 3 : i8
// CHECK-NOT:     arith.minimumf
// CHECK-NOT:     arith.minnumf
// CHECK-NOT:     arith.fptoui
// CHECK:         tt.return %[[NAN]], %[[ONE]], %[[NEG]], %[[U]] : f32, f32, f32, i8
tt.func @fold_min_float() -> (f32, f32, f32, i8) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %neg = arith.constant -2.5 : f32
  %u = arith.constant 3.75 : f32
  %0 = arith.minimumf %nan, %one : f32
  %1 = arith.minnumf %nan, %one : f32
  %2 = arith.minnumf %one, %neg : f32
  %3 = arith.fptoui %u : f32 to i8
  tt.return %0, %1, %2, %3 : f32, f32, f32, i8
}

// -----

// Not constants: nothing folds.
// CHECK-LABEL: tt.func @no_fold
// CHECK:         arith.minimumf %arg0, %arg1
// CHECK:         arith.minnumf %arg0, %arg1
// CHECK:         arith.fptoui %arg0
tt.func @no_fold(%a: f32, %b: f32) -> (f32, f32, i8) {
  %0 = arith.minimumf %a, %b : f32
  %1 = arith.minnumf %a, %b : f32
  %2 = arith.fptoui %a : f32 to i8
  tt.return %0, %1, %2 : f32, f32, i8
}
