// convert-arith-to-llvm: arith ops on scalars and vectors become llvm ops; index values are
// integers of index-bitwidth bits, joined to what stays index by unrealized casts; ops on
// tensors stay. convert-index-to-llvm has no index dialect to lower here.
// RUN: tilecraft-opt %s --allow-unregistered-dialect -convert-arith-to-llvm | filecheck %s
// RUN: tilecraft-opt %s --allow-unregistered-dialect -convert-arith-to-llvm='index-bitwidth=32' | filecheck %s --check-prefix=I32
// RUN: tilecraft-opt %s --allow-unregistered-dialect -convert-index-to-llvm | filecheck %s --check-prefix=INDEX
// RUN: not tilecraft-opt %s --allow-unregistered-dialect -convert-arith-to-llvm='index-bitwidth=-1' 2>&1 | filecheck %s --check-prefix=BAD

// CHECK-LABEL: llvm.func @scalars
// CHECK-NEXT:   %[[C:.+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:   %[[A:.+]] = llvm.add %arg0, %[[C]] : i32
// CHECK-NEXT:   %[[D:.+]] = llvm.sdiv %[[A]], %arg0 : i32
// CHECK-NEXT:   %[[M:.+]] = llvm.call_intrinsic "llvm.smax.i32"(%[[D]], %arg0) : (i32, i32) -> i32
// CHECK-NEXT:   %[[F:.+]] = llvm.sitofp %[[M]] : i32 to f32
// CHECK-NEXT:   %[[G:.+]] = llvm.fmul %[[F]], %arg1 : f32
// CHECK-NEXT:   %[[N:.+]] = llvm.fneg %[[G]] : f32
// CHECK-NEXT:   %[[Q:.+]] = llvm.fcmp "olt" %[[N]], %arg1 : f32
// CHECK-NEXT:   %[[S:.+]] = llvm.select %[[Q]], %[[N]], %arg1 : i1, f32
// CHECK-NEXT:   %[[P:.+]] = llvm.icmp "ult" %[[A]], %arg0 : i32
// CHECK-NEXT:   %[[E:.+]] = llvm.sext %[[A]] : i32 to i64
// CHECK-NEXT:   %[[X:.+]] = unrealized_conversion_cast %[[E]] : i64 to index
// CHECK-NEXT:   "test.use"(%[[X]], %[[P]]) : (index, i1) -> ()
// CHECK-NEXT:   %[[T:.+]] = llvm.fptrunc %[[S]] : f32 to f16
// CHECK-NEXT:   "test.use"(%[[T]]) : (f16) -> ()
// CHECK-NEXT:   llvm.return
// I32-LABEL: llvm.func @scalars
// I32-NOT: llvm.sext
// I32: %[[X:.+]] = unrealized_conversion_cast %{{.*}} : i32 to index
// I32-NEXT: "test.use"(%[[X]], %{{.*}}) : (index, i1) -> ()
// INDEX-LABEL: llvm.func @scalars
// INDEX-NEXT: arith.constant 3 : i32
// BAD: error: 'builtin.module' op convert-arith-to-llvm: index-bitwidth must be 0 (from the data layout) or a positive width, got -1
llvm.func @scalars(%arg0: i32, %arg1: f32) {
  %c = arith.constant 3 : i32
  %a = arith.addi %arg0, %c : i32
  %d = arith.divsi %a, %arg0 : i32
  %m = arith.maxsi %d, %arg0 : i32
  %f = arith.sitofp %m : i32 to f32
  %g = arith.mulf %f, %arg1 : f32
  %n = arith.negf %g : f32
  %q = arith.cmpf olt, %n, %arg1 : f32
  %s = arith.select %q, %n, %arg1 : f32
  %p = arith.cmpi ult, %a, %arg0 : i32
  %x = arith.index_cast %a : i32 to index
  "test.use"(%x, %p) : (index, i1) -> ()
  %t = arith.truncf %s : f32 to f16
  "test.use"(%t) : (f16) -> ()
  llvm.return
}

// CHECK-LABEL: tt.func @tensors
// CHECK-NEXT: arith.addf %arg0, %arg0 : tensor<4xf32>
tt.func @tensors(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
  tt.return %0 : tensor<4xf32>
}
