// ub.poison of a scalar and of a tensor with a layout, as Triton's IR carries it.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @poison(%c: i1) -> tensor<128x64x!tt.ptr<f16>, #blocked> {
    %s = ub.poison : i32
    %t = ub.poison : tensor<128x64x!tt.ptr<f16>, #blocked>
    tt.return %t : tensor<128x64x!tt.ptr<f16>, #blocked>
  }
}
