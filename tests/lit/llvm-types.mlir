// The llvm dialect's types print as MLIR prints them (members of an LLVM type without their
// `!llvm.` prefix) and read back the same, written either way.
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s | tilecraft-opt | filecheck %s

// CHECK-LABEL: tt.func @llvm_values
// CHECK-NEXT:    %[[A:.+]] = llvm.mlir.undef : !llvm.array<4 x i32>
// CHECK-NEXT:    %[[B:.+]] = llvm.mlir.zero : !llvm.array<2 x array<8 x f16>>
// CHECK-NEXT:    %[[S:.+]] = llvm.mlir.poison : !llvm.struct<(ptr<3>, array<2 x i64>, f32)>
// CHECK-NEXT:    tt.return %[[A]], %[[B]], %[[S]] : !llvm.array<4 x i32>, !llvm.array<2 x array<8 x f16>>, !llvm.struct<(ptr<3>, array<2 x i64>, f32)>
tt.func @llvm_values() -> (!llvm.array<4 x i32>, !llvm.array<2 x array<8 x f16>>, !llvm.struct<(ptr<3>, array<2 x i64>, f32)>) {
  %a = llvm.mlir.undef : !llvm.array<4xi32>
  %b = llvm.mlir.zero : !llvm.array<2 x !llvm.array<8 x f16>>
  %s = llvm.mlir.poison : !llvm.struct<(!llvm.ptr<3>, array<2 x i64>, f32)>
  tt.return %a, %b, %s : !llvm.array<4 x i32>, !llvm.array<2 x array<8 x f16>>, !llvm.struct<(ptr<3>, array<2 x i64>, f32)>
}
