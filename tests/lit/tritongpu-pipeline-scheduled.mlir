// tritongpu-pipeline on a loop that carries a schedule (tritongpu-assign-latencies and
// tritongpu-schedule-loops before it, as Triton runs them): the loads of stage 0 run as many
// iterations ahead as their users' stage, into that many buffers when the copies come after
// every read of the buffers (the schedule's cluster order puts them at the end of the body),
// each copy its own commit group (with its contiguity), the newest groups' tokens carried to
// the wait, which comes right before the first read of a buffer. It must leave
// alone loops on targets before sm_80 and loops whose schedule is one stage, and it removes
// the schedule attributes.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-assign-latencies -tritongpu-schedule-loops -tritongpu-pipeline -canonicalize | filecheck %s

// Operands converted to the dot layout in registers: buffers in the swizzled layout the dot
// operand wants, read straight into the dot layout. As Triton, two counters are carried, the
// slot to fill (the last filled before the loop) and the slot to read (-1 before the loop),
// each moved on where it is used; the slot read is the slot refilled after the dot.
// CHECK-LABEL: @registers
// CHECK-DAG: %[[CM1:.+]] = arith.constant -1 : i32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: ttg.memdesc_index %[[A]][%[[C0]]]
// CHECK: ttg.async_copy_global_to_local {{.*}} {contiguity = 8 : i32}
// CHECK-NEXT: ttg.async_commit_group
// CHECK: ttg.memdesc_index %[[B]][%[[C0]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.async_commit_group
// CHECK: ttg.memdesc_index %[[A]][%[[C1]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: %[[TA:.+]] = ttg.async_commit_group
// CHECK: ttg.memdesc_index %[[B]][%[[C1]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: %[[TB:.+]] = ttg.async_commit_group
// CHECK: scf.for %[[I:.+]] = {{.*}} iter_args({{.*}}, %[[INS:.+]] = %[[C1]], %[[EXT:.+]] = %[[CM1]], %[[WA:.+]] = %[[TA]], %[[WB:.+]] = %[[TB]])
// CHECK-NEXT: %[[E1:.+]] = arith.addi %[[EXT]], %[[C1]]
// CHECK-NEXT: %[[EW:.+]] = arith.cmpi sge, %[[E1]], %[[C2]]
// CHECK-NEXT: %[[SLOT:.+]] = arith.select %[[EW]], %[[C0]], %[[E1]]
// CHECK-NEXT: %[[WAIT:.+]] = ttg.async_wait %[[WA]], %[[WB]] {num = 2 : i32}
// CHECK-NEXT: %[[AV:.+]] = ttg.memdesc_index %[[A]][%[[SLOT]]]
// CHECK-NEXT: ttg.local_load %[[AV]] token %[[WAIT]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0
// CHECK-NEXT: %[[BV:.+]] = ttg.memdesc_index %[[B]][%[[SLOT]]]
// CHECK-NEXT: ttg.local_load %[[BV]] token %[[WAIT]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1
// CHECK-NEXT: tt.dot
// CHECK: %[[I1:.+]] = arith.addi %[[INS]], %[[C1]]
// CHECK-NEXT: %[[IW:.+]] = arith.cmpi sge, %[[I1]], %[[C2]]
// CHECK-NEXT: %[[FILL:.+]] = arith.select %[[IW]], %[[C0]], %[[I1]]
// CHECK: ttg.memdesc_index %[[A]][%[[FILL]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: %[[NA:.+]] = ttg.async_commit_group
// CHECK: ttg.memdesc_index %[[B]][%[[FILL]]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: %[[NB:.+]] = ttg.async_commit_group
// CHECK: scf.yield {{.*}}, %[[FILL]], %[[SLOT]], %[[NA]], %[[NB]]
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK-NOT: loop.stage
// CHECK-NOT: tt.scheduled_max_stage
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @registers(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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

// Operands stored to shared memory by the kernel: the buffers take the allocs' place.
// CHECK-LABEL: @matmul
// CHECK-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait {{.+}} {num = 2 : i32}
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.dot
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.yield
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

// A module that names no target is pipelined by its schedule.
// CHECK-LABEL: @no_target
// CHECK: scf.for
// CHECK: ttg.async_wait
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_target(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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

// sm_75 has no cp.async: the loop stays, without its schedule.
// CHECK-LABEL: @sm75
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK-NOT: loop.stage
// CHECK: tt.return
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

// One stage: no schedule, no pipelining.
// CHECK-LABEL: @one_stage
// CHECK-NOT: ttg.async_copy_global_to_local
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

// A wgmma reading the pipelined buffers becomes asynchronous, as Triton's pipeliner makes it:
// one buffer more than the distance (the dot still reads while the next copies go), a wait
// leaving it in flight right after it that orders its result and the buffers it reads, and a
// wait for it after the loop.
// CHECK-LABEL: @wgmma
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16
// CHECK: scf.for
// CHECK: ttg.async_wait {{.*}} {num = 2 : i32}
// CHECK-NEXT: %[[DOT:.+]] = ttng.warp_group_dot %[[AV:.+]], %[[BV:[^,]+]], %{{.+}} {isAsync = true}
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[DOT]], %[[AV]], %[[BV]] {pendings = 1 : i32}
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.yield %[[W]]#0,
// CHECK: ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32}
// CHECK: ttg.async_wait {num = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa_step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %sb_step = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %ra = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %oa = tt.broadcast %ra2 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %oa : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %rb = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %ob = tt.broadcast %rb2 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %pb2 = tt.addptr %pb, %ob : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %xs = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
      %ys = ttg.local_alloc %y : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %an = tt.addptr %ap, %sa_step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %bn = tt.addptr %bp, %sb_step : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A wgmma whose B is stored to shared memory in the loop is not left running: it is waited
// for right after it, and after the loop nothing is.
// CHECK-LABEL: @computed_operand
// CHECK: scf.for
// CHECK: %[[DOT:.+]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: ttng.warp_group_dot_wait %[[DOT]], {{.*}} {pendings = 0 : i32}
// CHECK-NOT: ttng.warp_group_dot_wait
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @computed_operand(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa_step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %sb_step = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %ra = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %oa = tt.broadcast %ra2 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %oa : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %rb = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %ob = tt.broadcast %rb2 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %pb2 = tt.addptr %pb, %ob : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %xs = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
      %y2 = arith.addf %y, %y : tensor<32x64xf16, #blocked1>
      %ys = ttg.local_alloc %y2 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %an = tt.addptr %ap, %sa_step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %bn = tt.addptr %bp, %sb_step : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A wgmma with A in registers, K twice the instruction's: split along K in two dots (A's
// halves by register moves, B's by subslices), each waiting only for its previous iteration's
// instance.
// CHECK-LABEL: @register_a
// CHECK: scf.for
// CHECK: tt.reshape {{.*}} -> tensor<64x2x16xf16
// CHECK: tt.trans {{.*}} {order = array<i32: 0, 2, 1>}
// CHECK: tt.split
// CHECK: %[[B0:.+]] = ttg.memdesc_subslice %[[B:.+]][0, 0]
// CHECK: %[[B1:.+]] = ttg.memdesc_subslice %[[B]][16, 0]
// CHECK: %[[D0:.+]] = ttng.warp_group_dot %{{.+}}, %[[B0]], %{{.+}} {isAsync = true}
// CHECK-NEXT: %[[W0:.+]]:2 = ttng.warp_group_dot_wait %[[D0]], %[[B0]] {pendings = 1 : i32}
// CHECK-NEXT: %[[D1:.+]] = ttng.warp_group_dot %{{.+}}, %[[B1]], %[[W0]]#0 {isAsync = true}
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D1]], %[[B1]] {pendings = 1 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @register_a(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa_step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %sb_step = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %ra = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %oa = tt.broadcast %ra2 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %pa2 = tt.addptr %pa, %oa : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %rb = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %ob = tt.broadcast %rb2 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %pb2 = tt.addptr %pb, %ob : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %pa2, %bp = %pb2) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>) : i32 {
      %x = tt.load %ap : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %xd = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %ys = ttg.local_alloc %y : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
      %d = ttng.warp_group_dot %xd, %ys, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %an = tt.addptr %ap, %sa_step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %bn = tt.addptr %bp, %sb_step : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
