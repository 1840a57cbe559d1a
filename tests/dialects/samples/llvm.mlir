// The llvm types (nested ones print without `!llvm.`) and constant ops.
module {
  tt.func @llvm_values(%t: tensor<128x128xi32>) -> tensor<128x128xi32> {
    %0 = builtin.unrealized_conversion_cast %t : tensor<128x128xi32> to !llvm.struct<(i32, i32, i32, i32)>
    %1 = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
    %2 = llvm.mlir.poison : !llvm.struct<packed (i8, ptr<3>, array<2 x struct<()>>)>
    %3 = llvm.mlir.zero : !llvm.ptr
    %4 = llvm.mlir.undef : !llvm.array<4 x f16>
    %5 = builtin.unrealized_conversion_cast %1 : !llvm.struct<(i32, i32, i32, i32)> to tensor<128x128xi32>
    tt.return %5 : tensor<128x128xi32>
  }
}
