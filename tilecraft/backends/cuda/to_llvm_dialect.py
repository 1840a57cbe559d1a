"""``convert-triton-gpu-to-llvm``: a `ttg` module's kernel lowered to ops of the `llvm` dialect.

There is one GPU lowering: the one `make_llir` runs (`kernel.lower_kernel`, which builds an
LLVM module with llvmlite). This pass runs it on the module and imports what it builds with
`llvm_import`, so the `llvm` ops say exactly what the CUDA compiler hands to LLVM; exporting
them back (`llvm_export`) gives LLVM IR that compiles to the same PTX.

The warps and threads per warp are the module's ``ttg.num-warps`` and ``ttg.threads-per-warp``
(as `make_ttgir` set them); the compute capability is the pass option, or ``ttg.target``'s
(``cuda:90``) when the option is 0.
"""

from __future__ import annotations

from tilecraft.generated.passes import ConvertTritonGPUToLLVMPassBase
from tilecraft.ir import IntegerAttr, Operation, StringAttr, i32

from ..llvm_import import LLVMImportError, import_module
from .kernel import TRIPLE, lower_kernel

__all__ = ["ConvertTritonGPUToLLVM"]


def _integer(module: Operation, name: str, default: int) -> int:
    attr = module.attributes.get(name)
    return default if attr is None else attr.value


def _capability(module: Operation, option: int) -> int:
    if option:
        return option
    target = module.attributes.get("ttg.target")
    if target is None:
        return 90
    kind, _, number = target.value.partition(":")
    if kind != "cuda" or not number.isdigit():
        raise module.emit_error(f"convert-triton-gpu-to-llvm lowers for CUDA; 'ttg.target' is "
                                f"'{target.value}'")
    return int(number)


class ConvertTritonGPUToLLVM(ConvertTritonGPUToLLVMPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        body = op.regions[0].blocks[0]
        functions = [f for f in body if f.name == "tt.func"]
        if not functions:
            return
        if len(functions) > 1:
            raise functions[1].emit_error("convert-triton-gpu-to-llvm lowers one kernel; "
                                          "inline the other functions first")
        kernel = functions[0]
        num_warps = _integer(op, "ttg.num-warps", 4)
        threads = _integer(op, "ttg.threads-per-warp", 32)
        try:
            module, info = lower_kernel(op, num_warps=num_warps, threads_per_warp=threads,
                                        capability=_capability(op, self.compute_capability))
            lowered = import_module(module, kernel.location)
        except LLVMImportError as err:
            raise kernel.emit_error(f"the lowered kernel cannot be imported: {err}") from None
        kernel.erase()
        for new in lowered:
            body.append(new)
        op.attributes["ttg.shared"] = IntegerAttr(info.shared, i32)
        op.attributes["llvm.target_triple"] = StringAttr(TRIPLE)
        op.attributes["llvm.data_layout"] = StringAttr(module.data_layout)
