// Every tt op not covered by the kernel samples, in the formats triton-opt prints.
module {
  tt.func private @external(!tt.ptr<f32> {tt.divisibility = 16 : i32}, i32) -> f32
  tt.func private @two_results(%arg0: f32) -> (f32, i32 {tt.int_result}) {
    %c = arith.constant 0 : i32
    tt.return %arg0, %c : f32, i32
  }
  tt.func public @ops(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %ps: !tt.ptr<f16, 3>, %f: f32, %i: i32, %l: i64, %t: tensor<16xf32>, %ti: tensor<16xi32>) attributes {noinline = false} {
    %pid_y = tt.get_program_id y : i32
    %np = tt.get_num_programs z : i32
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    // casts
    %0 = tt.int_to_ptr %l : i64 -> !tt.ptr<f32>
    %1 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %2 = tt.bitcast %t : tensor<16xf32> -> tensor<16xi32>
    %3 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
    %4 = tt.fp_to_fp %t, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
    %5 = tt.fp_to_fp %4 : tensor<16xf8E4M3FN> -> tensor<16xf32>
    // arithmetic
    %6 = tt.clampf %t, %t, %t, propagateNan = all : tensor<16xf32>
    %7 = tt.precise_sqrt %f : f32
    %8 = tt.precise_divf %t, %t : tensor<16xf32>
    %9 = tt.mulhiui %ti, %ti : tensor<16xi32>
    // shapes
    %10 = tt.reshape %ti : tensor<16xi32> -> tensor<4x4xi32>
    %11 = tt.reshape %ti allow_reorder efficient_layout : tensor<16xi32> -> tensor<2x8xi32>
    %12 = tt.cat %ti, %ti : tensor<16xi32> -> tensor<32xi32>
    %13 = tt.join %t, %t : tensor<16xf32> -> tensor<16x2xf32>
    %14, %15 = tt.split %13 : tensor<16x2xf32> -> tensor<16xf32>
    %16 = tt.trans %10 {order = array<i32: 1, 0>} : tensor<4x4xi32> -> tensor<4x4xi32>
    %17 = tt.splat %f : f32 -> tensor<f32>
    // loads and stores: scalar, masked with other, hints, volatile, tensor pointer
    %m = arith.constant dense<true> : tensor<16xi1>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %ptrs2 = tt.addptr %ptrs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %18 = tt.load %p : !tt.ptr<f32>
    %19 = tt.load %ptrs2, %m, %t evictionPolicy = evict_first cacheModifier = cg : tensor<16x!tt.ptr<f32>>
    %20 = tt.load %ptrs2 {isVolatile = true} : tensor<16x!tt.ptr<f32>>
    %21 = tt.load %ps : !tt.ptr<f16, 3>
    tt.store %p, %18 : !tt.ptr<f32>
    // tensor pointers: a block of a larger tensor, loaded with a boundary check and padding
    %c1 = arith.constant 1 : i64
    %tp = tt.make_tensor_ptr %p, [%l, %l], [%l, %c1], [%i, %i] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
    %tp2 = tt.advance %tp, [%i, %i] : !tt.ptr<tensor<16x16xf32>>
    %blk = tt.load %tp2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
    tt.store %tp2, %blk {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x16xf32>>
    tt.store %ptrs2, %19, %m cacheModifier = wb evictionPolicy = evict_last : tensor<16x!tt.ptr<f32>>
    // atomics
    %22 = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs2, %t, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
    %23 = tt.atomic_rmw exch, relaxed, sys, %pi, %i : (!tt.ptr<i32>, i32) -> i32
    %24 = tt.atomic_cas acquire, cta, %pi, %i, %i : (!tt.ptr<i32>, i32, i32) -> i32
    // dot with the default precision
    %a = tt.splat %f : f32 -> tensor<16x16xf32>
    %25 = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    // a two-operand reduction (argmax) and a reverse scan
    %26:2 = "tt.reduce"(%t, %r) <{axis = 0 : i32}> ({
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %vm = arith.select %gt, %v0, %v1 : f32
      %im = arith.select %gt, %i0, %i1 : i32
      tt.reduce.return %vm, %im : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %27 = "tt.reduce"(%10) <{axis = 1 : i32}> ({
    ^bb0(%x: i32, %y: i32):
      %s = arith.addi %x, %y : i32
      tt.reduce.return %s : i32
    }) : (tensor<4x4xi32>) -> tensor<4xi32>
    %28 = "tt.scan"(%t) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.scan.return %s : f32
    }) : (tensor<16xf32>) -> tensor<16xf32>
    // external functions, histograms, calls, debugging
    %29 = tt.extern_elementwise %t, %t {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %asm = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %ti : tensor<16xi32> -> tensor<16xi32>
    %asm2:2 = tt.elementwise_inline_asm "mov.b32 $0, 0; mov.b32 $1, 0;" {constraints = "=r,=r", packed_element = 1 : i32, pure = false} -> i32, i32
    %30 = tt.histogram %ti : tensor<16xi32> -> tensor<8xi32>
    %31 = tt.call @external(%p, %i) : (!tt.ptr<f32>, i32) -> f32
    %32:2 = tt.call @two_results(%31) : (f32) -> (f32, i32)
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %t, %ti : tensor<16xf32>, tensor<16xi32>
    tt.print "done" {hex = true, isSigned = array<i32>}
    tt.assert %m, "mask must hold" : tensor<16xi1>
    tt.return
  }
  tt.func @map_elementwise(%a: tensor<16xi32>, %b: tensor<16xf32>) -> tensor<16xf32> {
    %r:2 = "tt.map_elementwise"(%a, %b) <{pack = 2 : i32}> ({
    ^bb0(%a0: i32, %a1: i32, %b0: f32, %b1: f32):
      tt.map_elementwise.return %b0, %b1, %a0, %a1 : f32, f32, i32, i32
    }) : (tensor<16xi32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi32>)
    tt.return %r#0 : tensor<16xf32>
  }
}
