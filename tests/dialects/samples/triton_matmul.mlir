// A matmul K-loop: scf.for carrying the accumulator and pointer tensors, tt.dot in the body.
module {
  tt.func public @matmul_kernel(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_a = arith.constant dense<32> : tensor<64x32xi32>
    %cst_b = arith.constant dense<2048> : tensor<32x64xi32>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %0 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %1 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %2 = tt.broadcast %0 : tensor<64x1xi32> -> tensor<64x32xi32>
    %3 = tt.broadcast %1 : tensor<1x32xi32> -> tensor<64x32xi32>
    %4 = arith.addi %2, %3 : tensor<64x32xi32>
    %5 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %6 = tt.addptr %5, %4 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %7 = tt.trans %4 {order = array<i32: 1, 0>} : tensor<64x32xi32> -> tensor<32x64xi32>
    %8 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %9 = tt.addptr %8, %7 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %10:3 = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%acc = %cst, %pa = %6, %pb = %9) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>)  : i32 {
      %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>>
      %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>>
      %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %na = tt.addptr %pa, %cst_a : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
      %nb = tt.addptr %pb, %cst_b : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
    } {tt.num_stages = 3 : i32}
    %11 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %12 = tt.broadcast %11 : tensor<64x1xi32> -> tensor<64x64xi32>
    %13 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %14 = tt.addptr %13, %12 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %14, %10#0 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
