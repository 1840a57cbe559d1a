// A row softmax: max and sum reductions with tt.reduce combine regions (printed generically, as Triton does).
module {
  tt.func public @softmax_kernel(%out: !tt.ptr<f32>, %in: !tt.ptr<f32>, %n_cols: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.addptr %in, %0 : !tt.ptr<f32>, i32
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %3 = tt.splat %1 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %4 = tt.addptr %3, %2 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %5 = tt.splat %n_cols : i32 -> tensor<128xi32>
    %6 = arith.cmpi slt, %2, %5 : tensor<128xi32>
    %7 = tt.load %4, %6, %cst : tensor<128x!tt.ptr<f32>>
    %8 = "tt.reduce"(%7) <{axis = 0 : i32}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      %m = arith.maxnumf %arg3, %arg4 : f32
      tt.reduce.return %m : f32
    }) : (tensor<128xf32>) -> f32
    %9 = tt.splat %8 : f32 -> tensor<128xf32>
    %10 = arith.subf %7, %9 : tensor<128xf32>
    %11 = math.exp %10 : tensor<128xf32>
    %12 = "tt.reduce"(%11) ({
    ^bb0(%arg3: f32, %arg4: f32):
      %s = arith.addf %arg3, %arg4 : f32
      tt.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<128xf32>) -> f32
    %13 = tt.splat %12 : f32 -> tensor<128xf32>
    %14 = arith.divf %11, %13 : tensor<128xf32>
    %15 = tt.addptr %out, %0 : !tt.ptr<f32>, i32
    %16 = tt.splat %15 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %17, %14, %6 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
