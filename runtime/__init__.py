"""tilecraft.runtime: launching compiled kernels, the compile cache and the autotuner."""
