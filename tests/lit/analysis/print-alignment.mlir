// RUN: tilecraft-opt %s -test-print-alignment -split-input-file -verify-diagnostics=only-expected -o /dev/null
// RUN: tilecraft-opt %s --test-print-alignment --split-input-file --verify-diagnostics=only-expected -o /dev/null

// A contiguous range offset by a 16-aligned pointer: the addresses a vector load would use.
tt.func @ptrs(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>}}
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  tt.return
}

// -----

// Reshapes cut a contiguous run at the new rows; equal constants selected stay constant.
tt.func @shapes(%c: tensor<32xi1>) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [1, 8], divisibility = [1, 8], constancy = [1, 1], constant_value = <none>}}
  %m = tt.reshape %r : tensor<32xi32> -> tensor<4x8xi32>
  %k = arith.constant dense<12> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [32], constant_value = 12}}
  %s = arith.select %c, %k, %k : tensor<32xi1>, tensor<32xi32>
  // The sum of two aligned runs is even.
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>}}
  %d = arith.addi %r, %r : tensor<32xi32>
  tt.return
}

// -----

// Without only-expected every remark must be expected: this piece expects them all.
// RUN: not tilecraft-opt %s -test-print-alignment -split-input-file -verify-diagnostics 2>&1 | filecheck %s --check-prefix=ALL
// ALL: unexpected remark: {{.*}}tt.make_range{{.*}} => contiguity = [4], divisibility = [1073741824], constancy = [1], constant_value = <none>
tt.func @all() {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  tt.return
}
