// triton-nvidia-tma-lowering writes the map of each descriptor the kernel makes to 128 bytes of
// global scratch memory of its own, where the tt.make_tensor_descriptor was: sizes, box and
// element strides innermost first, the strides after the innermost in bytes, the element type,
// swizzle and out-of-bounds fill as codes; then fences it and reads the descriptor from there.
// Must not fire: a descriptor whose blocks TMA cannot move (one dimension, no layout).
// RUN: tilecraft-opt %s -triton-nvidia-tma-lowering | filecheck %s

// CHECK-LABEL: @made
// CHECK: %[[MAP:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[BYTES:.+]] = arith.constant 4 : i64
// CHECK-NEXT: %[[STRIDE:.+]] = arith.muli %arg3, %[[BYTES]] : i64
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[COLUMNS:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[ROWS:.+]] = arith.constant 64 : i32
// CHECK-NEXT: ttng.tensormap_create %[[MAP]], %arg0, [%[[COLUMNS]], %[[ROWS]]], [%arg2, %arg1], [%[[STRIDE]]], [%[[ONE]], %[[ONE]]] {elem_type = 7 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[MAP]] : !tt.ptr<i8>
// CHECK-NEXT: %[[DESC:.+]] = ttng.reinterpret_tensor_descriptor %[[MAP]] : !tt.ptr<i8> to !tt.tensordesc<64x64xf32>
// CHECK: ttng.async_tma_copy_global_to_local %[[DESC]]
// CHECK: %[[LINE:.+]] = tt.make_tensor_descriptor %arg0, [%arg1], [%c1_i64] : <f32>, <128xf32>
// CHECK-NEXT: tt.descriptor_load %[[LINE]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @made(%p: !tt.ptr<f32>, %m: i32, %n: i32, %stride: i64) {
    %c0 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%stride, %c1_i64] {padding = 2 : i32} : <f32>, <64x64xf32>
    %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<64x64xf32> -> tensor<64x64xf32, #blocked>
    %line = tt.make_tensor_descriptor %p, [%m], [%c1_i64] : <f32>, <128xf32>
    %w = tt.descriptor_load %line[%c0] : !tt.tensordesc<128xf32> -> tensor<128xf32, #blocked1>
    tt.return
  }
}
