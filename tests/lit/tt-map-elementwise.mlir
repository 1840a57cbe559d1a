// tt.map_elementwise: valid regions verify and print in the generic form (must-not-fire cases
// of the verifier: pack > 1 with several operands and results, a load inside the region,
// a result element type different from the operands').
// RUN: tilecraft-opt %s --split-input-file | filecheck %s

// CHECK-LABEL: tt.func @pack_two
// CHECK:         %[[R:.+]]:2 = "tt.map_elementwise"(%arg0, %arg1) <{pack = 2 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[A0:.+]]: i32, %[[A1:.+]]: i32, %[[B0:.+]]: f32, %[[B1:.+]]: f32):
// CHECK-NEXT:      %[[F0:.+]] = arith.sitofp %[[A0]] : i32 to f32
// CHECK-NEXT:      %[[F1:.+]] = arith.sitofp %[[A1]] : i32 to f32
// CHECK-NEXT:      tt.map_elementwise.return %[[F0]], %[[F1]], %[[A0]], %[[A1]] : f32, f32, i32, i32
// CHECK-NEXT:    }) : (tensor<256xi32>, tensor<256xf32>) -> (tensor<256xf32>, tensor<256xi32>)
tt.func @pack_two(%a: tensor<256xi32>, %b: tensor<256xf32>) -> tensor<256xf32> {
  %r:2 = "tt.map_elementwise"(%a, %b) <{pack = 2 : i32}> ({
  ^bb0(%a0: i32, %a1: i32, %b0: f32, %b1: f32):
    %f0 = arith.sitofp %a0 : i32 to f32
    %f1 = arith.sitofp %a1 : i32 to f32
    tt.map_elementwise.return %f0, %f1, %a0, %a1 : f32, f32, i32, i32
  }) : (tensor<256xi32>, tensor<256xf32>) -> (tensor<256xf32>, tensor<256xi32>)
  tt.return %r#0 : tensor<256xf32>
}

// -----

// Loads are allowed in the region; only writes are not.
// CHECK-LABEL: tt.func @load_inside
// CHECK:         tt.load %{{.+}} : !tt.ptr<i64>
// CHECK:         tt.map_elementwise.return %{{.+}} : i64
tt.func @load_inside(%p: tensor<128x!tt.ptr<i64>>) -> tensor<128xi64> {
  %r = "tt.map_elementwise"(%p) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i64>):
    %x = tt.load %q : !tt.ptr<i64>
    tt.map_elementwise.return %x : i64
  }) : (tensor<128x!tt.ptr<i64>>) -> tensor<128xi64>
  tt.return %r : tensor<128xi64>
}
