//===- conversion_passes.td - lowering to the llvm dialect ----------------===//
//
// The passes of Triton's `make_llir` stage that turn GPU IR into MLIR's LLVM dialect, with
// MLIR's and Triton's command-line names and options; Triton writes them into the
// reproducers it saves (`--run-reproducer`).
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_CONVERSION_PASSES_TD
#define TILECRAFT_CONVERSION_PASSES_TD

include "base/PassBase.td"

def ConvertTritonGPUToLLVM : Pass<"convert-triton-gpu-to-llvm", "builtin.module"> {
  let summary = "Lower a ttg module's kernel to the llvm dialect";
  let description = [{
    The module's one kernel (`tt.func`, inlined) is lowered by the CUDA backend's GPU lowering
    (the one `make_llir` runs: shared memory allocation, barriers, layouts to registers) for
    `ttg.num-warps` warps of `ttg.threads-per-warp` threads and the compute capability of the
    option (0: `ttg.target`'s), and the LLVM module it builds is imported into `llvm` ops
    (`llvm.func` with `nvvm.kernel` and `nvvm.reqntid`, `llvm.mlir.global @global_smem`, ...),
    which replace the module's functions. The module gets `ttg.shared` (the bytes of shared
    memory the kernel needs), `llvm.target_triple` and `llvm.data_layout`.
  }];
  let dependentDialects = ["llvm"];
  let options = [
    Option<"computeCapability", "compute-capability", "int", "0",
           "the GPU's compute capability, e.g. 90 (0: from `ttg.target`)">,
    Option<"ptxVersion", "ptx-version", "int", "0",
           "accepted for Triton's command lines; the PTX version follows the capability">,
  ];
  let implModule = "tilecraft.backends.cuda.to_llvm_dialect";
}

def ConvertArithToLLVM : Pass<"convert-arith-to-llvm"> {
  let summary = "Lower arith ops on scalars and vectors to llvm ops";
  let description = [{
    MLIR's ArithToLLVM: `arith.constant` becomes `llvm.mlir.constant`, integer and float
    arithmetic, comparisons, `arith.select` and casts their llvm instructions, min/max the
    `llvm.smax`-style intrinsics. `index` is an integer of `index-bitwidth` bits (0: 64, the
    default data layout's), and values crossing to unconverted ops go through
    `builtin.unrealized_conversion_cast`. Ops on tensors stay.
  }];
  let dependentDialects = ["llvm"];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "int", "0",
           "bits of an `index` (0: from the data layout, 64)">,
  ];
  let implModule = "tilecraft.transforms.arith_to_llvm";
}

def ConvertIndexToLLVM : Pass<"convert-index-to-llvm"> {
  let summary = "Lower index dialect ops to llvm ops";
  let description = [{
    MLIR's IndexToLLVM lowers the ops of the `index` dialect (`index.add`, `index.casts`,
    ...). tilecraft has no `index` dialect (Triton's kernels compute on `index` through
    `arith`, which `convert-arith-to-llvm` lowers), so on tilecraft's IR the pass finds
    nothing to convert, as MLIR's does on IR without `index` ops; it checks its option.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "int", "0",
           "bits of an `index` (0: from the data layout, 64)">,
  ];
  let implModule = "tilecraft.transforms.arith_to_llvm";
}

def ConvertNVGPUToLLVM : Pass<"convert-nv-gpu-to-llvm", "builtin.module"> {
  let summary = "Lower the NVIDIA GPU ops that remain to llvm inline assembly";
  let description = [{
    Triton's NVGPUToLLVM rewrites the ops of its `nvg` dialect (warp-group MMAs, cluster
    ids, ...) that `convert-triton-gpu-to-llvm` leaves, as inline PTX. tilecraft's GPU
    lowering emits that PTX itself while it lowers `ttng` ops, so after
    `convert-triton-gpu-to-llvm` nothing of the kind remains; the pass checks that no `ttg`
    or `ttng` op is left inside an `llvm.func` and changes nothing.
  }];
  let implModule = "tilecraft.transforms.nv_gpu_to_llvm";
}

def LLVMDIScope : Pass<"enable-line-info", "builtin.module"> {
  let summary = "Give LLVM functions a debug-info scope, so LLVM emits line tables";
  let description = [{
    Triton's LLVMDIScope: each `llvm.func` whose location has no `#llvm.di_subprogram` gets
    one, fused into its location (`loc(fused<#llvm.di_subprogram<...>>[...])`), with the file,
    line and column of its location, a compile unit (`producer = "triton"`, line tables only)
    for a definition, and a subroutine type built from its signature. An op whose location is
    a call site (inlined code) gets its leaf locations fused with a
    `#llvm.di_lexical_block_file` of the function's subprogram.
  }];
  let dependentDialects = ["llvm"];
  let implModule = "tilecraft.transforms.line_info";
}

#endif // TILECRAFT_CONVERSION_PASSES_TD
