"""The CUDA target: LLVM IR to PTX and cubins, and the launcher of cubins through cuda-python."""
