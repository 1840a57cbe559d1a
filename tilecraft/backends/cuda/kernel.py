"""The entry of the GPU lowering: a `ttg` module to an LLVM module with one ``ptx_kernel``.

Kernel arguments are passed as PTX parameters in their own types (pointers in the global
address space; fp16 and bf16 scalars as f32, as the launcher packs them; a tensor descriptor
as the global address of its ``CUtensorMap``; a kernel that allocates global scratch memory,
where it writes the maps of the descriptors it makes, gets one more parameter: that memory).
The function requires ``32 * num_warps`` threads per block (``"nvvm.reqntid"``, PTX
``.reqntid``, as Triton's kernels): with that, and no CTAs-per-SM bound, ptxas picks registers
for occupancy (on the H100, 121 for the d64 attention kernel, where ``.maxntid`` with
``.minnctapersm 1`` gave 130 and one CTA per SM instead of two: causal attention at 1k went
from 806 to 589 us, Triton 569 us); ``maxnreg`` caps them.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.analysis.allocation import ModuleAllocation
from tilecraft.analysis.axisinfo import AxisInfoAnalysis
from tilecraft.analysis.membar import (ModuleMembar, annotate_synced_via_async_wait,
                                       cuda_membar_filter)
from tilecraft.frontend.errors import CompilationError
from tilecraft.generated.tt import PointerType, TensorDescType
from tilecraft.ir import Operation

from ..cpu import types as T
from . import (async_copy, atomics, control, debug, dot, elementwise,  # noqa: F401
               memory, reductions, shapes, shared_memory, tma, wgmma)  # (registration)
from .global_scratch import plan_global_scratch  # (also registration)
from .lowering import GPULowering, KernelInfo, error_at
from .scratch_sizes import scratch_bytes

TRIPLE = "nvptx64-nvidia-cuda"


def argument_type(t) -> ir.Type:
    """The LLVM type of a kernel parameter of tile type ``t`` (a tensor descriptor: the global
    address of its ``CUtensorMap``)."""
    if isinstance(t, PointerType):
        return ir.PointerType(addrspace=t.address_space)
    if isinstance(t, TensorDescType):
        return ir.PointerType(addrspace=1)
    if T.is_narrow(t):
        return T.F32
    return T.reg_type(t)


# Largest dynamic shared memory per block, by compute capability (bytes).
SHARED_LIMITS = {80: 163 * 1024, 86: 99 * 1024, 89: 99 * 1024, 90: 227 * 1024}

# fp8 formats and the first compute capability with instructions for them (Triton's rule)
FP8_CAPABILITY = {"f8E4M3FN": 89, "f8E5M2": 80}


def _check_types(kernel: Operation, capability: int) -> None:
    """Refuses, at the kernel's source line, a type the target cannot compute with."""
    from tilecraft.ir import FloatType

    for op in kernel.walk():
        for value in (*op.operands, *op.results):
            t = T.element_type(value.type)
            if isinstance(t, PointerType):
                t = T.element_type(t.pointee_type)
            if isinstance(t, FloatType) and FP8_CAPABILITY.get(t.kind, 0) > capability:
                raise error_at(op, f"{t.kind} is not supported on sm_{capability} (it needs "
                               f"compute capability {FP8_CAPABILITY[t.kind]} or newer)")


def lower_kernel(module_op: Operation, *, num_warps: int, threads_per_warp: int = 32,
                 capability: int = 90, fp_fusion: bool = True,
                 maxnreg: int | None = None,
                 runs_on: int | None = None) -> tuple[ir.Module, KernelInfo]:
    """The LLVM module of the one public kernel of ``module_op`` (a `ttg` module, inlined).
    Shared memory is allocated and barriers inserted into ``module_op`` first; with
    ``fp_fusion`` floating-point multiplies and adds may become fused multiply-adds; ``maxnreg``
    caps the registers of a thread. ``runs_on``: the compute capability the code is assembled
    for when it is not ``capability`` (Triton's ``arch`` option: sm_80 code on a Hopper GPU),
    whose shared memory per program bounds the kernel's."""
    funcs = [op for op in module_op.regions[0].blocks[0] if op.name == "tt.func"]
    kernels = [f for f in funcs if f.sym_visibility != "private"] or funcs
    if not kernels:
        raise CompilationError("no tt.func to compile in the module")
    kernel = kernels[0]
    _check_types(kernel, capability)
    name = kernel.sym_name
    arg_types = list(kernel.function_type.inputs)
    info = KernelInfo(name, [], num_warps)
    for index, t in enumerate(arg_types):
        if isinstance(t, TensorDescType):
            info.arg_kinds.append("ptr")
            info.tensormaps.append(tma.tensormap_parameter(index, t))
        else:
            try:
                info.arg_kinds.append(T.arg_kind(t))
            except T.UnsupportedType:
                raise error_at(kernel, f"argument {index} of '{name}': a kernel cannot take "
                                       f"a {t}") from None
    info.global_scratch_offsets, info.global_scratch = plan_global_scratch(kernel)
    parameters = [argument_type(t) for t in arg_types]
    if info.global_scratch:
        parameters.append(ir.PointerType(addrspace=1))
        info.arg_kinds.append("ptr")
    module = ir.Module(name=name)
    module.triple = TRIPLE
    fnty = ir.FunctionType(ir.VoidType(), parameters)
    func = ir.Function(module, fnty, name)
    func.calling_convention = "ptx_kernel"
    # string attributes are not among llvmlite's known ones: add to the underlying set
    set.add(func.attributes, f'"nvvm.reqntid"="{threads_per_warp * num_warps}"')
    if maxnreg is not None:
        set.add(func.attributes, f'"nvvm.maxnreg"="{maxnreg}"')
    fl = GPULowering(module, func, info, threads_per_warp, capability)
    fl.fp_fusion = fp_fusion
    fl.axis_info = AxisInfoAnalysis(module_op)
    allocation = ModuleAllocation(module_op, scratch_fn=scratch_bytes)
    annotate_synced_via_async_wait(module_op)
    ModuleMembar(module_op, allocation, cuda_membar_filter, skip_satisfied_waits=True).run()
    fl.allocation = allocation.of(kernel)
    fl.async_proxy_reads = any(op.name == "ttng.warp_group_dot" for op in kernel.walk())
    fl.global_scratch = func.args[len(arg_types)] if info.global_scratch else None
    args = []
    for value, t in zip(func.args, arg_types):
        args.append(T.round_narrow(fl, value, t) if T.is_narrow(t) else value)
    control.lower_region(fl, kernel.body, args)
    if not fl.builder.block.is_terminated:
        fl.builder.ret_void()
    device = runs_on or capability
    limit = SHARED_LIMITS.get(device, 48 * 1024)
    if info.shared > limit:
        raise error_at(fl.largest_shared_user or kernel,
                       f"kernel '{name}' needs {info.shared} bytes of shared memory here; "
                       f"sm_{device} allows {limit} per program")
    return module, info
