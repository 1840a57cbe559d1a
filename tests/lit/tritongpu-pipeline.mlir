// tritongpu-pipeline: loads that feed ttg.local_alloc in an scf.for become cp.async copies
// num-stages - 1 iterations ahead into num-stages buffers; it must leave alone loads with a
// non-zero `other`, loads whose address comes from another load, targets before sm_80 and
// loops marked tt.num_stages = 1.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-pipeline=num-stages=3 -canonicalize | filecheck %s

// Two loads of the loop's first two iterations before it (slots 0 and 1, masked by the trip
// count), then per iteration: wait for all but the newest group, copy iteration i+2 into the
// slot iteration i-1 read, read slot i, move the slot on.
// CHECK-LABEL: @matmul
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i32
// CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
// CHECK: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
// CHECK: %[[RUNS0:.+]] = arith.cmpi sgt, %arg2, %[[C0]]
// CHECK: %[[A0:.+]] = ttg.memdesc_index %[[A]][%[[C0]]]
// CHECK: %[[M0:.+]] = tt.splat %[[RUNS0]]
// CHECK: ttg.async_copy_global_to_local %{{.+}}, %[[A0]] mask %[[M0]]
// CHECK: ttg.memdesc_index %[[B]][%[[C0]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group tokens
// CHECK: arith.cmpi sgt, %arg2, %[[C1]]
// CHECK: ttg.memdesc_index %[[A]][%[[C1]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.memdesc_index %[[B]][%[[C1]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group tokens
// CHECK: scf.for %[[I:.+]] = %{{.+}} iter_args({{.*}}, %[[SLOT:.+]] = %[[C0]])
// CHECK-NEXT: %[[WAIT:.+]] = ttg.async_wait {num = 1 : i32}
// CHECK: %[[AHEAD:.+]] = arith.addi %[[I]], %[[C2]]
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[SLOT]], %[[C0]]
// CHECK: %[[PREV:.+]] = arith.subi %[[SLOT]], %[[C1]]
// CHECK: %[[INS:.+]] = arith.select %[[FIRST]], %[[C2]], %[[PREV]]
// CHECK: arith.cmpi slt, %[[AHEAD]], %arg2
// CHECK: ttg.memdesc_index %[[A]][%[[INS]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.memdesc_index %[[B]][%[[INS]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group tokens
// CHECK: %[[AV:.+]] = ttg.memdesc_index %[[A]][%[[SLOT]]]
// CHECK: ttg.local_load %[[AV]] token %[[WAIT]]
// CHECK: %[[BV:.+]] = ttg.memdesc_index %[[B]][%[[SLOT]]]
// CHECK: ttg.local_load %[[BV]] token %[[WAIT]]
// CHECK: tt.dot
// CHECK: %[[NEXT:.+]] = arith.addi %[[SLOT]], %[[C1]]
// CHECK: %[[WRAP:.+]] = arith.cmpi eq, %[[NEXT]], %[[C3]]
// CHECK: %[[NEW:.+]] = arith.select %[[WRAP]], %[[C0]], %[[NEXT]]
// CHECK: scf.yield {{.*}}, %[[NEW]]
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[A]]
// CHECK-NEXT: ttg.local_dealloc %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
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

// A load whose masked-off elements read a non-zero `other` stays (cp.async fills zeros); the
// other load is still pipelined.
// CHECK-LABEL: @nonzero_other
// CHECK-COUNT-1: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
// CHECK: scf.for
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK: ttg.local_alloc %{{.+}} : (tensor<32x32xf16, #blocked>)
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nonzero_other(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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
      %in = arith.cmpi slt, %i, %n : i32
      %mask = tt.splat %in : i1 -> tensor<32x32xi1, #blocked>
      %one = arith.constant dense<1.000000e+00> : tensor<32x32xf16, #blocked>
      %x = tt.load %ap, %mask, %one : tensor<32x32x!tt.ptr<f16>, #blocked>
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

// The address of the first load comes from a load: no load of this loop is pipelined.
// CHECK-LABEL: @indirect
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indirect(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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
      %o = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #blocked>
      %oi = arith.fptosi %o : tensor<32x32xf16, #blocked> to tensor<32x32xi32, #blocked>
      %ip = tt.addptr %ap, %oi : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %x = tt.load %ip : tensor<32x32x!tt.ptr<f16>, #blocked>
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

// sm_75 has no cp.async.
// CHECK-LABEL: @before_sm80
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @before_sm80(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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

// tt.num_stages = 1 on the loop wins over the option.
// CHECK-LABEL: @one_stage
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
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
