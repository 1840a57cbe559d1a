"""Triton's ``arch`` launch option chooses the CUDA target a kernel is compiled for (the
benchmarks run the sm_80 code, mma.sync, on a Hopper GPU with it)."""

from __future__ import annotations

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda import toolchain
from tilecraft.runtime.compiler import CUDABackend, parse_arch
from tilecraft.runtime.jit import LAUNCH_OPTIONS

try:
    toolchain.find_ptxas()
    HAVE_PTXAS = True
except Exception:  # noqa: BLE001 - any failure to find it means: skip
    HAVE_PTXAS = False


@pytest.mark.parametrize("arch, capability", [("sm80", 80), ("sm_90a", 90), ("SM90", 90),
                                              (86, 86)])
def test_arch_names_a_capability(arch, capability):
    assert parse_arch(arch) == capability


@pytest.mark.parametrize("arch", ["hopper", "sm", "sm_6", ""])
def test_a_bad_arch_is_an_error_naming_it(arch):
    with pytest.raises(ValueError, match="arch must name a CUDA target"):
        parse_arch(arch)


def test_arch_picks_the_code_and_ptxas_assembles_it_for_the_device():
    assert "arch" in LAUNCH_OPTIONS
    options = CUDABackend(90).options({"arch": "sm80", "num_warps": 8})
    assert (options.capability, options.assemble_for, options.num_warps) == (80, 90, 8)
    assert CUDABackend(90).options({}).assemble_for is None
    assert CUDABackend(90).options({"arch": "sm_90a"}).assemble_for is None


@tc.jit
def scale_kernel(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) * 2)


@pytest.mark.skipif(not HAVE_PTXAS, reason="ptxas not found")
def test_sm80_code_assembled_for_a_hopper_gpu():
    kernel = tc.compile(tc.ASTSource(scale_kernel, {"x_ptr": "*fp32"}, {"BLOCK": 128}),
                        target=tc.GPUTarget("cuda", 90, 32), options={"arch": "sm80"})
    assert ".target sm_80" in kernel.asm["ptx"]
    assert toolchain.cubin_arch(kernel.asm["cubin"]) == 90


def _big_pipelined_matmul(target: int, options: dict):
    """The fp16 matmul of the CUDA tests with 128x256x64 blocks in 4 stages: 192 KiB of
    operand buffers, more than an sm_80 GPU has per program and less than an sm_90 one."""
    from tests.backends.cuda.test_kernels import SIGNATURES

    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {name: "i32:16" if kind == "i32" else kind for name, kind in signature.items()}
    constexprs = {**constexprs, "BM": 128, "BN": 256, "BK": 64}
    return tc.compile(tc.ASTSource(fn, signature, constexprs),
                      target=tc.GPUTarget("cuda", target, 32),
                      options={"num_stages": 4, "num_warps": 8, **options})


@pytest.mark.skipif(not HAVE_PTXAS, reason="ptxas not found")
def test_shared_memory_is_bounded_by_the_gpu_the_code_runs_on():
    """sm_80 code for a Hopper GPU may use Hopper's 227 KiB of shared memory per program; on
    an sm_80 GPU the same kernel is refused, naming the bytes and sm_80's limit."""
    kernel = _big_pipelined_matmul(90, {"arch": "sm80"})
    assert ".target sm_80" in kernel.asm["ptx"]
    assert 163 * 1024 < kernel.metadata["shared"] <= 227 * 1024
    with pytest.raises(Exception, match=r"needs \d+ bytes of shared memory here; sm_80 allows "
                                        rf"{163 * 1024} per program"):
        _big_pipelined_matmul(80, {})
