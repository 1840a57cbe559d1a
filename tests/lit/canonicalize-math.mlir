// The math folders through -canonicalize: each op on constants folds to the value libm gives
// (f64, so the constants print exactly), the classification ops to i1, the integer ops with
// their wrap-around; an op on a non-constant stays.
// RUN: tilecraft-opt %s --split-input-file -canonicalize | filecheck %s

// CHECK-LABEL: tt.func @absf
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @absf() -> f64 {
  %c0 = arith.constant -2.5 : f64
  %r = math.absf %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @acos
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.141592653589793e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @acos() -> f64 {
  %c0 = arith.constant -1.0 : f64
  %r = math.acos %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @acosh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.3169578969248166e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @acosh() -> f64 {
  %c0 = arith.constant 2.0 : f64
  %r = math.acosh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @asin
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.5707963267948966e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @asin() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.asin %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @asinh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 8.81373587019543e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @asinh() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.asinh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @atan
// CHECK-NEXT:    %[[R:.*]] = arith.constant 7.853981633974483e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @atan() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.atan %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @atanh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 5.493061443340548e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @atanh() -> f64 {
  %c0 = arith.constant 0.5 : f64
  %r = math.atanh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @cbrt
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @cbrt() -> f64 {
  %c0 = arith.constant 27.0 : f64
  %r = math.cbrt %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @ceil
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @ceil() -> f64 {
  %c0 = arith.constant 1.5 : f64
  %r = math.ceil %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @cos
// CHECK-NEXT:    %[[R:.*]] = arith.constant 5.403023058681398e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @cos() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.cos %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @cosh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.5430806348152437e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @cosh() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.cosh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @erf
// CHECK-NEXT:    %[[R:.*]] = arith.constant 8.427007929497149e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @erf() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.erf %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @erfc
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.5729920705028513e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @erfc() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.erfc %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @exp2
// CHECK-NEXT:    %[[R:.*]] = arith.constant 8.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @exp2() -> f64 {
  %c0 = arith.constant 3.0 : f64
  %r = math.exp2 %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @expm1
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.718281828459045e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @expm1() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.expm1 %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @log
// CHECK-NEXT:    %[[R:.*]] = arith.constant 6.931471805599453e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @log() -> f64 {
  %c0 = arith.constant 2.0 : f64
  %r = math.log %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @log10
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @log10() -> f64 {
  %c0 = arith.constant 100.0 : f64
  %r = math.log10 %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @log1p
// CHECK-NEXT:    %[[R:.*]] = arith.constant 6.931471805599453e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @log1p() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.log1p %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @log2
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @log2() -> f64 {
  %c0 = arith.constant 8.0 : f64
  %r = math.log2 %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @round
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @round() -> f64 {
  %c0 = arith.constant 2.5 : f64
  %r = math.round %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @roundeven
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @roundeven() -> f64 {
  %c0 = arith.constant 2.5 : f64
  %r = math.roundeven %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @rsqrt
// CHECK-NEXT:    %[[R:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @rsqrt() -> f64 {
  %c0 = arith.constant 4.0 : f64
  %r = math.rsqrt %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @sin
// CHECK-NEXT:    %[[R:.*]] = arith.constant 8.414709848078965e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @sin() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.sin %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @sinh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.1752011936438014e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @sinh() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.sinh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @tan
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.5574077246549023e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @tan() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.tan %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @tanh
// CHECK-NEXT:    %[[R:.*]] = arith.constant 7.615941559557649e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @tanh() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %r = math.tanh %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @trunc
// CHECK-NEXT:    %[[R:.*]] = arith.constant -1.000000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @trunc() -> f64 {
  %c0 = arith.constant -1.5 : f64
  %r = math.trunc %c0 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @atan2
// CHECK-NEXT:    %[[R:.*]] = arith.constant 7.853981633974483e-01 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @atan2() -> f64 {
  %c0 = arith.constant 1.0 : f64
  %c1 = arith.constant 1.0 : f64
  %r = math.atan2 %c0, %c1 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @copysign
// CHECK-NEXT:    %[[R:.*]] = arith.constant -2.500000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @copysign() -> f64 {
  %c0 = arith.constant 2.5 : f64
  %c1 = arith.constant -1.0 : f64
  %r = math.copysign %c0, %c1 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @powf
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1.024000e+03 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @powf() -> f64 {
  %c0 = arith.constant 2.0 : f64
  %c1 = arith.constant 10.0 : f64
  %r = math.powf %c0, %c1 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @fpowi
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.250000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @fpowi() -> f64 {
  %c0 = arith.constant 1.5 : f64
  %c1 = arith.constant 2 : i32
  %r = math.fpowi %c0, %c1 : f64, i32
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @fma
// CHECK-NEXT:    %[[R:.*]] = arith.constant 6.500000e+00 : f64
// CHECK-NEXT:    tt.return %[[R]] : f64
tt.func @fma() -> f64 {
  %c0 = arith.constant 2.0 : f64
  %c1 = arith.constant 3.0 : f64
  %c2 = arith.constant 0.5 : f64
  %r = math.fma %c0, %c1, %c2 : f64
  tt.return %r : f64
}

// -----

// CHECK-LABEL: tt.func @isfinite
// CHECK-NEXT:    %[[R:.*]] = arith.constant false
// CHECK-NEXT:    tt.return %[[R]] : i1
tt.func @isfinite() -> i1 {
  %c0 = arith.constant 0x7FF0000000000000 : f64
  %r = math.isfinite %c0 : f64
  tt.return %r : i1
}

// -----

// CHECK-LABEL: tt.func @isinf
// CHECK-NEXT:    %[[R:.*]] = arith.constant true
// CHECK-NEXT:    tt.return %[[R]] : i1
tt.func @isinf() -> i1 {
  %c0 = arith.constant 0x7FF0000000000000 : f64
  %r = math.isinf %c0 : f64
  tt.return %r : i1
}

// -----

// CHECK-LABEL: tt.func @isnan
// CHECK-NEXT:    %[[R:.*]] = arith.constant true
// CHECK-NEXT:    tt.return %[[R]] : i1
tt.func @isnan() -> i1 {
  %c0 = arith.constant 0x7FF8000000000000 : f64
  %r = math.isnan %c0 : f64
  tt.return %r : i1
}

// -----

// CHECK-LABEL: tt.func @isnormal
// CHECK-NEXT:    %[[R:.*]] = arith.constant false
// CHECK-NEXT:    tt.return %[[R]] : i1
tt.func @isnormal() -> i1 {
  %c0 = arith.constant 1.0e-310 : f64
  %r = math.isnormal %c0 : f64
  tt.return %r : i1
}

// -----

// CHECK-LABEL: tt.func @absi
// CHECK-NEXT:    %[[R:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    tt.return %[[R]] : i8
tt.func @absi() -> i8 {
  %c0 = arith.constant -128 : i8
  %r = math.absi %c0 : i8
  tt.return %r : i8
}

// -----

// CHECK-LABEL: tt.func @cttz
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    tt.return %[[R]] : i32
tt.func @cttz() -> i32 {
  %c0 = arith.constant 40 : i32
  %r = math.cttz %c0 : i32
  tt.return %r : i32
}

// -----

// CHECK-LABEL: tt.func @ipowi
// CHECK-NEXT:    %[[R:.*]] = arith.constant -13 : i8
// CHECK-NEXT:    tt.return %[[R]] : i8
tt.func @ipowi() -> i8 {
  %c0 = arith.constant 3 : i8
  %c1 = arith.constant 5 : i8
  %r = math.ipowi %c0, %c1 : i8
  tt.return %r : i8
}

// -----

// A non-constant operand: nothing folds.
// CHECK-LABEL: tt.func @not_constant
// CHECK:         math.sin %arg0
// CHECK:         math.powf %arg0, %arg0
tt.func @not_constant(%x: f64) -> (f64, f64) {
  %0 = math.sin %x : f64
  %1 = math.powf %x, %x : f64
  tt.return %0, %1 : f64, f64
}
