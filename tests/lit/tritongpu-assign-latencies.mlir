// tritongpu-assign-latencies: the loads feeding a dot's operands get `tt.latency`, the stages
// their data takes (num-stages - 1); it must leave alone loads that feed no dot (unless the loop
// has its own tt.num_stages), loops of one stage, loads too narrow for cp.async, and loops whose
// ops carry latencies already. The target plays no part.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-assign-latencies=num-stages=3 | filecheck %s

// Operands stored to shared memory.
// CHECK-LABEL: @matmul
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
// CHECK-NOT: tt.latency
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %xd = ttg.local_load %xs : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %ys = ttg.local_alloc %y : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %yd = ttg.local_load %ys : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Operands converted to the dot layout in registers; the target is not looked at.
// CHECK-LABEL: @sm75
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm75(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// No dot: nothing.
// CHECK-LABEL: @no_dot
// CHECK-NOT: tt.latency
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_dot(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %s = arith.addf %x, %y : tensor<32x32xf16, #blocked>
      %se = arith.extf %s : tensor<32x32xf16, #blocked> to tensor<32x32xf32, #blocked>
      %sm = ttg.convert_layout %se : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
      %d = arith.addf %acc, %sm : tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// No dot, but the loop asks for stages: its loads are pipelined.
// CHECK-LABEL: @no_dot_num_stages
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_dot_num_stages(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %s = arith.addf %x, %y : tensor<32x32xf16, #blocked>
      %se = arith.extf %s : tensor<32x32xf16, #blocked> to tensor<32x32xf32, #blocked>
      %sm = ttg.convert_layout %se : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
      %d = arith.addf %acc, %sm : tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 3 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The loop's own stage count wins over the option: one stage, nothing.
// CHECK-LABEL: @one_stage
// CHECK-NOT: tt.latency
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_stage(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %xd = ttg.local_load %xs : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %ys = ttg.local_alloc %y : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %yd = ttg.local_load %ys : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 1 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Four stages: latency 3.
// CHECK-LABEL: @four_stages
// CHECK: tt.load %{{.+}} {tt.latency = 3 : i32}
// CHECK: tt.load %{{.+}} {tt.latency = 3 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @four_stages(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %xd = ttg.local_load %xs : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %ys = ttg.local_alloc %y : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %yd = ttg.local_load %ys : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 4 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A thread holds one f16 of B per row: a 2-byte cp.async is not worth it, A alone is pipelined.
// CHECK-LABEL: @narrow
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK-NOT: tt.latency
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @narrow(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #blocked>
      %bq = ttg.convert_layout %bp : tensor<32x32x!tt.ptr<f16>, #blocked> -> tensor<32x32x!tt.ptr<f16>, #blocked1>
      %yq = tt.load %bq : tensor<32x32x!tt.ptr<f16>, #blocked1>
      %y = ttg.convert_layout %yq : tensor<32x32xf16, #blocked1> -> tensor<32x32xf16, #blocked>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A latency of the user's stays, and no other is added.
// CHECK-LABEL: @given
// CHECK: tt.load %{{.+}} {tt.latency = 1 : i32}
// CHECK-NOT: tt.latency
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @given(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs = tt.broadcast %r2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb2 = tt.addptr %pb, %offs : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %ap {tt.latency = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %xd = ttg.local_load %xs : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %ys = ttg.local_alloc %y : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
      %yd = ttg.local_load %ys : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %an = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %bn = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %an, %bn : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}
