"""``convert-nv-gpu-to-llvm``: Triton's NVGPUToLLVM, on tilecraft's IR.

Triton's pass rewrites the ops of its `nvg` dialect that ``convert-triton-gpu-to-llvm`` leaves
into inline PTX. tilecraft has no such dialect: its GPU lowering writes that PTX while it
lowers the `ttng` ops, so an ``llvm.func`` holds nothing for this pass to rewrite. What the
pass can still say is whether that holds: a `ttg` or `ttng` op inside an ``llvm.func`` is an
error at the op (a kernel that was not lowered by ``convert-triton-gpu-to-llvm``).
"""

from __future__ import annotations

from tilecraft.generated.passes import ConvertNVGPUToLLVMPassBase
from tilecraft.ir import Operation

__all__ = ["ConvertNVGPUToLLVM"]

_GPU_DIALECTS = ("ttg.", "ttng.")


class ConvertNVGPUToLLVM(ConvertNVGPUToLLVMPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        for function in op.regions[0].blocks[0]:
            if function.name != "llvm.func":
                continue
            for inner in function.walk():
                if inner.name.startswith(_GPU_DIALECTS):
                    raise inner.emit_error(f"'{inner.name}' has no lowering to the llvm "
                                           "dialect here; run convert-triton-gpu-to-llvm on "
                                           "the kernel instead")
