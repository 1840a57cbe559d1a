// triton-rewrite-tensor-descriptor-to-pointer: a descriptor becomes its pack (base pointer,
// i64 sizes and strides, padding and TF32 flags) through signatures, calls, returns and scf;
// descriptor loads, stores, gathers, scatters and reductions become masked pointer accesses.
// Functions without descriptors and plain loads are left alone.
// RUN: tilecraft-opt %s --split-input-file -triton-rewrite-tensor-descriptor-to-pointer -canonicalize -cse | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -triton-rewrite-tensor-descriptor-to-pointer -mlir-print-debuginfo | filecheck %s --check-prefix=LOC
// RUN: tilecraft-opt %s --split-input-file | filecheck %s --check-prefix=ROUND

// tt.make_tensor_descriptor reads its types with or without the dialect prefix and prints
// them without, as Triton.
// ROUND-LABEL: tt.func @loop
// ROUND:         tt.make_tensor_descriptor %arg0, [%arg1, %arg2], [%arg3, %c1_i64] {padding = 2 : i32} : <f16>, <8x16xf16>
// ROUND-NEXT:    tt.make_tensor_descriptor %arg0, [%arg1, %arg2], [%arg3, %arg3] : <f16>, <8x16xf16>

// padding = pad_nan: masked-off f16 elements read NaN; the descriptor carried by the loop
// becomes seven iter_args (canonicalize removes them, as they pass through); the load keeps
// its cache modifier.
// CHECK-LABEL: tt.func @loop
// CHECK-NOT:     tt.tensordesc
// CHECK-DAG:     %[[NAN:.+]] = arith.constant dense<0x7E00> : tensor<8x16xf16>
// CHECK:         scf.for
// CHECK:           tt.addptr
// CHECK:           %[[PTR:.+]] = tt.addptr
// CHECK:           %[[MASK:.+]] = arith.andi %{{.+}}, %{{.+}} : tensor<8x16xi1>
// CHECK:           tt.load %[[PTR]], %[[MASK]], %[[NAN]] cacheModifier = cg
module {
  tt.func @loop(%p: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %lb: index, %ub: index, %st: index) -> tensor<8x16xf16> {
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = 2 : i32} : <f16>, <8x16xf16>
    %unused = tt.make_tensor_descriptor %p, [%m, %n], [%s, %s] : !tt.ptr<f16>, !tt.tensordesc<8x16xf16>
    %z = arith.constant dense<0.0> : tensor<8x16xf16>
    %r:2 = scf.for %i = %lb to %ub step %st iter_args(%acc = %z, %dd = %d) -> (tensor<8x16xf16>, !tt.tensordesc<8x16xf16>) {
      %x = tt.descriptor_load %dd[%c0, %c0] cacheModifier = cg : !tt.tensordesc<8x16xf16> -> tensor<8x16xf16>
      scf.yield %x, %dd : tensor<8x16xf16>, !tt.tensordesc<8x16xf16>
    }
    tt.return %r#0 : tensor<8x16xf16>
  }
}

// -----

// Descriptor arguments expand in place (attributes stay on the pointer; the other values are
// named after the argument); an f32 gather rounds to TF32 under the argument's flag; an integer
// reduction is an atomic add with release semantics; an f32 load rounds under scf.if.
// CHECK-LABEL: tt.func @gather
// CHECK-SAME:    (%{{[^:]+}}: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %[[PAD:[^:]+]]: i1, %[[TF32:[^:]+]]: i1, %{{[^:]+}}: tensor<8xi32>
// CHECK:         %[[OTHER:.+]] = arith.select %[[PAD]], %{{.+}}, %{{.+}} : tensor<8x16xf32>
// CHECK:         %[[G:.+]] = tt.load %{{.+}}, %{{.+}}, %[[OTHER]] : tensor<8x16x!tt.ptr<f32>>
// CHECK:         %{{.+}} = tt.bitcast %[[G]] : tensor<8x16xf32> -> tensor<8x16xi32>
// CHECK:         %[[R:.+]] = tt.bitcast %{{.+}} : tensor<8x16xi32> -> tensor<8x16xf32>
// CHECK:         %[[V:.+]] = arith.select %[[TF32]], %[[R]], %[[G]] : tensor<8x16xf32>
// CHECK:         tt.store %{{.+}}, %[[V]], %{{.+}} : tensor<8x16x!tt.ptr<f32>>
// CHECK:         tt.atomic_rmw add, release, gpu,
// CHECK:         %[[F:.+]] = tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<8x16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[IF:.+]] = scf.if %arg22 -> (tensor<8x16xf32>) {
// CHECK:           scf.yield %{{.+}} : tensor<8x16xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[F]] : tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.store %{{.+}}, %[[IF]] : tensor<8x16x!tt.ptr<f32>>
// LOC:           [[D:#loc[0-9]*]] = loc("d"(#loc{{[0-9]*}}))
// LOC-LABEL:     tt.func @gather
// LOC-SAME:        loc("d.shape.0"([[D]]))
// LOC-SAME:        loc("d.roundF32ToTF32"([[D]]))
// LOC-SAME:        loc("arg_3.padding"(#loc{{[0-9]*}}))
module {
  tt.func @gather(%d: !tt.tensordesc<1x16xf32> {tt.divisibility = 16 : i32} loc("d"("f.py":1:1)), %rows: tensor<8xi32>, %c: i32, %e: !tt.tensordesc<8x16xi32>, %f: !tt.tensordesc<8x16xf32>, %out: tensor<8x16x!tt.ptr<f32>>) {
    %g = tt.descriptor_gather %d[%rows, %c] : (!tt.tensordesc<1x16xf32>, tensor<8xi32>, i32) -> tensor<8x16xf32>
    tt.descriptor_scatter %d[%rows, %c], %g : !tt.tensordesc<1x16xf32>, tensor<8xi32>, i32, tensor<8x16xf32>
    %x = tt.descriptor_load %e[%c, %c] : !tt.tensordesc<8x16xi32> -> tensor<8x16xi32>
    tt.descriptor_reduce add, %e[%c, %c], %x : !tt.tensordesc<8x16xi32>, tensor<8x16xi32>
    %y = tt.descriptor_load %f[%c, %c] : !tt.tensordesc<8x16xf32> -> tensor<8x16xf32>
    tt.store %out, %y : tensor<8x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A descriptor chosen by scf.if, returned: each value of the pack is selected.
// CHECK-LABEL: tt.func @branch
// CHECK-SAME:    -> (!tt.ptr<f16>, i64, i64, i64, i64, i1, i1)
// CHECK-COUNT-7: arith.select
// CHECK:         tt.return
module {
  tt.func @branch(%a: !tt.tensordesc<8x16xf16>, %b: !tt.tensordesc<8x16xf16>, %c: i1) -> !tt.tensordesc<8x16xf16> {
    %r = scf.if %c -> !tt.tensordesc<8x16xf16> {
      scf.yield %a : !tt.tensordesc<8x16xf16>
    } else {
      scf.yield %b : !tt.tensordesc<8x16xf16>
    }
    tt.return %r : !tt.tensordesc<8x16xf16>
  }
}

// -----

// Must not fire: no descriptors, nothing changes.
// CHECK-LABEL: tt.func @plain
// CHECK-SAME:    (%arg0: tensor<8x!tt.ptr<f32>>, %arg1: tensor<8xi1>) -> tensor<8xf32>
// CHECK-NEXT:    %[[X:.+]] = tt.load %arg0, %arg1 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return %[[X]]
module {
  tt.func @plain(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>) -> tensor<8xf32> {
    %x = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
    tt.return %x : tensor<8xf32>
  }
}
