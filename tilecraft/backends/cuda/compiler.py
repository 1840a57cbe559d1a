"""Compiling a `tt` module for NVIDIA GPUs, stage by stage as Triton's NVIDIA backend does:
``make_ttir`` (the shared tile passes) → ``make_ttgir`` (layouts) → ``make_llir`` (LLVM IR
from the layout maps) → ``make_ptx`` (LLVM's NVPTX backend, with libdevice) → ``make_cubin``
(ptxas). Nothing here needs a GPU. Every stage's text is kept in `CUDABinary.asm`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from tilecraft.ir import Operation, print_op

from ..ttir import make_ttir, run_verified
from . import toolchain

STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin")
_SUFFIXES = {"ttir": "ttir", "ttgir": "ttgir", "llir": "llir", "ptx": "ptx", "cubin": "cubin"}


@dataclass(frozen=True)
class CUDAOptions:
    """The compile options of a CUDA kernel (Triton's names)."""

    num_warps: int = 4
    num_stages: int = 3
    num_ctas: int = 1
    capability: int = 90
    threads_per_warp: int = 32
    debug: bool = False
    # floating-point multiplies and adds may be contracted into fused multiply-adds
    enable_fp_fusion: bool = True
    # the most registers a thread may use (ptxas's .maxnreg); None: as many as it needs
    maxnreg: int | None = None
    # the GPU ptxas assembles for when it is not `capability` (Triton's ``arch`` launch option:
    # sm_80 code, mma.sync, run on a Hopper GPU); None: `capability`
    assemble_for: int | None = None

    def __post_init__(self) -> None:
        if self.num_warps < 1 or self.num_warps & (self.num_warps - 1):
            raise ValueError(f"num_warps must be a power of two, got {self.num_warps}")
        if self.num_warps * self.threads_per_warp > 1024:
            raise ValueError(f"num_warps={self.num_warps} asks for "
                             f"{self.num_warps * self.threads_per_warp} threads per block; "
                             "CUDA allows at most 1024")


def ttgir_pipeline(options: CUDAOptions) -> str:
    """Triton's ``make_ttgir`` pass list, as far as tilecraft has the passes. ``triton-licm``
    runs before the pipeliner, as in Triton (for sm_80 and sm_90): it hoists a dot operand's
    layout conversion whose operand the loop does not change, so that the conversion's staging
    through shared memory (stores, barriers, ``ldmatrix``) runs once, not on every trip."""
    convert = (f"convert-triton-to-tritongpu{{num-warps={options.num_warps} "
               f"threads-per-warp={options.threads_per_warp} num-ctas={options.num_ctas} "
               f"target=cuda:{options.capability}}}")
    return (f"builtin.module({convert}, tritongpu-coalesce, "
            "tritongpu-remove-layout-conversions, tritongpu-optimize-thread-locality, "
            "tritongpu-accelerate-matmul, "
            "tritongpu-remove-layout-conversions, canonicalize, cse, triton-licm, "
            f"tritongpu-reduce-data-duplication, tritongpu-pipeline{{num-stages={options.num_stages}}}, "
            "tritongpu-prefetch, triton-nvidia-tma-lowering, canonicalize)")


def make_ttgir(ttir: Operation, options: CUDAOptions) -> Operation:
    """A copy of ``ttir`` with layouts, verified as `run_verified` says."""
    return run_verified(ttgir_pipeline(options), ttir.clone)


def make_llir(ttgir: Operation, options: CUDAOptions, metadata: dict) -> str:
    """LLVM IR of the kernel; fills ``metadata`` (name, argument kinds, shared bytes)."""
    from .kernel import lower_kernel

    module, info = lower_kernel(ttgir.clone(), num_warps=options.num_warps,
                                threads_per_warp=options.threads_per_warp,
                                capability=options.capability,
                                fp_fusion=options.enable_fp_fusion, maxnreg=options.maxnreg,
                                runs_on=options.assemble_for)
    metadata.update(name=info.name, arg_kinds=info.arg_kinds, shared=info.shared,
                    num_warps=options.num_warps, tensormaps=info.tensormaps,
                    global_scratch=info.global_scratch)
    return str(module)


def make_ptx(llir: str, options: CUDAOptions) -> str:
    return toolchain.llvm_to_ptx(llir, options.capability)


def make_cubin(ptx: str, options: CUDAOptions, metadata: dict) -> bytes:
    result = toolchain.ptx_to_cubin(ptx, options.assemble_for or options.capability,
                                    name=metadata["name"])
    metadata.update(registers=result.registers, spills=result.spills)
    return result.cubin


@dataclass
class CUDABinary:
    """A compiled kernel: every stage (``cubin`` as bytes) and its metadata."""

    name: str
    asm: dict
    metadata: dict = field(default_factory=dict)


def compile_ttir(module: Operation, options: CUDAOptions) -> CUDABinary:
    """``module`` (the frontend's `tt` module) compiled to a cubin."""
    metadata: dict = {"capability": options.capability, **asdict(options)}
    from tilecraft.transforms.tma_lowering import descriptors_use_tma

    ttir = make_ttir(module, rewrite_descriptors=not descriptors_use_tma(module,
                                                                         options.capability))
    ttgir = make_ttgir(ttir, options)
    llir = make_llir(ttgir, options, metadata)
    ptx = make_ptx(llir, options)
    cubin = make_cubin(ptx, options, metadata)
    asm = {"ttir": print_op(ttir), "ttgir": print_op(ttgir), "llir": llir, "ptx": ptx,
           "cubin": cubin}
    return CUDABinary(metadata["name"], asm, metadata)


def cache_files(binary: CUDABinary) -> dict[str, bytes | str]:
    return {f"{binary.name}.{_SUFFIXES[stage]}": binary.asm[stage] for stage in STAGES}


def binary_from_cache(files: dict, metadata: dict) -> CUDABinary:
    name = metadata["name"]
    asm = {stage: files[f"{name}.{_SUFFIXES[stage]}"] for stage in STAGES}
    return CUDABinary(name, asm, dict(metadata))
