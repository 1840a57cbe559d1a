// tritongpu-accelerate-matmul on tt.dot_scaled: the operands are upcast to bf16 (f16 when
// one is fp16), multiplied by their e8m0 scales (2^(e - 127), repeated over the 32 elements
// of K each one covers) and NaN where the scale byte is 0xFF, then the plain dot goes on
// tensor cores. Must not fire: the NaN select under fastMath, and anything for operands
// packed along M or N (rhs_k_pack = false).
// RUN: tilecraft-opt %s --split-input-file -tritongpu-accelerate-matmul | filecheck %s

// A is e2m1 (two values a byte along K) with a scale; B is bf16 without one.
// CHECK-LABEL: @fp4_times_bf16
// CHECK: %[[A:.+]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<128x32xi8, {{.*}}> -> tensor<128x64xbf16,
// CHECK: %[[WIDE:.+]] = arith.extui %arg1 : tensor<128x2xi8, {{.*}}> to tensor<128x2xi16,
// CHECK: %[[SEVEN:.+]] = arith.constant 7 : i16
// CHECK: %[[SHIFT:.+]] = tt.splat %[[SEVEN]]
// CHECK: %[[EXP:.+]] = arith.shli %[[WIDE]], %[[SHIFT]]
// CHECK: %[[S:.+]] = tt.bitcast %[[EXP]] : tensor<128x2xi16, {{.*}}> -> tensor<128x2xbf16,
// CHECK: tt.expand_dims {{.*}} {axis = 2 : i32}
// CHECK: tt.broadcast {{.*}} -> tensor<128x2x32xbf16,
// CHECK-NOT: tt.trans
// CHECK: tt.reshape {{.*}} -> tensor<128x64xbf16,
// CHECK: %[[SCALED:.+]] = arith.mulf %[[A]],
// CHECK: %[[FF:.+]] = arith.constant dense<-1> : tensor<128x2xi8,
// CHECK: arith.cmpi eq, %arg1, %[[FF]]
// CHECK: %[[NAN:.+]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16,
// CHECK: %[[MASKED:.+]] = arith.select %{{.+}}, %[[NAN]], %[[SCALED]]
// CHECK: ttg.convert_layout %[[MASKED]] {{.*}} -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked
// CHECK: tt.dot {{.*}} -> tensor<128x128xf32, #mma>
// CHECK-NOT: tt.dot_scaled
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#s = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp4_times_bf16(%a: tensor<128x32xi8, #a>, %scale: tensor<128x2xi8, #s>, %b: tensor<64x128xbf16, #d>) -> tensor<128x128xf32, #d> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #d>
    %r = tt.dot_scaled %a scale %scale, %b, %zero lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #a>, tensor<128x2xi8, #s> * tensor<64x128xbf16, #d> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
}

// -----

// B is e5m2 with a scale given N x K/32: it is transposed to K/32 x N, each row repeated 32
// times along K (a transpose puts the copies next to their row); fastMath: no NaN select.
// A is fp16, so everything is computed in f16: the scale byte goes into an f32's exponent,
// then is truncated.
// CHECK-LABEL: @fp16_times_fp8
// CHECK: %[[B:.+]] = tt.fp_to_fp %arg2 : tensor<64x128xf8E5M2, {{.*}}> -> tensor<64x128xf16,
// CHECK: %[[T:.+]] = tt.trans %arg3 {order = array<i32: 1, 0>} : tensor<128x2xi8, {{.*}}> -> tensor<2x128xi8,
// CHECK: %[[WIDE:.+]] = arith.extui %[[T]] : {{.*}} to tensor<2x128xi32,
// CHECK: arith.constant 23 : i32
// CHECK: %[[F32:.+]] = tt.bitcast {{.*}} -> tensor<2x128xf32,
// CHECK: arith.truncf %[[F32]] : tensor<2x128xf32, {{.*}}> to tensor<2x128xf16,
// CHECK: tt.broadcast {{.*}} -> tensor<2x128x32xf16,
// CHECK: tt.trans {{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x128x32xf16, {{.*}}> -> tensor<2x32x128xf16,
// CHECK: tt.reshape {{.*}} -> tensor<64x128xf16,
// CHECK: arith.mulf %[[B]],
// CHECK-NOT: arith.select
// CHECK: tt.dot
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#s = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp16_times_fp8(%a: tensor<128x64xf16, #a>, %unused: tensor<128x2xi8, #s>, %b: tensor<64x128xf8E5M2, #d>, %scale: tensor<128x2xi8, #s>) -> tensor<128x128xf32, #d> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #d>
    %r = tt.dot_scaled %a, %b scale %scale, %zero lhs = fp16 rhs = e5m2 {fastMath = true} : tensor<128x64xf16, #a> * tensor<64x128xf8E5M2, #d>, tensor<128x2xi8, #s> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
}

// -----

// B packed along N: left as it is.
// CHECK-LABEL: @packed_along_n
// CHECK: tt.dot_scaled
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#s = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @packed_along_n(%a: tensor<128x64xbf16, #a>, %b: tensor<64x64xi8, #d>, %scale: tensor<128x2xi8, #s>) -> tensor<128x128xf32, #d> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #d>
    %r = tt.dot_scaled %a, %b scale %scale, %zero lhs = bf16 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<128x64xbf16, #a> * tensor<64x64xi8, #d>, tensor<128x2xi8, #s> -> tensor<128x128xf32, #d>
    tt.return %r : tensor<128x128xf32, #d>
  }
}
