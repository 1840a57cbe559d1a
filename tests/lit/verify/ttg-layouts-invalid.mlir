// The checks of the distributed and shared layout attributes, one per split, with Triton's
// messages (checked with --verify-diagnostics).
// RUN: tilecraft-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank.}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{Every element in threadsPerWarp must be a power of two.}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 6], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{Every element in warpsPerCTA must be a power of two.}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [3, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{After removing the zero bases the CGA encoding must be a permutation matrix}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 2]]}>

// -----

// expected-error @+1 {{order must be a permutation of 0..(rank-1), but was [1, 1]}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @+1 {{parent layout must have at least rank >= 2}}
#slice = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
#slice = #ttg.slice<{dim = 2, parent = #blocked}>

// -----

// expected-error @+1 {{After removing the zero bases the CGA encoding must be a permutation matrix}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8], CGALayout = [[0, 2]]}>

// -----

// expected-error @+1 {{After removing the zero bases the layout must be a permutation matrix}}
#linear = #ttg.linear<{register = [[0, 1], [0, 1]], lane = [[1, 0]], warp = [], block = []}>

// -----

// expected-error @+1 {{order must be a permutation of 0..(rank-1), but was [1, 1]}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 1]}>

// -----

// expected-error @+1 {{After removing the zero bases the CGA encoding must be a permutation matrix}}
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = [[1, 0], [1, 0]]}>
