// tritongpu-pipeline makes the descriptor stores of loops asynchronous also when the loop makes
// the descriptor (tt.make_tensor_descriptor): each descriptor the loop makes then gets two maps
// in global scratch memory (three when the loop has a wgmma), written in turn with
// ttng.tensormap_create and fenced, a counter carried by the loop saying which; the TMA store
// of one iteration may still read its map while the next iteration writes the other. Must not
// fire: a descriptor made before the loop (its map is written once), a loop that makes a
// descriptor and stores only through a kernel argument, a descriptor made under an scf.if or
// carried to the next iteration (the loop's stores stay synchronous), an sm_80 module.
// RUN: tilecraft-opt %s --split-input-file -tritongpu-pipeline=num-stages=3 -canonicalize | filecheck %s

// The map of iteration i goes to slot i % 2 (the counter), innermost dimension first, strides
// in bytes; the store goes through the map once it is fenced.
// CHECK-LABEL: @made_in_loop
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16
// CHECK-NEXT: %[[MAPS:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %{{.+}} = scf.for %[[I:.+]] = %c0_i32 to %arg3 step %c1_i32 iter_args(%[[SLOT:.+]] = %c0_i32) -> (i32) : i32 {
// CHECK-NEXT: %[[BASE:.+]] = tt.addptr %arg1, %[[I]]
// CHECK-NEXT: %[[OFFSET:.+]] = arith.muli %[[SLOT]], %c128_i32 : i32
// CHECK-NEXT: %[[MAP:.+]] = tt.addptr %[[MAPS]], %[[OFFSET]] : !tt.ptr<i8>, i32
// CHECK-NEXT: ttng.tensormap_create %[[MAP]], %[[BASE]], [%c64_i32, %c64_i32], [%c64_i32, %arg2], [%c128_i64], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[MAP]] : !tt.ptr<i8>
// CHECK-NEXT: %[[DESC:.+]] = ttng.reinterpret_tensor_descriptor %[[MAP]] : !tt.ptr<i8> to !tt.tensordesc<64x64xf16>
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[SLOT]], %c1_i32
// CHECK-NEXT: %[[WRAPS:.+]] = arith.cmpi sge, %[[NEXT]], %c2_i32
// CHECK-NEXT: %[[FOLLOWING:.+]] = arith.select %[[WRAPS]], %c0_i32, %[[NEXT]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg0, %[[BUF]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[DESC]][%[[I]], %c0_i32] %[[BUF]]
// CHECK-NEXT: scf.yield %[[FOLLOWING]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tt.make_tensor_descriptor
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @made_in_loop(%v: tensor<64x64xf16, #blocked>, %p: !tt.ptr<f16>, %m: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %base = tt.addptr %p, %i : !tt.ptr<f16>, i32
      %d = tt.make_tensor_descriptor %base, [%m, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// A loop with a wgmma: three maps per descriptor. Every descriptor the loop makes gets its
// maps and its counter, also one it only loads through; the loop's own carried value stays
// first.
// CHECK-LABEL: @with_wgmma
// CHECK: %[[MAPS0:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
// CHECK-NEXT: %[[MAPS1:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
// CHECK-NEXT: %{{.+}}:3 = scf.for %{{.+}} iter_args(%{{.+}} = %cst, %[[SLOT0:.+]] = %c0_i32, %[[SLOT1:.+]] = %c0_i32)
// CHECK: tt.addptr %[[MAPS0]]
// CHECK: ttng.tensormap_create
// CHECK: %[[LOADED:.+]] = ttng.reinterpret_tensor_descriptor
// CHECK: arith.cmpi sge, %{{.+}}, %c3_i32
// CHECK: tt.descriptor_load %[[LOADED]]
// CHECK: tt.addptr %[[MAPS1]]
// CHECK: ttng.tensormap_create
// CHECK: %[[STORED:.+]] = ttng.reinterpret_tensor_descriptor
// CHECK: ttng.async_tma_copy_local_to_global %[[STORED]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @with_wgmma(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %p: !tt.ptr<f16>, %q: !tt.ptr<f16>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %in = tt.make_tensor_descriptor %q, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      %v = tt.descriptor_load %in[%i, %c0] : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16, #blocked>
      %out = tt.make_tensor_descriptor %p, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      tt.descriptor_store %out[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Must not fire: the descriptor is made before the loop (the store is still asynchronous).
// CHECK-LABEL: @made_before_loop
// CHECK-NOT: ttng.tensormap_create
// CHECK: %[[DESC:.+]] = tt.make_tensor_descriptor
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: scf.for %{{.+}} : i32 {
// CHECK: ttng.async_tma_copy_local_to_global %[[DESC]]
// CHECK-NOT: ttg.global_scratch_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @made_before_loop(%v: tensor<64x64xf16, #blocked>, %p: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %d = tt.make_tensor_descriptor %p, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// Must not fire: the loop makes a descriptor but stores only through a kernel argument (its
// map is not read by a store that may still be running).
// CHECK-LABEL: @stores_through_an_argument
// CHECK-NOT: ttg.global_scratch_alloc
// CHECK: scf.for %{{.+}} : i32 {
// CHECK-NEXT: %[[MADE:.+]] = tt.make_tensor_descriptor
// CHECK-NEXT: %[[V:.+]] = tt.descriptor_load %[[MADE]]
// CHECK: ttng.async_tma_copy_local_to_global %arg1
// CHECK-NOT: ttng.tensormap_create
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @stores_through_an_argument(%p: !tt.ptr<f16>, %d: !tt.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %in = tt.make_tensor_descriptor %p, [%i, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      %v = tt.descriptor_load %in[%c0, %c0] : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16, #blocked>
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// Must not fire: the descriptor is made under an scf.if of the loop; the loop keeps its stores.
// CHECK-LABEL: @made_under_if
// CHECK-NOT: ttng.
// CHECK: tt.make_tensor_descriptor
// CHECK-NEXT: tt.descriptor_store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @made_under_if(%v: tensor<64x64xf16, #blocked>, %p: !tt.ptr<f16>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.if %c {
        %d = tt.make_tensor_descriptor %p, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
        tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
      }
    }
    tt.return
  }
}

// -----

// Must not fire: the descriptor made in the loop is carried to the next iteration, whose store
// reads it (its map could be written again while that store runs); the loop keeps its stores.
// CHECK-LABEL: @carried
// CHECK-NOT: ttng.
// CHECK: tt.descriptor_store
// CHECK-NEXT: tt.make_tensor_descriptor
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried(%v: tensor<64x64xf16, #blocked>, %p: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %first = tt.make_tensor_descriptor %p, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%d = %first) -> (!tt.tensordesc<64x64xf16>) : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
      %next = tt.make_tensor_descriptor %p, [%i, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      scf.yield %next : !tt.tensordesc<64x64xf16>
    }
    tt.return
  }
}

// -----

// Must not fire on sm_80 (no TMA).
// CHECK-LABEL: @sm80
// CHECK-NOT: ttng.
// CHECK-NOT: ttg.global_scratch_alloc
// CHECK: tt.make_tensor_descriptor
// CHECK-NEXT: tt.descriptor_store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm80(%v: tensor<64x64xf16, #blocked>, %p: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %d = tt.make_tensor_descriptor %p, [%n, %c64], [%c64_i64, %c1_i64] : <f16>, <64x64xf16>
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<64x64xf16>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}
