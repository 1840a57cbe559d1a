// The llvm types (nested ones print without `!llvm.`), constant ops and llvm.intr.assume.
module {
  tt.func @llvm_values(%t: tensor<128x128xi32>, %c: i1) -> tensor<128x128xi32> {
    llvm.intr.assume %c : i1
    llvm.intr.assume %c : i1 {ttg.partition = array<i32: 1, 2>}
    %0 = builtin.unrealized_conversion_cast %t : tensor<128x128xi32> to !llvm.struct<(i32, i32, i32, i32)>
    %1 = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
    %2 = llvm.mlir.poison : !llvm.struct<packed (i8, ptr<3>, array<2 x struct<()>>)>
    %3 = llvm.mlir.zero : !llvm.ptr
    %4 = llvm.mlir.undef : !llvm.array<4 x f16>
    %5 = builtin.unrealized_conversion_cast %1 : !llvm.struct<(i32, i32, i32, i32)> to tensor<128x128xi32>
    tt.return %5 : tensor<128x128xi32>
  }
}
