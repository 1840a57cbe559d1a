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

// A difference of runs of different lengths keeps only parity; one of runs of equal length
// keeps the common divisibility (the in-run steps cancel).
tt.func @sub_runs(%q: tensor<64xi32> {tt.contiguity = 4 : i32, tt.divisibility = 8 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>}}
  %a = arith.subi %r, %q : tensor<64xi32>
  %r16 = tt.make_range {end = 80 : i32, start = 16 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %b = arith.subi %r16, %r : tensor<64xi32>
  // Bitwise ops keep no divisibility, and scalar comparisons are not analysed.
  %k = arith.constant dense<64> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %c = arith.andi %r, %k : tensor<64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %lt = arith.cmpi slt, %c0, %c1 : i32
  tt.return
}

// -----

// Ops in a branch that cannot run are never reached: pessimistic (not the folded sum).
tt.func @dead_branch() {
  %c5 = arith.constant dense<4> : tensor<4xi32>
  %false = arith.constant false
  %true = arith.constant true
  scf.if %false {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
    %dead = arith.addi %c5, %c5 : tensor<4xi32>
  }
  scf.if %true {
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [4], constant_value = 8}}
    %live = arith.addi %c5, %c5 : tensor<4xi32>
  }
  tt.return
}

// -----

// Explicit captures of ttg.warp_specialize carry their facts into the partitions; facts go
// through unrealized casts (to a structure and back) when the ranks allow it.
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @captures(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32},
                  %t: tensor<8x8xi32> {tt.contiguity = dense<[1, 8]> : tensor<2xi32>}) {
  ttg.warp_specialize(%p, %n)
  default {
    ttg.warp_yield
  }
  partition0(%a: !tt.ptr<f16>, %b: i32) num_warps(1) {
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
    %q = tt.addptr %a, %b : !tt.ptr<f16>, i32
    ttg.warp_return
  } : (!tt.ptr<f16>, i32) -> ()
  // expected-remark @below {{contiguity = [1, 8], divisibility = [1, 1], constancy = [1, 1], constant_value = <none>}}
  %s = builtin.unrealized_conversion_cast %t : tensor<8x8xi32> to !llvm.struct<(i32, i32)>
  // expected-remark @below {{contiguity = [1, 8], divisibility = [1, 1], constancy = [1, 1], constant_value = <none>}}
  %u = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32, i32)> to tensor<8x8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %v = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32, i32)> to tensor<64xi32>
  tt.return
}
}

// -----

// Without only-expected every remark must be expected: this piece expects them all.
// RUN: not tilecraft-opt %s -test-print-alignment -split-input-file -verify-diagnostics 2>&1 | filecheck %s --check-prefix=ALL
// ALL: unexpected remark: {{.*}}tt.make_range{{.*}} => contiguity = [4], divisibility = [1073741824], constancy = [1], constant_value = <none>
tt.func @all() {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  tt.return
}
