"""The CPU target: `tt` IR lowered to LLVM IR for the host, optimized at O3 and run by
llvmlite's MCJIT over the grid (see `lowering` for how tiles become loops)."""
