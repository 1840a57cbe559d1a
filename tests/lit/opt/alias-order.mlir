// Alias definitions in MLIR's order: by depth (an alias after the aliases it uses), types
// before attributes, then by name; aliases of one name are numbered in the order the printer
// meets them.
// RUN: tilecraft-opt %s | filecheck %s

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1, 2]
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4]
// CHECK-NEXT: #mma = #ttg.nvidia_mma
// CHECK-NEXT: #shared = #ttg.swizzled_shared
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #shared1 = #ttg.partitioned_shared<{{.*}}partitionLayout = #shared}>
// CHECK-NEXT: module
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#part = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #sw}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: tensor<32x32xf32, #mma>) {
    %0 = ttg.convert_layout %a : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #b2>
    %1 = ttg.convert_layout %0 : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #b4>
    %2 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #part, #ttg.shared_memory, mutable>
    tt.return
  }
}
