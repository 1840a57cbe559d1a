// arith verifier errors, one per split, with MLIR's messages (checked with --verify-diagnostics).
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// The condition of a select on tensors has the result's shape and layout: the shape is a
// trait's check, the layout the op's own.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @select_condition_in_another_layout(%c: tensor<128xi1, #b1>, %x: tensor<128xf32, #b2>) -> tensor<128xf32, #b2> {
    // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected tensor<128xi1, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, but got tensor<128xi1, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>}}
    %0 = arith.select %c, %x, %x : tensor<128xi1, #b1>, tensor<128xf32, #b2>
    tt.return %0 : tensor<128xf32, #b2>
  }
}

// -----

tt.func @select_condition_of_another_shape(%c: tensor<64xi1>, %x: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %x, %x : tensor<64xi1>, tensor<128xf32>
  tt.return %0 : tensor<128xf32>
}
